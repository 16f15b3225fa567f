"""Real .ipuz files (xwcp/formats/ipuzfile.py): bars, diagramless grids, omitted cells and the file's own numbering,
variety puzzles' listed entries, zero-indexed clue cells.

The files under tests/data/puzzles are published puzzles from other projects' test collections
(see SOURCE.md there); each test says what the file's own reader shows and checks that xwcp reads the same, or
refuses in one line, or warns.
"""

from __future__ import annotations

import json

import pytest

from tests.formats.test_puzzle_files import DATA, cells_of
from xwcp.base.errors import InputError
from xwcp.formats import read_puzzle


def test_a_barred_ipuz_keeps_its_bars_and_entries_end_at_them():
    puzzle = read_puzzle(DATA / "ccw-barred-demo.ipuz")
    data = json.loads((DATA / "ccw-barred-demo.ipuz").read_text())
    n_sides = sum(
        len(c["style"].get("barred", ""))
        for row in data["puzzle"]
        for c in row
        if isinstance(c, dict) and isinstance(c.get("style"), dict)
    )
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


def test_a_variety_ipuz_reads_its_listed_entries():
    puzzle = read_puzzle(DATA / "marching-bands.ipuz")
    grid = puzzle.grid
    assert grid.entries_only and [s.name for s in puzzle.slots()][:3] == ["BANDS.A", "BANDS.B", "ROWS.1"]
    band = next(s for s in puzzle.slots() if s.name == "BANDS.A")
    assert len(band.cells) == 16 and puzzle.clue(band) == "Band A1 / Band A2 / Band A3"
    assert {e.name: e.words for e in grid.entries}["BANDS.A"] == 3  # a chain: " / " joins three clues
    assert not any("' / '" in w for w in puzzle.warnings)
    row3 = next(s for s in puzzle.slots() if s.name == "ROWS.3")
    assert row3.cells == (10, 11, 13, 14)  # over the block in the middle, as the file lists it


def test_zero_indexed_clue_cells_are_placed():
    puzzle = read_puzzle(DATA / "kotwords-test-zero-indexed.ipuz")
    assert len(puzzle.clue_by_slot) == 10 and puzzle.grid.cells[12] == "XYZ"


# ----- issue 34: numbers, nesting and field types ------------------------------------------


def _spoiled(tmp_path, text: str):
    path = tmp_path / "x.ipuz"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "change, says",
    [
        (lambda d: d["dimensions"].update(width=True), "no dimensions"),
        (lambda d: d.update(kind=5), '"kind" is 5 (a number)'),
        (lambda d: d.update(kind=[1]), '"kind" is a list'),
        (lambda d: d["clues"].update(Across=[{"number": 1, "clue": "x", "cells": 5}]), '"cells": 5 (a number)'),
        (lambda d: d["clues"].update(Across=[{"number": 1, "clue": "x", "cells": True}]), '"cells": true'),
        (lambda d: d["clues"].update(Across=[{"number": 1, "clue": "x", "cells": [1, 1]}]), '"cells": a list'),
    ],
)
def test_a_field_of_the_wrong_type_is_named(tmp_path, change, says):
    from tests.project.hostile import ipuz_dict

    data = ipuz_dict()
    change(data)
    with pytest.raises(InputError) as caught:
        read_puzzle(_spoiled(tmp_path, json.dumps(data)))
    assert says in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    "value, says",
    [
        ("Infinity", "Infinity"),
        ("-Infinity", "-Infinity"),
        ("NaN", "NaN"),
        ("1e999", "too large"),
        ("9" * 5000, "5,000 digits"),
        ("[" * 100000 + "]" * 100000, "nests deeper than 64"),
        ("[" * 65 + "]" * 65, "nests deeper than 64"),
    ],
)
def test_numbers_and_nesting_are_bounded(tmp_path, value, says):
    from tests.project.hostile import ipuz_dict

    text = json.dumps(ipuz_dict())[:-1] + ', "extra": ' + value + "}"
    with pytest.raises(InputError, match=says):
        read_puzzle(_spoiled(tmp_path, text))


def test_a_kind_given_as_one_string_and_big_but_bounded_numbers_read(tmp_path):
    from tests.project.hostile import ipuz_dict

    data = {**ipuz_dict(), "kind": "http://ipuz.org/crossword#1", "uniqueid": 10**17, "nested": [[[[1.5]]]]}
    assert read_puzzle(_spoiled(tmp_path, json.dumps(data))).grid.rows == ["CAT", "A#A", "TAT"]
