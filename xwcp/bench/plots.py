"""Bench plots as PNG files: cactus plot, time vs slots, PAR-2 vs list size."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from xwcp.bench.entrants import Entrant, entrant_label
from xwcp.bench.rows import ANSWERED, SKIPPED, Row
from xwcp.bench.summary import par2_seconds

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def write_plots(rows: Sequence[Row], entrants: Sequence[Entrant], out_dir: Path, time_limit_s: float) -> list[Path]:
    """Cactus plot and time vs slots (and PAR-2 vs list size when a grid ran with several lists) as PNGs.

    Returns:
        The files written (none when no row has a measured time).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = [(e.name, e.kind) for e in entrants if not e.missing]
    measured = [r for r in rows if r["seconds"] is not None and (r["backend"], r["kind"]) in names]
    if not measured:
        return []
    written: list[Path] = []
    colors = {key: f"C{k % 10}" for k, key in enumerate(names)}

    def save(fig: Figure, name: str) -> None:
        FigureCanvasAgg(fig)
        path = out_dir / name
        fig.savefig(path, dpi=110)
        written.append(path)

    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.add_subplot()
    for key in names:
        times = sorted(
            float(r["seconds"])
            for r in measured
            if (r["backend"], r["kind"]) == key and r["status"] in ANSWERED and r["valid"] is not False
        )
        if times:
            ax.step(
                range(1, len(times) + 1),
                times,
                where="post",
                marker=".",
                color=colors[key],
                label=f"{entrant_label(*key)} ({len(times)})",
            )
    ax.set_yscale("log")
    ax.axhline(time_limit_s, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("runs settled (a fill or a proof of none)")
    ax.set_ylabel("seconds (log)")
    ax.set_title(f"Cactus plot, limit {time_limit_s:g} s")
    ax.legend(fontsize="small")
    save(fig, "cactus.png")

    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.add_subplot()
    for key in names:
        mine = [r for r in measured if (r["backend"], r["kind"]) == key and r["slots"] is not None]
        done = [r for r in mine if r["status"] in ANSWERED and r["valid"] is not False]
        open_ = [r for r in mine if r not in done]
        if done:
            ax.scatter(
                [r["slots"] for r in done],
                [float(r["seconds"]) for r in done],
                s=14,
                color=colors[key],
                label=entrant_label(*key),
            )
        if open_:
            ax.scatter(
                [r["slots"] for r in open_],
                [max(float(r["seconds"]), 1e-3) for r in open_],
                s=24,
                marker="x",
                color=colors[key],
                label=f"{entrant_label(*key)}: no answer" if not done else None,
            )
    ax.set_yscale("log")
    ax.axhline(time_limit_s, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("slots in the grid")
    ax.set_ylabel("seconds (log); x = limit, error or no answer")
    ax.set_title("Time vs grid size")
    ax.legend(fontsize="small")
    save(fig, "time-vs-slots.png")

    sizes = sorted({r["words"] for r in measured if r["words"] is not None})
    sizes_by_grid: dict[str, set[int | None]] = {}
    for r in measured:
        sizes_by_grid.setdefault(r["grid"], set()).add(r["words"])
    if any(len(grid_sizes) > 1 for grid_sizes in sizes_by_grid.values()):  # the same grid, several lists
        fig = Figure(figsize=(7, 4.5), layout="constrained")
        ax = fig.add_subplot()
        for key in names:
            par2 = []
            for size in sizes:
                mine = [
                    r
                    for r in rows
                    if (r["backend"], r["kind"]) == key and r["words"] == size and r["status"] != SKIPPED
                ]
                par2.append(sum(par2_seconds(r, time_limit_s) for r in mine) / len(mine) if mine else None)
            points = [(s, p) for s, p in zip(sizes, par2) if p is not None]
            if points:
                ax.plot(*zip(*points), marker="o", color=colors[key], label=entrant_label(*key))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("word-list entries")
        ax.set_ylabel("PAR-2 seconds (log)")
        ax.set_title("Cost vs list size")
        ax.legend(fontsize="small")
        save(fig, "time-vs-words.png")
    return written
