"""xwcp/services/save.py: the one saver. A fill goes into the puzzle it came from; a grid with bars or rebus cells
takes the target's name only once the written file reads back as the same grid; conversion between formats."""

from __future__ import annotations

import pytest

from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import FillResult
from xwcp.formats import Puzzle, read_puzzle
from xwcp.model import parse_grid
from xwcp.services import save
from xwcp.words.wordlist import words_from_pairs

BARRED = "AB|C\nDEF\n"


def test_a_fill_is_written_into_its_puzzle(tmp_path):
    puzzle = Puzzle(parse_grid("..\n..\n"), title="Mine", author="Me", clue_by_slot={"1A": "First"})
    problem = compile_problem(puzzle.grid, words_from_pairs(["AB", "CD", "AC", "BD"]), min_score=0)
    result = FillResult(FillStatus.FILLED, "dfs", fills=(("AB", "CD", "AC", "BD"),), n_fills=1)
    out = tmp_path / "filled.ipuz"
    assert save.save_fill(puzzle, problem, result, out) is True
    back = read_puzzle(out)
    assert back.grid.rows == ["AB", "CD"]
    assert (back.title, back.author, back.clue_by_slot) == ("Mine", "Me", {"1A": "First"})


def test_no_fill_writes_nothing(tmp_path):
    puzzle = Puzzle(parse_grid("..\n..\n"))
    problem = compile_problem(puzzle.grid, words_from_pairs(["AB"]), min_score=0)
    out = tmp_path / "none.txt"
    assert save.save_fill(puzzle, problem, FillResult(FillStatus.UNFILLABLE, "dfs"), out) is False
    assert not out.exists()


@pytest.mark.parametrize("text", [BARRED, "[AB]C\nDE\n"])
def test_bars_and_rebus_cells_are_checked_and_kept(tmp_path, text):
    out = tmp_path / "out.ipuz"
    save.write_checked(Puzzle(parse_grid(text)), out)
    assert read_puzzle(out).grid == parse_grid(text)
    assert [p.name for p in tmp_path.iterdir()] == ["out.ipuz"]  # the trial file took the name


def test_a_format_that_cannot_hold_bars_refuses_and_leaves_the_old_file(tmp_path):
    out = tmp_path / "out.puz"
    out.write_bytes(b"the old file")
    with pytest.raises(InputError) as info:
        save.write_checked(Puzzle(parse_grid(BARRED)), out)
    assert info.value.source == str(out)  # named as the user named it, not the trial file
    assert ".puz cannot hold bars" in info.value.message
    assert out.read_bytes() == b"the old file" and [p.name for p in tmp_path.iterdir()] == ["out.puz"]


def test_a_file_that_would_read_as_another_grid_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(
        save, "read_puzzle", lambda path, alphabet=None: Puzzle(parse_grid("ABC\nDEF\n"))
    )  # the bar lost
    out = tmp_path / "out.xd"
    with pytest.raises(InputError) as info:
        save.write_checked(Puzzle(parse_grid(BARRED)), out)
    assert str(info.value) == f"{out}: .xd cannot keep this grid's bars here (the file would read as another grid)"
    assert list(tmp_path.iterdir()) == []


def test_a_plain_grid_is_written_directly(tmp_path, monkeypatch):
    def no_read_back(path):
        raise AssertionError("a grid without bars or rebus cells is not read back")

    monkeypatch.setattr(save, "read_puzzle", no_read_back)
    out = tmp_path / "plain.txt"
    save.write_checked(Puzzle(parse_grid("AB\nC#\n"), title="T"), out)
    assert out.read_text() == "; Title: T\nAB\nC#\n"


def test_convert_between_formats(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("; Title: Converted\n" + BARRED)
    puzzle = save.convert(source, tmp_path / "out.jpz")
    assert puzzle.title == "Converted"
    back = read_puzzle(tmp_path / "out.jpz")
    assert back.grid == parse_grid(BARRED) and back.title == "Converted"


def test_convert_refuses_a_bad_output_name_before_reading(tmp_path):
    with pytest.raises(InputError, match="unknown puzzle file extension '.docx'"):
        save.convert(tmp_path / "missing.txt", tmp_path / "out.docx")  # not "no such file": never read
