"""The floor of the quality search: the first fill, the climb (the plain ladder, then bisecting the score levels above it), and the proof of the next level up beside the mean search."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace

from xwcp.base.types import FillStatus
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, FloorOutcome, measure_quality
from xwcp.search.quality.aim import at_floor, populous_levels, score_levels
from xwcp.search.quality.state import RaisedFloor, _Run, _Search
from xwcp.search.quality.stopping import EitherEvent, stop_signal

FLOOR_SHARE = 0.5
"""Largest share of the time limit the floor climb may use; the rest improves the mean."""
FLOOR_ATTEMPT_SHARE = 0.6
"""Most of the floor's time one bisection step may take while other levels remain to try."""
CLIMB_BESIDE_PROOF_S = 18.0
"""Most time one floor-climb attempt takes while the proof runs beside it (they share the cores): the
Herald 15 grids with a fill at 90 reached it in 0.1-9 s; on 15.02 an 18 s attempt at 90 and a 10.7 s
one at 82 (levels 81-89 hold 0.1-0.2% of the words each: the proof walks them one by one) delayed
its proof at 81 to 60 s."""


LADDER_STEP = 5
"""The floor climb first walks up the score levels LADDER_STEP apart, as a constructor's plain `--min-score`
ladder does (on a 15x15 daily the bisection and the proof ended at floor 80 in 60 s where one
plain fill at 85 took 12 s; the levels 81-89 hold 0.1-0.2% of the words each, so the climb skipped 85 and
the proof walked 81, 82, ... one at a time)."""
LADDER_TRY_S = ((3.0, 0, True),)
"""(time cap, seed offset, levels above a slow one too) of the ladder's first rounds: quick levels are reached
without waiting on a slow one. The first is the plain fill's own search (offset 0: Herald 21.03 filled at 90
with the caller's seed where two other seeds took 2 s and 6 s without a fill) and goes on above a level
that takes its cap (a plain fill may be quicker a level higher: 21.03 filled at 90 in 2.3 s, at 85 in 28.8 s).
A second round of 6 s with another seed at the lowest level left filled nothing on the 20 Herald grids
(60 s, load 4-7) and cost 6 s where the next level is out of reach (15.02, 15.04, 15.06, 15.07, 15.10, 21.01,
21.04, 21.06), so there is none."""
LADDER_LAST_S = 25.0
"""Time cap of the ladder's last round, with the caller's seed at the lowest level left: the plain fill's own
search, so a level a plain `--min-score` fill reaches in 20 s is reached (with the proof beside sharing the cores)."""
LADDER_SHARE = 0.5
"""Share of the time limit after which the ladder starts no try (the old bisection's FLOOR_SHARE)."""
LADDER_END_SHARE = 0.8
"""Share of the time limit by which the ladder's last try ends (the rest is the mean's): a try started just
before LADDER_SHARE still gets most of its cap (Herald 21.10: plain fills at 60-80 take 3.4-16 s each)."""
LADDER_ABOVE_SLOW = 1
"""Levels the first round tries above a level that took its cap before it ends (a level higher may be quicker,
as on Herald 21.03; each more costs the round's cap on grids where none fills: 21.10 takes 3-16 s at every level)."""


def _fill_at(
    run: _Run,
    problem: Problem,
    time_limit_s: float,
    backend: str | None = None,
    abort: threading.Event | None = None,
    seed: int | None = None,
) -> FillResult:
    """One fill of `problem` (the search's problem at some floor) by `backend` (default the search's), one fill
    wanted, no progress, within `time_limit_s`; `abort` replaces the caller's abort event, `seed` the caller's seed."""
    from xwcp.backends import fill

    limits = replace(run.limits, time_limit_s=max(0.01, time_limit_s), count=None, progress=None)
    if abort is not None:
        limits = replace(limits, abort=abort)
    if seed is not None:
        limits = replace(limits, seed=seed)
    return fill(problem, backend or run.backend, limits)


def first_fill(run: _Run) -> FillResult:
    """A fill at the problem's own minimum score, within the whole time limit: the floor starts at its lowest entry."""
    return _fill_at(run, run.problem, run.time_limit_s)


def _outcome(result: FillResult) -> FloorOutcome:
    """How a try at a floor ended, for the report: filled, proven empty, or not settled (limit, stopped)."""
    if result.status is FillStatus.FILLED and result.entries is not None:
        return FloorOutcome.FILLED
    if result.status is FillStatus.UNFILLABLE:
        return FloorOutcome.PROVEN_EMPTY
    return FloorOutcome.NOT_SETTLED


def _raised_floor(search: _Search, level: int, entries: tuple[str, ...]) -> int:
    """The floor a fill found at score level `level` gives: its own lowest entry, and at least `level`."""
    low = measure_quality(search.problem, entries).min_score
    return max(level, level if low is None else low)


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
        self.raised: RaisedFloor | None = None
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
                result = _fill_at(
                    search,
                    problem_at,
                    search.remaining() + search.reserve_s,
                    backend,
                    EitherEvent(self.attempt_abort, search.limits.abort or stop_signal()),
                )
                entries = result.entries
                if result.status is not FillStatus.ABORTED or self.stop.is_set() or search.stopped():
                    search.tried(level, _outcome(result), result.stats.wall_time_s, "proof")  # not a floor moved
                if result.status is FillStatus.FILLED and entries is not None:
                    self.floor = _raised_floor(search, level, entries)
                    with self.lock:
                        self.raised = (self.floor, tuple(entries), problem_at, search.elapsed())
                elif result.status is FillStatus.UNFILLABLE:
                    self.no_fill_at = level
                elif result.status is not FillStatus.ABORTED or self.stop.is_set():
                    return  # the time limit, or the end: an aborted attempt otherwise asks again (floor_moved)
        finally:
            self.done.set()

    def take(self) -> RaisedFloor | None:
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


def start_proof(search: _Search) -> _FloorProof | None:
    """The proof beside the mean search, started, when some score level lies above the floor; else None."""
    levels = score_levels(search.problem)
    if not any(level > search.floor for level in levels):
        return None
    return _FloorProof(search, levels).start()


@dataclass
class _Climb:
    """What the floor climb knows: the score levels, the populous ones, and what its attempts found."""

    levels: list[int]
    major_levels: set[int] = field(default_factory=set)
    no_fill_at: int | None = None
    """Lowest level proven to have no fill."""
    unknown_at: int | None = None
    """Lowest level that reached its time."""


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
    climb = _Climb(score_levels(search.problem), set(populous_levels(search.problem)))
    if _ladder(search, climb):
        return
    floor_deadline = search.time_limit_s * FLOOR_SHARE
    proof = search.proof
    while True:
        if _take_proof(search):
            return  # fill_quality reports it
        higher = [level for level in climb.levels if level > search.floor]
        if _is_floor_optimal(search, climb, higher):
            return
        open_levels = [
            level
            for level in higher
            if (climb.no_fill_at is None or level < climb.no_fill_at)
            and (climb.unknown_at is None or level < climb.unknown_at)
            and (proof is None or proof.done.is_set() or (level > higher[0] and level in climb.major_levels))
        ]
        budget = floor_deadline - search.elapsed()
        if not open_levels or budget <= 0.05 or search.stopped():
            if proof is None or proof.done.is_set():
                search.say(
                    f"{search.elapsed():6.1f} s  no answer at {higher[0]} within the floor's time: "
                    f"floor {search.floor} unproven"
                )
            return
        major = [level for level in open_levels if level in climb.major_levels]
        level = major[(len(major) - 1) // 2] if major else open_levels[0]
        if len(open_levels) > 1:
            budget = min(budget, FLOOR_ATTEMPT_SHARE * search.time_limit_s * FLOOR_SHARE)
        if proof is not None and not proof.done.is_set():
            budget = min(budget, CLIMB_BESIDE_PROOF_S)
        _attempt(search, climb, level, budget)


def _take_proof(search: _Search) -> bool:
    """Take the higher floor the proof beside found, if any; True when the proof has proven the floor."""
    proof = search.proof
    if proof is None:
        return False
    raised = proof.take()
    if raised is not None and raised[0] > search.floor:
        search.floor, entries, problem_at, search.first_at_floor_s = raised
        search.accept(problem_at, entries, f"floor {search.floor} (next level up)")
    return proof.is_proven and proof.floor == search.floor


def _ladder(search: _Search, climb: _Climb) -> bool:
    """The plain ladder inside the climb: fills at the score levels LADDER_STEP apart above the floor, in rounds
    of growing time caps (LADDER_TRY_S, then LADDER_LAST_S with the caller's seed).

    In a round the levels are tried lowest first: a fill raises the floor and the round goes on above it; a
    level proven to have no fill ends the round (and rules out the levels above it); a level that takes its
    cap is tried again in the next round, and in the first round LADDER_ABOVE_SLOW levels above it are tried
    meanwhile. The last round tries the lowest level left and goes on up while it fills. The ladder starts
    no try after LADDER_SHARE of the time limit and ends every try by LADDER_END_SHARE, or in the last round
    at the level the proof beside is asking when the proof runs the same backend (it has the whole time
    there). With `auto` it does not: the proof runs `backtrack` alone, `auto` tunes its branching and races
    a rival (Herald 21.07: the proof's try at 90 did not settle in 42.5 s, a plain fill at 90 took 12.0 s).
    True when the floor is settled (optimal, or proven by the proof beside)."""
    proof = search.proof
    start_by_s, end_by_s = LADDER_SHARE * search.time_limit_s, LADDER_END_SHARE * search.time_limit_s
    rounds = [(cap_s, search.limits.seed + offset, is_above, False) for cap_s, offset, is_above in LADDER_TRY_S]
    rounds.append((LADDER_LAST_S, search.limits.seed, False, True))
    for cap_s, seed, is_above, is_last in rounds:
        passed = search.floor  # the levels up to here are settled or took their cap in this round
        n_slow = 0  # levels in a row that took their cap in this round
        while True:
            if _take_proof(search):
                return True
            higher = [level for level in climb.levels if level > search.floor]
            if _is_floor_optimal(search, climb, higher):
                return True
            target = (max(search.floor, passed) // LADDER_STEP + 1) * LADDER_STEP
            steps = [
                level for level in higher if level >= target and (climb.no_fill_at is None or level < climb.no_fill_at)
            ]
            if not steps:
                break  # the levels left lie below a level with no fill or took their cap: the next round
            level = steps[0]
            if (
                is_last
                and proof is not None
                and not proof.done.is_set()
                and level == higher[0]
                and _FloorProof.PROOF_BACKENDS.get(search.backend, search.backend) == search.backend
            ):
                return False  # the proof beside asks this level with the same search and all the time left
            budget = min(cap_s, end_by_s - search.elapsed(), search.remaining())
            if search.elapsed() >= start_by_s or budget <= 0.05 or search.stopped():
                return False
            status = _attempt(search, climb, level, budget, seed)
            if status is FillStatus.UNFILLABLE:
                break
            if status is FillStatus.FILLED:
                n_slow = 0
                continue
            if is_last:
                return False
            n_slow += 1
            if not is_above or n_slow > LADDER_ABOVE_SLOW:
                break  # it took its cap: the next round tries the lowest level left again
            passed = level  # it took its cap: a level above it meanwhile, it again next round
    return False


def _is_floor_optimal(search: _Search, climb: _Climb, higher: list[int]) -> bool:
    """Mark the floor optimal when no score level lies above it, or the next one up is proven to have no fill."""
    if not higher:
        search.floor_optimal = True  # no score level above the fill's minimum exists
        return True
    if climb.no_fill_at is not None and higher[0] >= climb.no_fill_at:
        search.floor_optimal = True
        search.say(f"{search.elapsed():6.1f} s  no fill at {higher[0]}: floor {search.floor} is the highest possible")
        return True
    return False


def _attempt(search: _Search, climb: _Climb, level: int, budget: float, seed: int | None = None) -> FillStatus:
    """One step of the climb, a fill at `level` within `budget` (with `seed`, default the caller's): a fill
    raises the floor, a proof of none rules out the level and those above, a stop by the proof beside
    proving the floor is asked again by the climb, and otherwise the level reached its time. The fill's status."""
    proof = search.proof
    problem_at = at_floor(search.problem, level)
    abort = None if proof is None else EitherEvent(search.limits.abort or stop_signal(), proof.proven)
    result = _fill_at(search, problem_at, min(budget, search.remaining()), abort=abort, seed=seed)
    if result.status is not FillStatus.ABORTED or proof is None or not proof.proven.is_set():
        search.tried(level, _outcome(result), result.stats.wall_time_s)  # not stopped by the proof's answer
    entries = result.entries
    if result.status is FillStatus.FILLED and entries is not None:
        floor = _raised_floor(search, level, entries)
        if climb.unknown_at is not None and climb.unknown_at <= floor:
            climb.unknown_at = None  # a longer try filled a level that had reached its time before
        if floor > search.floor:
            search.floor = floor
            search.first_at_floor_s = search.elapsed()
            search.accept(problem_at, entries, f"floor {search.floor}")
            if proof is not None:
                proof.floor_moved()
    elif result.status is FillStatus.UNFILLABLE:
        climb.no_fill_at = level if climb.no_fill_at is None else min(climb.no_fill_at, level)
        search.no_fill_at = climb.no_fill_at
        search.say(f"{search.elapsed():6.1f} s  no fill at {level} (proven)")
    elif result.status is FillStatus.ABORTED and proof is not None and proof.proven.is_set() and not search.stopped():
        pass  # the proof settled the floor: the climb sees it on its next turn
    else:
        climb.unknown_at = level if climb.unknown_at is None else min(climb.unknown_at, level)
        search.say(f"{search.elapsed():6.1f} s  no answer at {level} within {result.stats.wall_time_s:.1f} s")
    return result.status
