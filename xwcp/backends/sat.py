"""Fill a problem with a CDCL SAT solver (python-sat), over shortlists of each slot's words that grow on demand.

Model (CNF). x[s,w]: open slot s takes word w, for the words on s's shortlist; y[cell,c]:
cell holds letter c, for the letters some shortlisted word puts there. Clauses:
  x[s,w] -> y[cell, letter of w there]          channelling, for each cell of s;
  at most one y per cell                          pairwise (with the next two: one word per
  act[s] -> OR x[s,.]                             slot and crossing agreement);
  act[s] & y[cell,c] -> OR x[s,w] with c there   support: redundant, but without it unit
                                                  propagation cannot see a dead letter
                                                  (10x more conflicts when dropped);
  no word twice                                   at-most-one over the x naming one word,
                                                  added lazily when a model repeats it.
`act[s]` is an assumption literal, "slot s takes a word from its shortlist".

Search. Each open slot starts with its best FIRST_K arc-consistent words (crossing fit, then
`rerank_words` so crossing shortlists agree; see `_shortlist`), the restriction is made
arc-consistent again, and one incremental solver holds the model for the whole run: learnt
clauses stay valid as shortlists grow, since only `act`-guarded clauses depend on them.
Each round solves under the `act` assumptions:
  - a model that repeats a word gets an at-most-one over that word and is solved again;
    any other model is a fill;
  - unsatisfiable: the slots in the solver's core grow by GROWTH (every incomplete slot when
    the core names only complete ones), their old `act` is retired. Once every shortlist is
    the whole domain (or the core is empty) it is a proof: UNFILLABLE;
  - ROUND_CONFLICTS conflicts without an answer: every incomplete shortlist grows.
Several fills (`Limits.count`) block each fill found and go on, growing as shortlists run
dry; counting every fill starts from the whole domains. With `Limits.threads` > 1 and one
fill wanted, forked workers race with different first shortlist sizes (PORTFOLIO_FIRST_K).

Measured on the Herald 15.01-15.10 and 21.01-21.10 grids (default list, 30 s limit, 2 cores
shared with other work; seconds for the 20 grids together, a miss counted as 30):
    final (Glucose 4, lazy duplicates, rerank, K=300/K=1000 race)   20/20   16.5 s (max 5.9, 21.10)
    one worker (Limits.threads=1, K=300 only)                       19/20   41 s   (21.10 missed)
    no rerank (crossing fit against whole domains only)             19/20   57 s   (21.10 missed)
    eager no-word-twice clauses (+30-50% clauses)                   20/20   24 s   (21.10 9.6 s)
    CaDiCaL 1.9.5 / MiniSat 2.2 instead of Glucose 4                20/20   36 s / 39 s (21.10 22 / 26 s)
  Lingeling, Kissat 4 and MapleChrono were far slower on single rounds. Glucose checks
  interrupt() only between restarts (up to 16 s late on big models), so the search runs in
  forked children that the parent kills at the limit or on abort; in-process with a watcher
  thread only without fork. Support clauses matter: without them 5-10x more conflicts.
  Weak spot: grids whose fills need words ranked in the thousands for several slots (the
  stock 15x15-themeless-01: fills use words ranked 5,000-20,000 of 25-30k) hit the limit
  even at K=3000, where the compiled `backtrack` search fills them in under a second.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from xwcp.backends._common import MAX_KEPT_FILLS, Clock, entries_from_word_ids, limit_reason, start_engine, wanted_fills
from xwcp.backends._shortlist import Shortlists, rank_words, rerank_words, shortlist
from xwcp.base.deadline import NEVER, Deadline
from xwcp.base.types import FillStatus, SlotId
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, FillStats, Limits, Progress

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

Emit = Callable[[str, Any], None]
"""`emit(kind, payload)`: ("fill", entries), ("progress", stats); a child also sends ("done", (status, stats))
and ("error", traceback text). The payload's type depends on the kind."""

NAME = "sat"

SOLVER = "glucose4"
"""python-sat solver: the fastest on these models among those that support interrupt()."""
INTERRUPTIBLE_SOLVERS = (
    "glucose4",
    "glucose42",
    "glucose3",
    "minisat22",
    "minisatgh",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
)
"""Solvers with interrupt(), usable in-process (the others need the forked child)."""
SOLVERS = INTERRUPTIBLE_SOLVERS + ("cadical153", "cadical195", "cadical300", "lingeling", "kissat404")
"""Solvers `Limits.extra["solver"]` may name."""
FIRST_K = 300
"""Words per slot in the first round: enough for most open 15x15s, small enough to load in 0.2 s."""
PORTFOLIO_FIRST_K = (FIRST_K, 1000, 3000, 100)
"""First shortlist size of each forked worker when `Limits.threads` allows several (worker 0 uses
`first_k`): a small K that is already fillable is solved fastest, a larger one is the
better bet when the small one has no fill or is hard (the 21x21 21.10: unfillable at 300,
6 s at 1000)."""
GROWTH = 3
"""Factor a shortlist grows by when a round needs more words."""
ROUND_CONFLICTS = 20000
"""Conflicts a round may take before every shortlist grows (0 = no limit)."""
GROW_CORE = True
"""On a restriction with no fill, grow only the slots in the solver's core (else every slot)."""
RERANK_PASSES = 3
"""Passes of `rerank_words` before each round (0: crossing fit against whole domains only)."""
EAGER_DUPES = False
"""True: post every no-word-twice clause up front; False: only for words a model repeats."""
PAIRWISE_AMO_MAX = 6
"""At-most-one over more literals than this uses a sequential counter (3n clauses, not n^2/2)."""
POLL_S = 0.02
"""How often the watcher thread checks the time limit and the abort event."""
SINK_BATCH_CLAUSES = 100_000
"""Clauses `_Encoder.extend` holds before handing them to its sink (`export_cnf` writes them out)."""
MAX_CNF_BYTES = 4 << 30
"""Largest CNF file `export_cnf` writes (the exact model of a 15x15 is about 125 MB; a 60x60 can run to many GB)."""

ClauseSink = Callable[[list[list[int]]], None]
"""Takes a batch of clauses, in order (`_Encoder.extend` with a sink)."""


def available() -> bool:
    try:
        import pysat.solvers  # noqa: F401
    except ImportError:
        return False
    return True


def missing() -> str:
    return "the SAT backend needs python-sat: pip install python-sat"


# ----- the model ------------------------------------------------------------------------------


class _Encoder:
    """Builds the CNF incrementally: `extend` adds shortlisted words and returns the new clauses.

    With `guarded=False` there are no `act` literals (the exact model for `export_cnf`: call
    `extend` once with every word).
    """

    def __init__(self, problem: Problem, *, guarded: bool, eager_dupes: bool):
        self.problem = problem
        self.guarded = guarded
        self.eager_dupes = eager_dupes and not problem.allow_dupes
        self.n_vars = 0
        self.y_var = np.zeros((problem.n_letter_cells, problem.alphabet.size), np.int64)  # by letter cell, letter index
        self.vars_by_slot: dict[SlotId, np.ndarray] = {}
        self.words_by_slot: dict[SlotId, np.ndarray] = {}
        self.letters_by_slot: dict[SlotId, np.ndarray] = {}
        self.act_by_slot: dict[SlotId, int] = {}
        self.slot_by_act: dict[int, SlotId] = {}
        for slot_id in problem.open_slot_ids:
            length = problem.slots[slot_id].length
            self.vars_by_slot[slot_id] = np.zeros(0, np.int64)
            self.words_by_slot[slot_id] = np.zeros(0, np.int32)
            self.letters_by_slot[slot_id] = np.zeros((0, length), np.uint8)
        self.n_clauses = 0
        self.n_dupe_clauses = 0
        self.n_sunk_dupes = 0

    def _new_vars(self, n: int) -> np.ndarray:
        first = self.n_vars + 1
        self.n_vars += n
        return np.arange(first, first + n, dtype=np.int64)

    def assumptions(self) -> list[int]:
        return list(self.act_by_slot.values())

    def new_words(self, lists: Shortlists) -> dict[SlotId, np.ndarray]:
        """The words of `lists` not yet in the model, per slot."""
        return {slot_id: ids[~np.isin(ids, self.words_by_slot[slot_id])] for slot_id, ids in lists.word_ids.items()}

    def extend(self, new_by_slot: Mapping[SlotId, np.ndarray], sink: ClauseSink | None = None) -> list[list[int]]:
        """Add words to slots' shortlists; returns the clauses to add to the solver (with a `sink`, they are given
        to it in order, a batch at a time, and none is returned: the exact model of a 15x15 is 10 M clauses)."""
        problem = self.problem
        clauses: list[list[int]] = []
        n_sunk = 0

        def flush() -> None:
            nonlocal clauses, n_sunk
            if sink is not None and len(clauses) >= SINK_BATCH_CLAUSES:
                sink(clauses)
                n_sunk += len(clauses)
                clauses = []

        fresh_letters = np.zeros(self.y_var.shape, bool)
        changed: dict[SlotId, tuple[np.ndarray, np.ndarray]] = {}
        for slot_id, word_ids in new_by_slot.items():
            if len(word_ids) == 0:
                continue
            slot = problem.slots[slot_id]
            xs = self._new_vars(len(word_ids))
            letters = problem.words.bucket(slot.length).letters[word_ids]
            changed[slot_id] = (xs, letters)
            self.vars_by_slot[slot_id] = np.concatenate([self.vars_by_slot[slot_id], xs])
            self.words_by_slot[slot_id] = np.concatenate([self.words_by_slot[slot_id], word_ids.astype(np.int32)])
            self.letters_by_slot[slot_id] = np.concatenate([self.letters_by_slot[slot_id], letters])
            for pos, cell in enumerate(slot.cells):
                fresh_letters[cell, letters[:, pos]] = True
        fresh_letters &= self.y_var == 0
        for fresh_cell in np.flatnonzero(fresh_letters.any(axis=1)):
            old = self.y_var[fresh_cell][self.y_var[fresh_cell] > 0].tolist()
            codes = np.flatnonzero(fresh_letters[fresh_cell])
            self.y_var[fresh_cell, codes] = self._new_vars(len(codes))
            new = self.y_var[fresh_cell, codes].tolist()
            clauses.extend([-a, -b] for i, a in enumerate(new) for b in old + new[i + 1 :])
            flush()
        for slot_id, (xs, letters) in changed.items():
            for pos, cell in enumerate(problem.slots[slot_id].cells):
                clauses.extend(np.stack([-xs, self.y_var[cell, letters[:, pos]]], axis=1).tolist())
                flush()
        for slot_id in self.vars_by_slot:
            if slot_id in changed:
                clauses.extend(self._slot_clauses(slot_id, None))
            elif self.guarded and slot_id in self.act_by_slot:
                clauses.extend(self._slot_clauses(slot_id, fresh_letters))
            flush()
        if self.eager_dupes:
            if sink is not None and clauses:  # the clauses so far go first, as they do without a sink
                sink(clauses)
                n_sunk += len(clauses)
                clauses = []
            new = self._dupe_clauses({slot_id: xs for slot_id, (xs, _) in changed.items()}, sink)
            self.n_dupe_clauses += len(new) + self.n_sunk_dupes
            n_sunk += self.n_sunk_dupes
            clauses.extend(new)
        if sink is not None and clauses:
            sink(clauses)
            n_sunk += len(clauses)
            clauses = []
        self.n_clauses += len(clauses) + n_sunk
        return clauses

    def _slot_clauses(self, slot_id: SlotId, only_letters: np.ndarray | None) -> list[list[int]]:
        """At-least-one and support clauses of a slot (new `act` first), or only support for `only_letters`."""
        xs = self.vars_by_slot[slot_id]
        letters = self.letters_by_slot[slot_id]
        clauses: list[list[int]] = []
        guard: list[int] = []
        if self.guarded:
            if only_letters is None:
                old = self.act_by_slot.get(slot_id)
                if old is not None:
                    clauses.append([-old])  # retire the old shortlist's clauses
                    del self.slot_by_act[old]
                act = int(self._new_vars(1)[0])
                self.act_by_slot[slot_id] = act
                self.slot_by_act[act] = slot_id
            guard = [-self.act_by_slot[slot_id]]
        if only_letters is None:
            clauses.append(guard + xs.tolist())
        for pos, cell in enumerate(self.problem.slots[slot_id].cells):
            wanted = self.y_var[cell] > 0 if only_letters is None else only_letters[cell]
            if not wanted.any():
                continue
            column = letters[:, pos]
            order = np.argsort(column, kind="stable")
            bounds = np.concatenate([[0], np.cumsum(np.bincount(column, minlength=self.problem.alphabet.size))])
            for code in np.flatnonzero(wanted):
                group = xs[order[bounds[code] : bounds[code + 1]]]
                clauses.append(guard + [-int(self.y_var[cell, code])] + group.tolist())
        return clauses

    def vars_of_word(self, length: int, word_id: int) -> list[int]:
        """Every x variable naming `word_id` in a slot of `length`."""
        found = []
        for slot_id, words in self.words_by_slot.items():
            if self.problem.slots[slot_id].length == length:
                found.extend(self.vars_by_slot[slot_id][words == word_id].tolist())
        return found

    def _dupe_clauses(
        self, new_xs_by_slot: dict[SlotId, np.ndarray], sink: ClauseSink | None = None
    ) -> list[list[int]]:
        """No word twice for the new variables: at most one x per word among same-length slots (with a `sink`,
        given to it a batch at a time, counted in `n_sunk_dupes`)."""
        clauses: list[list[int]] = []
        self.n_sunk_dupes = 0
        by_length: dict[int, list[SlotId]] = {}
        for slot_id in self.vars_by_slot:
            by_length.setdefault(self.problem.slots[slot_id].length, []).append(slot_id)
        is_first = self.n_clauses == 0
        for slot_ids in by_length.values():
            if len(slot_ids) < 2 or not any(s in new_xs_by_slot for s in slot_ids):
                continue
            words = np.concatenate([self.words_by_slot[s] for s in slot_ids])
            xs = np.concatenate([self.vars_by_slot[s] for s in slot_ids])
            is_new = np.concatenate([np.isin(self.vars_by_slot[s], new_xs_by_slot.get(s, ())) for s in slot_ids])
            order = np.argsort(words, kind="stable")
            words, xs, is_new = words[order], xs[order], is_new[order]
            starts = np.flatnonzero(np.concatenate([[True], words[1:] != words[:-1]]))
            ends = np.concatenate([starts[1:], [len(words)]])
            for a, b in zip(starts, ends):
                if b - a < 2 or not is_new[a:b].any():
                    continue
                group = xs[a:b].tolist()
                if is_first:
                    clauses.extend(_amo(self, group))
                else:
                    new = set(xs[a:b][is_new[a:b]].tolist())
                    clauses.extend(
                        [-u, -v] for i, u in enumerate(group) for v in group[i + 1 :] if u in new or v in new
                    )
                if sink is not None and len(clauses) >= SINK_BATCH_CLAUSES:
                    sink(clauses)
                    self.n_sunk_dupes += len(clauses)
                    clauses = []
        if sink is not None and clauses:
            sink(clauses)
            self.n_sunk_dupes += len(clauses)
            clauses = []
        return clauses

    def decode(self, model: Iterable[int]) -> dict[SlotId, int]:
        """{slot_id: word_id} from a solver model (signed literals, index = var - 1)."""
        values = np.zeros(self.n_vars + 1, np.int64)
        model = np.asarray(model, np.int64)
        values[1 : len(model) + 1] = model[: self.n_vars]
        word_by_slot = {}
        for slot_id, xs in self.vars_by_slot.items():
            word_by_slot[slot_id] = int(self.words_by_slot[slot_id][int(np.argmax(values[xs] > 0))])
        return word_by_slot

    def chosen_vars(self, word_by_slot: dict[SlotId, int]) -> list[int]:
        return [int(self.vars_by_slot[s][np.argmax(self.words_by_slot[s] == w)]) for s, w in word_by_slot.items()]


def _amo(encoder: _Encoder, lits: list[int]) -> list[list[int]]:
    """Clauses saying at most one of `lits` is true (pairwise, or a sequential counter when long)."""
    n = len(lits)
    if n <= PAIRWISE_AMO_MAX:
        return [[-lits[a], -lits[b]] for a in range(n) for b in range(a + 1, n)]
    aux = encoder._new_vars(n - 1).tolist()
    clauses = [[-lits[0], aux[0]]]
    for i in range(1, n - 1):
        clauses += [[-lits[i], aux[i]], [-aux[i - 1], aux[i]], [-lits[i], -aux[i - 1]]]
    clauses.append([-lits[n - 1], -aux[n - 2]])
    return clauses


def _build_model(
    problem: Problem, lists: Shortlists, *, eager_dupes: bool = True, guarded: bool = False
) -> tuple[_Encoder, list[list[int]]]:
    """Compile the shortlisted problem to CNF without solving it. Returns (encoder, clauses)."""
    encoder = _Encoder(problem, guarded=guarded, eager_dupes=eager_dupes)
    return encoder, encoder.extend(lists.word_ids)


def _repeats(problem: Problem, word_by_slot: dict[SlotId, int]) -> list[tuple[int, int]]:
    """(length, word_id) of every word a fill uses in more than one slot."""
    if problem.allow_dupes:
        return []
    seen: set[tuple[int, int]] = set()
    repeated: list[tuple[int, int]] = []
    for slot_id, word_id in word_by_slot.items():
        key = (problem.slots[slot_id].length, word_id)
        if key in seen and key not in repeated:
            repeated.append(key)
        seen.add(key)
    return repeated


def _stem_clauses(encoder: _Encoder, word_by_slot: dict[SlotId, int]) -> list[list[int]]:
    """Clauses against the stem clashes of a fill (`xwcp.words.stems.stem_groups`), added lazily as repeats are:
    at most one slot takes a word of each group two slots share (without duplicates), or (with them) not both words
    of each clashing pair. Empty when the rule is off or the fill keeps it."""
    problem = encoder.problem
    if not problem.controls.distinct_stems:
        return []
    from xwcp.words.stems import stem_groups, stems_for

    groups = stem_groups(problem.words, stems_for(problem.alphabet))
    slots_by_group: dict[int, list[SlotId]] = {}
    for slot_id, word_id in word_by_slot.items():
        group = int(groups.of_length(problem.slots[slot_id].length)[word_id])
        if group >= 0:
            slots_by_group.setdefault(group, []).append(slot_id)
    clauses: list[list[int]] = []
    for group, slot_ids in slots_by_group.items():
        if len(slot_ids) < 2:
            continue
        if problem.allow_dupes:
            chosen = [(problem.slots[s].length, word_by_slot[s], s) for s in slot_ids]
            for i, (len_a, word_a, a) in enumerate(chosen):
                for len_b, word_b, b in chosen[i + 1 :]:
                    if (len_a, word_a) != (len_b, word_b):
                        clauses.append([-v for v in encoder.chosen_vars({a: word_a, b: word_b})])
            continue
        xs: list[int] = []
        for slot_id, words in encoder.words_by_slot.items():
            of_word = groups.of_length(problem.slots[slot_id].length)[words]
            xs.extend(encoder.vars_by_slot[slot_id][of_word == group].tolist())
        clauses.extend(_amo(encoder, xs))
    return clauses


# ----- the search ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Options:
    solver: str = SOLVER
    first_k: int = FIRST_K
    growth: float = GROWTH
    round_conflicts: int = ROUND_CONFLICTS
    eager_dupes: bool = EAGER_DUPES
    rerank_passes: int = RERANK_PASSES
    grow_core: bool = GROW_CORE
    in_process: bool = False
    max_conflicts: int = 0
    """`Limits.max_backtracks` (per worker); 0 = none."""

    @classmethod
    def from_extra(cls, extra: Mapping[str, Any]) -> _Options:
        values: dict[str, Any] = {}  # each field's value, of that field's type
        for f in fields(cls):
            if f.name in extra:
                raw, default = extra[f.name], f.default
                if isinstance(default, bool):
                    values[f.name] = raw if isinstance(raw, bool) else str(raw).lower() in ("1", "true", "yes")
                elif isinstance(default, int):
                    values[f.name] = int(raw)
                elif isinstance(default, float):
                    values[f.name] = float(raw)
                else:
                    values[f.name] = str(raw)
        options = cls(**values)
        if options.solver not in SOLVERS:
            raise ValueError(f"unknown python-sat solver {options.solver!r}; use one of {', '.join(SOLVERS)}")
        return options


class _Search:
    """The rounds of growing shortlists on one incremental solver (see the module docstring).

    `emit(kind, payload)` receives ("fill", entries) for each fill and ("progress", stats)
    after each solver call. `stop()` returns a FillStatus when the caller wants to stop; re-ranking between
    rounds raises `Cancelled` past `deadline` (in process; a child is killed by its parent instead).
    """

    def __init__(
        self,
        problem: Problem,
        ranked: dict[SlotId, np.ndarray],
        want: int,
        options: _Options,
        emit: Emit,
        stop: Callable[[], FillStatus | None],
        deadline: Deadline = NEVER,
    ):
        from pysat.solvers import Solver

        self.problem = problem
        self.ranked = ranked
        self.want = want
        self.options = options
        self.emit = emit
        self.stop = stop
        self.deadline = deadline
        self.k_by_slot = {s: len(ids) if want == 0 else min(options.first_k, len(ids)) for s, ids in ranked.items()}
        self.encoder = _Encoder(problem, guarded=True, eager_dupes=options.eager_dupes)
        self.solver = Solver(name=options.solver)
        self.n_fills = self.rounds = self.n_lazy = 0

    def grow(self, slot_ids: Iterable[SlotId]) -> bool:
        """Grow the shortlists of `slot_ids` by the growth factor; False if all were complete."""
        grown = False
        for slot_id in slot_ids:
            n, k = len(self.ranked[slot_id]), self.k_by_slot[slot_id]
            if k < n:
                self.k_by_slot[slot_id] = min(n, max(k + 1, int(k * self.options.growth)))
                grown = True
        return grown

    def n_conflicts(self) -> int:
        return int((self.solver.accum_stats() or {}).get("conflicts", 0))

    def stats(self) -> dict[str, int]:
        s = self.solver.accum_stats() or {}
        return {
            "nodes": int(s.get("decisions", 0)),
            "backtracks": int(s.get("conflicts", 0)),
            "restarts": int(s.get("restarts", 0)),
            "k": max(self.k_by_slot.values(), default=0),
            "words": int(sum(len(v) for v in self.encoder.vars_by_slot.values())),
            "rounds": self.rounds,
            "clauses": self.encoder.n_clauses,
            "vars": self.encoder.n_vars,
            "lazy_nogoods": self.n_lazy,
        }

    def run(self) -> FillStatus:
        """Search until the wanted fills are found, the search is exhausted, or `stop()` says so."""
        problem, solver, encoder = self.problem, self.solver, self.encoder
        while True:
            self.rounds += 1
            ranked = self.ranked
            if self.options.rerank_passes and not all(k >= len(ranked[s]) for s, k in self.k_by_slot.items()):
                ranked = rerank_words(problem, ranked, self.k_by_slot, self.options.rerank_passes, self.deadline)
            lists = shortlist(problem, ranked, self.k_by_slot)
            if not lists.is_consistent:
                if lists.is_complete:  # start_engine already propagated, but stay exact
                    return FillStatus.FILLED if self.n_fills else FillStatus.UNFILLABLE
                self.grow(self.ranked)
                continue
            solver.append_formula(encoder.extend(encoder.new_words(lists)))
            while True:
                status = self.stop()
                if status is not None:
                    return status
                budget = 0 if lists.is_complete else self.options.round_conflicts
                if self.options.max_conflicts:
                    left = self.options.max_conflicts - self.n_conflicts()
                    if left <= 0:
                        return FillStatus.LIMIT
                    budget = min(budget, left) if budget else left
                solver.conf_budget(budget if budget > 0 else -1)
                answer = solver.solve_limited(assumptions=encoder.assumptions(), expect_interrupt=True)
                self.emit("progress", self.stats())
                if answer is None:
                    status = self.stop()
                    if status is not None:
                        return status
                    if self.options.max_conflicts and self.n_conflicts() >= self.options.max_conflicts:
                        return FillStatus.LIMIT
                    if not lists.is_complete:
                        self.grow(self.ranked)
                        break
                elif answer:
                    word_by_slot = encoder.decode(solver.get_model())
                    repeats = _repeats(problem, word_by_slot)
                    if repeats:
                        self.n_lazy += len(repeats)
                        for length, word_id in repeats:
                            solver.append_formula(_amo(encoder, encoder.vars_of_word(length, word_id)))
                        continue
                    stem_clauses = _stem_clauses(encoder, word_by_slot)
                    if stem_clauses:
                        self.n_lazy += len(stem_clauses)
                        solver.append_formula(stem_clauses)
                        continue
                    self.n_fills += 1
                    self.emit("fill", entries_from_word_ids(problem, word_by_slot))
                    if self.want and self.n_fills >= self.want:
                        return FillStatus.FILLED
                    solver.add_clause([-v for v in encoder.chosen_vars(word_by_slot)])
                else:
                    core = [encoder.slot_by_act[lit] for lit in (solver.get_core() or []) if lit in encoder.slot_by_act]
                    if lists.is_complete or not core:
                        return FillStatus.FILLED if self.n_fills else FillStatus.UNFILLABLE
                    if not (self.options.grow_core and self.grow(core)):
                        self.grow(self.ranked)
                    break

    def close(self) -> None:
        self.solver.delete()


def _child_main(
    conn: Connection[tuple[str, Any], object],
    problem: Problem,
    ranked: dict[SlotId, np.ndarray],
    want: int,
    options: _Options,
) -> None:
    """Run the search in a forked child, sending ("fill"|"progress"|"done"|"error", payload) messages."""
    try:
        from xwcp.runtime.signals import forget_signals_in_child

        forget_signals_in_child()
        search = _Search(problem, ranked, want, options, lambda kind, payload: conn.send((kind, payload)), lambda: None)
        status = search.run()
        conn.send(("done", (status.value, search.stats())))
    except BaseException:  # report, never hang the parent
        import traceback

        conn.send(("error", traceback.format_exc()))
    finally:
        conn.close()


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods()


def fill(problem: Problem, limits: Limits | None = None) -> FillResult:
    """Fill every slot of `problem`, or prove it cannot be filled, within `limits`.

    The solver runs in a forked child process that is killed at the time limit or on abort
    (python-sat solvers notice `interrupt()` only between restarts, seconds late on big
    models); without fork (or with `Limits.extra["in_process"]`) it runs in this process
    and a watcher thread interrupts it. `Limits.extra` may also set "solver" (a python-sat
    name), "first_k", "growth", "round_conflicts", "eager_dupes", "rerank_passes" and
    "grow_core"; other keys are ignored. `Limits.max_backtracks` caps each worker's conflicts.

    Never mutates `problem`. FILLED and UNFILLABLE are proofs; LIMIT and ABORTED are not.
    """
    limits = limits or Limits()
    clock = Clock(limits)
    engine, early = start_engine(problem, NAME, clock)
    if early is not None:
        return early
    if engine is None:  # start_engine gives an engine whenever it gives no answer
        raise RuntimeError("start_engine gave neither an engine nor an answer")
    options = replace(_Options.from_extra(limits.extra), max_conflicts=int(limits.max_backtracks or 0))
    want = wanted_fills(limits)
    ranked = rank_words(problem, engine, clock.deadline)
    fills: list[tuple[str, ...]] = []
    counter = {"n_fills": 0}
    stats: dict[str, int] = {}

    def emit(kind: str, payload: Any) -> None:
        if kind == "fill":
            counter["n_fills"] += 1
            if len(fills) < MAX_KEPT_FILLS:
                fills.append(payload)
        elif kind == "progress":
            stats.update(payload)
            if limits.progress is not None:
                limits.progress(
                    Progress(
                        NAME,
                        clock.elapsed_s,
                        payload["nodes"],
                        payload["backtracks"],
                        payload["restarts"],
                        0,
                        len(problem.slots),
                    )
                )

    status = clock.stop_status()
    if status is None:
        if options.in_process or not _can_fork():
            status = _run_in_process(problem, ranked, want, options, clock, emit, stats)
        else:
            n_workers = 1 if want != 1 else max(1, min(limits.threads, len(PORTFOLIO_FIRST_K)))
            status = _run_in_children(problem, ranked, want, options, n_workers, clock, emit, stats)
    n_fills = counter["n_fills"]
    if status in (FillStatus.LIMIT, FillStatus.ABORTED) and n_fills and want:
        status = FillStatus.FILLED  # fills found before a stop are answers, unless counting all
    extra: dict[str, object] = {
        key: value for key, value in stats.items() if key not in ("nodes", "backtracks", "restarts")
    }
    extra["solver"] = options.solver
    result_stats = FillStats(
        clock.elapsed_s, stats.get("nodes", 0), stats.get("backtracks", 0), stats.get("restarts", 0), extra
    )
    reason = ""
    if status is FillStatus.UNFILLABLE:
        reason = "the SAT solver proved that no fill exists"
    elif status is FillStatus.LIMIT and clock.stop_status() is None:
        reason = (
            f"conflict limit of {limits.max_backtracks} reached"
            if limits.max_backtracks
            else "a solver limit set in Limits.extra was reached"
        )
    elif status in (FillStatus.LIMIT, FillStatus.ABORTED):
        reason = limit_reason(status, limits)
    return FillResult(status, NAME, result_stats, tuple(fills), n_fills, reason)


def _run_in_process(
    problem: Problem,
    ranked: dict[SlotId, np.ndarray],
    want: int,
    options: _Options,
    clock: Clock,
    emit: Emit,
    stats: dict[str, int],
) -> FillStatus:
    if options.solver not in INTERRUPTIBLE_SOLVERS:
        raise ValueError(
            f"solver {options.solver!r} cannot be interrupted, so it needs fork; "
            f"use one of {', '.join(INTERRUPTIBLE_SOLVERS)}"
        )
    search = _Search(problem, ranked, want, options, emit, clock.stop_status, clock.deadline)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(POLL_S):
            if clock.stop_status() is not None:
                search.solver.interrupt()  # again each poll: a solve that starts later must stop too

    watcher = threading.Thread(target=watch, name="xwcp-sat-watcher", daemon=True)
    watcher.start()
    try:
        status = search.run()
        stats.update(search.stats())
    finally:
        done.set()
        watcher.join()
        search.close()
    return status


def _run_in_children(
    problem: Problem,
    ranked: dict[SlotId, np.ndarray],
    want: int,
    options: _Options,
    n_workers: int,
    clock: Clock,
    emit: Emit,
    stats: dict[str, int],
) -> FillStatus:
    """Run `n_workers` forked searches with different first shortlist sizes; the first answer wins.

    With more than one worker only one fill is wanted, so the first fill (or proof) from any
    child ends the race. Every child is killed on every way out.
    """
    import multiprocessing
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("fork")
    children, receivers, children_first_k = [], [], []
    try:
        for index in range(n_workers):
            worker_options = options if index == 0 else replace(options, first_k=PORTFOLIO_FIRST_K[index])
            children_first_k.append(worker_options.first_k)
            receiver, sender = context.Pipe(duplex=False)
            child = context.Process(
                target=_child_main,
                args=(sender, problem, ranked, want, worker_options),
                name=f"xwcp-sat-{index}",
                daemon=True,
            )
            child.start()
            sender.close()
            children.append(child)
            receivers.append(receiver)
        last_stats: list[dict[str, int]] = [{} for _ in children]

        def won(index: int, status: FillStatus) -> FillStatus:
            stats.update(last_stats[index], worker=index, first_k=children_first_k[index])
            return status

        while True:
            status = clock.stop_status()
            if status is not None:
                return won(0, status)
            remaining = clock.remaining_s()
            for ready in wait(receivers, POLL_S if remaining is None else max(0.0, min(POLL_S, remaining))):
                index = next(k for k, receiver in enumerate(receivers) if receiver is ready)
                try:
                    kind, payload = receivers[index].recv()
                except EOFError:
                    raise RuntimeError(f"a SAT solver process died (exit code {children[index].exitcode})") from None
                if kind == "error":
                    raise RuntimeError(f"a SAT solver process failed:\n{payload}")
                if kind == "done":
                    status_value, last_stats[index] = payload
                    return won(index, FillStatus(status_value))
                if kind == "progress":
                    last_stats[index] = payload
                    if index == 0:
                        emit(kind, payload)
                else:
                    emit(kind, payload)
                    if n_workers > 1:
                        return won(index, FillStatus.FILLED)
    finally:
        for child in children:
            if child.is_alive():
                child.kill()
        for child in children:
            child.join()
        for receiver in receivers:
            receiver.close()


# ----- export --------------------------------------------------------------------------------


class CnfTooLarge(Exception):
    """The CNF passed MAX_CNF_BYTES while being written (nothing is left at the path)."""


def export_cnf(
    problem: Problem, path: str | os.PathLike[str], k: int | None = None, max_bytes: int | None = None
) -> tuple[int, int]:
    """Write the problem's CNF in DIMACS form, with comments mapping variables to slots and words.

    Without `k` the model is exact (every arc-consistent word of every open slot, every
    no-word-twice clause): satisfiable exactly when the grid has a fill. With `k` each slot
    keeps its best `k` words (as in the backend's first round), so "unsatisfiable" proves
    nothing about the grid. Decode a model with the `c x VAR SLOT WORD` lines: the x
    variables that are true name each open slot's word; `c fixed SLOT WORD` lines give the
    slots the user filled. Variables not listed are auxiliary.

    The clauses are written as they are made, to a temporary file beside `path` (the `p cnf`
    line needs their count, known at the end), then the header and they are copied into `path`
    through `xwcp.runtime.writes.open_output` (whole or not at all): memory holds one batch of clauses, not the
    model (10 M clauses on a 15x15, about 1 GB as Python lists), and `path` is never half
    written.

    Args:
        problem: the problem.
        path: the file to write.
        k: words kept per slot, or None for the exact model.
        max_bytes: the most the file may hold (default MAX_CNF_BYTES).

    Returns:
        (number of variables, number of clauses).

    Raises:
        CnfTooLarge: the CNF passed `max_bytes`; nothing is written.
        OutputError: `path` cannot be written (an InputError naming it and the reason).
        OSError: the temporary file of the clauses cannot be written.
    """
    import contextlib
    import shutil
    import tempfile
    from pathlib import Path

    from xwcp.runtime.writes import open_output

    limit = MAX_CNF_BYTES if max_bytes is None else max_bytes
    target = Path(path)
    clock = Clock(Limits())
    engine, early = start_engine(problem, NAME, clock)
    grid, alphabet = problem.grid, problem.alphabet
    header = [
        f"xwcp CNF: {grid.width}x{grid.height} grid, {len(problem.slots)} slots "
        f"({len(problem.open_slot_ids)} open), min score {problem.min_score}, "
        f"k={'all' if k is None else k}",
        "exact model: satisfiable iff the grid has a fill"
        if k is None
        else f"restricted to each slot's best {k} words: unsatisfiable proves nothing about the grid",
        "decode: each true variable of a 'c x VAR SLOT WORD' line puts WORD in SLOT",
    ]
    header += [f"fixed {problem.slots[s].name} {text}" for s, text in sorted(problem.fixed_text_by_slot.items())]
    real = Path(os.path.realpath(target))  # a link to a file: the clauses wait beside its target
    is_direct = real.exists() and not real.is_file()  # /dev/stdout, a FIFO: no folder of its own to wait in
    folder = Path(tempfile.gettempdir()) if is_direct else real.parent
    body_fd, body_name = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".clauses", dir=folder)
    try:
        with os.fdopen(body_fd, "w", encoding="utf-8") as body:
            n_bytes = 0
            n_clauses = 0

            def write(batch: list[list[int]]) -> None:
                nonlocal n_bytes, n_clauses
                text = "".join(" ".join(map(str, clause)) + " 0\n" for clause in batch)
                n_bytes += len(text)
                n_clauses += len(batch)
                if n_bytes > limit:
                    raise CnfTooLarge(f"the CNF passes {limit / (1 << 30):g} GiB after {n_clauses:,} clauses")
                body.write(text)

            encoder = None
            if early is not None:
                header.append(f"no fill: {early.reason}")
            elif engine is not None:  # (always, when start_engine gives no answer)
                ranked = rank_words(problem, engine)
                if k is not None:
                    ranked = rerank_words(problem, ranked, {s: k for s in ranked}, RERANK_PASSES)
                lists = shortlist(problem, ranked, k)
                if lists.is_consistent:
                    encoder = _Encoder(problem, guarded=False, eager_dupes=True)
                    write(encoder.extend(lists.word_ids, sink=write))
                else:
                    header.append(
                        "no fill: arc consistency empties a slot" + ("" if k is None else " of the restriction")
                    )
            if encoder is None:
                n_vars = 1
                write([[1], [-1]])
            else:
                n_vars = encoder.n_vars
        with open_output(target, "CNF") as out:  # whole or not at all; comment lines name words as written
            out.write("".join(f"c {line}\n" for line in header))
            if encoder is not None:
                for slot_id, xs in encoder.vars_by_slot.items():
                    slot = problem.slots[slot_id]
                    bucket = problem.words.bucket(slot.length)
                    out.write(
                        "".join(
                            f"c x {x} {slot.name} {alphabet.written(bucket.text(int(w)))}\n"
                            for x, w in zip(xs.tolist(), encoder.words_by_slot[slot_id])
                        )
                    )
                for cell, code in zip(*np.nonzero(encoder.y_var)):
                    at = problem.cell_of(int(cell))
                    out.write(
                        f"c y {int(encoder.y_var[cell, code])} r{at // grid.width + 1}c{at % grid.width + 1} "
                        f"{alphabet.letters[int(code)]}\n"
                    )
            out.write(f"p cnf {n_vars} {n_clauses}\n")
            with open(body_name, encoding="utf-8") as clauses_text:
                shutil.copyfileobj(clauses_text, out, 1 << 20)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(body_name)
    return n_vars, n_clauses
