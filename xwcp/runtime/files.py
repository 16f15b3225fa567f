"""Read a user's input file safely: bounded in size, no hang on a FIFO or a device, `-` for standard input.

A grid is under 1 KB and a word list a few MB, so a read stops one byte past a cap and the
caller refuses what is over it: `/dev/zero` or a runaway pipe gets a clear message instead of
filling memory. A named pipe is opened without blocking and given FIFO_WAIT_S to bring data
(or its end), so one that nobody writes to is refused instead of waited for forever; one with
a writer (`<(make-grid)` too) is read to its end like a file.
"""
from __future__ import annotations

import os
import select
import stat
import sys
from pathlib import Path

from xwcp.base.errors import InputError

STDIN = "-"
"""The file name that means standard input."""
STDIN_SOURCE = "<stdin>"
"""How standard input is named in messages."""

FIFO_WAIT_S = 10.0
"""How long a named pipe may stay silent before we give up on it (`cat` would wait forever)."""
_CHUNK_BYTES = 1 << 16


def source_name(path: str | Path) -> str:
    """The name used in messages for `path` (`<stdin>` for `-`)."""
    return STDIN_SOURCE if str(path) == STDIN else str(path)


def _read_fd(fd: int, max_bytes: int) -> bytes:
    """At most `max_bytes + 1` bytes from `fd` (the extra byte tells the caller the input is too big)."""
    parts: list[bytes] = []
    n_read = 0
    while n_read <= max_bytes:
        chunk = os.read(fd, min(_CHUNK_BYTES, max_bytes + 1 - n_read))
        if not chunk:
            break
        parts.append(chunk)
        n_read += len(chunk)
    return b"".join(parts)


def _wait_for_writer(fd: int, source: str, what: str) -> None:
    """Wait up to FIFO_WAIT_S for a named pipe to get data or an end; refuse it if nothing comes."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    if not poller.poll(FIFO_WAIT_S * 1000):
        raise InputError(f"nothing was written to this pipe within {FIFO_WAIT_S:g} s; is a {what} being sent to it?",
                         source)


def read_bounded(path: str | Path, max_bytes: int, what: str) -> bytes:
    """The bytes of `path` (standard input for `-`), refusing more than `max_bytes`.

    Args:
        path: a file name, or `-` for standard input.
        max_bytes: the most this input may hold.
        what: what the file is, for messages ("grid", "word-list").

    Returns:
        The content.

    Raises:
        InputError: missing, a directory, unreadable, or over `max_bytes` (the message says the cap).
    """
    source = source_name(path)
    if str(path) == STDIN:
        if sys.stdin is None:  # started with standard input closed (`<&-`)
            raise InputError("standard input is closed", source)
        try:
            raw = _read_fd(sys.stdin.fileno(), max_bytes)
        except (ValueError, OSError) as exc:
            raise InputError(f"cannot read standard input ({getattr(exc, 'strerror', None) or exc})", source) from None
    else:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO without a writer must not block the open
        except FileNotFoundError:
            raise InputError(f"no such {what} file", source) from None
        except IsADirectoryError:
            raise InputError(f"is a directory, not a {what} file", source) from None
        except OSError as exc:
            raise InputError(f"cannot read {what} file ({exc.strerror or exc})", source) from None
        try:
            mode = os.fstat(fd).st_mode
            if stat.S_ISDIR(mode):
                raise InputError(f"is a directory, not a {what} file", source)
            if stat.S_ISFIFO(mode):
                _wait_for_writer(fd, source, what)
            os.set_blocking(fd, True)
            raw = _read_fd(fd, max_bytes)
        except IsADirectoryError:
            raise InputError(f"is a directory, not a {what} file", source) from None
        except OSError as exc:
            raise InputError(f"cannot read {what} file ({exc.strerror or exc})", source) from None
        finally:
            os.close(fd)
    if len(raw) > max_bytes:
        raise InputError(f"the {what} file is larger than {_size_text(max_bytes)}, more than any {what} needs; "
                         "is it the right file?", source)
    return raw


def _size_text(n_bytes: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n_bytes >= size:
            return f"{n_bytes / size:g} {unit}"
    return f"{n_bytes} bytes"
