"""Listed entries and Schrödinger cells in the model: slots, readings, letter cells and the text syntax."""

from __future__ import annotations

import pytest

from xwcp.base.errors import InputError
from xwcp.base.types import Direction
from xwcp.model import Entry, find_slots, grid_from_rows, grid_lines, make_grid, parse_grid
from xwcp.model.letters import spell_out

DIAGONAL = """\
; entry: Diag = 1,1 2,2 3,3
...
...
...
"""


def test_a_listed_entry_is_added_to_the_across_and_down_slots():
    grid = parse_grid(DIAGONAL)
    slots = find_slots(grid)
    assert [s.name for s in slots] == ["1A", "4A", "5A", "1D", "2D", "3D", "DIAG"]
    assert slots[-1].cells == (0, 4, 8)
    assert slots[-1].direction is Direction.OTHER
    assert parse_grid(grid.render()) == grid


def test_listed_entries_can_replace_the_derived_ones():
    text = "; entries: listed\n; entry: Ring = 1,1 1,2 1,3\n; entry: Wrap = 1,3 2,1 2,2\n...\n..#\n"
    grid = parse_grid(text)
    assert [(s.name, s.cells) for s in find_slots(grid)] == [("RING", (0, 1, 2)), ("WRAP", (2, 3, 4))]
    assert find_slots(grid)[0].direction is Direction.ACROSS
    assert parse_grid(grid.render()) == grid
    assert grid_from_rows(grid_lines(grid)) == grid


def test_a_schrodinger_cell_gives_each_entry_through_it_two_readings():
    grid = parse_grid("...\n.<..>.\n...\n")
    names = [s.name for s in find_slots(grid)]
    assert names == ["1A", "4A/1", "4A/2", "5A", "1D", "2D/1", "2D/2", "3D"]
    spelled = spell_out(grid)
    by_name = {s.name: s.cells for s in spelled.slots}
    assert by_name["4A/1"] == (3, 4, 5) and by_name["4A/2"] == (3, 9, 5)
    assert by_name["2D/1"] == (1, 4, 7) and by_name["2D/2"] == (1, 9, 7)
    filled = grid.with_letters({4: "AB"})
    assert filled.render().splitlines()[1] == ".<AB>."
    assert parse_grid(filled.render()) == filled
    assert spell_out(filled).letters[4] == "A" and spell_out(filled).letters[9] == "B"
    assert not filled.has_rebus


def test_an_entry_through_two_schrodinger_cells_pairs_their_letters():
    grid = parse_grid("<..><..>.\n...\n")
    spelled = {s.name: s.cells for s in spell_out(grid).slots}
    assert spelled["1A/1"] == (0, 1, 2) and spelled["1A/2"] == (6, 7, 2)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("; entry: X = 1,1\n...\n...\n", "1: entry X has 1 cell(s)"),
        ("; entry: X 1,1\n...\n", "1: an entry line needs a name"),
        ("...\n; entry: 1A = 1,1 2,2\n...\n", "2: two entries are named 1A"),
        ("; entries: listed\n...\n", "'; entries: listed' but the grid lists no entry"),
        ("; entry: X = 1,1 9,9\n...\n...\n", "1: cell 9,9 is outside the 3x2 grid"),
        ("; entry: X = 1,1 1,2 1,1\n...\n...\n", "1: entry X goes through a cell twice"),
        ("; entry: X = 1,1 a\n...\n...\n", "1: entry X: 'a' is not a cell"),
        ("; entry: X = 1,1 1,2\n#..\n...\n", "1: entry X: the cell at row 1, column 1 is a block"),
        ("..<A>\n...\n", "1: row 1, column 3: a Schrödinger cell holds two letters"),
        ("; entries: some\n...\n", "'; entries: some': write '; entries: listed'"),
    ],
)
def test_bad_entry_lines_and_cells_are_one_line_errors(text, problem):
    with pytest.raises(InputError) as caught:
        parse_grid(text, "g.txt")
    assert problem in str(caught.value)
    assert "\n" not in str(caught.value)


def test_make_grid_takes_entries_and_pairs():
    grid = make_grid(3, 3, "." * 9, entries=[Entry("D1", (0, 4, 8))], pairs=[4])
    assert [s.name for s in find_slots(grid)][-2:] == ["D1/1", "D1/2"]
    with pytest.raises(ValueError, match="block"):
        make_grid(2, 2, "#...", entries=[Entry("X", (0, 3))])
    with pytest.raises(ValueError, match="two letters"):
        make_grid(2, 2, "A...", pairs=[0])
