"""Our compiled search branching on letters (`xwcp.backends.letters`): its nogoods keep proofs exact."""

from __future__ import annotations

import functools

import pytest

from tests.backends.test_backends import RESTART_SEEDS, restart_runs
from xwcp.backends import fill
from xwcp.base.types import FillStatus
from xwcp.engine.result import Limits, check_fill


@functools.lru_cache(maxsize=None)
def letter_restart_runs(seed):
    """The same grids as `restart_runs`, searched by letters with a restart after every failure or three."""
    problem, n_fills, _ = restart_runs(seed)
    results = [
        fill(problem, "letters", Limits(time_limit_s=60, seed=seed, extra={"restart_base": restart_base, "noise": 1.0}))
        for restart_base in (1, 3)
    ]
    return problem, n_fills, results


@pytest.mark.parametrize("seed", RESTART_SEEDS)
def test_letter_branching_nogoods_keep_proofs_exact(seed):
    """Nogoods mixing "cell = letter" and "slot = word" literals never change whether a fill exists."""
    problem, n_fills, results = letter_restart_runs(seed)
    for result in results:
        assert result.status is (FillStatus.FILLED if n_fills else FillStatus.UNFILLABLE)
        if result.entries:
            assert check_fill(problem, result.entries) == []


def test_letter_restart_test_is_not_vacuous():
    results = [result for seed in RESTART_SEEDS for result in letter_restart_runs(seed)[2]]
    assert sum(r.stats.restarts for r in results) > 200
    statuses = [r.status for r in results]
    assert statuses.count(FillStatus.UNFILLABLE) > 10 and statuses.count(FillStatus.FILLED) > 10
