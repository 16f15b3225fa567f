"""The large-neighbourhood search with CP-SAT (`xwcp.search.quality.neighbourhood`): its stop and its word sample."""

from __future__ import annotations

import pytest

from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill

pytest.importorskip("ortools")


def test_stop_reaches_a_running_cpsat_step():
    """Stop (the abort event) ends a neighbourhood's CP-SAT search at once, not at the step's time limit:
    the whole 15x15 as one neighbourhood would run CP-SAT for the full 60 s without it."""
    import threading
    import time

    from xwcp.backends import fill
    from xwcp.engine.ac3 import propagate
    from xwcp.model import read_grid
    from xwcp.search.quality.neighbourhood import _refill_neighbourhood
    from xwcp.words.wordlist import load_word_list

    problem = compile_problem(read_grid("models/15x15-daily-01.txt"), load_word_list())
    first = fill(problem, "auto", Limits(time_limit_s=30))
    assert first.status is FillStatus.FILLED
    abort = threading.Event()
    timer = threading.Timer(0.5, abort.set)
    start = time.perf_counter()
    timer.start()
    try:
        entries, proven, _ = _refill_neighbourhood(
            problem, propagate(problem).domains, first.entries, problem.open_slot_ids, 60.0, 1, abort
        )
    finally:
        timer.cancel()
    assert abort.is_set() and time.perf_counter() - start < 20  # model build (~1 s) plus the stop
    assert not proven
    if entries is not None:
        assert check_fill(problem, entries) == []


def test_neighbourhood_sample_keeps_the_highest_scored_words():
    """A neighbourhood slot with more words than HOOD_SLOT_WORDS keeps every word scored above its
    HOOD_TOP_WORDS-th best (the sample used to be uniform and left the rare high scores out)."""
    import numpy as np

    from xwcp.backends import fill
    from xwcp.engine.ac3 import propagate
    from xwcp.model import read_grid
    from xwcp.search.quality.neighbourhood import HOOD_SLOT_WORDS, HOOD_TOP_WORDS, _hood_domains
    from xwcp.words.wordlist import load_word_list

    problem = compile_problem(read_grid("models/vanbeek/15.01.txt"), load_word_list(None), min_score=50)
    first = fill(problem, "backtrack", Limits(time_limit_s=20))
    domains = propagate(problem).domains
    hood = problem.open_slot_ids  # the whole grid: no letters fixed from outside
    ids_by_slot, is_sampled = _hood_domains(problem, domains, first.entries, hood, np.random.default_rng(0))
    assert is_sampled
    n_checked = 0
    for slot_id in hood:
        scores = np.asarray(problem.words.bucket(problem.slots[slot_id].length).scores)
        ids = np.flatnonzero(domains[slot_id])
        if len(ids) <= HOOD_SLOT_WORDS:
            continue
        n_checked += 1
        kept = ids_by_slot[slot_id]
        assert HOOD_SLOT_WORDS <= len(kept) <= HOOD_SLOT_WORDS + 1
        cut = np.sort(scores[ids])[::-1][HOOD_TOP_WORDS - 1]
        assert set(ids[scores[ids] > cut].tolist()) <= set(kept.tolist())
        assert problem.words.word_id(first.entries[slot_id]) in set(kept.tolist())
    assert n_checked > 10
