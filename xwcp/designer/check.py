"""Check a designed grid end to end: the pattern's rules, theme entries whole, every other entry a listed word, none twice.

This is the check the design search, its tests and its benchmark hold every design to; it
reads nothing but the filled grid, so a design read back from JSON or a file is checked the
same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from xwcp.compile.controls import Controls
from xwcp.compile.problem import compile_problem
from xwcp.designer.rules import Rules, check_pattern
from xwcp.engine.result import check_fill
from xwcp.model import BLOCK, EMPTY, Grid, find_slots

if TYPE_CHECKING:
    from xwcp.words.wordlist import WordList


def check_design(
    grid: Grid, rules: Rules, themes: Iterable[str], words: WordList, *, min_score: int = 50, bans: Iterable[str] = ()
) -> list[str]:
    """Every way a filled design breaks the rules; empty when it keeps them all.

    Args:
        grid: the filled grid (letters and '#').
        rules: the pattern's rules (symmetry, style, counts).
        themes: the theme entries; each must be a whole entry.
        words: the word list every other entry must come from (at `min_score` or more, not in `bans`).

    Returns:
        One line per problem: the pattern's (see `check_pattern`), an empty cell, and the fill's
        (`check_fill`: a word not listed or below the floor, a word twice, crossings that disagree).
    """
    themes = list(themes)
    problems = check_pattern(grid, rules, themes)
    if any(cell == EMPTY for cell in grid.cells):
        return problems + ["the grid has empty cells"]
    slots = find_slots(grid)
    text_by_slot = {s.id: "".join(grid.cells[c] for c in s.cells) for s in slots}
    locks: dict[str, str] = {}
    kept: set[int] = set()
    for word in themes:
        slot = next((s for s in slots if text_by_slot[s.id] == word and s.name not in locks), None)
        if slot is None:
            continue  # check_pattern has said so
        locks[slot.name] = word
        kept.update(slot.cells)
    pattern = Grid(
        grid.width, grid.height, tuple(x if x == BLOCK or c in kept else EMPTY for c, x in enumerate(grid.cells))
    )
    problem = compile_problem(pattern, words, min_score=min_score, controls=Controls(locks=locks, bans=frozenset(bans)))
    entries = tuple(text_by_slot[s.id] for s in problem.slots)
    return problems + check_fill(problem, entries)
