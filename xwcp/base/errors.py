"""Bad user input: the one exception type for it, and how an option is spelt back to the user who gave it.

A library caller passed `locks={...}`, a command-line user typed `--lock 17A=WORD`: a message
about that option says it the way the user said it (`option_text`). The CLI runs its commands
inside `front_end("cli")`; everything else hears the library's spelling.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


class InputError(ValueError):
    """Bad input from the user: a grid, word list or option that cannot be used.

    Its `str()` is one line: `file:line: problem` (line omitted when not known). It is a
    `ValueError`, so `except ValueError` catches it too.
    """

    def __init__(self, message: str, source: str | None = None, line: int | None = None):
        self.message = message
        self.source = source
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        where = ""
        if self.source is not None:
            where = f"{self.source}:{self.line}: " if self.line is not None else f"{self.source}: "
        return f"{where}{self.message}"


SPELLING_BY_OPTION: dict[str, tuple[str, str]] = {
    "lock": ("--lock", "locks"),
    "ban": ("--ban", "bans"),
    "slot_min": ("--slot-min", "min_score_by_slot"),
    "region": ("--region", "region"),
    "max_shared_substring": ("--max-shared-substring", "max_shared_substring"),
    "filter": ("--filter", "filters_by_slot"),
    "distinct_stems": ("--distinct-stems", "distinct_stems"),
    "no_crossing": ("--no-crossing", "no_crossing"),
    "tag": ("--tag", "tags_by_word"),
    "min_diff": ("--min-diff", "min_diff"),
    "count": ("--count", "count"),
    "quality": ("--quality", "quality"),
    "min_score": ("--min-score", "min_score"),
    "strict": ("--strict", "strict"),
    "time_limit": ("--time-limit", "time_limit_s"),
    "slot": ("--slot", "slot"),
    # grid design (`xwcp design`, `xwcp.design`)
    "size": ("--size", "size"),
    "theme": ("--theme", "themes"),
    "at": ("--at", "at"),
    "symmetry": ("--symmetry", "symmetry"),
    "style": ("--style", "style"),
    "max_words": ("--max-words", "max_words"),
    "min_words": ("--min-words", "min_words"),
    "max_blocks": ("--max-blocks", "max_blocks"),
    "max_length": ("--max-length", "max_length"),
    "quality_time": ("--quality-time", "quality_time_s"),
}
"""Option -> (its command-line flag, its library keyword)."""

_FRONT_END: ContextVar[str] = ContextVar("xwcp_front_end", default="library")


@contextmanager
def front_end(name: str) -> Iterator[None]:
    """Messages inside speak to `name`'s user: "cli" (flags) or "library" (keywords, the default)."""
    token = _FRONT_END.set(name)
    try:
        yield
    finally:
        _FRONT_END.reset(token)


def is_cli() -> bool:
    """True inside the command line's commands (messages name flags, not keywords)."""
    return _FRONT_END.get() == "cli"


def option_text(option: str, value: object = None, key: object = None) -> str:
    """An option as the user gave it: `--lock 17A=WORD` on the command line, `locks={'17A': 'WORD'}` in Python.

    Args:
        option: a key of SPELLING_BY_OPTION (e.g. "lock").
        value: the value given, if the message should show it (a region as its 4-tuple).
        key: for a per-slot option (locks, slot floors), the slot it was given for.
    """
    flag, keyword = SPELLING_BY_OPTION[option]
    if is_cli():
        if value is None or value is True:
            return flag
        if option == "region" and isinstance(value, tuple) and len(value) == 4:
            value = "{},{}:{},{}".format(*value)
        return f"{flag} {key}={value}" if key is not None else f"{flag} {value}"
    if value is None:
        return f"{keyword}=..."
    return f"{keyword}={{{key!r}: {value!r}}}" if key is not None else f"{keyword}={value!r}"


def option_name(option: str) -> str:
    """An option's bare name as the user knows it: `--min-score` on the command line, `min_score` in Python."""
    flag, keyword = SPELLING_BY_OPTION[option]
    return flag if is_cli() else keyword
