"""xwcp/formats/jsonfile.py: our fill JSON: the grid's lines, the metadata and one entry per slot (the
`xwcp fill --format json` entry plus its clue); a written file reads back unchanged."""

from __future__ import annotations

import json

import pytest

from xwcp.base.errors import InputError
from xwcp.formats import jsonfile
from xwcp.model import Mark, Puzzle, parse_grid

ENTRY_KEYS = ["id", "number", "direction", "row", "col", "length", "word", "clue"]


def test_the_document_holds_metadata_grid_lines_and_entries_across_first():
    grid = parse_grid("CAT\n.R#\n")
    puzzle = Puzzle(grid, title="T", author="A", copyright="C", notes="N", clue_by_slot={"1A": "Pet", "2D": "Ore"})
    data = jsonfile.to_dict(puzzle)
    assert {k: data[k] for k in ("title", "author", "copyright", "notes", "diagramless", "width", "height")} == {
        "title": "T",
        "author": "A",
        "copyright": "C",
        "notes": "N",
        "diagramless": False,
        "width": 3,
        "height": 2,
    }
    assert data["grid"] == ["CAT", ".R#"]
    assert [list(e) for e in data["entries"]] == [ENTRY_KEYS] * 4
    # standard numbering: 1 at r0c0 (1A, 1D), 2 at r0c1 (2D), 3 at r1c0 (3A); T over # starts no entry
    rows = [
        (e["id"], e["number"], e["direction"], e["row"], e["col"], e["length"], e["word"], e["clue"])
        for e in data["entries"]
    ]
    assert rows == [
        ("1A", 1, "across", 0, 0, 3, "CAT", "Pet"),
        ("3A", 3, "across", 1, 0, 2, None, ""),
        ("1D", 1, "down", 0, 0, 2, None, ""),
        ("2D", 2, "down", 0, 1, 2, "AR", "Ore"),
    ]


def test_a_rebus_entry_gives_all_its_letters():
    entries = jsonfile.to_dict(Puzzle(parse_grid("[STAR]E\n"), clue_by_slot={}))["entries"]
    assert entries[0]["id"] == "1A" and entries[0]["word"] == "STARE"


def test_written_file_reads_back_unchanged(tmp_path):
    grid = parse_grid("[AB].|.\n.#.\n(.){.}.\n")
    puzzle = Puzzle(grid, "Title", "Author", "(c) me", "a note", {"1A": "First"}, is_diagramless=True)
    assert grid.marks and grid.bars and grid.has_rebus
    path = tmp_path / "p.json"
    jsonfile.write(puzzle, path)
    assert json.loads(path.read_text(encoding="utf-8"))["diagramless"] is True
    assert jsonfile.read(path) == puzzle


def test_reading_keeps_only_clues_of_real_slots_and_string_metadata(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(
        json.dumps(
            {
                "title": "Kept",
                "author": 7,
                "diagramless": "yes",
                "grid": ["..", ".."],
                "entries": [
                    {"id": "1A", "clue": "Yes"},
                    {"id": "9A", "clue": "No such slot"},
                    {"id": "1D", "clue": ""},
                    {"id": "2D", "clue": 3},
                    "not an entry",
                ],
            }
        )
    )
    puzzle = jsonfile.read(path)
    assert puzzle.grid == parse_grid("..\n..\n")
    assert puzzle.clue_by_slot == {"1A": "Yes"}
    assert (puzzle.title, puzzle.author, puzzle.is_diagramless) == ("Kept", "", False)


@pytest.mark.parametrize(
    "text, said",
    [
        ('{"grid": [', "not JSON (line 1, column 11: Expecting value)"),
        ('{"entries": []}', 'no "grid" (a list of row strings) in this JSON'),
        ('{"grid": "..\\n.."}', 'no "grid" (a list of row strings) in this JSON'),
        ('{"grid": ["..", 3]}', 'no "grid" (a list of row strings) in this JSON'),
        ('[".."]', 'no "grid" (a list of row strings) in this JSON'),
    ],
)
def test_what_is_not_our_json_is_one_line_naming_the_file(tmp_path, text, said):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(InputError) as info:
        jsonfile.read(path)
    assert str(info.value) == f"{path}: {said}"


def test_a_bad_grid_inside_is_named_too(tmp_path):
    path = tmp_path / "ragged.json"
    path.write_text(json.dumps({"grid": ["...", ".."]}))
    with pytest.raises(InputError) as info:
        jsonfile.read(path)
    assert info.value.source == str(path)


def test_marks_survive_as_the_grid_lines_say():
    grid = parse_grid("(A){B}\n..\n")
    assert grid.mark_by_cell[0] == Mark(circle=True) and jsonfile.to_dict(Puzzle(grid))["grid"][0] == "(A){B}"


@pytest.mark.parametrize("entries", [[{"id": [1], "clue": "x"}], [{"id": {"a": 1}}], [5, "x", None]])
def test_entries_of_the_wrong_type_are_left_out(tmp_path, entries):
    path = tmp_path / "e.json"
    path.write_text(json.dumps({"grid": ["CAT", "A.A", "TAT"], "entries": entries}), encoding="utf-8")
    assert jsonfile.read(path).clue_by_slot == {}


def test_entries_that_are_not_a_list_are_refused(tmp_path):
    path = tmp_path / "e.json"
    path.write_text(json.dumps({"grid": ["CAT", "A.A", "TAT"], "entries": 5}), encoding="utf-8")
    with pytest.raises(InputError, match='"entries" must be a list'):
        jsonfile.read(path)
