"""Keep the compiled problems and arc-consistent domains of the grids a server process saw last, keyed by content.

After one keystroke the page asks three questions of the same grid (suggestions, then the heat
map, then the fillability check), an undo asks again about a grid it had before, and every
client of a shared grid asks about the same one: each of those reuses the compiled problem and
its propagation instead of rebuilding them. A grid is found again by what it is (the word
list's version, the cells, the options), never by who sent it, so every request stays
stateless: any process behind a load balancer answers it the same way, only slower on a miss.

Answers made from a kept grid (a slot's suggestions, all domains, the heat map) are kept with it,
so asking again costs a lookup.

A miss whose grid is a kept grid plus letters typed into empty cells (the next keystroke of the
same user) starts from the kept grid's engine: `problem.add_letters` derives the problem and
`ac3.propagate_letters` enters the letters into a copy of the engine, which skips compiling and
the counting pass over every live word (most of a one-slot answer's time). Both give exactly
what compiling and propagating from scratch gives; where they cannot (a letter completes an
entry, or empties a slot), the grid is compiled and propagated from scratch.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from xwcp.ac3 import Propagation, propagate_engine, propagate_letters
from xwcp.grid import BLOCK, EMPTY, Grid
from xwcp.problem import Problem, add_letters, compile_problem

CAPACITY = 96
"""Grids kept per process (a 15x15's problem and propagation hold about 1.2 MB): the last keystrokes of
about 50 users typing at once."""
ENGINE_CAPACITY = 48
"""Of those, how many keep their engine (another 0.6 MB) for the next keystroke to start from: one per
user typing, for about 50 at once."""
CHECK_CAPACITY = 256
"""Fillability answers kept per process (small JSON objects)."""


@dataclass(frozen=True)
class Analysed:
    """A grid compiled and propagated: what every analysis endpoint starts from."""

    problem: Problem
    prop: Propagation
    reports: dict = field(default_factory=dict, compare=False, repr=False)
    """Answers already computed from this grid, by what was asked (read-only once made)."""

    def report(self, question: tuple, make: Callable[[], dict]) -> dict:
        """The answer to `question` about this grid: made once, then reused (a slot's suggestions when the
        cursor comes back, the same grid asked by several users). Callers must not change it."""
        found = self.reports.get(question)
        if found is None:
            found = self.reports[question] = make()
        return found


class AnalysisCache:
    """A thread-safe LRU of `Analysed` grids, their engines and check answers, keyed by content."""

    def __init__(self, capacity: int = CAPACITY, engine_capacity: int = ENGINE_CAPACITY):
        self.capacity = capacity
        self.engine_capacity = engine_capacity
        self._entries: OrderedDict[tuple, Analysed] = OrderedDict()
        self._engines: OrderedDict[tuple, object] = OrderedDict()
        self._checks: OrderedDict[tuple, dict] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = self.misses = self.incremental = 0

    @staticmethod
    def key(words_token: object, grid: Grid, min_score: int, allow_dupes: bool) -> tuple:
        """What makes two requests the same question: (list version, width, height, cells, the grid's bars and
        numbering, the options); the cells are key[3], everything that must match exactly for a parent key[4:]."""
        return (words_token, grid.width, grid.height, tuple(grid.cells), (getattr(grid, "bars", None),
                getattr(grid, "numbers", None)), min_score, allow_dupes)

    def analysed(self, words, words_token: object, grid: Grid, min_score: int, allow_dupes: bool) -> Analysed:
        """The grid compiled with `words` and propagated, from the cache when it was seen.

        Raises:
            InputError: as `compile_problem`.
        """
        key = self.key(words_token, grid, min_score, allow_dupes)
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return found
            parent = self._parent_of(key)
        result = None
        if parent is not None:
            parent_key, parent_entry, engine = parent
            letter_by_cell = {cell: letter for cell, (letter, old) in enumerate(zip(key[3], parent_key[3]))
                              if letter != old}
            problem = add_letters(parent_entry.problem, letter_by_cell)
            if problem is not None:
                result = propagate_letters(problem, engine, letter_by_cell)
        incremental = result is not None
        if result is None:
            problem = compile_problem(grid, words, min_score=min_score, allow_dupes=allow_dupes)
            result = propagate_engine(problem)
        prop, engine = result
        entry = Analysed(problem, prop)
        with self._lock:
            self.misses += 1
            self.incremental += incremental
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)
            if prop.is_consistent:
                self._engines[key] = engine
                while len(self._engines) > self.engine_capacity:
                    self._engines.popitem(last=False)
        return entry

    def _parent_of(self, key: tuple) -> tuple[tuple, Analysed, object] | None:
        """A kept (key, entry, engine) with the same blocks and options whose letters the new grid keeps, the one
        with the most letters (the previous keystroke); None when there is none. Called under the lock."""
        cells = key[3]
        best, best_letters = None, -1
        for other_key, engine in self._engines.items():
            entry = self._entries.get(other_key)
            if entry is None or other_key[:3] != key[:3] or other_key[4:] != key[4:] or other_key[3] == cells:
                continue
            letters = 0
            for mine, theirs in zip(cells, other_key[3]):
                if theirs == mine:
                    letters += theirs != EMPTY and theirs != BLOCK
                elif theirs != EMPTY or mine == BLOCK:
                    break
            else:
                if letters > best_letters:
                    best, best_letters = (other_key, entry, engine), letters
        return best

    def check(self, key: tuple) -> dict | None:
        with self._lock:
            found = self._checks.get(key)
            if found is not None:
                self._checks.move_to_end(key)
            return found

    def keep_check(self, key: tuple, answer: dict) -> None:
        with self._lock:
            self._checks[key] = answer
            while len(self._checks) > CHECK_CAPACITY:
                self._checks.popitem(last=False)
