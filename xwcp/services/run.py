"""The one runner: a fill for any front door, with its progress, its cancellation and, for a terminal, its status line.

Every front door fills through `run_fill`: the command line, the library's jobs, the web builder's autofill
and the batch tasks. It takes a backend, limits, a seed, the quality search, a progress callback and an abort
event, and returns a checked `FillResult`. `explain_verdict` runs the minimal-core search after an unfillable
verdict the way a terminal user expects it (a status line; Ctrl-C keeps the verdict).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from xwcp.base.errors import InputError, is_cli, option_text
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, Limits, Progress, Quality, default_threads

if TYPE_CHECKING:
    from xwcp.analysis.verify import VerifyProgress
    from xwcp.search.core import CoreProgress, CoreReport


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
        self.show(
            p.wall_time_s,
            f"{p.backend}: {p.wall_time_s:6.1f} s  {p.nodes:>9,} nodes  "
            f"{p.backtracks:>9,} backtracks  {p.restarts:>5,} restarts  "
            f"deepest {p.filled_slots}/{p.n_slots} slots ",
        )


class VerifyProgressLine(StatusLine):
    """The same status line for `suggest --verify`: seconds so far and words settled."""

    def __call__(self, p: VerifyProgress) -> None:
        self.show(p.elapsed_s, f"verify: {p.elapsed_s:6.1f} s  {p.settled}/{p.total} words settled ")


class CoreProgressLine(StatusLine):
    """The same status line while the minimal core is searched for: seconds, searches, slots left and needed."""

    def __call__(self, p: CoreProgress) -> None:
        self.show(
            p.elapsed_s,
            f"core: {p.elapsed_s:6.1f} s  {p.n_calls:>4} searches  {p.n_slots:>4} slots left, "
            f"{p.n_needed} proven needed (Ctrl-C stops, keeping the verdict) ",
        )


def explain_verdict(
    problem: Problem,
    result: FillResult | None = None,
    *,
    show_progress: bool = False,
    time_limit_s: float | None = None,
) -> CoreReport | None:
    """The minimal core of a grid proven unfillable, after the verdict, as a terminal user expects it.

    A progress line on stderr (`show_progress`), and Ctrl-C (any stop signal) ends the search
    but keeps the verdict: the core so far comes back marked `stopped`. `result` is the fill
    that proved it (its hardest slot and dead-end weights start the search), None when AC-3
    proved it.
    """
    import threading

    from xwcp.runtime.signals import stop_softly
    from xwcp.search.core import CORE_TIME_LIMIT_S, explain

    abort = threading.Event()
    progress = CoreProgressLine() if show_progress else None
    try:
        with stop_softly(abort) as heard:
            core = explain(
                problem,
                seed_slot_id=None if result is None else result.slot_id,
                weight_by_slot=None if result is None else result.weight_by_slot,
                time_limit_s=CORE_TIME_LIMIT_S if time_limit_s is None else time_limit_s,
                progress=progress,
                abort=abort,
            )
    finally:
        if progress is not None:
            progress.close()
    if heard.name is not None:
        print(f"xwcp: core search stopped ({heard.name}); the verdict stands", file=sys.stderr, flush=True)
    return core


def run_fill(
    problem: Problem,
    *,
    backend: str = "auto",
    time_limit_s: float | None = None,
    seed: int = 0,
    count: int | None = None,
    export_cnf: str | Path | None = None,
    show_progress: bool = False,
    quality: bool = False,
    min_diff: int | None = None,
    say: Callable[[str], None] | None = None,
    progress: Callable[[Progress], None] | None = None,
    soft_stop: bool = False,
    abort: threading.Event | None = None,
    threads: int | None = None,
    max_processes: int | None = None,
) -> FillResult:
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
        max_processes: the most processes a fill may run at once (`auto`'s portfolio); None: the cores this
            process owns, capped by XWCP_MAX_PROCESSES (xwcp/runtime/cores.py).
        soft_stop: with `quality`, a stop signal (Ctrl-C) ends the quality search and the best fill so far
            comes back, marked `stopped_by` (the command line's way: nothing found is lost); without it a
            signal stops as everywhere else (`xwcp.runtime.signals`).

    Returns:
        The result, with `qualities` (one per fill) filled in.
    """
    from xwcp.backends import fill

    if quality and count == 0:
        raise InputError(
            f"{option_text('quality', True)} cannot be combined with "
            f"{'--count all' if is_cli() else 'count=0'} (it searches for the best fills, not all)"
        )
    if (quality or problem.controls.has_pair_rules) and count and count > 1 and min_diff is None:
        min_diff = 1  # distinct fills one at a time (each a quality search, or checked for shared substrings)
    if quality or min_diff is not None:
        from xwcp.backends.controlled import fill_diverse
        from xwcp.engine.result import measure_quality
        from xwcp.search.quality import DEFAULT_TIME_LIMIT_S, fill_quality

        if quality and time_limit_s is None:
            time_limit_s = DEFAULT_TIME_LIMIT_S
        limits = Limits(
            time_limit_s=time_limit_s,
            seed=seed,
            progress=progress,
            abort=abort,
            threads=default_threads() if threads is None else threads,
            max_processes=max_processes,
        )
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
        return replace(
            result,
            stopped_by=stopped_by,
            qualities=tuple(quality_by_fill.get(f) or measure_quality(problem, f) for f in result.fills),
        )

    if export_cnf is not None:
        from xwcp.backends import sat

        try:
            sat.export_cnf(problem, export_cnf)
        except sat.CnfTooLarge as exc:
            raise InputError(
                f"{exc}, more than --export-cnf writes; export a smaller grid or a region of it", str(export_cnf)
            ) from None
        except OSError as exc:
            raise InputError(f"cannot write CNF file ({exc.strerror or exc})", str(export_cnf)) from None
    line = ProgressLine() if show_progress else None
    limits = Limits(
        time_limit_s=time_limit_s,
        seed=seed,
        count=count,
        progress=progress or line,
        abort=abort,
        threads=default_threads() if threads is None else threads,
        max_processes=max_processes,
    )
    try:
        return fill(problem, backend, limits)
    finally:
        if line is not None:
            line.close()
