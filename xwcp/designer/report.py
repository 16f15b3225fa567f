"""A design result as JSON and as text (the CLI's and the web builder's output), and its grids in xwcp's syntax."""
from __future__ import annotations

from typing import Any

from xwcp.designer.request import DesignRequest
from xwcp.designer.search import Design, DesignEvent, DesignResult


def design_dict(design: Design, request: DesignRequest) -> dict[str, Any]:
    """One design: `grid` (rows, letters and '#'), `words`, `blocks`, `quality`, where each theme entry went,
    the entries by slot id, and when it was found."""
    problem = design.problem
    themes = [{"word": theme.word, "row": p.row + 1, "col": p.col + 1, "direction": p.direction.value}
              for theme, p in zip(request.themes, design.pattern.placements)]
    return {"grid": list(design.grid.rows), "words": design.n_words, "blocks": design.n_blocks,
            "quality": design.quality.as_dict(), "themes": themes,
            "entries": {slot.name: entry for slot, entry in zip(problem.slots, design.entries)},
            "found_s": design.found_s, "seconds": design.done_s}


def result_dict(result: DesignResult, request: DesignRequest) -> dict[str, Any]:
    """The JSON answer: status, designs best first, the reason when fewer than asked, the rules and the stats."""
    rules = result.rules
    return {"status": result.status.value,
            "designs": [design_dict(d, request) for d in result.designs],
            "count": request.count, "reason": result.reason,
            "rules": {"size": f"{rules.width}x{rules.height}", "symmetry": rules.symmetry.value,
                      "style": rules.style.value, "max_words": rules.max_words, "min_words": rules.min_words,
                      "max_blocks": rules.max_blocks, "max_length": rules.max_fill_length},
            "stats": result.stats.as_dict(), "notes": list(result.stats.notes)}


def result_text(result: DesignResult, request: DesignRequest) -> str:
    """Each design (its counts, quality, theme positions and grid), then a summary line."""
    lines: list[str] = []
    n = len(result.designs)
    for index, design in enumerate(result.designs, start=1):
        lines.append(f"design {index} of {n}: {design.n_words} words, {design.n_blocks} blocks, "
                     f"found in {design.found_s:.1f} s")
        lines.append(design.quality.text())
        for theme, p in zip(request.themes, design.pattern.placements):
            lines.append(f"  {theme.word} at {p.text()}")
        lines.extend(design.grid.rows)
        lines.append("")
    stats = result.stats
    summary = (f"{n} design{'s' if n != 1 else ''} in {stats.wall_time_s:.1f} s: {stats.n_patterns} patterns "
               f"tried, {stats.n_unfillable} unfillable ({stats.n_cuts} cuts), {stats.n_undecided} undecided")
    lines.append(summary)
    if result.reason:
        lines.append(f"{'no design: ' if not n else ''}{result.reason}")
    return "\n".join(lines)


def result_grids(result: DesignResult) -> str:
    """The designs in the grid syntax xwcp reads, each after a `; design N of M` comment line."""
    out = []
    for index, design in enumerate(result.designs, start=1):
        out.append(f"; design {index} of {len(result.designs)}")
        out.extend(design.grid.rows)
    return "\n".join(out)


def event_line(event: DesignEvent) -> str:
    """A progress event as one line: seconds, then what happened."""
    return f"{event.seconds:6.1f} s  {event.text}"
