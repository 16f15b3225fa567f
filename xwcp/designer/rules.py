"""The rules a designed block pattern keeps (symmetry, checking style, counts), and a validator for any grid.

`Rules` is what the user asks of a pattern; `check_pattern(grid, rules, themes)` lists every
way a grid breaks them, and is what the design search and the tests hold every design to:
- symmetry: a block's image under the symmetry is a block (rotational: 180 degrees; mirror:
  left-right; none);
- the white cells are connected (through edges, not corners);
- American style: every white cell is in an across and a down entry of 3 or more letters
  (no run of 1 or 2 white cells either way);
- British style: runs of white cells are 1 (the cell is unchecked that way) or 3 and more,
  every white cell is in at least one entry, and no entry has two unchecked cells in a row
  (so at least half of each entry's letters are checked, rounded down);
- at most `max_words` entries and `max_blocks` blocks (and at least `min_words` entries);
- no entry longer than `max_fill_length` but a theme entry or a theme entry's symmetric image;
- every theme entry is an entry of the grid, whole (a slot reads exactly the word).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from xwcp.model import BLOCK, Grid, find_slots

WORDS_BY_SIZE = {(15, 15): 78, (21, 21): 140}
"""Word-count caps publishers use for themed grids (NYT: 78 for a 15x15, 140 for a 21x21); other sizes
scale 78 by area."""
BLOCK_SHARE = 1 / 6
"""Default block cap as a share of the cells: 38 of 225 (NYT's informal ceiling; the five published themed
15x15s in bench/design_themes.json have 33-38). Side by side on those sets (count 2, no quality search,
load 5): a cap of 42 gave both designs in a median 3.3 s but 33 s on the AV Club set (67 patterns);
38 gave them in a median 5-7 s, at most 12 s (AV Club: 16 patterns), at a like mean score."""
WORD_SLACK = 4
"""Default floor on the word count below the cap (74 for 78): fewer words mean longer entries and wider
open areas. On the five theme sets of bench/design_themes.json (count 2, no quality search, 120 s) a floor
of 72 left the AV Club set at 1 design in 120 s (158 patterns tried); 74 gave both in 13 s (27 patterns)."""


class Symmetry(Enum):
    """Which cells mirror each other: rotational (180 degrees, the American norm), mirror (left-right), none."""

    ROTATIONAL = "rotational"
    MIRROR = "mirror"
    NONE = "none"

    def image(self, width: int, height: int, cell: int) -> int:
        """The cell that mirrors `cell` (itself when there is no symmetry or it is the centre)."""
        row, col = divmod(cell, width)
        if self is Symmetry.ROTATIONAL:
            return (height - 1 - row) * width + (width - 1 - col)
        if self is Symmetry.MIRROR:
            return row * width + (width - 1 - col)
        return cell


class Style(Enum):
    """Checking rules: American (every letter checked) or British (unchecked letters allowed, none two in a row)."""

    AMERICAN = "american"
    BRITISH = "british"


def default_max_words(width: int, height: int) -> int:
    """The word-count cap for a themed grid of this size (78 for 15x15), and never below an open grid's
    count (width + height), so a small grid is not refused for having too many words."""
    return WORDS_BY_SIZE.get((width, height), max(round(78 * width * height / 225), width + height))


def default_max_blocks(width: int, height: int) -> int:
    """The block cap for a grid of this size (38 for 15x15)."""
    return round(width * height * BLOCK_SHARE)


@dataclass(frozen=True)
class Rules:
    """What a designed pattern must keep.

    Attributes:
        width, height: the grid's size.
        symmetry: the block symmetry.
        style: American (all cells checked) or British checking.
        max_words: most entries (slots) in the grid.
        max_blocks: most blocks.
        min_words: fewest entries (0: no floor).
        max_fill_length: longest entry that is not a theme entry (None: no limit).
        max_block_run: most blocks in a row across or down (None: no limit).
    """

    width: int
    height: int
    symmetry: Symmetry = Symmetry.ROTATIONAL
    style: Style = Style.AMERICAN
    max_words: int = 78
    max_blocks: int = 38
    min_words: int = 0
    max_fill_length: int | None = None
    max_block_run: int | None = None

    @property
    def n_cells(self) -> int:
        return self.width * self.height

    def image(self, cell: int) -> int:
        return self.symmetry.image(self.width, self.height, cell)


def _runs(grid: Grid) -> list[tuple[str, list[int]]]:
    """Every maximal run of white cells, across then down, as (direction letter, cells)."""
    runs: list[tuple[str, list[int]]] = []
    w, h = grid.width, grid.height
    for letter, lines in (
        ("A", [[r * w + c for c in range(w)] for r in range(h)]),
        ("D", [[r * w + c for r in range(h)] for c in range(w)]),
    ):
        for line in lines:
            run: list[int] = []
            for cell in line + [-1]:
                if cell >= 0 and grid.cells[cell] != BLOCK:
                    run.append(cell)
                elif run:
                    runs.append((letter, run))
                    run = []
    return runs


def is_connected(grid: Grid) -> bool:
    """True when every white cell can reach every other through white neighbours (edges, not corners)."""
    white = [c for c, x in enumerate(grid.cells) if x != BLOCK]
    if not white:
        return True
    seen = {white[0]}
    queue = deque([white[0]])
    w, h = grid.width, grid.height
    while queue:
        cell = queue.popleft()
        row, col = divmod(cell, w)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            other = r * w + c
            if 0 <= r < h and 0 <= c < w and grid.cells[other] != BLOCK and other not in seen:
                seen.add(other)
                queue.append(other)
    return len(seen) == len(white)


def _where(grid: Grid, cell: int) -> str:
    return f"row {cell // grid.width + 1}, column {cell % grid.width + 1}"


def check_pattern(grid: Grid, rules: Rules, themes: Iterable[str] = ()) -> list[str]:
    """Every way `grid`'s block pattern breaks `rules`, and every theme entry it lacks; empty when it keeps them.

    Args:
        grid: the grid (letters, '.' and '#'); only blocks and, for themes, letters are read.
        rules: the rules (its width and height must be the grid's).
        themes: words that must each be a whole entry of the grid.
    """
    problems: list[str] = []
    if (grid.width, grid.height) != (rules.width, rules.height):
        return [f"the grid is {grid.width}x{grid.height}, the rules are for {rules.width}x{rules.height}"]
    for cell, value in enumerate(grid.cells):
        if (value == BLOCK) != (grid.cells[rules.image(cell)] == BLOCK):
            problems.append(f"not {rules.symmetry.value}: {_where(grid, cell)} and its image differ")
            break
    if not is_connected(grid):
        problems.append("the white cells are not connected")
    runs = _runs(grid)
    length_by_cell: dict[tuple[str, int], int] = {(d, c): len(run) for d, run in runs for c in run}
    if rules.style is Style.AMERICAN:
        for d, run in runs:
            if len(run) < 3:
                problems.append(
                    f"a {len(run)}-letter {'across' if d == 'A' else 'down'} run at "
                    f"{_where(grid, run[0])} (entries need 3 or more letters, every cell checked)"
                )
    else:
        for d, run in runs:
            if len(run) == 2:
                problems.append(f"a 2-letter {'across' if d == 'A' else 'down'} run at {_where(grid, run[0])}")
            if len(run) >= 3:
                other = "D" if d == "A" else "A"
                unchecked = [length_by_cell[(other, c)] == 1 for c in run]
                if any(a and b for a, b in zip(unchecked, unchecked[1:])):
                    problems.append(
                        f"the {'across' if d == 'A' else 'down'} entry at {_where(grid, run[0])} "
                        "has two unchecked letters in a row"
                    )
        for cell, value in enumerate(grid.cells):
            if value != BLOCK and length_by_cell[("A", cell)] == 1 and length_by_cell[("D", cell)] == 1:
                problems.append(f"the white cell at {_where(grid, cell)} is in no entry")
    if rules.max_block_run is not None:
        w, h = grid.width, grid.height
        for line in [[r * w + c for c in range(w)] for r in range(h)] + [
            [r * w + c for r in range(h)] for c in range(w)
        ]:
            text = "".join("#" if grid.cells[c] == BLOCK else "." for c in line)
            if "#" * (rules.max_block_run + 1) in text:
                problems.append(
                    f"more than {rules.max_block_run} blocks in a row at {_where(grid, line[0])}'s "
                    f"{'row' if line[1] - line[0] == 1 else 'column'}"
                )
                break
    slots = find_slots(grid)
    n_words = sum(1 for s in slots if s.length >= 3)
    if n_words > rules.max_words:
        problems.append(f"{n_words} entries, more than the {rules.max_words} allowed")
    if n_words < rules.min_words:
        problems.append(f"{n_words} entries, fewer than the {rules.min_words} asked for")
    if grid.n_blocks > rules.max_blocks:
        problems.append(f"{grid.n_blocks} blocks, more than the {rules.max_blocks} allowed")
    texts = ["".join(grid.cells[c] for c in s.cells) for s in slots]
    for word in themes:
        if word not in texts:
            problems.append(f"the theme entry {word} is not a whole entry of the grid")
    if rules.max_fill_length is not None:
        theme_set = set(themes)
        theme_cells = {frozenset(s.cells) for s, text in zip(slots, texts) if text in theme_set}
        for slot in slots:
            image = frozenset(rules.image(c) for c in slot.cells)
            if (
                slot.length > rules.max_fill_length
                and frozenset(slot.cells) not in theme_cells
                and image not in theme_cells
            ):
                problems.append(
                    f"{slot.name} has {slot.length} letters, more than the {rules.max_fill_length} "
                    "allowed for an entry that is neither a theme entry nor a theme entry's image"
                )
    return problems


def count_words(grid: Grid) -> int:
    """Entries of the grid (slots of 2+ letters; a designed grid has none shorter than 3)."""
    return len(find_slots(grid))
