"""Large-neighbourhood search for the mean: CP-SAT re-fills a neighbourhood of crossing slots around a weak entry, every other slot kept."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from xwcp.base.types import SlotId
from xwcp.compile.problem import Domains, Problem
from xwcp.engine.result import check_fill, entry_scores
from xwcp.search.quality.aim import RAISE_PENALTY, populous_levels
from xwcp.search.quality.state import _Search
from xwcp.search.quality.stopping import solve_stoppable

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel, IntVar

LNS_START_SIZE = 10
"""Slots in the first neighbourhood; 8-14 keeps CP-SAT under a second on 15x15 grids."""
LNS_MIN_SIZE, LNS_MAX_SIZE = 4, 40
HOOD_SLOT_WORDS = 800
"""Words a neighbourhood slot may take (a random sample, plus its current word): bigger domains make
CP-SAT's model take seconds to load (5x5 at floor 90: 2,400 words a slot, 1.7 s for 4 slots)."""
HOOD_TOP_WORDS = 200
"""Of a neighbourhood slot's HOOD_SLOT_WORDS, this many are its highest-scored words, the rest a random
sample: on Herald 15.01 at floor 90 a slot has 60-200 words above 90 among 2,000-7,500, so a purely
random sample left them out, and with them most of what a better mean is made of."""
LNS_BUILD_MARGIN_S = 0.3
"""Time kept back from the last step for building its model, so the search ends at the limit."""
LNS_STEP_S = 2.0
"""CP-SAT time per neighbourhood; a neighbourhood that takes longer is shrunk."""
RAISE_MAX_BELOW = 10
"""Most entries below the next populous level for the neighbourhood search to try lifting them all."""


def _neighbourhood(problem: Problem, entries: Sequence[str], size: int, rng: random.Random) -> list[SlotId]:
    """About `size` open slots grown breadth-first over crossings from a weak entry (random among the weakest)."""
    open_ids = problem.open_slot_ids
    open_set = set(open_ids)
    scores = {s: problem.words.score(entries[s]) or 0 for s in open_ids}
    weakest = sorted(open_ids, key=lambda s: (scores[s], rng.random()))
    center = (
        weakest[rng.randrange(min(len(weakest), max(3, len(weakest) // 4)))]
        if rng.random() < 0.7
        else rng.choice(open_ids)
    )
    chosen = [center]
    seen = {center}
    frontier = [center]
    while frontier and len(chosen) < size:
        nxt = []
        rng.shuffle(frontier)
        for slot_id in frontier:
            for t in problem.neighbours[slot_id]:
                if t in open_set and t not in seen:
                    seen.add(t)
                    nxt.append(t)
        rng.shuffle(nxt)
        for t in nxt:
            if len(chosen) < size:
                chosen.append(t)
        frontier = nxt
    return chosen


def _used_outside(problem: Problem, entries: Sequence[str], hood_set: set[SlotId]) -> dict[int, set[int]]:
    """Word ids by length that the slots outside the neighbourhood use (none when duplicates are allowed)."""
    used_outside: dict[int, set[int]] = {}
    if not problem.allow_dupes:
        for slot in problem.slots:
            if slot.id not in hood_set and slot.id not in problem.skipped_slot_ids:
                word_id = problem.words.word_id(entries[slot.id])
                if word_id is not None:
                    used_outside.setdefault(slot.length, set()).add(word_id)
    return used_outside


def _hood_domains(
    problem: Problem, domains: Domains, entries: Sequence[str], hood: list[SlotId], rng: np.random.Generator
) -> tuple[dict[SlotId, NDArray[np.int64]] | None, bool]:
    """Word ids each slot of `hood` may take with every other slot kept: letters crossing kept slots
    agree, and (without duplicates) no word used by a kept slot. None when a slot has no word.
    The flag says whether some slot's words were cut to a sample (HOOD_SLOT_WORDS)."""
    words = problem.words
    hood_set = set(hood)
    used_outside = _used_outside(problem, entries, hood_set)
    ids_by_slot = {}
    is_sampled = False
    for slot_id in hood:
        slot = problem.slots[slot_id]
        bucket = words.bucket(slot.length)
        mask = np.asarray(domains[slot_id], bool).copy()
        for pos, at_pos in enumerate(problem.partners[slot_id]):
            for t, t_pos in at_pos:
                if t not in hood_set and t not in problem.skipped_slot_ids:
                    code = problem.alphabet.index(entries[t][t_pos])
                    mask &= bucket.letters[:, pos] == (-1 if code is None else code)  # a symbol: no listed word
        for word_id in used_outside.get(slot.length, ()):
            mask[word_id] = False
        ids = np.flatnonzero(mask)
        if len(ids) == 0:
            return None, False
        if len(ids) > HOOD_SLOT_WORDS:
            is_sampled = True
            # the highest-scored words, a random sample of the rest, and the slot's current word so the
            # current fill stays a solution
            order = np.lexsort((rng.random(len(ids)), -np.asarray(bucket.scores[ids], np.int64)))
            keep = np.concatenate(
                [
                    ids[order[:HOOD_TOP_WORDS]],
                    rng.choice(ids[order[HOOD_TOP_WORDS:]], HOOD_SLOT_WORDS - HOOD_TOP_WORDS, replace=False),
                ]
            )
            current = words.word_id(entries[slot_id])
            ids = np.union1d(keep, [current] if current is not None and mask[current] else [])
            ids = ids.astype(np.int64)
        ids_by_slot[slot_id] = ids
    return ids_by_slot, is_sampled


def _hood_model(
    problem: Problem,
    ids_by_slot: dict[SlotId, NDArray[np.int64]],
    entries: Sequence[str],
    hood: list[SlotId],
    target: int | None,
) -> tuple[CpModel, dict[SlotId, IntVar]]:
    """The CP-SAT model of a neighbourhood's re-fill (see `_refill_neighbourhood`) and each slot's index variable."""
    from ortools.sat.python import cp_model

    words = problem.words
    hood_set = set(hood)
    cp = cp_model.CpModel()
    index_by_slot: dict[SlotId, IntVar] = {}
    score_vars: list[IntVar] = []
    wid_by_length: dict[int, list[IntVar]] = {}
    letter_by_cell: dict[int, IntVar] = {}
    for slot_id in hood:
        slot = problem.slots[slot_id]
        bucket = words.bucket(slot.length)
        ids = ids_by_slot[slot_id]
        index = cp.new_int_var(0, len(ids) - 1, "")
        index_by_slot[slot_id] = index
        current = words.word_id(entries[slot_id])
        where = np.flatnonzero(ids == current)
        if len(where):
            cp.add_hint(index, int(where[0]))
        scores = np.asarray(bucket.scores[ids], np.int64)
        if target is not None:
            scores = np.where(scores < target, scores - RAISE_PENALTY, scores)
        score = cp.new_int_var(int(scores.min()), int(scores.max()), "")
        cp.add_element(index, scores.tolist(), score)
        score_vars.append(score)
        letters = bucket.letters[ids]
        for pos, cell in enumerate(slot.cells):
            if not any(t in hood_set for t, _ in problem.partners[slot_id][pos]):
                continue
            letter = letter_by_cell.get(cell)
            if letter is None:
                letter = letter_by_cell[cell] = cp.new_int_var(0, 25, "")
            cp.add_element(index, letters[:, pos].astype(np.int64).tolist(), letter)
        if not problem.allow_dupes:
            wid = cp.new_int_var(int(ids.min()), int(ids.max()), "")
            cp.add_element(index, ids.astype(np.int64).tolist(), wid)
            wid_by_length.setdefault(slot.length, []).append(wid)
    for wids in wid_by_length.values():
        if len(wids) > 1:
            cp.add_all_different(wids)
    cp.maximize(sum(score_vars))
    return cp, index_by_slot


def _refill_neighbourhood(
    problem_at: Problem,
    domains: Domains,
    entries: Sequence[str],
    hood: list[SlotId],
    time_limit_s: float,
    seed: int,
    abort: threading.Event | None = None,
    target: int | None = None,
) -> tuple[list[str] | None, bool, bool]:
    """Best re-fill of the slots in `hood` (all others kept) by CP-SAT, stopped early when `abort` is set;
    with `target`, each word scored below it counts RAISE_PENALTY less (the floor + 1: fewest entries at
    the floor first, the lexicographic aim; a raise target: lift every entry to it).

    Returns:
        (entries or None, proven optimal over the words tried, whether the words were a sample).

    Model: per slot an index into its word ids; per crossing cell inside the hood a letter
    variable tied to both slots by element constraints; the score by an element constraint;
    no word twice by all-different over word ids of one length. The current fill is the hint.
    """
    from ortools.sat.python import cp_model

    problem = problem_at
    ids_by_slot, is_sampled = _hood_domains(problem, domains, entries, hood, np.random.default_rng(seed))
    if ids_by_slot is None:
        return None, False, False
    cp, index_by_slot = _hood_model(problem, ids_by_slot, entries, hood, target)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.05, time_limit_s)
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    # CP-SAT's own Ctrl-C handler is left behind as the default action after a solve: a later Ctrl-C
    # would kill the process (exit -2) without the best fill printed; ours (xwcp.runtime.signals) stops it
    solver.parameters.catch_sigint_signal = False
    status = solve_stoppable(solver, cp, abort)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, status == cp_model.INFEASIBLE, is_sampled
    out = list(entries)
    for slot_id in hood:
        bucket = problem.words.bucket(problem.slots[slot_id].length)
        out[slot_id] = bucket.text(int(ids_by_slot[slot_id][solver.value(index_by_slot[slot_id])]))
    return out, status == cp_model.OPTIMAL, is_sampled


def _raise_target(search: _Search) -> int | None:
    """The score level the neighbourhood search tries to lift every entry to, or None (it maximises the total).

    Only when the floor is unproven and few entries sit below the next populous level up (the stock
    themeless: a fill at floor 50 whose fast searches at 55 and above reach their limit): then
    re-filling around those few entries may lift the floor where a fresh search does not.
    """
    if search.floor_optimal or (search.proof is not None and search.proof.is_proven):
        return None
    above = [level for level in populous_levels(search.problem) if level > search.floor]
    if not above:
        return None
    n_below = sum(score < above[0] for score in entry_scores(search.problem, search.best))
    return above[0] if 0 < n_below <= RAISE_MAX_BELOW else None


def improve_mean(search: _Search) -> None:
    """Large-neighbourhood search at the floor until the time is up (or the bound is reached).

    Neighbourhoods grow while CP-SAT proves them optimal quickly and shrink when it runs out of time.
    With a raise target (`_raise_target`) each neighbourhood maximises the total less RAISE_PENALTY per
    entry below the target; a fill with none below it raises the floor (`search.raised_by_lns`) and
    the search returns, to start over at the new floor.
    """
    from xwcp.engine.ac3 import propagate

    problem_at = search.best_problem
    prop = propagate(problem_at)
    if not prop.is_consistent:
        return
    rng = random.Random(search.limits.seed)
    size = min(LNS_START_SIZE, len(problem_at.open_slot_ids))
    target = _raise_target(search)
    below = target if target is not None else search.floor + 1  # the lexicographic aim: fewest at the floor

    def value(entries: Sequence[str]) -> int:
        scores = entry_scores(search.problem, entries)
        return sum(scores) - RAISE_PENALTY * sum(x < below for x in scores)

    if target is not None:
        search.say(f"{search.elapsed():6.1f} s  neighbourhood search lifting the entries below {target}")
    best_value = value(search.best)
    n_open = len(problem_at.open_slot_ids)
    while not search.stopped() and not search.floor_raised() and n_open:
        if target is None and search.is_settled():
            return
        hood = _neighbourhood(problem_at, search.best, size, rng)
        t0 = time.perf_counter()
        step_s = min(LNS_STEP_S, search.remaining() - LNS_BUILD_MARGIN_S)
        if step_s < 0.05:
            return
        entries, proven, is_sampled = _refill_neighbourhood(
            problem_at, prop.domains, search.best, hood, step_s, rng.randrange(1 << 30), search.limits.abort, below
        )
        took = time.perf_counter() - t0
        search.n_lns += 1
        if entries is not None:
            new_value = value(entries)
            if new_value > best_value and not check_fill(problem_at, entries):
                best_value = new_value
                if _take_better(search, problem_at, entries, len(hood)):
                    return
        if (
            proven
            and not is_sampled
            and len(hood) == n_open
            and target is None
            and problem_at.controls.max_shared_substring is None
        ):
            search.is_mean_optimal = True  # CP-SAT proved the best (fewest at the floor, then total) at once
            search.bound_total = search.total(search.best)
            search.say(f"{search.elapsed():6.1f} s  mean proven optimal at floor {search.floor}")
            return
        if proven and took < step_s / 4:
            size = min(LNS_MAX_SIZE, n_open, size + 1)
        elif not proven:
            size = max(LNS_MIN_SIZE, size - 2)


def _take_better(search: _Search, problem_at: Problem, entries: Sequence[str], hood_size: int) -> bool:
    """Take a better fill a neighbourhood found; True when no entry is left at the floor (or below the raise
    target): the floor rises to its lowest entry, and the neighbourhood search starts over there."""
    search.n_improved += 1
    search.accept(problem_at, entries, f"better fill ({hood_size}-slot neighbourhood)")
    low = min(entry_scores(search.problem, entries))
    if low <= search.floor:
        return False
    search.floor, search.first_at_floor_s = low, search.elapsed()
    search.raised_by_lns = True
    if search.proof is not None:
        search.proof.floor_moved()
    search.say(f"{search.elapsed():6.1f} s  floor {low} (neighbourhood search)")
    return True
