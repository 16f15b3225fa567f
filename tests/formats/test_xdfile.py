"""Real .xd files (xwcp/formats/xdfile.py): Puzzmo's dots and metadata, rebus headers and design marks, bars,
clue text, what no cell can hold, which reading a file without answers gets.

The files under tests/data/puzzles are published puzzles from other projects' test collections
(see SOURCE.md there); each test says what the file's own reader shows and checks that xwcp reads the same, or
refuses in one line, or warns.
"""

from __future__ import annotations

import pytest

from tests.formats.test_puzzle_files import DATA, cells_of
from xwcp.base.errors import InputError
from xwcp.formats import Puzzle, read_puzzle, write_puzzle
from xwcp.model import BELOW, RIGHT, Mark, parse_grid


def test_puzzmo_xd_dots_are_blocks_and_metadata_keys_any_case():
    puzzle = read_puzzle(DATA / "alpha-bits.xd")
    assert (puzzle.title, puzzle.author, puzzle.copyright) == ("Alpha-Bits", "Drew Hodson", "© 2021")
    assert puzzle.grid.n_blocks == 46 and len(puzzle.clue_by_slot) == 88 and not puzzle.warnings
    assert cells_of(puzzle, "1A") == "AHAB" and puzzle.clue_by_slot["1A"] == "Captain of the Pequod"
    assert {m for _, m in puzzle.grid.marks} == {Mark(circle=True)}  # its Design section


def test_xd_rebus_header_and_design_marks():
    puzzle = read_puzzle(DATA / "speakerboxxx.xd")
    assert [c for c in puzzle.grid.cells if len(c) > 1] == ["BOSE", "SONY"]
    assert all(m.circle for _, m in puzzle.grid.marks) and len(puzzle.grid.marks) == 19
    old = read_puzzle(DATA / "nyt1955-01-01.xd")
    assert old.grid.rows[0] == "[HEART]ACHE#ADAM#[DIAMOND]LIL"


def test_xd_bars_from_the_design_section_agree_with_the_jpz_of_the_same_puzzle():
    puzzle = read_puzzle(DATA / "kotwords-test-barred.xd")
    assert cells_of(puzzle, "1A") == "ABCD" and cells_of(puzzle, "9A") == "UVWX"
    assert (0, BELOW) in puzzle.grid.bars and (3, RIGHT) in puzzle.grid.bars
    assert puzzle.warnings == ("1 clue answers differ from the grid's letters (9A)",)  # the file's own slip


def test_xd_clue_text_is_written_unchanged(tmp_path):
    clue = "Say ''hi'' \u2014 {/italic/} ~ tilde"
    out = tmp_path / "c.xd"
    write_puzzle(Puzzle(parse_grid("CAT\nORE\n"), clue_by_slot={"1A": clue, "2D": ""}), out)
    assert f"A1. {clue} ~ CAT" in out.read_text()
    assert read_puzzle(out).clue_by_slot == {"1A": clue}


@pytest.mark.parametrize(
    "text, needle",
    [
        ("Title: t\n\n\nAB[\nCDE\nFGH\n\n\nA1. x ~ AB\n", "grid row 1, column 3 holds '['"),
        ("Title: t\nRebus: 1=A#B\n\n\nA1C\nCDE\nFGH\n\n\nA1. x ~ AAC\n", "Rebus header's '1=A#B' puts 'A#B'"),
    ],
)
def test_xd_refuses_what_no_cell_can_hold_as_every_reader_does(tmp_path, text, needle):
    """A '[', ']' or '#' in a cell would render as text xwcp cannot read back (`[[]`): refused with one line."""
    path = tmp_path / "bad.xd"
    path.write_text(text)
    with pytest.raises(InputError, match=r"cannot keep .*'#', '\[' and '\]' are not cell contents") as err:
        read_puzzle(path)
    assert needle in str(err.value)


def test_xd_without_hash_blocks_and_without_answers_warns_which_reading(tmp_path):
    path = tmp_path / "dots.xd"
    path.write_text("Title: t\n\n\nAB.C\nDE.F\n\n\nA1. x\n")
    puzzle = read_puzzle(path)
    assert puzzle.grid.n_blocks == 2 and "are read as blocks" in puzzle.warnings[0]


# ----- issue 34: linear comments, short error lines, rows with spaces -----------------------


def test_comments_are_removed_as_the_non_greedy_regex_did():
    import random
    import re

    from xwcp.formats.xdfile import _without_comments

    regex = re.compile(r"<!--.*?-->", re.DOTALL)
    pieces = ["<!--", "-->", "a", "-", "<", "!", "\n", "--", ">"]
    rng = random.Random(34)
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert _without_comments(text) == regex.sub("", text), text


def test_many_unclosed_comments_take_linear_time_and_one_short_line():
    import time

    from xwcp.formats.xdfile import from_text

    start = time.process_time()
    with pytest.raises(InputError) as caught:
        from_text("<!--" * 40000, "c.xd")  # 160 KB: 55 s before issue 34
    assert time.process_time() - start < 2.0
    assert len(str(caught.value)) < 200


def test_a_grid_row_with_an_inner_space_is_refused_on_read(tmp_path):
    path = tmp_path / "s.xd"
    path.write_text("Title: t\n\n\nCA T\nA#AA\nTATA\nAAAA\n\n\nA1. x ~ CAT\n", encoding="utf-8")
    with pytest.raises(InputError, match="grid row 1, column 3 is a space"):
        read_puzzle(path)
