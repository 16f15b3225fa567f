"""xwcp/model/puzzle.py: a grid with its metadata and clues, the clue order, and a fill that keeps them."""

from __future__ import annotations

from xwcp.model import Puzzle, clue_order, find_slots, parse_grid, puzzle_from_fill


def test_puzzle_keeps_diagramless_flag():
    puzzle = Puzzle(parse_grid("...\n...\n"), is_diagramless=True)
    assert puzzle.is_diagramless


def test_clues_by_slot_name_and_empty_when_missing():
    puzzle = Puzzle(parse_grid("...\n...\n"), clue_by_slot={"1A": "Feline", "2D": "Alike"})
    by_name = {slot.name: slot for slot in puzzle.slots()}
    assert puzzle.slots() == find_slots(puzzle.grid)
    assert puzzle.clue(by_name["1A"]) == "Feline" and puzzle.clue(by_name["2D"]) == "Alike"
    assert puzzle.clue(by_name["4A"]) == ""


def test_clue_order_is_by_number_across_first():
    slots = find_slots(parse_grid("...\n...\n"))  # reading order: 1A 4A, then 1D 2D 3D
    assert [s.name for s in slots] == ["1A", "4A", "1D", "2D", "3D"]
    assert [s.name for s in clue_order(reversed(slots))] == ["1A", "1D", "2D", "3D", "4A"]


def test_a_fill_keeps_the_metadata_clues_and_kind_but_not_the_warnings():
    grid = parse_grid("..\n..\n")
    puzzle = Puzzle(
        grid,
        "Title",
        "Author",
        "(c)",
        "Notes",
        {"1A": "Clue"},
        is_diagramless=True,
        warnings=("a checksum does not match",),
    )
    filled = parse_grid("AB\nCD\n")
    back = puzzle_from_fill(puzzle, filled)
    assert back.grid == filled
    assert (back.title, back.author, back.copyright, back.notes) == ("Title", "Author", "(c)", "Notes")
    assert back.clue_by_slot == {"1A": "Clue"} and back.clue_by_slot is not puzzle.clue_by_slot
    assert back.is_diagramless and back.warnings == ()


def test_warnings_take_no_part_in_equality():
    grid = parse_grid("..\n..\n")
    assert Puzzle(grid, warnings=("said once",)) == Puzzle(grid)
