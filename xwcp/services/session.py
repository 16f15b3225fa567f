"""The one runner (`run_fill`) and the one saver (`save_fill`, `write_checked`), with the command line's loads.

Every front door fills through `run_fill`: the command line, the library's jobs, the web builder's
autofill and the batch tasks (it takes a backend, limits, a seed, the quality search, a progress
callback and an abort event). Grids and lists are loaded by `xwcp.services.load.load`; `load_problem`
and `load_puzzle_problem` are its command-line reading, kept here under their old names.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import replace
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from xwcp.base.errors import InputError, is_cli, option_text
from xwcp.formats import Puzzle, format_module, puzzle_from_fill, read_puzzle, write_puzzle
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, Limits, Progress, Quality, default_threads, fill_grid
from xwcp.compile.controls import Controls
from xwcp.services.load import WordPaths, load, load_words, warn_list, warn_problem, warn_puzzle

if TYPE_CHECKING:
    from xwcp.analysis.verify import VerifyProgress
    from xwcp.search.core import CoreProgress

__all__ = ["load_problem", "load_puzzle_problem", "load_words", "warn_list", "warn_problem", "warn_puzzle",
           "save_fill", "write_checked", "convert", "run_fill", "explain_verdict", "ProgressLine",
           "VerifyProgressLine", "CoreProgressLine", "StatusLine"]


def load_problem(grid_path: str | Path, words_path: WordPaths = None, *, min_score: int = 50,
                 allow_dupes: bool = False, strict: bool = False,
                 warn: Callable[[str], None] | None = None, controls: Controls | None = None) -> Problem:
    """Read the grid (any puzzle format, by extension) and word list(s) and compile them with the
    constructor's controls (`xwcp.services.load.load`, the command line's reading).

    Args:
        words_path: None for the default list, a path, or a list of paths layered in order
            (later lists override earlier scores; a score of 0 or below removes the word).

    `warn` gets one line per thing the user should know: skipped lines, notes about the list
    and its cache, entries the user completed that are not in the list (see `compile_problem`
    for `strict`).

    Raises:
        InputError: unreadable or malformed grid, missing or empty word list, controls that do not fit.
    """
    return load(grid_path, words_path, min_score=min_score, allow_dupes=allow_dupes, strict=strict, warn=warn,
                controls=controls, as_paths=True).problem


def load_puzzle_problem(grid_path: str | Path, words_path: WordPaths = None, *, min_score: int = 50,
                        allow_dupes: bool = False, strict: bool = False,
                        warn: Callable[[str], None] | None = None,
                        controls: Controls | None = None, out: str | Path | None = None) -> tuple[Puzzle, Problem]:
    """Like `load_problem`, also returning the puzzle read (its title, author and clues, for `--out`).

    `out`: the file a fill of it will be written to; what that format cannot hold of the puzzle (bars in a
    .puz) is refused as soon as the puzzle is read, before any work (`xwcp.formats.check_writable`)."""
    loaded = load(grid_path, words_path, min_score=min_score, allow_dupes=allow_dupes, strict=strict, warn=warn,
                  controls=controls, out=out, as_paths=True)
    return loaded.puzzle, loaded.problem


def save_fill(puzzle: Puzzle, problem: Problem, result: FillResult, out_path: str | Path) -> bool:
    """Write the first fill of `result` into `out_path` (format by extension), keeping `puzzle`'s metadata
    (through `write_checked`).

    Returns:
        True if a fill was written; False when `result` has none (nothing is written).

    Raises:
        InputError: unknown extension, the file cannot be written, or its format loses the grid's
            bars or rebus cells.
    """
    if result.entries is None:
        return False
    write_checked(puzzle_from_fill(puzzle, fill_grid(problem, result.entries)), out_path)
    return True


def write_checked(puzzle: Puzzle, out_path: str | Path) -> None:
    """`write_puzzle`, and for a grid with bars or rebus cells a check that the file keeps them: it is
    written beside `out_path` first and read back, and takes `out_path`'s name only when its cells and
    bars come back as written (a format that cannot carry them refuses, rather than leave a file
    that reads as another grid).

    Raises:
        InputError: unknown extension, the file cannot be written, or its format loses the grid's
            bars or rebus cells.
    """
    grid = puzzle.grid
    if not (grid.bars or grid.has_rebus):
        write_puzzle(puzzle, out_path)
        return
    out_path = Path(out_path)
    trial = out_path.with_name(f".{out_path.stem}.{os.getpid()}.tmp{out_path.suffix}")
    what = " and ".join(name for name, has in (("bars", grid.bars), ("rebus cells", grid.has_rebus)) if has)
    try:
        try:
            write_puzzle(puzzle, trial)
        except InputError as exc:  # cannot write there, or the format refuses: said of the name the user gave
            raise InputError(exc.message, str(out_path)) from None
        except ValueError as exc:
            raise InputError(f"{out_path.suffix} cannot keep this grid's {what} here ({exc})", str(out_path)) from None
        try:
            back = read_puzzle(trial).grid
        except ValueError as exc:  # InputError too; its message names the trial file, the user named out_path
            problem_text = exc.message if isinstance(exc, InputError) else str(exc)
            raise InputError(f"{out_path.suffix} cannot keep this grid's {what} here ({problem_text})",
                             str(out_path)) from None
        if back.cells != grid.cells or back.bars != grid.bars:
            raise InputError(f"{out_path.suffix} cannot keep this grid's {what} here (the file would read as "
                             "another grid)", str(out_path))
        os.replace(trial, out_path)
    finally:
        trial.unlink(missing_ok=True)


def convert(in_path: str | Path, out_path: str | Path) -> Puzzle:
    """Read `in_path` and write it to `out_path`, each in the format of its extension; returns the puzzle.

    Raises:
        InputError: unknown extension, unreadable input, or content the output cannot carry.
    """
    format_module(out_path)  # refuse a bad output name before reading
    puzzle = read_puzzle(in_path)
    write_puzzle(puzzle, out_path)
    return puzzle


class StatusLine:
    """A live one-line status on stderr, at most a few times a second, after its first second."""

    def __init__(self, stream: TextIO = sys.stderr, every_s: float = 0.5) -> None:
        self.stream = stream
        self.every_s = every_s
        self.last = 0.0
        self.shown = False

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


class ProgressLine(StatusLine):
    """The status line of a fill: its backend, seconds, nodes, backtracks, restarts and deepest slot."""

    def __call__(self, p: Progress) -> None:
        self.show(p.wall_time_s, f"{p.backend}: {p.wall_time_s:6.1f} s  {p.nodes:>9,} nodes  "
                                 f"{p.backtracks:>9,} backtracks  {p.restarts:>5,} restarts  "
                                 f"deepest {p.filled_slots}/{p.n_slots} slots ")


class VerifyProgressLine(StatusLine):
    """The same status line for `suggest --verify`: seconds so far and words settled."""

    def __call__(self, p: VerifyProgress) -> None:
        self.show(p.elapsed_s, f"verify: {p.elapsed_s:6.1f} s  {p.settled}/{p.total} words settled ")


class CoreProgressLine(StatusLine):
    """The same status line while the minimal core is searched for: seconds, searches, slots left and needed."""

    def __call__(self, p: CoreProgress) -> None:
        self.show(p.elapsed_s, f"core: {p.elapsed_s:6.1f} s  {p.n_calls:>4} searches  {p.n_slots:>4} slots left, "
                               f"{p.n_needed} proven needed (Ctrl-C stops, keeping the verdict) ")


def explain_verdict(problem: Problem, result: FillResult | None = None, *, show_progress: bool = False,
                    time_limit_s: float | None = None) -> dict[str, Any] | None:
    """The minimal core of a grid proven unfillable, after the verdict, as a terminal user expects it.

    A progress line on stderr (`show_progress`), and Ctrl-C (any stop signal) ends the search
    but keeps the verdict: the core so far comes back marked `stopped`. `result` is the fill
    that proved it (its hardest slot and dead-end weights start the search), None when AC-3
    proved it.
    """
    import threading

    from xwcp.search.core import CORE_TIME_LIMIT_S, explain
    from xwcp.runtime.signals import stop_softly

    abort = threading.Event()
    progress = CoreProgressLine() if show_progress else None
    try:
        with stop_softly(abort) as heard:
            core = explain(problem, seed_slot_id=None if result is None else result.slot_id,
                           weight_by_slot=None if result is None else result.weight_by_slot,
                           time_limit_s=CORE_TIME_LIMIT_S if time_limit_s is None else time_limit_s,
                           progress=progress, abort=abort)
    finally:
        if progress is not None:
            progress.close()
    if heard.name is not None:
        print(f"xwcp: core search stopped ({heard.name}); the verdict stands", file=sys.stderr, flush=True)
    return core


def run_fill(problem: Problem, *, backend: str = "auto", time_limit_s: float | None = None, seed: int = 0,
             count: int | None = None, export_cnf: str | Path | None = None,
             show_progress: bool = False, quality: bool = False, min_diff: int | None = None,
             say: Callable[[str], None] | None = None,
             progress: Callable[[Progress], None] | None = None, soft_stop: bool = False,
             abort: threading.Event | None = None, threads: int | None = None) -> FillResult:
    """Fill `problem` with the named backend; every returned fill has passed `check_fill`.

    Args:
        count: None for one fill, N for N distinct fills, 0 to count every fill.
        export_cnf: also write the SAT encoding as DIMACS to this path.
        show_progress: print a live status line on stderr for long fills.
        quality: search for the highest floor and mean (anytime; default 60 s limit).
        min_diff: with `count`, every two fills differ in at least this many entries.
        say: receives the quality search's progress lines.
        progress: receives a Progress snapshot of the search every so often.
        abort: set it (from another thread) to stop the fill: it comes back ABORTED (a quality search:
            with the best fill so far).
        threads: the solver threads a fill may use (None: the backend's default; batch workers use 1).
        soft_stop: with `quality`, a stop signal (Ctrl-C) ends the quality search and the best fill so far
            comes back, marked `stopped_by` (the command line's way: nothing found is lost); without it a
            signal stops as everywhere else (`xwcp.runtime.signals`).

    Returns:
        The result, with `qualities` (one per fill) filled in.
    """
    from xwcp.backends import fill

    if quality and count == 0:
        raise InputError(f"{option_text('quality', True)} cannot be combined with "
                         f"{'--count all' if is_cli() else 'count=0'} (it searches for the best fills, not all)")
    if (quality or problem.controls.max_shared_substring is not None) and count and count > 1 and min_diff is None:
        min_diff = 1  # distinct fills one at a time (each a quality search, or checked for shared substrings)
    if quality or min_diff is not None:
        from xwcp.backends.controlled import fill_diverse
        from xwcp.search.quality import DEFAULT_TIME_LIMIT_S, fill_quality
        from xwcp.engine.result import measure_quality

        if quality and time_limit_s is None:
            time_limit_s = DEFAULT_TIME_LIMIT_S
        limits = Limits(time_limit_s=time_limit_s, seed=seed, progress=progress, abort=abort, threads=default_threads() if threads is None else threads)
        quality_by_fill: dict[tuple[str, ...], Quality] = {}

        def fill_one(p: Problem, lim: Limits) -> FillResult:
            if not quality:
                return fill(p, backend, lim)
            result, q = fill_quality(p, backend, lim, say=say)
            if q is not None and result.entries is not None:
                quality_by_fill[result.entries] = q
            return result

        def run() -> FillResult:
            if min_diff is not None and (count or 1) > 1:
                return fill_diverse(problem, backend, limits, count or 1, min_diff, fill_one=fill_one)
            return fill_one(problem, limits)

        stopped_by = None
        if quality and soft_stop:
            from xwcp.runtime.signals import stop_softly

            event = abort or threading.Event()
            limits = replace(limits, abort=event)
            with stop_softly(event) as heard:
                result = run()
            stopped_by = heard.name
        else:
            result = run()
        return replace(result, stopped_by=stopped_by,
                       qualities=tuple(quality_by_fill.get(f) or measure_quality(problem, f) for f in result.fills))

    if export_cnf is not None:
        from xwcp.backends import sat

        try:
            sat.export_cnf(problem, export_cnf)
        except OSError as exc:
            raise InputError(f"cannot write CNF file ({exc.strerror or exc})", str(export_cnf)) from None
    line = ProgressLine() if show_progress else None
    limits = Limits(time_limit_s=time_limit_s, seed=seed, count=count, progress=progress or line, abort=abort,
                    threads=default_threads() if threads is None else threads)
    try:
        return fill(problem, backend, limits)
    finally:
        if line is not None:
            line.close()

