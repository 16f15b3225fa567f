"""The `fill` command: load the grid, run the fill, print the answer (text, JSON or grid) and save it."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING

from xwcp.base.errors import InputError
from xwcp.cli import inputs
from xwcp.cli.output import emit, say, warn

if TYPE_CHECKING:
    from xwcp.services.types import FillResult


def cmd_fill(args: argparse.Namespace) -> int:
    """Example: xwcp fill models/15x15-daily-01.txt --out daily.puz"""
    from xwcp.base.types import FillStatus
    from xwcp.render import report
    from xwcp.services import quick  # noqa: F401 - quick and auto: imported before the clock starts, as numpy was
    from xwcp.services.backends import preload
    from xwcp.services.quick import load_and_fill
    from xwcp.services.save import save_fill

    preload("auto")  # (the `seconds` field is load + compile + fill)
    start = time.perf_counter()
    _check_options(args)
    puzzle, problem, result = load_and_fill(
        args.grid,
        inputs.word_paths(args),
        inputs.load_options(args),
        backend=args.backend,
        time_limit_s=args.time_limit,
        seed=args.seed,
        count=args.count,
        min_diff=args.min_diff,
        quality=args.quality,
        export_cnf=args.export_cnf,
        show_progress=sys.stderr.isatty(),
        warn=warn,
        say=say,
        soft_stop=True,
        out=args.out,
        max_processes=args.processes,
    )
    seconds = time.perf_counter() - start
    wrote = bool(args.out) and save_fill(puzzle, problem, result, args.out)
    if args.format == "grid":
        if result.fills and puzzle.grid.has_chains:  # the grid with its chains, their words run together
            from xwcp.services.chains import filled_grid

            print(filled_grid(puzzle.grid, problem, result.fills[0]).render(problem.alphabet), end="")
        elif result.fills:
            print(report.FillReport(problem, result, seconds).grids_text())
        else:
            print(f"xwcp: {problem.alphabet.written(report.verdict_text(result))}", file=sys.stderr)
        return _stopped_quality(result) or result.status.exit_code
    core = None
    if result.status is FillStatus.UNFILLABLE:  # the verdict first; the core follows (Ctrl-C keeps the verdict)
        from xwcp.services.run import explain_verdict

        if args.format == "text":
            print(problem.alphabet.written(report.verdict_text(result)), flush=True)
        core = explain_verdict(problem, result, show_progress=sys.stderr.isatty())
    total = time.perf_counter() - start if result.status is FillStatus.UNFILLABLE else None
    # the answer worked out once (what xwcp.FillAnswer wraps; the CLI does not import the library's dataclasses:
    # they cost a small fill's start-up a few ms); tests/library/test_jobs.py checks the two print the same
    answer = report.FillReport(problem, result, seconds, args.count, core, total)
    data = answer.as_dict()
    if wrote:
        data["out"] = args.out
    if result.stopped_by is not None:
        data["stopped"] = result.stopped_by
    note = "" if not args.out else f"\nwrote {args.out}" if wrote else f"\nnothing written to {args.out}: no fill"
    if puzzle.grid.has_chains and result.entries is not None:
        from xwcp.model.text import grid_lines
        from xwcp.services.chains import chain_words, filled_grid

        words_by_chain = chain_words(puzzle.grid, problem, result.entries)
        data["chains"] = words_by_chain
        data["grid"] = grid_lines(filled_grid(puzzle.grid, problem, result.entries), problem.alphabet)
        note = "\nchains:\n" + "\n".join(f"  {name}: {' / '.join(w)}" for name, w in words_by_chain.items()) + note
    emit(args.format, data, answer.text(verdict_shown=result.status is FillStatus.UNFILLABLE) + note, problem.alphabet)
    return _stopped_quality(result) or result.status.exit_code


def _check_options(args: argparse.Namespace) -> None:
    """Refuse what can be refused before any work: --min-diff without --count N, a bad --out name.

    Raises:
        InputError: --min-diff without --count of 2 or more; --out with an unknown extension.
    """
    if args.min_diff is not None and not (args.count and args.count > 1):
        raise InputError("--min-diff needs --count N with N of 2 or more")
    if args.out:
        from xwcp.formats import format_module

        format_module(args.out)  # a bad output name is bad usage: say so before filling (and what the output
        # format cannot hold, bars in a .puz, as soon as the grid is read: load_and_fill's `out`)


def _stopped_quality(result: FillResult) -> int:
    """128 + the signal's number when a stop signal ended the quality search (its best fill is printed), else 0."""
    if result.stopped_by is None:
        return 0
    from xwcp.runtime.signals import exit_code_for

    print(
        f"xwcp: quality search stopped ({result.stopped_by}); the fill above is the best found until then",
        file=sys.stderr,
    )
    return exit_code_for(result.stopped_by)
