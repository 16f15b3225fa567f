"""Fill a problem with OR-Tools CP-SAT, over shortlists of each slot's words that grow by rounds.

Model (`_build_model`). A Boolean per shortlisted (slot, word) and per (cell, letter) that some
shortlisted word puts there: exactly one word per slot, exactly one letter per cell, a word
implies its letters (one `bool_and` enforced by the word), a letter implies one of each
crossing slot's words with that letter there (support), and at most one slot per word
shortlisted in several slots of one length (no word twice).

Search (`fill`, the rounds in `_Rounds`). Round r keeps each open slot's best K_SCHEDULE[r] arc-consistent words
(crossing fit re-ranked so crossing shortlists agree, see `_shortlist`), re-made arc-consistent;
the last round keeps every word, so INFEASIBLE there (and only there) means UNFILLABLE.
A restriction without a fill, or ROUND_TIME_S spent on it, moves on to the next round. Several
fills (`Limits.count`) enumerate each round's solutions (one worker, as CP-SAT requires),
skipping fills an earlier round found; counting all fills takes every word at once.
A watcher thread calls `stop_search()` at the time limit or on abort.

Measured on the Herald 15.01-15.10 and 21.01-21.10 grids (default list, 30 s limit, 2 cores
shared with other work; seconds for the 20 grids together):
    final (clause model, eager duplicates, K 300/1000/3000/all)   20/20   48 s (max 12 s, 21.10)
    one worker (Limits.threads=1)                                 20/20   48 s
    K schedule 1000/3000/all                                      20/20   87 s
    K schedule 200/1000/3000/all                                  20/20   49 s
    lazy duplicates (a fresh solve per repeated word)             20/20  111 s
  On single K=300 rounds: one table (`AddAllowedAssignments`) per slot over (word, letters)
  takes 5-22 s on 15.01 with presolve (it expands the tables and probes 1M binary clauses)
  and 4.7 s without; a per-cell "equal letter counts" linear model 11-13 s; the clause model
  2.5 s with CP-SAT's defaults. Presolve spends 4-25 s on the clause model for no fewer
  conflicts, and SAT inprocessing (vivification) doubles its search: both are off
  (NATIVE_DEFAULTS), which brings 15.01 to about 1 s. 21.10 has no fill at K=300 (proved in
  4 s) and fills at K=1000. Weak spot, as for the SAT backend: grids whose fills need words
  ranked in the thousands (the stock 15x15-themeless-01) reach the limit.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, SupportsFloat, SupportsInt

import numpy as np
from numpy.typing import NDArray

from xwcp.backends._common import MAX_KEPT_FILLS, Clock, entries_from_word_ids, limit_reason, start_engine, wanted_fills
from xwcp.backends._shortlist import Shortlists, rank_words, rerank_words, shortlist
from xwcp.base.types import FillStatus, SlotId
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, FillStats, Limits, Progress

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel, CpSolver, CpSolverSolutionCallback, IntVar, LiteralT

NAME = "cpsat"

K_SCHEDULE = (300, 1000, 3000)
"""Shortlist sizes of the rounds before the last one, which takes every word."""
EAGER_DUPES = True
"""True: at most one slot per shared word up front; False: only for words a solution repeats
(each repeat costs a whole new solve: CP-SAT is not incremental)."""
RERANK_PASSES = 3
"""Passes of `rerank_words` before each restricted round (0: crossing fit against whole domains only)."""
ROUND_TIME_S = 0.0
"""Seconds a round may take before the next, bigger shortlist (0: no round limit)."""
NATIVE_DEFAULTS = {"cp_model_presolve": False, "use_sat_inprocessing": False, "catch_sigint_signal": False}
"""CP-SAT parameters we change: presolve takes 4-25 s on these models and finds little;
inprocessing (vivification) doubles the search time; CP-SAT's own Ctrl-C handler would turn
an interrupt into a quiet "limit reached", so Python keeps the signal (see xwcp.runtime.signals)."""
POLL_S = 0.02
"""How often the watcher thread checks the time limit and the abort event."""


def available() -> bool:
    try:
        from ortools.sat.python import cp_model  # noqa: F401
    except ImportError:
        return False
    return True


def missing() -> str:
    return "the CP-SAT backend needs OR-Tools: pip install ortools"


@dataclass(frozen=True)
class _Options:
    k_schedule: tuple[int, ...] = K_SCHEDULE
    eager_dupes: bool = EAGER_DUPES
    round_time_s: float = ROUND_TIME_S
    rerank_passes: int = RERANK_PASSES


def _whole(raw: object) -> int:
    """A whole-number option: a number or its text."""
    if isinstance(raw, (str, SupportsInt)):
        return int(raw)
    raise TypeError(f"expected a whole number, not {type(raw).__name__} {raw!r}")


def _real(raw: object) -> float:
    """A number-of-seconds option: a number or its text."""
    if isinstance(raw, (str, SupportsFloat)):
        return float(raw)
    raise TypeError(f"expected a number, not {type(raw).__name__} {raw!r}")


def _flag(raw: object) -> bool:
    """A yes/no option: a bool, or text (or a number) read as 1/true/yes."""
    return raw if isinstance(raw, bool) else str(raw).lower() in ("1", "true", "yes")


def _k_schedule(raw: object) -> tuple[int, ...]:
    """Shortlist sizes: "300,1000" or a sequence of numbers."""
    items = raw.split(",") if isinstance(raw, str) else raw
    if not isinstance(items, Iterable):
        raise TypeError(f"k_schedule: expected sizes like '300,1000', not {type(raw).__name__} {raw!r}")
    return tuple(_whole(k) for k in items)


_OPTION_NAMES = frozenset(f.name for f in fields(_Options))
"""This backend's own items of `Limits.extra` (every other item is a CP-SAT parameter)."""


def _options(extra: Mapping[str, object]) -> _Options:
    default = _Options()
    return _Options(
        k_schedule=_k_schedule(extra["k_schedule"]) if "k_schedule" in extra else default.k_schedule,
        eager_dupes=_flag(extra["eager_dupes"]) if "eager_dupes" in extra else default.eager_dupes,
        round_time_s=_real(extra["round_time_s"]) if "round_time_s" in extra else default.round_time_s,
        rerank_passes=_whole(extra["rerank_passes"]) if "rerank_passes" in extra else default.rerank_passes,
    )


# ----- the model ------------------------------------------------------------------------------


@dataclass
class _Model:
    """A CP-SAT model of a shortlisted problem: `xs_by_slot[slot_id][i]` is true when the slot
    takes `word_ids[slot_id][i]`; `y_by_cell[cell][code]` when the cell holds that letter."""

    cp: CpModel
    word_ids: dict[SlotId, NDArray[np.int32]]
    xs_by_slot: dict[SlotId, list[IntVar]] = field(default_factory=dict)
    y_by_cell: dict[int, dict[int, IntVar]] = field(default_factory=dict)
    n_constraints: int = 0
    n_dupe_constraints: int = 0

    @property
    def n_vars(self) -> int:
        return sum(len(xs) for xs in self.xs_by_slot.values()) + sum(len(ys) for ys in self.y_by_cell.values())

    def decode(self, value_of: Callable[[LiteralT], bool]) -> dict[SlotId, int]:
        """{slot_id: word_id} from `value_of(bool_var) -> bool` (a solver's or a callback's)."""
        word_by_slot = {}
        for slot_id, xs in self.xs_by_slot.items():
            index = next(i for i, x in enumerate(xs) if value_of(x))
            word_by_slot[slot_id] = int(self.word_ids[slot_id][index])
        return word_by_slot

    def vars_of_word(self, problem: Problem, length: int, word_id: int) -> list[IntVar]:
        found: list[IntVar] = []
        for slot_id, word_ids in self.word_ids.items():
            if problem.slots[slot_id].length == length:
                found.extend(self.xs_by_slot[slot_id][i] for i in np.flatnonzero(word_ids == word_id))
        return found

    def forbid_repeat(self, problem: Problem, length: int, word_id: int) -> None:
        """No two slots take `word_id` (a lazy no-good, added once a solution repeats it)."""
        self.cp.add_at_most_one(self.vars_of_word(problem, length, word_id))
        self.n_constraints += 1

    def block(self, word_by_slot: dict[SlotId, int]) -> None:
        """Forbid this exact fill."""
        chosen = [self.xs_by_slot[s][int(np.argmax(self.word_ids[s] == w))] for s, w in word_by_slot.items()]
        self.cp.add_bool_or([~x for x in chosen])
        self.n_constraints += 1


def _build_model(
    problem: Problem, lists: Shortlists, *, eager_dupes: bool = EAGER_DUPES, stop: Callable[[], object] | None = None
) -> _Model | None:
    """Compile the shortlisted problem to a CP-SAT model without solving it.

    Returns None if `stop()` turns true while building (big shortlists take seconds).

    Constraints: exactly one word per slot; exactly one letter per cell; a word implies its
    letters (one `bool_and` per word); a letter implies, for each slot through the cell, one
    of its words with that letter there (support, as in the SAT model); with `eager_dupes`,
    at most one slot per word shortlisted in several slots of one length.
    """
    from ortools.sat.python import cp_model

    cp = cp_model.CpModel()
    model = _Model(cp, lists.word_ids)
    letters_by_slot: dict[SlotId, NDArray[np.int8]] = {}
    for slot_id, word_ids in lists.word_ids.items():
        if stop is not None and stop():
            return None
        slot = problem.slots[slot_id]
        letters = problem.words.bucket(slot.length).letters[word_ids]
        letters_by_slot[slot_id] = letters
        model.xs_by_slot[slot_id] = [cp.new_bool_var(f"s{slot_id}w{w}") for w in word_ids.tolist()]
        for pos, cell in enumerate(slot.cells):
            ys = model.y_by_cell.setdefault(cell, {})
            for code in np.unique(letters[:, pos]).tolist():
                if code not in ys:
                    ys[code] = cp.new_bool_var(f"c{cell}l{code}")  # cell, letter index
    for ys in model.y_by_cell.values():
        cp.add_exactly_one(list(ys.values()))
    for slot_id, xs in model.xs_by_slot.items():
        if stop is not None and stop():
            return None
        cp.add_exactly_one(xs)
        cells = problem.slots[slot_id].cells
        letters = letters_by_slot[slot_id]
        y_rows = [model.y_by_cell[cell] for cell in cells]
        for x, row in zip(xs, letters.tolist()):
            cp.add_bool_and([ys[code] for ys, code in zip(y_rows, row)]).only_enforce_if(x)
        for pos, ys in enumerate(y_rows):
            column = letters[:, pos]
            order = np.argsort(column, kind="stable")
            bounds = np.concatenate([[0], np.cumsum(np.bincount(column, minlength=problem.alphabet.size))])
            for code, y in ys.items():
                cp.add_bool_or([~y] + [xs[i] for i in order[bounds[code] : bounds[code + 1]].tolist()])
                model.n_constraints += 1
        model.n_constraints += 1 + len(xs)
    model.n_constraints += len(model.y_by_cell)
    if eager_dupes and not problem.allow_dupes:
        _forbid_shared_words(problem, lists, model)
    if problem.controls.distinct_stems:
        _forbid_shared_stems(problem, lists, model)
    return model


def _forbid_shared_stems(problem: Problem, lists: Shortlists, model: _Model) -> None:
    """The stem rule (`xwcp.words.stems.stem_groups`): at most one slot takes a word of each stem group shortlisted
    in several slots; the same word in two slots stays the duplicate rule's (allowed when duplicates are)."""
    from xwcp.words.stems import stem_groups, stems_for

    groups = stem_groups(problem.words, stems_for(problem.alphabet))
    by_group: dict[int, dict[SlotId, list[tuple[int, LiteralT]]]] = {}
    for slot_id, word_ids in lists.word_ids.items():
        length = problem.slots[slot_id].length
        of_word = groups.of_length(length)[word_ids]
        for i in np.flatnonzero(of_word >= 0).tolist():
            by_group.setdefault(int(of_word[i]), {}).setdefault(slot_id, []).append(
                (length * 10_000_000 + int(word_ids[i]), model.xs_by_slot[slot_id][i])
            )
    for by_slot in by_group.values():
        if len(by_slot) < 2:
            continue
        if problem.allow_dupes:  # every pair of slots: neither takes a word of the group unless both take one word
            slots = list(by_slot)
            for i, a in enumerate(slots):
                for b in slots[i + 1 :]:
                    for key_a, x_a in by_slot[a]:
                        for key_b, x_b in by_slot[b]:
                            if key_a != key_b:
                                model.cp.add_bool_or([~x_a, ~x_b])
                                model.n_constraints += 1
            continue
        model.cp.add_at_most_one([x for pairs in by_slot.values() for _, x in pairs])
        model.n_constraints += 1


def _forbid_shared_words(problem: Problem, lists: Shortlists, model: _Model) -> None:
    """At most one slot per word shortlisted in several slots of one length (duplicates, up front)."""
    by_key: dict[tuple[int, int], list[LiteralT]] = {}
    for slot_id, word_ids in lists.word_ids.items():
        length = problem.slots[slot_id].length
        for x, word_id in zip(model.xs_by_slot[slot_id], word_ids.tolist()):
            by_key.setdefault((length, word_id), []).append(x)
    for xs in by_key.values():
        if len(xs) > 1:
            model.cp.add_at_most_one(xs)
            model.n_dupe_constraints += 1
    model.n_constraints += model.n_dupe_constraints


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


# ----- the search ------------------------------------------------------------------------------


def _collector(model: _Model, add_fill: Callable[[dict[SlotId, int]], bool]) -> CpSolverSolutionCallback:
    """A solution callback that hands each fill of an enumeration to `add_fill` and stops when it says enough."""
    from ortools.sat.python import cp_model

    class Collector(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if add_fill(model.decode(self.boolean_value)):
                self.stop_search()

    return Collector()


@dataclass
class _Rounds:
    """One `fill`: the rounds of growing shortlists on one solver, the fills found, and the solver's counts."""

    problem: Problem
    limits: Limits
    clock: Clock
    options: _Options
    solver: CpSolver
    want: int
    """Fills wanted: 1, N, or 0 for all (`wanted_fills`)."""
    native: dict[str, object] = field(default_factory=dict)
    """CP-SAT parameters to set: NATIVE_DEFAULTS, then the caller's `Limits.extra`."""
    fills: list[tuple[str, ...]] = field(default_factory=list)
    seen: set[tuple[str, ...]] = field(default_factory=set)
    n_fills: int = 0
    n_rounds: int = 0
    n_lazy: int = 0
    n_nodes: int = 0
    n_conflicts: int = 0
    last_k: int | None = None
    last_model: _Model | None = None

    def add_fill(self, word_by_slot: dict[SlotId, int]) -> bool:
        """Record a fill unless an earlier round found it; True when enough fills are in."""
        entries = entries_from_word_ids(self.problem, word_by_slot)
        if entries not in self.seen:
            self.seen.add(entries)
            self.n_fills += 1
            if len(self.fills) < MAX_KEPT_FILLS:
                self.fills.append(entries)
        return bool(self.want) and self.n_fills >= self.want

    def _set_parameters(self, k: int | None) -> None:
        """The solver's parameters for one solve of a round with shortlists of `k` words (None: every word)."""
        limits, params = self.limits, self.solver.parameters
        params.random_seed = limits.seed
        # enumeration and conflict limits work with one worker only (others ignore the limit)
        params.num_workers = max(1, limits.threads) if self.want == 1 and not limits.max_backtracks else 1
        params.enumerate_all_solutions = self.want != 1
        budgets = [
            b
            for b in (self.clock.remaining_s(), self.options.round_time_s if k is not None and self.want == 1 else 0)
            if b
        ]
        params.max_time_in_seconds = max(0.001, min(budgets)) if budgets else float("inf")
        if limits.max_backtracks:
            params.max_number_of_conflicts = max(1, limits.max_backtracks - self.n_conflicts)
        for key, value in self.native.items():
            try:
                setattr(params, key, value)
            except (AttributeError, TypeError, ValueError) as exc:
                raise ValueError(f"cannot set CP-SAT parameter {key}={value!r}: {exc}") from None

    def solve(self, model: _Model, k: int | None) -> str:
        """Solve `model` once (an enumeration hands its fills to `add_fill`); CP-SAT's status name."""
        self._set_parameters(k)
        code = self.solver.solve(model.cp, _collector(model, self.add_fill) if self.want != 1 else None)
        self.n_nodes += int(self.solver.num_branches)
        self.n_conflicts += int(self.solver.num_conflicts)
        if self.limits.progress is not None:
            self.limits.progress(
                Progress(
                    NAME,
                    self.clock.elapsed_s,
                    self.n_nodes,
                    self.n_conflicts,
                    self.n_rounds,
                    0,
                    len(self.problem.slots),
                )
            )
        name = self.solver.status_name(code)
        if name == "MODEL_INVALID":
            raise RuntimeError(f"CP-SAT rejected the model: {model.cp.validate()}")
        return name

    def settled(self) -> FillStatus:
        """After the last round: FILLED when a fill was found, else UNFILLABLE (the last round took every word)."""
        return FillStatus.FILLED if self.n_fills else FillStatus.UNFILLABLE

    def run(self, schedule: list[int | None], ranked: dict[SlotId, NDArray[np.int32]]) -> FillStatus:
        """Every round of `schedule` until one answers."""
        for k in schedule:
            status = self.round(k, ranked)
            if status is not None:
                return status
        return self.settled()

    def round(self, k: int | None, ranked: dict[SlotId, NDArray[np.int32]]) -> FillStatus | None:
        """One round: each slot's best `k` words (None: every word), the model, its solves; None when the round
        ends without an answer and the next, bigger one is to be tried."""
        self.n_rounds += 1
        self.last_k = k
        ordered = ranked
        if k is not None and self.options.rerank_passes:
            ordered = rerank_words(
                self.problem, ranked, {s: k for s in ranked}, self.options.rerank_passes, self.clock.deadline
            )
        lists = shortlist(self.problem, ordered, k)
        if not lists.is_consistent:
            # start_engine already propagated, but stay exact
            return self.settled() if lists.is_complete else None
        model = _build_model(
            self.problem, lists, eager_dupes=self.options.eager_dupes or self.want != 1, stop=self.clock.stop_status
        )
        if model is None:
            return self.clock.stop_status() or FillStatus.LIMIT
        self.last_model = model
        status = self.solve_round(model, lists, k)
        if status is not None:
            return status
        return self.settled() if lists.is_complete else None

    def solve_round(self, model: _Model, lists: Shortlists, k: int | None) -> FillStatus | None:
        """Solve one round's model until it answers: a fill without a repeated word (a repeat is forbidden and
        the model solved again), every fill of an enumeration, a stop; None when the round has no (more) fill."""
        while True:
            stop = self.clock.stop_status()
            if stop is not None:
                return stop
            name = self.solve(model, k)
            if self.want != 1:  # an enumeration: the collector took every fill it met
                if self.want and self.n_fills >= self.want:
                    return FillStatus.FILLED
                if name in ("OPTIMAL", "INFEASIBLE"):  # every fill of this round seen
                    return None
                return self.clock.stop_status() or FillStatus.LIMIT
            if name in ("OPTIMAL", "FEASIBLE"):
                word_by_slot = model.decode(self.solver.boolean_value)
                repeats = _repeats(self.problem, word_by_slot)
                if not repeats:
                    self.add_fill(word_by_slot)
                    return FillStatus.FILLED
                self.n_lazy += len(repeats)
                for length, word_id in repeats:
                    model.forbid_repeat(self.problem, length, word_id)
            elif name == "INFEASIBLE":
                return None
            else:  # UNKNOWN: the caller's limit, this round's, or a native limit from `extra`
                stop = self.clock.stop_status()
                cap = self.limits.max_backtracks or 0
                out_of_conflicts = bool(cap) and self.n_conflicts >= cap
                if stop is not None or lists.is_complete or out_of_conflicts:
                    return stop or FillStatus.LIMIT
                return None

    def run_watched(self, schedule: list[int | None], ranked: dict[SlotId, NDArray[np.int32]]) -> FillStatus:
        """`run`, with a watcher thread that calls `stop_search()` at the time limit or on abort."""
        done = threading.Event()

        def watch() -> None:
            while not done.wait(POLL_S):
                if self.clock.stop_status() is not None:
                    self.solver.stop_search()  # again each poll: a solve that starts later must stop too

        watcher = threading.Thread(target=watch, name="xwcp-cpsat-watcher", daemon=True)
        watcher.start()
        try:
            return self.run(schedule, ranked)
        finally:
            done.set()
            watcher.join()

    def result(self, status: FillStatus) -> FillResult:
        """The answer: fills found before a stop are answers (unless counting all), with the last round's figures."""
        limits = self.limits
        if status in (FillStatus.LIMIT, FillStatus.ABORTED) and self.n_fills and self.want:
            status = FillStatus.FILLED
        model = self.last_model
        stats = FillStats(
            self.clock.elapsed_s,
            self.n_nodes,
            self.n_conflicts,
            0,
            {
                "k": "all" if self.last_k is None else self.last_k,
                "rounds": self.n_rounds,
                "vars": model.n_vars if model else 0,
                "constraints": model.n_constraints if model else 0,
                "lazy_nogoods": self.n_lazy,
            },
        )
        reason = ""
        if status is FillStatus.UNFILLABLE:
            reason = "CP-SAT proved that no fill exists"
        elif status is FillStatus.LIMIT and self.clock.stop_status() is None:
            reason = (
                f"conflict limit of {limits.max_backtracks} reached"
                if limits.max_backtracks
                else "a solver limit set in Limits.extra was reached"
            )
        elif status in (FillStatus.LIMIT, FillStatus.ABORTED):
            reason = limit_reason(status, limits)
        return FillResult(status, NAME, stats, tuple(self.fills), self.n_fills, reason)


def fill(problem: Problem, limits: Limits | None = None) -> FillResult:
    """Fill every slot of `problem`, or prove it cannot be filled, within `limits`.

    `Limits.threads` is CP-SAT's `num_workers`, `Limits.seed` its `random_seed`,
    `Limits.max_backtracks` caps its conflicts over all rounds (with one worker: CP-SAT's
    other workers ignore `max_number_of_conflicts`); items of
    `Limits.extra` are set on `solver.parameters` (e.g. {"cp_model_presolve": True}), except
    this backend's own "k_schedule", "eager_dupes", "round_time_s" and "rerank_passes".
    Reproducible only with one worker and no time limit reached.

    Never mutates `problem`. FILLED and UNFILLABLE are proofs; LIMIT and ABORTED are not.
    """
    from ortools.sat.python import cp_model

    limits = limits or Limits()
    clock = Clock(limits)
    engine, early = start_engine(problem, NAME, clock)
    if early is not None:
        return early
    assert engine is not None  # start_engine gives an engine whenever it gives no result
    options = _options(limits.extra)
    want = wanted_fills(limits)
    ranked = rank_words(problem, engine, clock.deadline)
    longest = max((len(ids) for ids in ranked.values()), default=0)
    schedule: list[int | None] = [None] if want == 0 else [k for k in options.k_schedule if k < longest] + [None]
    rounds = _Rounds(
        problem,
        limits,
        clock,
        options,
        cp_model.CpSolver(),
        want,
        {**NATIVE_DEFAULTS, **{key: value for key, value in limits.extra.items() if key not in _OPTION_NAMES}},
    )
    return rounds.result(rounds.run_watched(schedule, ranked))
