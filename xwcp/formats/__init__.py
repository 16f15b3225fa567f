"""Read and write puzzle files (.txt, .puz, .ipuz, .xd, .jpz, .json), each format chosen by the file's extension.

Every format module has `read(path) -> Puzzle` and `write(puzzle, path)`; `read_puzzle` and
`write_puzzle` dispatch on the extension. Every format reads into the one grid model
(`xwcp.model`: bars, marks, rebus cells, a published numbering) and says what the user should
know about a file in `Puzzle.warnings` (a key that unlocked it, a checksum another tool left
wrong, letters it could not read). A file that cannot be read as it is meant (structural
damage, a variety puzzle whose entries are not across and down runs) is refused with one
`InputError` line; a format that cannot hold something refuses to write it, naming one that can.
"""

from __future__ import annotations

import dataclasses
import importlib
from pathlib import Path
from types import ModuleType

from xwcp.base.errors import InputError
from xwcp.model.alphabet import Alphabet
from xwcp.model.grid import changed_letters
from xwcp.model.puzzle import Puzzle, clue_order, puzzle_from_fill

MODULE_BY_SUFFIX = {
    ".txt": "xwcp.formats.textfile",
    ".puz": "xwcp.formats.puzfile",
    ".ipuz": "xwcp.formats.ipuzfile",
    ".xd": "xwcp.formats.xdfile",
    ".json": "xwcp.formats.jsonfile",
    ".jpz": "xwcp.formats.jpzfile",
}
"""Extension -> the module that reads and writes it."""
_TEXT_SYNTAX = frozenset({".txt", ".json"})
"""Formats in xwcp's grid syntax: they read and write a language's letters themselves (`{IJ}`, `; language:`);
the others hold each cell's letters as text, turned to and from code chars here (`xwcp.formats._language`)."""

__all__ = [
    "Puzzle",
    "MODULE_BY_SUFFIX",
    "read_puzzle",
    "write_puzzle",
    "clue_order",
    "puzzle_from_fill",
    "format_module",
    "check_writable",
]


def format_module(path: str | Path) -> ModuleType:
    """The format module for `path`'s extension.

    Raises:
        InputError: the extension is none of .txt .puz .ipuz .xd .json .jpz.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in MODULE_BY_SUFFIX:
        raise InputError(
            f"unknown puzzle file extension {suffix or '(none)'!r}; use one of {', '.join(MODULE_BY_SUFFIX)}", str(path)
        )
    return importlib.import_module(MODULE_BY_SUFFIX[suffix])


def read_puzzle(path: str | Path, alphabet: Alphabet | None = None) -> Puzzle:
    """Read a puzzle file by its extension; a name without one (or `-`, standard input) is our text grid.

    `alphabet`: the puzzle's language (`--language`); None: the language the file names (an .ipuz's language
    or charset, an .xd `Language:` header, a .txt `; language:` line, a .json `language`), else English. The
    puzzle's cells hold its code chars, and `Puzzle.alphabet` is it.

    Raises:
        InputError: unknown extension, unreadable file, or content xwcp cannot fill (one line naming the file).
    """
    is_text = not Path(path).suffix or str(path) == "-"
    module = importlib.import_module(MODULE_BY_SUFFIX[".txt"]) if is_text else format_module(path)
    if is_text or Path(path).suffix.lower() in _TEXT_SYNTAX:
        puzzle: Puzzle = module.read(path, alphabet)
    else:
        puzzle = module.read(path)
        chosen = alphabet or puzzle.alphabet
        if chosen is not puzzle.alphabet or not chosen.is_ascii:
            from xwcp.formats._language import code_cells  # imported only for a language other than English

            puzzle = code_cells(puzzle, chosen)
    kept = sorted({change for content in puzzle.grid.cells for change in changed_letters(content)})
    if kept:  # every reader keeps them as they are (model.grid.cell_upper): said, never silently changed
        puzzle = dataclasses.replace(
            puzzle,
            warnings=puzzle.warnings
            + (
                f"cells hold letters that upper case would change into others ({', '.join(kept[:5])}); kept as "
                "they are, so no listed word fills them",
            ),
        )
    return puzzle


def check_writable(puzzle: Puzzle, path: str | Path) -> None:
    """Refuse, before any work, what the format of `path` cannot hold of `puzzle` (a fill adds only letters).

    Raises:
        InputError: unknown extension, or something the format cannot hold (naming one that can).
    """
    check = getattr(format_module(path), "check_writable", None)
    if check is not None:
        check(_for_format(puzzle, path), str(path))


def _for_format(puzzle: Puzzle, path: str | Path) -> Puzzle:
    """`puzzle` as the format of `path` takes it: the text-syntax formats take code chars, the others each
    cell's written letters (`IJ`; a Hebrew final form where an entry ends: `xwcp.model.written_cells`)."""
    if Path(path).suffix.lower() in _TEXT_SYNTAX:
        return puzzle
    if puzzle.alphabet.final:
        from xwcp.model import written_cells

        return dataclasses.replace(
            puzzle, grid=dataclasses.replace(puzzle.grid, cells=written_cells(puzzle.grid, puzzle.alphabet))
        )
    if not (puzzle.alphabet.has_multi_letters or puzzle.alphabet.is_open):
        return puzzle
    from xwcp.formats._language import written_grid

    return dataclasses.replace(puzzle, grid=written_grid(puzzle.grid, puzzle.alphabet))


def write_puzzle(puzzle: Puzzle, path: str | Path) -> None:
    """Write `puzzle` in the format named by `path`'s extension.

    Raises:
        InputError: unknown extension, or the file cannot be written.
    """
    module = format_module(path)
    try:
        module.write(_for_format(puzzle, path), path)
    except OSError as exc:
        raise InputError(f"cannot write puzzle file ({exc.strerror or exc})", str(path)) from None
