"""xd crossword files (.xd, the plain-text format of xd.saul.pw), through the `xdformat` package.

xdformat (the reference parser by the format's author) splits the sections and the headers;
it signals bad input with `assert`, so here its result is checked again and every failure
becomes one InputError line. In the grid '#' is a block, '.' an empty cell, 'A'-'Z' a letter;
'_' (an open non-letter cell of a shaped grid) is read as a block. Refused: rebus cells (a
`Rebus:` header or any other character in the grid) and special cells (lower-case letters under
a `Special:` header, e.g. circles).
"""
from __future__ import annotations

from pathlib import Path

from xwcp.errors import InputError
from xwcp.formats._io import read_text
from xwcp.formats.puzzle import Puzzle, clue_order
from xwcp.grid import BLOCK, EMPTY, Grid, MAX_SIDE, find_slots

_PLACEHOLDER_CLUE = "[XXX]"
"""What xdformat writes for a clue with no text; read back as no clue."""
_GENERATOR = "xwcp"
"""Written as a `Generator:` header so the metadata section is never empty (xdformat needs one)."""


def read(path: str | Path) -> Puzzle:
    """Read an .xd file.

    Raises:
        InputError: missing file, no grid, ragged rows, rebus or special cells.
    """
    import xdformat

    source = str(path)
    text = read_text(path)
    try:
        xd = xdformat.xdfile(text, filename=source)
    except (AssertionError, xdformat.Error, ValueError, IndexError) as exc:
        raise InputError(f"not a valid .xd file ({exc or exc.__class__.__name__})", source) from None
    rows = [row.strip() for row in xd.grid]
    if not rows:
        raise InputError("no grid (an .xd file has metadata, two blank lines, then the grid)", source)
    if xd.get_header("Rebus"):
        raise InputError(f"rebus cells (Rebus: {xd.get_header('Rebus')}); xwcp fills one letter per cell", source)
    width = len(rows[0])
    special = xd.get_header("Special")
    cells: list[str] = []
    for r, row in enumerate(rows):
        if len(row) != width:
            raise InputError(f"grid row {r + 1} has {len(row)} cells but row 1 has {width}", source)
        for c, ch in enumerate(row):
            where = f"grid row {r + 1}, column {c + 1}"
            if ch in "#_":
                cells.append(BLOCK)
            elif ch == ".":
                cells.append(EMPTY)
            elif "A" <= ch <= "Z":
                cells.append(ch)
            elif "a" <= ch <= "z":
                if special:
                    raise InputError(f"{where}: a {special} cell; xwcp does not keep circles or shading", source)
                cells.append(ch.upper())
            else:
                raise InputError(f"{where}: {ch!r} is a rebus or unknown cell; xwcp fills one letter per cell",
                                 source)
    if width > MAX_SIDE or len(rows) > MAX_SIDE:
        raise InputError(f"the grid is {width}x{len(rows)}; the largest supported is {MAX_SIDE}x{MAX_SIDE}", source)
    grid = Grid(width, len(rows), tuple(cells))
    slots = find_slots(grid)
    if not slots:
        raise InputError("the grid has no slot (no run of two or more white cells)", source)
    names = {s.name for s in slots}
    clue_by_slot = {}
    for (direction, number), clue, _answer in xd.clues:
        name = f"{number}{direction}"
        if name in names and clue and clue != _PLACEHOLDER_CLUE:
            clue_by_slot[name] = clue
    return Puzzle(grid, xd.get_header("Title"), xd.get_header("Author"), xd.get_header("Copyright"),
                  xd.notes.strip(), clue_by_slot)


def to_text(puzzle: Puzzle) -> str:
    """The .xd text for `puzzle`: headers, grid ('.' for an empty cell), clues with their answers."""
    import xdformat

    xd = xdformat.xdfile()
    for key in ("title", "author", "copyright"):
        xd.set_header(key.capitalize(), getattr(puzzle, key))
    xd.set_header("Generator", _GENERATOR)
    xd.grid = puzzle.grid.rows
    slots = find_slots(puzzle.grid)
    for direction in ("A", "D"):
        for slot in clue_order(s for s in slots if s.direction.letter == direction):
            answer = "".join(puzzle.grid.cells[cell] for cell in slot.cells)
            xd.clues.append(((direction, slot.number), puzzle.clue(slot), answer))
    xd.notes = puzzle.notes.strip() + "\n" if puzzle.notes.strip() else ""
    return xd.to_unicode()


def write(puzzle: Puzzle, path: str | Path) -> None:
    """Write `puzzle` as an .xd file (UTF-8)."""
    Path(path).write_text(to_text(puzzle), encoding="utf-8")
