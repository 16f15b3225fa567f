"""The CP-SAT backend's model (xwcp/backends/cpsat.py), without and with solving: encoding, lazy no-goods, shortlist
growth, counting, native parameters."""

from __future__ import annotations

import pytest

from tests.backends.test_shortlist import TRAP_WORDS, ranked_words, square
from xwcp.backends import _shortlist
from xwcp.base.types import FillStatus
from xwcp.engine.result import Limits, check_fill

cpsat_only = pytest.mark.skipif(
    not __import__("xwcp.backends.cpsat", fromlist=["available"]).available(), reason="ortools is not installed"
)


def cpsat_model(problem, *, eager_dupes=True):
    from xwcp.backends import cpsat

    lists = _shortlist.shortlist(problem, ranked_words(problem), None)
    return cpsat._build_model(problem, lists, eager_dupes=eager_dupes)


@cpsat_only
def test_cpsat_model_counts_on_the_square():
    # vars: 8 words + 6 letters (A | B,C | B,C | D: the corner cells keep one letter, the others two);
    # constraints: 4 exactly-one letter, per slot 1 exactly-one word + 2 word->letters + 3 support,
    # and 4 at-most-one for the 4 words shortlisted in two slots.
    model = cpsat_model(square())
    assert sum(len(xs) for xs in model.xs_by_slot.values()) == 8
    assert sorted(len(ys) for ys in model.y_by_cell.values()) == [1, 1, 2, 2]
    assert model.n_vars == 14
    assert model.n_constraints == len(model.cp.proto.constraints) == 4 + 4 * 6 + 4
    assert model.n_dupe_constraints == 4


@cpsat_only
def test_cpsat_model_channels_every_letter_of_every_candidate():
    problem = square()
    model = cpsat_model(problem)
    letters_by_enforcer = {}
    for constraint in model.cp.proto.constraints:
        # ortools >= 9.15 exposes has_<field>(); older releases are protobuf messages
        is_and = constraint.has_bool_and() if hasattr(constraint, "has_bool_and") else constraint.HasField("bool_and")
        if is_and:
            letters_by_enforcer[constraint.enforcement_literal[0]] = set(constraint.bool_and.literals)
    for sid, xs in model.xs_by_slot.items():
        slot = problem.slots[sid]
        for x, word_id in zip(xs, model.word_ids[sid].tolist()):
            text = problem.words.bucket(slot.length).text(word_id)
            wanted = {model.y_by_cell[cell][ord(letter) - 65].index for cell, letter in zip(slot.cells, text)}
            assert letters_by_enforcer[x.index] == wanted


@cpsat_only
def test_cpsat_lazy_no_good_removes_a_solution_that_repeats_a_word():
    from ortools.sat.python import cp_model

    from xwcp.backends import cpsat

    problem = square()
    model = cpsat_model(problem, eager_dupes=False)
    assert model.n_dupe_constraints == 0
    word_ab = problem.words.word_id("AB")
    for x in model.vars_of_word(problem, 2, word_ab):  # 1A = 1D = AB: then 3A = 2D = BD
        model.cp.add(x == 1)
    solver = cp_model.CpSolver()
    assert solver.solve(model.cp) == cp_model.OPTIMAL
    repeats = cpsat._repeats(problem, model.decode(solver.boolean_value))
    assert (2, word_ab) in repeats and len(repeats) == 2
    model.forbid_repeat(problem, 2, word_ab)
    assert solver.solve(model.cp) == cp_model.INFEASIBLE


@cpsat_only
@pytest.mark.parametrize("eager", [False, True])
def test_cpsat_grows_a_shortlist_without_a_fill(eager):
    from xwcp.backends import cpsat

    problem = square()
    result = cpsat.fill(problem, Limits(extra={"k_schedule": "1", "rerank_passes": 0, "eager_dupes": eager}))
    assert result.status is FillStatus.FILLED
    assert check_fill(problem, result.entries) == []
    assert result.stats.extra["k"] == "all" and result.stats.extra["rounds"] == 2


@cpsat_only
@pytest.mark.parametrize("eager", [False, True])
def test_cpsat_proves_no_fill_only_once_every_shortlist_is_complete(eager):
    from xwcp.backends import cpsat

    problem = square(TRAP_WORDS)
    result = cpsat.fill(problem, Limits(extra={"k_schedule": "1", "eager_dupes": eager}))
    assert result.status is FillStatus.UNFILLABLE
    assert result.stats.extra["k"] == "all"
    if not eager:
        assert result.stats.extra["lazy_nogoods"] >= 1


@cpsat_only
@pytest.mark.parametrize("count, expected", [(0, 2), (5, 2), (1, 1)])
def test_cpsat_counts_fills_like_backtrack(count, expected):
    from xwcp.backends import backtrack, cpsat

    problem = square()
    result = cpsat.fill(problem, Limits(count=count))
    assert result.status is FillStatus.FILLED
    assert result.n_fills == expected == len(set(result.fills))
    assert all(check_fill(problem, entries) == [] for entries in result.fills)
    if count == 0:
        assert result.n_fills == backtrack.fill(problem, Limits(count=0)).n_fills


@cpsat_only
def test_cpsat_passes_native_parameters_and_rejects_unknown_ones():
    from xwcp.backends import cpsat

    problem = square()
    result = cpsat.fill(problem, Limits(extra={"cp_model_presolve": True, "log_search_progress": False}))
    assert result.status is FillStatus.FILLED
    assert check_fill(problem, result.entries) == []
    with pytest.raises(ValueError, match="no_such_parameter"):
        cpsat.fill(problem, Limits(extra={"no_such_parameter": 1}))
