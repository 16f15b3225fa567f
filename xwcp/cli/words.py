"""The `words` command: jobs on word lists (`xwcp words build`: a scored list for a language, built on this machine)."""
from __future__ import annotations

import argparse

from xwcp.cli.exits import EXIT_OK
from xwcp.cli.output import emit, say


def cmd_words(args: argparse.Namespace) -> int:
    """Example: xwcp words build --language es --from hunspell"""
    from xwcp.words.build import build_words

    # the parser requires a job; `build` is the only one so far
    report = build_words(args.language, args.source, args.out, min_length=args.min_length,
                         max_length=args.max_length, scores=args.scores, max_words=args.max_words,
                         encoding=args.encoding, progress=say if args.format == "text" else None)
    emit(args.format, report.as_dict(), report.summary())
    return EXIT_OK
