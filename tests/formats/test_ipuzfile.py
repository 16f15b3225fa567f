"""Real .ipuz files (xwcp/formats/ipuzfile.py): bars, diagramless grids, omitted cells and the file's own numbering,
variety puzzles refused, zero-indexed clue cells.

The files under tests/data/puzzles are published puzzles from other projects' test collections
(see SOURCE.md there); each test says what the file's own reader shows and checks that xwcp reads the same, or
refuses in one line, or warns.
"""
from __future__ import annotations

import json

import pytest

from xwcp.cli.commands import main
from xwcp.base.errors import InputError
from xwcp.formats import read_puzzle

from tests.formats.test_puzzle_files import DATA, cells_of


def test_a_barred_ipuz_keeps_its_bars_and_entries_end_at_them():
    puzzle = read_puzzle(DATA / "ccw-barred-demo.ipuz")
    data = json.loads((DATA / "ccw-barred-demo.ipuz").read_text())
    n_sides = sum(len(c["style"].get("barred", "")) for row in data["puzzle"] for c in row
                  if isinstance(c, dict) and isinstance(c.get("style"), dict))
    assert len(puzzle.grid.bars) == 68 <= n_sides
    assert cells_of(puzzle, "1A") == "TESTTUBEBABY"
    for clue in data["clues"]["Across"] + data["clues"]["Down"]:
        name = f"{clue['number']}{'A' if clue in data['clues']['Across'] else 'D'}"
        assert puzzle.clue_by_slot[name] == clue["clue"]
    assert len(puzzle.slots()) == len(data["clues"]["Across"]) + len(data["clues"]["Down"])


def test_a_diagramless_ipuz_keeps_its_blocks_and_flag():
    puzzle = read_puzzle(DATA / "BirthOfTheCool_Diagramless.ipuz")
    data = json.loads((DATA / "BirthOfTheCool_Diagramless.ipuz").read_text())
    assert puzzle.is_diagramless
    assert puzzle.grid.n_blocks == sum(row.count("#") for row in data["solution"]) == 42
    assert len(puzzle.clue_by_slot) == 44 and puzzle.clue_by_slot["1A"] == "Bro's sib"
    assert cells_of(puzzle, "1A") == "SIS" and not puzzle.warnings


def test_omitted_cells_and_the_files_own_numbering():
    puzzle = read_puzzle(DATA / "first.ipuz")
    assert "97 omitted cells (outside the puzzle's shape) are read as blocks" in puzzle.warnings
    assert puzzle.grid.numbers is not None
    assert cells_of(puzzle, "2A") == "SALES" and puzzle.clue_by_slot["2A"] == "What bargain hunters enjoy"
    assert any("clues name no entry of the grid" in w for w in puzzle.warnings)  # F-7, N-8: said, not dropped silently


def test_a_variety_ipuz_is_refused_in_one_line(capsys):
    with pytest.raises(InputError, match="clue set 'Bands' is neither Across nor Down: a variety puzzle"):
        read_puzzle(DATA / "marching-bands.ipuz")
    assert main(["check", str(DATA / "marching-bands.ipuz")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_zero_indexed_clue_cells_are_placed():
    puzzle = read_puzzle(DATA / "kotwords-test-zero-indexed.ipuz")
    assert len(puzzle.clue_by_slot) == 10 and puzzle.grid.cells[12] == "XYZ"
