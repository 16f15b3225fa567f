"""Read a puzzle file's bytes or text through xwcp.runtime.files (bounded, no hang on a pipe), errors as one InputError line."""

from __future__ import annotations

from pathlib import Path

from xwcp.base.errors import InputError
from xwcp.runtime.files import MAX_PUZZLE_BYTES, read_bounded

__all__ = ["MAX_PUZZLE_BYTES", "read_bytes", "read_text"]


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes. Raises InputError: missing file, a directory, unreadable, or over MAX_PUZZLE_BYTES."""
    return read_bounded(path, MAX_PUZZLE_BYTES, "puzzle")


def read_text(path: str | Path) -> str:
    """The file's text, UTF-8 (a byte order mark dropped). Raises InputError as `read_bytes`, or for bad UTF-8."""
    try:
        return read_bytes(path).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start}: {exc.reason})", str(path)) from None
