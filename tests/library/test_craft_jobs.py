"""The library's fill with the craft controls: a quality fill keeps distinct stems unless told not to."""

from __future__ import annotations

import xwcp

TWO_ROWS = "....\n####\n....\n"
WORDS = {"TIES": 90, "TIED": 80, "NOTE": 40}


def test_a_quality_fill_keeps_distinct_stems_unless_told_not_to():
    # 2 s: the fill comes at once, then the mean's bound (which knows no pair rule) keeps the search to its limit
    kept = xwcp.fill(TWO_ROWS, WORDS, min_score=0, quality=True, time_limit_s=2)
    assert kept.status is xwcp.FillStatus.FILLED and "NOTE" in kept.rows
    off = xwcp.fill(TWO_ROWS, WORDS, min_score=0, quality=True, distinct_stems=False, time_limit_s=10)
    assert sorted(off.rows[::2]) == ["TIED", "TIES"]  # the best scores, one stem
    plain = xwcp.fill(TWO_ROWS, WORDS, min_score=0, time_limit_s=10)
    assert plain.status is xwcp.FillStatus.FILLED  # no stem rule without quality: any fill will do
