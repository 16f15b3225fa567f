"""The bound on the mean: a Lagrangian relaxation of the crossings, tightened by max-sum diffusion."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from xwcp.base.types import SlotId
from xwcp.compile.problem import Problem
from xwcp.search.quality.state import _Search

BOUND_TIME_S = 5.0
"""Most time given to tightening the bound (it stops earlier when a sweep gains little)."""
_IMPOSSIBLE = -1e6
"""Value of a letter one side of a crossing cannot take (finite, so differences stay finite)."""

SlotPos = tuple[SlotId, int]
"""A slot and a position in it: one side of a crossing cell."""


@dataclass
class _Relaxation:
    """The relaxed problem: each open slot's word values less its letter prices, and the crossings.

    `groups[(slot, pos)]` holds the letter column of the slot's words at `pos`, the order that sorts
    it, the letters present and where each starts in that order; `cells` pairs the across side of
    each crossing cell with the down side; `theta[(slot, pos)][letter]` is the price.
    """

    values: dict[SlotId, NDArray[np.float64]] = field(default_factory=dict)
    groups: dict[SlotPos, tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.intp], NDArray[np.intp]]] = field(
        default_factory=dict
    )
    cells: list[tuple[int, SlotPos, SlotPos]] = field(default_factory=list)
    theta: dict[SlotPos, NDArray[np.float64]] = field(default_factory=dict)
    n_letters: int = 26
    """K, the letters of the problem's alphabet: a price and a best value per letter."""

    def best_by_letter(self, key: SlotPos) -> NDArray[np.float64]:
        """The slot's best value (without this side's prices) for each letter at this position."""
        column, perm, present, starts = self.groups[key]
        without = self.values[key[0]] - self.theta[key][column]
        out = np.full(self.n_letters, _IMPOSSIBLE)
        out[present] = np.maximum.reduceat(without[perm], starts)
        return out

    def total(self) -> float:
        """The bound the prices give: every slot's best value, summed."""
        return float(sum(v.max() for v in self.values.values()))

    def balance(self, a: SlotPos, d: SlotPos) -> None:
        """One diffusion step on a crossing cell: both sides' best values per letter are made equal."""
        m_a, m_d = self.best_by_letter(a), self.best_by_letter(d)
        new_a = (m_d - m_a) / 2
        for key, new in ((a, new_a), (d, -new_a)):
            column = self.groups[key][0]
            self.values[key[0]] += (new - self.theta[key])[column]
            self.theta[key] = new


def _relaxation(problem_at: Problem) -> _Relaxation | None:
    """The relaxation of `problem_at` with zero prices, over its arc-consistent domains (None if it has none)."""
    from xwcp.engine.ac3 import propagate

    prop = propagate(problem_at)
    if not prop.is_consistent:
        return None
    open_set = set(problem_at.open_slot_ids)
    relaxed = _Relaxation(n_letters=problem_at.alphabet.size)
    for slot_id in problem_at.open_slot_ids:
        slot = problem_at.slots[slot_id]
        bucket = problem_at.words.bucket(slot.length)
        ids = np.flatnonzero(prop.domains[slot_id])
        relaxed.values[slot_id] = np.asarray(bucket.scores[ids], np.float64)
        letters = bucket.letters[ids]
        for pos, cell in enumerate(slot.cells):
            t = problem_at.cross_slot[slot_id][pos]
            if t < 0 or t not in open_set:
                continue
            column = letters[:, pos].astype(np.intp)
            perm = np.argsort(column, kind="stable")
            present = np.unique(column)
            starts = np.searchsorted(column[perm], present)
            relaxed.groups[(slot_id, pos)] = (column, perm, present, starts)
            if slot_id < t:  # each link once: at a crossing the across slot's; a cell in 3+ slots, its chain
                relaxed.cells.append((cell, (slot_id, pos), (t, problem_at.cross_pos[slot_id][pos])))
    relaxed.theta = {key: np.zeros(relaxed.n_letters) for key in relaxed.groups}
    return relaxed


def mean_bound(
    problem_at: Problem,
    best_total: int | None = None,
    time_limit_s: float = BOUND_TIME_S,
    abort: threading.Event | None = None,
) -> float | None:
    """An upper bound on the mean entry score of any fill of `problem_at` (None if it has no open slot).

    Relaxes "crossing letters agree": each crossing cell gets prices theta[slot, cell, letter]
    with the across and down prices summing to zero, and each slot takes its best word against
    its prices. Any such prices bound the best total from above. The prices are tightened by
    max-sum diffusion (block coordinate descent on one cell at a time: both sides' best values
    per letter are made equal), which never raises the bound; sweeps stop when they gain little,
    at `time_limit_s`, when `abort` is set, or when the bound meets `best_total`.
    """
    open_ids = problem_at.open_slot_ids
    if not open_ids:
        return None
    relaxed = _relaxation(problem_at)
    if relaxed is None:
        return None
    start = time.perf_counter()
    bound = relaxed.total()

    def out_of_time() -> bool:
        return time.perf_counter() - start > time_limit_s or (abort is not None and abort.is_set())

    while not out_of_time():
        for k, (_, a, d) in enumerate(relaxed.cells):
            if k % 32 == 31 and out_of_time():
                break  # a partial sweep still leaves valid prices
            relaxed.balance(a, d)
        now = relaxed.total()
        gained = bound - now
        bound = min(bound, now)
        if gained < 0.05 or (best_total is not None and bound < best_total + 1):
            break
    bound_total = float(np.floor(bound + 1e-6))
    return bound_total / len(open_ids)


def compute_bound(search: _Search, time_limit_s: float) -> None:
    """`search.bound_total` from the Lagrangian bound at the current floor (kept if lower already)."""
    bound = mean_bound(search.best_problem, search.total(search.best), time_limit_s, search.limits.abort)
    if bound is None:
        return
    total = int(round(bound * len(search.problem.open_slot_ids)))
    if search.bound_total is None or total < search.bound_total:
        search.bound_total = total
    search.say(f"{search.elapsed():6.1f} s  bound on the mean at floor {search.floor}: {bound:.2f}")
