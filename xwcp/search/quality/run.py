"""The whole quality search: the first fill, the floor, the mean at each floor, the bound, and the answer (`fill_quality`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from xwcp.base.types import FillStatus
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, FillStats, FloorOutcome, Limits, Quality, check_fill, measure_quality
from xwcp.search.quality.aim import at_floor
from xwcp.search.quality.bound import BOUND_TIME_S, compute_bound
from xwcp.search.quality.exact import EXACT_MAX_WORDS, domain_words, exact_mean
from xwcp.search.quality.floor import climb_floor, first_fill, start_proof
from xwcp.search.quality.fresh import lift_slots, restart_for_mean
from xwcp.search.quality.neighbourhood import LNS_START_SIZE, _raise_target, improve_mean
from xwcp.search.quality.state import DEFAULT_TIME_LIMIT_S, _Run, _Search
from xwcp.search.quality.stopping import ABORT_POLL_S

BOUND_RESERVE_SHARE = 0.1
"""Share of the time limit kept for the bound at the end on big grids (up to BOUND_TIME_S): computing it
at each floor the search passed cost 3-7 s each (Herald 21.10 and the Sunday climb several floors)."""
RESTART_SHARE = 0.3
"""Share of the time left after the floor climb spent on fresh fills at the floor, before the neighbourhood search."""
LIFT_SHARE = 0.3
"""Share of the time left that `lift_slots` may use, after the first fresh fills."""
QUICK_MEAN_S = 6.0
"""Fresh fills for the mean before the mean search waits for the floor's proof (Herald 15.02 at floor 80:
87.17 -> 88.24 in the first 3.4 s of them, nothing more in the next 30 s)."""
MEAN_WAITS_FOR_PROOF = True
"""After QUICK_MEAN_S of fresh fills the mean search waits for the floor's proof (False: it goes on beside it).
Measured once each (60 s, load 5-7): beside / waiting, Herald 15.02 at 80: 11 / 12 entries at 80,
mean 88.49 / 88.36, floor proven in both; 15.06: the same fill both ways (27 at 80, 86.25, proven); too
little to change the choice earlier measurements made, so it waits."""
MEAN_RESERVE_S = 12.0
"""Time kept for the mean search however long the floor's proof runs."""
EXACT_SHARE = 0.5
"""Share of the time left that the exact whole-grid pass may take on a small grid."""


def _has_cpsat() -> bool:
    try:
        from ortools.sat.python import cp_model  # noqa: F401
    except ImportError:
        return False
    return True


def _mean_at_floor(search: _Search, has_cpsat: bool) -> None:
    """Raise the mean at the current floor until the time is up, the mean is proven optimal, or the
    proof beside it raises the floor: the bound, an exact whole-grid pass when the grid is small,
    fresh fills, then neighbourhood search."""
    problem = search.problem
    search.best_problem = at_floor(problem, search.floor)  # the mean search must not go below the floor
    search.is_mean_optimal = False
    search.bound_total = None
    is_small = domain_words(search.best_problem) <= EXACT_MAX_WORDS
    if is_small:  # the bound first, to stop as soon as a fill meets it; big grids get it at the end
        compute_bound(search, min(BOUND_TIME_S, max(0.1, search.remaining() / 4)))
        if search.is_settled():
            search.is_mean_optimal = True
            return
    if has_cpsat and is_small and not search.floor_raised():
        exact_mean(search, EXACT_SHARE * max(0.0, search.remaining()))
        if search.is_mean_optimal or search.stopped():
            return
    if len(problem.open_slot_ids) <= LNS_START_SIZE and has_cpsat:
        improve_mean(search)  # one neighbourhood holds the whole grid: CP-SAT may settle it at once
        if search.is_mean_optimal:
            return
    if has_cpsat and _raise_target(search) is not None:
        improve_mean(search)  # a few entries below the next populous level: lifting them comes first
        return
    proof = search.proof
    if proof is not None and not proof.done.is_set() and MEAN_WAITS_FOR_PROOF:
        # the floor comes first: a few seconds of fresh fills (most of what they gain), then the proof
        # beside has the cores to itself until only MEAN_RESERVE_S are left
        restart_for_mean(search, search.elapsed() + min(QUICK_MEAN_S, RESTART_SHARE * max(0.0, search.remaining())))
        lift_slots(search, search.elapsed() + LIFT_SHARE * max(0.0, search.remaining()))
        while (
            search.remaining() > MEAN_RESERVE_S
            and not search.stopped()
            and not search.floor_raised()
            and not proof.done.wait(ABORT_POLL_S)
        ):
            pass
        if search.floor_raised() or search.stopped():
            return
    restart_for_mean(
        search,
        search.elapsed() + min(QUICK_MEAN_S, RESTART_SHARE * max(0.0, search.remaining()))
        if has_cpsat
        else search.time_limit_s,
    )
    if not search.floor_raised():
        lift_slots(search, search.elapsed() + LIFT_SHARE * max(0.0, search.remaining()))
    if has_cpsat:
        improve_mean(search)


def _mean_at_each_floor(search: _Search, has_cpsat: bool) -> None:
    """The mean search at the floor reached, started over whenever the floor rises (by the proof beside it
    or the neighbourhood search), until the time is up or the mean is settled at a floor that stays."""
    while True:
        _mean_at_floor(search, has_cpsat)
        proof = search.proof
        if proof is not None and search.is_mean_optimal and not search.stopped():
            while not proof.done.wait(ABORT_POLL_S) and not search.stopped():
                pass  # the mean is settled at this floor: only the floor's proof is left
        raised = proof.take() if proof is not None else None
        is_moved, search.raised_by_lns = search.raised_by_lns, False
        if raised is not None and raised[0] > search.floor:
            search.floor, entries, problem_at, search.first_at_floor_s = raised
            search.accept(problem_at, entries, f"floor {search.floor} (beside the mean search)")
            is_moved = True
        if search.stopped():
            break
        if not is_moved and (raised is None or search.is_mean_optimal):
            break  # a fill at a floor reached already only interrupted the mean search: go on


def _floor_and_mean(search: _Search) -> float | None:
    """Raise the floor, then the mean at it, until the time is up or both are settled; the bound on the mean
    at the final floor (None when there is none)."""
    problem = search.problem
    has_cpsat = _has_cpsat()
    if domain_words(problem) > EXACT_MAX_WORDS:
        search.reserve_s = min(BOUND_TIME_S, BOUND_RESERVE_SHARE * search.time_limit_s)
    search.proof = start_proof(search)
    try:
        climb_floor(search)
        if search.floor_optimal and search.proof is not None:
            search.proof.finish()  # the climb proved it: the question beside is moot
        _mean_at_each_floor(search, has_cpsat)
    finally:
        if search.proof is not None:
            search.proof.finish()
    if search.proof is not None and search.proof.is_proven and search.proof.floor == search.floor:
        search.floor_optimal = True
        search.say(f"{search.elapsed():6.1f} s  no fill above floor {search.floor}: it is the highest possible")
    search.reserve_s = 0.0
    if search.bound_total is None:
        search.best_problem = at_floor(problem, search.floor)
        compute_bound(search, min(BOUND_TIME_S, max(0.1, search.remaining())))
    if search.bound_total is None:
        return None
    return search.bound_total / len(problem.open_slot_ids)


def fill_quality(
    problem: Problem, backend: str = "auto", limits: Limits | None = None, say: Callable[[str], None] | None = None
) -> tuple[FillResult, Quality | None]:
    """The best fill found within the time limit: highest floor, then fewest entries at it, then highest mean,
    with a bound.

    It stops before the limit only when both are settled: the floor proven optimal and the mean
    proven optimal at it (the bound met, or CP-SAT finished over the whole grid).

    Args:
        problem: the problem at the lowest score allowed (its `min_score`).
        backend: the fast search used for each floor level.
        limits: `time_limit_s` (default DEFAULT_TIME_LIMIT_S), `seed`, `abort`; `progress` hears each better fill
            whole (backend BEST_FILL_BACKEND, `partial` every letter of it).
        say: called with a progress line (a better fill, a floor proven) as the search goes.

    Returns:
        (result, quality): FILLED with the best fill and its Quality; otherwise the first
        attempt's result (UNFILLABLE, LIMIT) and None.
    """
    from xwcp.engine.wide import kernel_takes

    limits = limits or Limits()
    if limits.time_limit_s is None:
        limits = replace(limits, time_limit_s=DEFAULT_TIME_LIMIT_S)
    if backend == "auto" and not kernel_takes(problem):  # its floor proof would run the compiled search
        backend = "cpsat"
    run = _Run(problem, backend, limits, time.perf_counter(), say or (lambda line: None))
    first = first_fill(run)
    entries = first.entries
    if first.status is not FillStatus.FILLED or entries is None:
        return first, None
    first_quality = measure_quality(problem, entries)
    floor = first_quality.min_score if first_quality.min_score is not None else problem.min_score
    search = _Search(
        run.problem, run.backend, run.limits, run.start, run.say, best=entries, best_problem=problem, floor=floor
    )
    search.first_at_floor_s = search.elapsed()
    search.tried(problem.min_score, FloorOutcome.FILLED, first.stats.wall_time_s, "first")
    search.accept(problem, entries, "first fill")
    bound = _floor_and_mean(search) if problem.open_slot_ids else None
    return _answer(search, first, first_quality.mean_score, bound)


def _answer(
    search: _Search, first: FillResult, first_mean: float | None, bound: float | None
) -> tuple[FillResult, Quality]:
    """The search's answer: its best fill, checked once more, with its quality and the search's figures."""
    problem = search.problem
    violations = check_fill(search.best_problem, search.best)
    if violations:
        raise RuntimeError(f"quality search produced an invalid fill: {'; '.join(violations[:3])}")
    if search.is_mean_optimal:
        bound = search.total(search.best) / len(problem.open_slot_ids)
    quality = replace(
        measure_quality(problem, search.best, floor_optimal=search.floor_optimal, mean_bound=bound),
        floors=tuple(search.floor_tries),
    )
    extra = {
        **dict(first.stats.extra),
        "floor": search.floor,
        "first_mean": round(first_mean, 2) if first_mean is not None else None,
        "first_at_floor_s": round(search.first_at_floor_s or 0.0, 3),
        "final_fill_s": round(search.final_s or 0.0, 3),
        "lns_steps": search.n_lns,
        "fresh_fills": search.n_restarts,
        "lns_improvements": search.n_improved,
        "mean_optimal": search.is_mean_optimal,
        "stopped_early": search.floor_optimal and search.is_mean_optimal and search.elapsed() < search.time_limit_s,
    }
    stats = FillStats(search.elapsed(), first.stats.nodes, first.stats.backtracks, first.stats.restarts, extra)
    return FillResult(FillStatus.FILLED, first.backend, stats, (search.best,), 1, qualities=(quality,)), quality
