"""The fill search's nonzero-block summaries (xwcp/engine/_bitsearch.c): scans skip a domain's empty 64-bit
blocks by a per-slot bitmap, kept through pruning, decisions, undo and restarts. Here the bitmap and the
domain sizes are read from the C state mid-search and checked against the domains themselves."""

from __future__ import annotations

import ctypes
from pathlib import Path

import numpy as np
import pytest

from xwcp.backends._common import entries_from_word_ids
from xwcp.compile.problem import compile_problem
from xwcp.engine import kernel
from xwcp.engine.result import check_fill
from xwcp.model import read_grid
from xwcp.words.wordlist import load_word_list

OPEN_GRID = Path(__file__).resolve().parents[2] / "bench" / "suggest_grids" / "open-1.txt"


def _summaries_match(search: kernel.BitSearch) -> list[str]:
    """Where the C state's summaries or sizes disagree with its domains (empty: they agree)."""
    st = search._state
    dom = np.asarray(search.dom, dtype=np.uint64)
    n_blocks = int(st.nz_off[search.n_slots])
    summaries = np.ctypeslib.as_array(ctypes.cast(st.nz, ctypes.POINTER(ctypes.c_uint64)), shape=(n_blocks,))
    wrong = []
    for s in range(search.n_slots):
        start, width = int(search.slot_dom_off[s]), int(search.slot_W[s])
        blocks = dom[start : start + width]
        bits = np.zeros(int(st.nz_off[s + 1] - st.nz_off[s]) * 64, bool)
        bits[:width] = blocks != 0
        want = np.packbits(bits, bitorder="little").view("<u8")
        have = summaries[int(st.nz_off[s]) : int(st.nz_off[s + 1])]
        if not np.array_equal(want, have):
            wrong.append(f"slot {s}: summary {have.tolist()} for nonzero blocks {want.tolist()}")
        size = sum(int(b).bit_count() for b in blocks)
        if size != int(st.size[s]):
            wrong.append(f"slot {s}: size {int(st.size[s])}, domain holds {size}")
    return wrong


@pytest.mark.parametrize(("seed", "learn", "track"), [(0, 0, False), (1, 0, True), (2, 1, False), (3, 1, True)])
def test_summaries_follow_the_domains_through_a_search(seed, learn, track):
    """Stopped every 40 failures (decisions, pruning, undo and restarts in between, with the learning's and the
    provenance's sets on the save stack too), every summary marks exactly its domain's nonzero blocks and every
    size is its domain's count; the fill found is checked."""
    problem = compile_problem(read_grid(OPEN_GRID), load_word_list())
    search = kernel.BitSearch(problem, track_slots=track)
    assert search.is_consistent
    assert _summaries_match(search) == []
    search.configure(seed=seed, restart_base=10, noise=0.5, score_weight=0.05, learn=learn)
    stops = 0
    for limit in range(40, 4000, 40):
        search._state.max_fails = limit
        code = search.search(30.0)
        stops += 1
        assert _summaries_match(search) == []
        if code != kernel.FAIL_LIMIT:
            break
    assert code == kernel.SOLVED
    assert check_fill(problem, entries_from_word_ids(problem, search.solution_word_ids())) == []
    assert search.stats["restarts"] > 0 or stops > 1
