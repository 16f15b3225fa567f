"""Loading a bench's grids and lists (xwcp/bench/inputs.py): the best entries of a list."""
from __future__ import annotations

from xwcp import bench


def test_best_entries_keeps_highest_scores_ties_alphabetical():
    from xwcp.words.wordlist import words_from_pairs

    words = words_from_pairs([("ZZZ", 90), ("BBB", 70), ("AAA", 70), ("CC", 70), ("DD", 10)])
    best = bench.best_entries(words, 3)
    assert sorted(bench.word_pairs(best, best.lengths, 0)) == [("AAA", 70), ("BBB", 70), ("ZZZ", 90)]
