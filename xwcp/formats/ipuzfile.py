"""ipuz crossword files (.ipuz, the open JSON standard of ipuz.org): bars, circles, shading, rebus cells, numbering.

Plain JSON rather than the `ipuz` package from PyPI: that package (1.0) only validates a dict
against the spec and hands the same dict back, its last release targets Python 3.9, and its
messages do not name the cell at fault; the fields we use are checked here instead.

Reading: `dimensions` and `puzzle` are required. A cell is a block when the puzzle or the
solution says so (the puzzle's `block` value, '#' by default; a diagramless puzzle marks its
blocks in the solution only) or when it is null, an omitted cell outside a shaped grid (read as
a block, with a warning). A white cell's contents come from `solution` (a string of several
characters is a rebus cell), else from the puzzle cell's `value`. Styles: `barred` (T, L, R, B)
gives bars, `shapebg: circle` a circle, `highlight` shading and `color` a background colour. The
puzzle's own cell numbers are kept. Clues are placed by their `cells` when given, else by
number and direction. A clue set that is neither Across nor Down, or an entry given as cells
that are not one across or down run of the grid, makes a variety puzzle (Marching Bands, Rows
Garden, Patchwork, Two-Tone, a diagonal clue): its clue sets are read into listed entries
(`xwcp.formats._listed`), each on exactly the cells the file gives, with the sets' titles, the
clues' labels and the labels its cells print (`cell` values such as `A` or `M1`, `mark` corners);
an entry on a block or through one cell twice is refused in one line. Clues of a crossword that
name no entry are left out with a warning. A solution cell that lists candidate values (`["C", "B"]`,
as Puzzmo's tools read it) is a Schrödinger cell: two letters, the first for every entry's first
reading (`xwcp.model.entries`); other than two single letters is refused in one line.

Writing: ipuz v2, kind crossword#1 (and diagramless#1), numbered cells with their styles, the
letters as `solution` (null where a cell is still empty), one clue per slot as given; a puzzle
with listed entries writes its clue sets as it read them, each clue with its `cells`, and its
cells' labels; a Schrödinger cell's solution lists its two letters (null for one still open).
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

from xwcp.base.errors import InputError
from xwcp.base.types import Direction
from xwcp.formats._io import read_text
from xwcp.formats._language import charset_alphabet, named_alphabet
from xwcp.formats._listed import (
    FileClue,
    FileList,
    cell_labels,
    is_variety,
    labels_by_cell,
    list_direction,
    listed_entries,
    written_lists,
)
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.model.entries import pair_content, pair_letters
from xwcp.model.grid import (
    BLOCK,
    EMPTY,
    MAX_SIDE,
    NOT_CELL_CONTENTS,
    Grid,
    Mark,
    Slot,
    cell_upper,
    find_slots,
    is_cell_content,
    make_grid,
    number_by_cell,
    with_published_numbers,
)
from xwcp.model.puzzle import CellLabel, ClueList, Puzzle
from xwcp.runtime.files import MAX_CLUES, load_json, quote
from xwcp.runtime.writes import write_output

VERSION = "http://ipuz.org/v2"
KIND = "http://ipuz.org/crossword#1"
DIAGRAMLESS_KIND = "http://ipuz.org/crossword/diagramless#1"
LANGUAGE_KEY = "org.xwcp:language"
"""The field xwcp writes a puzzle's language pack code in (ipuz v2 has no language field; readers ignore fields
they do not know). Reading also takes any `...:language` / `...:locale` field and a plain `language`."""
THEME_KEY = "org.xwcp:theme"
"""The constructor's theme entries: a list of slot names ("17A"), an extension field as LANGUAGE_KEY."""
LOCKS_KEY = "org.xwcp:locks"
"""The cells whose letters the constructor locked: a list of [column, row] counted from 1, as the spec's clue cells."""
_DIRECTION_BY_NAME = {"across": Direction.ACROSS, "down": Direction.DOWN}
_CORNERS = ("TL", "T", "TR", "L", "C", "R", "BL", "B", "BR")
"""The places of a cell an ipuz `mark` prints text in."""
_HEX_COLOR = re.compile(r"^#?([0-9A-Fa-f]{6})$")


def read(path: str | Path) -> Puzzle:
    """Read an .ipuz file.

    Raises:
        InputError: missing file, not JSON, no dimensions or puzzle, a variety puzzle, a grid without slots.
    """
    source = str(path)
    text = read_text(path).strip()
    if text.startswith("ipuz(") and text.endswith(")"):  # the spec's JSONP wrapping
        text = text[5:-1]
    data = load_json(text, source)
    if not isinstance(data, dict):
        raise InputError("not an ipuz puzzle (the JSON is not an object)", source)
    return from_dict(data, source)


def from_dict(data: dict[str, Any], source: str = "<ipuz>") -> Puzzle:
    """The Puzzle in an ipuz JSON object (see `read`).

    Raises:
        InputError: as `read`; also a field of the wrong type (the message names it).
    """
    kind = data.get("kind") or []
    if isinstance(kind, str):
        kind = [kind]
    if not isinstance(kind, list) or not all(isinstance(k, str) for k in kind):
        raise InputError(f'"kind" is {_type_name(kind)}; the ipuz spec makes it a list of strings', source)
    kinds: list[str] = kind
    if kinds and not any(k.startswith("http://ipuz.org/crossword") for k in kinds):
        raise InputError(f"not a crossword (kind {kinds[0]!r})", source)
    is_diagramless = any(k.startswith("http://ipuz.org/crossword/diagramless") for k in kinds)
    dims = data.get("dimensions") or {}  # a wrong value fails below as a missing one does
    try:
        if any(isinstance(dims[key], bool) for key in ("width", "height")):
            raise TypeError("true or false is not a size")
        width, height = int(dims["width"]), int(dims["height"])
    except (TypeError, KeyError, ValueError):
        raise InputError(
            'no dimensions (an ipuz crossword needs "dimensions": {"width": W, "height": H})', source
        ) from None
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
        raise InputError(f"the grid is {width}x{height}; the largest supported is {MAX_SIDE}x{MAX_SIDE}", source)
    puzzle_rows = _rows(data.get("puzzle"), width, height, "puzzle", source)
    solution_rows = _rows(data["solution"], width, height, "solution", source) if data.get("solution") else None
    block = str(data.get("block", "#"))
    empty = str(data.get("empty", "0"))
    styles_value = data.get("styles")
    styles: dict[str, Any] = styles_value if isinstance(styles_value, dict) else {}
    warnings: list[str] = []
    cells: list[str] = []
    bars: list[tuple[int, str]] = []
    mark_by_cell: dict[int, Mark] = {}
    number_by_cell_: dict[int, int] = {}
    label_by_cell: dict[int, dict[str, str]] = {}
    pair_cells: list[int] = []
    n_omitted = 0
    for r in range(height):
        for c in range(width):
            cell = r * width + c
            raw = puzzle_rows[r][c]
            value = raw.get("cell", 0) if isinstance(raw, dict) else raw
            solved = solution_rows[r][c] if solution_rows else None
            if isinstance(solved, dict):
                solved = solved.get("value")
            if value is None:
                n_omitted += 1
                cells.append(BLOCK)
                continue
            number = _number(value)
            style = raw.get("style") if isinstance(raw, dict) else None
            if isinstance(style, str):
                style = styles.get(style)
            cell_label = _labels(value, style, block, empty)
            if cell_label:
                label_by_cell[cell] = cell_label
            if isinstance(style, dict):
                if number is None and isinstance(style.get("mark"), dict):  # a number in the top-left corner
                    number = _number(style["mark"].get("TL"))
                bars.extend((cell, side) for side in str(style.get("barred", "")).upper() if side in "TLRB")
                mark = _mark(style)
                if mark:
                    mark_by_cell[cell] = mark
            if str(value) == block or (isinstance(solved, str) and solved == block):
                cells.append(BLOCK)
                continue
            if number is not None:
                number_by_cell_[cell] = number
            if isinstance(solved, list):  # candidate values: a Schrödinger cell
                cells.append(_pair(solved, empty, r, c, source))
                pair_cells.append(cell)
                continue
            content = _content(solved, empty, r, c, source)
            if content == EMPTY and isinstance(raw, dict):
                content = _content(raw.get("value"), empty, r, c, source)
            cells.append(content)
    if n_omitted:
        warnings.append(f"{n_omitted} omitted cells (outside the puzzle's shape) are read as blocks")
    grid = make_grid(width, height, cells, bars=bars, marks=mark_by_cell, source=source)
    is_coded = any("/coded" in k for k in kinds)
    if is_coded and number_by_cell_:
        warnings.append(
            "a coded crossword: its cell numbers stand for letters, not for entries; the grid is "
            "numbered the standard way"
        )
    elif not is_diagramless:  # a diagramless puzzle's cells carry placeholder numbers, not its numbering
        grid = with_published_numbers(grid, number_by_cell_)
    clue_lists: tuple[ClueList, ...] = ()
    labels: tuple[CellLabel, ...] = ()
    file_lists = _file_lists(data.get("clues"), grid, source)
    if is_variety(file_lists, grid):
        grid, clue_by_slot, clue_lists, listed_warnings = listed_entries(grid, file_lists, source)
        warnings.extend(listed_warnings)
        labels = cell_labels(
            label_by_cell
            if grid.entries_only
            else {
                cell: {corner: text for corner, text in by_corner.items() if corner != "TL" or not text.isdigit()}
                for cell, by_corner in label_by_cell.items()
            }
        )
    if pair_cells:
        grid = dataclasses.replace(grid, pairs=frozenset(pair_cells))
    if not find_slots(grid):
        raise InputError("the grid has no slot (no run of two or more white cells)", source)
    if not clue_lists:
        clue_by_slot = _clues(data.get("clues"), grid, source, warnings)
    alphabet = _file_alphabet(data, warnings)  # before the warnings are kept: it may add one
    theme, locked = _theme_and_locks(data, grid)
    return Puzzle(
        grid,
        _text(data.get("title")),
        _text(data.get("author")),
        _text(data.get("copyright")),
        _text(data.get("notes")),
        clue_by_slot,
        is_diagramless,
        tuple(warnings),
        alphabet,
        theme,
        locked,
        clue_lists,
        labels,
    )


def _labels(value: object, style: object, block: str, empty: str) -> dict[str, str]:
    """What a puzzle cell prints, by corner: its `cell` value when it is a label (`1`, `A`, `M1`; not the block
    or empty value) in the top-left, and its style's `mark` corners."""
    out: dict[str, str] = {}
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        text = str(value).strip()
        if text and text not in (block, empty, "0", "#", "_"):
            out["TL"] = text
    mark = style.get("mark") if isinstance(style, dict) else None
    if isinstance(mark, dict):
        for corner, text in mark.items():
            if corner in _CORNERS and isinstance(text, (str, int)) and not isinstance(text, bool) and str(text).strip():
                out[corner] = str(text).strip()
    return out


def _file_lists(clues: object, grid: Grid, source: str) -> list[FileList]:
    """The file's clue lists as given: title, and each clue's label, cells and text (see `_listed`).

    Raises:
        InputError: more clues than a puzzle file holds, a `cells` that is not a list of pairs, or a cell
            outside the grid.
    """
    if not isinstance(clues, dict):
        return []
    n_clues = sum(len(items) for items in clues.values() if isinstance(items, list))
    if n_clues > MAX_CLUES:
        raise InputError(f'"clues" lists {n_clues:,} clues; a puzzle file has at most {MAX_CLUES:,}', source)
    base = _cell_base(clues)
    out: list[FileList] = []
    for key, items in clues.items():
        if not isinstance(items, list):
            continue
        listed: list[FileClue] = []
        for item in items:
            label: object = ""
            text: object = ""
            cell_list: object = None
            if isinstance(item, list) and len(item) >= 2:
                label, text = item[0], item[1]
            elif isinstance(item, dict):
                label, text, cell_list = item.get("number", ""), item.get("clue", ""), item.get("cells")
            elif isinstance(item, str):
                text = item
            cells: tuple[int, ...] | None = None
            if cell_list:
                if not (isinstance(cell_list, list) and all(isinstance(pair, list) for pair in cell_list)):
                    raise InputError(
                        f'a clue of {quote(str(key))} has "cells": {_type_name(cell_list)}; the ipuz spec makes '
                        "it a list of [column, row] pairs",
                        source,
                    )
                cells = _cells(cell_list, grid, base)
                if cells is None:
                    raise InputError(
                        f"{key} clue {label or '(no label)'} names cells outside the {grid.width}x{grid.height} grid",
                        source,
                    )
            listed.append(
                FileClue(
                    "" if label is None or isinstance(label, bool) else str(label),
                    cells,
                    text if isinstance(text, str) else "",
                )
            )
        out.append(FileList(str(key), listed))
    return out


def _theme_and_locks(data: dict[str, Any], grid: Grid) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The THEME_KEY slot names that name a slot of `grid`, and the LOCKS_KEY cells inside it that are white
    (anything else in those fields is left out: they are ours, and only add to the puzzle)."""
    names = {name for s in find_slots(grid) for name in (s.name, s.entry_name)}
    theme_value = data.get(THEME_KEY)
    theme = (
        tuple(dict.fromkeys(str(n).upper() for n in theme_value if isinstance(n, str) and n.upper() in names))
        if isinstance(theme_value, list)
        else ()
    )
    locks_value = data.get(LOCKS_KEY)
    pairs = [p for p in locks_value if isinstance(p, list) and len(p) == 2] if isinstance(locks_value, list) else []
    locked = {cell for pair in pairs for cell in _cells([pair], grid) or ()}
    return theme, tuple(sorted(c for c in locked if grid.cells[c] != BLOCK))


def _file_alphabet(data: dict[str, Any], warnings: list[str]) -> Alphabet:
    """The language the file names: our `LANGUAGE_KEY` or a `language` field (a pack code or a BCP-47 tag such
    as `es-MX`), else the pack its `charset` fits (ipuz v2 has no language field), else English."""
    named = next(
        (
            value
            for key, value in data.items()
            if isinstance(key, str) and (key == "language" or key.endswith(":language") or key.endswith(":locale"))
        ),
        None,
    )
    return named_alphabet(named, warnings) or charset_alphabet(data.get("charset"), warnings) or ENGLISH


def _rows(value: object, width: int, height: int, name: str, source: str) -> list[list[Any]]:
    if (
        not isinstance(value, list)
        or len(value) != height
        or not all(isinstance(row, list) and len(row) == width for row in value)
    ):
        raise InputError(f'"{name}" is not {height} rows of {width} cells (as "dimensions" says)', source)
    return value


def _number(value: object) -> int | None:
    """A cell's published number (an int, or a string of digits), or None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value if value > 0 else None
    if isinstance(value, str) and value.strip().isdigit() and int(value) > 0:
        return int(value)
    return None


def _content(value: object, empty: str, r: int, c: int, source: str) -> str:
    """A white cell's contents from a solution or value entry: upper case, EMPTY for none (the puzzle's
    `empty` value among them)."""
    if not isinstance(value, str):
        return EMPTY
    text = cell_upper("".join(value.split()))
    if not text or text in (empty, "0", EMPTY, "_"):
        return EMPTY
    if not is_cell_content(text):
        raise InputError(
            f"row {r + 1}, column {c + 1} holds {quote(value)}, which xwcp cannot keep in a cell ({NOT_CELL_CONTENTS})",
            source,
        )
    return text


def _pair(values: list[Any], empty: str, r: int, c: int, source: str) -> str:
    """A Schrödinger cell's contents from its solution's candidate values: two letters (a null or the empty
    value for one still open), first and second (`xwcp.model.entries.pair_content`).

    Raises:
        InputError: other than two candidates, or a candidate of several letters (a rebus is never a pair).
    """
    letters = [EMPTY if v is None else _content(v, empty, r, c, source) for v in values]
    if len(letters) != 2 or any(len(letter) != 1 for letter in letters):
        raise InputError(
            f"row {r + 1}, column {c + 1} has the candidate solutions {quote(json.dumps(values))}; a Schrödinger "
            "cell holds two letters, one per reading",
            source,
        )
    return pair_content(letters[0], letters[1])


def _mark(style: dict[str, Any]) -> Mark:
    circle = str(style.get("shapebg", "")).lower() == "circle"
    shaded = bool(style.get("highlight"))
    color = style.get("color")
    hex_color = _HEX_COLOR.match(color) if isinstance(color, str) else None
    if color is not None and hex_color is None:
        shaded = True  # a colour by number (the application's palette): kept as shading
    return Mark(circle, shaded, f"#{hex_color.group(1).upper()}" if hex_color else None)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _type_name(value: object) -> str:
    """What a JSON value is, for an error line: `5 (a number)`, `true`, `a list`."""
    if isinstance(value, bool) or value is None:
        return "true" if value is True else "false" if value is False else "null"
    if isinstance(value, (int, float)):
        return f"{value} (a number)"
    return "a string" if isinstance(value, str) else "a list" if isinstance(value, list) else "an object"


def _clues(clues: object, grid: Grid, source: str, warnings: list[str]) -> dict[str, str]:
    """Clue texts by slot name from a crossword's ipuz `clues` object (Across/Down lists of [n, text] or dicts):
    a variety puzzle's lists go to `_listed.listed_entries` instead (`_listed.is_variety` tells them apart).

    Raises:
        InputError: more clues than a file holds, a `cells` that is not a list of pairs.
    """
    if not isinstance(clues, dict):
        return {}
    n_clues = sum(len(items) for items in clues.values() if isinstance(items, list))
    if n_clues > MAX_CLUES:
        raise InputError(f'"clues" lists {n_clues:,} clues; a puzzle file has at most {MAX_CLUES:,}', source)
    for key, items in clues.items():
        for item in items if isinstance(items, list) else ():
            cells = item.get("cells") if isinstance(item, dict) else None
            if cells is not None and not (isinstance(cells, list) and all(isinstance(pair, list) for pair in cells)):
                raise InputError(
                    f'a clue of {quote(str(key))} has "cells": {_type_name(cells)}; the ipuz spec makes '
                    "it a list of [column, row] pairs",
                    source,
                )
    slots = find_slots(grid)
    slot_by_key = {(s.direction, s.number): s for s in slots}
    slot_by_cells = {s.cells: s for s in slots}
    out: dict[str, str] = {}
    unplaced: list[str] = []
    partial: list[str] = []
    base = _cell_base(clues)
    for key, items in clues.items():
        direction = list_direction(str(key))
        if not isinstance(items, list) or not items:
            continue
        if direction is None:
            continue  # empty (a list with clues makes the puzzle a variety one)
        for item in items:
            number, text, cell_list = _clue_parts(item)
            slot = None
            if cell_list is not None:
                flat = _cells(cell_list, grid, base)
                slot = slot_by_cells.get(flat) if flat is not None else None
                if slot is None or slot.direction is not direction:
                    partial.append(f"{key} {number}")  # the rest are a variety puzzle's (`is_variety`)
                    continue
            elif number is not None:
                slot = slot_by_key.get((direction, number))
            if slot is None:
                if text:
                    unplaced.append(f"{key} {item[0] if isinstance(item, list) and item else number or '?'}")
                continue
            if text:
                out[slot.entry_name] = text  # both readings of a Schrödinger entry share it
    if partial:
        warnings.append(
            f"{len(partial)} clues name only part of an entry and are not read ({', '.join(partial[:3])}"
            f"{' and more' if len(partial) > 3 else ''})"
        )
    if unplaced:
        more = f" and {len(unplaced) - 3} more" if len(unplaced) > 3 else ""
        warnings.append(
            f"{len(unplaced)} clues name no entry of the grid and are not read ({', '.join(unplaced[:3])}{more})"
        )
    return out


def _clue_parts(item: object) -> tuple[int | None, str, list[Any] | None]:
    """(number, text, cells or None) of one clue entry: [n, text], {"number", "clue", "cells"}, or a bare string."""
    number: object = None
    text: object = ""
    cell_list: object = None
    if isinstance(item, list) and len(item) >= 2:
        number, text = item[0], item[1]
    elif isinstance(item, dict):
        number, text, cell_list = item.get("number"), item.get("clue"), item.get("cells")
    elif isinstance(item, str):
        text = item
    match = re.match(r"\s*(\d+)", str(number)) if number is not None and not isinstance(number, bool) else None
    return (
        (int(match.group(1)) if match else None),
        (text if isinstance(text, str) else ""),
        (cell_list if isinstance(cell_list, list) and cell_list else None),
    )


def _cell_base(clues: dict[str, Any]) -> int:
    """1 when the file's clue cells count from 1 (the spec), 0 when some coordinate is 0."""
    for items in clues.values():
        for item in items if isinstance(items, list) else ():
            cells = item.get("cells") if isinstance(item, dict) else None
            for pair in cells if isinstance(cells, list) else ():
                if isinstance(pair, list) and 0 in pair:
                    return 0
    return 1


def _cells(cell_list: list[Any], grid: Grid, base: int = 1) -> tuple[int, ...] | None:
    """Flat cell indices of an ipuz cell list ([column, row] counted from `base`)."""
    try:
        pairs = [(int(x), int(y)) for x, y in cell_list]
    except (TypeError, ValueError):
        return None
    if not all(0 <= x - base < grid.width and 0 <= y - base < grid.height for x, y in pairs):
        return None
    return tuple((y - base) * grid.width + (x - base) for x, y in pairs)


def to_dict(puzzle: Puzzle) -> dict[str, Any]:
    """The ipuz JSON object for `puzzle`."""
    grid = puzzle.grid
    slots = find_slots(grid)
    is_listed = bool(grid.entries or grid.entries_only or puzzle.clue_lists)
    numbers = {} if grid.entries_only else number_by_cell(grid)
    label_by_cell = labels_by_cell(puzzle)
    mark_by_cell = grid.mark_by_cell
    rows: list[list[dict[str, Any] | str | int]] = []
    solution: list[list[str | None | list[str | None]]] = []
    for r in range(grid.height):
        row: list[dict[str, Any] | str | int] = []
        sol: list[str | None | list[str | None]] = []
        for c in range(grid.width):
            cell = r * grid.width + c
            content = grid.cells[cell]
            style = _style(grid, cell, mark_by_cell.get(cell))
            corners = {k: v for k, v in label_by_cell.get(cell, {}).items() if k != "TL"}
            if corners:
                style["mark"] = corners
            if content == BLOCK:
                row.append({"cell": "#", "style": style} if style else "#")
                sol.append("#")
                continue
            number: int | str = label_by_cell.get(cell, {}).get("TL") or numbers.get(cell, 0)
            row.append({"cell": number, "style": style} if style else number)
            if cell in grid.pairs:  # a Schrödinger cell: its two letters as candidate values, null while open
                sol.append([None if letter == EMPTY else letter for letter in pair_letters(content)])
                continue
            sol.append(None if content == EMPTY else content)
        rows.append(row)
        solution.append(sol)
    clues: dict[str, list[Any]] = (
        {
            title: [_listed_clue(label, cells, text, grid.width) for label, cells, text in items]
            for title, items in written_lists(puzzle)
        }
        if is_listed
        else {
            label: [[s.number, puzzle.clue(s)] for s in _by_number(slots, d)]
            for label, d in (("Across", Direction.ACROSS), ("Down", Direction.DOWN))
        }
    )
    out: dict[str, Any] = {"version": VERSION, "kind": [KIND] + ([DIAGRAMLESS_KIND] if puzzle.is_diagramless else [])}
    for key in ("title", "author", "copyright", "notes"):
        if getattr(puzzle, key):
            out[key] = getattr(puzzle, key)
    alphabet = puzzle.alphabet
    if not alphabet.is_ascii:  # the letters a solver may enter, and the pack (an extension field: ipuz v2 has none)
        if not alphabet.has_multi_letters:
            out["charset"] = "".join(alphabet.letters)
        out[LANGUAGE_KEY] = alphabet.code
    out.update(
        {
            "dimensions": {"width": grid.width, "height": grid.height},
            "block": "#",
            "empty": 0,
            "puzzle": rows,
            "solution": solution,
            "clues": clues,
        }
    )
    if puzzle.theme:
        out[THEME_KEY] = list(puzzle.theme)
    if puzzle.locked_cells:
        out[LOCKS_KEY] = [[cell % grid.width + 1, cell // grid.width + 1] for cell in puzzle.locked_cells]
    return out


def _listed_clue(label: str, cells: tuple[int, ...] | None, text: str, width: int) -> Any:
    """One clue of a listed entry as ipuz writes it: an object with its cells (counted from 1), or, for a clue
    the file places on no cells, `[label, text]` (or the bare text when it has no label)."""
    if cells is None:
        return [label, text] if label else text
    out: dict[str, Any] = {"number": label} if label else {}
    out["cells"] = [[cell % width + 1, cell // width + 1] for cell in cells]
    out["clue"] = text
    return out


def _by_number(slots: tuple[Slot, ...], direction: Direction) -> list[Slot]:
    return sorted(
        (s for s in slots if s.direction is direction and s.reading <= 1),  # one clue per Schrödinger entry
        key=lambda s: (s.number, s.cells[0]),
    )


def _style(grid: Grid, cell: int, mark: Mark | None) -> dict[str, Any]:
    style: dict[str, Any] = {}
    sides = "".join(
        side for side, present in (("R", (cell, "R") in grid.bars), ("B", (cell, "B") in grid.bars)) if present
    )
    if sides:
        style["barred"] = sides
    if mark is not None:
        if mark.circle:
            style["shapebg"] = "circle"
        if mark.shaded:
            style["highlight"] = True
        if mark.color:
            style["color"] = mark.color.lstrip("#")
    return style


def write(puzzle: Puzzle, path: str | Path) -> None:
    """Write `puzzle` as an .ipuz file (UTF-8 JSON)."""
    write_output(path, json.dumps(to_dict(puzzle), indent=1, ensure_ascii=False) + "\n", "puzzle")
