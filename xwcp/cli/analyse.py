"""The questions about a grid: `check` (is it fillable?), `domains`, `suggest` (what fits) and `heatmap`.

Each asks what the library's `xwcp.Session` answers (`xwcp.check`, `xwcp.domains`, ...) and prints it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import TYPE_CHECKING

from xwcp.cli.exits import EXIT_LIMIT, EXIT_OK, EXIT_UNFILLABLE
from xwcp.cli.inputs import load_problem, load_puzzle
from xwcp.cli.output import emit

if TYPE_CHECKING:
    from xwcp.analysis.reports import CheckReport
    from xwcp.services.types import FillResult, Problem
    from xwcp.services.unfillable import CoreReport


def cmd_domains(args: argparse.Namespace) -> int:
    """Example: xwcp domains models/15x15-daily-01.txt --slot 1A -k 10"""
    from xwcp.library.jobs import Session

    problem = load_problem(args)
    answer = Session(problem).domains(args.slot, k=args.k, by=args.by)  # what xwcp.domains answers
    emit(args.format, answer.as_dict(), answer.text(), problem.alphabet)
    return EXIT_OK if answer.is_consistent else EXIT_UNFILLABLE


def cmd_suggest(args: argparse.Namespace) -> int:
    """Example: xwcp suggest models/15x15-daily-01.txt --slot 1A --verify"""
    from xwcp.library.jobs import Session
    from xwcp.services.run import VerifyProgressLine

    problem = load_problem(args)
    session = Session(problem)
    progress = VerifyProgressLine() if args.verify and sys.stderr.isatty() else None
    try:
        answer = session.suggest(
            args.slot,
            k=args.k,
            verify=args.verify,
            backend=args.backend,  # xwcp.suggest's
            time_limit_s=args.time_limit,
            seed=args.seed,
            show_fill=args.show_fill,
            progress=progress,
            by=args.by,
            max_processes=args.processes,
        )
    finally:
        if progress is not None:
            progress.close()
    emit(args.format, answer.as_dict(), answer.text(), problem.alphabet)
    return EXIT_OK if answer.is_consistent else EXIT_UNFILLABLE


def cmd_heatmap(args: argparse.Namespace) -> int:
    """Example: xwcp heatmap models/15x15-daily-01.txt --png heat.png"""
    from xwcp.library.jobs import Session

    path = None
    if args.png:
        from xwcp.render.picture import picture_path

        path = picture_path(args.png)  # a bad name is refused before any work
    problem = load_problem(args)
    answer = Session(problem).heatmap()  # what xwcp.heatmap answers
    data = answer.as_dict()
    if path is not None:
        data["png"] = str(answer.save_png(path))
    emit(args.format, data, answer.text(picture=data.get("png")), problem.alphabet)
    return EXIT_OK if answer.is_consistent else EXIT_UNFILLABLE


def cmd_check(args: argparse.Namespace) -> int:
    """Example: xwcp check models/15x15-daily-01.txt --time-limit 10"""
    from xwcp.analysis.questions import check_report
    from xwcp.library.answers import CheckAnswer, Verdict
    from xwcp.services.run import explain_verdict

    start = time.perf_counter()
    puzzle, problem = load_puzzle(args)
    if puzzle.grid.has_chains:  # open chains: the split the chain fill settles on is what is checked
        from xwcp.services.chains import has_open_chain, settled_split

        if has_open_chain(puzzle.grid):
            split, why = settled_split(problem, backend=args.backend, time_limit_s=args.time_limit, seed=args.seed)
            if split is None:
                emit(args.format, {"verdict": "unknown", "reason": why}, f"Unknown: {why}.", problem.alphabet)
                return EXIT_LIMIT
            problem = split
    shown: list[bool] = []

    def verdict_first(report: CheckReport, problem: Problem, result: FillResult | None) -> CoreReport | None:
        if args.format == "text":  # the verdict, then the core (Ctrl-C keeps the verdict)
            print(problem.alphabet.written(CheckAnswer.from_report(problem, report).text()), flush=True)
            shown.append(True)
        return explain_verdict(problem, result, show_progress=sys.stderr.isatty())

    # what xwcp.check answers (Session.check), with the verdict shown before the core search
    answer = CheckAnswer.from_report(
        problem,
        check_report(
            problem, backend=args.backend, time_limit_s=args.time_limit, seed=args.seed, explain_core=verdict_first
        ),
    )
    data = answer.as_dict()
    if answer.verdict is Verdict.UNFILLABLE:
        data["total_seconds"] = round(time.perf_counter() - start, 4)
    clue_text = ""
    if any(text.strip() for text in puzzle.clue_by_slot.values()):  # notes only: the verdict and exit code stand
        from xwcp.library.clues import check_clues

        checks = check_clues(puzzle, words=[w for w in args.words or [] if w and os.path.isfile(w)])
        data["clues"] = checks.as_dict()
        clue_text = "\n" + checks.text()
    if shown:
        core = answer.core_detail
        emit(args.format, data, ("" if core is None else core.text(problem)) + clue_text, problem.alphabet)
    else:
        emit(args.format, data, answer.text() + clue_text, problem.alphabet)
    return {Verdict.FILLABLE: EXIT_OK, Verdict.UNKNOWN: EXIT_LIMIT, Verdict.UNFILLABLE: EXIT_UNFILLABLE}[answer.verdict]
