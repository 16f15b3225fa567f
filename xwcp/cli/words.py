"""The `words` command: jobs on word lists (`xwcp words build`: a scored list for a language, built on this machine)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TextIO

from xwcp.cli.exits import EXIT_LIMIT, EXIT_OK
from xwcp.cli.output import emit, print_quietly, say

if TYPE_CHECKING:
    from xwcp.words.build import BuildProgress


BAR_WIDTH = 30
"""Cells of the progress bar on a terminal."""
LINE_EVERY_S = 10.0
"""Seconds between two progress lines when stderr is not a terminal (a log keeps a few lines, not thousands)."""


class BuildProgressBar:
    """A build's progress on stderr: on a terminal a live bar (percent of the source read when known, seconds,
    words read), else a plain line every LINE_EVERY_S seconds."""

    def __init__(self, stream: TextIO | None = None) -> None:
        from xwcp.services.run import StatusLine

        self.stream = sys.stderr if stream is None else stream
        self.is_terminal = self.stream.isatty()
        self.line = StatusLine(self.stream) if self.is_terminal else None
        self.next_line_s = LINE_EVERY_S

    @property
    def shown(self) -> bool:
        return self.line is not None and self.line.shown

    def __call__(self, p: BuildProgress) -> None:
        if p.fraction_done is None:
            done = f"{p.n_read:>11,} words read (most {p.max_read:,})"
        else:
            done = f"{p.fraction_done:4.0%} of the stems  {p.n_read:>11,} words read"
        if self.line is not None:
            n_cells = 0 if p.fraction_done is None else round(BAR_WIDTH * p.fraction_done)
            bar = "" if p.fraction_done is None else f"[{'#' * n_cells}{'.' * (BAR_WIDTH - n_cells)}] "
            self.line.show(p.elapsed_s, f"words build: {bar}{done}  {p.elapsed_s:6.1f} s ")
        elif p.elapsed_s >= self.next_line_s:
            self.next_line_s = p.elapsed_s + LINE_EVERY_S
            print(f"xwcp words build: {done.strip()}, {p.elapsed_s:.0f} s", file=self.stream, flush=True)

    def close(self) -> None:
        if self.line is not None:
            self.line.close()


def cmd_words(args: argparse.Namespace) -> int:
    """Example: xwcp words build --language es --from hunspell"""
    from xwcp.words.build import BuildLimitReached, build_words

    line = BuildProgressBar() if args.format == "text" else None

    # the parser requires a job; `build` is the only one so far
    try:
        report = build_words(
            args.language,
            args.source,
            args.out,
            min_length=args.min_length,
            max_length=args.max_length,
            scores=args.scores,
            max_words=args.max_words,
            encoding=args.encoding,
            progress=say if args.format == "text" else None,
            max_read=args.max_read,
            time_limit_s=args.time_limit,
            status=line,
            min_zipf=args.min_zipf,
            checker=args.checker,
        )
    except BuildLimitReached as exc:
        print(f"{'' if line is None or not line.shown else chr(10)}xwcp words build: stopped: {exc}", file=sys.stderr)
        if args.format == "json":
            print_quietly(json.dumps({"status": "limit", "reason": str(exc)}))
        return EXIT_LIMIT
    if line is not None:
        line.close()
    emit(args.format, report.as_dict(), report.summary())
    return EXIT_OK
