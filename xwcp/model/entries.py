"""Listed entries and Schrödinger cells: entries given as any run of cells, and cells that hold two letters.

An `Entry` is an ordered list of white cells (flat indices `row * width + col`, in reading order) with
a name of its own (`D1`, `Diag`, `Row 3`): any cells, in any direction, not necessarily adjacent. A
grid lists such entries in `Grid.entries`; its across and down slots (from blocks and bars) are kept
and the listed entries added (`Grid.entries_only` False, the default), or replaced by them
(`entries_only` True: wrap-around, hexagonal and Rows Garden layouts list every entry).

A Schrödinger cell (`Grid.pairs`) holds two letters, each making its own reading of every entry
through it: the entry's first reading takes the first letter of each of its Schrödinger cells, the
second reading the second letter of each (an entry through several of them, CLINTON/BOBDOLE, pairs
them in order). Every reading must be a listed word, and no word appears twice, so the two readings
of an entry differ. Its contents in `Grid.cells`: '.' while both letters are open, else a 2-character
string, first and second letter, '.' for one still open (`pair_content`); a rebus is never a pair.

A chain (`Entry.words` of 2 or more) is an entry filled by that many consecutive listed words whose
boundaries the fill chooses: a Marching Bands row or band, a Rows Garden row, a spiral read as one
run. Every layer that reads slots sees a chain as one slot over its cells (a file's own answer is the
words run together); `xwcp fill` splits it into `words` parts of listed lengths, named `NAME+1`,
`NAME+2`, ... (`chain_part_name`), and chooses where (`xwcp.services.chains`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

BLOCK = "#"
EMPTY = "."
"""A block and an empty cell, as `xwcp.model.grid` writes them (that module imports this one, so not from there)."""

PAIR_READINGS = 2
"""Readings of an entry through Schrödinger cells: one per letter of the cell."""


class Entry(NamedTuple):
    """One listed entry: a name and its cells.

    Attributes:
        name: the user-facing id, unique in the grid (derived slots are named `12A`, `3D`); letters, digits
            and `-_.+*` only, so the text syntax and every option naming a slot can carry it. A Grid keeps it in
            upper case (`Grid.__post_init__`): slot names are matched without regard to case (`--lock diag=...`
            as `--lock 12a=...`).
        cells: flat cell indices in reading order: white cells, each once, at least two.
        words: how many consecutive listed words fill the cells: 1 for an ordinary entry, 2 or more for a
            chain whose word boundaries the fill chooses (at least two cells a word).

    A NamedTuple, not a dataclass: every command imports this module, and a frozen dataclass costs about 0.5 ms
    to create at import.
    """

    name: str
    cells: tuple[int, ...]
    words: int = 1

    @property
    def is_chain(self) -> bool:
        """True for a chain: several words whose boundaries the fill chooses."""
        return self.words > 1


def normal_entries(entries: Iterable[Entry]) -> tuple[Entry, ...]:
    """`entries` as a Grid keeps them: names in upper case, cells a tuple of ints."""
    return tuple(Entry(str(e.name).upper(), tuple(int(c) for c in e.cells), int(e.words)) for e in entries)


CHAIN_PART_MARK = "+"
"""Between a chain's name and a part's number in the part's slot name (`ROWS.B+2`): a name character
(`NAME_CHARS`) that file readers do not put in the names they make."""


def chain_part_name(name: str, part: int) -> str:
    """The slot name of word `part` (from 1) of the chain `name` in a split of it: `ROWS.B+2`."""
    return f"{name}{CHAIN_PART_MARK}{part}"


def chain_of_part(name: str) -> str:
    """The chain a part's slot name belongs to (`ROWS.B+2` -> `ROWS.B`); '' for any other name."""
    head, mark, tail = name.rpartition(CHAIN_PART_MARK)
    return head if mark and tail.isdigit() else ""


NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.+*")
"""What an entry name is made of: no spaces, '=' or '/' (a reading's name is `NAME/1`)."""


def reading_name(name: str, reading: int) -> str:
    """The slot name of reading 1 or 2 of the entry `name` through Schrödinger cells: `39A/1`, `39A/2`."""
    return f"{name}/{reading}"


def entry_problem(width: int, height: int, cells: tuple[str, ...], entries: Iterable[Entry]) -> str | None:
    """Why `entries` do not fit a grid of these cells ('' problems: None): a bad name, a cell outside the
    grid, on a block or twice in one entry, fewer than two cells, or two entries with one name."""
    seen: set[str] = set()
    for entry in entries:
        if not entry.name or not set(entry.name) <= NAME_CHARS:
            return f"entry name {entry.name!r}: use letters, digits and -_.+* only"
        if entry.name.upper() in seen:
            return f"two entries are named {entry.name}"
        seen.add(entry.name.upper())
        if len(entry.cells) < 2:
            return f"entry {entry.name} has {len(entry.cells)} cell(s); an entry needs at least two"
        if not isinstance(entry.words, int) or entry.words < 1:
            return f"entry {entry.name}: {entry.words!r} words; an entry holds one word or more"
        if len(entry.cells) < 2 * entry.words:
            return (
                f"chain {entry.name} has {len(entry.cells)} cells: too few for {entry.words} words of two letters "
                "or more"
            )
        if len(set(entry.cells)) != len(entry.cells):
            return f"entry {entry.name} goes through a cell twice"
        for cell in entry.cells:
            if not 0 <= cell < width * height:
                return f"entry {entry.name}: cell {cell} is outside the {width}x{height} grid"
            if cells[cell] == BLOCK:
                row, col = divmod(cell, width)
                return f"entry {entry.name}: the cell at row {row + 1}, column {col + 1} is a block"
    return None


def pair_problem(width: int, cells: tuple[str, ...], pairs: Iterable[int]) -> str | None:
    """Why Schrödinger cells `pairs` do not fit (None when they do): outside the grid, a block, or contents
    other than '.' or two characters (letters or '.')."""
    for cell in pairs:
        if not 0 <= cell < len(cells):
            return f"Schrödinger cell {cell} is outside the grid"
        row, col = divmod(cell, width)
        content = cells[cell]
        if content == BLOCK:
            return f"the Schrödinger cell at row {row + 1}, column {col + 1} is a block"
        if content != EMPTY and (len(content) != 2 or any(ch in "#[]" for ch in content)):
            return (
                f"the Schrödinger cell at row {row + 1}, column {col + 1} holds {content!r}: it holds two letters "
                "(or '.' for one still open)"
            )
    return None


def pair_letters(content: str) -> tuple[str, str]:
    """The two letters of a Schrödinger cell's contents ('.' for one still open)."""
    return (EMPTY, EMPTY) if len(content) != 2 else (content[0], content[1])


def pair_content(first: str, second: str) -> str:
    """A Schrödinger cell's contents from its two letters ('.' for one still open): '.' when both are open."""
    return EMPTY if first == EMPTY and second == EMPTY else first + second
