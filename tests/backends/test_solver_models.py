"""The SAT and CP-SAT backends' models, without and with solving: encodings, shortlist growth, export, duplicates."""
from __future__ import annotations

import multiprocessing
import threading
import time

import numpy as np
import pytest

from xwcp.backends import _shortlist
from xwcp.backends._common import Clock, start_engine
from xwcp.model import parse_grid
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.base.types import FillStatus
from xwcp.words.wordlist import words_from_pairs

SQUARE = "..\n..\n"
SQUARE_WORDS = ["AB", "CD", "AC", "BD"]
"""Two fills (AB/CD across with AC/BD down, and its transpose) and two that repeat words."""

TRAP_WORDS = ["AB", "BA"]
"""Every way to cross these in SQUARE repeats a word: arc-consistent, yet no fill."""


def square(words=SQUARE_WORDS):
    return compile_problem(parse_grid(SQUARE), words_from_pairs(words), min_score=0)


def ranked_words(problem):
    engine, early = start_engine(problem, "test", Clock(Limits()))
    assert early is None
    return _shortlist.rank_words(problem, engine)


def slot_id(problem, name):
    return problem.slot_by_name(name).id


# ----- shortlists --------------------------------------------------------------------------------

def test_rank_words_puts_best_crossing_fit_first_and_keeps_every_live_word():
    problem = square()
    ranked = ranked_words(problem)
    bucket = problem.words.bucket(2)
    assert [bucket.text(w) for w in ranked[slot_id(problem, "1A")]] == ["AB", "AC"]  # tie on fit: word order
    assert sorted(bucket.text(w) for w in ranked[slot_id(problem, "3A")]) == ["BD", "CD"]
    reranked = _shortlist.rerank_words(problem, ranked, {s: 1 for s in ranked})
    assert {s: sorted(ids) for s, ids in reranked.items()} == {s: sorted(ids) for s, ids in ranked.items()}


def test_shortlist_of_one_word_repeats_a_word_so_arc_consistency_rejects_it():
    problem = square()
    ranked = ranked_words(problem)
    lists = _shortlist.shortlist(problem, ranked, 1)
    assert not lists.is_consistent and not lists.is_complete
    full = _shortlist.shortlist(problem, ranked, None)
    assert full.is_consistent and full.is_complete and full.n_words == 8


# ----- SAT model ---------------------------------------------------------------------------------

sat_only = pytest.mark.skipif(not __import__("xwcp.backends.sat", fromlist=["available"]).available(),
                              reason="python-sat is not installed")


def sat_model(problem, *, eager_dupes=True):
    from xwcp.backends import sat
    lists = _shortlist.shortlist(problem, ranked_words(problem), None)
    return sat._build_model(problem, lists, eager_dupes=eager_dupes)


@sat_only
def test_sat_model_counts_on_the_square():
    # x: 4 slots x 2 words; y: A | B,C | B,C | D -> 6 letters.  Clauses: 4 at-least-one,
    # 16 channelling (8 words x 2 cells), 2 at-most-one letter, 12 support, 4 no-repeat.
    encoder, clauses = sat_model(square())
    assert encoder.n_vars == 14
    assert len(clauses) == 38
    assert encoder.n_dupe_clauses == 4


@sat_only
def test_sat_model_channels_every_letter_of_every_candidate():
    problem = square()
    encoder, clauses = sat_model(problem)
    binary = {tuple(c) for c in clauses if len(c) == 2}
    for sid, xs in encoder.vars_by_slot.items():
        slot = problem.slots[sid]
        for x, word_id in zip(xs.tolist(), encoder.words_by_slot[sid]):
            for cell, letter in zip(slot.cells, problem.words.bucket(slot.length).text(int(word_id))):
                y = int(encoder.y_var[cell, ord(letter) - 65])
                assert y > 0 and (-x, y) in binary


@sat_only
def test_sat_lazy_no_good_removes_a_model_that_repeats_a_word():
    from pysat.solvers import Solver

    from xwcp.backends import sat
    problem = square()
    encoder, clauses = sat_model(problem, eager_dupes=False)
    assert encoder.n_dupe_clauses == 0
    word_ab = problem.words.word_id("AB")
    forced = [encoder.vars_of_word(2, word_ab)[0], encoder.vars_of_word(2, word_ab)[1]]  # 1A = 1D = AB
    with Solver(name=sat.SOLVER, bootstrap_with=clauses) as solver:
        assert solver.solve(assumptions=forced)
        word_by_slot = encoder.decode(solver.get_model())
        word_bd = problem.words.word_id("BD")
        assert sorted(sat._repeats(problem, word_by_slot)) == sorted([(2, word_ab), (2, word_bd)])  # 3A = 2D = BD
        solver.append_formula(sat._amo(encoder, encoder.vars_of_word(2, word_ab)))
        assert not solver.solve(assumptions=forced)
        assert solver.solve()
        entries = sat.entries_from_word_ids(problem, encoder.decode(solver.get_model()))
    assert check_fill(problem, entries) == []


@sat_only
@pytest.mark.parametrize("in_process", [False, True])
def test_sat_grows_a_shortlist_without_a_fill(in_process):
    from xwcp.backends import sat
    problem = square()
    # one worker: with two, the portfolio's second child (a bigger first shortlist) may answer first
    result = sat.fill(problem, Limits(threads=1, extra={"first_k": 1, "rerank_passes": 0, "in_process": in_process}))
    assert result.status is FillStatus.FILLED
    assert check_fill(problem, result.entries) == []
    assert result.stats.extra["k"] == 2 and result.stats.extra["rounds"] >= 2


@sat_only
@pytest.mark.parametrize("eager", [False, True])
def test_sat_proves_no_fill_only_once_every_shortlist_is_complete(eager):
    from xwcp.backends import sat
    problem = square(TRAP_WORDS)
    result = sat.fill(problem, Limits(extra={"first_k": 1, "eager_dupes": eager}))
    assert result.status is FillStatus.UNFILLABLE
    assert result.stats.extra["k"] == 2  # the whole domain, not the first shortlist
    if not eager:
        assert result.stats.extra["lazy_nogoods"] >= 1


@sat_only
@pytest.mark.parametrize("count, expected", [(0, 2), (5, 2), (1, 1)])
def test_sat_counts_fills_like_backtrack(count, expected):
    from xwcp.backends import backtrack, sat
    problem = square()
    result = sat.fill(problem, Limits(count=count))
    assert result.status is FillStatus.FILLED
    assert result.n_fills == expected == len(set(result.fills))
    assert all(check_fill(problem, entries) == [] for entries in result.fills)
    if count == 0:
        assert result.n_fills == backtrack.fill(problem, Limits(count=0)).n_fills


@sat_only
@pytest.mark.parametrize("words, k", [(SQUARE_WORDS, None), (SQUARE_WORDS, 1), (TRAP_WORDS, None)])
def test_export_cnf_round_trip(tmp_path, words, k):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from xwcp.backends import sat
    problem = square(words)
    path = tmp_path / "square.cnf"
    n_vars, n_clauses = sat.export_cnf(problem, path, k=k)
    cnf = CNF(from_file=str(path))
    assert (cnf.nv, len(cnf.clauses)) == (n_vars, n_clauses)
    word_by_var = {}
    for line in path.read_text().splitlines():
        if line.startswith("c x "):
            _, _, var, slot_name, word = line.split()
            word_by_var[int(var)] = (slot_name, word)
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        is_sat = solver.solve()
        model = solver.get_model() if is_sat else []
    if words is TRAP_WORDS or k == 1:  # no fill / the one-word shortlists repeat AB
        assert not is_sat
        return
    assert is_sat
    entry_by_slot = {word_by_var[v][0]: word_by_var[v][1] for v in model if v > 0 and v in word_by_var}
    entries = [entry_by_slot[slot.name] for slot in problem.slots]
    assert check_fill(problem, entries) == []


@sat_only
def test_export_cnf_keeps_fixed_slots_and_their_letters(tmp_path):
    from pysat.formula import CNF
    from pysat.solvers import Solver

    from xwcp.backends import sat
    problem = compile_problem(parse_grid("AB\n..\n"), words_from_pairs(SQUARE_WORDS), min_score=0)
    path = tmp_path / "fixed.cnf"
    sat.export_cnf(problem, path)
    text = path.read_text()
    assert "c fixed 1A AB" in text
    cnf = CNF(from_file=str(path))
    with Solver(name="glucose4", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve()
        chosen = {v for v in solver.get_model() if v > 0}
    entry_by_slot = {"1A": "AB"}
    for line in text.splitlines():
        if line.startswith("c x ") and int(line.split()[2]) in chosen:
            entry_by_slot[line.split()[3]] = line.split()[4]
    entries = [entry_by_slot[slot.name] for slot in problem.slots]
    assert entries[0] == "AB" and check_fill(problem, entries) == []


@sat_only
def test_sat_stops_at_the_time_limit_and_leaves_no_solver_process():
    from xwcp.backends import sat
    # A 9x9 open square with 3000 random 9-letter words: AC-3 finds no dead end and the SAT
    # solver has no answer for a long time (still none after 20 s when this was written), so
    # only the limit or the abort can end these runs. The time bounds are generous (a loaded
    # 2-core machine): they catch a limit or abort that is ignored, not a slow stop.
    rng = np.random.default_rng(7)
    words = {"".join(chr(65 + c) for c in rng.integers(0, 26, 9)) for _ in range(3000)}
    problem = compile_problem(parse_grid(("." * 9 + "\n") * 9), words_from_pairs(sorted(words)), min_score=0)
    start = time.perf_counter()
    result = sat.fill(problem, Limits(time_limit_s=0.3, threads=2))
    assert time.perf_counter() - start < 15
    assert result.status is FillStatus.LIMIT, result.reason
    assert result.fills == ()
    assert multiprocessing.active_children() == []
    abort = threading.Event()
    timer = threading.Timer(0.2, abort.set)
    timer.start()
    start = time.perf_counter()
    try:
        result = sat.fill(problem, Limits(abort=abort))
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 15
    assert result.status is FillStatus.ABORTED, result.reason
    assert result.fills == ()
    assert multiprocessing.active_children() == []


# ----- CP-SAT model ------------------------------------------------------------------------------

cpsat_only = pytest.mark.skipif(not __import__("xwcp.backends.cpsat", fromlist=["available"]).available(),
                                reason="ortools is not installed")


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
