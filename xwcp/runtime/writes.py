"""Write an output file whole or not at all: into a temporary file beside it, renamed over it once complete.

A full disk (ENOSPC), a quota (EDQUOT), a read-only folder (EROFS) or a denied one (EACCES) is the
user's environment, not a bug: the write stops with one InputError line naming the file and the
reason (exit 2), the file that was there before is left as it was, and no temporary file stays
behind (nor does one on Ctrl-C). A target that is no regular file (/dev/stdout, /dev/full, a FIFO,
or a symlink to one) cannot be renamed onto: it is written directly, its errors said the same way.
A symlink to a regular file is followed, so the link stays and its target gets the new content.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from xwcp.base.errors import InputError

__all__ = ["OutputError", "locked", "open_output", "output_error", "write_output"]


class OutputError(InputError):
    """A file that cannot be written: the InputError line, and the system's `errno` (ENOSPC, EROFS, ...) for a
    caller that answers by cause (the server: 507 for a full disk, 503 for a read-only one)."""

    def __init__(self, message: str, source: str | None = None, errno: int | None = None) -> None:
        super().__init__(message, source)
        self.errno = errno


def open_output(
    path: str | os.PathLike[str], what: str, binary: bool = False
) -> contextlib.AbstractContextManager[IO[Any]]:
    """A file to write `path`'s new content into, in a `with` block: the content takes `path`'s name when the
    block ends without an error; on an error (or Ctrl-C) `path` keeps its old content and the temporary file is
    removed. Text is UTF-8 with "\\n" line ends.

    Args:
        path: the file to write.
        what: what it is, for messages ("puzzle", "CNF", "word-list").
        binary: a bytes stream instead of text.

    Raises:
        OutputError: the file cannot be written (an InputError: one line naming the file, what it is and the
            system's reason).
    """
    return _opened(Path(path), what, binary)


def write_output(path: str | os.PathLike[str], data: str | bytes, what: str) -> None:
    """Write `data` (text as UTF-8) to `path` through `open_output`: whole, or an InputError and the old file kept."""
    with open_output(path, what, binary=isinstance(data, bytes)) as stream:
        stream.write(data)


@contextlib.contextmanager
def _opened(path: Path, what: str, binary: bool) -> Iterator[IO[Any]]:
    target = _target(path)
    if target is None:  # a device, a FIFO, /dev/stdout: no rename onto it, written in place
        try:
            with _fdopen(os.open(path, os.O_WRONLY | os.O_APPEND), binary) as stream:
                yield stream
        except OSError as exc:
            raise output_error(path, what, exc) from None
        return
    temporary = target.with_name(f".{target.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask makes it like any new file
    except OSError as exc:
        raise output_error(path, what, exc) from None
    try:
        with _fdopen(fd, binary) as stream:
            yield stream
        if target.exists():
            with contextlib.suppress(OSError):
                os.chmod(temporary, stat.S_IMODE(target.stat().st_mode))  # the old file's permissions carry over
        os.replace(temporary, target)
    except OSError as exc:
        _remove(temporary)
        raise output_error(path, what, exc) from None
    except BaseException:
        _remove(temporary)
        raise


def _target(path: Path) -> Path | None:
    """Where the new content is renamed to: `path`, or the regular file a symlink names; None for a target that is
    there and is no regular file (nor a directory: the rename says so), or a name under /dev or /proc (/dev/stdout
    is a link to whatever standard output is, a redirected file too: it is written, not replaced)."""
    if str(path).startswith(("/dev/", "/proc/")):
        return None
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return path.resolve() if path.is_symlink() else path  # a dangling link: its target is made
    except OSError:
        return path  # the open says why
    if stat.S_ISREG(mode):
        return path.resolve() if path.is_symlink() else path
    return path if stat.S_ISDIR(mode) else None


def _fdopen(fd: int, binary: bool) -> IO[Any]:
    if binary:
        return os.fdopen(fd, "wb")
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n")


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


def output_error(path: str | Path, what: str, exc: OSError) -> OutputError:
    """The OutputError of `exc`, met writing `path` (a `what` file): one line naming the file and the reason."""
    reason = exc.strerror or str(exc)
    if isinstance(exc, IsADirectoryError) or Path(path).is_dir():
        reason = "it is a directory"
    return OutputError(f"cannot write {what} file ({reason})", str(path), exc.errno)


@contextlib.contextmanager
def locked(path: Path, what: str) -> Iterator[None]:
    """An exclusive lock beside `path` (POSIX flock on `path` + '.lock'), so two writers of the `what` file (two
    servers, a server and a command) never interleave their read-modify-writes.

    Raises:
        OutputError: the lock file cannot be opened (a read-only or denied folder), naming `what`.
    """
    try:
        import fcntl
    except ImportError:  # not POSIX: one writer at a time is the user's lookout
        yield
        return
    try:
        handle = open(path.with_name(path.name + ".lock"), "a")
    except OSError as exc:
        raise OutputError(f"cannot lock the {what} ({exc.strerror or exc})", str(path), exc.errno) from None
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
