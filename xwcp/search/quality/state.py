"""The running state of one quality search, shared by its steps: the best fill, its floor, the bound and the clock."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from xwcp.compile.problem import Problem
from xwcp.engine.result import FloorOutcome, FloorTry, Limits, Progress, entry_scores, measure_quality
from xwcp.search.quality.aim import lex_key

DEFAULT_TIME_LIMIT_S = 60.0
"""Time a quality search takes when the caller gives none: it is anytime and stops at the limit."""

BEST_FILL_BACKEND = "quality-best"
"""The `Progress.backend` of a quality search's report of a better fill (its `partial` is that whole fill)."""

RaisedFloor = tuple[int, tuple[str, ...], Problem, float]
"""A higher floor found beside the mean search: (floor, its fill, the problem at it, seconds when found)."""


class ProofBeside(Protocol):
    """What the other steps see of the floor's proof running beside the mean search (`floor._FloorProof`)."""

    floor: int
    """The floor the proof asks above."""
    is_proven: bool
    """No fill at the next level up: the floor is optimal."""
    proven: threading.Event
    """Set with `is_proven`."""
    done: threading.Event
    """Set when the proof's thread ends."""

    def has_news(self) -> bool:
        """A higher floor waits to be taken."""
        ...

    def take(self) -> RaisedFloor | None:
        """The higher floor found since the last call, if any."""
        ...

    def floor_moved(self) -> None:
        """The mean search lifted the floor: ask above the new one."""
        ...

    def finish(self) -> None:
        """Stop the proof and wait for its thread."""
        ...


@dataclass
class _Run:
    """One quality search as the caller started it: the problem at its lowest score, the fast backend,
    the limits, when it started, and where its progress lines go."""

    problem: Problem
    backend: str
    limits: Limits
    start: float
    say: Callable[[str], None]

    @property
    def time_limit_s(self) -> float:
        """The limits' time limit (DEFAULT_TIME_LIMIT_S when they give none)."""
        return DEFAULT_TIME_LIMIT_S if self.limits.time_limit_s is None else self.limits.time_limit_s

    def elapsed(self) -> float:
        return time.perf_counter() - self.start


@dataclass
class _Search(_Run):
    """The running state of one quality search, from its first fill on."""

    best: tuple[str, ...]
    best_problem: Problem
    """The problem at the floor the best fill was found at (the mean search's problem)."""
    floor: int
    floor_optimal: bool = False
    first_at_floor_s: float = 0.0
    final_s: float = 0.0
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
    proof: ProofBeside | None = None
    lifted_at: int | None = None
    """The floor `lift_slots` last ran at (once per floor)."""
    floor_tries: list[FloorTry] = field(default_factory=list)
    """Every floor tried and how it ended, in the order they ended (the climb's and the proof's: the report's "floors")."""
    tries_lock: threading.Lock = field(default_factory=threading.Lock)

    def tried(self, level: int, outcome: FloorOutcome, seconds: float, by: str = "climb") -> None:
        """Note a floor tried (the proof beside notes its tries from its own thread)."""
        with self.tries_lock:
            self.floor_tries.append(FloorTry(level, outcome, seconds, by))

    def remaining(self) -> float:
        """Seconds left for the search, less what is kept for the bound at the end (`reserve_s`)."""
        return self.time_limit_s - self.elapsed() - self.reserve_s

    def stopped(self) -> bool:
        return self.remaining() <= 0 or (self.limits.abort is not None and self.limits.abort.is_set())

    def floor_raised(self) -> bool:
        """The proof beside the mean search found a fill at a higher floor (the mean search starts over there)."""
        return self.proof is not None and self.proof.has_news()

    def total(self, entries: Sequence[str]) -> int:
        return sum(entry_scores(self.problem, entries))

    def key(self, entries: Sequence[str]) -> tuple[int, int, int]:
        """The lexicographic aim: (floor, -entries at it, total); a larger key is a better fill."""
        return lex_key(entry_scores(self.problem, entries))

    def is_settled(self) -> bool:
        """The best fill is lexicographically best at this floor by the bound: its total meets the bound on
        every fill at the floor and only one entry sits at the floor (every fill whose lowest entry is the
        floor has at least one there; fills with none there have a higher floor, the proof's business)."""
        return (
            self.bound_total is not None
            and self.total(self.best) >= self.bound_total
            and self.n_at_floor(self.best) <= 1
        )

    def n_at_floor(self, entries: Sequence[str]) -> int:
        """Entries of `entries` at (or below) the current floor."""
        return sum(score <= self.floor for score in entry_scores(self.problem, entries))

    def accept(self, problem_at: Problem, entries: Sequence[str], what: str) -> None:
        self.best, self.best_problem = tuple(entries), problem_at
        self.final_s = self.elapsed()
        q = measure_quality(self.problem, entries)
        self.say(f"{self.elapsed():6.1f} s  {what}: min {q.min_score} ({q.n_at_min} at it), mean {q.mean_score:.2f}")
        if self.limits.progress is not None:  # the best fill so far, whole: a page draws each better fill
            n_slots = len(self.problem.slots)
            letter_by_cell = {
                cell: entry[pos]
                for slot in self.problem.slots
                for entry in (entries[slot.id],)
                for pos, cell in enumerate(slot.cells)
            }
            self.limits.progress(Progress(BEST_FILL_BACKEND, self.elapsed(), 0, 0, 0, n_slots, n_slots, letter_by_cell))
