"""Across Lite .puz files, through puzpy (it reads and writes the binary layout and its checksums).

Reading takes the grid from the solution: '.' a block, a letter an entered letter, anything
else ('-', 'X' placeholders of an unfinished grid) an empty cell. A locked (scrambled)
solution, circled cells (GEXT markup) and rebus cells (GRBS) are refused: xwcp fills one
plain letter per cell. Writing puts the grid's letters in the solution ('-' where a cell is
still empty), leaves the player's fill blank and writes one clue per slot in .puz order.
"""
from __future__ import annotations

from pathlib import Path

from xwcp.errors import InputError
from xwcp.formats._io import read_bytes
from xwcp.formats.puzzle import Puzzle, clue_order
from xwcp.grid import BLOCK, EMPTY, Grid, MAX_SIDE, find_slots

_PUZ_BLOCK = "."
_PUZ_EMPTY = "-"


def read(path: str | Path) -> Puzzle:
    """Read a .puz file.

    Raises:
        InputError: missing file, bad checksum, truncated or not a .puz, locked solution,
            circles or rebus cells, a grid without slots.
    """
    import puz

    source = str(path)
    data = read_bytes(path)
    try:
        p = puz.load(data)
    except puz.PuzzleFormatError as exc:
        problem = "no ACROSS&DOWN header" if "does not appear" in str(exc) else str(exc)
        raise InputError(f"not a valid .puz file: {problem}", source) from None
    except (ValueError, UnicodeDecodeError, IndexError) as exc:  # puzpy lets some damage through untranslated
        raise InputError(f"not a valid .puz file ({exc.__class__.__name__}: {exc})", source) from None
    width, height = p.width, p.height
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE) or len(p.solution) != width * height:
        raise InputError(f"not a valid .puz file: a {width}x{height} grid with {len(p.solution)} solution cells",
                         source)
    if p.is_solution_locked():
        raise InputError("the solution is locked (scrambled); unlock it in Across Lite first", source)
    if p.has_rebus():
        cells = p.rebus().get_rebus_squares()
        where = f" (first at row {cells[0] // width + 1}, column {cells[0] % width + 1})" if cells else ""
        raise InputError(f"rebus cells{where}: xwcp fills one letter per cell", source)
    if p.has_markup():
        circled = p.markup().get_markup_squares(puz.GridMarkup.Circled)
        if circled:
            raise InputError(f"circled cells (first at row {circled[0] // width + 1}, column "
                             f"{circled[0] % width + 1}): xwcp does not keep circles", source)
    cells = []
    for ch in p.solution:
        if ch in (_PUZ_BLOCK, ":"):
            cells.append(BLOCK)
        elif ch.isascii() and ch.isalpha():
            cells.append(ch.upper())
        else:
            cells.append(EMPTY)
    grid = Grid(width, height, tuple(cells))
    slots = find_slots(grid)
    if not slots:
        raise InputError("the grid has no slot (no run of two or more white cells)", source)
    clue_by_slot: dict[str, str] = {}
    ordered = clue_order(slots)
    if len(p.clues) == len(ordered):
        clue_by_slot = {slot.name: text for slot, text in zip(ordered, p.clues) if text}
    return Puzzle(grid, p.title, p.author, p.copyright, p.notes, clue_by_slot)


def write(puzzle: Puzzle, path: str | Path) -> None:
    """Write `puzzle` as a .puz file (version 1.3, ISO-8859-1 text; characters outside it become '?')."""
    Path(path).write_bytes(to_bytes(puzzle))


def to_bytes(puzzle: Puzzle) -> bytes:
    """The .puz file's bytes."""
    import puz

    grid = puzzle.grid
    p = puz.Puzzle()
    p.width, p.height = grid.width, grid.height
    p.solution = "".join(_PUZ_BLOCK if c == BLOCK else (_PUZ_EMPTY if c == EMPTY else c) for c in grid.cells)
    p.fill = "".join(_PUZ_BLOCK if c == BLOCK else _PUZ_EMPTY for c in grid.cells)
    p.title, p.author, p.copyright, p.notes = (_latin1(puzzle.title), _latin1(puzzle.author),
                                               _latin1(puzzle.copyright), _latin1(puzzle.notes))
    p.clues = [_latin1(puzzle.clue(slot)) for slot in clue_order(find_slots(grid))]
    return p.tobytes()


def _latin1(text: str) -> str:
    """`text` in the .puz 1.3 character set (ISO-8859-1), one line per string field."""
    return " ".join(text.splitlines()).encode("iso-8859-1", "replace").decode("iso-8859-1")
