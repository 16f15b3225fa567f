"""xd crossword files (.xd, the plain-text format of xd.saul.pw and Puzzmo): rebus cells, marks, bars, clues as given.

xdformat (the reference parser by the format's author) splits the metadata, grid and clues of
both forms of the format (sections by blank lines, or `## Metadata` / `## Grid` / `## Clues`
headings); it signals bad input with `assert`, so every failure becomes one InputError line.
What it leaves aside is read here: header names in any case, the `## Notes` and `## Design`
sections, `<!-- -->` comments.

The grid: '#' is a block and '_' (an open non-letter cell of a shaped grid) is read as one;
'A'-'Z' a letter, a lower-case letter the same letter marked as the `Special:` header says
(circle or shaded); a character of the `Rebus:` header (`1=HEART 2=DIAMOND`) that rebus, and one
the header gives two letters (`1=O 1=A`, Puzzmo's Schrödinger square, or `1=C/P`, the xd corpus's older
form) a Schrödinger cell holding both, its entries' answers written as their first reading; any other character is kept as given (a
symbol cell). '.' is an unknown letter in the xd spec but a
block in Puzzmo's files: in a grid without '#', the clues' answers decide (the reading under
which they spell the grid's entries), with a warning when they cannot. A `## Design` section
(Puzzmo) gives circles (`background: circle`), shading (`background: shade`), colours and bars
(`bar-top`, `bar-left`).

Writing: the classic form (headers, two blank lines, grid, clues) with a `Rebus:` header for
rebus cells; the `## ` form with a `## Design` section when the grid has marks or bars. Clue
text is written as given; every entry gets its answer ('.' for an empty cell; a Schrödinger entry
once, with its first reading, its cells keyed `1=O 1=A`). What .xd cannot hold (listed entries, a
Schrödinger cell still open, a published numbering, a clue over several lines) is refused, naming
a format that can.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from pathlib import Path

from xwcp.base.errors import InputError
from xwcp.base.lines import listed
from xwcp.formats._io import read_text
from xwcp.formats._language import named_alphabet
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.model.entries import pair_letters
from xwcp.model.grid import (
    BLOCK,
    EMPTY,
    MAX_SIDE,
    NOT_CELL_CONTENTS,
    RIGHT,
    Grid,
    Mark,
    cell_upper,
    find_slots,
    is_cell_content,
    make_grid,
)
from xwcp.model.puzzle import Puzzle, clue_order
from xwcp.runtime.files import quote
from xwcp.runtime.writes import write_output

_PLACEHOLDER_CLUE = "[XXX]"
"""What xdformat writes for a clue with no text; read back as no clue."""
_GENERATOR = "xwcp"
"""Written as a `Generator:` header so the metadata section is never empty (xdformat needs one)."""
_SECTION = re.compile(r"^\s*##\s+(.+?)\s*$")
_STYLE_RULE = re.compile(r"(\S)\s*\{([^}]*)\}")
_HEX_COLOR = re.compile(r"#[0-9A-Fa-f]{6}\b")
_SHADE_WORDS = ("shade", "shaded", "darken", "gray", "grey")
_REBUS_KEYS = "123456789@$%&*+=!?0❶❷❸❹❺❻❼❽❾❿"
"""Characters the writer uses as rebus keys in the grid, the first ones not already in it."""
_CAN_HOLD = ".ipuz or .jpz"


def read(path: str | Path) -> Puzzle:
    """Read an .xd file.

    Raises:
        InputError: missing file, no grid, ragged rows, a `Rebus:` header that does not read, a grid
            without slots.
    """
    source = str(path)
    return from_text(read_text(path), source)


def from_text(text: str, source: str = "<xd>") -> Puzzle:
    """The Puzzle in .xd text (see `read`)."""
    import xdformat

    text = _without_comments(text)
    sections = _sections(text)
    try:
        xd = xdformat.xdfile(text, filename=source)
    except (AssertionError, xdformat.Error, ValueError, IndexError) as exc:
        problem = str(exc).replace(source, "").strip(": ") or exc.__class__.__name__
        raise InputError(
            f"not a valid .xd file ({problem if len(problem) <= 80 else quote(problem)})", source
        ) from None
    header: dict[str, str] = {}
    for key, value in xd.headers.items():
        header.setdefault(key.strip().lower(), value[0] if isinstance(value, list) else value)
    rows = [row.strip() for row in xd.grid]
    if not rows:
        raise InputError("no grid (an .xd file has metadata, two blank lines, then the grid)", source)
    width, height = len(rows[0]), len(rows)
    for r, row in enumerate(rows):
        if len(row) != width:
            raise InputError(f"grid row {r + 1} has {len(row)} cells but row 1 has {width}", source)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise InputError(f"the grid is {width}x{height}; the largest supported is {MAX_SIDE}x{MAX_SIDE}", source)
    warnings: list[str] = []
    rebus, pair_keys = _rebus(header.get("rebus", ""), source, warnings)
    for r, row in enumerate(rows):  # what a cell cannot hold is refused, as every reader does (is_cell_content)
        for c, ch in enumerate(row):
            if ch.isspace():  # a cell is one character: a space would be written to a .txt grid that cannot hold it
                raise InputError(
                    f"grid row {r + 1}, column {c + 1} is a space; an .xd grid row is one character "
                    "per cell ('#' a block, '.' an empty cell)",
                    source,
                )
            if ch not in "#_." and ch not in rebus and not is_cell_content(cell_upper(ch)):
                raise InputError(
                    f"grid row {r + 1}, column {c + 1} holds {quote(ch)}, which xwcp cannot keep in a "
                    "cell "
                    f"({NOT_CELL_CONTENTS})",
                    source,
                )
    special = header.get("special", "").strip().lower()
    special_mark = Mark(circle=True) if special.startswith("circle") else Mark(shaded=True) if special else None
    marks: dict[int, Mark] = {}
    bars: list[tuple[int, str]] = []
    _design(sections.get("design", []), width, height, marks, bars, warnings)
    split = header.get("splitcharacter", "")
    answers = {f"{n}{d}": _answer(a, split) for (d, n), _clue, a in xd.clues if d in ("A", "D") and a}
    has_dots = any("." in row for row in rows)
    readings = [False] if not has_dots or any("#" in row for row in rows) else [True, False]
    alphabet = named_alphabet(header.get("language"), warnings) or ENGLISH  # a Hebrew answer ends in its final form
    scored: list[tuple[int, Grid, bool]] = []  # (clue answers it spells, the grid, dot_is_block) per reading
    for dot_is_block in readings:
        cells = [_cell(ch, rebus, special_mark, cell, marks, dot_is_block) for cell, ch in enumerate("".join(rows))]
        candidate = make_grid(width, height, cells, bars=bars, marks=marks, source=source)
        scored.append((_n_matching(candidate, answers, alphabet), candidate, dot_is_block))
    best_score, grid, dot_is_block = max(scored, key=lambda reading: reading[0])  # the first of equals
    if len(readings) == 2 and (not answers or best_score == 0):
        dot_is_block = any(ch.isalpha() for row in rows for ch in row)
        cells = [_cell(ch, rebus, special_mark, cell, marks, dot_is_block) for cell, ch in enumerate("".join(rows))]
        grid = make_grid(width, height, cells, bars=bars, marks=marks, source=source)
        warnings.append(
            f"the grid has no '#': its '.' cells are read as {'blocks' if dot_is_block else 'empty cells'}"
            " (no answers in the clues tell which reading is meant)"
        )
    if pair_keys:
        grid = dataclasses.replace(
            grid, pairs=frozenset(cell for cell, ch in enumerate("".join(rows)) if ch in pair_keys)
        )
    slots = find_slots(grid)
    if not slots:
        raise InputError("the grid has no slot (no run of two or more white cells)", source)
    clue_by_slot = _clues(xd.clues, grid, split, warnings, alphabet)
    notes = "\n".join(sections.get("notes", [])).strip() or xd.notes.strip()
    if not notes and header.get("description", "").strip() not in ("", "N/A"):
        notes = header["description"].strip()
    is_diagramless = header.get("diagramless", "").strip().lower() in ("true", "yes", "1")
    return Puzzle(
        grid,
        header.get("title", "").strip(),
        header.get("author", "").strip(),
        header.get("copyright", "").strip(),
        notes,
        clue_by_slot,
        is_diagramless,
        tuple(warnings),
        alphabet,
    )


def _without_comments(text: str) -> str:
    """`text` without its `<!-- ... -->` comments, in linear time (an unclosed `<!--` and what follows it are
    kept, as a non-greedy regex would; the regex took quadratic time on many unclosed ones)."""
    parts: list[str] = []
    at = 0
    while True:
        start = text.find("<!--", at)
        end = text.find("-->", start + 4) if start >= 0 else -1
        if end < 0:
            parts.append(text[at:])
            return "".join(parts)
        parts.append(text[at:start])
        at = end + 3


def _sections(text: str) -> dict[str, list[str]]:
    """Lines by `## Name` section (lower-case names); empty for a file in the classic form."""
    out: dict[str, list[str]] = {}
    name = None
    for line in text.splitlines():
        match = _SECTION.match(line)
        if match:
            name = match.group(1).strip().lower()
            out.setdefault(name, [])
        elif name is not None:
            out[name].append(line)
    return out


def _rebus(value: str, source: str, warnings: list[str]) -> tuple[dict[str, str], frozenset[str]]:
    """(grid character -> cell contents, the characters that are Schrödinger cells) from a `Rebus:` header
    (`1=HEART 2=DIAMOND`, or comma-separated). A key given two single letters (`1=O 1=A`, Puzzmo's Schrödinger
    square), or one letter or the other (`1=C/P`, the xd corpus's older form: The New Yorker 2023-07-14), is a
    Schrödinger cell holding both, in that order (`xwcp.model.entries.pair_content`); any other key
    given twice keeps its first answer, said in one warning for all such keys."""
    out: dict[str, str] = {}
    pairs: set[str] = set()
    second: dict[str, list[str]] = {}
    repeated: list[str] = []
    n_repeated = 0
    for item in re.split(r"[ ,]+", value.strip()):
        if not item:
            continue
        key, sep, text = item.partition("=")
        if not sep or len(key) != 1 or not text.strip():
            raise InputError(
                f"the Rebus header's {quote(item)} does not read (use 1=HEART: one grid character, '=', the letters)",
                source,
            )
        if key in out:
            second.setdefault(key, []).append(cell_upper(text.strip()))
            continue
        halves = cell_upper(text.strip()).split("/")
        if len(halves) == 2 and all(len(h) == 1 and is_cell_content(h) for h in halves):
            out[key] = halves[0] + halves[1]  # `1=C/P`: the xd corpus's Schrödinger square, C or P
            pairs.add(key)
            continue
        out[key] = cell_upper(text.strip())
        if not is_cell_content(out[key]):
            raise InputError(
                f"the Rebus header's {quote(item)} puts {quote(out[key])} in a cell, which xwcp cannot "
                "keep "
                f"({NOT_CELL_CONTENTS})",
                source,
            )
    for key, more in second.items():
        if len(more) == 1 and len(out[key]) == 1 and len(more[0]) == 1 and is_cell_content(more[0]):
            out[key] += more[0]
            pairs.add(key)
            continue
        n_repeated += len(more)
        repeated += [f"{key!r} ({quote(out[key])}, then {quote(text)})" for text in more[: 3 - len(repeated)]]
    if n_repeated:
        warnings.append(
            f"the Rebus header gives {n_repeated} answer{'s' if n_repeated != 1 else ''} to a key already "
            f"given one; the first is read: {listed(repeated, n_repeated, most=3)}"
        )
    return out, frozenset(pairs)


def _design(
    lines: list[str], width: int, height: int, marks: dict[int, Mark], bars: list[tuple[int, str]], warnings: list[str]
) -> None:
    """Marks and bars from a `## Design` section: a `<style>` of one-character rules, then a grid of them."""
    if not lines:
        return
    body = "\n".join(lines)
    style_text = body.split("<style>", 1)[1].split("</style>", 1)[0] if "<style>" in body else ""
    rest = body.split("</style>", 1)[1] if "</style>" in body else body
    rules = {
        name: dict(
            (part.split(":", 1)[0].strip().lower(), part.split(":", 1)[1].strip())
            for part in props.split(";")
            if ":" in part
        )
        for name, props in _STYLE_RULE.findall(style_text)
    }
    rows = [line.strip() for line in rest.splitlines() if line.strip()]
    for r, row in enumerate(rows[:height]):
        for c, ch in enumerate(row[:width]):
            rule = rules.get(ch)
            if rule is None:
                continue
            cell = r * width + c
            background = rule.get("background", "").lower()
            circle = "circle" in background
            shaded = any(word in background for word in _SHADE_WORDS) or rule.get("shade", "") == "true"
            color = next(
                (
                    m.group(0).upper()
                    for key in ("background-color", "background-light", "background")
                    for m in [_HEX_COLOR.search(rule.get(key, ""))]
                    if m
                ),
                None,
            )
            old = marks.get(cell, Mark())
            mark = Mark(old.circle or circle, old.shaded or shaded, old.color or color)
            if mark:
                marks[cell] = mark
            for key, side in (("bar-top", "T"), ("bar-left", "L"), ("bar-bottom", "B"), ("bar-right", "R")):
                if rule.get(key, "").lower() == "true":
                    bars.append((cell, side))
    if len(rows) != height:
        warnings.append(f"the Design section has {len(rows)} rows, not {height}; its marks may be misplaced")


def _cell(
    ch: str, rebus: dict[str, str], special: Mark | None, cell: int, marks: dict[int, Mark], dot_is_block: bool
) -> str:
    if ch in "#_" or (ch == "." and dot_is_block):
        return BLOCK
    if ch == ".":
        return EMPTY
    if ch in rebus:
        return rebus[ch]
    if "a" <= ch <= "z":
        if special is not None:
            old = marks.get(cell, Mark())
            marks[cell] = Mark(old.circle or special.circle, old.shaded or special.shaded, old.color)
        return ch.upper()
    return cell_upper(ch)


def _answer(text: str, split: str) -> str:
    text = cell_upper(text).replace(" ", "")
    return text.replace(split, "") if split else text


def _letters(grid: Grid, cells: tuple[int, ...], alphabet: Alphabet = ENGLISH) -> str:
    """An entry's answer from its cells as written (a Schrödinger cell's first letter: the answer of the first
    reading, as Puzzmo writes it); in a pack with final forms (Hebrew) a cell may show one because another
    entry ends there, so the answer is spelt from the letters, its own last one final."""
    text = "".join(grid.cells[c][:1] if c in grid.pairs else grid.cells[c] for c in cells)  # a reading-1 answer
    if not alphabet.final:
        return text
    return alphabet.written_at_end("".join(alphabet.from_cell(ch) or ch for ch in text))


def _inline(grid: Grid, cells: tuple[int, ...]) -> str:
    """An entry's answer in the xd corpus's inline form: each Schrödinger cell as both letters, `C/P`."""
    return "".join(f"{grid.cells[c][0]}/{grid.cells[c][1]}" if c in grid.pairs else grid.cells[c] for c in cells)


def _n_matching(grid: Grid, answers: dict[str, str], alphabet: Alphabet) -> int:
    """How many clue answers spell the entry of the same name (a '.' in an answer matches an empty cell)."""
    by_name = {s.name: _letters(grid, s.cells, alphabet) for s in find_slots(grid)}
    return sum(by_name.get(name) == answer for name, answer in answers.items())


def _clues(
    clues: Iterable[tuple[tuple[str, int], str, str]],
    grid: Grid,
    split: str,
    warnings: list[str],
    alphabet: Alphabet = ENGLISH,
) -> dict[str, str]:
    by_name = {s.entry_name: s for s in find_slots(grid) if s.reading <= 1}  # one clue per Schrödinger entry
    out: dict[str, str] = {}
    unplaced: list[str] = []
    differ: list[str] = []
    for (direction, number), clue, answer in clues:
        name = f"{number}{direction}"
        slot = by_name.get(name)
        if slot is None:
            if direction or number:
                unplaced.append(name)
            continue
        if clue and clue != _PLACEHOLDER_CLUE:
            out[name] = clue
        letters = _letters(grid, slot.cells, alphabet)
        if answer and EMPTY not in letters and _answer(answer, split) not in (letters, _inline(grid, slot.cells)):
            differ.append(name)
    if unplaced:
        warnings.append(
            f"{len(unplaced)} clues name no entry of the grid and are not read ({', '.join(unplaced[:3])}"
            f"{' and more' if len(unplaced) > 3 else ''})"
        )
    if differ:
        warnings.append(
            f"{len(differ)} clue answers differ from the grid's letters ({', '.join(differ[:3])}"
            f"{' and more' if len(differ) > 3 else ''})"
        )
    return out


# ----- writing ------------------------------------------------------------------------------


def to_text(puzzle: Puzzle, source: str = "<xd>") -> str:
    """The .xd text for `puzzle` (see `write`)."""
    grid = puzzle.grid
    check_writable(puzzle, source)
    open_pairs = [cell for cell in sorted(grid.pairs) if EMPTY in pair_letters(grid.cells[cell])]
    if open_pairs:
        first = open_pairs[0]
        raise InputError(
            f"a Schrödinger cell without its two letters (row {first // grid.width + 1}, column "
            f"{first % grid.width + 1}): .xd names a Schrödinger cell by its letters (Rebus: 1=O 1=A); "
            "write .ipuz, .txt or .json",
            source,
        )
    symbols = {c for c in grid.cells if len(c) == 1}
    keys = iter(k for k in _REBUS_KEYS if k not in symbols)
    key_by_rebus: dict[str, str] = {}
    key_by_pair: dict[str, str] = {}
    for cell in sorted(grid.pairs):
        if grid.cells[cell] not in key_by_pair:
            key = next(keys, None)
            if key is None:
                raise InputError(f"more rebus strings than .xd has grid characters for; write {_CAN_HOLD}", source)
            key_by_pair[grid.cells[cell]] = key
    for cell, content in enumerate(grid.cells):
        if len(content) > 1 and content not in key_by_rebus and cell not in grid.pairs:
            key = next(keys, None)
            if key is None:
                raise InputError(f"more rebus strings than .xd has grid characters for; write {_CAN_HOLD}", source)
            key_by_rebus[content] = key
    headers = [("Title", puzzle.title), ("Author", puzzle.author), ("Copyright", puzzle.copyright)]
    if key_by_rebus or key_by_pair:
        items = [f"{k}={v}" for v, k in key_by_rebus.items()]
        items += [f"{k}={v[0]} {k}={v[1]}" for v, k in key_by_pair.items()]  # a Schrödinger cell: both letters
        headers.append(("Rebus", " ".join(items)))
    if puzzle.is_diagramless:
        headers.append(("Diagramless", "true"))
    if not puzzle.alphabet.is_ascii:
        headers.append(("Language", puzzle.alphabet.code))
    headers.append(("Generator", _GENERATOR))
    head = [f"{key}: {' '.join(value.split())}" for key, value in headers if value]
    rows = [
        "".join(
            key_by_pair[grid.cells[cell]]
            if cell in grid.pairs
            else key_by_rebus.get(grid.cells[cell], grid.cells[cell])
            for cell in range(r * grid.width, (r + 1) * grid.width)
        )
        for r in range(grid.height)
    ]
    slots = find_slots(grid)
    clue_lines: list[str] = []
    for direction in ("A", "D"):
        ordered = clue_order(s for s in slots if s.direction.letter == direction and s.reading <= 1)
        if clue_lines and ordered:
            clue_lines.append("")
        for slot in ordered:
            clue_lines.append(
                f"{direction}{slot.number}. {puzzle.clue(slot)} ~ {_letters(grid, slot.cells, puzzle.alphabet)}"
            )
    notes = puzzle.notes.strip()
    if not grid.marks and not grid.bars:
        text = "\n".join(head) + "\n\n\n" + "\n".join(rows) + "\n\n\n" + "\n".join(clue_lines) + "\n"
        return text + (f"\n\n{notes}\n" if notes else "")
    parts = ["## Metadata", "", *head, "", "## Grid", "", *rows, "", "## Clues", "", *clue_lines, ""]
    if notes:
        parts += ["## Notes", "", notes, ""]
    parts += ["## Design", "", *_design_lines(grid), ""]
    return "\n".join(parts)


def check_writable(puzzle: Puzzle, source: str = "<xd>") -> None:
    """Refuse what .xd cannot hold: listed entries (a variety puzzle: .xd has Across and Down clues on the grid's
    runs only), a published numbering, a clue over several lines. (A Schrödinger cell is written as its two
    letters: the writer refuses one still open, which a fill closes.)

    Raises:
        InputError: naming it and a format that holds it.
    """
    listed = puzzle.grid.entries or puzzle.grid.entries_only or puzzle.clue_lists
    if listed:
        what = f"entry {puzzle.grid.entries[0].name}" if puzzle.grid.entries else "its own clue lists"
        raise InputError(
            f"a variety puzzle ({what}: entries listed as cells, not only across and down runs): .xd holds "
            f"Across and Down clues on the grid's runs only; write {_CAN_HOLD}",
            source,
        )
    if puzzle.grid.numbers is not None:
        raise InputError(
            f"the grid has its own numbering: .xd numbers every grid the standard way; write {_CAN_HOLD}", source
        )
    for name, text in puzzle.clue_by_slot.items():
        if "\n" in text or "\r" in text:
            raise InputError(
                f"clue {name} runs over several lines: .xd holds one line per clue; write {_CAN_HOLD}", source
            )


def _design_lines(grid: Grid) -> list[str]:
    """A `<style>` with one rule per combination of marks and bars, and the grid of rule letters."""
    width = grid.width
    props_by_cell: dict[int, tuple[str, ...]] = {}
    for cell, mark in grid.marks:
        mark_props: list[str] = []
        if mark.circle:
            mark_props.append("background: circle")
        if mark.shaded:
            mark_props.append("shade: true" if mark.circle else "background: shade")
        if mark.color:
            mark_props.append(f"background-color: {mark.color}")
        props_by_cell[cell] = tuple(mark_props)
    for cell, side in sorted(grid.bars):
        target, prop = (cell + 1, "bar-left: true") if side == RIGHT else (cell + width, "bar-top: true")
        props_by_cell[target] = props_by_cell.get(target, ()) + (prop,)
    names = iter("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    rule_by_props: dict[tuple[str, ...], str] = {}
    for props in props_by_cell.values():
        key = tuple(sorted(set(props)))
        if key not in rule_by_props:
            rule_by_props[key] = next(names)
    lines = ["<style>", *(f"{name} {{ {'; '.join(props)} }}" for props, name in rule_by_props.items()), "</style>", ""]
    for r in range(grid.height):
        lines.append(
            "".join(
                rule_by_props[tuple(sorted(set(props_by_cell[cell])))]
                if cell in props_by_cell
                else ("#" if grid.cells[cell] == BLOCK else ".")
                for cell in range(r * width, (r + 1) * width)
            )
        )
    return lines


def write(puzzle: Puzzle, path: str | Path) -> None:
    """Write `puzzle` as an .xd file (UTF-8).

    Raises:
        InputError: a published numbering or a clue over several lines (.xd cannot hold them).
    """
    text = to_text(puzzle, str(path))
    write_output(path, text, "puzzle")
