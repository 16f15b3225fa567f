"""The design search end to end (xwcp/designer/search.py): different filled grids, quality and bans, a proof that no
other design (or none) exists, the time limit and abort.

Every design a test produces is checked whole with `check_design`: symmetric, connected, entries of 3+ letters,
word and block counts, theme entries present whole, every other entry a listed word, none twice.
"""

from __future__ import annotations

import pytest

pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

from tests.designer.designs import check_designs, grid_of  # noqa: E402
from xwcp.base.types import FillStatus  # noqa: E402
from xwcp.designer.request import make_request  # noqa: E402
from xwcp.designer.rules import Rules, check_pattern  # noqa: E402
from xwcp.designer.search import design  # noqa: E402
from xwcp.model import BLOCK, find_slots  # noqa: E402
from xwcp.words.wordlist import words_from_pairs  # noqa: E402

# A 7x7 fill (found by `xwcp design --size 7x7 --theme PLANETS`): its entries, as a tiny list, fill this pattern
# (and, transposed, the same pattern again) and nothing else.
PLANETS_FILL = ["SCOTS##", "HALOES#", "OPENSEA", "PLANETS", "SETINTO", "#TESTER", "##SHARE"]


def test_british_design(words):
    request = make_request(size="11x11", style="british", themes=["CAMBRIDGE"], quality_time_s=0, time_limit_s=60)
    assert (request.rules.max_words, request.rules.max_block_run, request.rules.max_fill_length) == (17, None, None)
    result = design(request, words)
    check_designs(result, ["CAMBRIDGE"], words)
    grid = result.designs[0].grid
    assert any("1-letter" in p for p in check_pattern(grid, Rules(11, 11, max_words=99, max_blocks=99)))  # unchecked


def test_design_two_different_filled_grids(words):
    themes = ["ASTRONOMER", "TELESCOPES"]
    request = make_request(size="11x11", themes=themes, count=2, quality_time_s=0, time_limit_s=60)
    events = []
    result = design(request, words, progress=events.append)
    check_designs(result, themes, words)
    assert len(result.designs) == 2
    assert [e.kind for e in events].count("design") == 2
    assert any(e.kind == "pattern" and e.grid for e in events)


def test_design_with_quality_search_and_a_ban(words):
    themes = ["STARGAZER"]
    request = make_request(size="11x11", themes=themes, count=1, quality_time_s=2, time_limit_s=60, bans=["ERA"])
    result = design(request, words)
    check_designs(result, themes, words)
    entries = result.designs[0].entries
    assert "ERA" not in entries and "STARGAZER" in entries
    assert result.designs[0].quality.min_score >= 50


def test_a_tiny_list_finds_the_one_fillable_pattern_and_proves_there_is_no_other():
    grid = grid_of(PLANETS_FILL)
    entries = ["".join(grid.cells[c] for c in s.cells) for s in find_slots(grid)]
    tiny = words_from_pairs([(e, 60) for e in entries if e != "PLANETS"] + [("ZZZ", 50)])
    request = make_request(size="7x7", themes=["PLANETS"], count=3, quality_time_s=0, time_limit_s=120)
    result = design(request, tiny)
    check_designs(result, ["PLANETS"], tiny)
    assert len(result.designs) == 1
    assert result.stats.n_unfillable >= 1  # the patterns that had to be cut on the way
    assert {c for c, x in enumerate(result.designs[0].grid.cells) if x == BLOCK} == {
        c for c, x in enumerate(grid.cells) if x == BLOCK
    }
    assert "no pattern is left" in result.reason


def test_no_design_at_all_is_proven(words):
    tiny = words_from_pairs(["CAT", "DOG"])
    request = make_request(size="5x5", themes=["HEART"], count=1, quality_time_s=0, time_limit_s=60)
    result = design(request, tiny)
    assert result.status is FillStatus.UNFILLABLE and not result.designs
    assert result.stats.n_cuts >= 1


def test_time_limit_and_abort_without_a_design(words):
    import threading

    request = make_request(size="15x15", themes=["SPEAKOFTHEDEVIL"], count=1, time_limit_s=0.001)
    assert design(request, words).status is FillStatus.LIMIT
    stop = threading.Event()
    stop.set()
    request = make_request(size="15x15", themes=["SPEAKOFTHEDEVIL"], count=1)
    assert design(request, words, abort=stop).status is FillStatus.ABORTED
