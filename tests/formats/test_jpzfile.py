"""Real .jpz files (xwcp/formats/jpzfile.py): zipped files with rebus and circles, bars matching the XML, symbols
and markup in clues, acrostics refused.

The files under tests/data/puzzles are published puzzles from other projects' test collections
(see SOURCE.md there); each test says what the file's own reader shows and checks that xwcp reads the same, or
refuses in one line, or warns.
"""
from __future__ import annotations

import pytest

from xwcp.base.errors import InputError
from xwcp.formats import Puzzle, read_puzzle, write_puzzle
from xwcp.model import BELOW, RIGHT, parse_grid

from tests.formats.test_puzzle_files import DATA


def test_zipped_jpz_with_rebus_and_circles():
    puzzle = read_puzzle(DATA / "3x.jpz")
    assert puzzle.grid.render() == "#A(D)\n[BA]([NA])[NA]\n(A)T#\n"
    assert puzzle.clue_by_slot["1A"] == "TV spot"


def test_barred_jpz_bars_match_its_xml_and_words():
    from xml.etree import ElementTree

    puzzle = read_puzzle(DATA / "printer-devilry.jpz")
    root = ElementTree.parse(DATA / "printer-devilry.jpz").getroot()
    ns = "{http://crossword.info/xml/rectangular-puzzle}"
    width = int(root.find(f".//{ns}grid").get("width"))
    bars = set()
    for cell in root.iter(f"{ns}cell"):
        at = (int(cell.get("y")) - 1) * width + int(cell.get("x")) - 1
        if cell.get("left-bar") == "true":
            bars.add((at - 1, RIGHT))
        if cell.get("top-bar") == "true":
            bars.add((at - width, BELOW))
    assert set(puzzle.grid.bars) == bars and len(bars) == 24
    words = {w.get("id"): tuple((int(c.get("y")) - 1) * width + int(c.get("x")) - 1 for c in w)
             for w in root.iter(f"{ns}word")}
    slot_cells = {s.cells for s in puzzle.slots()}
    assert all(cells in slot_cells for cells in words.values())
    assert puzzle.title == "Beneath The Surface Printer's Devilry #4 (Midi)" and len(puzzle.clue_by_slot) == 18


def test_jpz_symbols_rebus_and_markup_in_clues(tmp_path):
    puzzle = read_puzzle(DATA / "kotwords-test.jpz")
    assert puzzle.grid.render().splitlines()[2:] == ["(I)J[XYZ]L(M)", "#NOPQ", "#[1][2][$][@]"]
    clue = "Bob's <i>Breaking Bad</i> role &amp; more"
    out = tmp_path / "m.jpz"
    write_puzzle(Puzzle(parse_grid("CAT\nORE\n"), clue_by_slot={"1A": clue, "1D": "a < b"}), out)
    back = read_puzzle(out)
    assert back.clue_by_slot == {"1A": clue, "1D": "a < b"}


def test_an_acrostic_jpz_is_refused():
    with pytest.raises(InputError, match=r"not a crossword \(a <acrostic> puzzle\)"):
        read_puzzle(DATA / "acrostic.jpz")
