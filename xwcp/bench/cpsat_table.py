"""The textbook CP-SAT crossword model as a bench entrant ("cpsat-table"): one table per slot, all-different per length.

Model (`_build_model`), as the design this project started from wrote it down:
  - a letter variable (0..25) per white cell, shared by the slots crossing there, fixed
    where the user entered a letter;
  - a word-index variable per open slot, over the slot's candidates (`Problem.domains`:
    right length, at or above the minimum score, agreeing with entered letters);
  - one `AddAllowedAssignments` table per open slot over (word index, its letters), so the
    word variable and the cells' letters agree;
  - one `AddAllDifferent` per word length over the open slots of that length (no word
    twice; word ids are scoped to a length bucket, so equal ids mean equal words).
Slots the user filled completely only fix their cells' letters. No shortlists, no
arc-consistency pass of our own, CP-SAT's default parameters.

It is a bench entrant, not a fill backend: `xwcp/backends/cpsat.py` replaced it because it
measured far slower (SOLVER-FACTS.md: no fill of an 11x11 in 120 s, presolve expanding the
tables into millions of clauses). `xwcp bench --backends cpsat-table,cpsat` shows the
difference grid by grid. Same contract as a backend: `fill(problem, limits) -> FillResult`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from xwcp.backends._common import MAX_KEPT_FILLS, Clock, entries_from_word_ids, limit_reason, wanted_fills
from xwcp.base.types import FillStatus, SlotId
from xwcp.bench.model_entrants import build_or_answer, stop_on_clock
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, FillStats, Limits

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel, IntVar

NAME = "cpsat-table"


def available() -> bool:
    try:
        from ortools.sat.python import cp_model  # noqa: F401
    except ImportError:
        return False
    return True


def missing() -> str:
    return "the cpsat-table entrant needs OR-Tools: pip install ortools"


class _Model:
    """The CP-SAT model and the word variable of each open slot."""

    def __init__(self, cp: CpModel, word_var_by_slot: dict[SlotId, IntVar]) -> None:
        self.cp = cp
        self.word_var_by_slot = word_var_by_slot

    def decode(self, value: Callable[[IntVar], int]) -> dict[SlotId, int]:
        return {slot_id: int(value(var)) for slot_id, var in self.word_var_by_slot.items()}


def _build_model(problem: Problem, stop: Callable[[], FillStatus | None] = lambda: None) -> _Model | None:
    """The textbook model of `problem` (see the module docstring); None when `stop()` says stop while building.

    Every open slot must have a candidate (`fill` answers UNFILLABLE before building otherwise).
    """
    from ortools.sat.python import cp_model

    cp = cp_model.CpModel()
    letter_var_by_cell: dict[int, IntVar] = {}
    alphabet = problem.alphabet
    for slot in problem.slots:
        for cell in slot.cells:
            if cell not in letter_var_by_cell:
                code = alphabet.index(problem.letters[cell])
                if code is not None:
                    letter_var_by_cell[cell] = cp.new_int_var(code, code, f"cell{cell}")
                else:
                    letter_var_by_cell[cell] = cp.new_int_var(0, alphabet.size - 1, f"cell{cell}")
    for slot_id, text in problem.fixed_text_by_slot.items():
        for cell, letter in zip(problem.slots[slot_id].cells, text):
            code = alphabet.index(letter)
            if code is not None:  # a symbol of the user's own entry: the crossing slot's domain is already empty
                cp.add(letter_var_by_cell[cell] == code)
    word_var_by_slot: dict[SlotId, IntVar] = {}
    for slot_id in problem.open_slot_ids:
        if stop() is not None:
            return None
        slot = problem.slots[slot_id]
        word_ids = np.flatnonzero(problem.domains[slot_id])
        domain = cp_model.Domain.from_values(word_ids.tolist())
        word_var = cp.new_int_var_from_domain(domain, f"word{slot.name}")
        word_var_by_slot[slot_id] = word_var
        letters = problem.words.bucket(slot.length).letters[word_ids].astype(np.int64)
        table = np.column_stack([word_ids.astype(np.int64), letters]).tolist()
        cp.add_allowed_assignments([word_var] + [letter_var_by_cell[c] for c in slot.cells], table)
    if not problem.allow_dupes:
        slots_by_length: dict[int, list[SlotId]] = {}
        for slot_id in word_var_by_slot:
            slots_by_length.setdefault(problem.slots[slot_id].length, []).append(slot_id)
        for same_length in slots_by_length.values():
            if len(same_length) > 1:
                cp.add_all_different([word_var_by_slot[s] for s in same_length])
    return _Model(cp, word_var_by_slot)


def fill(problem: Problem, limits: Limits | None = None) -> FillResult:
    """Fill every slot of `problem` with the textbook CP-SAT model, or prove it cannot be filled.

    `Limits.threads` is CP-SAT's `num_workers` (one when several fills are wanted, as CP-SAT's
    enumeration requires), `Limits.seed` its `random_seed`; `Limits.count` fills are
    enumerated. Model building counts against the time limit.

    Never mutates `problem`. FILLED and UNFILLABLE are proofs; LIMIT and ABORTED are not.
    """
    from ortools.sat.python import cp_model

    limits = limits or Limits()
    clock = Clock(limits)
    built = build_or_answer(problem, NAME, clock, _build_model, "the model")
    if isinstance(built, FillResult):
        return built
    model = built
    want = wanted_fills(limits)
    fills: list[tuple[str, ...]] = []
    counts = {"fills": 0}
    solver = cp_model.CpSolver()

    class Collector(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            counts["fills"] += 1
            if len(fills) < MAX_KEPT_FILLS:
                fills.append(entries_from_word_ids(problem, model.decode(self.value)))
            if want and counts["fills"] >= want:
                self.stop_search()

    params = solver.parameters
    params.random_seed = limits.seed
    params.num_workers = max(1, limits.threads) if want == 1 else 1
    params.enumerate_all_solutions = want != 1
    remaining = clock.remaining_s()
    if remaining is not None:
        params.max_time_in_seconds = max(0.001, remaining)
    if limits.max_backtracks:
        params.max_number_of_conflicts = limits.max_backtracks
    with stop_on_clock(clock, solver.stop_search, NAME):
        code = solver.solve(model.cp, Collector())
    name = solver.status_name(code)
    if name == "MODEL_INVALID":
        raise RuntimeError(f"CP-SAT rejected the model: {model.cp.validate()}")
    if name == "INFEASIBLE" or (name == "OPTIMAL" and not counts["fills"]):
        status = FillStatus.UNFILLABLE
    elif counts["fills"] and (name == "OPTIMAL" or want != 0):
        status = FillStatus.FILLED  # all enumerated, or as many as wanted (or found before a stop)
    else:
        status = clock.stop_status() or FillStatus.LIMIT
    reason = {FillStatus.UNFILLABLE: "CP-SAT (table model) proved that no fill exists", FillStatus.FILLED: ""}.get(
        status
    ) or limit_reason(status, limits)
    stats = FillStats(
        clock.elapsed_s,
        int(solver.num_branches),
        int(solver.num_conflicts),
        0,
        {"vars": len(model.cp.proto.variables), "constraints": len(model.cp.proto.constraints)},
    )
    return FillResult(
        status,
        NAME,
        stats,
        tuple(fills) if status is FillStatus.FILLED else (),
        counts["fills"] if status is FillStatus.FILLED else 0,
        reason,
    )
