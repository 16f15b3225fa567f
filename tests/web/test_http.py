"""JSON in and out of the builder's routes (xwcp/web/http.py): the error answer's shape, a body parsed as a JSON
object or refused with 400, and number fields checked for type and range with 400 naming the field."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")

from xwcp.web.http import ApiError, error_response, number_field, parse_json  # noqa: E402


def _refused(call, status=400):
    with pytest.raises(ApiError) as caught:
        call()
    assert caught.value.status == status and str(caught.value) == caught.value.message
    return caught.value.message


def test_error_response_is_the_message_and_status():
    response = error_response(413, "too big")
    assert response.status_code == 413 and json.loads(response.body) == {"error": "too big", "status": 413}


def test_parse_json_takes_an_object_only():
    assert parse_json(b'{"grid": ["#.."]}') == {"grid": ["#.."]} and parse_json("{}") == {}
    assert _refused(lambda: parse_json(b"{not json")).startswith("malformed JSON: ")
    assert _refused(lambda: parse_json(b"\xff\xfe")).startswith("malformed JSON: ")
    assert "JSON object" in _refused(lambda: parse_json(b"[1, 2]"))


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
    assert "t must be a number, got nan" in _refused(lambda: number_field(parse_json('{"t": NaN}'), "t", 5.0, 0.01, 60, float))


@pytest.mark.parametrize("raw", ['{"k": NaN}', '{"k": Infinity}', '{"k": 1e400}'])
def test_a_whole_number_field_that_is_not_finite_is_400(raw):
    _refused(lambda: number_field(parse_json(raw), "k", 10, 1, 100))
