"""The request's grid, numbers, flags and slot read from its JSON body, and a grid written back as the page's JSON."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, overload

from xwcp.base.errors import InputError
from xwcp.model import MAX_GRID_BYTES, MAX_SIDE, Grid, grid_from_rows, grid_lines
from xwcp.model.alphabet import Alphabet
from xwcp.web.http import ApiError

Body = dict[str, Any]
"""A request's JSON object."""

_NOT_CELLS = frozenset("|(){}[]")
"""Characters of a grid row in the text syntax that are no cell of their own (marks, bars, a rebus's brackets)."""


@overload
def number_field(body: Mapping[str, Any], key: str, default: int, lo: float, hi: float) -> int: ...
@overload
def number_field(body: Mapping[str, Any], key: str, default: None, lo: float, hi: float) -> int | None: ...
@overload
def number_field(
    body: Mapping[str, Any], key: str, default: float, lo: float, hi: float, kind: type[float]
) -> float: ...
def number_field(
    body: Mapping[str, Any], key: str, default: float | None, lo: float, hi: float, kind: type[int] | type[float] = int
) -> float | None:
    """`body[key]` (else `default`) as a `kind` (int: a whole number) between `lo` and `hi`; 400 otherwise.
    None only when both the value and the default are None."""
    value = body.get(key, default)
    if value is None and default is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or (kind is int and value != int(value))
    ):  # JSON's NaN, Infinity and 1e400 are floats int() refuses
        raise ApiError(400, f"{key} must be a {'whole ' if kind is int else ''}number, got {value!r}")
    if not lo <= value <= hi:
        raise ApiError(400, f"{key} must be between {lo} and {hi}, got {value!r}")
    return kind(value)


def written_letters(grid: Grid, alphabet: Alphabet) -> Grid:
    """`grid` with each rebus cell that is one letter of `alphabet` as written (a Hindi akshara, `[कि]` in the
    page's rows) made that letter's code char, for an alphabet that cuts its text into letters (an open pack's:
    its letters are the list's, which the page cannot number). Elsewhere a rebus stays a rebus: Dutch `[IJ]` is
    I and J in one cell, the page sends the letter IJ as its code char. In a pack of its own letters, a
    character that is no letter is folded as the language's lists fold it (Greek Ά -> Α, Russian Ё -> Е, German
    ß -> SS, a rebus of two), so a grid takes what its list takes; a symbol stays itself."""
    if not alphabet.segment:
        return grid if alphabet.is_ascii else _folded_cells(grid, alphabet)
    cells = list(grid.cells)
    for cell, text in enumerate(cells):
        if len(text) > 1:
            char = alphabet.from_cell(text)
            if char is not None and alphabet.index(char) is not None:
                cells[cell] = char
    return grid if tuple(cells) == grid.cells else replace(grid, cells=tuple(cells))


def _folded_cells(grid: Grid, alphabet: Alphabet) -> Grid:
    """`grid` with each character of a cell that is no letter of `alphabet` folded as its lists fold it
    (`Alphabet.folded_cell`), kept when it folds to none (a rebus symbol)."""
    cells = list(grid.cells)
    for cell, text in enumerate(cells):
        if any(ch.isalpha() and alphabet.index(ch) is None for ch in text):
            cells[cell] = "".join(
                ch if alphabet.index(ch) is not None else alphabet.folded_cell(ch) or ch for ch in text
            )
    return grid if tuple(cells) == grid.cells else replace(grid, cells=tuple(cells))


def page_data(value: Any, alphabet: Alphabet) -> Any:
    """An answer (JSON-ready) as the page reads it: for an open alphabet (Hindi), whose letters beyond its pack's
    are the list's and have no code char the page knows, every string as the language writes it; else as it is
    (code chars: the page maps them through GET /api/languages)."""
    if not alphabet.is_open:
        return value
    from xwcp.render.report import written_data

    return written_data(value, alphabet)


def flag_field(body: Body, key: str) -> bool:
    """`body[key]` (default false) as a bool; 400 for anything but true or false."""
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise ApiError(400, f"{key} must be true or false, got {value!r}")
    return value


def grid_field(body: Body) -> Grid:
    """The grid of `body["grid"]` (rows in xwcp's text syntax); 400 when missing or malformed, 413 over MAX_SIDE."""
    rows = body.get("grid")
    if rows is None:
        raise ApiError(400, "missing \"grid\": a list of row strings, '#' block, '.' empty, A-Z letters")
    if isinstance(rows, list):
        size = sum(len(r) + 1 for r in rows if isinstance(r, str))
        if size > MAX_GRID_BYTES:  # before any work in proportion to it: a grid file has the same cap
            raise ApiError(413, f"the grid is {size:,} characters; the most is {MAX_GRID_BYTES:,}, as for a grid file")
        cell_rows = [
            r
            for r in rows
            if isinstance(r, str) and r.strip() and not r.lstrip().startswith(";") and not set(r.strip()) <= {"-", " "}
        ]  # not the bar lines under rows, nor comments
        width = max((row_width(r) for r in cell_rows), default=0)
        if len(cell_rows) > MAX_SIDE or width > MAX_SIDE:
            raise ApiError(413, f"the grid is {width}x{len(cell_rows)}; the largest supported is {MAX_SIDE}x{MAX_SIDE}")
    try:
        return grid_from_rows(rows, "grid")
    except InputError as exc:
        raise ApiError(400, str(exc)) from None


def row_width(row: str, most: int = MAX_SIDE) -> int:
    """The cells in a grid row of the text syntax (a rebus `[...]` counts once, marks, bars and spaces not at
    all), counted up to `most` + 1, in time linear in the row (after an unclosed `[` the characters that would be
    cells count: the grid's reader then says what is wrong)."""
    count, at, end = 0, 0, len(row)
    while at < end and count <= most:
        if row[at] == "[":
            close = row.find("]", at + 1)
            if close < 0:
                return count + sum(1 for ch in row[at + 1 :] if _is_cell(ch))
            at = close + 1
            count += 1
        else:
            count += _is_cell(row[at])
            at += 1
    return count


def _is_cell(ch: str) -> bool:
    return not (ch.isspace() or ch in _NOT_CELLS)


def grid_source(body: Body) -> tuple[str, ...] | None:
    """`body["grid"]` as a hashable key when it is a list of rows, else None (then `grid_field` says what is wrong)."""
    rows = body.get("grid")
    return tuple(rows) if isinstance(rows, list) and all(isinstance(r, str) for r in rows) else None


def slot_field(body: Body) -> str:
    """`body["slot"]`, a slot id such as "1A"; 400 when missing or blank."""
    slot = body.get("slot")
    if not isinstance(slot, str) or not slot.strip():
        raise ApiError(400, 'missing "slot": a slot id such as "1A" or "12D"')
    return slot


MAX_FILTER_CHARS = 200
"""Longest filter the suggestion list's filter box sends (the controls' MAX_PATTERN_CHARS)."""


def filter_field(body: Body) -> str:
    """`body["filter"]`, the suggestion list's filter (`~REGEX`, `+TEXT`, `-TEXT`, `!WORD`), stripped; "" when
    missing or blank; 400 when not a string or too long."""
    value = body.get("filter", "")
    if not isinstance(value, str) or len(value) > MAX_FILTER_CHARS:
        raise ApiError(400, f'filter must be a string of at most {MAX_FILTER_CHARS} characters, such as "~.*ING"')
    return value.strip()


def optional_slot_field(body: Body) -> str | None:
    """`body["slot"]` when given (see `slot_field`), else None."""
    return None if body.get("slot") is None else slot_field(body)


def grid_json(grid: Grid) -> Body:
    """A grid for the page: its lines (`"grid"`) and its cells row by row (`"contents"`)."""
    return {
        "grid": grid_lines(grid),
        "contents": [list(grid.cells[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)],
    }
