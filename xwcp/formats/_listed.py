"""Variety puzzles in files: clue lists whose entries are given as cells, read into listed entries and written back.

A file lists its clues in titled lists (ipuz `clues` sets, .jpz `<clues>`), each clue naming its cells.
A crossword's lists are Across and Down on the grid's own runs. A variety puzzle (Patchwork,
Two-Tone, Rows Garden, Marching Bands, spirals, a crossword with a diagonal clue) lists other
entries: any cells, in any order. `listed_entries` reads such lists into the grid's listed entries
(`xwcp.model.entries`), keeping each list's title, each clue's label and order
(`Puzzle.clue_lists`) so that a writer gives them back as the file had them:

- When the file also has Across and Down lists whose clues are exactly the grid's runs (a crossword
  with one diagonal), the runs stay the grid's entries and the other lists' entries are added.
- Otherwise the listed entries are the grid's only entries (`Grid.entries_only`): Across and Down
  runs that blocks and bars would make are not entries of a Rows Garden.

An entry is named after its list and label (`ROWS.A`, `BLOOMS.L1`, `INWARD.1-5`, `ALL_SQUARES.1`;
`PIECES.3` by position when the file labels none; `17A` for a numbered clue of an Across list; the
label itself in the `Entries` list xwcp writes for a grid drawn with listed entries), unique in the
puzzle, in upper case as the model keeps entry names. A clue the file places on no cells (Patchwork's unlabelled pieces, which the solver places)
is kept in its list with no entry, and so is a clue on one cell (a one-letter word of a Two-Tone or
Jelly Roll: its letter is its crossing entries', so it constrains no fill), with its cell. A clue that
joins several with " / " (a Marching Bands row, "Row 1A / Row 1B") is a chain of that many words
(`Entry.words`); writing the clue back keeps the count.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from xwcp.base.errors import InputError
from xwcp.base.types import Direction
from xwcp.model.entries import NAME_CHARS, Entry
from xwcp.model.grid import BLOCK, Grid, Slot, find_slots, make_grid
from xwcp.model.puzzle import CellLabel, ClueList, ListedClue, Puzzle

_DIRECTION_BY_WORD = {"across": Direction.ACROSS, "down": Direction.DOWN}
CHAIN_SEPARATOR = " / "
"""Between the clues of a chain's words in one clue text: a clue joining k parts is a chain of k words
(`xwcp.model.entries.Entry.words`), whose boundaries `xwcp fill` chooses."""
ENTRIES_TITLE = "Entries"
"""The list xwcp writes the listed entries that no clue list of the puzzle names in (a grid drawn in xwcp), each
clue labelled with its entry's name; reading such a list names each entry by its label."""


class FileClue(NamedTuple):
    """One clue as a file gives it: label (`A`, `1-5`, '' for none), its cells (flat indices, in order; None
    when the file places it on no cells) and its text."""

    label: str
    cells: tuple[int, ...] | None
    text: str


class FileList(NamedTuple):
    """One of a file's clue lists: its title as written (an ipuz key such as `Diagonal:Southeast`) and its clues."""

    title: str
    clues: Sequence[FileClue]


def list_direction(title: str) -> Direction | None:
    """ACROSS or DOWN for a list titled Across or Down (`Across`, `Down:Clues`, `Across words`), else None."""
    word = re.split(r"[\s:]", title.strip(), maxsplit=1)[0].lower()
    return _DIRECTION_BY_WORD.get(word)


def is_variety(lists: Sequence[FileList], grid: Grid, by_number: bool = False) -> bool:
    """True when the file's lists are not just Across and Down on the grid's runs: a list of another title with
    clues in it, or a clue of an Across or Down list on cells that are neither a run of that direction nor a
    straight part of one (a clue on part of an entry is a crossword's, read with a warning). `by_number`: a
    clue whose number names a run of its direction is that run's whatever its cells (.jpz files whose words
    are off, placed by number as their own readers place them)."""
    slots = find_slots(grid)
    slots_by_cell: dict[int, list[Slot]] = {}
    for slot in slots:
        for cell in slot.cells:
            slots_by_cell.setdefault(cell, []).append(slot)
    numbered = {(s.direction, str(s.number)) for s in slots} if by_number else set()
    for file_list in lists:
        direction = list_direction(file_list.title)
        if direction is None:
            if file_list.clues:
                return True
            continue
        for clue in file_list.clues:
            if (
                clue.cells is not None
                and not _in_a_run(clue.cells, direction, slots_by_cell)
                and (direction, clue.label.strip()) not in numbered
            ):
                return True
    return False


def _in_a_run(cells: tuple[int, ...], direction: Direction, slots_by_cell: Mapping[int, list[Slot]]) -> bool:
    for slot in slots_by_cell.get(cells[0], ()):
        if slot.direction is direction:
            at = slot.cells.index(cells[0])
            return slot.cells[at : at + len(cells)] == cells
    return False


def listed_entries(
    grid: Grid, lists: Sequence[FileList], source: str
) -> tuple[Grid, dict[str, str], tuple[ClueList, ...], list[str]]:
    """A variety puzzle's grid with its listed entries, its clue texts by entry name, its clue lists and warnings.

    Raises:
        InputError: an entry on a block, or through one cell twice (one line naming the list and label).
    """
    runs = {(s.direction, s.cells): s for s in find_slots(grid)}
    run_by_number = {(s.direction, s.number): s for s in find_slots(grid)}
    entries_only = not _runs_listed(lists, runs, run_by_number)
    taken: set[str] = set() if entries_only else {s.entry_name.upper() for s in runs.values()}
    entries: list[Entry] = []
    clue_by_name: dict[str, str] = {}
    out_lists: list[ClueList] = []
    n_unnumbered = 0
    for file_list in lists:
        direction = list_direction(file_list.title)
        listed: list[ListedClue] = []
        for position, clue in enumerate(file_list.clues, 1):
            name: str | None = None
            if direction is not None and not entries_only:
                slot = runs.get((direction, clue.cells)) if clue.cells is not None else None
                number = clue.label.strip()
                if slot is None and clue.cells is None and number.isdigit():
                    slot = run_by_number.get((direction, int(number)))
                if slot is None:
                    n_unnumbered += bool(clue.text)
                else:
                    name = slot.entry_name
            elif clue.cells is not None:
                _check_cells(grid, clue.cells, file_list.title, clue.label or str(position), source)
                if len(clue.cells) == 1:  # a one-letter word: its letter is its crossing entries', no entry
                    listed.append(ListedClue(clue.label, None, clue.text, clue.cells))
                    continue
                entry = Entry(
                    _entry_name(file_list.title, direction, clue.label, position, taken).upper(),
                    clue.cells,
                    chain_words(clue.text, len(clue.cells)),
                )
                name = entry.name  # as the model keeps it (upper case)
                taken.add(name)
                entries.append(entry)
            if name is not None and clue.text:
                clue_by_name[name] = clue.text
            listed.append(ListedClue(clue.label, name, clue.text))
        out_lists.append(ClueList(file_list.title, tuple(listed)))
    warnings = [f"{n_unnumbered} clues name no entry of the grid and are not read"] if n_unnumbered else []
    try:
        grid = make_grid(
            grid.width,
            grid.height,
            grid.cells,
            bars=grid.bars,
            marks=dict(grid.marks),
            numbers=None if grid.numbers is None or entries_only else dict(grid.numbers),
            entries=entries,
            entries_only=entries_only,
            pairs=grid.pairs,
            source=source,
        )
    except ValueError as exc:
        raise InputError(f"the file's entries do not fit its grid: {exc}", source) from None
    return grid, clue_by_name, tuple(out_lists), warnings


def chain_words(clue: str, n_cells: int) -> int:
    """How many answers a clue on `n_cells` cells joins: its " / "-separated parts (kotwords' convention for a
    Marching Bands row, "Row 1A / Row 1B", and a Rows Garden row), 1 for one clue or when the cells are too few
    for that many words of two letters."""
    n_words = clue.count(CHAIN_SEPARATOR) + 1
    return n_words if 2 * n_words <= n_cells else 1


def chain_clue(text: str, n_words: int) -> str:
    """The clue a writer gives an entry of `n_words` words: `text` when it joins that many parts with " / " (as
    `chain_words` reads it back), else its parts padded with "-" (or cut to the count, the rest joined into the
    last part) so that the file reads back as a chain of `n_words`."""
    if n_words <= 1 or text.count(CHAIN_SEPARATOR) == n_words - 1:
        return text
    parts = [part for part in text.split(CHAIN_SEPARATOR)] if text.strip() else []
    if len(parts) > n_words:
        parts = parts[: n_words - 1] + [", ".join(parts[n_words - 1 :])]
    parts += ["-"] * (n_words - len(parts))
    return CHAIN_SEPARATOR.join(part.strip() or "-" for part in parts)


def _runs_listed(
    lists: Sequence[FileList],
    runs: Mapping[tuple[Direction, tuple[int, ...]], Slot],
    run_by_number: Mapping[tuple[Direction, int], Slot],
) -> bool:
    """True when the file has Across or Down clues, each on one run of its direction (by cells, or by number
    when it gives none): the runs are the puzzle's entries, and other lists add to them."""
    seen = False
    for file_list in lists:
        direction = list_direction(file_list.title)
        if direction is None:
            continue
        for clue in file_list.clues:
            seen = True
            if clue.cells is not None:
                if (direction, clue.cells) not in runs:
                    return False
            elif not (clue.label.strip().isdigit() and (direction, int(clue.label)) in run_by_number):
                return False
    return seen


def _check_cells(grid: Grid, cells: tuple[int, ...], title: str, label: str, source: str) -> None:
    for cell in cells:
        if grid.cells[cell] == BLOCK:
            raise InputError(
                f"{title} clue {label} runs through the block at row {cell // grid.width + 1}, column "
                f"{cell % grid.width + 1}: an entry holds white cells only",
                source,
            )
    if len(set(cells)) != len(cells):
        raise InputError(f"{title} clue {label} goes through one cell twice; an entry goes through each once", source)


def _entry_name(title: str, direction: Direction | None, label: str, position: int, taken: set[str]) -> str:
    """A unique entry name from a list title and a clue label: the label itself in xwcp's `Entries` list, `17A`
    in an Across list, else `Title.Label`, in the characters an entry name allows."""
    label_part = _name_part(label) or str(position)
    if title == ENTRIES_TITLE and label_part.upper() not in taken:
        return label_part
    if direction is not None and label_part.isdigit():
        base = f"{label_part}{direction.letter}"
    else:
        title_part = _name_part(title.split(":")[-1]) or "Entry"
        base = f"{title_part}.{label_part}"
    name, n = base, 1
    while name.upper() in taken:
        n += 1
        name = f"{base}+{n}"
    return name


def _name_part(text: str) -> str:
    """`text` in name characters, other characters dropped: words joined by '_' (`All Squares` -> `All_Squares`),
    short ones by '-' (`1 D` -> `1-D`)."""
    words = ["".join(ch for ch in word if ch in NAME_CHARS) for word in text.split()]
    words = [w for w in words if w]
    if len(words) > 1 and all(len(w) <= 2 for w in words):
        return "-".join(words)
    return "_".join(words)


# ----- writing ------------------------------------------------------------------------------


def written_lists(puzzle: Puzzle) -> list[tuple[str, list[tuple[str, tuple[int, ...] | None, str]]]]:
    """The clue lists a writer writes for a puzzle with listed entries: (title, [(label, cells or None, text)]).

    The puzzle's own lists as read (`Puzzle.clue_lists`), each clue's text from `clue_by_slot` (where edits
    go) and its cells from the grid's entry of that name; then any entry of the grid that no list names, in an
    Across, Down or `Entries` list. A puzzle without listed entries gets its Across and Down lists."""
    grid = puzzle.grid
    slot_by_name = {s.entry_name: s for s in find_slots(grid) if s.reading <= 1}
    words_by_name = {entry.name: entry.words for entry in grid.entries}
    named: set[str] = set()
    out: list[tuple[str, list[tuple[str, tuple[int, ...] | None, str]]]] = []
    for clue_list in puzzle.clue_lists:
        items: list[tuple[str, tuple[int, ...] | None, str]] = []
        for clue in clue_list.clues:
            if clue.entry is None:
                items.append((clue.label, clue.cells or None, clue.text))
                continue
            slot = slot_by_name.get(clue.entry)
            if slot is None:
                continue  # the entry is gone (its cells became blocks)
            named.add(slot.entry_name)
            text = puzzle.clue_by_slot.get(slot.entry_name, "")
            items.append((clue.label, slot.cells, chain_clue(text, words_by_name.get(slot.entry_name, 1))))
        out.append((clue_list.title, items))
    rest: dict[str, list[tuple[str, tuple[int, ...] | None, str]]] = {}
    for slot in slot_by_name.values():  # slot order: across, down, then the listed entries as the grid lists them
        if slot.entry_name in named:
            continue
        title = (
            "Across"
            if slot.direction is Direction.ACROSS and not slot.label
            else ("Down" if slot.direction is Direction.DOWN and not slot.label else ENTRIES_TITLE)
        )
        label = str(slot.number) if not slot.label else slot.label
        text = chain_clue(puzzle.clue_by_slot.get(slot.entry_name, ""), words_by_name.get(slot.entry_name, 1))
        rest.setdefault(title, []).append((label, slot.cells, text))
    for title, items in rest.items():
        existing = next((entry for entry in out if entry[0] == title), None)
        if existing is not None:
            existing[1].extend(items)
        else:
            out.append((title, items))
    return out


def labels_by_cell(puzzle: Puzzle) -> dict[int, dict[str, str]]:
    """The labels a writer prints in each cell: a variety puzzle's own (`Puzzle.cell_labels`) by corner."""
    out: dict[int, dict[str, str]] = {}
    for label in puzzle.cell_labels:
        out.setdefault(label.cell, {})[label.corner] = label.text
    return out


def cell_labels(labels: Mapping[int, Mapping[str, str]]) -> tuple[CellLabel, ...]:
    """`Puzzle.cell_labels` from labels by cell and corner, in cell order."""
    return tuple(
        CellLabel(cell, corner, text)
        for cell in sorted(labels)
        for corner, text in labels[cell].items()
        if text.strip()
    )
