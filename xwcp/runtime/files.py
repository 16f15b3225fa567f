"""Read a user's input file safely: bounded in size, no hang on a FIFO or a device, `-` for standard input.

A grid is under 1 KB and a word list a few MB, so a read stops one byte past a cap and the
caller refuses what is over it: a runaway pipe gets a clear message instead of filling memory,
and a device (`/dev/zero`, `/dev/urandom`, a disk; not `/dev/null`) is refused before it is read.
A pipe (named, or standard input) is opened without blocking and given FIFO_WAIT_S to bring data
(or its end), before its first byte and between two, so one that nobody writes to is refused
instead of waited for forever; one with a writer (`<(make-grid)` too) is read to its end like a
file. A compressed input (.xz, .lzma, .gz) is inflated in pieces under the same kind of cap
(`decompress_bounded`): its packed size says nothing of what it inflates to.

An untrusted puzzle file is also read under budgets, all here so docs/grids.md and the tests quote
one set of numbers: each is checked before work proportional to it (a zip member is inflated
in chunks and stopped at its cap, a span of cells is checked against the grid before it is
spelled out, JSON and XML nesting is measured before a tree is walked). `load_json` reads JSON
under them: no nesting deeper than MAX_NESTING_DEPTH (the C decoder stops at the recursion limit,
caught here), no number longer than MAX_NUMBER_DIGITS, no Infinity or NaN.
"""

from __future__ import annotations

import json
import os
import select
import stat
import sys
from pathlib import Path
from typing import Any

from xwcp.base.errors import InputError

STDIN = "-"
"""The file name that means standard input."""
STDIN_SOURCE = "<stdin>"
"""How standard input is named in messages."""

FIFO_WAIT_S = 10.0
"""How long a named pipe may stay silent before we give up on it (`cat` would wait forever)."""
_CHUNK_BYTES = 1 << 16

# ----- budgets of an untrusted puzzle file (docs/grids.md quotes them) ---------------------------
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
MAX_CELL_CHARS = 16
"""Most characters in one cell (a rebus): the longest of 224 published files is 7 (DIAMOND), the NYT's run to
about 10; a file's 500-letter "rebus" is a wrong file or an attack, not a puzzle."""
MAX_GRID_CHARS = 7_200
"""Most characters a grid's cells spell in all, two per cell of a 60x60 (published files: under 1.2 per cell)."""
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
            raise InputError(
                f"the JSON holds a number of {len(digits.lstrip('-')):,} digits; a puzzle file's "
                f"numbers have at most {MAX_NUMBER_DIGITS}",
                source,
            )
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


def _read_fd(fd: int, max_bytes: int, source: str, what: str, is_pipe: bool) -> bytes:
    """At most `max_bytes + 1` bytes from `fd` (the extra byte tells the caller the input is too big); a pipe
    (`is_pipe`) that stays silent for FIFO_WAIT_S, before its first byte or between two, is refused."""
    parts: list[bytes] = []
    n_read = 0
    while n_read <= max_bytes:
        if is_pipe:
            _wait_for_writer(fd, source, what, n_read)
        chunk = os.read(fd, min(_CHUNK_BYTES, max_bytes + 1 - n_read))
        if not chunk:
            break
        parts.append(chunk)
        n_read += len(chunk)
    return b"".join(parts)


def _wait_for_writer(fd: int, source: str, what: str, n_read: int = 0) -> None:
    """Wait up to FIFO_WAIT_S for a pipe to get data or an end; refuse it if nothing comes."""
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    if not poller.poll(FIFO_WAIT_S * 1000):
        if n_read:
            raise InputError(
                f"the pipe went silent for {FIFO_WAIT_S:g} s after {n_read:,} bytes, before its end; "
                f"is the {what} still being written?",
                source,
            )
        raise InputError(
            f"nothing was written to this pipe within {FIFO_WAIT_S:g} s; is a {what} being sent to it?", source
        )


def _is_endless_device(mode: int, rdev: int, fd: int, is_stdin: bool) -> bool:
    """True for a character or block device other than /dev/null (and, on standard input, a terminal): one
    such as /dev/zero or /dev/urandom never ends, and a disk is no input file."""
    if not (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)):
        return False
    try:
        if stat.S_ISCHR(mode) and rdev == os.stat(os.devnull).st_rdev:
            return False
    except OSError:
        pass
    return not (is_stdin and os.isatty(fd))


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
            fd = sys.stdin.fileno()
            info = os.fstat(fd)
            if _is_endless_device(info.st_mode, info.st_rdev, fd, is_stdin=True):
                raise InputError(f"standard input is a device, not a {what} file: give a file or a pipe", source)
            raw = _read_fd(fd, max_bytes, source, what, stat.S_ISFIFO(info.st_mode) or stat.S_ISSOCK(info.st_mode))
        except InputError:
            raise
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
            info = os.fstat(fd)
            mode = info.st_mode
            if stat.S_ISDIR(mode):
                raise InputError(f"is a directory, not a {what} file", source)
            if _is_endless_device(mode, info.st_rdev, fd, is_stdin=False):
                raise InputError(f"is a device, not a {what} file: give a file or a pipe", source)
            is_pipe = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)
            if is_pipe:
                _wait_for_writer(fd, source, what)
            os.set_blocking(fd, True)
            raw = _read_fd(fd, max_bytes, source, what, is_pipe)
        except IsADirectoryError:
            raise InputError(f"is a directory, not a {what} file", source) from None
        except OSError as exc:
            raise InputError(f"cannot read {what} file ({exc.strerror or exc})", source) from None
        finally:
            os.close(fd)
    if len(raw) > max_bytes:
        raise InputError(
            f"the {what} file is larger than {_size_text(max_bytes)}, more than any {what} needs; "
            "is it the right file?",
            source,
        )
    return raw


def read_text_bounded(path: str | Path, max_bytes: int, what: str) -> str:
    """The text of `path` as `read_bounded` reads it, UTF-8 (a byte order mark dropped), else Latin-1 (an old
    editor's list); decompressed first when it is .xz or .gzip, to at most `max_bytes` too.

    Raises:
        InputError: as `read_bounded`, or a damaged or over-large compressed file.
    """
    raw = decompress_bounded(read_bounded(path, max_bytes, what), max_bytes, what, source_name(path))
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


XZ_MAGIC = b"\xfd7zXZ\x00"
GZIP_MAGIC = b"\x1f\x8b"
LZMA_ALONE_MAGIC = b"\x5d\x00\x00"
"""The first bytes of an .lzma (LZMA-alone) file with the usual properties."""


def is_compressed(raw: bytes) -> bool:
    """True when `raw` starts as an xz, LZMA-alone or gzip file does."""
    return raw.startswith((XZ_MAGIC, GZIP_MAGIC, LZMA_ALONE_MAGIC))


def decompress_bounded(raw: bytes, max_bytes: int, what: str, source: str) -> bytes:
    """`raw` decompressed when it is xz, LZMA-alone or gzip (several streams one after another too), else as
    it is; the output is produced in pieces and refused past `max_bytes` (a 1 MiB .xz of zeros would inflate
    to gigabytes: a cap on the file alone does not bound the memory).

    Raises:
        InputError: damaged, or inflating to more than `max_bytes`.
    """
    import lzma
    import zlib

    if not is_compressed(raw):
        return raw
    parts: list[bytes] = []
    n_out = 0
    rest = raw
    try:
        while rest:
            if rest.startswith(GZIP_MAGIC):
                gz = zlib.decompressobj(16 + zlib.MAX_WBITS)
                data = gz.decompress(rest, _CHUNK_BYTES)
                while True:
                    n_out += len(data)
                    if n_out > max_bytes:
                        break
                    parts.append(data)
                    if gz.eof:
                        break
                    if not gz.unconsumed_tail:  # all input in: what zlib still holds, then the end or none
                        data = gz.flush()
                        n_out += len(data)
                        parts.append(data)
                        if not gz.eof:
                            raise EOFError("the compressed data ends early")
                        break
                    data = gz.decompress(gz.unconsumed_tail, _CHUNK_BYTES)
                rest = gz.unused_data if gz.eof else b""
            elif rest.startswith((XZ_MAGIC, LZMA_ALONE_MAGIC)):
                xz = lzma.LZMADecompressor(lzma.FORMAT_AUTO)
                data = xz.decompress(rest, _CHUNK_BYTES)
                while True:
                    n_out += len(data)
                    if n_out > max_bytes:
                        break
                    parts.append(data)
                    if xz.eof:
                        break
                    if xz.needs_input:
                        raise EOFError("the compressed data ends early")
                    data = xz.decompress(b"", _CHUNK_BYTES)
                rest = xz.unused_data if xz.eof else b""
            else:
                break  # padding after the last stream (xz pads with zeros)
            if n_out > max_bytes:
                raise InputError(
                    f"the {what} file inflates to more than {_size_text(max_bytes)}, more than any "
                    f"{what} needs; is it the right file?",
                    source,
                )
    except (lzma.LZMAError, zlib.error, EOFError) as exc:
        raise InputError(f"cannot decompress {what} file ({exc})", source) from None
    return b"".join(parts)


def _size_text(n_bytes: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n_bytes >= size:
            return f"{n_bytes / size:g} {unit}"
    return f"{n_bytes} bytes"
