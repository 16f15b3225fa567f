"""The aim of the quality search (`xwcp.search.quality.aim`): the lexicographic key of a fill."""

from __future__ import annotations

from xwcp.search.quality.aim import lex_key


def test_lex_key_orders_floor_then_count_then_total():
    assert lex_key([60, 60, 90]) > lex_key([50, 100, 100])  # a higher floor wins over any total
    assert lex_key([50, 60, 60]) > lex_key([50, 50, 100])  # then fewer entries at the floor
    assert lex_key([50, 60, 90]) > lex_key([50, 60, 80])  # then the total
