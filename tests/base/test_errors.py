"""xwcp/base/errors.py: InputError's one-line text, and an option spelt the way its user gave it."""

from __future__ import annotations

import keyword

import pytest

from xwcp.base.errors import SPELLING_BY_OPTION, InputError, front_end, is_cli, option_name, option_text


def test_input_error_is_one_line_file_line_problem():
    error = InputError("bad row", "g.txt", 3)
    assert str(error) == "g.txt:3: bad row"
    assert (error.message, error.source, error.line) == ("bad row", "g.txt", 3)
    assert str(InputError("no such grid file", "g.txt")) == "g.txt: no such grid file"
    assert str(InputError("count must be at least 1")) == "count must be at least 1"


def test_input_error_is_caught_as_a_value_error():
    with pytest.raises(ValueError, match="^g.txt:1: empty$"):
        raise InputError("empty", "g.txt", 1)


def test_every_option_has_a_flag_and_a_python_keyword():
    for option, (flag, keyword_name) in SPELLING_BY_OPTION.items():
        assert flag.startswith("--") and flag[2:].replace("-", "_").isidentifier(), option
        assert keyword_name.isidentifier() and not keyword.iskeyword(keyword_name), option


def test_the_library_is_the_default_front_end():
    assert not is_cli()
    assert option_text("lock", "WORD", "17A") == "locks={'17A': 'WORD'}"
    assert option_text("min_score", 30) == "min_score=30"
    assert option_text("time_limit") == "time_limit_s=..."
    assert option_name("slot_min") == "min_score_by_slot"


def test_the_command_line_hears_its_flags():
    with front_end("cli"):
        assert is_cli()
        assert option_text("lock", "WORD", "17A") == "--lock 17A=WORD"
        assert option_text("min_score", 30) == "--min-score 30"
        assert option_text("strict", True) == "--strict"
        assert option_text("time_limit") == "--time-limit"
        assert option_text("region", (1, 2, 3, 4)) == "--region 1,2:3,4"
        assert option_name("slot_min") == "--slot-min"


def test_a_region_is_a_tuple_in_python():
    assert option_text("region", (1, 2, 3, 4)) == "region=(1, 2, 3, 4)"


def test_front_end_is_restored_on_leaving_even_by_an_error():
    with pytest.raises(RuntimeError):
        with front_end("cli"):
            with front_end("library"):
                assert not is_cli()
            assert is_cli()
            raise RuntimeError("leave")
    assert not is_cli()


def test_an_unknown_option_is_a_key_error():
    with pytest.raises(KeyError):
        option_text("no_such_option")
