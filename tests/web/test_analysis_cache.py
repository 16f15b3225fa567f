"""The cache of compiled grids (xwcp/web/analysis_cache.py): answers from a hit, from the next keystroke and from a
miss equal compiling and propagating from scratch."""
from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")

import xwcp  # noqa: E402
from xwcp.analysis.questions import domains_report  # noqa: E402
from xwcp.engine.ac3 import propagate  # noqa: E402
from xwcp.web.analysis_cache import AnalysisCache  # noqa: E402

from tests.web.helpers import ROOT  # noqa: E402


def test_cached_and_incremental_answers_equal_fresh_ones(words):
    """A random session of typing, erasing and undoing on three grids: every answer from the cache (hits,
    next keystrokes from the last grid's engine, misses) equals compiling and propagating from scratch."""
    rng = random.Random(5)
    cache = AnalysisCache()
    n_steps = 0
    for name in ("15x15-daily-01", "11x11-01", "7x7-mini"):
        grid = xwcp.read_grid(ROOT / "models" / f"{name}.txt")
        cells, history = list(grid.cells), []
        for _ in range(30):
            empties = [c for c, x in enumerate(cells) if x == "."]
            if history and rng.random() < 0.25:
                cells = history.pop()
            elif empties:
                history.append(list(cells))
                cells[rng.choice(empties)] = rng.choice("AEIOUSTRNL" if rng.random() < 0.8 else "XQZJKW")
            now = type(grid)(grid.width, grid.height, tuple(cells))
            entry = cache.analysed(words, 1, tuple(now.rows), lambda: now, 50, False)  # noqa: B023 - called at once
            problem = xwcp.compile_problem(now, words)
            fresh = propagate(problem)
            assert entry.prop.is_consistent == fresh.is_consistent
            if fresh.is_consistent:
                assert all(np.array_equal(a, b) for a, b in zip(entry.prop.domains, fresh.domains))
                assert np.array_equal(entry.prop.letter_counts, fresh.letter_counts)
            assert all(np.array_equal(a, b) for a, b in zip(entry.problem.domains, problem.domains))
            got = domains_report(entry.problem, k=5, prop=entry.prop)
            want = domains_report(problem, k=5)
            got.pop("seconds"), want.pop("seconds")
            assert got == want
            n_steps += 1
    assert cache.incremental >= 10 and cache.hits >= 5  # the three paths were all taken
    assert n_steps == 90
