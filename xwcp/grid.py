"""Parse and render grids, and find their slots with standard clue numbering.

Text format: one row per line; `#` is a block, `.` (or `?`, `_`) an empty cell, `A`-`Z`
(lower case accepted) a pre-filled letter; lines starting with `;` are comments. A slot is a
maximal across or down run of at least two white cells; a white cell in no slot of one
direction is unchecked in that direction (British/cryptic grids). A cell is numbered when it
starts an across or a down slot, in row-major order.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xwcp.errors import InputError
from xwcp.files import read_bounded, source_name
from xwcp.types import Direction, SlotId

MAX_SIDE = 30
"""Largest grid side we accept; bigger grids are almost certainly a wrong file."""

BLOCK = "#"
EMPTY = "."
_EMPTY_INPUT = frozenset(".?_")


@dataclass(frozen=True)
class Grid:
    """What the user drew; `cells` row-major: '#' block, '.' empty, 'A'-'Z' pre-filled."""

    width: int
    height: int
    cells: tuple[str, ...]

    def cell(self, row: int, col: int) -> str:
        return self.cells[row * self.width + col]

    @property
    def rows(self) -> list[str]:
        return ["".join(self.cells[r * self.width:(r + 1) * self.width]) for r in range(self.height)]

    @property
    def n_blocks(self) -> int:
        return sum(1 for c in self.cells if c == BLOCK)

    def render(self) -> str:
        return "\n".join(self.rows) + "\n"

    def with_letters(self, letter_by_cell: dict[int, str]) -> Grid:
        """A copy with the given cells set to letters (or '.' to erase)."""
        cells = list(self.cells)
        for cell, letter in letter_by_cell.items():
            if cells[cell] == BLOCK:
                raise ValueError(f"cell {cell} is a block")
            cells[cell] = letter
        return Grid(self.width, self.height, tuple(cells))


@dataclass(frozen=True)
class Slot:
    """One entry of the grid; `cells` are flat cell indices in reading order."""

    id: SlotId
    number: int
    direction: Direction
    row: int
    col: int
    cells: tuple[int, ...]

    @property
    def length(self) -> int:
        return len(self.cells)

    @property
    def name(self) -> str:
        """The user-facing id, e.g. `12A` or `3D`."""
        return f"{self.number}{self.direction.letter}"


def parse_grid(text: str, source: str = "<grid>") -> Grid:
    """Parse grid text.

    Args:
        text: the grid, one row per line.
        source: file name used in error messages.

    Returns:
        The grid.

    Raises:
        InputError: ragged rows, unknown characters, an empty grid, a grid over 30x30 or one
            without any slot; the message names the line.
    """
    rows: list[tuple[int, str]] = []
    text = text.removeprefix("\ufeff")  # a UTF-8 byte order mark (Windows editors) is not a cell
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        rows.append((line_no, line))
    if not rows:
        raise InputError("the grid has no rows", source)
    width = len(rows[0][1])
    cells: list[str] = []
    for row_index, (line_no, line) in enumerate(rows):
        if len(line) != width:
            raise InputError(
                f"row {row_index + 1} has {len(line)} cells but row 1 has {width} (rows must be equally long)",
                source, line_no)
        for col, ch in enumerate(line):
            if ch == BLOCK:
                cells.append(BLOCK)
            elif ch in _EMPTY_INPUT:
                cells.append(EMPTY)
            elif "A" <= ch.upper() <= "Z" and ch.isascii():
                cells.append(ch.upper())
            else:
                raise InputError(
                    f"row {row_index + 1}, column {col + 1}: unexpected character {ch!r} "
                    "(use '#' for a block, '.' '?' '_' for an empty cell, A-Z for a letter)",
                    source, line_no)
    height = len(rows)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise InputError(f"the grid is {width}x{height}; the largest supported is {MAX_SIDE}x{MAX_SIDE}", source)
    grid = Grid(width, height, tuple(cells))
    if not find_slots(grid):
        raise InputError("the grid has no slot (no run of two or more white cells)", source)
    return grid


MAX_GRID_BYTES = 64 * 1024
"""Largest grid file we read: a 30x30 grid with comments is under 2 KB, so more is a wrong file."""


def decode_grid(raw: bytes) -> str:
    """Grid bytes as text: UTF-8 (a byte order mark dropped), else latin-1, as word lists are read."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def read_grid(path: str | Path) -> Grid:
    """Read a grid file (`-` for standard input), at most MAX_GRID_BYTES.

    Raises:
        InputError: a missing, unreadable or oversized file, and bad content.
    """
    raw = read_bounded(path, MAX_GRID_BYTES, "grid")
    return parse_grid(decode_grid(raw), source_name(path))


def find_slots(grid: Grid) -> tuple[Slot, ...]:
    """All slots: across ones in reading order, then down ones in reading order."""
    width, height = grid.width, grid.height

    def white(r: int, c: int) -> bool:
        return 0 <= r < height and 0 <= c < width and grid.cells[r * width + c] != BLOCK

    number_by_cell: dict[int, int] = {}
    starts: list[tuple[Direction, int, int]] = []
    next_number = 1
    for r in range(height):
        for c in range(width):
            if not white(r, c):
                continue
            starts_across = not white(r, c - 1) and white(r, c + 1)
            starts_down = not white(r - 1, c) and white(r + 1, c)
            if starts_across or starts_down:
                number_by_cell[r * width + c] = next_number
                next_number += 1
            if starts_across:
                starts.append((Direction.ACROSS, r, c))
            if starts_down:
                starts.append((Direction.DOWN, r, c))
    slots: list[Slot] = []
    for direction in (Direction.ACROSS, Direction.DOWN):
        dr, dc = (0, 1) if direction is Direction.ACROSS else (1, 0)
        for d, r, c in starts:
            if d is not direction:
                continue
            cells = []
            rr, cc = r, c
            while white(rr, cc):
                cells.append(rr * width + cc)
                rr, cc = rr + dr, cc + dc
            slots.append(Slot(len(slots), number_by_cell[r * width + c], direction, r, c, tuple(cells)))
    return tuple(slots)
