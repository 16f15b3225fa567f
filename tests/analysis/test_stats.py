"""A grid's statistics (xwcp/analysis/stats.py): the counts a constructor reads, unchecked cells, repeats, theme,
words below a score, shared substrings."""

from __future__ import annotations

import pytest

import xwcp
from xwcp.analysis.stats import grid_stats
from xwcp.model import parse_grid


@pytest.fixture(scope="module")
def words():
    return xwcp.load_word_list()


def test_stats_count_what_a_constructor_reads(words):
    grid = parse_grid("\n".join(["ADS#ERA", "LOO#NAP", "SWEATER", "##RIM##", "HAIRNET", "ALP#ADS", "ERE#SE."]))
    data = grid_stats(grid, words, below_score=60, substring=3, theme={"9A"})
    # 11 across and 11 down (columns 2 and 4 run the whole height); 8 blocks of 49 cells
    assert data["words"] == 22 and data["blocks"] == 8 and data["white_cells"] == 41
    assert data["lengths"] == {"3": 18, "7": 4} and data["average_length"] == 3.73  # (18 * 3 + 4 * 7) / 22
    assert data["letters"]["A"] == 7 and data["letters"]["Z"] == 0
    assert data["empty_cells"] == 1 and data["filled_cells"] == 40
    assert data["unchecked"] == 0 and data["complete"] == 20 and data["open"] == 2
    assert data["repeated"] == [{"word": "ADS", "ids": ["1A", "17A"]}]
    assert data["theme"] == [{"id": "9A", "word": "SWEATER", "length": 7}]
    below = {e["id"]: (e["word"], e["score"]) for e in data["below"]["entries"]}
    assert below["3D"] == ("SOERIPE", None) and below["1D"] == ("ALS", 50) and "9A" not in below
    assert all(score is None or score < 60 for _, score in below.values())
    assert data["shared"]["pairs"] == [{"ids": ["12A", "10D"], "words": ["HAIRNET", "AIR"], "substring": "AIR"}]
    unchecked = grid_stats(parse_grid("#....\n..#..\n.....\n..#..\n....#"), None)  # column 2 is cut by blocks
    assert unchecked["unchecked_cells"] == [[0, 2], [2, 2], [4, 2]] and unchecked["below"]["entries"] == []
    ring = grid_stats(parse_grid("...\n.#.\n..."), None)  # the corners are checked, the edges' middles not
    assert ring["unchecked_cells"] == [[0, 1], [1, 0], [1, 2], [2, 1]] and ring["words"] == 4
    open_row = grid_stats(parse_grid("#.#\n...\n#.#"), None)  # a plus: the centre is checked, the arms not
    assert open_row["unchecked"] == 4 and [1, 1] not in open_row["unchecked_cells"]


def test_letters_are_counted_in_the_lists_alphabet():
    # Spanish: Ñ has its own row (27 letters, in alphabet order), N is not credited with it
    from xwcp.model import make_grid
    from xwcp.model.alphabet import load_alphabet
    from xwcp.words.wordlist import words_from_pairs

    es = load_alphabet("es")
    words = words_from_pairs([("AÑO", 50), ("ANO", 50)], alphabet=es)
    stats = grid_stats(make_grid(3, 1, ["A", "Ñ", "O"]), words)
    assert list(stats["letters"]) == list("ABCDEFGHIJKLMNÑOPQRSTUVWXYZ")
    assert stats["letters"]["Ñ"] == 1 and stats["letters"]["N"] == 0 and stats["letters"]["A"] == 1
    assert list(grid_stats(make_grid(3, 1, ["A", "N", "O"]))["letters"]) == list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
