"""ipuz crossword files (.ipuz, the open JSON standard of ipuz.org), read and written as plain JSON.

Plain JSON rather than the `ipuz` package from PyPI: that package (1.0) only validates a dict
against the spec and hands the same dict back, its last release targets Python 3.9, and its
messages do not name the cell at fault; the few fields we use are checked here instead.

Reading: `dimensions` and `puzzle` are required. A cell is a block when it equals the
puzzle's `block` value ('#' by default) or is null (an omitted cell); its letter comes from
`solution` (else from the puzzle cell's `value`); anything else is empty. Refused: circled or
otherwise shaped cells (`shapebg`), rebus cells (a solution of more than one letter), and bars
that split an entry. The rule for barred grids: a bar lying on a block or on the grid's
edge changes no entry and is accepted; a bar between two white cells splits their run into
two entries, which a block grid cannot express, so the file is refused naming that cell.
Writing: ipuz v2, kind crossword#1, numbered cells, the letters as `solution` (null where a
cell is still empty), one clue per slot (empty when the puzzle has none).
"""
from __future__ import annotations

import json
from pathlib import Path

from xwcp.errors import InputError
from xwcp.formats._io import read_text
from xwcp.formats.puzzle import Puzzle
from xwcp.grid import BLOCK, EMPTY, Grid, MAX_SIDE, find_slots
from xwcp.types import Direction

VERSION = "http://ipuz.org/v2"
KIND = "http://ipuz.org/crossword#1"
_SIDE_STEP = {"T": (-1, 0), "B": (1, 0), "L": (0, -1), "R": (0, 1)}
"""Bar side -> (row step, column step) to the neighbouring cell across that bar."""


def read(path: str | Path) -> Puzzle:
    """Read an .ipuz file.

    Raises:
        InputError: missing file, not JSON, no dimensions or puzzle, a cell xwcp cannot fill.
    """
    source = str(path)
    text = read_text(path).strip()
    if text.startswith("ipuz(") and text.endswith(")"):  # the spec's JSONP wrapping
        text = text[5:-1]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", source) from None
    if not isinstance(data, dict):
        raise InputError("not an ipuz puzzle (the JSON is not an object)", source)
    kinds = data.get("kind") or []
    if kinds and not any(str(k).startswith("http://ipuz.org/crossword") for k in kinds):
        raise InputError(f"not a crossword (kind {kinds[0]!r})", source)
    dims = data.get("dimensions")
    try:
        width, height = int(dims["width"]), int(dims["height"])
    except (TypeError, KeyError, ValueError):
        raise InputError("no dimensions (an ipuz crossword needs \"dimensions\": {\"width\": W, \"height\": H})",
                         source) from None
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise InputError(f"the grid is {width}x{height}; the largest supported is {MAX_SIDE}x{MAX_SIDE}", source)
    puzzle_rows = _rows(data.get("puzzle"), width, height, "puzzle", source)
    solution_rows = _rows(data["solution"], width, height, "solution", source) if data.get("solution") else None
    block = data.get("block", "#")
    styles = data.get("styles") if isinstance(data.get("styles"), dict) else {}
    cells: list[str] = []
    bars: list[tuple[int, int, str]] = []
    for r in range(height):
        for c in range(width):
            raw = puzzle_rows[r][c]
            where = f"row {r + 1}, column {c + 1}"
            cell = raw.get("cell", 0) if isinstance(raw, dict) else raw
            if cell is None or str(cell) == str(block):  # null is an omitted cell: no letter goes there
                cells.append(BLOCK)
                continue
            style = raw.get("style") if isinstance(raw, dict) else None
            if isinstance(style, str):
                style = styles.get(style)
            if isinstance(style, dict):
                if style.get("shapebg"):
                    raise InputError(f"{where}: a {style['shapebg']} cell; xwcp does not keep circles or shapes",
                                     source)
                bars.extend((r, c, side) for side in str(style.get("barred", "")).upper() if side in _SIDE_STEP)
            letter = _letter(solution_rows[r][c] if solution_rows else None)
            if letter is None and isinstance(raw, dict):
                letter = _letter(raw.get("value"))
            if letter is not None and len(letter) > 1:
                raise InputError(f"{where}: a rebus cell ({letter!r}); xwcp fills one letter per cell", source)
            cells.append(letter or EMPTY)
    grid = Grid(width, height, tuple(cells))
    for r, c, side in bars:
        dr, dc = _SIDE_STEP[side]
        r2, c2 = r + dr, c + dc
        if 0 <= r2 < height and 0 <= c2 < width and grid.cell(r2, c2) != BLOCK:
            raise InputError(f"row {r + 1}, column {c + 1}: a bar between two white cells splits an entry; "
                             "xwcp separates entries with blocks only (bars are read only on blocks and edges)",
                             source)
    slots = find_slots(grid)
    if not slots:
        raise InputError("the grid has no slot (no run of two or more white cells)", source)
    return Puzzle(grid, _text(data.get("title")), _text(data.get("author")), _text(data.get("copyright")),
                  _text(data.get("notes")), _clues(data.get("clues"), slots))


def _rows(value, width: int, height: int, name: str, source: str) -> list[list]:
    if not isinstance(value, list) or len(value) != height or not all(
            isinstance(row, list) and len(row) == width for row in value):
        raise InputError(f"\"{name}\" is not {height} rows of {width} cells (as \"dimensions\" says)", source)
    return value


def _letter(value) -> str | None:
    """The letter(s) of a solution or value entry, upper case; None for no letter."""
    if isinstance(value, dict):
        value = value.get("value")
    if not isinstance(value, str):
        return None
    value = value.strip().upper()
    if not value or not all(ch.isascii() and ch.isalpha() for ch in value):
        return None
    return value


def _text(value) -> str:
    return value if isinstance(value, str) else ""


def _clues(clues, slots) -> dict[str, str]:
    """Clue texts by slot name from the ipuz `clues` object (Across/Down lists of [n, text] or dicts)."""
    if not isinstance(clues, dict):
        return {}
    names = {s.name for s in slots}
    out: dict[str, str] = {}
    for key, items in clues.items():
        direction = key.split(":")[0].strip().lower()
        letter = {"across": "A", "down": "D"}.get(direction)
        if letter is None or not isinstance(items, list):
            continue
        for item in items:
            if isinstance(item, list) and len(item) >= 2:
                number, text = item[0], item[1]
            elif isinstance(item, dict):
                number, text = item.get("number"), item.get("clue")
            else:
                continue
            name = f"{number}{letter}"
            if name in names and isinstance(text, str) and text:
                out[name] = text
    return out


def to_dict(puzzle: Puzzle) -> dict:
    """The ipuz JSON object for `puzzle`."""
    grid = puzzle.grid
    slots = find_slots(grid)
    number_by_cell = {s.cells[0]: s.number for s in slots}
    rows, solution = [], []
    for r in range(grid.height):
        row, sol = [], []
        for c in range(grid.width):
            cell = r * grid.width + c
            ch = grid.cells[cell]
            row.append("#" if ch == BLOCK else number_by_cell.get(cell, 0))
            sol.append("#" if ch == BLOCK else (None if ch == EMPTY else ch))
        rows.append(row)
        solution.append(sol)
    clues = {
        label: [[s.number, puzzle.clue(s)] for s in sorted(slots, key=lambda s: s.number) if s.direction is d]
        for label, d in (("Across", Direction.ACROSS), ("Down", Direction.DOWN))}
    out: dict = {"version": VERSION, "kind": [KIND]}
    for key in ("title", "author", "copyright", "notes"):
        if getattr(puzzle, key):
            out[key] = getattr(puzzle, key)
    out.update({"dimensions": {"width": grid.width, "height": grid.height}, "block": "#", "empty": 0,
                "puzzle": rows, "solution": solution, "clues": clues})
    return out


def write(puzzle: Puzzle, path: str | Path) -> None:
    """Write `puzzle` as an .ipuz file (UTF-8 JSON)."""
    Path(path).write_text(json.dumps(to_dict(puzzle), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
