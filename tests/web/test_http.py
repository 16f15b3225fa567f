"""JSON in and out of the builder's routes (xwcp/web/http.py): the error answer's shape, and a body parsed as a JSON
object or refused with 400."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")

from xwcp.web.http import ApiError, error_response, parse_json  # noqa: E402


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
