"""A core (`xwcp.search.core.CoreReport`: the slots that cannot be filled together) as JSON and as text.

The JSON `core` object is what `--format json` prints and the web builder outlines; the text is the message, the
grid with the core's cells marked and each slot's pattern, as `xwcp check` and `xwcp fill` print it.
"""

from __future__ import annotations

from typing import Any

from xwcp.compile.problem import Problem
from xwcp.model import BELOW, RIGHT, content_token, final_cells
from xwcp.search.core import CoreReport

JsonDict = dict[str, Any]
"""A JSON object as the CLI prints it."""


def core_json(core: CoreReport) -> JsonDict:
    """The JSON `core` object: slots (names), cells ([row, col]) and minimal; for a core the search found, also
    stopped, kind, message, patterns and the search's cost (backend, oracle_calls, seconds)."""
    out: JsonDict = {"slots": list(core.slots), "cells": [[r, c] for r, c in core.cells], "minimal": core.is_minimal}
    found = core.search
    if found is not None:
        out.update(
            {
                "stopped": found.is_stopped,
                "kind": found.kind.value,
                "message": core.message,
                "patterns": dict(core.patterns),
                "backend": found.backend,
                "oracle_calls": found.n_oracle_calls,
                "seconds": round(found.wall_time_s, 4),
            }
        )
    return out


def core_text(problem: Problem, core: CoreReport) -> str:
    """The core as text: its message, the grid with the core's cells marked '*', one line per slot with its pattern.

    A rebus cell shows as `[STAR]`; a bar as '|' between cells, or '-' under a cell on a line of its own.
    """
    grid = problem.grid
    marked = set(core.cells)
    finals = final_cells(grid, problem.alphabet)  # a Hebrew letter ending an entry shows its final form
    pattern_by_name = dict(core.patterns)
    lines = [f"Why: {core.message}."]
    for r in range(grid.height):
        row, under, length = [], [], 0
        for c in range(grid.width):
            cell = r * grid.width + c
            edge = ("|" if c and (cell - 1, RIGHT) in grid.bars else " ") if grid.bars else ""
            prefix = edge + ("*" if (r, c) in marked else " ")
            row.append(prefix + content_token(grid.cells[cell], problem.alphabet, cell in finals))
            if (cell, BELOW) in grid.bars:
                under.append(length + len(prefix))
            length += len(row[-1])
        lines.append("".join(row).rstrip())
        if under:
            lines.append("".join("-" if i in under else " " for i in range(max(under) + 1)))
    lines.append("key: * marks the cells of the slots that cannot be filled together")
    for name in core.slots:
        lines.append(f"  {name:>4}  {pattern_by_name[name]}")
    return "\n".join(lines)
