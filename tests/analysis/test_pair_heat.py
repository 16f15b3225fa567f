"""The heat map of a grid with a Schrödinger square: both of its letters, each with the letters it can still take
(library report, its JSON and its text), not only the first reading's."""

from __future__ import annotations

import pytest

from xwcp.analysis import questions as analysis
from xwcp.compile.problem import compile_problem
from xwcp.engine.ac3 import propagate
from xwcp.model import parse_grid
from xwcp.model.letters import letter_contents
from xwcp.render.questions_json import heatmap_json
from xwcp.render.questions_text import heatmap_text
from xwcp.words.wordlist import load_word_list


@pytest.fixture(scope="module")
def words():
    return load_word_list()


def test_a_schrodinger_square_shows_both_letters(words):
    grid = parse_grid(".....\n.....\nLI<N.>ES\n.....\n.....\n")  # LINES / LI?ES
    problem = compile_problem(grid, words)
    report = analysis.heatmap_report(problem)
    (pair,) = report.pairs
    assert (pair.row, pair.col) == (2, 2) and pair.letters == ("N", None)
    prop = propagate(problem)
    _, cell_by_extra = letter_contents(grid)
    second = len(grid.cells) + cell_by_extra.index(12)
    assert pair.counts == (prop.letters_possible(12), prop.letters_possible(second))
    assert pair.counts[0] == 1 and 1 < pair.counts[1] < 26  # LIKES, LIVES...: 7A/2 narrows it
    data = heatmap_json(report)
    assert data["pairs"] == [{"row": 2, "col": 2, "counts": list(pair.counts), "letters": ["N", None]}]
    text = heatmap_text(report)
    assert f"=N/{pair.counts[1]}" in text and "Schrödinger" in text


def test_a_grid_without_squares_has_no_pairs(words):
    report = analysis.heatmap_report(compile_problem(parse_grid(".....\n.....\n.....\n.....\n.....\n"), words))
    assert report.pairs == () and "pairs" not in heatmap_json(report)
