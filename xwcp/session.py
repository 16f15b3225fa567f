"""Front-end glue: load a grid and word list into a problem and run a fill with a front end's options.

The CLI and the web builder call these so that neither holds library logic.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

from xwcp.errors import InputError
from xwcp.formats import Puzzle, format_module, puzzle_from_fill, read_puzzle, write_puzzle
from xwcp.problem import Problem, compile_problem, unlisted_text
from xwcp.result import FillResult, Limits, Progress, fill_grid
from xwcp.wordlist import describe_problems, load_word_list


def load_problem(grid_path: str | Path, words_path: str | Path | None = None, *, min_score: int = 50,
                 allow_dupes: bool = False, strict: bool = False,
                 warn: Callable[[str], None] | None = None) -> Problem:
    """Read the grid (any puzzle format, by extension) and word list (default list when `words_path`
    is None) and compile them.

    `warn` gets one line per thing the user should know: skipped lines, notes about the list
    and its cache, entries the user completed that are not in the list (see `compile_problem`
    for `strict`).

    Raises:
        InputError: unreadable or malformed grid, missing or empty word list.
    """
    return load_puzzle_problem(grid_path, words_path, min_score=min_score, allow_dupes=allow_dupes, strict=strict,
                               warn=warn)[1]


def load_puzzle_problem(grid_path: str | Path, words_path: str | Path | None = None, *, min_score: int = 50,
                        allow_dupes: bool = False, strict: bool = False,
                        warn: Callable[[str], None] | None = None) -> tuple[Puzzle, Problem]:
    """Like `load_problem`, also returning the puzzle read (its title, author and clues, for `--out`)."""
    puzzle = read_puzzle(grid_path)
    words = load_word_list(words_path)
    if warn is not None:
        if words.n_problems:
            warn(f"{words.source}: skipped {describe_problems(words.problems, words.n_problems)}")
        for note in words.notes:
            warn(note)
    problem = compile_problem(puzzle.grid, words, min_score=min_score, allow_dupes=allow_dupes, strict=strict)
    if warn is not None and problem.unlisted and not strict:
        warn(unlisted_text(problem) + " (--strict refuses such a grid)")
    return puzzle, problem


def save_fill(puzzle: Puzzle, problem: Problem, result: FillResult, out_path: str | Path) -> bool:
    """Write the first fill of `result` into `out_path` (format by extension), keeping `puzzle`'s metadata.

    Returns:
        True if a fill was written; False when `result` has none (nothing is written).

    Raises:
        InputError: unknown extension or the file cannot be written.
    """
    if result.entries is None:
        return False
    write_puzzle(puzzle_from_fill(puzzle, fill_grid(problem, result.entries)), out_path)
    return True


def convert(in_path: str | Path, out_path: str | Path) -> Puzzle:
    """Read `in_path` and write it to `out_path`, each in the format of its extension; returns the puzzle.

    Raises:
        InputError: unknown extension, unreadable input, or content the output cannot carry.
    """
    format_module(out_path)  # refuse a bad output name before reading
    puzzle = read_puzzle(in_path)
    write_puzzle(puzzle, out_path)
    return puzzle


class ProgressLine:
    """Prints a live one-line status to stderr, at most a few times a second."""

    def __init__(self, stream=sys.stderr, every_s: float = 0.5):
        self.stream = stream
        self.every_s = every_s
        self.last = 0.0
        self.shown = False

    def __call__(self, p: Progress) -> None:
        now = time.perf_counter()
        if now - self.last < self.every_s or p.wall_time_s < 1.0:
            return
        self.last = now
        self.shown = True
        self.stream.write(f"\r{p.backend}: {p.wall_time_s:6.1f} s  {p.nodes:>9,} nodes  "
                          f"{p.backtracks:>9,} backtracks  {p.restarts:>5,} restarts  "
                          f"deepest {p.filled_slots}/{p.n_slots} slots ")
        self.stream.flush()

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


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
