"""A design result as JSON and as text (the CLI's and the web builder's output), and its grids in xwcp's syntax."""

from __future__ import annotations

from typing import Any

from xwcp.designer.request import DesignRequest
from xwcp.designer.search import Design, DesignEvent, DesignResult
from xwcp.model import grid_lines


def design_dict(design: Design, request: DesignRequest) -> dict[str, Any]:
    """One design: `grid` (rows in the grid syntax of its language: letters as written, '#'), `words`, `blocks`,
    `quality`, where each theme entry went, the entries by slot id, and when it was found. The words are code
    chars, as the list holds them (the page and `emit` write them: Dutch IJ, a Hebrew final letter)."""
    problem = design.problem
    themes = [
        {"word": theme.word, "row": p.row + 1, "col": p.col + 1, "direction": p.direction.value}
        for theme, p in zip(request.themes, design.pattern.placements)
    ]
    return {
        "grid": _rows(design),
        "words": design.n_words,
        "blocks": design.n_blocks,
        "quality": design.quality.as_dict(),
        "themes": themes,
        "entries": {slot.name: entry for slot, entry in zip(problem.slots, design.entries)},
        "found_s": design.found_s,
        "seconds": design.done_s,
    }


def _rows(design: Design) -> list[str]:
    """The design's rows in the grid syntax of its language (Ñ, Ж, {IJ}, a Hebrew final letter where an entry
    ends), which reads back in that language."""
    return grid_lines(design.grid, design.problem.alphabet)


def result_dict(result: DesignResult, request: DesignRequest) -> dict[str, Any]:
    """The JSON answer: status, designs best first, the reason when fewer than asked, the rules and the stats."""
    rules = result.rules
    return {
        "status": result.status.value,
        "designs": [design_dict(d, request) for d in result.designs],
        "count": request.count,
        "reason": result.reason,
        "rules": {
            "size": f"{rules.width}x{rules.height}",
            "symmetry": rules.symmetry.value,
            "style": rules.style.value,
            "max_words": rules.max_words,
            "min_words": rules.min_words,
            "max_blocks": rules.max_blocks,
            "max_length": rules.max_fill_length,
        },
        "stats": result.stats.as_dict(),
        "notes": list(result.stats.notes),
    }


def result_text(result: DesignResult, request: DesignRequest) -> str:
    """Each design (its counts, quality, theme positions and grid), then a summary line."""
    lines: list[str] = []
    n = len(result.designs)
    for index, design in enumerate(result.designs, start=1):
        lines.append(
            f"design {index} of {n}: {design.n_words} words, {design.n_blocks} blocks, found in {design.found_s:.1f} s"
        )
        lines.append(design.quality.text())
        written = design.problem.alphabet.written_at_end
        for theme, p in zip(request.themes, design.pattern.placements):
            lines.append(f"  {written(theme.word)} at {p.text()}")
        lines.extend(_rows(design))
        lines.append("")
    stats = result.stats
    summary = (
        f"{n} design{'s' if n != 1 else ''} in {stats.wall_time_s:.1f} s: {stats.n_patterns} patterns "
        f"tried, {stats.n_unfillable} unfillable ({stats.n_cuts} cuts), {stats.n_undecided} undecided"
    )
    lines.append(summary)
    if result.reason:
        lines.append(f"{'no design: ' if not n else ''}{result.reason}")
    return "\n".join(lines)


def result_grids(result: DesignResult) -> str:
    """The designs in the grid syntax xwcp reads, each after a `; design N of M` comment line."""
    out = []
    for index, design in enumerate(result.designs, start=1):
        out.append(f"; design {index} of {len(result.designs)}")
        alphabet = design.problem.alphabet
        if not alphabet.is_ascii:
            out.append(f"; language: {alphabet.code}")  # read back in its letters
        out.extend(_rows(design))
    return "\n".join(out)


def event_line(event: DesignEvent) -> str:
    """A progress event as one line: seconds, then what happened."""
    return f"{event.seconds:6.1f} s  {event.text}"
