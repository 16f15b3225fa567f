"""check_fill, fill_grid and measure_quality (xwcp/engine/result.py): a fill is checked slot by slot against the problem
it fills, and its quality measured."""

from __future__ import annotations

import pytest

from xwcp.compile.problem import compile_problem
from xwcp.engine.result import check_fill, fill_grid, measure_quality
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
SQUARE_FILL = ("CAB", "ORE", "WET", "COW", "ARE", "BET")  # slot order: 1A 4A 5A 1D 2D 3D


@pytest.fixture
def square_words():
    return words_from_pairs(SQUARE_WORDS.items())


@pytest.fixture
def square(square_words):
    return compile_problem(parse_grid("...\n...\n..."), square_words, min_score=50)


def test_valid_fill_is_accepted(square):
    assert check_fill(square, SQUARE_FILL) == []
    assert check_fill(square, list(SQUARE_FILL)) == []
    assert fill_grid(square, SQUARE_FILL).rows == ["CAB", "ORE", "WET"]


def test_wrong_number_of_entries(square):
    assert len(check_fill(square, SQUARE_FILL[:5])) == 1
    assert len(check_fill(square, None)) == 1


def test_wrong_length(square):
    entries = ("CAB", "ORE", "WE", "COW", "ARE", "BET")
    violations = check_fill(square, entries)
    assert violations and all(v.startswith("5A") for v in violations)
    assert "'WE'" in violations[0]


def test_not_a_to_z(square):
    violations = check_fill(square, ("CAB", "ORE", "wet", "COW", "ARE", "BET"))
    assert violations and violations[0].startswith("5A")


def test_unlisted_word(square_words):
    # Two uncrossed slots (1A, 2A: no down slot, so the bottom row is number 2).
    problem = compile_problem(parse_grid("...\n###\n..."), square_words, min_score=50)
    assert check_fill(problem, ("CAB", "ORE")) == []
    violations = check_fill(problem, ("CAB", "XYZ"))
    assert len(violations) == 1
    assert violations[0].startswith("2A") and "XYZ" in violations[0] and "word list" in violations[0]


def test_below_min_score(square_words):
    problem = compile_problem(parse_grid("...\n...\n..."), square_words, min_score=56)  # WET scores 55
    violations = check_fill(problem, SQUARE_FILL)
    assert len(violations) == 1
    assert violations[0].startswith("5A") and "WET" in violations[0] and "55" in violations[0]


def test_crossing_disagreement(square):
    entries = ("CAB", "ORE", "WET", "CAW", "ARE", "BET")  # CAW puts A where ORE has O
    violations = check_fill(square, entries)
    assert len(violations) == 1
    assert violations[0].startswith("1D") and "CAW" in violations[0] and "row 2, column 1" in violations[0]


def test_changed_prefilled_letter(square_words):
    problem = compile_problem(parse_grid("..B\n...\n..T"), square_words, min_score=50)
    assert check_fill(problem, SQUARE_FILL) == []
    other = compile_problem(parse_grid("..A\n...\n..."), square_words, min_score=50)
    violations = check_fill(other, SQUARE_FILL)
    assert len(violations) == 2  # CAB (1A) and BET (3D) both replace the A
    assert violations[0].startswith("1A") and violations[1].startswith("3D")
    assert all("pre-filled A" in v and "row 1, column 3" in v for v in violations)


def test_duplicate_words(square_words):
    words = words_from_pairs({**SQUARE_WORDS}.items())
    problem = compile_problem(parse_grid("...\n...\n..."), words, min_score=50)
    square = ("CAT", "ARE", "TEN", "CAT", "ARE", "TEN")  # a symmetric square repeats every word
    violations = check_fill(problem, square)
    assert len(violations) == 3
    assert [v[:2] for v in violations] == ["1D", "2D", "3D"]
    assert "1A" in violations[0] and "4A" in violations[1] and "5A" in violations[2]
    allowed = compile_problem(parse_grid("...\n...\n..."), words, min_score=50, allow_dupes=True)
    assert check_fill(allowed, square) == []


def test_user_entry_is_accepted_even_if_unlisted(square_words):
    problem = compile_problem(parse_grid("QXZ\n###\n..."), square_words, min_score=50)
    assert check_fill(problem, ("QXZ", "CAB")) == []
    violations = check_fill(problem, ("CAB", "ORE"))
    assert len(violations) >= 1 and violations[0].startswith("1A") and "QXZ" in violations[0]


def test_measure_quality_counts_entries_at_the_min():
    problem = compile_problem(
        parse_grid("...\n...\n...\n"),
        words_from_pairs([("TAR", 60), ("ERA", 70), ("NET", 80), ("TEN", 90), ("ARE", 50), ("RAT", 55)]),
        min_score=0,
    )
    q = measure_quality(problem, ("TAR", "ERA", "NET", "TEN", "ARE", "RAT"))
    assert (q.min_score, q.n_at_min) == (50, 1)
    assert q.text().startswith("quality: mean 67.5, min 50, 1 entry at 50")
