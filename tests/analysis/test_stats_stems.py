"""The statistics' entries of one stem: the pairs the stem rule would keep apart, named with the reason."""

from __future__ import annotations

from xwcp.analysis.stats import grid_stats
from xwcp.model import parse_grid
from xwcp.words.wordlist import words_from_pairs


def test_entries_of_one_stem_are_listed_with_the_reason():
    grid = parse_grid("TIES\n####\nTIED\n####\nNOTE\n")
    words = words_from_pairs([("TIES", 50), ("TIED", 50), ("NOTE", 50)])
    stems = grid_stats(grid, words)["stems"]
    assert stems == {
        "count": 1,
        "pairs": [{"ids": ["1A", "2A"], "words": ["TIES", "TIED"], "reason": "share the stem TIE"}],
    }


def test_a_grid_without_them_lists_none():
    grid = parse_grid("TIES\n####\nNOTE\n")
    assert grid_stats(grid, words_from_pairs([("TIES", 50), ("NOTE", 50)]))["stems"] == {"count": 0, "pairs": []}
