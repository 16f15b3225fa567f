"""The grid (xwcp/model/grid.py): rendering it, writing letters into it, slot extraction and clue numbering
(puzpy's rule); parsing and its errors: tests/model/test_text.py."""

from __future__ import annotations

import pytest

from xwcp.base.types import Direction
from xwcp.model import Grid, find_slots, parse_grid


def slot_table(grid: Grid) -> list[tuple[str, int, int, int]]:
    return [(s.name, s.row, s.col, s.length) for s in find_slots(grid)]


# ----- rendering and letters ---------------------------------------------------------------


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
        ("1A", 0, 1, 3),
        ("4A", 1, 0, 5),
        ("6A", 2, 0, 2),
        ("7A", 2, 3, 2),
        ("8A", 3, 0, 5),
        ("10A", 4, 1, 3),
        ("1D", 0, 1, 5),
        ("2D", 0, 2, 2),
        ("3D", 0, 3, 5),
        ("4D", 1, 0, 3),
        ("5D", 1, 4, 3),
        ("9D", 3, 2, 2),
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
        ("1A", 0, 0, 3),
        ("4A", 1, 0, 3),
        ("5A", 2, 0, 3),
        ("1D", 0, 0, 3),
        ("2D", 0, 1, 3),
        ("3D", 0, 2, 3),
    ]


def test_barred_style_grid_has_unchecked_cells():
    grid = parse_grid(".....\n.#.#.\n.....\n")
    slots = find_slots(grid)
    assert slot_table(grid) == [
        ("1A", 0, 0, 5),
        ("4A", 2, 0, 5),
        ("1D", 0, 0, 3),
        ("2D", 0, 2, 3),
        ("3D", 0, 4, 3),
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


@pytest.mark.parametrize(
    "text, upper, changed",
    [
        ("abc", "ABC", []),
        ("é", "É", []),
        ("N\u0303", "Ñ", []),
        ("ß", "ß", ["ß -> SS"]),
        ("ﬁ", "ﬁ", ["ﬁ -> FI"]),
        ("ı", "ı", ["ı -> I"]),
        ("Straße", "STRAßE", ["ß -> SS"]),
        ("ς", "ς", ["ς -> Σ"]),
    ],
)
def test_cell_upper_never_changes_a_letter_into_others(text, upper, changed):
    from xwcp.model.grid import cell_upper, changed_letters

    assert cell_upper(text) == upper
    assert changed_letters(text) == changed
