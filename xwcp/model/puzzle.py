"""The Puzzle: a grid plus what puzzle files carry around it (title, author, copyright, notes, clues, kind)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.model.grid import Grid, Slot, find_slots


class ListedClue(NamedTuple):
    """One clue of a file's clue list: its label as printed (`A`, `L1`, `1-5`, '' when the file gives none), the
    entry it clues (an entry or slot name of the grid; None for a clue that is no entry), its text, and the
    cells of a clue that is no entry: a one-letter word on one cell (its letter is the crossing entries'), or
    none for a clue the file places on no cells (the solver places it)."""

    label: str
    entry: str | None
    text: str
    cells: tuple[int, ...] = ()


class ClueList(NamedTuple):
    """A clue list as a file titles it (`Rows`, `Blooms`, `Diagonal:Southeast`), its clues in the file's order."""

    title: str
    clues: tuple[ListedClue, ...]


CORNERS = ("TL", "T", "TR", "L", "C", "R", "BL", "B", "BR")
"""The corners of a cell a label may be printed in (ipuz's names)."""


class CellLabel(NamedTuple):
    """Text a file prints in a cell's corner: `corner` is ipuz's TL, T, TR, L, C, R, BL, B or BR (a cell's number
    is its TL label); variety puzzles label cells with letters (`A`, `M1`) instead of numbers."""

    cell: int
    corner: str
    text: str


@dataclass(frozen=True)
class Puzzle:
    """A grid and its metadata.

    Attributes:
        grid: the grid (bars, marks, rebus cells and a published numbering ride in it).
        title, author, copyright, notes: the file's metadata ('' when it has none).
        clue_by_slot: clue text by slot name like `12A` (the grid's numbering names the slots; a listed entry
            by its own name, `xwcp.model.entries`; the readings of an entry through Schrödinger cells share
            their entry's clue, `12A`).
        is_diagramless: the puzzle is published without its blocks shown (its grid still has them).
        alphabet: the puzzle's language (`xwcp.model.alphabet`): its cells hold this pack's code chars, and
            writers write them back as its letters (IJ, not a private-use char). English unless the file or
            the caller names another.
        theme: slot names (`12A`) of the constructor's theme entries: kept as they are by a fill.
        locked_cells: cells (row-major indices) whose letters the constructor locked against fills and edits.
            .ipuz and .json keep both; the other formats have no place for them.
        clue_lists: a variety puzzle's clue lists as its file gives them (titles, labels, order, clues placed on
            no cells); empty for a crossword whose clues are its Across and Down lists. The clue texts are also
            in `clue_by_slot` by entry name, and that is where edits go: writers take the texts from there.
        cell_labels: the labels a variety puzzle prints in its cells instead of the standard numbers.
        warnings: what reading the file had to say that the user should know (a locked solution opened
            with a key, a checksum that does not match, letters not read); one line each, without the
            file name. Never part of what a format writes.
    """

    grid: Grid
    title: str = ""
    author: str = ""
    copyright: str = ""
    notes: str = ""
    clue_by_slot: dict[str, str] = field(default_factory=dict)
    is_diagramless: bool = False
    warnings: tuple[str, ...] = field(default=(), compare=False)
    alphabet: Alphabet = ENGLISH
    theme: tuple[str, ...] = ()
    locked_cells: tuple[int, ...] = ()
    clue_lists: tuple[ClueList, ...] = ()
    cell_labels: tuple[CellLabel, ...] = ()

    def slots(self) -> tuple[Slot, ...]:
        return find_slots(self.grid)

    def clue(self, slot: Slot) -> str:
        """The clue of `slot`'s entry (both readings of an entry through Schrödinger cells share it)."""
        return self.clue_by_slot.get(slot.name) or self.clue_by_slot.get(slot.entry_name, "")


def clue_order(slots: Iterable[Slot]) -> list[Slot]:
    """Slots in the order puzzle files list clues: by number, across before down (the .puz order)."""
    return sorted(slots, key=lambda s: (s.number, s.direction.letter != "A"))


def puzzle_from_fill(puzzle: Puzzle, grid: Grid) -> Puzzle:
    """`puzzle` with its grid replaced by `grid` (a fill of it): metadata, clues and kind carried over."""
    return Puzzle(
        grid,
        puzzle.title,
        puzzle.author,
        puzzle.copyright,
        puzzle.notes,
        dict(puzzle.clue_by_slot),
        puzzle.is_diagramless,
        alphabet=puzzle.alphabet,
        theme=puzzle.theme,
        locked_cells=puzzle.locked_cells,
        clue_lists=puzzle.clue_lists,
        cell_labels=puzzle.cell_labels,
    )
