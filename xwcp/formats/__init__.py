"""Read and write puzzle files (.txt, .puz, .ipuz, .xd, .json), each format chosen by the file's extension.

Every format module has `read(path) -> Puzzle` and `write(puzzle, path)`; `read_puzzle` and
`write_puzzle` dispatch on the extension. A format that cannot carry something refuses it with
an `InputError` naming the file (circles, rebus cells, bars that split an entry), because xwcp
fills one letter per cell of a plain block grid.
"""
from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from xwcp.errors import InputError
from xwcp.formats.puzzle import Puzzle, clue_order, puzzle_from_fill

MODULE_BY_SUFFIX = {
    ".txt": "xwcp.formats.textfile",
    ".puz": "xwcp.formats.puzfile",
    ".ipuz": "xwcp.formats.ipuzfile",
    ".xd": "xwcp.formats.xdfile",
    ".json": "xwcp.formats.jsonfile",
}
"""Extension -> the module that reads and writes it."""

__all__ = ["Puzzle", "MODULE_BY_SUFFIX", "read_puzzle", "write_puzzle", "clue_order", "puzzle_from_fill",
           "format_module"]


def format_module(path: str | Path) -> ModuleType:
    """The format module for `path`'s extension.

    Raises:
        InputError: the extension is none of .txt .puz .ipuz .xd .json.
    """
    suffix = Path(path).suffix.lower()
    if suffix not in MODULE_BY_SUFFIX:
        raise InputError(f"unknown puzzle file extension {suffix or '(none)'!r}; use one of "
                         f"{', '.join(MODULE_BY_SUFFIX)}", str(path))
    return importlib.import_module(MODULE_BY_SUFFIX[suffix])


def read_puzzle(path: str | Path) -> Puzzle:
    """Read a puzzle file by its extension; a name without one (or `-`, standard input) is our text grid.

    Raises:
        InputError: unknown extension, unreadable file, or content xwcp cannot fill (one line naming the file).
    """
    module = importlib.import_module(MODULE_BY_SUFFIX[".txt"]) if not Path(path).suffix or str(path) == "-" \
        else format_module(path)
    puzzle: Puzzle = module.read(path)
    return puzzle


def write_puzzle(puzzle: Puzzle, path: str | Path) -> None:
    """Write `puzzle` in the format named by `path`'s extension.

    Raises:
        InputError: unknown extension, or the file cannot be written.
    """
    module = format_module(path)
    try:
        module.write(puzzle, path)
    except OSError as exc:
        raise InputError(f"cannot write puzzle file ({exc.strerror or exc})", str(path)) from None
