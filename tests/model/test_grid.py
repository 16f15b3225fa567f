"""Grid text parsing, rendering, slot extraction and clue numbering (puzpy's rule)."""
from __future__ import annotations

import pytest

from xwcp.base.errors import InputError
from xwcp.model import MAX_SIDE, Grid, find_slots, parse_grid, read_grid
from xwcp.base.types import Direction


def slot_table(grid: Grid) -> list[tuple[str, int, int, int]]:
    return [(s.name, s.row, s.col, s.length) for s in find_slots(grid)]


# ----- parsing and rendering ---------------------------------------------------------------

def test_parse_maps_every_cell_kind():
    grid = parse_grid("#.?\n_ab\nXYZ\n")
    assert (grid.width, grid.height) == (3, 3)
    assert grid.cells == ("#", ".", ".", ".", "A", "B", "X", "Y", "Z")
    assert grid.rows == ["#..", ".AB", "XYZ"]
    assert grid.n_blocks == 1
    assert grid.cell(1, 2) == "B"


def test_parse_skips_comment_and_blank_lines():
    text = "; a comment\n\n..#\n; another ;\n   \n#..\n\n"
    grid = parse_grid(text)
    assert grid.rows == ["..#", "#.."]


def test_windows_line_endings_and_byte_order_mark():
    # Notepad writes a UTF-8 byte order mark and CRLF line ends; neither is part of the grid.
    assert parse_grid("\ufeff..#\r\n.A.\r\n").rows == ["..#", ".A."]


def test_read_grid_accepts_a_byte_order_mark(tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf...\r\n#..\r\n")
    assert read_grid(path).rows == ["...", "#.."]


def test_render_round_trips():
    text = "#...#\n.A...\n..#..\n...Z.\n#...#\n"
    grid = parse_grid(text)
    assert grid.render() == text
    assert parse_grid(grid.render()) == grid


def test_render_normalises_empty_markers_and_case():
    assert parse_grid("?_.\nabc\n").render() == "...\nABC\n"


def test_with_letters_writes_cells_and_refuses_blocks():
    grid = parse_grid("..#\n...\n")
    assert grid.with_letters({0: "Q", 4: "Z"}).rows == ["Q.#", ".Z."]
    assert grid.rows == ["..#", "..."]  # the original is untouched
    with pytest.raises(ValueError):
        grid.with_letters({2: "A"})


# ----- slots and numbering -----------------------------------------------------------------

FIVE = """
#...#
.....
..#..
.....
#...#
"""


def test_numbering_and_slots_on_5x5_with_blocks():
    # Worked out by hand: a cell gets the next number when it starts an across or a down run
    # of two or more white cells, scanning row by row.
    assert slot_table(parse_grid(FIVE)) == [
        ("1A", 0, 1, 3), ("4A", 1, 0, 5), ("6A", 2, 0, 2), ("7A", 2, 3, 2), ("8A", 3, 0, 5), ("10A", 4, 1, 3),
        ("1D", 0, 1, 5), ("2D", 0, 2, 2), ("3D", 0, 3, 5), ("4D", 1, 0, 3), ("5D", 1, 4, 3), ("9D", 3, 2, 2),
    ]


def test_slot_cells_directions_and_ids():
    grid = parse_grid(FIVE)
    slots = find_slots(grid)
    assert [s.id for s in slots] == list(range(len(slots)))
    by_name = {s.name: s for s in slots}
    assert by_name["4A"].direction is Direction.ACROSS
    assert by_name["4A"].cells == (5, 6, 7, 8, 9)
    assert by_name["3D"].direction is Direction.DOWN
    assert by_name["3D"].cells == (3, 8, 13, 18, 23)
    assert by_name["9D"].cells == (17, 22)


def test_every_white_cell_of_an_american_grid_is_checked():
    grid = parse_grid(FIVE)
    across = {c for s in find_slots(grid) if s.direction is Direction.ACROSS for c in s.cells}
    down = {c for s in find_slots(grid) if s.direction is Direction.DOWN for c in s.cells}
    white = {c for c, ch in enumerate(grid.cells) if ch != "#"}
    assert across == white and down == white


def test_open_3x3_numbering():
    assert slot_table(parse_grid("...\n...\n...")) == [
        ("1A", 0, 0, 3), ("4A", 1, 0, 3), ("5A", 2, 0, 3),
        ("1D", 0, 0, 3), ("2D", 0, 1, 3), ("3D", 0, 2, 3),
    ]


def test_barred_style_grid_has_unchecked_cells():
    grid = parse_grid(".....\n.#.#.\n.....\n")
    slots = find_slots(grid)
    assert slot_table(grid) == [
        ("1A", 0, 0, 5), ("4A", 2, 0, 5),
        ("1D", 0, 0, 3), ("2D", 0, 2, 3), ("3D", 0, 4, 3),
    ]
    slots_by_cell: dict[int, list[str]] = {}
    for slot in slots:
        for cell in slot.cells:
            slots_by_cell.setdefault(cell, []).append(slot.name)
    # (0,1), (0,3), (2,1), (2,3): in an across slot only; their vertical runs have length 1.
    for cell in (1, 3, 11, 13):
        assert slots_by_cell[cell] == [("1A" if cell < 5 else "4A")]
    # (1,0), (1,2), (1,4): down only; each across run is a single cell, which is never a slot.
    for cell, name in ((5, "1D"), (7, "2D"), (9, "3D")):
        assert slots_by_cell[cell] == [name]


def test_single_white_cells_are_never_slots_or_numbered():
    grid = parse_grid(".#.\n###\n...\n")
    assert slot_table(grid) == [("1A", 2, 0, 3)]


def test_prefilled_letters_do_not_change_slots():
    assert slot_table(parse_grid("#CAT#\n.....\n..#..\n.....\n#...#")) == slot_table(parse_grid(FIVE))


# ----- errors ------------------------------------------------------------------------------

def test_ragged_rows_names_row_and_line():
    with pytest.raises(InputError) as info:
        parse_grid("; header\n...\n..\n...\n", "g.txt")
    message = str(info.value)
    assert message.startswith("g.txt:3: ")
    assert "row 2" in message
    assert info.value.line == 3 and info.value.source == "g.txt"


def test_bad_character_names_line_and_character():
    with pytest.raises(InputError) as info:
        parse_grid("...\n.*.\n...\n", "bad.txt")
    message = str(info.value)
    assert message.startswith("bad.txt:2: ")
    assert "'*'" in message and "column 2" in message


@pytest.mark.parametrize("ch", ["1", "é", "-", "ß"])
def test_non_ascii_letters_and_digits_are_rejected(ch):
    with pytest.raises(InputError):
        parse_grid(f"..{ch}\n...\n", "g.txt")


@pytest.mark.parametrize("text", ["", "\n\n", "; only a comment\n;another\n"])
def test_no_rows(text):
    with pytest.raises(InputError) as info:
        parse_grid(text, "empty.txt")
    assert str(info.value).startswith("empty.txt")
    assert "no rows" in str(info.value)


def test_grid_without_a_slot():
    with pytest.raises(InputError) as info:
        parse_grid("#.#\n###\n", "noslot.txt")
    assert str(info.value).startswith("noslot.txt")
    assert "no slot" in str(info.value)


def test_too_wide_grid():
    with pytest.raises(InputError) as info:
        parse_grid("." * (MAX_SIDE + 1) + "\n" + "." * (MAX_SIDE + 1), "wide.txt")
    assert str(info.value).startswith("wide.txt")
    assert f"{MAX_SIDE + 1}x2" in str(info.value)


def test_too_tall_grid():
    with pytest.raises(InputError):
        parse_grid("..\n" * (MAX_SIDE + 1), "tall.txt")


def test_largest_grid_is_accepted():
    grid = parse_grid(("." * MAX_SIDE + "\n") * MAX_SIDE)
    assert (grid.width, grid.height) == (MAX_SIDE, MAX_SIDE) == (60, 60)
    assert len(find_slots(grid)) == 2 * MAX_SIDE


def test_read_grid_reads_a_file(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("; mine\n..#\n.a.\n")
    assert read_grid(path).rows == ["..#", ".A."]
    assert read_grid(str(path)).rows == ["..#", ".A."]


def test_read_grid_errors_name_the_file(tmp_path):
    path = tmp_path / "g.txt"
    path.write_text("...\n....\n")
    with pytest.raises(InputError) as info:
        read_grid(path)
    assert str(info.value).startswith(f"{path}:2: ")


def test_missing_grid_file(tmp_path):
    path = tmp_path / "nope.txt"
    with pytest.raises(InputError) as info:
        read_grid(path)
    assert str(path) in str(info.value)
    assert "no such" in str(info.value)


def test_directory_is_not_a_grid(tmp_path):
    with pytest.raises(InputError) as info:
        read_grid(tmp_path)
    assert str(tmp_path) in str(info.value)
    assert "directory" in str(info.value)


def test_error_str_is_one_line():
    with pytest.raises(InputError) as info:
        parse_grid("...\n..\n", "g.txt")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("rows, message", [
    ("#...", "list of row strings"),
    ([], "list of row strings"),
    (["#..", 3], "list of row strings"),
    (["...", ""], "row 2 is empty"),
    (["...", "; note"], "row 2 is empty"),
    (["...", "..\n."], "row 2 is empty or not a single row"),
    (["...", "...."], "row 2 has 4 cells"),
])
def test_grid_from_rows_refuses_what_is_not_a_grid(rows, message):
    from xwcp.model import grid_from_rows

    with pytest.raises(InputError, match=message):
        grid_from_rows(rows, "grid")


def test_grid_from_rows_matches_parse_grid():
    from xwcp.model import grid_from_rows

    assert grid_from_rows(["#.a", "b?_", "..#"]) == parse_grid("#.a\nb?_\n..#")
