"""Compiling a grid and a list into a Problem (crossings, domains, fixed slots); check_fill:
tests/engine/test_result.py."""

from __future__ import annotations

import re

import numpy as np
import pytest

from xwcp.compile.problem import compile_problem
from xwcp.model import parse_grid
from xwcp.words.wordlist import words_from_pairs

# A 3x3 square with six different words: rows CAB ORE WET, columns COW ARE BET.
SQUARE_WORDS = {
    "CAB": 60,
    "ORE": 60,
    "WET": 55,
    "COW": 60,
    "ARE": 60,
    "BET": 60,
    "CAW": 60,
    "CAT": 60,
    "TEN": 60,
    "OAT": 30,
    "ZZZ": 10,
}


@pytest.fixture
def square_words():
    return words_from_pairs(SQUARE_WORDS.items())


def domain_texts(problem, slot_id) -> set[str]:
    bucket = problem.words.bucket(problem.slots[slot_id].length)
    return {bucket.text(k) for k in np.flatnonzero(problem.domains[slot_id])}


def by_name(problem, name):
    return problem.slot_by_name(name).id


# ----- slots and crossings -----------------------------------------------------------------


def test_crossings_of_open_3x3(square_words):
    problem = compile_problem(parse_grid("...\n...\n..."), square_words)
    assert [s.name for s in problem.slots] == ["1A", "4A", "5A", "1D", "2D", "3D"]
    assert len(problem.crossings) == 9
    got = {(x.cell, x.a, x.a_pos, x.b, x.b_pos) for x in problem.crossings}
    # cell (r, c) is position c of across slot r and position r of down slot 3 + c
    assert got == {(3 * r + c, r, c, 3 + c, r) for r in range(3) for c in range(3)}
    assert problem.cross_slot[0] == (3, 4, 5) and problem.cross_pos[0] == (0, 0, 0)
    assert problem.cross_slot[4] == (0, 1, 2) and problem.cross_pos[4] == (1, 1, 1)


def test_crossings_skip_unchecked_cells():
    words = words_from_pairs(["ABCDE", "FGHIJ", "AFK", "CHM"])
    problem = compile_problem(parse_grid(".....\n.#.#.\n.....\n"), words)
    names = [s.name for s in problem.slots]
    assert names == ["1A", "4A", "1D", "2D", "3D"]
    assert len(problem.crossings) == 6
    assert {x.cell for x in problem.crossings} == {0, 2, 4, 10, 12, 14}
    one_a = by_name(problem, "1A")
    assert problem.cross_slot[one_a] == (by_name(problem, "1D"), -1, by_name(problem, "2D"), -1, by_name(problem, "3D"))
    assert problem.cross_pos[one_a] == (0, -1, 0, -1, 0)
    two_d = by_name(problem, "2D")
    assert problem.cross_slot[two_d] == (one_a, -1, by_name(problem, "4A"))
    assert problem.cross_pos[two_d] == (2, -1, 2)


def test_crossings_on_5x5_with_blocks(square_words):
    grid = parse_grid("#...#\n.....\n..#..\n.....\n#...#")
    problem = compile_problem(grid, square_words)
    white = sum(1 for c in grid.cells if c != "#")
    assert len(problem.crossings) == white  # every white cell is checked in this grid
    for x in problem.crossings:
        assert problem.slots[x.a].direction.letter == "A" and problem.slots[x.b].direction.letter == "D"
        assert problem.slots[x.a].cells[x.a_pos] == x.cell == problem.slots[x.b].cells[x.b_pos]


# ----- domains -----------------------------------------------------------------------------

FIVES = {
    "CRANE": 70,
    "CRATE": 60,
    "CARTE": 50,
    "CHART": 40,
    "TRACE": 80,
    "CRAZE": 20,
    "BRAVE": 65,
    "GRAPE": 55,
    "CREPT": 75,
    "CLEAT": 50,
    "ACTOR": 90,
    "CROAK": 50,
}


@pytest.mark.parametrize("min_score", [0, 50, 60])
def test_prefilled_letters_narrow_domains_exactly(min_score):
    words = words_from_pairs(FIVES.items())
    grid = parse_grid("C.A..\n.....\n.....\n.....\n....E\n")
    problem = compile_problem(grid, words, min_score=min_score)
    for slot in problem.slots:
        pattern = problem.pattern(slot.id)
        expected = {w for w, s in FIVES.items() if re.fullmatch(pattern, w) and s >= min_score}
        assert domain_texts(problem, slot.id) == expected, (slot.name, pattern)
    # spot-check the hand-computed cases too
    assert problem.pattern(by_name(problem, "1A")) == "C.A.."
    expected_1a = {w for w in ("CRANE", "CRATE", "CRAZE", "CHART") if FIVES[w] >= min_score}
    assert domain_texts(problem, by_name(problem, "1A")) == expected_1a


def test_min_score_filters_domains():
    words = words_from_pairs(FIVES.items())
    grid = parse_grid(".....\n.....\n.....\n.....\n.....\n")
    assert domain_texts(compile_problem(grid, words, min_score=0), 0) == set(FIVES)
    assert domain_texts(compile_problem(grid, words, min_score=70), 0) == {"CRANE", "TRACE", "CREPT", "ACTOR"}
    assert domain_texts(compile_problem(grid, words, min_score=91), 0) == set()
    assert compile_problem(grid, words, min_score=70).min_score == 70


def test_domains_are_read_only(square_words):
    problem = compile_problem(parse_grid("...\n...\n..."), square_words)
    with pytest.raises(ValueError):
        problem.domains[0][0] = False


def test_fully_prefilled_slot_is_fixed_even_if_unlisted(square_words):
    problem = compile_problem(parse_grid("QXZ\n...\n..."), square_words, min_score=0)
    assert problem.fixed_text_by_slot == {by_name(problem, "1A"): "QXZ"}
    assert by_name(problem, "1A") not in problem.open_slot_ids
    assert problem.open_slot_ids == [1, 2, 3, 4, 5]
    assert not problem.domains[by_name(problem, "1A")].any()
    assert problem.conflicts == ()


def test_fixed_word_is_removed_from_other_domains(square_words):
    grid = parse_grid("CAB\n...\n...")
    problem = compile_problem(grid, square_words, min_score=0)
    one_a, five_a = by_name(problem, "1A"), by_name(problem, "5A")
    assert problem.fixed_text_by_slot == {one_a: "CAB"}
    assert domain_texts(problem, one_a) == {"CAB"}
    assert "CAB" not in domain_texts(problem, five_a)
    assert domain_texts(problem, five_a) == set(SQUARE_WORDS) - {"CAB"}
    # with duplicates allowed the fixed word stays available elsewhere
    allowed = compile_problem(grid, square_words, min_score=0, allow_dupes=True)
    assert domain_texts(allowed, five_a) == set(SQUARE_WORDS)


def test_fixed_slot_ignores_min_score(square_words):
    problem = compile_problem(parse_grid("ZZZ\n...\n..."), square_words, min_score=50)
    assert domain_texts(problem, by_name(problem, "1A")) == {"ZZZ"}


def test_word_entered_twice_is_a_conflict(square_words):
    grid = parse_grid("CAB\n...\nCAB")
    problem = compile_problem(grid, square_words)
    assert len(problem.conflicts) == 1
    assert "CAB" in problem.conflicts[0]
    assert "1A" in problem.conflicts[0] and "5A" in problem.conflicts[0]
    assert compile_problem(grid, square_words, allow_dupes=True).conflicts == ()
