"""The request's grid, numbers, flags and slot (xwcp/web/fields.py): each read from the JSON body or refused with the HTTP
status and a message naming the field; a grid written back as the page's JSON."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")

from xwcp.model import MAX_SIDE, parse_grid  # noqa: E402
from xwcp.web.fields import (  # noqa: E402
    flag_field,
    grid_field,
    grid_json,
    grid_source,
    number_field,
    optional_slot_field,
    slot_field,
)
from xwcp.web.http import ApiError, parse_json  # noqa: E402


def _refused(call, status=400):
    with pytest.raises(ApiError) as caught:
        call()
    assert caught.value.status == status and str(caught.value) == caught.value.message
    return caught.value.message


def test_flag_is_true_or_false_only():
    assert flag_field({}, "quality") is False and flag_field({"quality": True}, "quality") is True
    for value in ("yes", 1, None):
        assert "quality must be true or false" in _refused(
            lambda value=value: flag_field({"quality": value}, "quality")
        )


def test_grid_is_read_in_the_text_syntax():
    grid = grid_field({"grid": ["#..", "...", "AB."]})
    assert (grid.width, grid.height) == (3, 3) and grid.rows == ["#..", "...", "AB."]
    assert grid == parse_grid("#..\n...\nAB.\n")


def test_grid_missing_or_malformed_is_400():
    assert 'missing "grid"' in _refused(lambda: grid_field({}))
    assert "row 2 has 2 cells" in _refused(lambda: grid_field({"grid": ["...", ".."]}))
    assert "list of row strings" in _refused(lambda: grid_field({"grid": "..."}))


def test_grid_over_the_largest_side_is_413_with_its_size():
    wide = ["." * (MAX_SIDE + 1)] * 2
    assert f"the grid is {MAX_SIDE + 1}x2" in _refused(lambda: grid_field({"grid": wide}), 413)
    tall = ["..."] * (MAX_SIDE + 1)
    assert f"3x{MAX_SIDE + 1}" in _refused(lambda: grid_field({"grid": tall}), 413)
    # a rebus cell counts as one cell: a full-width row with one is accepted
    assert grid_field({"grid": ["[STAR]" + "." * (MAX_SIDE - 1)]}).width == MAX_SIDE


def test_grid_source_is_a_key_only_for_a_list_of_rows():
    assert grid_source({"grid": ["#..", "..."]}) == ("#..", "...")
    assert (
        grid_source({"grid": "#.."}) is None and grid_source({"grid": ["#..", 3]}) is None and grid_source({}) is None
    )


def test_slot_is_required_or_optional():
    assert slot_field({"slot": "12D"}) == "12D"
    for body in ({}, {"slot": "  "}, {"slot": 5}):
        assert 'missing "slot"' in _refused(lambda body=body: slot_field(body))
    assert optional_slot_field({}) is None and optional_slot_field({"slot": "1A"}) == "1A"
    assert 'missing "slot"' in _refused(lambda: optional_slot_field({"slot": ""}))


def test_grid_json_gives_lines_and_cells_row_by_row():
    data = grid_json(parse_grid("#A.\n...\n"))
    assert data == {"grid": ["#A.", "..."], "contents": [["#", "A", "."], [".", ".", "."]]}


def test_number_field_default_range_and_kind():
    assert number_field({}, "k", 10, 1, 100) == 10
    assert number_field({"k": 7}, "k", 10, 1, 100) == 7
    assert number_field({"k": 7.0}, "k", 10, 1, 100) == 7 and isinstance(number_field({"k": 7.0}, "k", 10, 1, 100), int)
    assert number_field({}, "k", None, 1, 100) is None
    assert number_field({"t": 0.5}, "t", 5.0, 0.01, 60, float) == 0.5
    assert "k must be between 1 and 100, got 0" in _refused(lambda: number_field({"k": 0}, "k", 10, 1, 100))
    assert "k must be a whole number, got 2.5" in _refused(lambda: number_field({"k": 2.5}, "k", 10, 1, 100))
    assert "whole number, got True" in _refused(lambda: number_field({"k": True}, "k", 10, 1, 100))  # not 1
    assert "k must be a whole number, got 'ten'" in _refused(lambda: number_field({"k": "ten"}, "k", 10, 1, 100))
    assert "t must be a number, got None" in _refused(lambda: number_field({"t": None}, "t", 5.0, 0.01, 60, float))
    assert "t must be a number, got nan" in _refused(
        lambda: number_field({"t": float("nan")}, "t", 5.0, 0.01, 60, float)
    )


@pytest.mark.parametrize("raw", ['{"k": NaN}', '{"k": Infinity}', '{"k": 1e400}'])
def test_a_whole_number_field_that_is_not_finite_is_400(raw):
    _refused(lambda: number_field(parse_json(raw), "k", 10, 1, 100))


@pytest.mark.timing
def test_grid_text_is_bounded_before_it_is_read():
    """Issue 34: 250 KB of `[` took the size check 44 s (a regex that rescanned the row from every `[`)."""
    import time

    from xwcp.model import MAX_GRID_BYTES
    from xwcp.web.fields import row_width

    for row in ("[" * 250_000, "[" + "A" * 250_000 + "]", "(" * 250_000, "." * 250_000):
        start = time.monotonic()
        assert "the most is" in _refused(lambda row=row: grid_field({"grid": [row, "..."]}), 413)
        assert time.monotonic() - start < 1
    start = time.monotonic()
    assert row_width("[" * 250_000, 10**9) == 0 and row_width("[" * 250_000 + "AB", 10**9) == 2
    assert row_width("(A)[STAR]|B {C} ]", 10**9) == 4 and row_width("." * 1000) == MAX_SIDE + 1  # counts stop early
    assert time.monotonic() - start < 1
    from xwcp.runtime.files import MAX_GRID_CHARS

    largest = ["[ST]" * MAX_SIDE] * MAX_SIDE  # the most letters a grid may spell, two per cell: under the byte cap
    assert 2 * MAX_SIDE * MAX_SIDE == MAX_GRID_CHARS
    assert sum(len(r) + 1 for r in largest) < MAX_GRID_BYTES and grid_field({"grid": largest}).width == MAX_SIDE
    assert "the most is 7,200" in _refused(lambda: grid_field({"grid": ["[STAR]" * MAX_SIDE] * MAX_SIDE}), 400)
