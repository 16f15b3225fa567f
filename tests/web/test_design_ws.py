"""The builder's design WebSocket (/ws/design) through Starlette's TestClient: progress, designs, result, errors, stop."""

from __future__ import annotations

import time
import warnings

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")
pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import xwcp  # noqa: E402
from xwcp.designer.check import check_design  # noqa: E402
from xwcp.designer.rules import Rules  # noqa: E402
from xwcp.model import parse_grid  # noqa: E402
from xwcp.web import app as web_app  # noqa: E402
from xwcp.web.hosts import allowed_hosts  # noqa: E402

HOSTS = allowed_hosts("127.0.0.1", ["testserver"])
"""The hosts the test app answers (as tests/web/test_app.py): the TestClient's WebSockets ask for `testserver`."""


@pytest.fixture(scope="module")
def words():
    return xwcp.load_word_list()


@pytest.fixture()
def client(words):
    with TestClient(web_app.create_app(words=words, max_fills=1, hosts=HOSTS), base_url="http://127.0.0.1") as client:
        yield client


def _design(ws, request: dict) -> tuple[list[dict], list[dict], dict]:
    ws.send_json(request)
    progress, designs = [], []
    while True:
        message = ws.receive_json()
        if message["type"] == "progress":
            progress.append(message)
        elif message["type"] == "design":
            designs.append(message)
        else:
            return progress, designs, message


def _rules(data: dict) -> Rules:
    r = data["rules"]
    width, height = (int(x) for x in r["size"].split("x"))
    return Rules(
        width,
        height,
        max_words=r["max_words"],
        min_words=r["min_words"],
        max_blocks=r["max_blocks"],
        max_fill_length=r["max_length"],
    )


def test_design_streams_progress_and_designs(client, words):
    themes = ["ASTRONOMER", "TELESCOPES"]
    with client.websocket_connect("/ws/design") as ws:
        progress, designs, result = _design(ws, {"themes": themes, "size": "11x11", "count": 2, "quality_time_s": 1})
    assert result["type"] == "result" and result["status"] == "filled", result
    assert len(result["designs"]) == 2 and len(designs) == 2
    assert [d["index"] for d in designs] == [1, 2]
    assert {tuple(d["grid"]) for d in designs} == {tuple(d["grid"]) for d in result["designs"]}
    for d in result["designs"]:
        grid = parse_grid("\n".join(d["grid"]))
        assert check_design(grid, _rules(result), themes, words) == []
    assert progress and all("seconds" in p and "patterns" in p for p in progress)


def test_progress_shows_the_pattern_being_tried(client, monkeypatch):
    # the five AV Club theme entries take many patterns: progress grids come before the first design; progress is
    # sampled often here, so a quiet machine's fast search still streams a pattern before its result
    monkeypatch.setattr(web_app, "PROGRESS_EVERY_S", 0.002)
    themes = ["ESCAPEHAT", "THEWICKEDWIT", "HELLSKITTEN", "PITTINGCOACH", "BITPLEASE"]
    with client.websocket_connect("/ws/design") as ws:
        ws.send_json({"themes": themes, "count": 1, "quality_time_s": 0, "time_limit_s": 60})
        grids = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            message = ws.receive_json()
            if message["type"] == "progress" and message.get("grid"):
                grids.append(message["grid"])
                if len(grids) >= 2:
                    break
            if message["type"] == "result":
                break
        ws.send_json({"type": "stop"})
        while message["type"] != "result":
            message = ws.receive_json()
    assert grids, "no pattern was streamed"
    rows = grids[0]
    assert len(rows) == 15 and all(len(r) == 15 for r in rows)
    assert any("THEWICKEDWIT" in r for r in rows)
    assert message["status"] in ("aborted", "filled")


@pytest.mark.parametrize(
    "request_, needle",
    [
        ({"themes": []}, "no theme entry"),
        ({"themes": "HELLO"}, "list of strings"),
        ({"themes": ["ABCDEFGHIJKLMNOP"]}, "has 16 letters"),
        ({"themes": ["HELLO"], "count": 9}, "count must be between 1 and 5"),
        ({"themes": ["HELLO"], "size": 15}, "size must be"),
        ({"themes": ["HELLO"], "symmetry": "diagonal"}, "symmetry='diagonal': expected one of"),  # the request's key
        ({"type": "fill", "themes": ["HELLO"]}, "design request"),
    ],
)
def test_bad_requests(client, request_, needle):
    with client.websocket_connect("/ws/design") as ws:
        ws.send_json(request_)
        message = ws.receive_json()
    assert message["type"] == "error" and message["status"] == 400
    assert needle in message["error"]


def test_stop_ends_the_search_and_frees_the_slot(client):
    state = client.app.state.xwcp
    with client.websocket_connect("/ws/design") as ws:
        ws.send_json(
            {
                "themes": ["ESCAPEHAT", "THEWICKEDWIT", "HELLSKITTEN", "PITTINGCOACH", "BITPLEASE"],
                "count": 5,
                "time_limit_s": 300,
            }
        )
        ws.receive_json()
        with client.websocket_connect("/ws/design") as second:  # max_fills=1: the second is refused
            second.send_json({"themes": ["HELLO"]})
            refused = second.receive_json()
        assert refused["type"] == "error" and refused["status"] == 429
        started = time.monotonic()
        ws.send_json({"type": "stop"})
        message = ws.receive_json()
        while message["type"] != "result":
            message = ws.receive_json()
        assert time.monotonic() - started < 15
    assert message["status"] in ("aborted", "filled")
    assert state.active_fills == 0
    deadline = time.monotonic() + 10
    while state.fill_threads and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not state.fill_threads
