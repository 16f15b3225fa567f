"""Front-end glue: load a grid and word list into a problem and run a fill with a front end's options.

The CLI and the web builder call these so that neither holds library logic.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from xwcp.errors import InputError
from xwcp.grid import read_grid
from xwcp.problem import Problem, compile_problem, unlisted_text
from xwcp.result import FillResult, Limits, Progress
from xwcp.wordlist import describe_problems, load_word_list


def load_problem(grid_path: str | Path, words_path: str | Path | None = None, *, min_score: int = 50,
                 allow_dupes: bool = False, strict: bool = False,
                 warn: Callable[[str], None] | None = None) -> Problem:
    """Read the grid and word list (default list when `words_path` is None) and compile them.

    `warn` gets one line per thing the user should know: skipped lines, notes about the list
    and its cache, entries the user completed that are not in the list (see `compile_problem`
    for `strict`).

    Raises:
        InputError: unreadable or malformed grid, missing or empty word list.
    """
    grid = read_grid(grid_path)
    words = load_word_list(words_path)
    if warn is not None:
        if words.n_problems:
            warn(f"{words.source}: skipped {describe_problems(words.problems, words.n_problems)}")
        for note in words.notes:
            warn(note)
    problem = compile_problem(grid, words, min_score=min_score, allow_dupes=allow_dupes, strict=strict)
    if warn is not None and problem.unlisted and not strict:
        warn(unlisted_text(problem) + " (--strict refuses such a grid)")
    return problem


class ProgressLine:
    """Prints a live one-line status of a fill to stderr, at most a few times a second, after its first second."""

    def __init__(self, stream=sys.stderr, every_s: float = 0.5):
        self.stream = stream
        self.every_s = every_s
        self.last = 0.0
        self.shown = False

    def __call__(self, p: Progress) -> None:
        self.show(p.wall_time_s, f"{p.backend}: {p.wall_time_s:6.1f} s  {p.nodes:>9,} nodes  "
                                 f"{p.backtracks:>9,} backtracks  {p.restarts:>5,} restarts  "
                                 f"deepest {p.filled_slots}/{p.n_slots} slots ")

    def show(self, elapsed_s: float, text: str) -> None:
        now = time.perf_counter()
        if now - self.last < self.every_s or elapsed_s < 1.0:
            return
        self.last = now
        self.shown = True
        self.stream.write("\r" + text)
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


class VerifyProgressLine(ProgressLine):
    """The same status line for `suggest --verify`: seconds so far and words settled."""

    def __call__(self, p) -> None:  # p: xwcp.verify.VerifyProgress
        self.show(p.elapsed_s, f"verify: {p.elapsed_s:6.1f} s  {p.settled}/{p.total} words settled ")


def run_fill(problem: Problem, *, backend: str = "auto", time_limit_s: float | None = None, seed: int = 0,
             count: int | None = None, export_cnf: str | Path | None = None,
             show_progress: bool = False) -> FillResult:
    """Fill `problem` with the named backend; every returned fill has passed `check_fill`.

    Args:
        count: None for one fill, N for N distinct fills, 0 to count every fill.
        export_cnf: also write the SAT encoding as DIMACS to this path.
        show_progress: print a live status line on stderr for long fills.
    """
    from xwcp.backends import fill

    if export_cnf is not None:
        from xwcp.backends import sat

        try:
            sat.export_cnf(problem, export_cnf)
        except OSError as exc:
            raise InputError(f"cannot write CNF file ({exc.strerror or exc})", str(export_cnf)) from None
    progress = ProgressLine() if show_progress else None
    limits = Limits(time_limit_s=time_limit_s, seed=seed, count=count, progress=progress)
    try:
        return fill(problem, backend, limits)
    finally:
        if progress is not None:
            progress.close()
