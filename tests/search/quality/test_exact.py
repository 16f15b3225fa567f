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
