"""The grid: cells (block, empty, letter or rebus letters), bars on cell edges, marks; slots and numbering.

A cell is a block (`BLOCK`, '#') or white. A white cell holds nothing (`EMPTY`, '.'), one
letter 'A'-'Z', or several letters (a rebus cell, e.g. 'STAR', given by the constructor).
A bar sits on the edge between two white cells and ends the entries that would run across it,
as a block does (British and cryptic barred grids). Marks (a circle, shading, a colour) ride
along with a cell and never change a fill.

A slot is a maximal run of at least two white cells across or down, ended by blocks, bars and
the grid's edge; a white cell in no slot of one direction is unchecked in that direction. A
cell is numbered when it starts an across or a down slot, in row-major order (the rule of
.puz files and puzpy), unless the grid carries its published numbering (`Grid.numbers`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from xwcp.base.types import Direction, SlotId
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.model.entries import Entry, entry_problem, normal_entries, pair_letters, pair_problem, reading_name

MAX_SIDE = 60
"""Largest grid side we accept: published puzzles reach past 30 (a 17x31 shaped grid, 50x50 specials);
more than 60 is almost certainly a wrong file."""

BLOCK = "#"
EMPTY = "."

RIGHT = "R"
"""A bar on a cell's right edge (between it and the cell to its right)."""
BELOW = "B"
"""A bar on a cell's bottom edge (between it and the cell below)."""

Bar = tuple[int, str]
"""(cell, side): a bar on the `RIGHT` or `BELOW` edge of a cell (flat index `row * width + col`)."""


class Mark(NamedTuple):
    """What a cell shows beyond its contents: a circle, shading, a background colour ('#RRGGBB').

    A NamedTuple (immutable, compared and hashed by value, false when it marks nothing), not a
    dataclass: every command imports this module, and a frozen dataclass costs 0.5 ms to create."""

    circle: bool = False
    shaded: bool = False
    color: str | None = None

    def __bool__(self) -> bool:
        return self.circle or self.shaded or self.color is not None


NOT_CELL_CONTENTS = "'#', '[' and ']' are not cell contents"
"""Why `is_cell_content` refuses a text, for a reader's error line."""


def cell_upper(text: str) -> str:
    """`text` in upper case for a cell, never changed into other letters: NFC first (a decomposed N + combining
    tilde is the Ñ it shows), then each character upper-cased only when that gives one character that
    lower-cases back to it. So ß stays ß (not SS), the ligature ﬁ stays ﬁ (not FI), Turkish dotless ı stays ı
    (not the I of i): a symbol no listed word matches, as a reader keeps any other. Plain English input is
    upper-cased as ever."""
    if text.isascii():
        return text.upper()
    out = []
    for ch in unicodedata.normalize("NFC", text):
        upper = ch.upper()
        out.append(upper if len(upper) == 1 and upper.lower() == ch else ch)
    return "".join(out)


def changed_letters(text: str) -> list[str]:
    """The characters of `text` that upper-casing would change into other letters (what `cell_upper` keeps),
    as `ß -> SS`, for a warning naming them."""
    if text.isascii():
        return []
    text = unicodedata.normalize("NFC", text)
    return [
        f"{ch} -> {ch.upper()}"
        for ch in dict.fromkeys(text)
        if ch.upper() != ch and (len(ch.upper()) != 1 or ch.upper().lower() != ch)
    ]


def is_cell_content(text: str) -> bool:
    """Can a white cell hold `text` (already upper case, no spaces)? Anything but '#', '[', ']' (the model's
    block and the text syntax's rebus brackets) and a lone '.' (an empty cell): every reader applies this
    rule, so whatever it reads can be written in the text syntax and read back."""
    return bool(text) and text != EMPTY and not any(ch in "#[]" for ch in text)


def is_letters(text: str) -> bool:
    """True for one or more letters 'A'-'Z' (a white cell's contents: a letter or a rebus)."""
    return bool(text) and text.isascii() and text.isalpha() and text.isupper()


@dataclass(frozen=True)
class Grid:
    """What the user drew.

    Attributes:
        width, height: the size in cells.
        cells: row-major; `BLOCK`, `EMPTY`, a letter 'A'-'Z', or a rebus string of 2+ letters. A file's
            rebus may hold other characters ('&', '1'): such a cell is kept as given, and no listed
            word (letters A-Z only) goes through it.
        bars: bars between cells, as (cell, `RIGHT` | `BELOW`) pairs; a bar on the grid's outer
            edge means nothing and is not kept (`normalize_bars`).
        marks: (cell, Mark) pairs in cell order, for cells with a circle, shading or colour.
        numbers: the published numbering as (cell, number) pairs in cell order, or None for the
            standard numbering; kept when a file numbers its cells in its own way.
        entries: listed entries (`xwcp.model.entries.Entry`): any cells, in any direction, named.
        entries_only: True: the listed entries are the grid's only entries; False: they are added to the
            across and down slots that blocks and bars make.
        pairs: Schrödinger cells (`xwcp.model.entries`): each holds two letters, '.' or a 2-character string
            in `cells`, and every entry through it has two readings.

    Raises:
        ValueError: a wrong cell count; listed entries or Schrödinger cells that do not fit the cells.
    """

    width: int
    height: int
    cells: tuple[str, ...]
    bars: frozenset[Bar] = frozenset()
    marks: tuple[tuple[int, Mark], ...] = ()
    numbers: tuple[tuple[int, int], ...] | None = None
    entries: tuple[Entry, ...] = ()
    entries_only: bool = False
    pairs: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        if len(self.cells) != self.width * self.height:
            raise ValueError(
                f"a {self.width}x{self.height} grid needs {self.width * self.height} cells, not {len(self.cells)}"
            )
        if self.entries or self.pairs:
            entries = normal_entries(self.entries)
            if entries != self.entries:
                object.__setattr__(self, "entries", entries)
            if not isinstance(self.pairs, frozenset):
                object.__setattr__(self, "pairs", frozenset(self.pairs))
            problem = entry_problem(self.width, self.height, self.cells, self.entries) or pair_problem(
                self.width, self.cells, self.pairs
            )
            if problem:
                raise ValueError(problem)
            if self.entries and not self.entries_only:
                names = [slot.name.upper() for slot in find_slots(self)]
                clash = next((name for name in names if names.count(name) > 1), None)
                if clash:
                    raise ValueError(f"two entries are named {clash}: name a listed entry apart from the grid's own")

    def cell(self, row: int, col: int) -> str:
        return self.cells[row * self.width + col]

    def is_white(self, cell: int) -> bool:
        return self.cells[cell] != BLOCK

    @property
    def rows(self) -> list[str]:
        """One string per row: '#', '.', letters, and a rebus cell as `[STAR]` (no marks or bars).

        For a grid with neither rebus cells, bars nor marks this is the whole text syntax;
        `render()` writes everything.
        """
        pairs = self.pairs
        return [
            "".join(
                "<" + "".join(pair_letters(self.cells[cell])) + ">"
                if cell in pairs
                else content_token(self.cells[cell])
                for cell in range(r * self.width, (r + 1) * self.width)
            )
            for r in range(self.height)
        ]

    @property
    def n_blocks(self) -> int:
        return sum(1 for c in self.cells if c == BLOCK)

    @property
    def mark_by_cell(self) -> dict[int, Mark]:
        return dict(self.marks)

    def mark(self, cell: int) -> Mark:
        """The cell's marks (an empty `Mark` when it has none)."""
        for marked, mark in self.marks:
            if marked == cell:
                return mark
        return Mark()

    def has_bar(self, cell: int, side: str) -> bool:
        return (cell, side) in self.bars

    @property
    def has_rebus(self) -> bool:
        """True when some cell holds more than one letter or a character other than A-Z."""
        pairs = self.pairs
        if not pairs:
            return any(c not in (BLOCK, EMPTY) and not (len(c) == 1 and is_letters(c)) for c in self.cells)
        return any(
            c not in (BLOCK, EMPTY) and not (len(c) == 1 and is_letters(c)) and cell not in pairs
            for cell, c in enumerate(self.cells)
        )

    @property
    def has_variety(self) -> bool:
        """True when the grid lists entries of its own or has Schrödinger cells (`xwcp.model.entries`)."""
        return bool(self.entries or self.pairs or self.entries_only)

    @property
    def has_chains(self) -> bool:
        """True when a listed entry is a chain of several words (`xwcp.model.entries.Entry.words`)."""
        return any(entry.words > 1 for entry in self.entries)

    @property
    def is_plain(self) -> bool:
        """True when the grid is blocks and one-letter cells only: no bars, rebus cells, marks, own numbering,
        listed entries or Schrödinger cells."""
        return not self.bars and not self.marks and self.numbers is None and not self.has_rebus and not self.has_variety

    def render(self, alphabet: Alphabet = ENGLISH) -> str:
        """The grid in xwcp's text syntax (`xwcp.model.text`), which `parse_grid` reads back equal (cells are
        `alphabet`'s code chars, written as its letters)."""
        return render_grid(self, alphabet)

    def with_letters(self, letter_by_cell: Mapping[int, str]) -> Grid:
        """A copy with the given cells set to letters or rebus strings (or '.' to erase; a Schrödinger cell
        takes `pair_content`); bars, marks, numbering, listed entries and Schrödinger cells are kept.

        Raises:
            ValueError: a cell is a block.
        """
        cells = list(self.cells)
        for cell, letter in letter_by_cell.items():
            if cells[cell] == BLOCK:
                raise ValueError(f"cell {cell} is a block")
            cells[cell] = letter
        return Grid(
            self.width,
            self.height,
            tuple(cells),
            self.bars,
            self.marks,
            self.numbers,
            self.entries,
            self.entries_only,
            self.pairs,
        )

    def with_cells(self, cells: Iterable[str]) -> Grid:
        """A copy with new cells (blocks may move): bars, marks, numbering, listed entries and Schrödinger
        cells are kept where they still fit (an entry or a Schrödinger cell on a new block is dropped)."""
        cells = tuple(cells)
        return make_grid(
            self.width,
            self.height,
            cells,
            bars=self.bars,
            marks=dict(self.marks),
            numbers=None if self.numbers is None else dict(self.numbers),
            entries=[e for e in self.entries if all(cells[c] != BLOCK for c in e.cells)],
            entries_only=self.entries_only,
            pairs=[c for c in self.pairs if cells[c] != BLOCK],
        )


def content_token(cell: str, alphabet: Alphabet = ENGLISH, final: bool = False) -> str:
    """A cell's contents (code chars of `alphabet`) as a text-syntax token: '#', '.', a letter, else `[...]`
    (a rebus or a symbol). A letter of several code points (Dutch IJ) is written `{IJ}`, inside a rebus too
    (`[{IJ}S]`); English writes as it always has (A-Z, else `[...]`). `final`: the cell ends an entry
    (`final_cells`), and its last letter is written in its final form where the pack has one (Hebrew ם)."""
    form = alphabet.final.get(cell[-1:]) if final and alphabet.final and cell not in (BLOCK, EMPTY) else None
    if form is None and (cell in (BLOCK, EMPTY) or is_letters(cell) and len(cell) == 1):
        return cell
    if alphabet.is_ascii:
        return f"[{cell}]"
    letters = [alphabet.cell_text(ch) for ch in cell]
    if form is not None:
        letters[-1] = form
    written = "".join(letter if len(letter) == 1 else "{" + letter + "}" for letter in letters)
    if len(cell) == 1 and (alphabet.index(cell) is not None or len(written) > 1):
        return written
    return f"[{written}]"


def final_cells(grid: Grid, alphabet: Alphabet) -> frozenset[int]:
    """The cells written with their last letter in its final form (`Alphabet.final`, Hebrew ך ם ן ף ץ): each cell
    where an entry ends, across or down (its slot's last cell in reading order; in a right-to-left grid the
    word's last letter), and whose last letter has a final form; so a cell that ends the across entry and sits
    inside the down one shows the final form too. Empty for a pack without final forms (every pack but Hebrew)."""
    if not alphabet.final:
        return frozenset()
    ends = {slot.cells[-1] for slot in find_slots(grid)}
    return frozenset(cell for cell in ends if grid.cells[cell][-1:] in alphabet.final)


def written_cells(grid: Grid, alphabet: Alphabet) -> tuple[str, ...]:
    """Each cell as `alphabet` writes it: '#', '.', its letters (`Alphabet.written`: "IJ", not a code char), the
    last in its final form in the `final_cells` (Hebrew ם). The one place the final-form rule is applied to cells:
    JSON `cells`, the page's answers and the formats that hold a cell's letters as text take their cells here."""
    finals = final_cells(grid, alphabet)
    return tuple(
        text if text in (BLOCK, EMPTY) else alphabet.written_at_end(text) if cell in finals else alphabet.written(text)
        for cell, text in enumerate(grid.cells)
    )


def normalize_bars(width: int, height: int, bars: Iterable[tuple[int, str]]) -> frozenset[Bar]:
    """Bars as (cell, `RIGHT` | `BELOW`): a 'L' (left) or 'T' (top) bar becomes the neighbour's right or
    bottom bar; bars on the grid's outer edge are dropped.

    Raises:
        ValueError: a side other than R, B, L, T or a cell outside the grid.
    """
    out: set[Bar] = set()
    for cell, side in bars:
        if not 0 <= cell < width * height:
            raise ValueError(f"bar on cell {cell}, outside a {width}x{height} grid")
        row, col = divmod(cell, width)
        side = side.upper()
        if side == "L":
            row, col, side = row, col - 1, RIGHT
        elif side == "T":
            row, col, side = row - 1, col, BELOW
        elif side not in (RIGHT, BELOW):
            raise ValueError(f"bar side {side!r}: use R, B, L or T")
        if row < 0 or col < 0 or (side == RIGHT and col >= width - 1) or (side == BELOW and row >= height - 1):
            continue
        out.add((row * width + col, side))
    return frozenset(out)


def check_cell_sizes(cells: tuple[str, ...], width: int, source: str | None = None) -> None:
    """Refuse a cell of more than MAX_CELL_CHARS characters, or cells of more than MAX_GRID_CHARS in all,
    before any work in proportion to them (slots, entries, warnings that spell them).

    Raises:
        InputError: naming the file, and the first cell over the cap by its row and column.
    """
    from xwcp.base.errors import InputError
    from xwcp.runtime.files import MAX_CELL_CHARS, MAX_GRID_CHARS, QUOTE_CHARS, quote

    total = 0
    for cell, content in enumerate(cells):
        if len(content) > MAX_CELL_CHARS:
            shown = quote(content) if len(content) > QUOTE_CHARS else f"{content!r} ({len(content)} characters)"
            raise InputError(
                f"the cell at row {cell // width + 1}, column {cell % width + 1} holds {shown}; a rebus "
                f"cell holds at most {MAX_CELL_CHARS} characters (published ones: under 10)",
                source,
            )
        total += len(content)
    if total > MAX_GRID_CHARS:
        raise InputError(
            f"the grid's cells spell {total:,} characters in all; the most is {MAX_GRID_CHARS:,} "
            f"(two per cell of a {MAX_SIDE}x{MAX_SIDE} grid)",
            source,
        )


def make_grid(
    width: int,
    height: int,
    cells: Iterable[str],
    *,
    bars: Iterable[tuple[int, str]] = (),
    marks: Mapping[int, Mark] | None = None,
    numbers: Mapping[int, int] | None = None,
    entries: Iterable[Entry] = (),
    entries_only: bool = False,
    pairs: Iterable[int] = (),
    source: str | None = None,
) -> Grid:
    """A Grid from loose parts: bars normalised (`normalize_bars`), empty marks dropped, numbering kept only
    when it differs from the standard numbering of the same cells and bars; listed entries and Schrödinger
    cells (`xwcp.model.entries`) as given.

    Raises:
        InputError: a cell, or all cells together, over the rebus caps (`check_cell_sizes`, naming `source`).
        ValueError: a wrong cell count, a bad bar, listed entries or Schrödinger cells that do not fit.
    """
    cells = tuple(cells)
    check_cell_sizes(cells, width, source)
    variety = (tuple(entries), entries_only, frozenset(pairs))
    grid = Grid(
        width,
        height,
        cells,
        normalize_bars(width, height, bars),
        tuple(sorted((cell, mark) for cell, mark in (marks or {}).items() if mark and 0 <= cell < width * height)),
        None,
        *variety,
    )
    if numbers:
        own = tuple(sorted((int(c), int(n)) for c, n in numbers.items() if 0 <= c < width * height))
        if own != tuple(sorted(standard_numbers(grid).items())):
            grid = Grid(width, height, cells, grid.bars, grid.marks, own, *variety)
    return grid


@dataclass(frozen=True, init=False)
class Slot:
    """One entry of the grid; `cells` are flat cell indices in reading order.

    Attributes:
        label: a listed entry's own name (`xwcp.model.entries.Entry`), '' for an across or down slot
            (named by number and direction).
        reading: 0, or 1 and 2 for the two readings of an entry through Schrödinger cells (both have the
            entry's grid cells; `xwcp.model.letters` gives the second its own letter cells).
    """

    id: SlotId
    number: int
    direction: Direction
    row: int
    col: int
    cells: tuple[int, ...]
    label: str = ""
    reading: int = 0

    def __init__(
        self,
        id: SlotId,
        number: int,
        direction: Direction,
        row: int,
        col: int,
        cells: tuple[int, ...],
        label: str = "",
        reading: int = 0,
    ) -> None:
        # one dict update, not a frozen dataclass's eight object.__setattr__ calls: a 21x21 parse makes 140 slots
        self.__dict__.update(
            id=id, number=number, direction=direction, row=row, col=col, cells=cells, label=label, reading=reading
        )

    @property
    def length(self) -> int:
        """The number of cells (a rebus cell counts once; see `letter_length` for the entry's letters)."""
        return len(self.cells)

    @property
    def entry_name(self) -> str:
        """The entry's id, e.g. `12A`, `3D` or a listed entry's name; both readings of an entry through
        Schrödinger cells share it (and its clue)."""
        return self.label or f"{self.number}{self.direction.letter}"

    @property
    def name(self) -> str:
        """The user-facing id of this slot: `entry_name`, and `12A/1`, `12A/2` for the readings of an entry
        through Schrödinger cells."""
        return reading_name(self.entry_name, self.reading) if self.reading else self.entry_name

    def letter_length(self, grid: Grid) -> int:
        """Letters in the entry: a rebus cell counts its letters, any other cell one."""
        return sum(max(1, len(grid.cells[c])) for c in self.cells)


def _joins(grid: Grid) -> tuple[list[bool], list[bool]]:
    """(right, below) by cell: is the cell white and joined to its neighbour on that side (white, no bar
    between)? One pass over the cells: a compile asks this of every cell (a fifth of a 21x21 compile once)."""
    width, cells = grid.width, grid.cells
    n = len(cells)
    white = [c != BLOCK for c in cells]
    right = [white[i] and white[i + 1] and (i + 1) % width != 0 for i in range(n - 1)] + [False]
    below = [white[i] and white[i + width] for i in range(n - width)] + [False] * width
    for cell, side in grid.bars:
        (right if side == RIGHT else below)[cell] = False
    return right, below


def _runs(grid: Grid, joins: tuple[list[bool], list[bool]] | None = None) -> list[tuple[Direction, int, int]]:
    """Slot starts (direction, row, col) in reading order of their start cells (`joins`: `_joins(grid)`
    when the caller has it)."""
    width = grid.width
    right, below = _joins(grid) if joins is None else joins
    starts: list[tuple[Direction, int, int]] = []
    for i in range(len(right)):
        if right[i] and (i % width == 0 or not right[i - 1]):
            starts.append((Direction.ACROSS, i // width, i % width))
        if below[i] and (i < width or not below[i - width]):
            starts.append((Direction.DOWN, i // width, i % width))
    return starts


def standard_numbers(grid: Grid, starts: list[tuple[Direction, int, int]] | None = None) -> dict[int, int]:
    """The standard numbering: number by start cell, counting from 1 in row-major order (`starts`: `_runs(grid)`
    when the caller has it)."""
    number_by_cell: dict[int, int] = {}
    for _, r, c in _runs(grid) if starts is None else starts:
        number_by_cell.setdefault(r * grid.width + c, len(number_by_cell) + 1)
    return number_by_cell


def number_by_cell(grid: Grid, starts: list[tuple[Direction, int, int]] | None = None) -> dict[int, int]:
    """The grid's numbering: its published numbers where it has them, else the standard numbering."""
    standard = standard_numbers(grid, starts)
    if grid.numbers is None:
        return standard
    own = dict(grid.numbers)
    return {cell: own.get(cell, number) for cell, number in standard.items()}


def with_published_numbers(grid: Grid, numbers: Mapping[int, int]) -> Grid:
    """`grid` with a file's own numbering: numbers on cells that start no slot are dropped, and a slot start
    the file leaves unnumbered gets a number past the highest published one, so every slot keeps a name of
    its own. No numbers: the grid as it is (standard numbering)."""
    if not numbers:
        return grid
    starts = sorted({r * grid.width + c for _, r, c in _runs(grid)})
    kept = {cell: n for cell, n in numbers.items() if cell in starts}
    taken = set(kept.values())
    next_number = max(taken, default=0) + 1
    for cell in starts:
        if cell not in kept:
            while next_number in taken:
                next_number += 1
            kept[cell] = next_number
            taken.add(next_number)
    return make_grid(grid.width, grid.height, grid.cells, bars=grid.bars, marks=dict(grid.marks), numbers=kept)


def find_slots(grid: Grid) -> tuple[Slot, ...]:
    """All slots: across ones in reading order, then down ones in reading order.

    Worked out once per Grid and kept on it (a Grid never changes: a grid with other cells is another Grid), so
    the parser's check, the compiler and the renderers share one answer."""
    slots: tuple[Slot, ...] | None = grid.__dict__.get("_slots")
    if slots is None:
        slots = _slots_of(grid)
        object.__setattr__(grid, "_slots", slots)  # not a field: equality, hashing and replace() ignore it
    return slots


def _slots_of(grid: Grid) -> tuple[Slot, ...]:
    """`find_slots`'s work, done once per Grid."""
    width = grid.width
    joins = _joins(grid)
    starts = _runs(grid, joins)  # once: the numbering comes from the same starts (a third of a web request's parse)
    numbers = number_by_cell(grid, starts)
    slots: list[Slot] = []
    for direction in (Direction.ACROSS, Direction.DOWN) if not grid.entries_only else ():
        joined, step = (joins[0], 1) if direction is Direction.ACROSS else (joins[1], width)
        for d, r, c in starts:
            if d is not direction:
                continue
            cell = r * width + c
            run = [cell]
            while joined[cell]:
                cell += step
                run.append(cell)
            slots.append(Slot(len(slots), numbers[r * width + c], direction, r, c, tuple(run)))
    for entry in grid.entries:
        first = entry.cells[0]
        steps = {b - a for a, b in zip(entry.cells, entry.cells[1:])}
        if steps == {1} and first // width == entry.cells[-1] // width:
            direction = Direction.ACROSS
        elif steps == {width}:
            direction = Direction.DOWN
        else:
            direction = Direction.OTHER
        slots.append(
            Slot(len(slots), numbers.get(first, 0), direction, first // width, first % width, entry.cells, entry.name)
        )
    if grid.pairs:
        slots = _with_readings(slots, grid.pairs)
    return tuple(slots)


def _with_readings(slots: list[Slot], pairs: frozenset[int]) -> list[Slot]:
    """`slots` with each one through a Schrödinger cell made two, its readings 1 and 2, ids renumbered."""
    out: list[Slot] = []
    for slot in slots:
        for reading in (1, 2) if not pairs.isdisjoint(slot.cells) else (0,):
            out.append(Slot(len(out), slot.number, slot.direction, slot.row, slot.col, slot.cells, slot.label, reading))
    return out


def pair_cells_of(grid: Grid) -> dict[int, tuple[str, str]]:
    """The two letters of each Schrödinger cell ('.' for one still open), by cell."""
    return {cell: pair_letters(grid.cells[cell]) for cell in sorted(grid.pairs)}


class CellEdges(NamedTuple):
    """For drawing: which edges of a cell carry a bar (`left`/`top` come from the neighbours).

    A NamedTuple, not a dataclass: every command imports this module, and a frozen dataclass costs
    about 0.5 ms to create at import."""

    left: bool = False
    top: bool = False
    right: bool = False
    bottom: bool = False


def cell_edges(grid: Grid, cell: int) -> CellEdges:
    """The bars around `cell` on all four sides."""
    width = grid.width
    col = cell % width
    bars = grid.bars
    return CellEdges(
        left=col > 0 and (cell - 1, RIGHT) in bars,
        top=cell >= width and (cell - width, BELOW) in bars,
        right=(cell, RIGHT) in bars,
        bottom=(cell, BELOW) in bars,
    )


def render_grid(grid: Grid, alphabet: Alphabet = ENGLISH) -> str:
    """The grid in xwcp's text syntax (`xwcp.model.text` reads it), ending in a newline; `parse_grid` reads it
    back as an equal Grid (given the same `alphabet`: cells hold its code chars, written as its letters)."""
    width = grid.width
    lines: list[str] = []
    colors = [(cell, mark.color) for cell, mark in grid.marks if mark.color]
    if colors:
        lines.append("; colors: " + " ".join(f"{c // width + 1},{c % width + 1}={color}" for c, color in colors))
    if grid.numbers is not None:
        lines.append("; numbers: " + " ".join(f"{c // width + 1},{c % width + 1}={n}" for c, n in grid.numbers))
    if grid.entries_only:
        lines.append("; entries: listed")
    for entry in grid.entries:
        kind = "entry" if entry.words == 1 else "chain"
        count = "" if entry.words == 1 else f"{entry.words} words: "
        lines.append(
            f"; {kind}: {entry.name} = {count}" + " ".join(f"{c // width + 1},{c % width + 1}" for c in entry.cells)
        )
    mark_by_cell = grid.mark_by_cell
    finals = final_cells(grid, alphabet)
    for r in range(grid.height):
        parts: list[str] = []
        under: list[int] = []
        length = 0
        for c in range(width):
            cell = r * width + c
            content = grid.cells[cell]
            if cell in grid.pairs:
                token = "<" + "".join(content_token(ch, alphabet) for ch in pair_letters(content)) + ">"
            else:
                token = content_token(content, alphabet, cell in finals)
            mark = mark_by_cell.get(cell)
            if mark and mark.shaded:
                token = "{" + token + "}"
            if mark and mark.circle:
                token = "(" + token + ")"
            if (cell, BELOW) in grid.bars:
                under.append(length)
            parts.append(token)
            length += len(token)
            if (cell, RIGHT) in grid.bars:
                parts.append("|")
                length += 1
        lines.append("".join(parts))
        if under:
            bar_line = [" "] * (under[-1] + 1)
            for offset in under:
                bar_line[offset] = "-"
            lines.append("".join(bar_line))
    return "\n".join(lines) + "\n"
