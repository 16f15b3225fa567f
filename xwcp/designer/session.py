"""Front-end glue for a design: load the word list(s), run the search with progress shown (the CLI's and
`xwcp.library.answers.DesignAnswer` prints and saves the result)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TextIO

from xwcp.designer.report import event_line
from xwcp.designer.request import DesignRequest
from xwcp.designer.search import DesignEvent, DesignResult, design
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.services.load import load_words

SHOWN_KINDS = ("design", "note")
"""Events printed as lines of their own; the others only move the live status line on a terminal."""


class StatusLine:
    """On a terminal: one live line (seconds, patterns, cuts, designs) rewritten as the search goes."""

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream = stream
        self.shown = False

    def show(self, event: DesignEvent) -> None:
        text = (
            f"design: {event.seconds:6.1f} s  {event.n_patterns} patterns  {event.n_cuts} cuts  "
            f"{event.n_designs} designs  {event.text[:60]}"
        )
        self.stream.write("\r" + text[:110].ljust(110))
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 110 + "\r")
            self.stream.flush()
            self.shown = False


def load_and_design(
    request: DesignRequest,
    words_path: str | list[str] | tuple[str, ...] | None = None,
    *,
    warn: Callable[[str], None] | None = None,
    terminal: bool = False,
    say: Callable[[str], None] | None = None,
    abort: threading.Event | None = None,
    alphabet: Alphabet = ENGLISH,
) -> tuple[DesignResult, str | None]:
    """Load the list and design: the `xwcp design` command's work.

    A stop signal during the search (Ctrl-C, SIGTERM, SIGHUP) ends it softly: the designs found so far
    come back (nothing found is lost) with the signal's name; while the list loads a signal stops as
    everywhere else (`xwcp.runtime.signals`).

    Args:
        warn: receives one line per thing the user should know about the list.
        terminal: show a live status line on stderr.
        say: receives a line for each design found and each note.
        abort: an event that stops the search (a stop signal sets it too).
        alphabet: the language the lists are read in (`--language`; the default list is English only).

    Returns:
        (the result, the name of the stop signal heard or None).

    Raises:
        InputError: an unreadable word list.
    """
    from xwcp.runtime.signals import stop_softly

    words = load_words(words_path, warn, alphabet)
    status = StatusLine() if terminal else None
    stop = abort or threading.Event()

    def progress(event: DesignEvent) -> None:
        if status is not None:
            status.clear() if event.kind in SHOWN_KINDS else status.show(event)
        if say is not None and event.kind in SHOWN_KINDS:
            say(event_line(event))

    try:
        with stop_softly(stop) as heard:
            result = design(request, words, progress=progress, abort=stop)
    finally:
        if status is not None:
            status.clear()
    return result, heard.name
