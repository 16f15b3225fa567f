"""Better fills at the floor from our fast search: fresh fills leaning harder on scores, and slots lifted above the floor one at a time."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from xwcp.base.types import FillStatus, SlotId
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, Limits, check_fill
from xwcp.search.quality.state import _Search

RESTART_SCORE_WEIGHTS = (0.5, 1.0, 0.3)
"""Score weights of the fresh fills (the plain fill uses 0.05): on Herald 15.02 at floor 80, 0.5 gives
means of 87.6-88.1 against 86.3-87.2 at 0.05, each in 0.1-0.6 s."""
RESTART_RUN_S = 3.0
"""Time for one fresh fill; hard floors make some seeds slow."""
LIFT_TRY_S = 1.5
"""Time our search gets per slot in `lift_slots` (a fill with the slot above the floor, or none)."""


def _fast_fill(problem_at: Problem, limits: Limits) -> FillResult:
    """One fill by our compiled search (`backtrack`, its score weight from `limits.extra`), or by cpsat for an
    alphabet the compiled search does not take (more letters than its tables hold)."""
    from xwcp.backends import backtrack, cpsat
    from xwcp.engine.wide import kernel_takes

    return backtrack.fill(problem_at, limits) if kernel_takes(problem_at) else cpsat.fill(problem_at, limits)


def restart_for_mean(search: _Search, deadline_s: float) -> None:
    """Fresh fills at the floor by our fast search leaning harder on scores; keeps the best."""
    problem_at = search.best_problem
    best_key = search.key(search.best)
    run = 0
    while search.elapsed() < deadline_s and not search.stopped() and not search.floor_raised():
        if search.is_settled():
            return
        weight = RESTART_SCORE_WEIGHTS[run % len(RESTART_SCORE_WEIGHTS)]
        budget = min(RESTART_RUN_S, deadline_s - search.elapsed(), search.remaining())
        limits = Limits(
            time_limit_s=max(0.01, budget),
            seed=search.limits.seed + 1000 + run,
            abort=search.limits.abort,
            extra={"score_weight": weight},
        )
        run += 1
        search.n_restarts += 1
        result = _fast_fill(problem_at, limits)
        entries = result.entries
        if result.status is not FillStatus.FILLED or entries is None:
            if result.status is FillStatus.UNFILLABLE:
                return
            continue
        key = search.key(entries)
        if key > best_key and not check_fill(problem_at, entries):
            best_key = key
            search.n_improved += 1
            search.accept(problem_at, entries, f"better fill (fresh search, score weight {weight:g})")


def _lift_order(
    search: _Search,
) -> tuple[list[NDArray[np.bool_]], dict[SlotId, NDArray[np.bool_]], list[SlotId]] | None:
    """Where `lift_slots` starts: each slot's word mask (the best fill's slots above the floor kept there),
    each liftable slot's words above the floor, and the slots to try, most words above the floor first.
    None when the problem at the floor is not arc-consistent."""
    from xwcp.engine.ac3 import propagate

    problem_at = search.best_problem
    prop = propagate(problem_at)
    if not prop.is_consistent:
        return None
    floor = search.floor
    masks = [np.asarray(domain, bool) for domain in problem_at.domains]
    above_by_slot: dict[SlotId, NDArray[np.bool_]] = {}
    order: list[tuple[int, SlotId]] = []
    for slot_id in problem_at.open_slot_ids:
        scores = np.asarray(problem_at.words.bucket(problem_at.slots[slot_id].length).scores)
        above = scores > floor
        if not (np.asarray(prop.domains[slot_id], bool) & above).any():
            continue
        above_by_slot[slot_id] = above
        if (problem_at.words.score(search.best[slot_id]) or 0) > floor:
            masks[slot_id] = masks[slot_id] & above  # the best fill has it above the floor: keep it there
        else:
            order.append((-int((np.asarray(prop.domains[slot_id], bool) & above).sum()), slot_id))
    order.sort()
    return masks, above_by_slot, [slot_id for _, slot_id in order]


def lift_slots(search: _Search, deadline_s: float) -> None:
    """Fewer entries at the floor, slot by slot, with our fast search (the second key of the aim).

    The slots the best fill already has above the floor are kept above it; then each other slot in
    turn (the one with the most words above the floor first) is restricted to them, on top of what
    is kept, and `backtrack` fills the restricted grid (LIFT_TRY_S, score weight as the fresh
    fills'); a fill keeps the slot's restriction and is taken when its key is better, no fill drops
    it. Ordered by highest-scored word first, its first tries timed out (long slots); started from
    no kept slots, it lifted nothing on Herald 15.01 and 15.02 (docs/design-notes.md). At floor 90 few words score higher (0-3 per length up to 6 letters), so these are
    the entries a better mean is made of: on Herald 15.01 this greedy (4 s a slot) kept 3 slots
    above 90 in 17 s, mean 90.31, where the neighbourhood search had reached 90.13 in 60 s.
    """
    if search.lifted_at == search.floor:
        return
    search.lifted_at = search.floor
    problem_at = search.best_problem
    start = _lift_order(search)
    if start is None:
        return
    masks, above_by_slot, order = start
    best_key = search.key(search.best)
    for run, slot_id in enumerate(order):
        budget = min(LIFT_TRY_S, deadline_s - search.elapsed(), search.remaining())
        if budget <= 0.05 or search.stopped() or search.floor_raised():
            return
        trial = list(masks)
        trial[slot_id] = masks[slot_id] & above_by_slot[slot_id]
        frozen = []
        for mask in trial:
            mask = mask.copy()
            mask.flags.writeable = False
            frozen.append(mask)
        limits = Limits(
            time_limit_s=budget,
            seed=search.limits.seed + 2000 + run,
            abort=search.limits.abort,
            extra={"score_weight": RESTART_SCORE_WEIGHTS[0]},
        )
        result = _fast_fill(replace(problem_at, domains=tuple(frozen)), limits)
        entries = result.entries
        if result.status is not FillStatus.FILLED or entries is None:
            continue
        masks = trial
        key = search.key(entries)
        if key > best_key and not check_fill(problem_at, entries):
            best_key = key
            search.n_improved += 1
            search.accept(problem_at, entries, f"better fill ({search.problem.slots[slot_id].name} lifted)")
