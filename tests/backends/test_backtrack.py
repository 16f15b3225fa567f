"""Our compiled word-branching search (`xwcp.backends.backtrack`): restarts and nogoods keep proofs exact; a seed fixes the fill."""
from __future__ import annotations

import pytest
from tests.backends.test_backends import RESTART_SEEDS, assert_valid, restart_runs

from xwcp.backends import fill
from xwcp.model import parse_grid
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.base.types import FillStatus


@pytest.mark.parametrize("seed", RESTART_SEEDS)
def test_restarts_and_nogoods_keep_proofs_exact(seed):
    """Restarting after every failure (so nogoods are recorded and used constantly) never
    changes whether a fill exists, and every fill found is valid."""
    problem, n_fills, results = restart_runs(seed)
    for result in results:
        assert result.status is (FillStatus.FILLED if n_fills else FillStatus.UNFILLABLE)
        if result.entries:
            assert check_fill(problem, result.entries) == []


def test_restart_test_is_not_vacuous():
    """The runs above do restart a lot, and both outcomes occur (computed here if not yet run)."""
    results = [result for seed in RESTART_SEEDS for result in restart_runs(seed)[2]]
    assert sum(r.stats.restarts for r in results) > 200
    statuses = [r.status for r in results]
    assert statuses.count(FillStatus.UNFILLABLE) > 10 and statuses.count(FillStatus.FILLED) > 10


def test_backtrack_is_deterministic_for_a_seed(default_words):
    problem = compile_problem(parse_grid("\n".join(["....#......", "....#......", "...........",
                                                    "...#...#...", "......#....", "###.....###",
                                                    "....#......", "...#...#...", "...........",
                                                    "......#....", "......#...."])), default_words)
    first = fill(problem, "backtrack", Limits(seed=3, time_limit_s=30))
    again = fill(problem, "backtrack", Limits(seed=3, time_limit_s=30))
    assert_valid(problem, first)
    assert first.entries == again.entries
    assert first.stats.nodes == again.stats.nodes
