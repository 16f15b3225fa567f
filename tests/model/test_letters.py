"""xwcp/model/letters.py: the grid spelled letter by letter; a rebus cell's extra letters numbered from
width * height up, in cell order, and shared in order by the across and the down slot through it."""

from __future__ import annotations

from dataclasses import replace

from xwcp.model import find_slots, letters, parse_grid
from xwcp.model.letters import cells_of, letter_contents, spell_out, write_letters


def slot_cells(spelled, name):
    return next(s.cells for s in spelled.slots if s.name == name)


def test_a_grid_without_rebus_cells_is_its_own_letters():
    grid = parse_grid("#A.\n...\n")
    spelled = spell_out(grid)
    assert spelled.slots == find_slots(grid)
    assert spelled.letters == grid.cells and spelled.cell_by_extra == () and spelled.n_cells == 6


def test_a_rebus_cell_adds_letter_cells_shared_by_both_its_slots():
    grid = parse_grid("[AB]..\n...\n")  # 3x2: letter cell 6 is the rebus's B
    spelled = spell_out(grid)
    assert spelled.letters == ("A", ".", ".", ".", ".", ".", "B") and spelled.cell_by_extra == (0,)
    assert slot_cells(spelled, "1A") == (0, 6, 1, 2)  # AB.. : four letters over three cells
    assert slot_cells(spelled, "1D") == (0, 6, 3)
    assert slot_cells(spelled, "4A") == (3, 4, 5)  # a slot without the rebus is unchanged
    assert [s.name for s in spelled.slots] == [s.name for s in find_slots(grid)]


def test_extra_letter_cells_are_numbered_in_cell_order():
    spelled = spell_out(parse_grid("[AB][CDE]\n..\n"))
    assert spelled.letters == ("A", "C", ".", ".", "B", "D", "E")
    assert spelled.cell_by_extra == (0, 1, 1)
    assert slot_cells(spelled, "1A") == (0, 4, 1, 5, 6)
    assert slot_cells(spelled, "2D") == (1, 5, 6, 3)
    assert [spelled.cell_of(lc) for lc in range(7)] == [0, 1, 2, 3, 0, 1, 1]
    assert cells_of(spelled, [0, 4, 1, 5, 6]) == [0, 1]


def test_given_slots_are_spelled_without_finding_them_again(monkeypatch):
    grid = parse_grid("[AB].\n..\n")
    first_slot_only = find_slots(grid)[:1]

    def no_search(grid):
        raise AssertionError("find_slots called although the slots were given")

    monkeypatch.setattr(letters, "find_slots", no_search)
    assert spell_out(grid, first_slot_only).slots == (replace(first_slot_only[0], cells=(0, 4, 1)),)


def test_letter_contents_are_worked_out_once_and_leave_equality_alone():
    grid = parse_grid("[AB].\n..\n")
    first = letter_contents(grid)
    assert letter_contents(grid) is first
    assert first == (("A", ".", ".", ".", "B"), (0,))
    assert grid == parse_grid("[AB].\n..\n")


def test_write_letters_fills_only_empty_grid_cells():
    grid = parse_grid("[AB].\nC.\n")
    spelled = spell_out(grid)
    written = write_letters(grid, spelled, {0: "A", 4: "B", 1: "X", 2: "Q", 3: "Y"})
    assert written.cells == ("AB", "X", "C", "Y")  # the rebus and the given C are kept; extra cell 4 is not a cell
    assert write_letters(grid, spelled, {0: "A", 2: "C"}) is grid  # nothing new to write
