"""Cut a message to one readable line: whitespace runs made one space, the middle of a long one left out.

A warning may quote what a file holds (a rebus string, a language tag, an entry's letters); a
hostile file would make that line hundreds of kilobytes. Every warning the command line prints
or answers goes through `one_line`, which keeps its start (what happened) and its end (what to
do about it) and says how much was left out between them.
"""

from __future__ import annotations

MAX_LINE_CHARS = 400
"""Longest warning line: five lines of a terminal, as the web's error lines; xwcp's own warnings run under 300
characters with two long paths in them (a damaged cache file in its folder)."""
_TAIL_CHARS = 120
"""How much of the end of a cut line is kept (the advice a warning ends with)."""


def one_line(message: str, most: int = MAX_LINE_CHARS) -> str:
    """`message` on one line of at most `most` characters: whitespace runs (newlines too) made one space, and
    when longer, its start and its last `_TAIL_CHARS` characters around `… (N characters left out) …`."""
    line = " ".join(message.split())
    if len(line) <= most:
        return line
    if most < 3 * _TAIL_CHARS:  # too short for a marker: the start, and an ellipsis
        return line[: most - 1] + "…"
    widest = len(f" … ({len(line):,} characters left out) … ")
    head = most - _TAIL_CHARS - widest
    n_left_out = len(line) - head - _TAIL_CHARS
    return f"{line[:head]} … ({n_left_out:,} characters left out) … {line[len(line) - _TAIL_CHARS :]}"


def listed(items: list[str], n_items: int | None = None, most: int = 5) -> str:
    """'A, B, C and 7 more': the first `most` of `items` (each on one short line), and how many are not shown
    (`n_items`: how many there are in all, when `items` holds only the first of them)."""
    n_items = len(items) if n_items is None else n_items
    shown = ", ".join(one_line(item, 40) for item in items[:most])
    return shown + (f" and {n_items - min(most, len(items)):,} more" if n_items > min(most, len(items)) else "")
