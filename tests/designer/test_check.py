"""A designed grid checked end to end (`xwcp.designer.check.check_design`): the pattern's rules, themes whole, listed words, none twice."""

from __future__ import annotations

import pytest

pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

from tests.designer.designs import grid_of  # noqa: E402
from xwcp.designer.check import check_design  # noqa: E402
from xwcp.designer.rules import Rules  # noqa: E402
from xwcp.words.wordlist import words_from_pairs  # noqa: E402

# ACE/TAN/ERE across, ATE/CAR/ENE down
FILLED = ["ACE", "TAN", "ERE"]
RULES = Rules(3, 3, max_words=20, max_blocks=5)


def words(*scored, drop=()):
    """The six words of FILLED at 60, some rescored (`scored`: (word, score) pairs), some dropped."""
    score_by_word = {w: 60 for w in ("ACE", "TAN", "ERE", "ATE", "CAR", "ENE")} | dict(scored)
    return words_from_pairs([(w, s) for w, s in score_by_word.items() if w not in drop])


def test_a_good_design_passes():
    assert check_design(grid_of(FILLED), RULES, ["TAN"], words()) == []
    assert check_design(grid_of(FILLED), RULES, [], words()) == []


def test_every_other_entry_must_be_a_listed_word_at_the_floor_and_not_banned():
    assert check_design(grid_of(FILLED), RULES, [], words(drop=["CAR"])) == ["2D: CAR is not in the word list"]
    assert check_design(grid_of(FILLED), RULES, [], words(("ENE", 40))) == ["3D: ENE scores 40, below the minimum 50"]
    assert check_design(grid_of(FILLED), RULES, [], words(("ENE", 40)), min_score=40) == []
    assert check_design(grid_of(FILLED), RULES, [], words(), bans=["ATE"]) == ["1D: ATE is banned"]


def test_a_theme_entry_need_not_be_listed():
    assert check_design(grid_of(FILLED), RULES, ["CAR"], words(drop=["CAR"])) == []
    assert check_design(grid_of(FILLED), RULES, ["CAR"], words(("CAR", 10))) == []


def test_a_word_twice_breaks_the_design():
    square = ["CAT", "ARE", "TEN"]  # the same words down as across
    problems = check_design(grid_of(square), RULES, [], words_from_pairs([(w, 60) for w in square]))
    assert problems == [
        "1D: CAT is also the entry of 1A",
        "2D: ARE is also the entry of 4A",
        "3D: TEN is also the entry of 5A",
    ]


def test_a_missing_theme_empty_cells_and_the_patterns_rules_are_reported():
    problems = check_design(grid_of(FILLED), RULES, ["HEART"], words())
    assert any("HEART" in p for p in problems)
    assert check_design(grid_of(["ACE", "T.N", "ERE"]), RULES, [], words()) == ["the grid has empty cells"]
    problems = check_design(grid_of(FILLED), Rules(3, 3, max_words=4), [], words())
    assert len(problems) == 1 and "more than the 4 allowed" in problems[0]
    assert check_design(grid_of(FILLED), Rules(4, 4), [], words()) == ["the grid is 3x3, the rules are for 4x4"]
