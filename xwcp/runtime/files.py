"""Read a user's input file safely: bounded in size, no hang on a FIFO or a device, `-` for standard input.

A grid is under 1 KB and a word list a few MB, so a read stops one byte past a cap and the
caller refuses what is over it: `/dev/zero` or a runaway pipe gets a clear message instead of
filling memory. A named pipe is opened without blocking and given FIFO_WAIT_S to bring data
(or its end), so one that nobody writes to is refused instead of waited for forever; one with
a writer (`<(make-grid)` too) is read to its end like a file.

An untrusted puzzle file is also read under budgets, all here so the README and the tests quote
one set of numbers: each is checked before work proportional to it (a zip member is inflated
in chunks and stopped at its cap, a span of cells is checked against the grid before it is
spelled out, JSON and XML nesting is measured before a tree is walked). `load_json` reads JSON
under them: no nesting deeper than MAX_NESTING_DEPTH (the C decoder stops at the recursion limit,
caught here), no number longer than MAX_NUMBER_DIGITS, no Infinity or NaN.
"""
from __future__ import annotations

import os
import select
import stat
import sys
from pathlib import Path

import json
from typing import Any

from xwcp.base.errors import InputError

STDIN = "-"
"""The file name that means standard input."""
STDIN_SOURCE = "<stdin>"
"""How standard input is named in messages."""

FIFO_WAIT_S = 10.0
"""How long a named pipe may stay silent before we give up on it (`cat` would wait forever)."""
_CHUNK_BYTES = 1 << 16

# ----- budgets of an untrusted puzzle file (README "Puzzle files" quotes them) -------------------
MAX_PUZZLE_BYTES = 1 << 20
"""A 30x30 .puz is under 10 KB and an .ipuz with clues and styles well under 1 MiB; more is a wrong file."""
MAX_UNZIPPED_BYTES = 8 << 20
"""The most a zipped .jpz's puzzle may inflate to (published ones: under 100 KB)."""
MAX_ZIP_RATIO = 100
"""How many times its packed size a zip member may inflate to, past the first MiB (published .jpz: under 10)."""
MAX_ZIP_MEMBERS = 64
"""Files in a zipped .jpz (the puzzle, and macOS metadata beside it)."""
MAX_NESTING_DEPTH = 64
"""Deepest nesting of JSON arrays and objects, or of XML elements (published files: under 10)."""
MAX_NUMBER_DIGITS = 18
"""Longest whole number a puzzle file may hold (a 64-bit integer); floats must be finite."""
MAX_CLUES = 10_000
"""Most clues (and .jpz words) a file may list: a 60x60 grid has at most 3,600 entries."""
QUOTE_CHARS = 60
"""Longest piece of a file quoted in an error line."""


def quote(text: str) -> str:
    """`text` for an error line: repr'd, cut to QUOTE_CHARS characters with a note of how long it was."""
    if len(text) <= QUOTE_CHARS:
        return repr(text)
    return f"{text[:QUOTE_CHARS]!r}... ({len(text):,} characters)"


def nesting_depth(value: object) -> int:
    """How deeply lists and dicts nest in `value` (a scalar: 0), without recursion."""
    deepest = 0
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def load_json(text: str, source: str) -> Any:
    """JSON `text` under the budgets: nesting, number length, finite numbers (what the `json` module lets through:
    a RecursionError on deep nesting, a ValueError on a 5,000-digit number, `Infinity`).

    Raises:
        InputError: not JSON, or over a budget (one line naming the file and the problem).
    """
    def whole(digits: str) -> int:
        if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
            raise InputError(f"the JSON holds a number of {len(digits.lstrip('-')):,} digits; a puzzle file's "
                             f"numbers have at most {MAX_NUMBER_DIGITS}", source)
        return int(digits)

    def real(digits: str) -> float:
        value = float(digits)
        if value in (float("inf"), float("-inf")) or len(digits) > 4 * MAX_NUMBER_DIGITS:
            raise InputError(f"the JSON holds the number {quote(digits)}, too large for a puzzle file", source)
        return value

    def constant(name: str) -> float:
        raise InputError(f"the JSON holds {name}, which is not a number a puzzle file may hold", source)

    too_deep = f"the JSON nests deeper than {MAX_NESTING_DEPTH} levels; a puzzle file needs under 10"
    try:
        data = json.loads(text, parse_int=whole, parse_float=real, parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})", source) from None
    except RecursionError:  # the C decoder stops at the interpreter's recursion limit: no deeper work is done
        raise InputError(too_deep, source) from None
    if nesting_depth(data) > MAX_NESTING_DEPTH:
        raise InputError(too_deep, source)
    return data


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
