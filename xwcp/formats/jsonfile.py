"""Our fill JSON (.json): the grid in our text syntax, the metadata and one entry per slot with its word and clue.

The same entry shape as `xwcp fill --format json` (id, number, direction, row, col, length,
word), plus the clue; an entry's word is null while any of its cells is empty (a rebus cell
gives all its letters). `grid` holds the lines of `Grid.render()`: rows with their rebus cells,
marks and bars, bar lines, and the `; colors:` / `; numbers:` lines, each letter as its language writes
it (Ñ, Ж, `{IJ}`; words the same, "IJS"); `language` is the pack's code (left out for English). Reading takes
the `grid` lines, the metadata, `diagramless` and `language`, so a written file reads back unchanged. `theme` (slot
names) and `locks` ([row, column] pairs counted from 0) are the constructor's theme entries and locked cells, written
when there are some. A variety puzzle's own clue lists (`Puzzle.clue_lists`) are `lists`: [{"title", "clues":
[{"label", "entry"}]}], a clue on an entry naming it (its text is that entry's `clue`), a clue on no entry giving
its own "clue" and its "cells" ([row, column] pairs; none when the solver places it); its printed cell labels
(`Puzzle.cell_labels`) are `labels`: [{"row", "col", "corner", "text"}]. Both are written when the puzzle has them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from xwcp.base.errors import InputError
from xwcp.formats._io import read_text
from xwcp.model import BLOCK, EMPTY, find_slots, parse_grid
from xwcp.model.alphabet import Alphabet, pack_alphabet
from xwcp.model.puzzle import CORNERS, CellLabel, ClueList, ListedClue, Puzzle
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
    if puzzle.clue_lists:
        out["lists"] = [_list_dict(clue_list, grid.width) for clue_list in puzzle.clue_lists]
    if puzzle.cell_labels:
        out["labels"] = [
            {
                "row": label.cell // grid.width,
                "col": label.cell % grid.width,
                "corner": label.corner,
                "text": label.text,
            }
            for label in puzzle.cell_labels
        ]
    return out


def _list_dict(clue_list: ClueList, width: int) -> dict[str, Any]:
    clues: list[dict[str, Any]] = []
    for clue in clue_list.clues:
        if clue.entry is not None:
            clues.append({"label": clue.label, "entry": clue.entry})
        else:
            clues.append(
                {
                    "label": clue.label,
                    "clue": clue.text,
                    "cells": [[cell // width, cell % width] for cell in clue.cells],
                }
            )
    return {"title": clue_list.title, "clues": clues}


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
    entry_names = {s.entry_name for s in find_slots(grid)}
    return Puzzle(
        grid,
        clue_by_slot=clue_by_slot,
        clue_lists=_read_lists(data.get("lists"), entry_names, clue_by_slot, grid.width, grid.height, source),
        cell_labels=_read_labels(data.get("labels"), grid.width, grid.height, source),
        is_diagramless=data.get("diagramless") is True,
        alphabet=alphabet or text_alphabet("\n".join(rows)),
        theme=theme_names,
        locked_cells=tuple(sorted(c for c in locked if grid.cells[c] != BLOCK)),
        **meta,
    )


def _cells(pairs: object, width: int, height: int) -> tuple[int, ...] | None:
    """Flat cells of [row, column] pairs inside the grid, or None when `pairs` is not such a list."""
    if not isinstance(pairs, list):
        return None
    out: list[int] = []
    for pair in pairs:
        if not (
            isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in pair)
            and 0 <= pair[0] < height
            and 0 <= pair[1] < width
        ):
            return None
        out.append(pair[0] * width + pair[1])
    return tuple(out)


def _read_lists(
    lists: object, entry_names: set[str], clue_by_slot: dict[str, str], width: int, height: int, source: str
) -> tuple[ClueList, ...]:
    """`Puzzle.clue_lists` of a `lists` value: a clue naming an entry the grid no longer has is left out, as a
    writer leaves it out; its text is the entry's clue (`clue_by_slot`)."""
    if lists is None:
        return ()
    if not isinstance(lists, list) or sum(len(x.get("clues") or []) for x in lists if isinstance(x, dict)) > MAX_CLUES:
        raise InputError(f'"lists" must be a list of clue lists of at most {MAX_CLUES:,} clues in all', source)
    out: list[ClueList] = []
    for item in lists:
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("title"), str)
            or not isinstance(item.get("clues"), list)
        ):
            raise InputError('each of "lists" must be {"title": text, "clues": [...]}', source)
        clues: list[ListedClue] = []
        for clue in item["clues"]:
            if not isinstance(clue, dict):
                continue
            label = clue["label"] if isinstance(clue.get("label"), str) else ""
            entry = clue.get("entry")
            if isinstance(entry, str):
                if entry.upper() in entry_names:
                    clues.append(ListedClue(label, entry.upper(), clue_by_slot.get(entry.upper(), "")))
                continue
            cells = _cells(clue.get("cells", []), width, height)
            text = clue.get("clue")
            if cells is not None and isinstance(text, str):
                clues.append(ListedClue(label, None, text, cells))
        out.append(ClueList(item["title"], tuple(clues)))
    return tuple(out)


def _read_labels(labels: object, width: int, height: int, source: str) -> tuple[CellLabel, ...]:
    """`Puzzle.cell_labels` of a `labels` value (one outside the grid, in no corner or with no text left out)."""
    if labels is None:
        return ()
    if not isinstance(labels, list) or len(labels) > width * height * len(CORNERS):
        raise InputError('"labels" must be a list of {"row", "col", "corner", "text"}', source)
    out: list[CellLabel] = []
    for label in labels:
        if not isinstance(label, dict):
            continue
        cells = _cells([[label.get("row"), label.get("col")]], width, height)
        corner, text = label.get("corner"), label.get("text")
        if cells and corner in CORNERS and isinstance(text, str) and text.strip():
            out.append(CellLabel(cells[0], corner, text))
    return tuple(out)
