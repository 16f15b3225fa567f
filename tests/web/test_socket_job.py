"""The WebSockets' shared handling (xwcp/web/socket_job.py): a first message that is binary, no JSON, nested too
deeply or no object closes the socket with a code (1003, 1007, 1008) and a reason, after the error message; a
binary message during a job is an error message and the job goes on."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

from starlette.websockets import WebSocketDisconnect  # noqa: E402

from tests.web.helpers import OPEN_7, _ok  # noqa: E402
from xwcp.web.socket_job import close_reason  # noqa: E402

MAX_FILLS = 2
"""Fills the app under test may run at once (the `client` fixture of conftest.py reads it)."""


@pytest.mark.parametrize("path", ["/ws/fill", "/ws/design"])
@pytest.mark.parametrize(
    "message, code, words_in_reason",
    [
        (b"\x00\x01binary", 1003, "binary messages"),
        ("not json", 1007, "malformed JSON"),
        ("[" * 100_000 + "]" * 100_000, 1007, "nested too deeply"),
        ("[1, 2]", 1008, "JSON object"),
        ('{"grid": 5, "themes": 5, "time_limit_s": "x"}', 1008, "grid|theme"),  # the fill's field, the design's
    ],
)
def test_a_bad_first_message_closes_with_a_code_and_a_reason(client, path, message, code, words_in_reason):
    with client.websocket_connect(path) as ws:
        if isinstance(message, bytes):
            ws.send_bytes(message)
        else:
            ws.send_text(message)
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400 and re.search(words_in_reason, reply["error"])
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == code and re.search(words_in_reason, closed.value.reason)
    _ok(client)


def test_a_binary_message_during_a_fill_is_an_error_and_the_fill_goes_on(client):
    with client.websocket_connect("/ws/fill") as ws:
        ws.send_json({"grid": OPEN_7, "time_limit_s": 30})
        assert ws.receive_json()["type"] == "progress"
        ws.send_bytes(b"\xff" * 100)
        while (reply := ws.receive_json())["type"] == "progress":
            pass
        assert reply["type"] == "error" and "binary" in reply["error"]
        ws.send_json({"type": "stop"})
        while (reply := ws.receive_json())["type"] == "progress":
            pass
    assert reply["type"] == "result" and reply["status"] == "aborted"


def test_a_close_reason_fits_its_frame():
    assert close_reason("short") == "short"
    long = close_reason("é" * 200)
    assert len(long.encode("utf-8")) <= 123 and long.endswith("...")
