"""Published variety puzzles (.ipuz, .jpz: entries given as cells) read as their files list them, written back, filled.

The files under tests/data/puzzles/variety are kotwords' test files and two Crossword Nexus samples (see
SOURCE.md there). What each file's own reader shows is read here from the file itself, the way kotwords and
jscrossword read it: every clue list in order, each clue's label, text and cells (an ipuz clue's `cells`, a
.jpz clue's `<word>` with its `<cells>` in order).
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest

from tests.formats.test_puzzle_files import DATA
from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.cli.commands import main
from xwcp.engine.result import check_fill
from xwcp.formats import puzzle_from_fill, read_puzzle, write_puzzle
from xwcp.model import find_slots
from xwcp.services.load import LoadOptions, load_puzzle_problem
from xwcp.services.run import run_fill

VARIETY = DATA / "variety"
FILES = sorted([*VARIETY.glob("*.ipuz"), *VARIETY.glob("*.jpz"), DATA / "marching-bands.ipuz"])

Listed = list[tuple[str, str, tuple[int, ...] | None, str]]
"""Every clue of every list: (list title, label, cells or None, text)."""


def _ipuz_lists(path: Path) -> tuple[int, Listed]:
    data = json.loads(path.read_text(encoding="utf-8"))
    width = data["dimensions"]["width"]
    out: Listed = []
    for title, items in data["clues"].items():
        for item in items:
            if isinstance(item, str):
                out.append((title, "", None, item))
            elif isinstance(item, list):
                out.append((title, str(item[0]), None, item[1]))
            else:
                cells = tuple((y - 1) * width + x - 1 for x, y in item["cells"]) if item.get("cells") else None
                out.append((title, str(item.get("number", "")), cells, item["clue"]))
    return width, out


def _jpz_lists(path: Path) -> tuple[int, Listed]:
    text = re.sub(r"^\s*<\?xml[^>]*\?>", "", path.read_text(encoding="utf-8"))
    root = ElementTree.fromstring(text)
    for el in root.iter():
        el.tag = el.tag.split("}", 1)[-1]
    crossword = next(root.iter("crossword"))
    width = int(next(crossword.iter("grid")).get("width", ""))

    def span(value: str | None) -> list[int]:
        a, _, b = (value or "").partition("-")
        return list(range(int(a), int(b or a) + 1))

    cells_by_word = {
        word.get("id"): tuple(
            (y - 1) * width + x - 1
            for el in [word, *word.findall("cells")]
            if el.get("x")
            for x in span(el.get("x"))
            for y in span(el.get("y"))
        )
        for word in crossword.iter("word")
    }
    out: Listed = []
    for clues in crossword.iter("clues"):
        title_el = clues.find("title")
        title = "".join(title_el.itertext()).strip() if title_el is not None else ""
        for clue in clues.findall("clue"):
            out.append((title, clue.get("number", ""), cells_by_word.get(clue.get("word")), "".join(clue.itertext())))
    return width, out


def _plain(text: str) -> str:
    """A clue's text without its inline markup (xwcp keeps a .jpz clue's `<i>` as text; the XML reads it as tags)."""
    return re.sub(r"<[^>]+>", "", text)


def _file_lists(path: Path) -> Listed:
    return (_ipuz_lists if path.suffix == ".ipuz" else _jpz_lists)(path)[1]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_variety_file_reads_as_its_file_lists_it(path):
    """Every clue on an entry of exactly its cells with its text (a one-cell clue kept on its cell), no entry the
    file does not list, clues on no cells kept in their lists, the lists' titles in the file's order."""
    listed = _file_lists(path)
    puzzle = read_puzzle(path)
    slot_by_cells = {s.cells: s for s in find_slots(puzzle.grid)}
    ones = {(c.cells, c.text) for x in puzzle.clue_lists for c in x.clues if c.cells}
    for title, label, cells, text in listed:
        if cells is None:
            continue
        if len(cells) == 1:
            assert (cells, text) in ones, (title, label)
            continue
        assert cells in slot_by_cells, (title, label)
        assert _plain(puzzle.clue(slot_by_cells[cells])) == _plain(text), (title, label)
    assert set(slot_by_cells) == {cells for _, _, cells, _ in listed if cells and len(cells) > 1}
    assert [x.title for x in puzzle.clue_lists] == list(dict.fromkeys(title for title, _, _, _ in listed))
    assert sorted(c.text for x in puzzle.clue_lists for c in x.clues if c.entry is None and not c.cells) == sorted(
        text for _, _, cells, text in listed if cells is None
    )


def test_the_variety_files_are_read_not_refused(capsys):
    """`xwcp check` opens them (exit 0 or 1, never 2): they were refused in one line before."""
    for path in (DATA / "marching-bands.ipuz", VARIETY / "rows-garden-mini.jpz", VARIETY / "two-tone-nonsquare.jpz"):
        assert main(["check", str(path)]) in (0, 1), path
    capsys.readouterr()


def test_a_rows_garden_lists_rows_and_blooms_with_its_cell_labels():
    puzzle = read_puzzle(VARIETY / "rows-garden.ipuz")
    grid = puzzle.grid
    assert grid.entries_only and len(grid.entries) == 12 + 38
    assert [x.title for x in puzzle.clue_lists] == ["Rows", "Blooms"]
    row_b = next(e for e in grid.entries if e.name == "ROWS.B")
    assert len(row_b.cells) == 21 and puzzle.clue_by_slot["ROWS.B"] == "Row 2 Clue 1 (space): 2 wds. / Row 2 Clue 2"
    bloom = next(e for e in grid.entries if e.name == "BLOOMS.L1")
    assert bloom.cells == (21, 22, 23, 44, 43, 42)  # clockwise round the bloom, as the file lists it
    assert {(c.cell, c.text) for c in puzzle.cell_labels} >= {(3, "A"), (5, "M1"), (23, "L1")}


def test_a_diagonal_clue_is_added_to_the_grids_own_entries():
    for path in (VARIETY / "kotwords-test-diagonal.ipuz", VARIETY / "kotwords-test-diagonal.jpz"):
        puzzle = read_puzzle(path)
        assert not puzzle.grid.entries_only and [e.name for e in puzzle.grid.entries] == ["SOUTHEAST.A"]
        assert puzzle.grid.entries[0].cells == (0, 6, 12, 18, 24)
        assert puzzle.clue_by_slot["SOUTHEAST.A"] == "Diagonal clue" and puzzle.clue_by_slot["1D"] == "First down clue"


def test_clues_on_no_cells_and_one_cell_clues_are_kept():
    pieces = read_puzzle(VARIETY / "patchwork-unlabeled-pieces.ipuz").clue_lists[1]
    assert pieces.title == "Pieces" and [(c.label, c.entry, c.text) for c in pieces.clues][:2] == [
        ("", None, "Piece 1"),
        ("", None, "Piece 2"),
    ]
    puzzle = read_puzzle(VARIETY / "two-tone-nonsquare.jpz")
    one = [c for x in puzzle.clue_lists for c in x.clues if c.cells]
    assert [(c.cells, c.text) for c in one] == [((6,), "Odd clue 2")]


def _same(a, b) -> None:
    assert b.grid == a.grid and b.grid.entries == a.grid.entries and b.grid.entries_only == a.grid.entries_only
    assert b.clue_by_slot == a.clue_by_slot and b.clue_lists == a.clue_lists and b.cell_labels == a.cell_labels
    assert (b.title, b.author, b.copyright, b.notes) == (a.title, a.author, a.copyright, a.notes)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_a_variety_puzzle_writes_back_as_ipuz_and_jpz(path, tmp_path):
    puzzle = read_puzzle(path)
    for suffix in (".ipuz", ".jpz"):
        out = tmp_path / f"back{suffix}"
        write_puzzle(puzzle, out)
        _same(puzzle, read_puzzle(out))
        assert [(t, label, cells, _plain(text)) for t, label, cells, text in _file_lists(out)] == [
            (
                x.title,
                c.label,
                c.cells or _cells_of(puzzle, c.entry),
                _plain(puzzle.clue_by_slot.get(c.entry or "", c.text)),
            )
            for x in puzzle.clue_lists
            for c in x.clues
        ]


def _cells_of(puzzle, name: str | None) -> tuple[int, ...] | None:
    return next((s.cells for s in find_slots(puzzle.grid) if s.name == name), None)


def test_an_edited_clue_is_written_where_it_was():
    puzzle = read_puzzle(VARIETY / "spiral.ipuz")
    edited = dataclasses.replace(puzzle, clue_by_slot={**puzzle.clue_by_slot, "OUTWARD.6-4": "Edited"})
    data = json.loads(json.dumps(__import__("xwcp.formats.ipuzfile", fromlist=["to_dict"]).to_dict(edited)))
    assert data["clues"]["Outward"][1] == {"number": "6-4", "cells": [[2, 3], [3, 3], [3, 2]], "clue": "Edited"}


NOT_FILLED = {
    "kotwords-test-diagonal.ipuz": "its answers hold digits, '$' and '@' (the reader's test of symbol cells)",
    "kotwords-test-diagonal.jpz": "its answers hold digits, '$' and '@' (the reader's test of symbol cells)",
    "spiral-chunked.jpz": "its cells are rebus chunks (ABC, DE, ...): cleared, no word list of cell-length words",
}
FILLABLE = [path for path in FILES if path.name not in NOT_FILLED]


@pytest.mark.parametrize("path", FILLABLE, ids=lambda p: p.name)
def test_a_variety_puzzle_fills_checks_and_writes_back(path, tmp_path):
    """Letters cleared, filled from a list of the file's own answers; the fill checked, written and read back."""
    puzzle = read_puzzle(path)
    answers = {"".join(puzzle.grid.cells[c] for c in s.cells) for s in find_slots(puzzle.grid)}
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{a};60\n" for a in sorted(answers)))
    blank = dataclasses.replace(
        puzzle, grid=puzzle.grid.with_letters({c: "." for c, x in enumerate(puzzle.grid.cells) if x != "#"})
    )
    grid_path = tmp_path / f"blank{path.suffix}"
    write_puzzle(blank, grid_path)
    _, problem = load_puzzle_problem(grid_path, words, LoadOptions(allow_dupes=True))
    assert [s.name for s in problem.slots] == [s.name for s in find_slots(puzzle.grid)]
    result = run_fill(problem, time_limit_s=30)
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    from xwcp.engine.result import fill_grid

    filled = puzzle_from_fill(blank, fill_grid(problem, result.entries))
    out = tmp_path / f"filled{path.suffix}"
    write_puzzle(filled, out)
    back = read_puzzle(out)
    _same(filled, back)
    assert all(c != "." for c in back.grid.cells)


def test_an_entry_on_a_block_is_refused_in_one_line(tmp_path, capsys):
    data = json.loads((VARIETY / "two-tone.ipuz").read_text())
    data["puzzle"][1][1] = "#"
    path = tmp_path / "x.ipuz"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="runs through the block at row 2, column 2"):
        read_puzzle(path)
    assert main(["check", str(path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1


@pytest.mark.parametrize("suffix", [".xd", ".puz"])
def test_xd_and_puz_refuse_a_variety_puzzle_in_one_line(suffix, tmp_path, capsys):
    """.xd and .puz hold Across and Down clues on the grid's runs only: writing listed entries would drop them."""
    puzzle = read_puzzle(VARIETY / "kotwords-test-diagonal.ipuz")
    with pytest.raises(InputError, match=f"a variety puzzle \\(entry SOUTHEAST.A: .*\\): \\{suffix} holds Across"):
        write_puzzle(puzzle, tmp_path / f"x{suffix}")
    assert not (tmp_path / f"x{suffix}").exists()
    out = tmp_path / f"y{suffix}"
    assert main(["fill", str(VARIETY / "two-tone.ipuz"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a variety puzzle (entry ALL_SQUARES.1" in err and not out.exists()


MODELS = Path(__file__).resolve().parents[2] / "models" / "variety"


def test_schrodinger_cells_write_to_ipuz_as_candidate_solutions_and_read_back(tmp_path, capsys):
    """.ipuz holds a Schrödinger cell as a solution listing its two letters (Puzzmo's reading of the spec's
    candidate values): the filled Farrell grid written, read back with the same cells, and checked."""
    out = tmp_path / "farrell.ipuz"
    assert main(["fill", str(MODELS / "15x15-schrodinger-farrell.txt"), "--out", str(out)]) == 0
    capsys.readouterr()
    data = json.loads(out.read_text())
    candidates = [value for row in data["solution"] for value in row if isinstance(value, list)]
    assert len(candidates) == 7 and all(len(v) == 2 and v[0] != v[1] for v in candidates)
    back = read_puzzle(out)
    assert len(back.grid.pairs) == 7 and [back.grid.cells[c] for c in sorted(back.grid.pairs)] == [
        a + b for a, b in candidates
    ]
    assert main(["check", str(out)]) == 0
    capsys.readouterr()


PUZZMO_SCHRODINGER_XD = """## Metadata

rebus: 1=O 1=A

## Grid

TILE
APEX
C1NE
ODDS

## Clues

A1. Mosaic piece ~ TILE
A5. Pinnacle ~ APEX
A6. Sugar ____ ~ CONE
A7. Chances, in gambling ~ ODDS

D1. Tuesday treat ~ TACO
D2. Apple tech ~ IPOD
D3. Complement to borrow ~ LEND
D4. Former intimates ~ EXES
"""
"""Puzzmo's xd-crossword-tools README (MIT), "Schrödinger Squares": the Crosshare mini of 2024-09-18 whose
square reads O or A (CONE/CANE, IPOD/IPAD), declared as a rebus key given two letters."""


def test_an_xd_rebus_key_given_two_letters_is_a_schrodinger_cell(tmp_path):
    path = tmp_path / "mini.xd"
    path.write_text(PUZZMO_SCHRODINGER_XD)
    puzzle = read_puzzle(path)
    assert puzzle.grid.pairs == frozenset({9}) and puzzle.grid.cells[9] == "OA" and not puzzle.warnings
    readings = {s.name for s in puzzle.slots() if s.reading}
    assert readings == {"6A/1", "6A/2", "2D/1", "2D/2"}
    assert puzzle.clue_by_slot["6A"] == "Sugar ____" and puzzle.clue_by_slot["2D"] == "Apple tech"
    out = tmp_path / "back.xd"
    write_puzzle(puzzle, out)
    assert "Rebus: 1=O 1=A" in out.read_text() and "A6. Sugar ____ ~ CONE" in out.read_text()
    back = read_puzzle(out)
    assert back.grid == puzzle.grid and back.clue_by_slot == puzzle.clue_by_slot


def test_the_xd_corpus_older_schrodinger_form_reads_as_the_same_cell(tmp_path):
    # the gxd corpus's form (century-arcade/xd doc/rebus-conventions.md, 3a: The New Yorker 2023-07-14's
    # `1=C/P`): a key given one letter or another, answers written inline with both halves
    older = PUZZMO_SCHRODINGER_XD.replace("rebus: 1=O 1=A", "Rebus: 1=O/A")
    older = older.replace("~ CONE", "~ CO/ANE").replace("~ IPOD", "~ IPO/AD")
    path = tmp_path / "older.xd"
    path.write_text(older)
    puzzle = read_puzzle(path)
    puzzmo = tmp_path / "puzzmo.xd"
    puzzmo.write_text(PUZZMO_SCHRODINGER_XD)
    assert puzzle.grid == read_puzzle(puzzmo).grid and puzzle.grid.cells[9] == "OA"
    assert not puzzle.warnings


def test_a_filled_schrodinger_grid_round_trips_through_xd(tmp_path, capsys):
    out = tmp_path / "farrell.xd"
    assert main(["fill", str(MODELS / "15x15-schrodinger-farrell.txt"), "--out", str(out)]) == 0
    capsys.readouterr()
    back = read_puzzle(out)
    assert len(back.grid.pairs) == 7 and all(len(back.grid.cells[c]) == 2 for c in back.grid.pairs)
    assert main(["check", str(out)]) == 0
    capsys.readouterr()
    with pytest.raises(InputError, match="a Schrödinger cell without its two letters .*write .ipuz"):
        write_puzzle(read_puzzle(MODELS / "15x15-schrodinger-farrell.txt"), tmp_path / "open.xd")


@pytest.mark.parametrize("suffix", [".jpz", ".puz"])
def test_formats_with_one_solution_a_cell_refuse_schrodinger_cells(suffix, tmp_path, capsys):
    out = tmp_path / f"x{suffix}"
    assert main(["fill", str(MODELS / "15x15-schrodinger-01.txt"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Schrödinger cells (first at row" in err and f"{suffix} holds one solution" in err
    assert not out.exists()


def test_a_cell_with_three_candidate_solutions_is_refused_in_one_line(tmp_path):
    data = json.loads((VARIETY / "two-tone.ipuz").read_text())
    data["solution"][0][0] = ["A", "B", "C"]
    path = tmp_path / "x.ipuz"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="row 1, column 1 has the candidate solutions .*a Schrödinger cell holds two"):
        read_puzzle(path)


def test_a_schrodinger_entry_has_one_clue_in_ipuz(tmp_path):
    """Both readings of an entry through Schrödinger cells share its clue: written once, read back for both."""
    puzzle = read_puzzle(MODELS / "15x15-schrodinger-farrell.txt")
    clued = dataclasses.replace(puzzle, clue_by_slot={"39A": "Candidates", "1A": "Top"})
    out = tmp_path / "farrell.ipuz"
    write_puzzle(clued, out)
    across = json.loads(out.read_text())["clues"]["Across"]
    assert [number for number, _ in across].count(39) == 1 and [39, "Candidates"] in across
    back = read_puzzle(out)
    readings = [s for s in back.slots() if s.entry_name == "39A"]
    assert [s.name for s in readings] == ["39A/1", "39A/2"] and {back.clue(s) for s in readings} == {"Candidates"}
    assert back.clue_by_slot == {"39A": "Candidates", "1A": "Top"}
