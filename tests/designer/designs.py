"""What the designer tests share: the two directions, a grid from rows, and the whole check of a design result."""

from __future__ import annotations

import itertools

from xwcp.base.types import Direction, FillStatus
from xwcp.designer.check import check_design
from xwcp.model import BLOCK, Grid, find_slots, parse_grid

A = Direction.ACROSS
D = Direction.DOWN


def grid_of(rows: list[str]) -> Grid:
    return parse_grid("\n".join(rows))


def blocks_differ(a: Grid, b: Grid) -> int:
    return sum((x == BLOCK) != (y == BLOCK) for x, y in zip(a.cells, b.cells))


def check_designs(result, themes: list[str], words_, min_diff: int = 8) -> None:
    assert result.status is FillStatus.FILLED, result.reason
    grids = [d.grid for d in result.designs]
    for d in result.designs:
        assert check_design(d.grid, result.rules, themes, words_) == []
        assert d.n_words == len(find_slots(d.grid)) and d.n_blocks == d.grid.n_blocks
    for a, b in itertools.combinations(grids, 2):
        assert blocks_differ(a, b) >= min_diff
    keys = [(d.quality.min_score, d.quality.mean_score) for d in result.designs]
    assert keys == sorted(keys, reverse=True)  # best first
