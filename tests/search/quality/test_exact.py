"""The whole-grid CP-SAT pass for the mean on small grids (`xwcp.search.quality.exact`) against brute force."""

from __future__ import annotations

import pytest

from tests.search.quality.cases import fill_grid_rows, fill_scores, random_case
from xwcp.base.types import FillStatus
from xwcp.engine.result import Limits, check_fill

pytest.importorskip("ortools")


@pytest.mark.parametrize("seed", range(40, 52))
def test_exact_pass_bound_is_never_below_the_true_best_and_optimal_means_best(seed):
    """The whole-grid CP-SAT pass: its bound is >= the brute force's best total at the floor, and when it
    says optimal its fill has exactly that total."""
    import time

    from xwcp.backends import fill
    from xwcp.search.quality import at_floor, exact_mean
    from xwcp.search.quality.state import _Search

    rows, score_by_word, problem, expected = random_case(seed)
    if expected is None:
        return
    floor, best_total = expected
    problem_at = at_floor(problem, floor)
    first = fill(problem_at, "backtrack", Limits(time_limit_s=10, seed=seed))
    assert first.status is FillStatus.FILLED
    for limit_s in (0.01, 10.0):  # cut short (bound only) and given the time to finish
        search = _Search(
            problem,
            "backtrack",
            Limits(time_limit_s=30, seed=seed),
            time.perf_counter(),
            lambda line: None,
            best=first.entries,
            best_problem=problem_at,
            floor=floor,
        )
        exact_mean(search, limit_s)
        total = search.total(search.best)
        assert check_fill(problem_at, search.best) == []
        assert sum(fill_scores(fill_grid_rows(problem_at, search.best), score_by_word)) == total <= best_total
        if search.bound_total is not None:
            assert search.bound_total >= best_total
        if search.is_mean_optimal:
            assert total == best_total == search.bound_total
    assert search.is_mean_optimal  # 10 s settles a 3x3


def test_the_exact_pass_keeps_the_stem_rule_and_proves_the_mean_at_once():
    """With the stem rule on, the best mean of TIES (90), TIED (80), NOTE (40) in two uncrossed slots is TIES with
    NOTE (65): CP-SAT over the whole grid keeps one word per stem group, so it proves 65 at once instead of
    holding the relaxed bound of 90 (TIES with TIED) until the time limit."""
    import time

    from xwcp.compile.controls import Controls
    from xwcp.compile.problem import compile_problem
    from xwcp.model import parse_grid
    from xwcp.search.quality import fill_quality
    from xwcp.words.wordlist import words_from_pairs

    words = words_from_pairs([("TIES", 90), ("TIED", 80), ("NOTE", 40)])
    problem = compile_problem(
        parse_grid("....\n####\n....\n"), words, min_score=0, controls=Controls(distinct_stems=True)
    )
    start = time.perf_counter()
    result, quality = fill_quality(problem, "auto", Limits(time_limit_s=20, seed=1))
    assert result.status is FillStatus.FILLED and check_fill(problem, result.fills[0]) == []
    assert sorted(result.fills[0]) == ["NOTE", "TIES"]
    assert quality is not None and quality.mean_score == 65.0 and quality.mean_bound == 65.0
    assert time.perf_counter() - start < 10  # proven, not stopped by the limit
