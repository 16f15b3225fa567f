"""The `clues` command: clue help for answers (earlier clues, definitions, the phrase), clue checks, the memory."""

from __future__ import annotations

import argparse
import sys

from xwcp.cli.exits import EXIT_BAD_INPUT, EXIT_OK
from xwcp.cli.output import emit


def cmd_clues(args: argparse.Namespace) -> int:
    """Example: xwcp clues ICECREAMCONE --format json"""
    from xwcp.library.clues import check_clues, clues, remember_clues

    if not args.answers and not args.learn and not args.check:
        print("xwcp clues: error: give an ANSWER, --learn PUZZLE or --check PUZZLE (see --help)", file=sys.stderr)
        return EXIT_BAD_INPUT
    data: dict[str, object] = {}
    lines: list[str] = []
    if args.learn:
        learned = {path: remember_clues(path) for path in args.learn}
        data["learned"] = learned
        lines.extend(f"{path}: {n} new clue{'s' if n != 1 else ''} remembered" for path, n in learned.items())
    if args.check:
        checks = check_clues(args.check, words=args.words)
        data["checks"] = checks.as_dict()
        lines.append(checks.text())
    if args.answers:
        helps = [clues(answer, words=args.words) for answer in args.answers]
        data["answers"] = [h.as_dict() for h in helps]
        lines.extend(h.text(limit=args.limit or None) for h in helps)
    emit(args.format, data, "\n".join(lines))
    return EXIT_OK
