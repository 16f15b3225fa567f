"""Our fill JSON (.json): the grid in our text syntax, the metadata and one entry per slot with its word and clue.

The same entry shape as `xwcp fill --format json` (id, number, direction, row, col, length,
word), plus the clue; an entry's word is null while any of its cells is empty (a rebus cell
gives all its letters). `grid` holds the lines of `Grid.render()`: rows with their rebus cells,
marks and bars, bar lines, and the `; colors:` / `; numbers:` lines, each letter as its language writes
it (Ñ, Ж, `{IJ}`; words the same, "IJS"); `language` is the pack's code (left out for English). Reading takes
the `grid` lines, the metadata, `diagramless` and `language`, so a written file reads back unchanged. `theme` (slot
names) and `locks` ([row, column] pairs counted from 0) are the constructor's theme entries and locked cells, written
when there are some.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from xwcp.base.errors import InputError
from xwcp.formats._io import read_text
from xwcp.model import BLOCK, EMPTY, find_slots, parse_grid
from xwcp.model.alphabet import Alphabet, pack_alphabet
from xwcp.model.puzzle import Puzzle
from xwcp.model.text import grid_lines, text_alphabet
from xwcp.runtime.files import MAX_CLUES, load_json
from xwcp.runtime.writes import write_output


def to_dict(puzzle: Puzzle) -> dict[str, Any]:
    """The .json document of `puzzle` (the module docstring); the web page holds a puzzle in this form."""
    grid, alphabet = puzzle.grid, puzzle.alphabet
    entries = []
    for slot in sorted(find_slots(grid), key=lambda s: (s.direction.letter != "A", s.number)):
        text = "".join(grid.cells[c] for c in slot.cells)
        entries.append(
            {
                "id": slot.name,
                "number": slot.number,
                "direction": slot.direction.value,
                "row": slot.row,
                "col": slot.col,
                "length": slot.length,
                "word": None if EMPTY in text else alphabet.written_at_end(text),
                "clue": puzzle.clue(slot),
            }
        )
    out = {
        "title": puzzle.title,
        "author": puzzle.author,
        "copyright": puzzle.copyright,
        "notes": puzzle.notes,
        "diagramless": puzzle.is_diagramless,
        "width": grid.width,
        "height": grid.height,
    }
    if not alphabet.is_ascii:
        out["language"] = alphabet.code
    out.update({"grid": grid_lines(grid, alphabet), "entries": entries})
    if puzzle.theme:
        out["theme"] = list(puzzle.theme)
    if puzzle.locked_cells:
        out["locks"] = [[cell // grid.width, cell % grid.width] for cell in puzzle.locked_cells]
    return out


def write(puzzle: Puzzle, path: str | Path) -> None:
    write_output(path, json.dumps(to_dict(puzzle), indent=1, ensure_ascii=False) + "\n", "puzzle")


def read(path: str | Path, alphabet: Alphabet | None = None) -> Puzzle:
    """Read a .json written by xwcp (`grid` rows required), in `alphabet` (None: its `language`, else English).

    Raises:
        InputError: missing file, not JSON, no `grid` rows, a bad grid, `entries` that are not a list
            (an entry whose `id` or `clue` is not a string is left out).
    """
    source = str(path)
    data = load_json(read_text(path), source)
    rows = data.get("grid") if isinstance(data, dict) else None
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise InputError('no "grid" (a list of row strings) in this JSON', source)
    language = data.get("language")
    if alphabet is None and isinstance(language, str) and language.strip():
        try:
            alphabet = pack_alphabet(language)  # a shipped pack's code, never a file
        except InputError as exc:
            raise InputError(exc.message, source) from None
    grid = parse_grid("\n".join(rows), source, alphabet)
    names = {name for s in find_slots(grid) for name in (s.name, s.entry_name)}  # 7A: both readings' clue
    entries = data.get("entries", [])
    if not isinstance(entries, list) or len(entries) > MAX_CLUES:
        raise InputError(f'"entries" must be a list of at most {MAX_CLUES:,} entries', source)
    clue_by_slot = {
        e["id"]: e["clue"]
        for e in entries
        if isinstance(e, dict)
        and isinstance(e.get("id"), str)
        and e["id"] in names
        and isinstance(e.get("clue"), str)
        and e["clue"]
    }
    meta = {key: data[key] for key in ("title", "author", "copyright", "notes") if isinstance(data.get(key), str)}
    theme = data.get("theme")
    theme_names = (
        tuple(dict.fromkeys(n.upper() for n in theme if isinstance(n, str) and n.upper() in names))
        if isinstance(theme, list)
        else ()
    )
    locks = data.get("locks")
    locked = (
        {
            r * grid.width + c
            for r, c in (
                p
                for p in locks
                if isinstance(p, list)
                and len(p) == 2
                and all(isinstance(x, int) and not isinstance(x, bool) for x in p)
            )
            if 0 <= r < grid.height and 0 <= c < grid.width
        }
        if isinstance(locks, list)
        else set()
    )
    return Puzzle(
        grid,
        clue_by_slot=clue_by_slot,
        is_diagramless=data.get("diagramless") is True,
        alphabet=alphabet or text_alphabet("\n".join(rows)),
        theme=theme_names,
        locked_cells=tuple(sorted(c for c in locked if grid.cells[c] != BLOCK)),
        **meta,
    )
