"""The grid spelled out letter by letter: every slot's letter cells, where a rebus cell holds several letters.

A *letter cell* is one letter of the grid. An empty cell or a one-letter cell is its own letter
cell, under the cell's own index; a rebus cell of n letters (the constructor's STAR) is n letter
cells: the first under the cell's index, the others numbered from `width * height` up, in cell
order. A slot spells its cells' letters in order, so a 5-cell slot with STAR in one cell is an
8-letter entry. The across and the down slot through a rebus cell share its letter cells, in the
same order: crossing entries share the whole string. A grid without rebus cells has no extra
letter cells; its letter cells are its cells and its spelled slots are `find_slots`'s own.

A Schrödinger cell (`xwcp.model.entries`) is two letter cells, its first letter under the cell's index
and its second an extra letter cell (numbered among the rebus cells' in cell order): reading 1 of an
entry through it spells the first, reading 2 the second. So the readings share every other letter
cell, and each letter cell of a Schrödinger cell belongs to one reading of each entry through it.

What a letter cell holds (`SpelledGrid.letters`): '#' (a block), '.' (empty), 'A'-'Z', or one
character of a file's rebus that is not a letter ('&', '1'), which no listed word matches. The
problem compiler (`xwcp.compile.problem`) works on letter cells only, so the search kernels, AC-3 and
the CP-SAT and SAT models see an ordinary problem: slots of given lengths crossing at positions.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import NamedTuple

from xwcp.model.entries import pair_content, pair_letters
from xwcp.model.grid import EMPTY, Grid, Slot, find_slots


class SpelledGrid(NamedTuple):
    """A grid's slots over letter cells, and what each letter cell holds.

    Attributes:
        slots: the grid's slots (ids, names and order as `find_slots`), `cells` their letter cells.
        letters: what each letter cell holds: the grid's cells first (a rebus cell shows its
            first letter there), then the extra letter cells of rebus cells.
        cell_by_extra: the grid cell of letter cell `n_cells + k`.
        n_cells: width * height.

    A NamedTuple, not a dataclass: every fill imports this module, and a frozen dataclass costs about
    0.5 ms to create at import.
    """

    slots: tuple[Slot, ...]
    letters: tuple[str, ...]
    cell_by_extra: tuple[int, ...]
    n_cells: int

    def cell_of(self, letter_cell: int) -> int:
        """The grid cell that holds `letter_cell`."""
        return letter_cell if letter_cell < self.n_cells else self.cell_by_extra[letter_cell - self.n_cells]


def letter_contents(grid: Grid) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """What each letter cell of `grid` holds, and the grid cell of each extra letter cell
    (`SpelledGrid.letters` and `.cell_by_extra`, without the slots); worked out once per Grid and kept on it."""
    contents: tuple[tuple[str, ...], tuple[int, ...]] | None = grid.__dict__.get("_letter_contents")
    if contents is None:
        contents = _letter_contents_of(grid)
        object.__setattr__(grid, "_letter_contents", contents)  # not a field: equality and replace() ignore it
    return contents


def _letter_contents_of(grid: Grid) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """`letter_contents`'s work, done once per Grid."""
    pairs = grid.pairs
    if not pairs and not grid.has_rebus:
        return grid.cells, ()
    letters = list(grid.cells)
    cell_by_extra: list[int] = []
    for cell, text in enumerate(grid.cells):
        if cell in pairs:
            first, second = pair_letters(text)
            letters[cell] = first
            letters.append(second)
            cell_by_extra.append(cell)
        elif len(text) > 1:
            letters[cell] = text[0]
            letters.extend(text[1:])
            cell_by_extra.extend([cell] * (len(text) - 1))
    return tuple(letters), tuple(cell_by_extra)


def spell_out(grid: Grid, slots: tuple[Slot, ...] | None = None) -> SpelledGrid:
    """The grid's slots spelled over letter cells (`slots`: `find_slots(grid)`, when already found)."""
    slots = find_slots(grid) if slots is None else slots
    n_cells = len(grid.cells)
    letters, cell_by_extra = letter_contents(grid)
    if not cell_by_extra:
        return SpelledGrid(slots, letters, (), n_cells)
    letter_cells_by_cell: dict[int, tuple[int, ...]] = {}
    second_by_pair: dict[int, int] = {}
    first_extra = n_cells
    pairs = grid.pairs
    for cell, text in enumerate(grid.cells):
        if cell in pairs:
            second_by_pair[cell] = first_extra
            first_extra += 1
        elif len(text) > 1:
            letter_cells_by_cell[cell] = (cell, *range(first_extra, first_extra + len(text) - 1))
            first_extra += len(text) - 1
    spelled = tuple(
        slot
        if not letter_cells_by_cell.keys() & set(slot.cells) and slot.reading != 2
        else replace(
            slot,
            cells=tuple(
                lc
                for cell in slot.cells
                for lc in (
                    (second_by_pair[cell],)
                    if slot.reading == 2 and cell in second_by_pair
                    else letter_cells_by_cell.get(cell, (cell,))
                )
            ),
        )
        for slot in slots
    )
    return SpelledGrid(spelled, letters, cell_by_extra, n_cells)


def cells_of(spelled: SpelledGrid, letter_cells: Iterable[int]) -> list[int]:
    """The grid cells holding `letter_cells`, each once, in the order first met."""
    return list(dict.fromkeys(spelled.cell_of(lc) for lc in letter_cells))


def write_letters(grid: Grid, spelled: SpelledGrid, letter_by_cell: Mapping[int, str]) -> Grid:
    """`grid` with letters written into its empty cells (`letter_by_cell` by letter cell; a letter
    for a cell that is not empty, such as a rebus cell's, is not written: the grid has it already). A
    Schrödinger cell takes its two letters from its two letter cells, each where it was open."""
    letters = spelled.letters
    pairs = grid.pairs
    written = {
        cell: letter
        for cell, letter in letter_by_cell.items()
        if cell < spelled.n_cells and letters[cell] == EMPTY and cell not in pairs
    }
    if pairs:
        halves = {cell: list(pair_letters(grid.cells[cell])) for cell in pairs}
        for letter_cell, letter in letter_by_cell.items():
            cell = spelled.cell_of(letter_cell)
            if cell in pairs and letters[letter_cell] == EMPTY:
                halves[cell][0 if letter_cell < spelled.n_cells else 1] = letter
        written.update(
            (cell, pair_content(*half)) for cell, half in halves.items() if pair_content(*half) != grid.cells[cell]
        )
    return grid.with_letters(written) if written else grid
