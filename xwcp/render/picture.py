"""Draw the heat map of a grid as a picture (PNG unless the name says otherwise): cells shaded by letters left.

Drawn for a constructor: blocks black; entered letters bold; forced letters (one possibility)
as lighter letters; dead cells (no letter possible) red with a cross; other cells from white
(any letter) through green to deep blue (few letters), with the count in the corner. Every
number and letter is black or white, whichever stands out more on its cell's colour. The
outer border is drawn, the title wraps instead of being cut, and a legend in words sits under
the grid. On an unfillable grid the cell counts say nothing (everything is dead), so the
picture shows the grid with the core (the slots that cannot be filled together) outlined.

The puzzle's own marks are drawn over that: bars as thick lines on cell edges, circled cells
with a circle, shaded cells hatched (a cell's own colour as a corner triangle), a rebus cell's
letters in a smaller type so they fit; numbers are the grid's (its published numbering when it
has one).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from xwcp.analysis.reports import Consistency, HeatmapReport
from xwcp.base.errors import InputError
from xwcp.compile.problem import Problem
from xwcp.model import RIGHT, Mark, number_by_cell as grid_numbers
from xwcp.runtime.writes import open_output

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.typing import ColorType

DPI = 100
DEAD_COLOR = "#d62728"
CORE_COLOR = "#d62728"
CORE_FILL = "#fde0dc"
"""A light red under the core's cells: the outline says where, the tint keeps it visible when small."""
GRID_LINE = "#555555"
BAR_WIDTH = 4.0
"""Line width of a bar between cells (points): thicker than the grid lines, thinner than the border."""
MARK_COLOR = "#444444"
"""Circles and the hatching of shaded cells on light cells (white on dark ones)."""
LIGHT_TEXT, DARK_TEXT = "white", "black"
MARGIN_IN = 0.25
"""Blank space around everything, in inches."""
COLORBAR_IN = 1.1
"""Width kept right of the grid for the colour bar and its label, in inches."""


def _luminance(rgb: Sequence[float]) -> float:
    """Relative luminance (WCAG) of an RGB(A) colour with components in 0..1."""

    def channel(x: float) -> float:
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(float(x)) for x in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def text_color(background: ColorType) -> str:
    """Black or white, whichever has the higher contrast ratio on `background` (any matplotlib colour)."""
    from matplotlib.colors import to_rgba

    lum = _luminance(to_rgba(background))
    on_black = (lum + 0.05) / 0.05
    on_white = 1.05 / (lum + 0.05)
    return DARK_TEXT if on_black >= on_white else LIGHT_TEXT


def legend_lines(report: HeatmapReport) -> list[str]:
    """The legend in words for the picture of a heat map report."""
    if report.status is Consistency.CONSISTENT:
        return [
            f"White: any letter still fits ({report.n_letters}). Green to dark blue: fewer letters fit; the small number "
            "is how many.",
            "Bold letter: entered. Lighter letter: forced (the only letter left). Red with a cross: no letter fits.",
        ]
    core = report.core
    if core is not None and len(core.slots) == 1:
        return [
            f"Outlined in red: {core.slots[0]}, which no listed word fits; change its letters or its length.",
            core.message[0].upper() + core.message[1:] + ".",
        ]
    if core is not None:
        return [
            f"Outlined in red: the {len(core.slots)} slots ({', '.join(core.slots)}) that cannot be "
            "filled together; change one of them.",
            core.message[0].upper() + core.message[1:] + ".",
        ]
    return ["No letter fits the cells marked with a red cross; the grid cannot be filled."]


DEFAULT_SUFFIX = ".png"
"""Added to a picture name without an extension."""


def picture_formats() -> list[str]:
    """The file extensions matplotlib can write, e.g. ['eps', 'jpeg', 'jpg', 'pdf', 'png', 'svg', ...]."""
    from matplotlib.backend_bases import FigureCanvasBase

    return sorted(FigureCanvasBase.get_supported_filetypes())


def picture_path(name: str | Path) -> Path:
    """The file a picture asked for as `name` is written to: `name`, or `name.png` without an extension.

    Raises:
        InputError: `name` is a directory or has an extension matplotlib cannot write.
    """
    path = Path(name)
    if path.is_dir() or str(name).endswith(("/", "\\")):
        raise InputError("is a directory; give a picture file name such as heat.png", str(name))
    if not path.suffix:
        return path.with_name(path.name + DEFAULT_SUFFIX)
    formats = picture_formats()
    if path.suffix.lower().lstrip(".") not in formats:
        raise InputError(
            f"cannot draw a picture as {path.suffix}; use a .png file name or one of "
            + ", ".join(f".{f}" for f in formats),
            str(name),
        )
    return path


def draw_heatmap(problem: Problem, report: HeatmapReport, path: str | Path, cell_px: int = 40) -> None:
    """Write the heat map `report` (from `analysis.heatmap_report`) to `path`, in the format its extension names.

    Raises:
        InputError: the file cannot be written.
    """
    import matplotlib.pyplot as plt

    fig = heatmap_figure(problem, report, cell_px)
    try:
        with open_output(path, "picture", binary=True) as stream:  # whole or not at all
            fig.savefig(stream, dpi=DPI, format=Path(path).suffix.lstrip(".").lower() or "png")
    except InputError:  # the file cannot be written: said by open_output
        raise
    except ValueError as exc:  # matplotlib: an extension it cannot write (picture_path checks first)
        raise InputError(f"cannot write the picture ({_first_line(exc)}); use a .png file name", str(path)) from None
    finally:
        plt.close(fig)


def heatmap_figure(problem: Problem, report: HeatmapReport, cell_px: int = 40) -> Figure:
    """The heat map `report` as a matplotlib Figure (the caller closes it)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import colormaps
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    grid = problem.grid
    width, height = grid.width, grid.height
    is_consistent = report.status is Consistency.CONSISTENT
    core = report.core if not is_consistent else None
    grid_w_in, grid_h_in = width * cell_px / DPI, height * cell_px / DPI
    fig_w_in = MARGIN_IN * 2 + grid_w_in + (COLORBAR_IN if is_consistent else 0)
    fig_w_in = max(fig_w_in, 4.5)  # room for a readable title and legend on the smallest grids
    chars_per_line = max(30, int((fig_w_in - 2 * MARGIN_IN) * 12))  # ~12 bold characters an inch at 10.5 pt
    if is_consistent:
        status = "consistent"
    elif core is not None and len(core.slots) == 1:
        status = f"unfillable: no word fits {core.slots[0]}"
    elif core is not None:
        status = f"unfillable: {len(core.slots)} slots cannot be filled together"
    else:
        status = f"unfillable: {report.wipeout_slot or ''}"
    title_lines = textwrap.wrap(f"Letters still possible per cell ({status})", chars_per_line)
    extra = []
    if grid.bars or grid.marks:
        extra = [
            "Thick lines between cells: bars. Circles, hatching (shaded) and corner colours: the puzzle's own marks."
        ]
    legend = [line for text in legend_lines(report) + extra for line in textwrap.wrap(text, int(chars_per_line * 1.35))]
    title_h_in = 0.22 * len(title_lines) + 0.15
    legend_h_in = 0.18 * len(legend) + 0.15
    fig_h_in = MARGIN_IN * 2 + title_h_in + grid_h_in + legend_h_in
    fig = plt.figure(figsize=(fig_w_in, fig_h_in), dpi=DPI)
    grid_left_in = (fig_w_in - grid_w_in - (COLORBAR_IN if is_consistent else 0)) / 2  # centred under the title
    grid_bottom_in = MARGIN_IN + legend_h_in
    ax = fig.add_axes((grid_left_in / fig_w_in, grid_bottom_in / fig_h_in, grid_w_in / fig_w_in, grid_h_in / fig_h_in))
    fig.text(0.5, 1 - MARGIN_IN / fig_h_in, "\n".join(title_lines), ha="center", va="top", fontsize=10.5, weight="bold")
    fig.text(
        MARGIN_IN / fig_w_in,
        MARGIN_IN / fig_h_in,
        "\n".join(legend),
        ha="left",
        va="bottom",
        fontsize=8.5,
        linespacing=1.3,
    )

    cmap = colormaps["YlGnBu_r"]
    free = report.n_letters  # the alphabet's size: every letter still fits
    norm = Normalize(vmin=1, vmax=free)
    number_by_cell = grid_numbers(grid)
    mark_by_cell = grid.mark_by_cell
    forced = {(f.row, f.col): f.letter for f in report.forced}
    core_cells = set(core.cells) if core is not None else set()
    dead = set(report.dead_cells or ()) if core is None else set()
    font = cell_px * 0.45
    for r in range(height):
        for c in range(width):
            n = report.counts[r][c]
            y = height - 1 - r
            if n is None:
                ax.add_patch(Rectangle((c, y), 1, 1, facecolor="black", edgecolor="black"))
                continue
            letter = report.letters[r][c]
            color: ColorType
            if not is_consistent:
                color = CORE_FILL if (r, c) in core_cells else (DEAD_COLOR if (r, c) in dead else "white")
            elif letter or n >= free:
                color = "white"
            else:
                color = DEAD_COLOR if n == 0 else cmap(norm(n))
            ink = text_color(color)
            ax.add_patch(Rectangle((c, y), 1, 1, facecolor=color, edgecolor=GRID_LINE, linewidth=0.8))
            mark = mark_by_cell.get(r * width + c)
            if mark:
                _draw_mark(ax, mark, c, y, MARK_COLOR if ink == DARK_TEXT else LIGHT_TEXT)
            if letter:
                size = font * min(1.0, 1.6 / len(letter))  # a rebus cell's letters fit in the cell
                ax.text(c + 0.5, y + 0.42, letter, ha="center", va="center", fontsize=size, weight="bold", color=ink)
            elif is_consistent and (r, c) in forced:
                ax.text(
                    c + 0.5, y + 0.42, forced[(r, c)], ha="center", va="center", fontsize=font, color=ink, alpha=0.7
                )
            elif color == DEAD_COLOR:
                ax.plot([c + 0.2, c + 0.8], [y + 0.2, y + 0.8], color=ink, linewidth=2)
                ax.plot([c + 0.2, c + 0.8], [y + 0.8, y + 0.2], color=ink, linewidth=2)
            elif is_consistent and n < free:
                ax.text(c + 0.93, y + 0.07, str(n), ha="right", va="bottom", fontsize=font * 0.45, color=ink)
            number = number_by_cell.get(r * width + c)
            if number is not None:
                ax.text(c + 0.06, y + 0.94, str(number), ha="left", va="top", fontsize=font * 0.4, color=ink)
    for cell, side in grid.bars:
        r, c = divmod(cell, width)
        y = height - 1 - r
        xs, ys = ([c + 1, c + 1], [y, y + 1]) if side == RIGHT else ([c, c + 1], [y, y])
        ax.plot(xs, ys, color="black", linewidth=BAR_WIDTH, solid_capstyle="butt")
    if core_cells:
        _outline(ax, core_cells, height)
    ax.add_patch(Rectangle((0, 0), width, height, fill=False, edgecolor="black", linewidth=2.5, clip_on=False))
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.axis("off")
    if is_consistent:
        bar_left_in = grid_left_in + grid_w_in + 0.2
        cax = fig.add_axes((bar_left_in / fig_w_in, grid_bottom_in / fig_h_in, 0.18 / fig_w_in, grid_h_in / fig_h_in))
        bar = fig.colorbar(matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap), cax=cax)
        bar.set_label("letters still possible", fontsize=8)
        bar.ax.tick_params(labelsize=7)
    return fig


def _draw_mark(ax: Axes, mark: Mark, c: int, y: int, ink: str) -> None:
    """A cell's marks at (c, y): its colour as a corner triangle, hatching when shaded, a circle (in `ink`)."""
    from matplotlib.patches import Circle, Polygon, Rectangle

    if mark.color:
        ax.add_patch(
            Polygon([(c, y), (c + 0.35, y), (c, y + 0.35)], closed=True, facecolor=mark.color, edgecolor="none")
        )
    if mark.shaded:
        ax.add_patch(Rectangle((c, y), 1, 1, fill=False, hatch="///", edgecolor=ink, linewidth=0, alpha=0.45))
    if mark.circle:
        ax.add_patch(Circle((c + 0.5, y + 0.5), 0.46, fill=False, edgecolor=ink, linewidth=1.2))


def _outline(ax: Axes, cells: set[tuple[int, int]], height: int) -> None:
    """Draw the outline of the union of `cells` ((row, col)): every cell edge not shared with another of them."""
    for r, c in cells:
        y = height - 1 - r
        for (dr, dc), (x0, y0, x1, y1) in (
            ((-1, 0), (c, y + 1, c + 1, y + 1)),
            ((1, 0), (c, y, c + 1, y)),
            ((0, -1), (c, y, c, y + 1)),
            ((0, 1), (c + 1, y, c + 1, y + 1)),
        ):
            if (r + dr, c + dc) not in cells:
                ax.plot([x0, x1], [y0, y1], color=CORE_COLOR, linewidth=3.5, solid_capstyle="projecting")


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
