"""xwcp/formats/textfile.py: our text grid, with title, author, copyright and kind as `;` comment lines."""

from __future__ import annotations

import sys

from xwcp.formats import Puzzle, read_puzzle, textfile, write_puzzle
from xwcp.model import parse_grid


def test_text_grid_keeps_title_author_and_copyright_as_comments(tmp_path):
    path = tmp_path / "t.txt"
    write_puzzle(Puzzle(parse_grid("..\n..\n"), title="T", author="A", copyright="C", notes="dropped"), path)
    assert path.read_text().splitlines()[:3] == ["; Title: T", "; Author: A", "; Copyright: C"]
    back = read_puzzle(path)
    assert (back.title, back.author, back.copyright) == ("T", "A", "C")


def test_diagramless_is_a_comment_and_reads_back(tmp_path):
    path = tmp_path / "d.txt"
    textfile.write(Puzzle(parse_grid("A.\n.#\n"), is_diagramless=True), path)
    assert path.read_text().splitlines() == ["; Diagramless: yes", "A.", ".#"]
    back = textfile.read(path)
    assert back.is_diagramless and back.grid == parse_grid("A.\n.#\n")


def test_without_metadata_the_file_is_the_grid_alone(tmp_path):
    path = tmp_path / "g.txt"
    grid = parse_grid("[AB].|.\n.#.\n")
    textfile.write(Puzzle(grid, notes="not kept", clue_by_slot={"1A": "not kept"}), path)
    assert path.read_text() == grid.render()
    assert textfile.read(path) == Puzzle(grid)


def test_a_title_over_several_lines_is_written_on_one(tmp_path):
    path = tmp_path / "t.txt"
    textfile.write(Puzzle(parse_grid("..\n"), title="Two\nlines  here"), path)
    assert path.read_text().splitlines()[0] == "; Title: Two lines here"
    assert textfile.read(path).title == "Two lines here"


def test_metadata_keys_any_case_first_one_wins(tmp_path):
    path = tmp_path / "m.txt"
    path.write_text("; TITLE: First\n; title: Second\n; Diagramless: TRUE\n; Editor: not read\n..\n..\n")
    puzzle = textfile.read(path)
    assert puzzle.title == "First" and puzzle.is_diagramless and puzzle.author == ""
    path.write_text("; Diagramless: no\n..\n..\n")
    assert not textfile.read(path).is_diagramless


def test_standard_input_is_read_once_for_grid_and_metadata(tmp_path, monkeypatch):
    path = tmp_path / "in.txt"
    path.write_text("; Title: Piped\n...\n...\n")
    with open(path, "rb") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        puzzle = textfile.read("-")
    assert puzzle.title == "Piped" and puzzle.grid.rows == ["...", "..."]
