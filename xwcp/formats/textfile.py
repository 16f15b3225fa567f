"""Our text grid (.txt): read with xwcp.grid's parser; written as rows with the title and author as comments."""
from __future__ import annotations

from pathlib import Path

from xwcp.formats.puzzle import Puzzle
from xwcp.grid import decode_grid, read_grid

_META_KEYS = ("title", "author", "copyright")


def read(path: str | Path) -> Puzzle:
    """Read a text grid; `; Title: ...`, `; Author: ...`, `; Copyright: ...` comment lines fill the metadata."""
    grid = read_grid(path)
    meta: dict[str, str] = {}
    text = ""
    if Path(path).is_file():  # not standard input or a pipe: those cannot be read twice
        try:
            text = decode_grid(Path(path).read_bytes())
        except OSError:  # gone since read_grid read it: the grid has no metadata then
            pass
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(";") and ":" in line:
            key, _, value = line[1:].partition(":")
            if key.strip().lower() in _META_KEYS and key.strip().lower() not in meta:
                meta[key.strip().lower()] = value.strip()
    return Puzzle(grid, **meta)


def write(puzzle: Puzzle, path: str | Path) -> None:
    """Write the grid as text rows ('.' empty), metadata as leading `;` comments. Clues are not kept."""
    lines = [f"; {key.capitalize()}: {getattr(puzzle, key)}" for key in _META_KEYS if getattr(puzzle, key)]
    Path(path).write_text("\n".join(lines + puzzle.grid.rows) + "\n", encoding="utf-8")
