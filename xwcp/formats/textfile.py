"""Our text grid (.txt): xwcp's grid syntax (rebus cells, marks, bars); title, author, copyright, kind, language as
comments."""

from __future__ import annotations

from pathlib import Path

from xwcp.model import MAX_GRID_BYTES, decode_grid, parse_grid
from xwcp.model.alphabet import Alphabet
from xwcp.model.puzzle import Puzzle
from xwcp.model.text import text_alphabet
from xwcp.runtime.files import read_bounded, source_name
from xwcp.runtime.writes import write_output

_META_KEYS = ("title", "author", "copyright")


def read(path: str | Path, alphabet: Alphabet | None = None) -> Puzzle:
    """Read a text grid; `; Title: ...`, `; Author: ...`, `; Copyright: ...` comment lines fill the metadata,
    `; Diagramless: yes` marks a diagramless puzzle, `; Language: es` names its language (used when `alphabet`,
    the caller's `--language`, is None). The file (or standard input, `-`) is read once, bounded."""
    text = decode_grid(read_bounded(path, MAX_GRID_BYTES, "grid"))
    alphabet = alphabet or text_alphabet(text, source_name(path))
    notes: list[str] = []  # a letter read as a rebus cell (German ß as [SS])
    grid = parse_grid(text, source_name(path), alphabet, notes)
    meta: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith(";") and ":" in line:
            key, _, value = line[1:].partition(":")
            if key.strip().lower() in _META_KEYS + ("diagramless",) and key.strip().lower() not in meta:
                meta[key.strip().lower()] = value.strip()
    is_diagramless = meta.pop("diagramless", "").lower() in ("yes", "true")
    return Puzzle(
        grid,
        title=meta.get("title", ""),
        author=meta.get("author", ""),
        copyright=meta.get("copyright", ""),
        is_diagramless=is_diagramless,
        alphabet=alphabet,
        warnings=tuple(notes),
    )


def write(puzzle: Puzzle, path: str | Path) -> None:
    """Write the grid in xwcp's text syntax (`Grid.render()`), metadata as leading `;` comments (one line each).
    Notes and clues are not kept."""
    lines = [
        f"; {key.capitalize()}: {' '.join(getattr(puzzle, key).split())}" for key in _META_KEYS if getattr(puzzle, key)
    ]
    if puzzle.is_diagramless:
        lines.append("; Diagramless: yes")
    if not puzzle.alphabet.is_ascii:
        lines.append(f"; Language: {puzzle.alphabet.code}")
    write_output(path, "\n".join(lines) + ("\n" if lines else "") + puzzle.grid.render(puzzle.alphabet), "puzzle")
