"""xwcp's text grid syntax: parse it into a Grid and render a Grid back, bars, marks and rebus cells included.

One grid row per line; lines starting with `;` are comments. Each cell is one token:

    #            a block
    .  ?  _      an empty white cell
    A            a letter (lower case is read as upper case); in another language (`alphabet`), any letter
                 of its pack typed as itself (Ñ, Ж, Ω; lower case upper-cased the pack's way: Turkish i -> İ)
    {IJ}         a letter of the pack written with several characters (Dutch IJ, Welsh LL): one cell
    [STAR]       a rebus cell: several letters in one cell, given by the constructor (a file's rebus
                 may hold other characters, `[&]`, `[1]`: kept as given; no listed word fits there);
                 `[IJ]` is a rebus of I and J, `[{IJ}S]` one of the letter IJ and S
    (A)          a circled cell (any cell token inside the parentheses: `(.)`, `([STAR])`)
    {A}          a shaded cell; circled and shaded: `({A})`
    <CB>         a Schrödinger cell: two letters, one for each reading of the entries through it
                 (`xwcp.model.entries`); `<..>` while both are open, `<C.>` with one given

A `|` between two cells is a bar between them (it ends the across entry there). A bar under a
cell is drawn on a line of its own, right below the row, with a `-` under the cell (under any
character of its token); such a line holds only `-` and spaces:

    ; a barred corner
    CAT|S
    .(.).{.}.
     -
    [STAR].#..

Optional comment lines carry what has no picture: `; colors: 2,3=#FFCC00 4,1=#C0C0FF`
(row,column from 1 = a background colour) and `; numbers: 1,1=1 1,4=2` (a published numbering
that differs from the standard one). A comment whose items do not all read that way is an
ordinary comment. Listed entries (`xwcp.model.entries`) have a line each, `; entry: NAME = 1,1 2,2 3,3`
(its cells in reading order, row,column from 1), added to the across and down slots, or replacing them
when the grid has the line `; entries: listed`; a chain of several words whose boundaries the fill chooses
(a Marching Bands row) is `; chain: NAME = 2 words: 1,1 1,2 ...`; a malformed entry line is an error naming its line. `; language: es` names the grid's language pack (`xwcp languages`) when no
`--language` is given (`text_language`). A grid with no bars, marks or rebus cells is written exactly as rows of
single characters, so every grid file written before this syntax existed reads the same.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from xwcp.base.errors import InputError
from xwcp.model.alphabet import ENGLISH, Alphabet, pack_alphabet
from xwcp.model.entries import Entry, entry_problem, pair_content, pair_problem
from xwcp.model.grid import (
    BELOW,
    BLOCK,
    EMPTY,
    MAX_SIDE,
    RIGHT,
    Grid,
    Mark,
    cell_upper,
    find_slots,
    is_cell_content,
    make_grid,
    render_grid,  # render_grid: the writer lives beside Grid.render, this module reads
)
from xwcp.runtime.files import MAX_NUMBER_DIGITS, read_bounded, source_name

_EMPTY_INPUT = frozenset(".?_")
_HELP = (
    "use '#' for a block, '.' '?' '_' for an empty cell, A-Z for a letter, [LETTERS] for a rebus cell, "
    "(x) circled, {x} shaded, '|' a bar between cells, <AB> a Schrödinger cell"
)
_DIRECTIVE = re.compile(r"^;\s*(colou?rs?|numbers)\s*:\s*(.*)$", re.IGNORECASE)
_LANGUAGE = re.compile(r"^;\s*language\s*:\s*(\S+)\s*$", re.IGNORECASE)
_COLOR_ITEM = re.compile(r"^(\d+),(\d+)=(#[0-9A-Fa-f]{6})$")
_NUMBER_ITEM = re.compile(r"^(\d+),(\d+)=(\d+)$")
_ENTRY = re.compile(r"^;\s*(entry|chain)\s*:\s*(.*)$", re.IGNORECASE)
_CHAIN_WORDS = re.compile(r"^(\d+)\s+words?\s*:\s*(.*)$", re.IGNORECASE)
_ENTRY_BODY = re.compile(r"^(\S+)\s*=\s*(.*)$")
_ENTRY_CELL = re.compile(r"^(\d+),(\d+)$")
_ENTRIES_LISTED = re.compile(r"^;\s*entries\s*:\s*(\S*)\s*$", re.IGNORECASE)
_ENTRY_HELP = "write '; entry: NAME = 1,1 2,2 3,3' (the entry's cells in reading order, row,column from 1)"
_CHAIN_HELP = "write '; chain: NAME = 2 words: 1,1 1,2 1,3 ...' (how many words, then the chain's cells in order)"

MAX_GRID_BYTES = 64 * 1024
"""Largest grid file we read: a 30x30 grid with comments is under 2 KB, so more is a wrong file."""


class _Row:
    """One parsed grid row: cell contents, marks, right bars and each token's column span in the line."""

    def __init__(self) -> None:
        self.cells: list[str] = []
        self.circles: list[bool] = []
        self.shades: list[bool] = []
        self.pairs: set[int] = set()
        self.bar_after: set[int] = set()
        self.spans: list[tuple[int, int]] = []
        self.line_no = 0


def _akshara_at(line: str, pos: int, alphabet: Alphabet) -> tuple[str, int] | None:
    """The akshara written at `pos` (its letter, the signs on it, and after a virama the consonant it joins with its
    own signs: क्षि is one) as `alphabet`'s code char, and where it ends; None when it is no letter there."""
    after = pos + 1
    while after < len(line) and (unicodedata.category(line[after]).startswith("M") or line[after - 1] == "\u094d"):
        after += 1
    char = alphabet.from_cell(line[pos:after])
    return None if char is None else (char, after)


def _parse_row(
    line: str,
    row_number: int,
    source: str,
    line_no: int,
    alphabet: Alphabet = ENGLISH,
    folds: dict[str, list[tuple[int, int]]] | None = None,
) -> _Row:
    row = _Row()
    english = alphabet.is_ascii
    row.line_no = line_no
    pos = len(line) - len(line.lstrip())
    end = len(line)

    def fail(col: int, problem: str) -> InputError:
        return InputError(f"row {row_number}, column {col}: {problem} ({_HELP})", source, line_no)

    while pos < end:
        ch = line[pos]
        if ch == "|":
            if not row.cells or (len(row.cells) - 1) in row.bar_after:
                raise fail(len(row.cells) + 1, "a bar '|' must stand between two cells")
            row.bar_after.add(len(row.cells) - 1)
            pos += 1
            continue
        start = pos
        circle = shaded = False
        if line[pos] == "(":
            circle, pos = True, pos + 1
        if pos < end and line[pos] == "{" and _multi_letter(line, pos, alphabet) is None:
            shaded, pos = True, pos + 1
        col = len(row.cells) + 1
        if pos >= end:
            raise fail(col, "a mark '(' or '{' is not closed")
        ch = line[pos]
        multi = None if english or ch != "{" else _multi_letter(line, pos, alphabet)
        if multi is not None:
            content, pos = multi
        elif ch == "[":
            close = line.find("]", pos)
            inner = line[pos + 1 : close] if close > 0 else ""
            rebus = cell_upper(inner) if english else _rebus_chars(inner, alphabet)
            if close < 0 or any(ch.isspace() for ch in inner) or rebus is None or not is_cell_content(rebus):
                raise fail(col, f"a rebus cell needs letters inside [ ] (got {line[pos : close + 1 or end]!r})")
            content, pos = rebus, close + 1
        elif ch == BLOCK:
            content, pos = BLOCK, pos + 1
        elif ch in _EMPTY_INPUT:
            content, pos = EMPTY, pos + 1
        elif english and ch.isascii() and ch.isalpha():
            content, pos = ch.upper(), pos + 1
        elif ch == "<":
            close = line.find(">", pos)
            inner = line[pos + 1 : close] if close > 0 else ""
            halves = [
                EMPTY if h in _EMPTY_INPUT else cell_upper(h) if english else alphabet.from_cell(h) for h in inner
            ]
            if close < 0 or len(halves) != 2 or any(h is None or not (h == EMPTY or h.isalpha()) for h in halves):
                raise fail(
                    col,
                    f"a Schrödinger cell holds two letters or '.' inside < > (got {line[pos : close + 1 or end]!r})",
                )
            content, pos = pair_content(*(h or EMPTY for h in halves)), close + 1
            row.pairs.add(len(row.cells))
        elif alphabet.segment and ch.isalpha() and (akshara := _akshara_at(line, pos, alphabet)) is not None:
            content, pos = akshara  # Hindi: one cell per akshara, written as it is
        elif not english and ch not in "(){}|]" and (char := _typed_letter(line, pos, alphabet)) is not None:
            content, pos = char
            if len(content) > 1 and folds is not None:  # German ß -> SS: two letters in one cell, a rebus
                folds.setdefault(line[start:pos].strip("({"), []).append((row_number, col))
        elif not english and ch.isalpha():
            raise fail(
                col, f"{ch!r} is not a letter of {alphabet.name} (--language {alphabet.code}; see `xwcp languages`)"
            )
        else:
            raise fail(col, f"unexpected character {ch!r}")
        for opened, closer in ((shaded, "}"), (circle, ")")):
            if opened:
                if pos >= end or line[pos] != closer:
                    raise fail(col, f"expected {closer!r} to close the mark")
                pos += 1
        row.cells.append(content)
        row.circles.append(circle)
        row.shades.append(shaded)
        row.spans.append((start, pos))
    return row


def _typed_letter(line: str, pos: int, alphabet: Alphabet) -> tuple[str, int] | None:
    """The letter typed at `pos` with the combining marks after it, as `alphabet`'s code chars folded as its
    word lists fold them (`Alphabet.folded_cell`: ά -> Α, ё -> Е, ß -> SS), and where it ends; None when it
    folds to no letter."""
    after = pos + 1
    while after < len(line) and unicodedata.combining(line[after]):
        after += 1
    typed = line[pos:after]
    char = alphabet.from_cell(typed) if after == pos + 1 else None
    folded = char if char is not None else alphabet.folded_cell(typed)
    return None if folded is None else (folded, after)


def fold_notes(folds: dict[str, list[tuple[int, int]]], alphabet: Alphabet) -> list[str]:
    """One line for each typed character that folds to several letters (`_typed_letter`), naming its first
    cell: it was read as a rebus cell of those letters, as the language's word lists spell it."""
    notes = []
    for typed, cells in folds.items():
        row, col = cells[0]
        written = alphabet.written(alphabet.folded_cell(typed) or "")
        more = f" and {len(cells) - 1} more" if len(cells) > 1 else ""
        language = alphabet.name.split(" (")[0]
        notes.append(
            f"{typed!r} is {written} in {language} word lists, {len(written)} letters: read as the rebus "
            f"cell [{written}] (row {row}, column {col}{more}); type {' '.join(written)} in "
            f"{len(written)} cells to give each letter its own"
        )
    return notes


def _multi_letter(line: str, pos: int, alphabet: Alphabet) -> tuple[str, int] | None:
    """At `line[pos] == '{'`: (code char, position after the '}') when `{...}` holds one of `alphabet`'s letters
    of several characters (`{IJ}`), else None (a `{` that opens a shaded cell)."""
    if not (alphabet.has_multi_letters or alphabet.is_open) or line[pos] != "{":
        return None
    close = line.find("}", pos)
    inner = line[pos + 1 : close] if close > 0 else ""
    if len(inner) < 2:
        return None
    char = alphabet.from_cell(inner)
    return None if char is None else (char, close + 1)


def _rebus_chars(inner: str, alphabet: Alphabet) -> str | None:
    """A rebus token's inside (`STAR`, `{IJ}S`) as code chars of `alphabet`: each character a letter (its code
    char) or kept as given (a symbol), `{..}` one letter of several characters; None when a `{..}` is none."""
    out: list[str] = []
    inner = unicodedata.normalize("NFC", inner)  # a letter and its marks typed apart are one character
    i = 0
    while i < len(inner):
        if inner[i] == "{":
            multi = _multi_letter(inner, i, alphabet)
            if multi is None:
                return None
            out.append(multi[0])
            i = multi[1]
            continue
        ch = inner[i]
        out.append(alphabet.from_cell(ch) or alphabet.folded_cell(ch) or cell_upper(ch))
        i += 1
    return "".join(out)


def _is_bar_line(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and set(stripped) <= {"-", " "}


def _directive_items(line: str, pattern: re.Pattern[str]) -> list[tuple[str, ...]] | None:
    """The items of a `; colors:` / `; numbers:` line as tuples, or None when any item does not read."""
    match = _DIRECTIVE.match(line)
    if not match:
        return None
    items = match.group(2).split()
    parsed = [pattern.match(item) for item in items]
    if not items or not all(parsed):
        return None
    return [m.groups() for m in parsed if m]


def parse_grid(
    text: str, source: str = "<grid>", alphabet: Alphabet | None = None, notes: list[str] | None = None
) -> Grid:
    """Parse grid text in xwcp's syntax (module docstring).

    Args:
        text: the grid, one row per line.
        source: file name used in error messages.
        alphabet: the language the cells are written in; None: the grid's `; language:` line, else English.
            Cells hold its code chars (`xwcp.model.alphabet`): a typed letter is folded as the language's
            word lists fold it (ά -> Α in Greek), and one that folds to several letters (German ß -> SS) is read as
            a rebus cell of them.
        notes: when given, gets one line for each character read as such a rebus cell (`fold_notes`).

    Returns:
        The grid.

    Raises:
        InputError: ragged rows, unknown characters, a bad mark, bar or rebus token, an empty grid,
            a grid over 30x30 or one without any slot; the message names the line.
    """
    text = text.removeprefix("\ufeff")  # a UTF-8 byte order mark (Windows editors) is not a cell
    if alphabet is None:
        alphabet = text_alphabet(text, source)
    rows: list[_Row] = []
    folds: dict[str, list[tuple[int, int]]] = {}
    below: list[tuple[int, int]] = []  # (row index, column) of bars under a cell
    colors: list[tuple[str, ...]] = []
    numbers: list[tuple[str, ...]] = []
    entry_lines: list[tuple[int, bool, str]] = []
    entries_only = False
    color_line = number_line = 0
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith(";"):
            entry_match = _ENTRY.match(stripped)
            if entry_match:
                entry_lines.append((line_no, entry_match.group(1).lower() == "chain", entry_match.group(2)))
                continue
            listed_match = _ENTRIES_LISTED.match(stripped)
            if listed_match:
                if listed_match.group(1).lower() not in ("listed", "added"):
                    raise InputError(
                        f"'; entries: {listed_match.group(1)}': write '; entries: listed' (the listed entries are "
                        "the grid's only ones) or '; entries: added' (the default: added to across and down)",
                        source,
                        line_no,
                    )
                entries_only = listed_match.group(1).lower() == "listed"
                continue
            kind = _DIRECTIVE.match(stripped)
            if kind:
                is_color = kind.group(1).lower().startswith("col")
                items = _directive_items(stripped, _COLOR_ITEM if is_color else _NUMBER_ITEM)
                if items is not None:
                    if is_color:
                        colors.extend(items)
                        color_line = color_line or line_no
                    else:
                        numbers.extend(items)
                        number_line = number_line or line_no
            continue
        if _is_bar_line(line):
            if not rows:
                raise InputError("a bar line ('-' under cells) must come right after a grid row", source, line_no)
            above = rows[-1]
            for offset, ch in enumerate(line):
                if ch != "-":
                    continue
                col = next((i for i, (a, b) in enumerate(above.spans) if a <= offset < b), None)
                if col is None:
                    raise InputError(
                        f"the bar '-' at character {offset + 1} is under no cell of row {len(rows)}", source, line_no
                    )
                below.append((len(rows) - 1, col))
            continue
        rows.append(_parse_row(line, len(rows) + 1, source, line_no, alphabet, folds))
    if not rows:
        raise InputError("the grid has no rows", source)
    width = len(rows[0].cells)
    for index, row in enumerate(rows):
        if len(row.cells) != width:
            raise InputError(
                f"row {index + 1} has {len(row.cells)} cells but row 1 has {width} (rows must be equally long)",
                source,
                row.line_no,
            )
    height = len(rows)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise InputError(f"the grid is {width}x{height}; the largest supported is {MAX_SIDE}x{MAX_SIDE}", source)
    cells = [cell for row in rows for cell in row.cells]
    bars = [(r * width + c, RIGHT) for r, row in enumerate(rows) for c in row.bar_after]
    bars += [(r * width + c, BELOW) for r, c in below]
    mark_by_cell: dict[int, Mark] = {}
    for r, row in enumerate(rows):
        for c in range(width):
            if row.circles[c] or row.shades[c]:
                mark_by_cell[r * width + c] = Mark(circle=row.circles[c], shaded=row.shades[c])
    for r_text, c_text, color in colors:
        cell = _directive_cell(r_text, c_text, width, height, source, color_line)
        old = mark_by_cell.get(cell, Mark())
        mark_by_cell[cell] = Mark(old.circle, old.shaded, color.upper())
    for item in numbers:
        if any(len(part) > MAX_NUMBER_DIGITS for part in item):
            raise InputError(
                f"the numbers line holds a number of {max(map(len, item)):,} digits; a cell number "
                f"has at most {MAX_NUMBER_DIGITS}",
                source,
                number_line,
            )
    number_by_cell = {
        _directive_cell(r_text, c_text, width, height, source, number_line): int(n) for r_text, c_text, n in numbers
    }
    entries = [_read_entry(body, width, height, cells, source, line_no, chain) for line_no, chain, body in entry_lines]
    pairs = [r * width + c for r, row in enumerate(rows) for c in row.pairs]
    problem = pair_problem(width, tuple(cells), pairs) if pairs else None
    if problem:
        raise InputError(problem, source)
    if entries_only and not entries:
        raise InputError("'; entries: listed' but the grid lists no entry (" + _ENTRY_HELP + ")", source)
    try:
        grid = make_grid(
            width,
            height,
            cells,
            bars=bars,
            marks=mark_by_cell,
            numbers=number_by_cell or None,
            entries=entries,
            entries_only=entries_only,
            pairs=pairs,
            source=source,
        )
    except InputError:
        raise
    except ValueError as exc:  # a listed entry named like a slot of the grid's own
        named = [n for n, _, body in entry_lines if f"named {body.split('=')[0].strip().upper()}:" in str(exc)]
        raise InputError(str(exc), source, named[0] if named else None) from None
    if not find_slots(grid):
        raise InputError("the grid has no slot (no run of two or more white cells)", source)
    if notes is not None:
        notes.extend(fold_notes(folds, alphabet))
    return grid


def _read_entry(
    body: str, width: int, height: int, cells: list[str], source: str, line_no: int, is_chain: bool = False
) -> Entry:
    """One `; entry: NAME = r,c r,c ...` line's entry (`body`: what follows `entry:`), or with `is_chain` one
    `; chain: NAME = K words: r,c r,c ...` line's chain of K words.

    Raises:
        InputError: a malformed line, a cell outside the grid or on a block, a bad name, a chain without its
            count of words or with fewer than two (naming the line).
    """
    match = _ENTRY_BODY.match(body.strip())
    if not match:
        help_text = _CHAIN_HELP if is_chain else _ENTRY_HELP
        raise InputError(
            f"{'a chain' if is_chain else 'an entry'} line needs a name and '=' ({help_text})", source, line_no
        )
    listed = match.group(2)
    n_words = 1
    if is_chain:
        count = _CHAIN_WORDS.match(listed.strip())
        if not count or int(count.group(1)) < 2:
            raise InputError(
                f"chain {match.group(1)}: say how many words fill it, two or more ({_CHAIN_HELP})", source, line_no
            )
        n_words, listed = int(count.group(1)), count.group(2)
    cells_read: list[int] = []
    for item in listed.split():
        cell_match = _ENTRY_CELL.match(item)
        if not cell_match:
            raise InputError(
                f"entry {match.group(1)}: {item!r} is not a cell row,column ({_ENTRY_HELP})", source, line_no
            )
        cells_read.append(_directive_cell(cell_match.group(1), cell_match.group(2), width, height, source, line_no))
    entry = Entry(match.group(1), tuple(cells_read), n_words)
    problem = entry_problem(width, height, tuple(cells), [entry])
    if problem:
        raise InputError(problem, source, line_no)
    return entry


def text_language(text: str) -> str | None:
    """The language a grid text names on a `; language: CODE` comment line (before the rows), None if none."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(";"):
            match = _LANGUAGE.match(stripped)
            if match:
                return match.group(1)
        elif stripped:
            return None  # the language line comes before the grid's rows
    return None


def text_alphabet(text: str, source: str = "<grid>") -> Alphabet:
    """The shipped pack a grid text names (`text_language`, read by `pack_alphabet`: never a file), English when it
    names none.

    Raises:
        InputError: it names no shipped pack (naming the file).
    """
    code = text_language(text)
    if code is None:
        return ENGLISH
    try:
        return pack_alphabet(code)
    except InputError as exc:
        raise InputError(exc.message, source) from None


def _directive_cell(r_text: str, c_text: str, width: int, height: int, source: str, line_no: int) -> int:
    if len(r_text) > MAX_NUMBER_DIGITS or len(c_text) > MAX_NUMBER_DIGITS:
        raise InputError(
            f"a cell {quote_digits(r_text)},{quote_digits(c_text)} is outside the {width}x{height} grid",
            source,
            line_no,
        )
    row, col = int(r_text), int(c_text)
    if not (1 <= row <= height and 1 <= col <= width):
        raise InputError(f"cell {row},{col} is outside the {width}x{height} grid", source, line_no)
    return (row - 1) * width + (col - 1)


def quote_digits(digits: str) -> str:
    """A number for an error line, cut short when it is long."""
    return digits if len(digits) <= 12 else f"{digits[:12]}... ({len(digits):,} digits)"


def decode_grid(raw: bytes) -> str:
    """Grid bytes as text: UTF-8 (a byte order mark dropped), else latin-1, as word lists are read."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def read_grid(path: str | Path, alphabet: Alphabet | None = None) -> Grid:
    """Read a grid file (`-` for standard input), at most MAX_GRID_BYTES, in `alphabet` (None: the file's
    `; language:` line, else English).

    Raises:
        InputError: a missing, unreadable or oversized file, and bad content.
    """
    raw = read_bounded(path, MAX_GRID_BYTES, "grid")
    return parse_grid(decode_grid(raw), source_name(path), alphabet)


def grid_from_rows(
    rows: object, source: str = "<grid>", alphabet: Alphabet | None = None, notes: list[str] | None = None
) -> Grid:
    """Parse a grid given as a list of row strings (the JSON form used by the web API and `--format json`:
    the lines `render_grid` writes); bar lines and `; colors:` / `; numbers:` lines may be among them,
    as in the text syntax.

    Raises:
        InputError: not a list of strings, an empty or comment row, or any problem `parse_grid` finds.
    """
    if not isinstance(rows, list) or not rows or not all(isinstance(row, str) for row in rows):
        raise InputError('the grid must be a non-empty list of row strings, e.g. ["#...", "...."]', source)
    for row_index, row in enumerate(rows, start=1):
        is_comment = row.lstrip().startswith(";") and not any(
            pattern.match(row.strip()) for pattern in (_DIRECTIVE, _ENTRY, _ENTRIES_LISTED)
        )
        if not row.strip() or is_comment or "\n" in row or "\r" in row:
            raise InputError(f"row {row_index} is empty or not a single row of cells", source)
    return parse_grid("\n".join(rows), source, alphabet, notes)


def grid_lines(grid: Grid, alphabet: Alphabet = ENGLISH) -> list[str]:
    """The grid's lines in this syntax (`render_grid`), the JSON form of a grid: a grid without bars, marks
    or rebus cells gives its rows (`Grid.rows`); `grid_from_rows` reads the lines back as an equal Grid
    (in the same `alphabet`: its letters as it writes them, Ñ, Ж, `{IJ}`)."""
    return grid.rows if grid.is_plain else render_grid(grid, alphabet).splitlines()
