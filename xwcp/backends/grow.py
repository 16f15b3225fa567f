"""Fill a large grid region by region: slots added in rings of crossings from its hardest slot, each step guided by the last.

The whole-grid search thrashes on the van Beek 23x23s with SCOWL-55 (23.06, 23.10: every
backend at 60 s) although every part of them fills fast: the slots within five
crossings of any slot (up to 144 of 156) fill in under 3 s on 23.06, and 144-slot regions of
23.10 in 0.1-3 s. So this backend
1. runs the compiled search for PROBE_FAILS failures (it may settle the grid there) and takes the
   slot with the most dead ends (its failure weights) as the start;
2. orders the slots by rings of crossings from the start and asks the core's oracle
   (`xwcp.backends.core_oracle.CoreOracle`: the compiled search, restarts, the last fill's words tried
   first) for the first GROW_STEP slots, then 2 * GROW_STEP, ... until the whole grid is filled;
3. when an attempt passes ATTEMPT_S, starts again from the next slot by failure weight.
A sub-problem proven unfillable proves the grid unfillable (its slots are a subset of the
grid's), so UNFILLABLE is a proof here too. Only a time limit ends it otherwise (LIMIT).

Measured (one core each, `backtrack` seed 0 as the oracle; bench/README.md, the section on van Beek
23.06 and 23.10): from the slot with the most dead ends after 3 s of the whole search (23.06
100D, 23.10 80A) 23.06 fills in 5.8 s and 23.10 in 21 s, the first fill of 23.10 by any xwcp
backend. Heavy-tailed still, in the start and in the seed: of 4 starts among the top failure
weights two fill each grid within 40 s; of 12 other starts on 23.10 none does within 20-60 s; and
from the same good start the oracle's seeds 1 and 2 reach 60 s on 23.10 (on 23.06 seed 2 fills in
20 s, seed 1 does not). With seeds 1 and 2 the probe also names other starts (upper left).
"""

from __future__ import annotations

import time
from dataclasses import replace

from xwcp.backends import backtrack
from xwcp.backends._common import Clock, entries_from_word_ids, limit_reason
from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus, SlotId
from xwcp.compile.problem import Problem, crossing_distances
from xwcp.engine import kernel
from xwcp.engine.result import FillResult, FillStats, Limits
from xwcp.engine.wide import kernel_refusal, kernel_takes

NAME = "grow"

PROBE_FAILS = 30_000
"""Failures of the whole-grid search before growing: about 3 s on a 23x23 with SCOWL-55, where its
failure weights name the hard corner (23.06 100D, 23.10 80A; after 1 s 23.10's top slot was 73D,
from which growing did not fill in 40 s). A count, not seconds, so the start is the same on any machine."""
GROW_STEP = 3
"""Slots added per step: 23.10 from 80A filled in 21 s with steps of 3 and reached 60 s with steps of 12."""
ATTEMPT_S = 25.0
"""Seconds one start may take before the next start by failure weight (fills came in 6-39 s). 12 s
filled 23.06 with seed 1 (37.8 s, at the third start) but lost 23.10 with seed 0 (its first start
needs 21 s), so it stays above the fills measured from a first start."""
SLICE_S = 0.05
"""Seconds the probe runs between checks of the time limit and the abort event."""


def available() -> bool:
    return backtrack.available()


def missing() -> str:
    return backtrack.missing()


def ring_order(problem: Problem, start_id: SlotId) -> list[SlotId]:
    """Every slot of `problem`, in rings of crossings from `start_id` (breadth first), then any not reached."""
    order = list(crossing_distances(problem, [start_id]))
    reached = set(order)
    order.extend(slot.id for slot in problem.slots if slot.id not in reached)
    return order


def fill(problem: Problem, limits: Limits | None = None) -> FillResult:
    """Fill `problem` region by region, or prove it cannot be filled, within `limits` (see the module docstring)."""
    from xwcp.backends.core_oracle import CoreOracle
    from xwcp.engine.plain_kernel import bit_search

    limits = limits or Limits()
    if not kernel_takes(problem):
        raise InputError(kernel_refusal(problem, NAME))
    if limits.count not in (None, 1) or problem.conflicts or not problem.slots:
        return replace(backtrack.fill(problem, limits), backend=NAME)
    clock = Clock(limits)
    engine = bit_search(problem)
    if not engine.is_consistent:
        return replace(backtrack.fill(problem, limits), backend=NAME)
    engine.configure(
        seed=limits.seed,
        restart_base=backtrack.RESTART_BASE_FAILS,
        noise=backtrack.NOISE,
        score_weight=backtrack.SCORE_WEIGHT,
        max_fails=int(limits.extra.get("probe_fails", PROBE_FAILS)),
    )
    code = kernel.RUNNING
    while code == kernel.RUNNING and clock.stop_status() is None:
        remaining = clock.remaining_s()
        code = engine.search(SLICE_S if remaining is None else max(0.0, min(SLICE_S, remaining)))
    probe = engine.stats
    if code == kernel.SOLVED:  # settled while probing
        return FillResult(
            FillStatus.FILLED,
            NAME,
            _stats(clock, probe, {}),
            (entries_from_word_ids(problem, engine.solution_word_ids()),),
            1,
        )
    if code == kernel.EXHAUSTED:
        return FillResult(
            FillStatus.UNFILLABLE,
            NAME,
            _stats(clock, probe, {}),
            reason="search exhausted every candidate: no fill exists",
        )
    if code == kernel.NOMEM:
        raise MemoryError("the search's save stack could not grow")
    weights = engine.slot_weights()
    starts = sorted((slot.id for slot in problem.slots), key=lambda slot_id: -weights.get(slot_id, 0.0))
    step = int(limits.extra.get("grow_step", GROW_STEP))
    attempt_s = float(limits.extra.get("attempt_s", ATTEMPT_S))
    status, entries, n_asks, n_attempts = None, None, 0, 0
    for start_id in starts:
        stop = clock.stop_status()
        if stop is not None:
            status = stop
            break
        n_attempts += 1
        order = ring_order(problem, start_id)
        remaining = clock.remaining_s()
        attempt_end = time.perf_counter() + (attempt_s if remaining is None else min(attempt_s, remaining))
        oracle = CoreOracle(problem, seed=limits.seed, deadline=attempt_end, abort=limits.abort)
        n_kept = 0
        while True:
            n_kept = min(n_kept + step, len(order))
            answer = oracle.ask(order[:n_kept])
            n_asks += 1
            if answer.status is not FillStatus.FILLED or n_kept == len(order):
                break
        if answer.status is not FillStatus.LIMIT:  # filled, proven unfillable, or stopped: this start's answer is final
            status = answer.status
            if status is FillStatus.FILLED:
                entries = tuple(answer.fill[slot.id] for slot in problem.slots)
            break
    if status is None:
        status = clock.stop_status() or FillStatus.LIMIT
    stats = _stats(
        clock, probe, {"grow_asks": n_asks, "grow_attempts": n_attempts, "grow_start": problem.slots[starts[0]].name}
    )
    reason = ""
    if status is FillStatus.UNFILLABLE:
        reason = "a region of the grid has no fill, so the grid has none"
    elif status in (FillStatus.LIMIT, FillStatus.ABORTED):
        reason = limit_reason(status, limits)
    fills = (entries,) if entries is not None else ()
    return FillResult(status, NAME, stats, fills, len(fills), reason)


def _stats(clock: Clock, probe: dict[str, int], extra: dict[str, object]) -> FillStats:
    """The probe's search counts (the oracle's steps count only in `grow_asks`), with `extra`."""
    return FillStats(
        clock.elapsed_s,
        probe["nodes"],
        probe["fails"],
        probe["restarts"],
        {"max_depth": probe["max_depth"], "nogoods": probe["nogoods"], **extra},
    )
