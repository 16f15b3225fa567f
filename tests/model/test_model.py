"""The grid model: cells, bars, marks, rebus cells; slots and numbering from them; the text syntax round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from xwcp.base.errors import InputError
from xwcp.base.types import Direction
from xwcp.model import (
    BELOW,
    BLOCK,
    EMPTY,
    RIGHT,
    Grid,
    Mark,
    cell_edges,
    find_slots,
    make_grid,
    normalize_bars,
    number_by_cell,
    parse_grid,
    render_grid,
)


def names(grid: Grid) -> dict[str, tuple[int, ...]]:
    return {s.name: s.cells for s in find_slots(grid)}


def test_plain_grid_renders_as_before():
    text = "#...#\n.....\nCRANE\n.....\n#...#\n"
    grid = parse_grid(text)
    assert grid.is_plain
    assert grid.render() == text
    assert grid.rows == text.split()


def test_old_reader_rules_still_hold():
    grid = parse_grid("; comment\n  a?_#  \n..x.\n")
    assert grid.cells == ("A", ".", ".", "#", ".", ".", "X", ".")


def test_bar_between_cells_splits_the_across_entry():
    grid = parse_grid("ABC|DE\n.....\n")
    assert (2, RIGHT) in grid.bars
    slots = names(grid)
    assert slots["1A"] == (0, 1, 2)
    assert slots["4A"] == (3, 4)
    # the second row is one entry; every column is a down entry of two cells
    assert slots["6A"] == tuple(range(5, 10))
    assert [s.name for s in find_slots(grid) if s.direction is Direction.DOWN] == ["1D", "2D", "3D", "4D", "5D"]


def test_bar_line_splits_the_down_entry():
    grid = parse_grid("...\n -\n...\n...\n")
    assert grid.bars == frozenset({(1, BELOW)})
    downs = {s.name: s.cells for s in find_slots(grid) if s.direction is Direction.DOWN}
    assert downs["1D"] == (0, 3, 6)
    assert downs["2D"] == (2, 5, 8)
    # column 2 is cut after row 1: a one-cell run (unchecked) above, two cells below
    assert (1,) not in downs.values()
    assert (4, 7) in downs.values()
    assert number_by_cell(grid)[4] == 4


def test_bar_line_may_sit_under_any_character_of_a_token():
    grid = parse_grid("([AB])..\n   -\n...\n")
    assert grid.bars == frozenset({(0, BELOW)})


def test_bar_on_the_outer_edge_means_nothing():
    grid = parse_grid("...|\n...\n---\n")
    assert grid.bars == frozenset()


def test_rebus_cells_and_marks_parse():
    grid = parse_grid("([STAR]){A}.\n({B})..\n...\n")
    assert grid.cells[0] == "STAR" and grid.has_rebus
    assert grid.mark(0) == Mark(circle=True)
    assert grid.mark(1) == Mark(shaded=True)
    assert grid.mark(3) == Mark(circle=True, shaded=True)
    assert not grid.mark(2)
    assert grid.rows[0] == "[STAR]A."
    first = find_slots(grid)[0]
    assert first.length == 3 and first.letter_length(grid) == 6


def test_a_rebus_of_symbols_is_kept_bracketed():
    grid = parse_grid("[&][1]a\n...\n")
    assert grid.cells[:3] == ("&", "1", "A") and grid.has_rebus
    assert grid.rows[0] == "[&][1]A"
    assert parse_grid(grid.render()) == grid


def test_colors_and_numbers_directives():
    grid = parse_grid("; colors: 1,2=#ffcc00\n; numbers: 1,1=7 1,2=8 1,3=9 2,1=10 3,1=11\n...\n...\n...\n")
    assert grid.mark(1) == Mark(color="#FFCC00")
    assert number_by_cell(grid)[0] == 7
    assert [s.name for s in find_slots(grid)][:3] == ["7A", "10A", "11A"]


def test_directive_that_does_not_read_is_a_plain_comment():
    grid = parse_grid("; colors: the theme is red\n; Numbers: none\n...\n...\n")
    assert grid.is_plain


def test_standard_numbering_is_not_kept_as_own():
    grid = make_grid(3, 3, "." * 9, numbers={0: 1, 1: 2, 2: 3, 3: 4, 6: 5})
    assert grid.numbers is None


@pytest.mark.parametrize(
    "text, where",
    [
        ("A|\n|A\n", "must stand between two cells"),
        ("A||B\n...\n", "must stand between two cells"),
        ("[ST\n...\n", "rebus cell"),
        ("[]..\n...\n", "rebus cell"),
        ("(A..\n...\n", "close the mark"),
        ("{A)..\n...\n", "close the mark"),
        ("-\n...\n...\n", "bar line"),
        ("...\n    -\n...\n", "under no cell"),
        ("A*B\n...\n", "unexpected character"),
        ("; colors: 9,9=#000000\n...\n...\n", "outside"),
    ],
)
def test_bad_syntax_is_one_clear_error(text, where):
    with pytest.raises(InputError) as info:
        parse_grid(text, "g.txt")
    assert where in str(info.value)
    assert "g.txt" in str(info.value)


def test_ragged_rows_counted_in_cells_not_characters():
    parse_grid("[AB].\n..\n")
    with pytest.raises(InputError, match="row 2 has 3 cells but row 1 has 2"):
        parse_grid("[AB].\n...\n")


def test_normalize_bars_moves_left_and_top_bars():
    assert normalize_bars(3, 3, [(1, "L"), (4, "T"), (0, "L"), (2, "R"), (8, "B")]) == frozenset(
        {(0, RIGHT), (1, BELOW)}
    )
    with pytest.raises(ValueError):
        normalize_bars(3, 3, [(0, "X")])


def test_cell_edges_for_drawing():
    grid = parse_grid("A|B.\n  -\n...\n")
    assert cell_edges(grid, 1) == cell_edges(grid, 1).__class__(left=True, bottom=True)
    assert cell_edges(grid, 0).right
    assert cell_edges(grid, 4).top


def test_with_letters_keeps_bars_and_marks():
    grid = parse_grid("(.).|.\n...\n")
    filled = grid.with_letters({0: "A", 1: "STAR"})
    assert filled.bars == grid.bars and filled.marks == grid.marks
    assert filled.cells[:2] == ("A", "STAR")
    with pytest.raises(ValueError):
        parse_grid("#..\n...\n").with_letters({0: "A"})


def test_grid_needs_the_right_cell_count():
    with pytest.raises(ValueError):
        Grid(2, 2, (".", ".", "."))


_CELL = st.sampled_from([BLOCK, EMPTY, EMPTY, EMPTY, "A", "Q", "STAR", "EW", "&", "3D"])


@st.composite
def grids(draw):
    width = draw(st.integers(2, 7))
    height = draw(st.integers(2, 7))
    cells = draw(st.lists(_CELL, min_size=width * height, max_size=width * height))
    n = width * height
    bars = draw(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from("RBLT")), max_size=6))
    marks = draw(
        st.dictionaries(
            st.integers(0, n - 1),
            st.builds(Mark, st.booleans(), st.booleans(), st.sampled_from([None, "#FFCC00", "#0A0B0C"])),
            max_size=5,
        )
    )
    grid = make_grid(width, height, cells, bars=bars, marks=marks)
    if draw(st.booleans()) and grid.cells.count(BLOCK) < n:
        numbers = {
            cell: number * 2 for number, cell in enumerate(sorted({s.cells[0] for s in find_slots(grid)}), start=1)
        }
        grid = make_grid(width, height, cells, bars=bars, marks=marks, numbers=numbers)
    return grid


@settings(max_examples=300, deadline=None)
@given(grids())
def test_text_syntax_round_trips(grid):
    if not find_slots(grid):
        with pytest.raises(InputError):
            parse_grid(render_grid(grid))
        return
    assert parse_grid(render_grid(grid)) == grid


@settings(max_examples=200, deadline=None)
@given(grids())
def test_slots_are_maximal_runs_not_crossing_bars(grid):
    width = grid.width
    for slot in find_slots(grid):
        assert len(slot.cells) >= 2
        step, side = (1, RIGHT) if slot.direction is Direction.ACROSS else (width, BELOW)
        for a, b in zip(slot.cells, slot.cells[1:]):
            assert b == a + step and (a, side) not in grid.bars
            assert grid.cells[a] != BLOCK and grid.cells[b] != BLOCK
        before, after = slot.cells[0] - step, slot.cells[-1] + step
        if slot.direction is Direction.ACROSS:
            assert slot.cells[0] % width == 0 or grid.cells[before] == BLOCK or (before, RIGHT) in grid.bars
            assert (
                after % width == 0
                or after >= len(grid.cells)
                or grid.cells[after] == BLOCK
                or (slot.cells[-1], RIGHT) in grid.bars
            )
        else:
            assert before < 0 or grid.cells[before] == BLOCK or (before, BELOW) in grid.bars
            assert after >= len(grid.cells) or grid.cells[after] == BLOCK or (slot.cells[-1], BELOW) in grid.bars
