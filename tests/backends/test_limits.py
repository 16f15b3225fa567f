"""The SAT and CP-SAT backends stop at their limit while they prepare their search too: ranking and re-ranking the
words of a 59x59's thousand slots took 3-6 s past a 1 s limit (cores and verified suggestions fill through them)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

from xwcp.base.types import FillStatus
from xwcp.compile.problem import Problem, compile_problem
from xwcp.engine.result import Limits
from xwcp.model import parse_grid

GRACE_S = 2.0
"""Allowed past a limit on a loaded two-core box (the target is 1 s; measured: 0.02-0.12 s)."""
TILE = Path(__file__).resolve().parents[2] / "models" / "11x11-01.txt"


@pytest.fixture(scope="module")
def big_problem() -> Problem:
    """The stock 11x11 five times across and down, a block line between copies: 59x59, 1,050 slots."""
    import xwcp

    rows = [line for line in TILE.read_text().splitlines() if line and not line.startswith(";")]
    tiled: list[str] = []
    for copy in range(5):
        tiled += ["#".join([row] * 5) for row in rows]
        if copy < 4:
            tiled.append("#" * len(tiled[-1]))
    return compile_problem(parse_grid("\n".join(tiled)), xwcp.load_word_list())


@pytest.mark.timing
@pytest.mark.parametrize("backend", ["cpsat", "sat"])
def test_a_big_fill_ends_near_its_limit(big_problem, backend):
    from xwcp.backends import fill, get_backend

    if not get_backend(backend).available():
        pytest.skip(f"{backend} is not installed")
    if backend == "cpsat":
        from ortools.sat.python import cp_model  # noqa: F401  (imported once, as a server has it: not timed)
    started = time.perf_counter()
    result = fill(big_problem, backend, Limits(time_limit_s=1.0))
    took_s = time.perf_counter() - started
    assert result.status is FillStatus.LIMIT and "time limit" in result.reason
    assert took_s < 1.0 + GRACE_S, f"a 1 s fill took {took_s:.1f} s"


def test_a_stop_before_the_words_are_ranked_aborts_the_fill(big_problem):
    from xwcp.backends import fill, get_backend

    if not get_backend("cpsat").available():
        pytest.skip("cpsat is not installed")
    abort = threading.Event()
    abort.set()
    result = fill(big_problem, "cpsat", Limits(time_limit_s=60.0, abort=abort))
    assert result.status is FillStatus.ABORTED and result.fills == ()


@pytest.mark.timing
def test_verified_suggestions_by_cpsat_end_near_their_limit(big_problem):
    from xwcp.analysis.verify import verify_words
    from xwcp.backends import get_backend

    if not get_backend("cpsat").available():
        pytest.skip("cpsat is not installed")
    from ortools.sat.python import cp_model  # noqa: F401

    slot = big_problem.slots[0]
    bucket = big_problem.words.bucket(slot.length)
    words = [bucket.text(int(word_id)) for word_id in np.flatnonzero(big_problem.domains[slot.id])[:5]]
    started = time.perf_counter()
    verdicts = verify_words(big_problem, slot.id, words, backend="cpsat", time_limit_s=1.0)
    took_s = time.perf_counter() - started
    assert len(verdicts) == len(words)
    assert took_s < 1.0 + GRACE_S, f"a 1 s verification took {took_s:.1f} s"
