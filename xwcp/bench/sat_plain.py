"""The plain one-shot CNF crossword model as a bench entrant ("sat-plain"): every candidate word in one formula.

Model (`_build_cnf`), the direct encoding SOLVER-FACTS.md measured before the `sat` backend
moved to growing shortlists:
  - x[s,w]: open slot s takes candidate word w (`Problem.domains`: right length, at or above
    the minimum score, agreeing with entered letters); y[cell,c]: cell holds letter c;
  - one word per slot: at least one x[s,.] (a clause); at most one follows from the letters
    (two different words of a slot differ in some cell, and a cell holds one letter);
  - exactly one letter per cell: at least one y, pairwise at most one; entered letters and
    the cells of slots the user filled completely are unit clauses;
  - channelling: x[s,w] -> y[cell, letter of w there], for each cell of s;
  - support: y[cell,c] -> OR of x[s,w] with c there, for each slot s through the cell;
  - no word twice: pairwise (not x[s,w] or not x[t,w]) for same-length open slots s, t.
The whole formula goes to Glucose 4 at once (batched with `append_formula`); no shortlists,
no lazy clauses. Several fills are found by blocking each fill's word choice.

A bench entrant, not a fill backend: on open 15x15 grids with the default list the formula
has 10-12 million clauses and takes 30-40 s just to load (SOLVER-FACTS.md). Time limits use
`interrupt()`, which Glucose checks only between restarts, so a run may end seconds late on a
big model (the bench stops a run that overstays its limit). Same contract as a backend:
`fill(problem, limits) -> FillResult`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np

from xwcp.backends._common import MAX_KEPT_FILLS, Clock, entries_from_word_ids, limit_reason, wanted_fills
from xwcp.base.types import FillStatus, SlotId
from xwcp.bench.model_entrants import build_or_answer, stop_on_clock
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, FillStats, Limits

NAME = "sat-plain"

SOLVER = "glucose4"
"""python-sat solver with `interrupt()`, as the `sat` backend uses."""


def available() -> bool:
    try:
        from pysat.solvers import Solver  # noqa: F401
    except ImportError:
        return False
    return True


def missing() -> str:
    return "the sat-plain entrant needs python-sat: pip install python-sat"


class _Cnf:
    """The clauses and the variable numbering: x[s,w] by (slot, word), y[cell,c] by (cell, letter)."""

    def __init__(self) -> None:
        self.clauses: list[list[int]] = []
        self.n_vars = 0
        self.slot_word_by_var: dict[int, tuple[SlotId, int]] = {}
        self.y_by_cell_letter: dict[tuple[int, int], int] = {}

    def new_var(self) -> int:
        self.n_vars += 1
        return self.n_vars

    def decode(self, model: list[int]) -> dict[SlotId, int]:
        return {
            self.slot_word_by_var[v][0]: self.slot_word_by_var[v][1]
            for v in model
            if v > 0 and v in self.slot_word_by_var
        }

    def word_vars(self, model: list[int]) -> list[int]:
        return [v for v in model if v > 0 and v in self.slot_word_by_var]


def _build_cnf(problem: Problem, stop: Callable[[], FillStatus | None] = lambda: None) -> _Cnf | None:
    """The plain CNF of `problem` (see the module docstring); None when `stop()` says stop while building."""
    cnf = _Cnf()
    alphabet = problem.alphabet
    n_letters = alphabet.size
    cells = sorted({cell for slot in problem.slots for cell in slot.cells})
    for cell in cells:
        ys = [cnf.new_var() for _ in range(n_letters)]
        for letter, y in enumerate(ys):
            cnf.y_by_cell_letter[cell, letter] = y
        cnf.clauses.append(ys)
        cnf.clauses.extend([-a, -b] for a, b in itertools.combinations(ys, 2))
        given = alphabet.index(problem.letters[cell])
        if given is not None:
            cnf.clauses.append([ys[given]])
    for slot_id, text in problem.fixed_text_by_slot.items():
        for cell, char in zip(problem.slots[slot_id].cells, text):
            code = alphabet.index(char)
            if code is not None:  # a symbol of the user's own entry: the crossing slot's domain is already empty
                cnf.clauses.append([cnf.y_by_cell_letter[cell, code]])
    x_by_slot: dict[SlotId, dict[int, int]] = {}
    for slot_id in problem.open_slot_ids:
        if stop() is not None:
            return None
        slot = problem.slots[slot_id]
        word_ids = np.flatnonzero(problem.domains[slot_id])
        letters = problem.words.bucket(slot.length).letters
        x_by_word: dict[int, int] = {}
        for word_id in word_ids.tolist():
            x = cnf.new_var()
            x_by_word[word_id] = x
            cnf.slot_word_by_var[x] = (slot_id, word_id)
        x_by_slot[slot_id] = x_by_word
        cnf.clauses.append(list(x_by_word.values()))  # at least one word (empty: no fill)
        support: dict[tuple[int, int], list[int]] = {}
        for word_id, x in x_by_word.items():
            for cell, letter in zip(slot.cells, letters[word_id].tolist()):
                y = cnf.y_by_cell_letter[cell, letter]
                cnf.clauses.append([-x, y])
                support.setdefault((cell, letter), []).append(x)
        for cell in slot.cells:
            for letter in range(n_letters):
                cnf.clauses.append([-cnf.y_by_cell_letter[cell, letter]] + support.get((cell, letter), []))
    if not problem.allow_dupes:
        for s, t in itertools.combinations(x_by_slot, 2):
            if problem.slots[s].length != problem.slots[t].length:
                continue
            if stop() is not None:
                return None
            shared = x_by_slot[s].keys() & x_by_slot[t].keys()
            cnf.clauses.extend([-x_by_slot[s][w], -x_by_slot[t][w]] for w in shared)
    return cnf


def fill(problem: Problem, limits: Limits | None = None) -> FillResult:
    """Fill every slot of `problem` with the plain CNF, or prove it cannot be filled, within `limits`.

    `Limits.count` fills are found by blocking each one; `Limits.max_backtracks` caps conflicts
    per solve. Building and loading the formula count against the time limit.

    Never mutates `problem`. FILLED and UNFILLABLE are proofs; LIMIT and ABORTED are not.
    """
    from pysat.solvers import Solver

    limits = limits or Limits()
    clock = Clock(limits)
    built = build_or_answer(problem, NAME, clock, _build_cnf, "the formula")
    if isinstance(built, FillResult):
        return built
    cnf = built
    want = wanted_fills(limits)
    fills: list[tuple[str, ...]] = []
    counts = {"fills": 0, "conflicts": 0}
    outcome: bool | None = None
    with Solver(name=SOLVER, bootstrap_with=cnf.clauses) as solver, stop_on_clock(clock, solver.interrupt, NAME):
        cnf.clauses = []  # the solver holds them now
        while True:
            if clock.stop_status() is not None:
                outcome = None
                break
            if limits.max_backtracks:
                solver.conf_budget(limits.max_backtracks)
            outcome = solver.solve_limited(expect_interrupt=True)
            solver.clear_interrupt()
            counts["conflicts"] = int(solver.accum_stats().get("conflicts", 0))
            if not outcome:
                break
            model = solver.get_model()
            counts["fills"] += 1
            if len(fills) < MAX_KEPT_FILLS:
                fills.append(entries_from_word_ids(problem, cnf.decode(model)))
            if want and counts["fills"] >= want:
                break
            blocking = [-v for v in cnf.word_vars(model)]
            if not blocking:  # no open slot: the only fill is the grid as entered
                outcome = False
                break
            solver.add_clause(blocking)
    if outcome is False:  # proven: no (further) fill
        status = FillStatus.FILLED if counts["fills"] else FillStatus.UNFILLABLE
    elif counts["fills"] and want:
        status = FillStatus.FILLED
    else:
        status = clock.stop_status() or FillStatus.LIMIT
    reason = {
        FillStatus.UNFILLABLE: "the SAT solver (plain CNF) proved that no fill exists",
        FillStatus.FILLED: "",
    }.get(status)
    if reason is None:
        reason = (
            limit_reason(status, limits)
            if clock.stop_status()
            else f"conflict limit of {limits.max_backtracks} reached"
        )
    stats = FillStats(clock.elapsed_s, 0, counts["conflicts"], 0, {"vars": cnf.n_vars})
    return FillResult(
        status,
        NAME,
        stats,
        tuple(fills) if status is FillStatus.FILLED else (),
        counts["fills"] if status is FillStatus.FILLED else 0,
        reason,
    )
