"""The rules a designed block pattern keeps and their checker (xwcp/designer/rules.py): symmetry, checking styles,
run lengths and counts, connection."""

from __future__ import annotations

import pytest

pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

import xwcp  # noqa: E402
from tests.designer.designs import grid_of  # noqa: E402
from xwcp.designer.rules import Rules, Style, Symmetry, check_pattern, is_connected  # noqa: E402


def test_stock_grids_keep_the_rules_of_their_style():
    assert check_pattern(xwcp.read_grid("models/15x15-daily-01.txt"), Rules(15, 15, max_words=78)) == []
    british = xwcp.read_grid("models/15x15-british-01.txt")
    assert check_pattern(british, Rules(15, 15, style=Style.BRITISH, max_blocks=60)) == []
    # a British grid has unchecked letters: American rules refuse it
    assert any("1-letter" in p for p in check_pattern(british, Rules(15, 15, max_blocks=60)))


@pytest.mark.parametrize(
    "rows, rules, needle",
    [
        (["#....", ".....", ".....", ".....", "....."], Rules(5, 5, max_words=20), "not rotational"),
        (["....#", ".....", ".....", ".....", "#...."], Rules(5, 5, Symmetry.MIRROR, max_words=20), "not mirror"),
        (
            ["...#...", "...#...", "...#...", "#######", "...#...", "...#...", "...#..."],
            Rules(7, 7, max_words=20, max_blocks=20),
            "not connected",
        ),
        ([".....", ".....", "##.##", ".....", "....."], Rules(5, 5, max_words=20), "1-letter"),
        (["#....", ".....", ".....", ".....", "....#"], Rules(5, 5, max_words=9), "more than the 9 allowed"),
        (["#....", ".....", ".....", ".....", "....#"], Rules(5, 5, max_words=20, min_words=12), "fewer than the 12"),
        (["#....", ".....", ".....", ".....", "....#"], Rules(5, 5, max_words=20, max_blocks=1), "2 blocks, more"),
        (
            ["#....", ".....", ".....", ".....", "....#"],
            Rules(5, 5, max_words=20, max_fill_length=4),
            "more than the 4",
        ),
        (
            ["###...", "......", "......", "......", "......", "...###"],
            Rules(6, 6, max_words=20, max_block_run=2),
            "more than 2 blocks in a row",
        ),
    ],
)
def test_check_pattern_names_each_broken_rule(rows, rules, needle):
    problems = check_pattern(grid_of(rows), rules)
    assert any(needle in p for p in problems), problems


def test_check_pattern_two_letter_runs_and_missing_themes():
    rows = ["..##", "....", "....", "##.."]
    assert any("2-letter" in p for p in check_pattern(grid_of(rows), Rules(4, 4, max_words=20)))
    rows = ["HEART", ".....", ".....", ".....", "....."]
    rules = Rules(5, 5, max_words=20)
    assert check_pattern(grid_of(rows), rules, ["HEART"]) == []
    assert any("HEARTS" in p for p in check_pattern(grid_of(rows), rules, ["HEARTS"]))
    assert any("HEA " in p or "HEA is" in p for p in check_pattern(grid_of(rows), rules, ["HEA"]))  # part, not whole


def test_british_checking_rules():
    rules = Rules(5, 5, style=Style.BRITISH, max_words=20, max_blocks=20)
    assert check_pattern(grid_of([".....", ".#.#.", ".....", ".#.#.", "....."]), rules) == []
    # two unchecked letters in a row in the down entry of column 1
    bad = grid_of(["#.#.#", "#.#.#", ".....", "#.#.#", "#.#.#"])
    assert any("two unchecked" in p for p in check_pattern(bad, rules))


def test_is_connected():
    assert is_connected(grid_of(["...", "...", "..."]))
    assert not is_connected(grid_of(["..#..", "..#..", "#####", "..#..", "..#.."]))
