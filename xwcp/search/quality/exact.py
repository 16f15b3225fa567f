"""The exact pass for the mean on a small grid: CP-SAT over every open slot with every arc-consistent word at the floor."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from xwcp.base.types import SlotId
from xwcp.compile.problem import Problem
from xwcp.engine.result import check_fill
from xwcp.search.quality.aim import RAISE_PENALTY
from xwcp.search.quality.state import _Search
from xwcp.search.quality.stopping import solve_stoppable

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpSolver, LinearExprT

    from xwcp.backends.cpsat import _Model

EXACT_MAX_WORDS = 40_000
"""Largest model (words over the open slots' arc-consistent domains at the floor) given to `exact_mean`;
the stock 7x7 at floor 90 has 21,000 (built in 0.7-1.1 s), a Herald 15x15 at floor 80 421,000 (15 s)."""


def domain_words(problem: Problem) -> int:
    """Words left in the open slots' arc-consistent domains (the size of an exact model)."""
    from xwcp.engine.ac3 import propagate

    prop = propagate(problem)
    return sum(int(prop.domains[s].sum()) for s in problem.open_slot_ids) if prop.is_consistent else 0


def _exact_model(search: _Search, word_ids: dict[SlotId, NDArray[np.int32]], deadline_s: float) -> _Model | None:
    """The cpsat backend's clause model of the problem at the floor over `word_ids`, maximising the total less
    RAISE_PENALTY per entry at the floor, with the best fill as hint; None when the time ran out building it."""
    from xwcp.backends import cpsat
    from xwcp.backends._shortlist import Shortlists

    problem_at = search.best_problem
    model = cpsat._build_model(
        problem_at, Shortlists(word_ids, True, True), stop=lambda: search.elapsed() > deadline_s or search.stopped()
    )
    if model is None:
        return None
    objective: list[LinearExprT] = []
    for slot_id in problem_at.open_slot_ids:
        scores = np.asarray(
            problem_at.words.bucket(problem_at.slots[slot_id].length).scores[word_ids[slot_id]], np.int64
        )
        scores = np.where(scores <= search.floor, scores - RAISE_PENALTY, scores)  # fewest at the floor first
        xs = model.xs_by_slot[slot_id]
        objective.extend(int(c) * x for c, x in zip(scores.tolist(), xs) if c)
        current = problem_at.words.word_id(search.best[slot_id])
        where = np.flatnonzero(word_ids[slot_id] == current)
        if len(where):
            model.cp.add_hint(xs[int(where[0])], True)
    model.cp.maximize(sum(objective))
    return model


def exact_mean(search: _Search, time_limit_s: float) -> None:
    """CP-SAT over every open slot at once with every arc-consistent word at the floor (no sample),
    maximising the total, with the best fill as hint: a better fill, a bound on the total (CP-SAT's
    objective bound), and, when it finishes, the proof that its fill is the best there is.

    The model is the cpsat backend's clause model (`cpsat._build_model`) with the scores as the
    objective. It keeps the stem rule's shared stems (one word per stem group), but not compounds,
    `--max-shared-substring` or `--no-crossing`, so it is a relaxation of those: its bound stays
    valid, and its best fill counts only if it passes `check_fill`.
    """
    from ortools.sat.python import cp_model

    from xwcp.backends import cpsat
    from xwcp.engine.ac3 import propagate

    problem_at = search.best_problem
    prop = propagate(problem_at)
    if not prop.is_consistent:
        return
    word_ids = {s: np.flatnonzero(prop.domains[s]).astype(np.int32) for s in problem_at.open_slot_ids}
    deadline = search.elapsed() + time_limit_s
    model = _exact_model(search, word_ids, deadline)
    if model is None:
        return
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.05, deadline - search.elapsed())
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = search.limits.seed
    for name, value in cpsat.NATIVE_DEFAULTS.items():
        setattr(solver.parameters, name, value)
    status = solve_stoppable(solver, model.cp, search.limits.abort)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        _take_exact(search, model, solver, status == cp_model.OPTIMAL)


def _take_exact(search: _Search, model: _Model, solver: CpSolver, is_optimal: bool) -> None:
    """What a finished or stopped exact pass gives: a better fill, a bound on the total, the mean proven optimal."""
    from xwcp.backends._common import entries_from_word_ids

    problem_at = search.best_problem
    n_open = len(problem_at.open_slot_ids)
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
        search.say(
            f"{search.elapsed():6.1f} s  bound on the mean at floor {search.floor} (CP-SAT): {cp_bound / n_open:.2f}"
        )
    if is_optimal and is_valid:
        search.is_mean_optimal = True
        search.bound_total = search.total(search.best)
        search.say(f"{search.elapsed():6.1f} s  mean proven optimal at floor {search.floor}")
