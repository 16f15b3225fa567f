"""The Lagrangian bound on the mean (`xwcp.search.quality.bound`) against brute force."""

from __future__ import annotations

import pytest

from tests.backends.test_backends import brute_force_fills
from tests.search.quality.cases import fill_scores
from xwcp.compile.problem import compile_problem
from xwcp.model import parse_grid
from xwcp.search.quality import mean_bound
from xwcp.words.wordlist import words_from_pairs

pytest.importorskip("ortools")


def test_mean_bound_is_an_upper_bound_and_exact_on_a_forced_grid():
    # one fill only (CAT/ARE/TEN across, CAN/ARE/TEN... checked by brute force): the bound must be >= its mean
    pairs = [("CAT", 90), ("ARE", 70), ("TEN", 50), ("CAN", 60), ("ATE", 80), ("REN", 40)]
    rows = ("...", "...", "...")
    fills = brute_force_fills(rows, [w for w, _ in pairs], allow_dupes=False)
    problem = compile_problem(parse_grid("\n".join(rows) + "\n"), words_from_pairs(pairs), min_score=0)
    bound = mean_bound(problem)
    score_by_word = dict(pairs)
    for f in fills:
        scores = fill_scores(f, score_by_word)
        assert bound >= sum(scores) / len(scores) - 1e-9
