"""The `convert` command: read a puzzle in one file format and write it in another."""

from __future__ import annotations

import argparse

from xwcp.cli.exits import EXIT_OK
from xwcp.cli.output import emit, warn


def cmd_convert(args: argparse.Namespace) -> int:
    """Example: xwcp convert models/15x15-daily-01.txt daily.puz"""
    from xwcp.services.save import convert

    puzzle = convert(args.input, args.output, getattr(args, "language", None))
    for warning in puzzle.warnings:
        warn(f"{args.input}: {warning}")
    grid = puzzle.grid
    emit(
        args.format,
        {
            "in": args.input,
            "out": args.output,
            "width": grid.width,
            "height": grid.height,
            "slots": len(puzzle.slots()),
            "title": puzzle.title,
            "language": puzzle.alphabet.code,
        },
        f"wrote {args.output} ({grid.width}x{grid.height}, {len(puzzle.slots())} slots)",
    )
    return EXIT_OK
