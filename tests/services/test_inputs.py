"""xwcp/services/inputs.py: what a library caller passes is checked and converted once, at the boundary: a wrong
kind is a TypeError, a wrong value an InputError, each naming the argument and what it takes."""

from __future__ import annotations

from pathlib import Path

import pytest

from xwcp.base.errors import InputError
from xwcp.model import Grid, Puzzle, parse_grid
from xwcp.services import inputs
from xwcp.words.wordlist import WordList, words_from_pairs

OPEN = "...\n...\n"


def test_a_grid_may_be_a_puzzle_a_grid_text_rows_or_a_path(tmp_path):
    puzzle = Puzzle(parse_grid(OPEN), title="T")
    assert inputs.read_grid_like(puzzle) is puzzle
    grid = parse_grid("#..\n...\n")
    assert inputs.read_grid_like(grid) == Puzzle(grid)
    assert inputs.read_grid_like("#..\r\n...\r\n").grid == grid
    assert inputs.read_grid_like(["#..", "..."]).grid == grid
    assert inputs.read_grid_like(("#..", "...")).grid == grid
    path = tmp_path / "g.txt"
    path.write_text("; Title: From a file\n#..\n...\n")
    for given in (path, str(path)):
        read = inputs.read_grid_like(given)
        assert read.grid == grid and read.title == "From a file"


def test_grid_text_errors_carry_the_source_name():
    with pytest.raises(InputError) as info:
        inputs.read_grid_like("...\n..\n", source="<mine>")
    assert info.value.source == "<mine>" and info.value.line == 2


@pytest.mark.parametrize(
    "grid, error, said",
    [
        ("", InputError, "grid is an empty string: give a file path or grid text"),
        ("...", InputError, "no such grid file '...' (grid text needs a line break after each row"),
        (
            42,
            TypeError,
            "grid must be a file path, grid text, a list of row strings, an xwcp.Grid or an xwcp.Puzzle, not int",
        ),
        ([], TypeError, "not list"),
        (["...", 3], TypeError, "not list"),
    ],
)
def test_what_is_not_a_grid_is_said(grid, error, said):
    with pytest.raises(error) as info:
        inputs.read_grid_like(grid)
    assert said in str(info.value)
    assert type(info.value) is error


def test_a_missing_grid_file_with_a_name_like_a_path_is_the_files_error(tmp_path):
    with pytest.raises(InputError, match="no such puzzle file|no such grid file"):
        inputs.read_grid_like(str(tmp_path / "missing.puz"))


def test_words_as_a_list_pairs_a_dict_or_a_loaded_list():
    loaded = words_from_pairs(["CAT"])
    assert inputs.read_words(loaded) is loaded
    from_words = inputs.read_words(["cat", "Dog"])
    assert isinstance(from_words, WordList)
    assert (from_words.score("CAT"), from_words.score("DOG")) == (50, 50)  # plain words score 50
    from_pairs = inputs.read_words([("CAT", 70), "DOG"])
    assert (from_pairs.score("CAT"), from_pairs.score("DOG")) == (70, 50)
    from_dict = inputs.read_words({"CAT": 10, "EMU": 90})
    assert (from_dict.score("CAT"), from_dict.score("EMU"), from_dict.n_words) == (10, 90, 2)


def test_word_list_files_are_layered_later_first(tmp_path):
    base, mine = tmp_path / "base.txt", tmp_path / "mine.txt"
    base.write_text("CAT;30\nDOG;40\n")
    mine.write_text("CAT;80\nEMU;60\n")
    words = inputs.read_words([base, mine])
    assert (words.score("CAT"), words.score("DOG"), words.score("EMU")) == (80, 40, 60)
    assert inputs.read_words(str(base)).score("CAT") == 30


@pytest.mark.parametrize(
    "words, error, said",
    [
        ([], InputError, "words is empty: give at least one word"),
        ({}, InputError, "words is empty: give at least one word"),
        (["12", "!!"], InputError, "words: none of the 2 words given is a word of letters A-Z"),
        ("", InputError, "words is an empty string"),
        ({1: 50}, TypeError, "words: a dict of words maps each word (str) to its score, not int"),
        ({"CAT": True}, TypeError, "words['CAT'] must be a whole number (int), not bool"),
        ([("CAT", "high")], TypeError, "words: the score of 'CAT' must be a whole number"),
        ([3], TypeError, "words: a list of words holds words (str) or (word, score) pairs, not 3"),
        (b"CAT", TypeError, "words must be None (the default list), a file path, a WordList"),
        (7, TypeError, "not int"),
    ],
)
def test_what_is_not_a_word_list_is_said(words, error, said):
    with pytest.raises(error) as info:
        inputs.read_words(words)
    assert said in str(info.value) and type(info.value) is error


def test_files_and_words_do_not_mix(tmp_path):
    path = tmp_path / "w.txt"
    path.write_text("CAT\n")
    with pytest.raises(TypeError, match="mixes word-list files"):
        inputs.read_words([Path(path), "DOG"])


@pytest.fixture(scope="module")
def problem():
    return inputs.compile_problem(OPEN, {"CAT": 50, "ORE": 50, "CO": 50, "AR": 50, "TE": 50}, min_score=0)


def test_compile_problem_takes_grid_and_words_as_the_library_does(problem):
    assert [s.name for s in problem.slots] == ["1A", "4A", "1D", "2D", "3D"]
    assert problem.grid == parse_grid(OPEN)


def test_a_slot_by_name_id_or_slot(problem):
    down = problem.slots[2]
    assert inputs.resolve_slot(problem, "1d") is down
    assert inputs.resolve_slot(problem, " 1D ") is down
    assert inputs.resolve_slot(problem, 2) is down
    assert inputs.resolve_slot(problem, down) is down


def test_an_unknown_slot_names_the_nearest(problem):
    with pytest.raises(InputError, match=r"^slot='9A': unknown slot '9A'; nearest: "):
        inputs.resolve_slot(problem, "9A")
    with pytest.raises(InputError, match=r"this grid has no slot id 5 \(its ids are 0 to 4; names such as '1A'"):
        inputs.resolve_slot(problem, 5)
    with pytest.raises(TypeError, match="slot must be a slot name such as '17A'"):
        inputs.resolve_slot(problem, True)  # a bool is not a slot id
    with pytest.raises(TypeError):
        inputs.resolve_slot(problem, 1.0)


def test_whole_numbers_in_their_range():
    assert inputs.check_int("count", 3, 1) == 3
    for value, said in [(0, "count must be at least 1, got 0"), (11, "count must be from 1 to 10, got 11")]:
        with pytest.raises(InputError, match=f"^{said}$"):
            inputs.check_int("count", value, 1, 10 if value > 1 else None)
    with pytest.raises(InputError, match="^k must be at most 5, got 6$"):
        inputs.check_int("k", 6, maximum=5)
    for value in (True, 2.0, "3", None):
        with pytest.raises(TypeError, match="^count must be a whole number"):
            inputs.check_int("count", value)
    assert inputs.check_optional_int("seed", None) is None and inputs.check_optional_int("seed", 4, 0) == 4


def test_seconds_numbers_bools_and_choices():
    assert inputs.check_seconds("time_limit_s", None) is None and inputs.check_seconds("time_limit_s", 2) == 2.0
    with pytest.raises(InputError, match="^time_limit_s must be more than 0 seconds, got 0$"):
        inputs.check_seconds("time_limit_s", 0)
    with pytest.raises(InputError, match="more than 0 seconds, got nan"):
        inputs.check_seconds("time_limit_s", float("nan"))
    with pytest.raises(TypeError, match="must be a number of seconds"):
        inputs.check_seconds("time_limit_s", True)
    assert inputs.check_number("delay", 0) == 0.0
    for value in (-0.5, float("inf"), float("nan")):
        with pytest.raises(InputError, match="^delay must be a number of at least 0"):
            inputs.check_number("delay", value)
    assert inputs.check_bool("strict", False) is False
    with pytest.raises(TypeError, match="^strict must be True or False, not int 1$"):
        inputs.check_bool("strict", 1)
    assert inputs.check_choice("style", "american", ["american", "british"]) == "american"
    with pytest.raises(InputError, match="^style must be one of 'american', 'british', got 'french'$"):
        inputs.check_choice("style", "french", ["american", "british"])
    with pytest.raises(TypeError):
        inputs.check_choice("style", None, ["american"])


def test_backend_names():
    assert inputs.check_backend("auto") == "auto"
    with pytest.raises(TypeError, match="^backend must be a backend name"):
        inputs.check_backend(None)


def test_design_arguments():
    assert inputs.read_size(" 15x15 ") == "15x15" and inputs.read_size(13) == "13x13"
    assert inputs.read_size((9, 7)) == "9x7" and inputs.read_size([5, 5]) == "5x5"
    for size in (True, (9,), (9, "7"), 2.5):
        with pytest.raises(TypeError, match="^size must be 'WIDTHxHEIGHT'"):
            inputs.read_size(size)
    assert inputs.read_theme_words(None) == [] and inputs.read_theme_words("hello") == ["hello"]
    assert inputs.read_theme_words(("one", "two")) == ["one", "two"]
    for themes in ({"A": 1}, b"x", ["ok", 3], 5):
        with pytest.raises(TypeError, match="^themes must be a word"):
            inputs.read_theme_words(themes)
    assert inputs.read_at(None) == [] and inputs.read_at("HELLO=1,1,A") == ["HELLO=1,1,A"]
    assert inputs.read_at({"HELLO": (1, 2, "D"), "WORLD": "3,1,A"}) == ["HELLO=1,2,D", "WORLD=3,1,A"]
    assert inputs.read_at(["HELLO=1,1,A"]) == ["HELLO=1,1,A"]
    for at, said in [
        ({"HELLO": (1, 2)}, r"^at\['HELLO'\] must be \(row, col, 'A' or 'D'\)"),
        ({3: "1,1,A"}, "^at maps theme words"),
        (7, "^at must be a dict"),
        ([1], "^at must be a dict"),
    ]:
        with pytest.raises(TypeError, match=said):
            inputs.read_at(at)


def test_grids_are_grids_for_compile_problem():
    grid = parse_grid(OPEN)
    assert isinstance(grid, Grid)
    assert inputs.compile_problem(grid, ["CAT", "ORE", "CO", "AR", "TE"], min_score=0).grid is grid
