"""Read a puzzle file's bytes or text, turning every failure into one InputError line naming the file."""
from __future__ import annotations

from pathlib import Path

from xwcp.errors import InputError


def read_bytes(path: str | Path) -> bytes:
    """The file's bytes. Raises InputError: missing file, a directory, or unreadable."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError("no such puzzle file", str(path)) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a puzzle file", str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read puzzle file ({exc.strerror or exc})", str(path)) from None


def read_text(path: str | Path) -> str:
    """The file's text, UTF-8 (a byte order mark dropped). Raises InputError as `read_bytes`, or for bad UTF-8."""
    try:
        return read_bytes(path).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start}: {exc.reason})", str(path)) from None
