"""The `words` command: jobs on word lists (`xwcp words build`: a scored list for a language, built on this machine)."""
from __future__ import annotations

import argparse
import json
import sys

from xwcp.cli.exits import EXIT_LIMIT, EXIT_OK
from xwcp.cli.output import emit, print_quietly, say


def cmd_words(args: argparse.Namespace) -> int:
    """Example: xwcp words build --language es --from hunspell"""
    from xwcp.services.run import StatusLine
    from xwcp.words.build import BuildLimitReached, BuildProgress, build_words

    line = StatusLine() if args.format == "text" else None

    def status(p: BuildProgress) -> None:
        if line is not None:
            line.show(p.elapsed_s, f"words build: {p.elapsed_s:6.1f} s  {p.n_read:>11,} words read (most "
                                   f"{p.max_read:,}) ")

    # the parser requires a job; `build` is the only one so far
    try:
        report = build_words(args.language, args.source, args.out, min_length=args.min_length,
                             max_length=args.max_length, scores=args.scores, max_words=args.max_words,
                             encoding=args.encoding, progress=say if args.format == "text" else None,
                             max_read=args.max_read, time_limit_s=args.time_limit, status=status,
                             min_zipf=args.min_zipf, checker=args.checker)
    except BuildLimitReached as exc:
        print(f"{'' if line is None or not line.shown else chr(10)}xwcp words build: stopped: {exc}", file=sys.stderr)
        if args.format == "json":
            print_quietly(json.dumps({"status": "limit", "reason": str(exc)}))
        return EXIT_LIMIT
    if line is not None:
        line.close()
    emit(args.format, report.as_dict(), report.summary())
    return EXIT_OK
