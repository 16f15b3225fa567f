"""xwcp/base/types.py: directions and the fill status, whose values and exit codes the CLI and JSON show."""

from __future__ import annotations

from xwcp.base.types import Direction, FillStatus


def test_direction_letters_name_slots():
    assert Direction.ACROSS.letter == "A" and Direction.DOWN.letter == "D" and Direction.OTHER.letter == ""
    assert [d.value for d in Direction] == ["across", "down", "other"]


def test_status_values_are_the_json_words():
    assert {s.value for s in FillStatus} == {"filled", "unfillable", "limit", "aborted"}


def test_exit_codes_tell_a_proof_from_a_limit():
    assert FillStatus.FILLED.exit_code == 0
    assert FillStatus.UNFILLABLE.exit_code == 1
    assert FillStatus.LIMIT.exit_code == 3 and FillStatus.ABORTED.exit_code == 3
