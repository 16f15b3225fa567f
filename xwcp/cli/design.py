"""The `design` command: build grids around theme entries, prove them fillable, fill them and print them."""

from __future__ import annotations

import argparse
import sys

from xwcp.cli.output import emit, say, warn


def cmd_design(args: argparse.Namespace) -> int:
    """Example: xwcp design --theme SPEAKOFTHEDEVIL --theme OBEDIENCESCHOOL --count 2"""
    from xwcp.designer import session
    from xwcp.designer.request import make_request
    from xwcp.library.answers import DesignAnswer
    from xwcp.model.alphabet import load_alphabet

    alphabet = load_alphabet(getattr(args, "language", None))

    request = make_request(
        size=args.size,
        themes=args.theme,
        at=args.at,
        symmetry=args.symmetry,
        style=args.style,
        max_words=args.max_words,
        min_words=args.min_words,
        max_blocks=args.max_blocks,
        max_length=args.max_length,
        count=args.count,
        min_diff=args.min_diff,
        time_limit_s=args.time_limit,
        quality_time_s=args.quality_time,
        seed=args.seed,
        min_score=args.min_score,
        bans=args.ban,
        ban_files=args.ban_file,
        alphabet=alphabet,
    )
    if args.out:
        from xwcp.formats import format_module

        format_module(args.out)  # a bad output name is bad usage: say so before designing
    result, stopped_by = session.load_and_design(
        request, args.words, warn=warn, terminal=sys.stderr.isatty(), say=say, alphabet=alphabet
    )
    answer = DesignAnswer.build(result, request)  # what xwcp.design answers: printed as it is
    if args.out and answer.designs:
        answer.save(args.out)
    if args.format == "grid":
        print(answer.grids_text() if answer.designs else f"; no design: {answer.reason}")
    else:
        data = answer.as_dict()
        if args.out:
            data["out"] = args.out if answer.designs else None
        emit(
            args.format, data, answer.text() + (f"\nwrote {args.out}" if args.out and answer.designs else ""), alphabet
        )  # words as the language writes them (Dutch IJ, a Hebrew final letter)
    if stopped_by is not None:  # the designs found before the signal are printed (and saved) above
        from xwcp.runtime.signals import exit_code_for

        print(f"xwcp: design stopped ({stopped_by}) with {len(answer.designs)} design(s) found", file=sys.stderr)
        return exit_code_for(stopped_by)
    return answer.status.exit_code
