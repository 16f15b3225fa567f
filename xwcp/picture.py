"""Draw the heat map of a grid as a PNG: cells shaded by how many letters they can still take.

Blocks are black; entered letters are drawn in black; forced letters (one possibility) as grey
ghost letters; dead cells (no letter possible) are red with a cross; other cells go from white
(any letter) through green to deep blue (few letters). Clue numbers sit in the corners.
"""
from __future__ import annotations

from pathlib import Path

from xwcp.errors import InputError
from xwcp.grid import find_slots
from xwcp.problem import Problem


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
        raise InputError(f"cannot draw a picture as {path.suffix}; use a .png file name or one of "
                         + ", ".join(f".{f}" for f in formats), str(name))
    return path


def draw_heatmap(problem: Problem, data: dict, path: str | Path, cell_px: int = 40) -> None:
    """Write the heat map in `data` (from `analysis.heatmap_report`) to `path`, in the format its extension names.

    Raises:
        InputError: the file cannot be written.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import colormaps
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    grid = problem.grid
    width, height = grid.width, grid.height
    dpi = 100
    fig_w = width * cell_px / dpi + 1.4
    fig = plt.figure(figsize=(fig_w, height * cell_px / dpi + 0.7), dpi=dpi)
    ax = fig.add_axes([0.02, 0.02, (width * cell_px / dpi) / fig_w, 0.9])
    cmap = colormaps["YlGnBu_r"]
    norm = Normalize(vmin=1, vmax=26)
    number_by_cell = {s.cells[0]: s.number for s in find_slots(grid)}
    forced = {(f["row"], f["col"]): f["letter"] for f in data["forced"]}
    font = cell_px * 0.45
    for r in range(height):
        for c in range(width):
            n = data["cells"][r][c]
            y = height - 1 - r
            if n is None:
                ax.add_patch(Rectangle((c, y), 1, 1, facecolor="black", edgecolor="black"))
                continue
            letter = data["letters"][r][c]
            color = "white" if (n >= 26 or letter) else ("#d62728" if n == 0 else cmap(norm(n)))
            ax.add_patch(Rectangle((c, y), 1, 1, facecolor=color, edgecolor="#555555", linewidth=0.8))
            if letter:
                ax.text(c + 0.5, y + 0.42, letter, ha="center", va="center", fontsize=font, weight="bold")
            elif (r, c) in forced:
                ax.text(c + 0.5, y + 0.42, forced[(r, c)], ha="center", va="center", fontsize=font,
                        color="#888888")
            elif n == 0:
                ax.plot([c + 0.2, c + 0.8], [y + 0.2, y + 0.8], color="white", linewidth=2)
                ax.plot([c + 0.2, c + 0.8], [y + 0.8, y + 0.2], color="white", linewidth=2)
            elif n < 26:
                ax.text(c + 0.92, y + 0.08, str(n), ha="right", va="bottom", fontsize=font * 0.45,
                        color="white" if n <= 8 else "#333333")
            number = number_by_cell.get(r * width + c)
            if number is not None:
                ax.text(c + 0.06, y + 0.94, str(number), ha="left", va="top", fontsize=font * 0.4)
    ax.set_xlim(0, width)
    ax.set_ylim(0, height)
    ax.set_aspect("equal")
    ax.axis("off")
    title = "consistent" if data["status"] == "consistent" else f"unfillable: {data.get('slot', '')}"
    ax.set_title(f"letters still possible per cell{' ' if width >= 10 else chr(10)}({title})", fontsize=10)
    cax = fig.add_axes([0.04 + (width * cell_px / dpi) / fig_w, 0.1, 0.025, 0.75])
    bar = fig.colorbar(matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap), cax=cax)
    bar.set_label("letters possible (red cross = none)", fontsize=8)
    try:
        fig.savefig(path, dpi=dpi)
    except OSError as exc:
        raise InputError(f"cannot write PNG ({exc.strerror or exc})", str(path)) from None
    except ValueError as exc:  # matplotlib: an extension it cannot write (picture_path checks first)
        raise InputError(f"cannot write the picture ({_first_line(exc)}); use a .png file name", str(path)) from None
    finally:
        plt.close(fig)


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else exc.__class__.__name__
