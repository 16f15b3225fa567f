"""Fill for quality: the highest floor (minimum entry score) there is, then the fewest entries at it, then the highest mean, with a bound.

The aim is lexicographic (`lex_key`), as constructors judge a fill: one entry at 50 is worse than
any number at 60; at the same floor, fewer entries sitting at it is better, whatever the mean;
only then the mean. Every comparison of two fills, and every CP-SAT objective (the floor's entries
cost RAISE_PENALTY each), follows it; the report gives the floor, how many entries sit at it
(`n_at_min`) and the mean.

1. Floor. A first fill at the problem's own minimum score; then two searches side by side
   (`_FloorProof` in a thread, our compiled search releasing the interpreter lock):
   - the proof asks the next score level up, one level at a time: a fill raises the floor, a
     proof of no fill makes the floor optimal; it runs until it answers or the time is up;
   - the climb bisects the populous levels above the floor with the chosen backend (a fill
     raises the floor to its own minimum; no fill at a level rules out every level above).
     At most FLOOR_SHARE of the time goes to it. (Level by level, Herald 21.10 spent 22 s
     climbing 50..65 one level at a time and ended at 65.)
2. Entries at the floor, then the mean, at the floor reached so far (started over whenever the floor
   rises; a fill with no entry left at the floor raises it):
   - on a small grid (EXACT_MAX_WORDS), CP-SAT over the whole grid with every word, which
     may prove the best total (the search then stops early) and otherwise gives a bound;
   - fresh fills by our search leaning harder on scores (a few seconds);
   - `lift_slots`: our search again, keeping slots above the floor one at a time (a slot stays
     above it when a fill remains), which lowers the count at the floor (then the mean search
     waits for the floor's proof, which comes first, keeping MEAN_RESERVE_S for itself);
   - large-neighbourhood search with CP-SAT: a neighbourhood of crossing slots around a weak
     entry is re-filled with every other slot kept, first lowering its entries at the floor, then
     maximising the total exactly (a better fill is a progress line). Neighbourhoods grow while CP-SAT proves them optimal quickly and
     shrink when it runs out of time. While the floor is unproven and only a few entries sit
     below the next populous level, the objective first lifts them (`_raise_target`): a fill
     with none left below raises the floor.
3. Bound. A Lagrangian relaxation of the crossing constraints at the floor: each slot takes
   its best word against letter prices on its crossing cells, tightened by max-sum diffusion.
   Any prices give a valid upper bound on the total (it also drops "no word twice"); on a small
   grid the lower of it and CP-SAT's bound is reported. The bound holds for every fill at least as
   good on the first two keys (no lower floor, no more entries at it); the mean is proven optimal
   when no such fill has a higher mean (CP-SAT finished, or the bound met with one entry at the floor).
   Measured on Herald 15.01 at floor 90 and 15.02 at floor 80: diffusion settles in about
   1.5 s at 92.12 and 91.91, where 10 s of subgradient steps reach 91.99 and 2 s only 93.6;
   cutting each slot's words scored above the highest level that stays arc-consistent on its
   own (probing with the AC kernel) took 2.5 s and did not move the bound, so it is not done.
   The diffusion bound equals the linear-programming (local polytope) bound on the stock 7x7 at
   floor 90 (91.82, CP-SAT's root bound); branch and bound on it with reduced-cost fixing and
   "no word twice" as an assignment per length (tried, not kept) lowered it to 91.68 in 30 s,
   CP-SAT to 91.36, while the best fill known is 90.68: the relaxation itself is loose.

Issue 25 measured what else could raise the bound or settle the mean (bench/candidates.py, table in
bench/README.md): CP-SAT's bound workers by name (max_lp + lb_tree_search: 91.79 on Herald 15.01 at
floor 90, against the diffusion bound's 92.12 and a best of 90.13), toulbar2 (VAC, HBFS; its dual
bound stays at or above the LP's, no better fill), RC2 over the exact CNF (no answer in 60 s). Above
the floor, scores are rare (at floor 90: 0-3 words of 3-6 letters score higher, 60-200 of each longer
length), so the best mean is a few such words placed together; probing each slot alone with its
higher-scored words (our search, 2 s each) proves 19 of 62 slots cannot take one, which lowers the
LP only to 91.96. The gap is the relaxation's: it places a higher-scored word in every slot that
can take one alone.

The search stops before its limit only when the floor is proven and the mean proven optimal.
Every fill returned has passed `check_fill` (through `backends.fill` or explicitly here).
"""
from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from xwcp.compile.problem import Problem, compile_problem
from xwcp.engine.result import FillResult, FillStats, Limits, Quality, check_fill, entry_scores, measure_quality
from xwcp.base.types import FillStatus, SlotId

NAME = "quality"

DEFAULT_TIME_LIMIT_S = 60.0
"""Time a quality search takes when the caller gives none: it is anytime and stops at the limit."""
FLOOR_SHARE = 0.5
"""Largest share of the time limit the floor climb may use; the rest improves the mean."""
MAJOR_LEVEL_SHARE = 0.01
"""A score level holding at least this share of the words is bisected first; the levels in between
(e.g. 81-89 in the default list, 0.1-0.2% each) are about as hard as the next populous one, so
bisecting over them wasted the floor's time (Herald 21.01, 21.04, 21.05 ended at 75 instead of 80)."""
FLOOR_ATTEMPT_SHARE = 0.6
"""Most of the floor's time one bisection step may take while other levels remain to try."""
CLIMB_BESIDE_PROOF_S = 18.0
"""Most time one floor-climb attempt takes while the proof runs beside it (they share the cores): the
Herald 15 grids with a fill at 90 reached it in 0.1-9 s; on 15.02 an 18 s attempt at 90 and a 10.7 s
one at 82 (levels 81-89 hold 0.1-0.2% of the words each: the proof walks them one by one) delayed
its proof at 81 to 60 s."""
LNS_START_SIZE = 10
"""Slots in the first neighbourhood; 8-14 keeps CP-SAT under a second on 15x15 grids."""
LNS_MIN_SIZE, LNS_MAX_SIZE = 4, 40
HOOD_SLOT_WORDS = 800
"""Words a neighbourhood slot may take (a random sample, plus its current word): bigger domains make
CP-SAT's model take seconds to load (5x5 at floor 90: 2,400 words a slot, 1.7 s for 4 slots)."""
LNS_BUILD_MARGIN_S = 0.3
"""Time kept back from the last step for building its model, so the search ends at the limit."""
LNS_STEP_S = 2.0
"""CP-SAT time per neighbourhood; a neighbourhood that takes longer is shrunk."""
RESTART_SHARE = 0.3
"""Share of the time left after the floor climb spent on fresh fills at the floor, before the neighbourhood search."""
RESTART_SCORE_WEIGHTS = (0.5, 1.0, 0.3)
"""Score weights of the fresh fills (the plain fill uses 0.05): on Herald 15.02 at floor 80, 0.5 gives
means of 87.6-88.1 against 86.3-87.2 at 0.05, each in 0.1-0.6 s."""
RESTART_RUN_S = 3.0
LIFT_TRY_S = 1.5
"""Time our search gets per slot in `lift_slots` (a fill with the slot above the floor, or none)."""
LIFT_SHARE = 0.3
"""Share of the time left that `lift_slots` may use, after the first fresh fills."""
"""Time for one fresh fill; hard floors make some seeds slow."""
BOUND_TIME_S = 5.0
BOUND_RESERVE_SHARE = 0.1
"""Share of the time limit kept for the bound at the end on big grids (up to BOUND_TIME_S): computing it
at each floor the search passed cost 3-7 s each (Herald 21.10 and the Sunday climb several floors)."""
"""Most time given to tightening the bound (it stops earlier when a sweep gains little)."""
RAISE_MAX_BELOW = 10
"""Most entries below the next populous level for the neighbourhood search to try lifting them all."""
RAISE_PENALTY = 10_000
"""Objective cost of an entry at the floor (or below the raise target): more than any total score a
neighbourhood can gain (LNS_MAX_SIZE slots of at most 100 each), so fewer such entries always comes first."""
HOOD_TOP_WORDS = 200
"""Of a neighbourhood slot's HOOD_SLOT_WORDS, this many are its highest-scored words, the rest a random
sample: on Herald 15.01 at floor 90 a slot has 60-200 words above 90 among 2,000-7,500, so a purely
random sample left them out, and with them most of what a better mean is made of."""
QUICK_MEAN_S = 6.0
"""Fresh fills for the mean before the mean search waits for the floor's proof (Herald 15.02 at floor 80:
87.17 -> 88.24 in the first 3.4 s of them, nothing more in the next 30 s)."""
MEAN_WAITS_FOR_PROOF = True
"""After QUICK_MEAN_S of fresh fills the mean search waits for the floor's proof (False: it goes on beside it).
Measured once each (issue 25, 60 s, load 5-7): beside / waiting, Herald 15.02 at 80: 11 / 12 entries at 80,
mean 88.49 / 88.36, floor proven in both; 15.06: the same fill both ways (27 at 80, 86.25, proven); too
little to change what issue 14 measured, so it waits."""
MEAN_RESERVE_S = 12.0
"""Time kept for the mean search however long the floor's proof runs."""
EXACT_MAX_WORDS = 40_000
"""Largest model (words over the open slots' arc-consistent domains at the floor) given to `exact_mean`;
the stock 7x7 at floor 90 has 21,000 (built in 0.7-1.1 s), a Herald 15x15 at floor 80 421,000 (15 s)."""
EXACT_SHARE = 0.5
"""Share of the time left that the exact whole-grid pass may take on a small grid."""
ABORT_POLL_S = 0.02
"""How often a running CP-SAT step looks at the caller's abort event (Stop in the web builder)."""


def lex_key(scores) -> tuple[int, int, int]:
    """(lowest score, -how many entries have it, total) of a fill's entry scores: comparing keys compares
    fills the way constructors do, highest floor first, then fewest entries at the floor, then the mean."""
    scores = list(scores)
    if not scores:
        return (0, 0, 0)
    low = min(scores)
    return (low, -scores.count(low), sum(scores))


def score_levels(problem: Problem) -> list[int]:
    """Distinct scores >= the problem's minimum among words of the open slots' lengths, ascending."""
    lengths = {problem.slots[s].length for s in problem.open_slot_ids}
    levels: set[int] = set()
    for length in lengths:
        scores = np.asarray(problem.words.bucket(length).scores)
        levels.update(int(x) for x in np.unique(scores[scores >= problem.min_score]))
    return sorted(levels)


def populous_levels(problem: Problem) -> list[int]:
    """Score levels >= the problem's minimum holding at least MAJOR_LEVEL_SHARE of its open slots' words."""
    lengths = {problem.slots[s].length for s in problem.open_slot_ids}
    scores = np.concatenate([np.asarray(problem.words.bucket(length).scores) for length in lengths]) \
        if lengths else np.zeros(0, np.int16)
    values, counts = np.unique(scores[scores >= problem.min_score], return_counts=True)
    return [int(v) for v, n in zip(values, counts) if n >= MAJOR_LEVEL_SHARE * max(1, len(scores))]


def at_floor(problem: Problem, floor: int) -> Problem:
    """`problem` recompiled with minimum score `floor` (same grid, list and controls, and no word its
    domains had dropped)."""
    if floor == problem.min_score:
        return problem
    compiled = compile_problem(problem.grid, problem.words, min_score=floor, allow_dupes=problem.allow_dupes,
                               controls=problem.controls)
    # keep words a caller took out of `problem` (diverse fills, shared-substring branches) out at the floor too
    domains = []
    for new, old in zip(compiled.domains, problem.domains):
        mask = new & old
        mask.flags.writeable = False
        domains.append(mask)
    return replace(compiled, domains=tuple(domains))


@dataclass
class _Search:
    """The running state of one quality search."""

    problem: Problem
    backend: str
    limits: Limits
    start: float
    say: Callable[[str], None]
    best: tuple[str, ...] | None = None
    best_problem: Problem | None = None
    floor: int | None = None
    floor_optimal: bool = False
    first_at_floor_s: float | None = None
    final_s: float | None = None
    n_lns: int = 0
    n_improved: int = 0
    bound_total: int | None = None
    n_restarts: int = 0
    is_mean_optimal: bool = False
    reserve_s: float = 0.0
    """Time kept back for computing the bound at the final floor (big grids; small ones compute it first)."""
    raised_by_lns: bool = False
    """The neighbourhood search lifted every entry to a higher level (the mean search starts over there)."""
    no_fill_at: int | None = None
    """Lowest score level proven to have no fill (the floor climb's, for the proof that goes on beside the mean)."""
    proof: _FloorProof | None = None
    lifted_at: int | None = None
    """The floor `lift_slots` last ran at (once per floor)."""

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def remaining(self) -> float:
        """Seconds left for the search, less what is kept for the bound at the end (`reserve_s`)."""
        return self.limits.time_limit_s - self.elapsed() - self.reserve_s

    def stopped(self) -> bool:
        return self.remaining() <= 0 or (self.limits.abort is not None and self.limits.abort.is_set())

    def floor_raised(self) -> bool:
        """The proof beside the mean search found a fill at a higher floor (the mean search starts over there)."""
        return self.proof is not None and self.proof.has_news()

    def total(self, entries) -> int:
        return sum(entry_scores(self.problem, entries))

    def key(self, entries) -> tuple[int, int, int]:
        """The lexicographic aim: (floor, -entries at it, total); a larger key is a better fill."""
        return lex_key(entry_scores(self.problem, entries))

    def is_settled(self) -> bool:
        """The best fill is lexicographically best at this floor by the bound: its total meets the bound on
        every fill at the floor and only one entry sits at the floor (every fill whose lowest entry is the
        floor has at least one there; fills with none there have a higher floor, the proof's business)."""
        return (self.bound_total is not None and self.total(self.best) >= self.bound_total
                and self.n_at_floor(self.best) <= 1)

    def n_at_floor(self, entries) -> int:
        """Entries of `entries` at (or below) the current floor."""
        return sum(score <= self.floor for score in entry_scores(self.problem, entries))

    def accept(self, problem_at: Problem, entries, what: str) -> None:
        self.best, self.best_problem = tuple(entries), problem_at
        self.final_s = self.elapsed()
        q = measure_quality(self.problem, entries)
        self.say(f"{self.elapsed():6.1f} s  {what}: min {q.min_score} ({q.n_at_min} at it), mean {q.mean_score:.2f}")


def _fill_at(search: _Search, problem: Problem, time_limit_s: float, backend: str | None = None,
             abort: threading.Event | None = None) -> FillResult:
    from xwcp.backends import fill

    limits = replace(search.limits, time_limit_s=max(0.01, time_limit_s), count=None, progress=None)
    if abort is not None:
        limits = replace(limits, abort=abort)
    return fill(problem, backend or search.backend, limits)


class _FloorProof:
    """The floor's last question, asked in a thread beside the mean search: is there a fill at the next
    score level up? A fill raises the floor (and the next level is asked); a proof of none makes the
    floor optimal; the time limit leaves it unproven.

    It runs our compiled search (`backtrack`): its proofs of "no fill at 81" on Herald 15.02/15.04/15.06
    took 16-49 s, where `auto` took 31 s on 15.02 and `sat` found none in 40 s (load 3.5-4.4; the
    auto race and sat's workers split the two cores the proof needs). The search releases the
    interpreter lock in its C slices, so the mean search goes on at the same time.
    """

    PROOF_BACKENDS = {"auto": "backtrack"}
    """The backend the proof uses for the user's choice (our search instead of the auto race)."""

    def __init__(self, search: _Search, levels: list[int]):
        self.search = search
        self.levels = levels
        self.floor = search.floor
        self.no_fill_at = search.no_fill_at
        self.stop = threading.Event()
        self.attempt_abort = threading.Event()
        self.lock = threading.Lock()
        self.raised: tuple[int, tuple[str, ...], Problem, float] | None = None
        """The newest higher floor: (floor, its fill, the problem at it, seconds when found); taken by `take`."""
        self.is_proven = False
        self.proven = threading.Event()
        """Set with `is_proven` (it stops the floor climb's running attempt)."""
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="xwcp-floor-proof", daemon=True)

    def start(self) -> _FloorProof:
        self.thread.start()
        return self

    def _run(self) -> None:
        search = self.search
        backend = self.PROOF_BACKENDS.get(search.backend, search.backend)
        try:
            while not self.stop.is_set() and not search.stopped():
                self.attempt_abort = threading.Event()  # before reading the floor: a lift after it aborts the attempt
                self.floor = max(self.floor, search.floor)  # the neighbourhood search may have lifted it
                if search.no_fill_at is not None:  # what the floor climb proved meanwhile
                    self.no_fill_at = min(search.no_fill_at, self.no_fill_at or search.no_fill_at)
                higher = [level for level in self.levels if level > self.floor]
                if not higher or (self.no_fill_at is not None and higher[0] >= self.no_fill_at):
                    self.is_proven = True
                    self.proven.set()
                    return
                level = higher[0]
                problem_at = at_floor(search.problem, level)
                if self.stop.is_set():
                    return
                result = _fill_at(search, problem_at, search.remaining() + search.reserve_s, backend,
                                  _Either(self.attempt_abort, search.limits.abort or _stop_signal()))
                if result.status is FillStatus.FILLED:
                    quality = measure_quality(search.problem, result.entries)
                    self.floor = max(level, quality.min_score)
                    with self.lock:
                        self.raised = (self.floor, tuple(result.entries), problem_at, search.elapsed())
                elif result.status is FillStatus.UNFILLABLE:
                    self.no_fill_at = level
                elif result.status is not FillStatus.ABORTED or self.stop.is_set():
                    return  # the time limit, or the end: an aborted attempt otherwise asks again (floor_moved)
        finally:
            self.done.set()

    def take(self) -> tuple[int, tuple[str, ...], Problem, float] | None:
        """The higher floor found since the last call, if any."""
        with self.lock:
            raised, self.raised = self.raised, None
        return raised

    def has_news(self) -> bool:
        return self.raised is not None

    def floor_moved(self) -> None:
        """The mean search lifted the floor: drop the running attempt and ask above the new floor."""
        self.attempt_abort.set()

    def finish(self) -> None:
        self.stop.set()
        self.attempt_abort.set()
        self.thread.join()


def climb_floor(search: _Search) -> None:
    """Raise the floor by bisecting the populous score levels above it, until the next level up is
    proven to have no fill (the floor is then optimal), or FLOOR_SHARE of the time is spent.

    A fill at a level raises the floor to the fill's own minimum; a proof of no fill at a level
    rules out it and every level above; a level that reaches its time is left, and the levels
    below it are tried. Each attempt may use at most FLOOR_ATTEMPT_SHARE of the floor's time
    unless it is the last level that could still prove the floor. When `search.proof` runs beside
    (it asks the next level up, with our compiled search), the climb leaves that level to it, takes
    its higher floors, and stops as soon as it proves the floor; the proof goes on after the climb.
    """
    levels = score_levels(search.problem)
    major_levels = set(populous_levels(search.problem))
    floor_deadline = search.limits.time_limit_s * FLOOR_SHARE
    proof = search.proof
    no_fill_at = None  # lowest level proven to have no fill
    unknown_at = None  # lowest level that reached its time
    while True:
        if proof is not None:
            raised = proof.take()
            if raised is not None and raised[0] > search.floor:
                search.floor, entries, problem_at, search.first_at_floor_s = raised
                search.accept(problem_at, entries, f"floor {search.floor} (next level up)")
            if proof.is_proven and proof.floor == search.floor:
                return  # fill_quality reports it
        higher = [level for level in levels if level > search.floor]
        if not higher:
            search.floor_optimal = True  # no score level above the fill's minimum exists
            return
        if no_fill_at is not None and higher[0] >= no_fill_at:
            search.floor_optimal = True
            search.say(f"{search.elapsed():6.1f} s  no fill at {higher[0]}: floor {search.floor} is the highest possible")
            return
        open_levels = [level for level in higher if (no_fill_at is None or level < no_fill_at)
                       and (unknown_at is None or level < unknown_at)
                       and (proof is None or proof.done.is_set() or (level > higher[0] and level in major_levels))]
        budget = floor_deadline - search.elapsed()
        if not open_levels or budget <= 0.05 or search.stopped():
            if proof is None or proof.done.is_set():
                search.say(f"{search.elapsed():6.1f} s  no answer at {higher[0]} within the floor's time: "
                           f"floor {search.floor} unproven")
            return
        major = [level for level in open_levels if level in major_levels]
        level = major[(len(major) - 1) // 2] if major else open_levels[0]
        if len(open_levels) > 1:
            budget = min(budget, FLOOR_ATTEMPT_SHARE * search.limits.time_limit_s * FLOOR_SHARE)
        if proof is not None and not proof.done.is_set():
            budget = min(budget, CLIMB_BESIDE_PROOF_S)
        problem_at = at_floor(search.problem, level)
        abort = None if proof is None else _Either(search.limits.abort or _stop_signal(), proof.proven)
        result = _fill_at(search, problem_at, min(budget, search.remaining()), abort=abort)
        if result.status is FillStatus.FILLED:
            quality = measure_quality(search.problem, result.entries)
            if max(level, quality.min_score) > search.floor:
                search.floor = max(level, quality.min_score)
                search.first_at_floor_s = search.elapsed()
                search.accept(problem_at, result.entries, f"floor {search.floor}")
                if proof is not None:
                    proof.floor_moved()
        elif result.status is FillStatus.UNFILLABLE:
            no_fill_at = level if no_fill_at is None else min(no_fill_at, level)
            search.no_fill_at = no_fill_at
            search.say(f"{search.elapsed():6.1f} s  no fill at {level} (proven)")
        elif result.status is FillStatus.ABORTED and proof is not None and proof.proven.is_set() \
                and not search.stopped():
            continue
        else:
            unknown_at = level if unknown_at is None else min(unknown_at, level)
            search.say(f"{search.elapsed():6.1f} s  no answer at {level} within {result.stats.wall_time_s:.1f} s")


class _Either:
    """An abort event set when any of several is (backends only ask `is_set()`)."""

    def __init__(self, *events):
        self.events = [e for e in events if e is not None]

    def is_set(self) -> bool:
        return any(e.is_set() for e in self.events)


def _stop_signal() -> threading.Event:
    from xwcp.runtime.signals import STOP

    return STOP


# ----- the mean: large-neighbourhood search with CP-SAT ------------------------------------------

def _neighbourhood(problem: Problem, entries, size: int, rng: random.Random) -> list[SlotId]:
    """About `size` open slots grown breadth-first over crossings from a weak entry (random among the weakest)."""
    open_ids = problem.open_slot_ids
    open_set = set(open_ids)
    scores = {s: problem.words.score(entries[s]) or 0 for s in open_ids}
    weakest = sorted(open_ids, key=lambda s: (scores[s], rng.random()))
    center = weakest[rng.randrange(min(len(weakest), max(3, len(weakest) // 4)))] if rng.random() < 0.7 \
        else rng.choice(open_ids)
    chosen = [center]
    seen = {center}
    frontier = [center]
    while frontier and len(chosen) < size:
        nxt = []
        rng.shuffle(frontier)
        for slot_id in frontier:
            for t in problem.cross_slot[slot_id]:
                if t >= 0 and t in open_set and t not in seen:
                    seen.add(t)
                    nxt.append(t)
        rng.shuffle(nxt)
        for t in nxt:
            if len(chosen) < size:
                chosen.append(t)
        frontier = nxt
    return chosen


def _hood_domains(problem: Problem, domains, entries, hood: list[SlotId],
                  rng: np.random.Generator) -> tuple[dict[SlotId, np.ndarray] | None, bool]:
    """Word ids each slot of `hood` may take with every other slot kept: letters crossing kept slots
    agree, and (without duplicates) no word used by a kept slot. None when a slot has no word.
    The flag says whether some slot's words were cut to a sample (HOOD_SLOT_WORDS)."""
    words = problem.words
    hood_set = set(hood)
    used_outside: dict[int, set[int]] = {}
    if not problem.allow_dupes:
        for slot in problem.slots:
            if slot.id not in hood_set and slot.id not in problem.skipped_slot_ids:
                word_id = words.word_id(entries[slot.id])
                if word_id is not None:
                    used_outside.setdefault(slot.length, set()).add(word_id)
    ids_by_slot = {}
    is_sampled = False
    for slot_id in hood:
        slot = problem.slots[slot_id]
        bucket = words.bucket(slot.length)
        mask = np.asarray(domains[slot_id], bool).copy()
        for pos in range(slot.length):
            t = problem.cross_slot[slot_id][pos]
            if t >= 0 and t not in hood_set and t not in problem.skipped_slot_ids:
                mask &= bucket.letters[:, pos] == ord(entries[t][problem.cross_pos[slot_id][pos]]) - 65
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
            keep = np.concatenate([ids[order[:HOOD_TOP_WORDS]],
                                   rng.choice(ids[order[HOOD_TOP_WORDS:]], HOOD_SLOT_WORDS - HOOD_TOP_WORDS,
                                              replace=False)])
            current = words.word_id(entries[slot_id])
            ids = np.union1d(keep, [current] if current is not None and mask[current] else [])
            ids = ids.astype(np.int64)
        ids_by_slot[slot_id] = ids
    return ids_by_slot, is_sampled


def _solve(solver, cp, abort: threading.Event | None):
    """`solver.solve(cp)`, stopped by `solver.stop_search()` from a watcher thread as soon as `abort` is set."""
    if abort is None:
        return solver.solve(cp)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(ABORT_POLL_S):
            if abort.is_set():
                solver.stop_search()  # again each poll: a stop before the solve started must still stop it

    watcher = threading.Thread(target=watch, name="xwcp-quality-watcher", daemon=True)
    watcher.start()
    try:
        return solver.solve(cp)
    finally:
        done.set()
        watcher.join()


def _refill_neighbourhood(problem_at: Problem, domains, entries, hood: list[SlotId], time_limit_s: float,
                          seed: int, abort: threading.Event | None = None,
                          target: int | None = None) -> tuple[list[str] | None, bool, bool]:
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
    words = problem.words
    ids_by_slot, is_sampled = _hood_domains(problem, domains, entries, hood, np.random.default_rng(seed))
    if ids_by_slot is None:
        return None, False, False
    hood_set = set(hood)
    cp = cp_model.CpModel()
    index_by_slot, score_vars = {}, []
    wid_by_length: dict[int, list] = {}
    letter_by_cell: dict[int, object] = {}
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
            t = problem.cross_slot[slot_id][pos]
            if t < 0 or t not in hood_set:
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
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.05, time_limit_s)
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = seed
    # CP-SAT's own Ctrl-C handler is left behind as the default action after a solve: a later Ctrl-C
    # would kill the process (exit -2) without the best fill printed; ours (xwcp.runtime.signals) stops it
    solver.parameters.catch_sigint_signal = False
    status = _solve(solver, cp, abort)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, status == cp_model.INFEASIBLE, is_sampled
    out = list(entries)
    for slot_id in hood:
        bucket = words.bucket(problem.slots[slot_id].length)
        out[slot_id] = bucket.text(int(ids_by_slot[slot_id][solver.value(index_by_slot[slot_id])]))
    return out, status == cp_model.OPTIMAL, is_sampled


def lift_slots(search: _Search, deadline_s: float) -> None:
    """Fewer entries at the floor, slot by slot, with our fast search (the second key of the aim).

    The slots the best fill already has above the floor are kept above it; then each other slot in
    turn (the one with the most words above the floor first) is restricted to them, on top of what
    is kept, and `backtrack` fills the restricted grid (LIFT_TRY_S, score weight as the fresh
    fills'); a fill keeps the slot's restriction and is taken when its key is better, no fill drops
    it. Ordered by highest-scored word first, its first tries timed out (long slots); started from
    no kept slots, it lifted nothing on Herald 15.01 and 15.02 (bench/README.md, issue 25). At floor 90 few words score higher (0-3 per length up to 6 letters), so these are
    the entries a better mean is made of: on Herald 15.01 this greedy (4 s a slot) kept 3 slots
    above 90 in 17 s, mean 90.31, where the neighbourhood search had reached 90.13 in 60 s.
    """
    from xwcp.engine.ac3 import propagate
    from xwcp.backends import backtrack

    if search.lifted_at == search.floor:
        return
    search.lifted_at = search.floor
    problem_at = search.best_problem
    prop = propagate(problem_at)
    if not prop.is_consistent:
        return
    floor = search.floor
    masks = [np.asarray(domain, bool) for domain in problem_at.domains]
    above_by_slot, order = {}, []
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
    best_key = search.key(search.best)
    for run, (_, slot_id) in enumerate(order):
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
        limits = Limits(time_limit_s=budget, seed=search.limits.seed + 2000 + run, abort=search.limits.abort,
                        extra={"score_weight": RESTART_SCORE_WEIGHTS[0]})
        result = backtrack.fill(replace(problem_at, domains=tuple(frozen)), limits)
        if result.status is not FillStatus.FILLED:
            continue
        masks = trial
        key = search.key(result.entries)
        if key > best_key and not check_fill(problem_at, result.entries):
            best_key = key
            search.n_improved += 1
            search.accept(problem_at, result.entries, f"better fill ({search.problem.slots[slot_id].name} lifted)")


def restart_for_mean(search: _Search, deadline_s: float) -> None:
    """Fresh fills at the floor by our fast search leaning harder on scores; keeps the best."""
    from xwcp.backends import backtrack

    problem_at = search.best_problem
    best_key = search.key(search.best)
    run = 0
    while search.elapsed() < deadline_s and not search.stopped() and not search.floor_raised():
        if search.is_settled():
            return
        weight = RESTART_SCORE_WEIGHTS[run % len(RESTART_SCORE_WEIGHTS)]
        budget = min(RESTART_RUN_S, deadline_s - search.elapsed(), search.remaining())
        limits = Limits(time_limit_s=max(0.01, budget), seed=search.limits.seed + 1000 + run,
                        abort=search.limits.abort, extra={"score_weight": weight})
        run += 1
        search.n_restarts += 1
        result = backtrack.fill(problem_at, limits)
        if result.status is not FillStatus.FILLED:
            if result.status is FillStatus.UNFILLABLE:
                return
            continue
        key = search.key(result.entries)
        if key > best_key and not check_fill(problem_at, result.entries):
            best_key = key
            search.n_improved += 1
            search.accept(problem_at, result.entries, f"better fill (fresh search, score weight {weight:g})")


def exact_mean(search: _Search, time_limit_s: float) -> None:
    """CP-SAT over every open slot at once with every arc-consistent word at the floor (no sample),
    maximising the total, with the best fill as hint: a better fill, a bound on the total (CP-SAT's
    objective bound), and, when it finishes, the proof that its fill is the best there is.

    The model is the cpsat backend's clause model (`cpsat._build_model`) with the scores as the
    objective; it ignores `--max-shared-substring`, so it is a relaxation then: its bound stays
    valid, and its best fill counts only if it passes `check_fill`.
    """
    from ortools.sat.python import cp_model

    from xwcp.engine.ac3 import propagate
    from xwcp.backends import cpsat
    from xwcp.backends._common import entries_from_word_ids
    from xwcp.backends._shortlist import Shortlists

    problem_at = search.best_problem
    prop = propagate(problem_at)
    if not prop.is_consistent:
        return
    open_ids = problem_at.open_slot_ids
    word_ids = {s: np.flatnonzero(prop.domains[s]).astype(np.int32) for s in open_ids}
    deadline = search.elapsed() + time_limit_s
    model = cpsat._build_model(problem_at, Shortlists(word_ids, True, True),
                               stop=lambda: search.elapsed() > deadline or search.stopped())
    if model is None:
        return
    objective = []
    for slot_id in open_ids:
        scores = np.asarray(problem_at.words.bucket(problem_at.slots[slot_id].length).scores[word_ids[slot_id]],
                            np.int64)
        scores = np.where(scores <= search.floor, scores - RAISE_PENALTY, scores)  # fewest at the floor first
        xs = model.xs_by_slot[slot_id]
        objective.extend(int(c) * x for c, x in zip(scores.tolist(), xs) if c)
        current = problem_at.words.word_id(search.best[slot_id])
        where = np.flatnonzero(word_ids[slot_id] == current)
        if len(where):
            model.cp.add_hint(xs[int(where[0])], True)
    model.cp.maximize(sum(objective))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.05, deadline - search.elapsed())
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = search.limits.seed
    for name, value in cpsat.NATIVE_DEFAULTS.items():
        setattr(solver.parameters, name, value)
    status = _solve(solver, model.cp, search.limits.abort)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return
    entries = entries_from_word_ids(problem_at, model.decode(solver.boolean_value))
    is_valid = not check_fill(problem_at, entries)
    if is_valid and search.key(entries) > search.key(search.best):
        search.n_improved += 1
        search.accept(problem_at, entries, "better fill (CP-SAT over the whole grid)")
    # the objective is total - RAISE_PENALTY x (entries at the floor): every fill with no more entries there
    # than the best one has a total of at most the objective's bound plus the penalty of the best's count
    cp_bound = int(np.floor(solver.best_objective_bound + 1e-6)) + RAISE_PENALTY * search.n_at_floor(search.best)
    if search.bound_total is None or cp_bound < search.bound_total:
        search.bound_total = cp_bound
        search.say(f"{search.elapsed():6.1f} s  bound on the mean at floor {search.floor} (CP-SAT): "
                   f"{cp_bound / len(open_ids):.2f}")
    if status == cp_model.OPTIMAL and is_valid:
        search.is_mean_optimal = True
        search.bound_total = search.total(search.best)
        search.say(f"{search.elapsed():6.1f} s  mean proven optimal at floor {search.floor}")


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

    With a raise target (`_raise_target`) each neighbourhood maximises the total less RAISE_PENALTY per
    entry below the target; a fill with none below it raises the floor (`search.raised_by_lns`) and
    the search returns, to start over at the new floor.
    """
    from xwcp.engine.ac3 import propagate

    problem_at = search.best_problem
    prop = propagate(problem_at)
    if not prop.is_consistent:
        return
    domains = prop.domains
    rng = random.Random(search.limits.seed)
    size = min(LNS_START_SIZE, len(problem_at.open_slot_ids))
    target = _raise_target(search)
    below = target if target is not None else search.floor + 1  # the lexicographic aim: fewest at the floor

    def value(entries) -> int:
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
        entries, proven, is_sampled = _refill_neighbourhood(problem_at, domains, search.best, hood, step_s,
                                                            rng.randrange(1 << 30), search.limits.abort, below)
        took = time.perf_counter() - t0
        search.n_lns += 1
        if entries is not None:
            new_value = value(entries)
            if new_value > best_value and not check_fill(problem_at, entries):
                best_value = new_value
                search.n_improved += 1
                search.accept(problem_at, entries, f"better fill ({len(hood)}-slot neighbourhood)")
                low = min(entry_scores(search.problem, entries))
                if low > search.floor:  # no entry left at the floor (or below the raise target): it rises
                    search.floor, search.first_at_floor_s = low, search.elapsed()
                    search.raised_by_lns = True
                    if search.proof is not None:
                        search.proof.floor_moved()
                    search.say(f"{search.elapsed():6.1f} s  floor {low} (neighbourhood search)")
                    return
        if proven and not is_sampled and len(hood) == n_open and target is None \
                and problem_at.controls.max_shared_substring is None:
            search.is_mean_optimal = True  # CP-SAT proved the best (fewest at the floor, then total) at once
            search.bound_total = search.total(search.best)
            search.say(f"{search.elapsed():6.1f} s  mean proven optimal at floor {search.floor}")
            return
        if proven and took < step_s / 4:
            size = min(LNS_MAX_SIZE, n_open, size + 1)
        elif not proven:
            size = max(LNS_MIN_SIZE, size - 2)


# ----- the bound: Lagrangian relaxation of the crossings -----------------------------------------

_IMPOSSIBLE = -1e6
"""Value of a letter one side of a crossing cannot take (finite, so differences stay finite)."""


def mean_bound(problem_at: Problem, best_total: int | None = None,
               time_limit_s: float = BOUND_TIME_S, abort: threading.Event | None = None) -> float | None:
    """An upper bound on the mean entry score of any fill of `problem_at` (None if it has no open slot).

    Relaxes "crossing letters agree": each crossing cell gets prices theta[slot, cell, letter]
    with the across and down prices summing to zero, and each slot takes its best word against
    its prices. Any such prices bound the best total from above. The prices are tightened by
    max-sum diffusion (block coordinate descent on one cell at a time: both sides' best values
    per letter are made equal), which never raises the bound; sweeps stop when they gain little,
    at `time_limit_s`, when `abort` is set, or when the bound meets `best_total`.
    """
    from xwcp.engine.ac3 import propagate

    open_ids = problem_at.open_slot_ids
    if not open_ids:
        return None
    prop = propagate(problem_at)
    if not prop.is_consistent:
        return None
    open_set = set(open_ids)
    values: dict[SlotId, np.ndarray] = {}
    groups: dict[tuple[SlotId, int], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
    cells: list[tuple[int, tuple[SlotId, int], tuple[SlotId, int]]] = []
    for slot_id in open_ids:
        slot = problem_at.slots[slot_id]
        bucket = problem_at.words.bucket(slot.length)
        ids = np.flatnonzero(prop.domains[slot_id])
        values[slot_id] = np.asarray(bucket.scores[ids], np.float64)
        letters = bucket.letters[ids]
        for pos, cell in enumerate(slot.cells):
            t = problem_at.cross_slot[slot_id][pos]
            if t < 0 or t not in open_set:
                continue
            column = letters[:, pos].astype(np.intp)
            perm = np.argsort(column, kind="stable")
            present = np.unique(column)
            starts = np.searchsorted(column[perm], present)
            groups[(slot_id, pos)] = (column, perm, present, starts)
            if slot.direction.letter == "A":
                cells.append((cell, (slot_id, pos), (t, problem_at.cross_pos[slot_id][pos])))
    theta = {key: np.zeros(26) for key in groups}

    def best_by_letter(key) -> np.ndarray:
        column, perm, present, starts = groups[key]
        without = values[key[0]] - theta[key][column]
        out = np.full(26, _IMPOSSIBLE)
        out[present] = np.maximum.reduceat(without[perm], starts)
        return out

    def total() -> float:
        return float(sum(v.max() for v in values.values()))

    start = time.perf_counter()
    bound = total()

    def out_of_time() -> bool:
        return time.perf_counter() - start > time_limit_s or (abort is not None and abort.is_set())

    while not out_of_time():
        for k, (_, a, d) in enumerate(cells):
            if k % 32 == 31 and out_of_time():
                break  # a partial sweep still leaves valid prices
            m_a, m_d = best_by_letter(a), best_by_letter(d)
            new_a = (m_d - m_a) / 2
            for key, new in ((a, new_a), (d, -new_a)):
                column = groups[key][0]
                values[key[0]] += (new - theta[key])[column]
                theta[key] = new
        now = total()
        gained = bound - now
        bound = min(bound, now)
        if gained < 0.05 or (best_total is not None and bound < best_total + 1):
            break
    bound_total = float(np.floor(bound + 1e-6))
    return bound_total / len(open_ids)


# ----- the whole search ----------------------------------------------------------------------------

def _domain_words(problem: Problem) -> int:
    """Words left in the open slots' arc-consistent domains (the size of an exact model)."""
    from xwcp.engine.ac3 import propagate

    prop = propagate(problem)
    return sum(int(prop.domains[s].sum()) for s in problem.open_slot_ids) if prop.is_consistent else 0


def _compute_bound(search: _Search, time_limit_s: float) -> None:
    """`search.bound_total` from the Lagrangian bound at the current floor (kept if lower already)."""
    bound = mean_bound(search.best_problem, search.total(search.best), time_limit_s, search.limits.abort)
    if bound is None:
        return
    total = int(round(bound * len(search.problem.open_slot_ids)))
    if search.bound_total is None or total < search.bound_total:
        search.bound_total = total
    search.say(f"{search.elapsed():6.1f} s  bound on the mean at floor {search.floor}: {bound:.2f}")


def _mean_at_floor(search: _Search, has_cpsat: bool) -> None:
    """Raise the mean at the current floor until the time is up, the mean is proven optimal, or the
    proof beside it raises the floor: the bound, an exact whole-grid pass when the grid is small,
    fresh fills, then neighbourhood search."""
    problem = search.problem
    search.best_problem = at_floor(problem, search.floor)  # the mean search must not go below the floor
    search.is_mean_optimal = False
    search.bound_total = None
    is_small = _domain_words(search.best_problem) <= EXACT_MAX_WORDS
    if is_small:  # the bound first, to stop as soon as a fill meets it; big grids get it at the end
        _compute_bound(search, min(BOUND_TIME_S, max(0.1, search.remaining() / 4)))
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
    if search.proof is not None and not search.proof.done.is_set() and MEAN_WAITS_FOR_PROOF:
        # the floor comes first: a few seconds of fresh fills (most of what they gain), then the proof
        # beside has the cores to itself until only MEAN_RESERVE_S are left
        restart_for_mean(search, search.elapsed() + min(QUICK_MEAN_S, RESTART_SHARE * max(0.0, search.remaining())))
        lift_slots(search, search.elapsed() + LIFT_SHARE * max(0.0, search.remaining()))
        while search.remaining() > MEAN_RESERVE_S and not search.stopped() and not search.floor_raised() \
                and not search.proof.done.wait(ABORT_POLL_S):
            pass
        if search.floor_raised() or search.stopped():
            return
    restart_for_mean(search, search.elapsed() + min(QUICK_MEAN_S, RESTART_SHARE * max(0.0, search.remaining()))
                     if has_cpsat else search.limits.time_limit_s)
    if not search.floor_raised():
        lift_slots(search, search.elapsed() + LIFT_SHARE * max(0.0, search.remaining()))
    if has_cpsat:
        improve_mean(search)


def fill_quality(problem: Problem, backend: str = "auto", limits: Limits | None = None,
                 say: Callable[[str], None] | None = None) -> tuple[FillResult, Quality | None]:
    """The best fill found within the time limit: highest floor, then fewest entries at it, then highest mean,
    with a bound.

    It stops before the limit only when both are settled: the floor proven optimal and the mean
    proven optimal at it (the bound met, or CP-SAT finished over the whole grid).

    Args:
        problem: the problem at the lowest score allowed (its `min_score`).
        backend: the fast search used for each floor level.
        limits: `time_limit_s` (default DEFAULT_TIME_LIMIT_S), `seed`, `abort`.
        say: called with a progress line (a better fill, a floor proven) as the search goes.

    Returns:
        (result, quality): FILLED with the best fill and its Quality; otherwise the first
        attempt's result (UNFILLABLE, LIMIT) and None.
    """
    limits = limits or Limits()
    if limits.time_limit_s is None:
        limits = replace(limits, time_limit_s=DEFAULT_TIME_LIMIT_S)
    search = _Search(problem, backend, limits, time.perf_counter(), say or (lambda line: None))
    first = _fill_at(search, problem, limits.time_limit_s)
    if first.status is not FillStatus.FILLED:
        return first, None
    first_quality = measure_quality(problem, first.entries)
    search.floor = first_quality.min_score if first_quality.min_score is not None else problem.min_score
    search.first_at_floor_s = search.elapsed()
    search.accept(problem, first.entries, "first fill")
    first_mean = first_quality.mean_score
    bound = None
    if problem.open_slot_ids:
        try:
            from ortools.sat.python import cp_model  # noqa: F401
            has_cpsat = True
        except ImportError:
            has_cpsat = False
        if _domain_words(problem) > EXACT_MAX_WORDS:
            search.reserve_s = min(BOUND_TIME_S, BOUND_RESERVE_SHARE * limits.time_limit_s)
        if any(level > search.floor for level in score_levels(problem)):
            search.proof = _FloorProof(search, score_levels(problem)).start()
        try:
            climb_floor(search)
            if search.floor_optimal and search.proof is not None:
                search.proof.finish()  # the climb proved it: the question beside is moot
            while True:
                _mean_at_floor(search, has_cpsat)
                if search.proof is not None and search.is_mean_optimal and not search.stopped():
                    while not search.proof.done.wait(ABORT_POLL_S) and not search.stopped():
                        pass  # the mean is settled at this floor: only the floor's proof is left
                raised = search.proof.take() if search.proof is not None else None
                is_moved, search.raised_by_lns = search.raised_by_lns, False
                if raised is not None and raised[0] > search.floor:
                    search.floor, entries, problem_at, search.first_at_floor_s = raised
                    search.accept(problem_at, entries, f"floor {search.floor} (beside the mean search)")
                    is_moved = True
                if search.stopped():
                    break
                if not is_moved and (raised is None or search.is_mean_optimal):
                    break  # a fill at a floor reached already only interrupted the mean search: go on
        finally:
            if search.proof is not None:
                search.proof.finish()
        if search.proof is not None and search.proof.is_proven and search.proof.floor == search.floor:
            search.floor_optimal = True
            search.say(f"{search.elapsed():6.1f} s  no fill above floor {search.floor}: it is the highest possible")
        search.reserve_s = 0.0
        if search.bound_total is None and search.best_problem is not None and search.floor is not None:
            search.best_problem = at_floor(problem, search.floor)
            _compute_bound(search, min(BOUND_TIME_S, max(0.1, search.remaining())))
        if search.bound_total is not None:
            bound = search.bound_total / len(problem.open_slot_ids)
    violations = check_fill(search.best_problem, search.best)
    if violations:
        raise RuntimeError(f"quality search produced an invalid fill: {'; '.join(violations[:3])}")
    if search.is_mean_optimal:
        bound = search.total(search.best) / len(problem.open_slot_ids)
    quality = measure_quality(problem, search.best, floor_optimal=search.floor_optimal, mean_bound=bound)
    extra = {**dict(first.stats.extra), "floor": search.floor, "first_mean": round(first_mean, 2)
             if first_mean is not None else None,
             "first_at_floor_s": round(search.first_at_floor_s or 0.0, 3),
             "final_fill_s": round(search.final_s or 0.0, 3), "lns_steps": search.n_lns, "fresh_fills": search.n_restarts,
             "lns_improvements": search.n_improved, "mean_optimal": search.is_mean_optimal,
             "stopped_early": search.floor_optimal and search.is_mean_optimal and search.elapsed() < limits.time_limit_s}
    stats = FillStats(search.elapsed(), first.stats.nodes, first.stats.backtracks, first.stats.restarts, extra)
    return FillResult(FillStatus.FILLED, first.backend, stats, (search.best,), 1, qualities=(quality,)), quality
