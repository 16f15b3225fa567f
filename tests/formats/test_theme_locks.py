"""Theme entries and locked cells travel in .ipuz (the `org.xwcp:theme` / `org.xwcp:locks` extension fields) and in
xwcp's .json, read back as written; a file's stray or foreign values there are left out, never an error."""

from __future__ import annotations

import json

from tests.web.helpers import FILLED
from xwcp.formats import ipuzfile, jsonfile, read_puzzle, write_puzzle
from xwcp.model import Puzzle, parse_grid


def _puzzle() -> Puzzle:
    grid = parse_grid("\n".join(FILLED))
    return Puzzle(grid, title="Seven Seas", theme=("9A", "17A"), locked_cells=(0, 1, 8, 48))


def test_ipuz_keeps_theme_and_locks_as_extension_fields(tmp_path):
    puzzle = _puzzle()
    path = tmp_path / "p.ipuz"
    write_puzzle(puzzle, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data[ipuzfile.THEME_KEY] == ["9A", "17A"]
    assert data[ipuzfile.LOCKS_KEY] == [[1, 1], [2, 1], [2, 2], [7, 7]]  # [column, row] from 1, as clue cells
    back = read_puzzle(path)
    assert back.theme == ("9A", "17A") and back.locked_cells == (0, 1, 8, 48)
    assert back.grid == puzzle.grid


def test_json_keeps_theme_and_locks(tmp_path):
    path = tmp_path / "p.json"
    write_puzzle(_puzzle(), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["theme"] == ["9A", "17A"] and data["locks"] == [[0, 0], [0, 1], [1, 1], [6, 6]]
    back = read_puzzle(path)
    assert back.theme == ("9A", "17A") and back.locked_cells == (0, 1, 8, 48)


def test_a_puzzle_without_them_writes_no_such_fields():
    plain = Puzzle(parse_grid("\n".join(FILLED)))
    assert ipuzfile.THEME_KEY not in ipuzfile.to_dict(plain) and ipuzfile.LOCKS_KEY not in ipuzfile.to_dict(plain)
    assert "theme" not in jsonfile.to_dict(plain) and "locks" not in jsonfile.to_dict(plain)


def test_stray_values_are_left_out():
    data = ipuzfile.to_dict(_puzzle())
    data[ipuzfile.THEME_KEY] = ["9a", "99A", 7, "9A"]
    data[ipuzfile.LOCKS_KEY] = [[1, 1], [4, 1], [99, 99], "x", [1]]  # (4, 1) is a block
    back = ipuzfile.from_dict(data)
    assert back.theme == ("9A",) and back.locked_cells == (0,)
    data[ipuzfile.THEME_KEY] = "9A"
    data[ipuzfile.LOCKS_KEY] = {"a": 1}
    back = ipuzfile.from_dict(data)
    assert back.theme == () and back.locked_cells == ()
