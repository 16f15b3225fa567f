"""What a design asks for (xwcp/designer/request.py): grid sizes and the default caps."""

from __future__ import annotations

import pytest

pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

from xwcp.base.errors import InputError  # noqa: E402
from xwcp.designer.request import make_request, parse_size  # noqa: E402
from xwcp.designer.rules import default_max_words  # noqa: E402


def test_parse_size():
    assert parse_size("15x15") == (15, 15) and parse_size("21") == (21, 21) and parse_size("13X11") == (13, 11)
    for bad in ("0x5", "61x61", "15x", "axb", "1x2x3"):
        with pytest.raises(InputError):
            parse_size(bad)


def test_default_caps():
    assert default_max_words(15, 15) == 78 and default_max_words(21, 21) == 140
    assert default_max_words(5, 5) == 10  # an open 5x5 has 10 entries
    request = make_request(themes=["SPEAKOFTHEDEVIL"])
    assert (
        request.rules.max_words,
        request.rules.min_words,
        request.rules.max_blocks,
        request.rules.max_fill_length,
        request.rules.max_block_run,
    ) == (78, 74, 38, 8, 3)
    assert request.soft == {"min_words", "max_fill_length"}
    request = make_request(themes=["SPEAKOFTHEDEVIL"], max_words=76, min_words=70, max_length=9)
    assert (request.rules.max_words, request.rules.min_words, request.rules.max_fill_length) == (76, 70, 9)
    assert request.soft == frozenset()
    with pytest.raises(InputError, match="min_words=72 is more than max_words=70"):  # library names; CLI: flags
        make_request(themes=["SPEAKOFTHEDEVIL"], max_words=70, min_words=72)
    with pytest.raises(InputError, match="also banned"):
        make_request(themes=["SPEAKOFTHEDEVIL"], bans=["speakofthedevil"])
