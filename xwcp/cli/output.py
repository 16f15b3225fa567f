"""What a command prints besides its work: warnings (also listed in JSON output), the answer as text or
JSON, progress messages, and quiet printing for a reader that went away."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from xwcp.model.alphabet import Alphabet

_WARNINGS: list[str] = []
"""This command's warnings so far: each is printed on stderr and listed in `--format json` output."""


def clear_warnings() -> None:
    """Forget the warnings of an earlier command (`main` runs one command per call)."""
    _WARNINGS.clear()


def warn(message: str) -> None:
    """Print `message` as a warning on stderr, and keep it for the JSON answer: on one line, cut to
    MAX_LINE_CHARS (`one_line`: a file's 500-letter rebus is not printed whole)."""
    from xwcp.base.lines import one_line

    message = one_line(message)
    _WARNINGS.append(message)
    print(f"xwcp: warning: {message}", file=sys.stderr)


def say(line: str) -> None:
    """A message about the work under way, on stderr (the answer alone goes to stdout)."""
    print(f"xwcp: {line}", file=sys.stderr, flush=True)


def emit(output_format: str, data: dict[str, Any], text: str, alphabet: Alphabet | None = None) -> None:
    """Print the answer: `data` as one JSON line (with the warnings, if any) or `text`; with the puzzle's
    `alphabet`, its letters of several characters are shown as written (Dutch IJ, not the code char inside) and
    each entry word ("word") ends in its final form where the pack has one (Hebrew ם: `final_words`)."""
    if output_format == "json" and _WARNINGS:
        data = {**data, "warnings": list(_WARNINGS)}
    if alphabet is not None and (alphabet.has_multi_letters or alphabet.is_open):
        from xwcp.render.report import written_data

        data, text = written_data(data, alphabet), alphabet.written(text)
    if alphabet is not None and alphabet.final:
        from xwcp.render.report import final_words

        data = final_words(data, alphabet)  # Hebrew: a word's last letter in its final form
    print(json.dumps(data) if output_format == "json" else text)


def print_quietly(text: str) -> None:
    """Print `text` and flush, saying nothing if stdout is gone."""
    try:
        print(text, flush=True)
    except OSError:
        pass


def silence_stdout() -> None:
    """Point stdout at /dev/null so Python's exit-time flush does not complain about the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


class StdoutFailed(OSError):
    """Standard output cannot take what a command prints (a full device, a disk error): not a bug, the user's
    environment; its `strerror` says why."""


class _GuardedStdout:
    """sys.stdout whose write and flush errors (other than a closed pipe, `| head`) are `StdoutFailed`."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            written: int = self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StdoutFailed(exc.errno, exc.strerror or str(exc)) from None
        return written

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise StdoutFailed(exc.errno, exc.strerror or str(exc)) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdout() -> Iterator[None]:
    """Within the block, a failed write to standard output raises `StdoutFailed`; the block's output is flushed at
    its end (so a full device is found here, not in Python's flush at exit, which would print a traceback)."""
    original = sys.stdout
    if original is None:
        yield
        return
    sys.stdout = _GuardedStdout(original)
    try:
        yield
        sys.stdout.flush()
    finally:
        sys.stdout = original
