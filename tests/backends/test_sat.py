"""The SAT backend's model (xwcp/backends/sat.py), without and with solving: encoding, lazy no-goods, shortlist growth,
CNF export, the time limit."""

from __future__ import annotations

import multiprocessing
import threading
import time

import numpy as np
import pytest

from tests.backends.test_shortlist import SQUARE_WORDS, TRAP_WORDS, ranked_words, square
from xwcp.backends import _shortlist
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.model import parse_grid
from xwcp.words.wordlist import words_from_pairs

sat_only = pytest.mark.skipif(
    not __import__("xwcp.backends.sat", fromlist=["available"]).available(), reason="python-sat is not installed"
)


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
