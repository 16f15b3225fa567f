"""The shortlists the SAT and CP-SAT models grow (xwcp/backends/_shortlist.py), and the tiny grids their tests share
(tests/backends/test_sat.py, tests/backends/test_cpsat.py)."""

from __future__ import annotations

from xwcp.backends import _shortlist
from xwcp.backends._common import Clock, start_engine
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits
from xwcp.model import parse_grid
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
