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


def test_an_error_is_one_line_cut_to_its_most():
    """A reader that quotes its input (a 64 KB row) answers one short line, not the input again."""
    from xwcp.web.http import MAX_ERROR_CHARS

    error = json.loads(error_response(400, "row 1: got '" + "[" * 65_000 + "'\nand more").body)["error"]
    assert len(error) == MAX_ERROR_CHARS and error.endswith("…") and "\n" not in error


def test_parse_json_takes_an_object_only():
    assert parse_json(b'{"grid": ["#.."]}') == {"grid": ["#.."]} and parse_json("{}") == {}
    assert _refused(lambda: parse_json(b"{not json")).startswith("malformed JSON: ")
    assert _refused(lambda: parse_json(b"\xff\xfe")).startswith("malformed JSON: ")
    assert "JSON object" in _refused(lambda: parse_json(b"[1, 2]"))


def test_deeply_nested_json_is_refused_not_a_crash():
    assert "nested too deeply" in _refused(lambda: parse_json("[" * 100_000 + "]" * 100_000))
    assert "nested too deeply" in _refused(lambda: parse_json('{"k": ' + "[" * 900 + "]" * 900 + "}"))


@pytest.mark.parametrize(
    "number, words",
    [
        ("9" * 5000, "5,000 digits"),  # int() raises ValueError past 4,300 digits: it was a 500
        ("-" + "9" * 4301, "4,301 digits"),
        ("1" * 31, "31 digits"),
        ("1e" + "9" * 5000, "digits"),
        ("1." + "1" * 5000, "digits"),
        ("1e400", "too large"),
        ("-1e999", "too large"),
        ("NaN", "NaN"),
        ("-Infinity", "Infinity"),
    ],
)
def test_a_number_json_or_python_cannot_take_is_a_400(number, words):
    message = _refused(lambda: parse_json('{"grid": ["..."], "k": [' + number + "]}"))
    assert message.startswith("malformed JSON: ") and words in message and len(message) < 120


def test_numbers_a_page_sends_are_read():
    assert parse_json('{"a": 0.30000000000000004, "b": 1e-7, "c": -2147483648, "d": 1.5e+300}') == {
        "a": 0.30000000000000004,
        "b": 1e-7,
        "c": -2147483648,
        "d": 1.5e300,
    }


# ----- the app's guard and the body reader, driven at the ASGI level ---------------------------------------------


def _asgi(app, receive_messages, path="/x", method="POST"):
    """Run one request through `app`; `receive_messages` feeds receive() (then it waits forever); the sent messages."""
    import anyio

    sent = []
    feed = list(receive_messages)

    async def receive():
        if feed:
            return feed.pop(0)
        await anyio.sleep_forever()

    async def send(message):
        sent.append(message)

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "headers": [],
        "query_string": b"",
        "root_path": "",
        "scheme": "http",
        "server": ("127.0.0.1", 80),
        "client": ("127.0.0.1", 5000),
        "http_version": "1.1",
        "asgi": {"version": "3.0"},
    }
    anyio.run(app, scope, receive, send)
    return sent


def _guarded(endpoint):
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Route

    from xwcp.web.http import JsonErrors

    return Starlette(routes=[Route("/x", endpoint, methods=["GET", "POST"])], middleware=[Middleware(JsonErrors)])


def _answer(sent):
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body)


def test_an_unexpected_exception_is_a_json_500_logged_once(caplog):
    async def broken(request):
        return 1 / 0

    with caplog.at_level("ERROR"):
        status, data = _answer(_asgi(_guarded(broken), [{"type": "http.request", "body": b""}], method="GET"))
    assert status == 500 and data["status"] == 500 and "ZeroDivisionError" in data["error"]
    assert "Traceback" not in data["error"] and "\n" not in data["error"]
    logged = [r for r in caplog.records if r.name == "xwcp.web"]
    assert len(logged) == 1 and logged[0].exc_info and "/x" in logged[0].getMessage()


def test_the_real_app_answers_a_failing_route_with_json(client, monkeypatch):
    def broken(state):
        raise KeyError("words")

    monkeypatch.setattr("xwcp.web.app._info_json", broken)
    response = client.get("/api/info")
    assert response.status_code == 500 and response.json()["status"] == 500 and "KeyError" in response.json()["error"]


def test_a_client_that_hangs_up_mid_body_ends_quietly(caplog):
    from xwcp.web.http import read_body

    async def reader(request):
        await read_body(request, 1000)
        raise AssertionError("the body never came whole")

    with caplog.at_level("DEBUG"):
        sent = _asgi(
            _guarded(reader),
            [{"type": "http.request", "body": b"0123", "more_body": True}, {"type": "http.disconnect"}],
        )
    assert sent == []  # nobody to answer
    assert not [r for r in caplog.records if r.levelno >= 30], [r.getMessage() for r in caplog.records]


def test_a_body_that_stops_arriving_is_408(monkeypatch):
    from starlette.responses import JSONResponse

    from xwcp.web import http
    from xwcp.web.http import ApiError, error_response, read_body

    async def reader(request):
        try:
            return JSONResponse({"size": len(await read_body(request, 1000))})
        except ApiError as exc:
            return error_response(exc.status, exc.message)

    monkeypatch.setattr(http, "BODY_TIMEOUT_S", 0.3)
    status, data = _answer(_asgi(_guarded(reader), [{"type": "http.request", "body": b"0123", "more_body": True}]))
    assert status == 408 and "0.3 s" in data["error"] and "4 bytes" in data["error"]
    status, data = _answer(
        _asgi(
            _guarded(reader),
            [{"type": "http.request", "body": b"0123", "more_body": True}, {"type": "http.request", "body": b"45"}],
        )
    )
    assert status == 200 and data == {"size": 6}
