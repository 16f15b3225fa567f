"""Issue 34's hostile inputs against a real server (uvicorn in a subprocess, tests/web/hostile.py): each is answered
with JSON (4xx or 200; a WebSocket with a close code and reason) within 5 s, while GET /api/info answers within 1 s
throughout and the server's memory (its process and children) stays under 1 GB; nothing lands in its log.

The server reads uploads in a bounded worker (xwcp/web/puzzles.py): whether a reader is itself fast and frugal on
these files (issue 34, the file side) or not, the worker's limits keep each to its own request.
"""

from __future__ import annotations

import tempfile

import pytest

pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")
pytest.importorskip("websockets", reason="uvicorn[standard] brings websockets, the client of these tests")

from hypothesis import (  # noqa: E402
    HealthCheck,
    given,
    settings,
    strategies as st,  # noqa: E402
)

from tests.web.helpers import ROOT  # noqa: E402
from tests.web.hostile import HOSTILE_FILES, Attack, attack_all, hostile_json_bodies, table  # noqa: E402

BODY_TIMEOUT_S = 3.0
"""The server's body timeout in this test (xwcp.web.http.BODY_TIMEOUT_S, 15 s when served), so a half-sent body
is answered within the 5 s every input gets."""
ANSWER_S = 5.0
INFO_S = 1.0
MEMORY_MB = 1024.0


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    attack = Attack(str(ROOT), body_timeout_s=BODY_TIMEOUT_S, data_dir=str(tmp_path_factory.mktemp("data")))
    try:
        rows = {row.name: row for row in attack_all(attack)}
    finally:
        log = attack.stop()
    print(table(list(rows.values())))
    return attack, rows, log


@pytest.mark.timing
def test_every_hostile_file_is_answered_with_json_in_time(attacked):
    _, rows, _ = attacked
    for name in [*HOSTILE_FILES, "two zip bombs at once", "personal list, a 1 MB word", "POST 5,000-digit number"]:
        row = rows[name]
        assert row.status is not None and (row.status == 200 or 400 <= row.status < 500), (name, row)
        assert row.json_answer and row.seconds < ANSWER_S, (name, row)
        assert tempfile.gettempdir() + "/" not in row.detail, (name, row.detail)
    # what bounds them: refused, not read (these would take gigabytes or minutes unbounded)
    # (a <word> spanning 1-999999999 is not among them: the reader checks a span's ends before spelling it out
    # and leaves out a word that leaves the grid, so the file opens)
    for name in ("jpz zip bomb", "ipuz nested JSON", "personal list, a 1 MB word"):
        assert rows[name].status in (400, 413, 422), (name, rows[name])
    assert "64" in rows["personal list, a 1 MB word"].detail
    # a language a file names is a pack's code: the server's files are neither read nor probed
    known, missing = rows["txt language: /etc/passwd"], rows["txt language: /etc/no-such-file"]
    assert known.status == missing.status == 400 and "unknown language" in known.detail
    said = [
        known.detail.replace("passwd.txt", "F").replace("/etc/passwd", "P"),
        missing.detail.replace("nowhere.txt", "F").replace("/etc/no-such-file", "P"),
    ]
    shortest = min(map(len, said))  # each detail is cut at 160 characters
    assert said[0][:shortest] == said[1][:shortest], said
    # a word edit never changes another word silently: stored and said, or refused naming the character
    assert rows["word edit CAFE\\u0301"].status == 200
    assert rows["word edit \\ufb01ne"].status == rows["word edit d\\u0131sk"].status == 400
    assert "U+FB01" in rows["word edit \\ufb01ne"].detail and "U+0131" in rows["word edit d\\u0131sk"].detail


@pytest.mark.timing
def test_half_sent_bodies_and_hang_ups_cost_nothing(attacked):
    _, rows, log = attacked
    half = rows["half-sent body"]
    assert half.status == 408 and half.json_answer and half.seconds < ANSWER_S
    assert rows["disconnect mid-body"].status is None  # the client left: nobody to answer
    assert "Traceback" not in log and "Exception" not in log, log[-3000:]


@pytest.mark.timing
def test_websocket_messages_are_refused_with_a_close_frame(attacked):
    _, rows, _ = attacked
    for name, code in (
        ("ws binary message", 1003),
        ("ws nested JSON", 1007),
        ("ws wrong types", 1008),
        ("ws 5,000-digit number", 1007),
    ):
        assert rows[name].status == code and rows[name].detail and rows[name].seconds < ANSWER_S, (name, rows[name])


def test_a_host_with_userinfo_is_refused(attacked):
    _, rows, _ = attacked
    row = rows["Host localhost:1@evil.example"]
    assert row.status == 403 and row.json_answer


@pytest.mark.timing
def test_the_server_stayed_responsive_and_small_throughout(attacked):
    attack, rows, _ = attacked
    assert not attack.info_failures, attack.info_failures
    assert attack.info_worst_s < INFO_S, table(list(rows.values()))
    assert 0 < attack.peak_rss_mb < MEMORY_MB, table(list(rows.values()))


# ----- hostile JSON bodies against the app in this process (no server needed) ----------------------------------

BODY_ROUTES = ["/api/suggest", "/api/domains", "/api/heatmap", "/api/check", "/api/stats", "/api/words", "/api/export"]
SOCKETS = ["/ws/fill", "/ws/design"]


@pytest.fixture(scope="module")
def app_client(words):
    import warnings

    from tests.web.helpers import HOSTS
    from xwcp.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    with TestClient(create_app(words=words, max_fills=1, hosts=HOSTS), base_url="http://127.0.0.1") as client:
        yield client


@settings(max_examples=60, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(body=hostile_json_bodies(), route=st.sampled_from(BODY_ROUTES))
def test_a_hostile_json_body_is_a_400_not_a_500(app_client, body, route):
    """A 5,000-digit number (Python's int() refuses past 4,300), 1e400, NaN, nesting 3,000 deep, a byte that is no
    UTF-8: each is the API's JSON 400 naming the problem, on every route that reads a JSON body."""
    response = app_client.post(route, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == 400, (route, body[:200], response.text[:300])
    assert response.json()["status"] == 400 and "\n" not in response.json()["error"]


@pytest.mark.timeout(60, method="thread")  # a socket dropped unclosed leaves the client waiting
@settings(max_examples=25, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
@given(body=hostile_json_bodies(), path=st.sampled_from(SOCKETS))
def test_a_hostile_first_message_gets_an_error_and_a_close_frame(app_client, body, path):
    """The same bodies as a socket's first message: an error message, then a close frame with 1007 (no JSON the
    server takes) and a reason, never a socket dropped without one."""
    from starlette.websockets import WebSocketDisconnect

    with app_client.websocket_connect(path) as ws:
        ws.send_text(body.decode("utf-8", "replace"))  # a text frame is UTF-8: a bad byte comes as U+FFFD
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400, (path, body[:200], reply)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 1007 and closed.value.reason, (path, body[:200], closed.value)


@pytest.mark.timeout(60, method="thread")  # a socket dropped unclosed leaves the client waiting
def test_a_huge_number_while_a_fill_runs_is_an_error_and_the_fill_goes_on(app_client):
    from tests.web.helpers import OPEN_7

    with app_client.websocket_connect("/ws/fill") as ws:
        ws.send_json({"grid": OPEN_7, "time_limit_s": 8})
        assert ws.receive_json()["type"] == "progress"
        ws.send_text('{"type": "stop", "n": ' + "9" * 5000 + "}")
        while (reply := ws.receive_json())["type"] == "progress":
            pass
        assert reply["type"] == "error" and "5,000 digits" in reply["error"]
        ws.send_json({"type": "stop"})
        while (reply := ws.receive_json())["type"] == "progress":
            pass
    assert reply["type"] == "result" and reply["status"] == "aborted"


@pytest.mark.timeout(60, method="thread")  # a socket dropped unclosed leaves the client waiting
def test_a_huge_number_on_the_suggestion_socket_is_an_error_and_the_socket_stays(app_client):
    from tests.web.helpers import MINI

    with app_client.websocket_connect("/ws/suggest") as ws:
        ws.send_text('{"grid": ["..."], "slot": "1A", "k": ' + "9" * 5000 + "}")
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400 and "digits" in reply["error"]
        ws.send_json({"grid": MINI, "slot": "4A", "k": 3, "id": 7})
        assert ws.receive_json()["id"] == 7
