"""The builder's fill WebSocket (`/ws/fill`, xwcp/web/fill_ws.py) through Starlette's TestClient: progress, the fill,
regions, quality, the verdict before the core, stop and disconnect, the cap on fills at once, wrong requests."""

from __future__ import annotations

import multiprocessing
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

import warnings  # noqa: E402

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import xwcp  # noqa: E402
from tests.helpers import entries_of  # noqa: E402
from tests.web.helpers import HOSTS, LOCAL, MINI, OPEN_7, UNFILLABLE, _fill, _ok, _problem  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402
from xwcp.web import app as web_app  # noqa: E402

MAX_FILLS = 2
"""Fills the app under test may run at once (the `client` fixture of conftest.py reads it)."""


def test_fill_streams_and_returns_a_valid_fill(client, words):
    with client.websocket_connect("/ws/fill") as ws:
        _, result = _fill(ws, {"grid": MINI, "quality": False, "time_limit_s": 20})
    assert result["type"] == "result" and result["status"] == "filled"
    problem = _problem(MINI, words)
    assert check_fill(problem, entries_of(problem, result["grid"])) == []


def test_fill_region_keeps_cells_outside(client, words):
    with client.websocket_connect("/ws/fill") as ws:
        _, result = _fill(ws, {"grid": MINI, "time_limit_s": 20, "region": [4, 0, 6, 6]})
    assert result["status"] == "filled"
    assert result["grid"][:4] == MINI[:4]  # rows above the region untouched
    assert "." not in "".join(result["grid"][4:])


# Left: a 4x4 block whose top two rows are the region; its down slots cross the border and row 3's
# S and E constrain them. Right (beyond a wall of blocks): QZX. has no completion in the list, so
# the whole grid is unfillable, but none of its slots touches the region.
SPLIT = ["....#QZX.", "....#....", "....#....", "S..E#...."]


SPLIT_REGION = [0, 0, 1, 3]  # rows 0-1, columns 0-3, from 0 inclusive (as the page sends it)


def test_fill_region_fills_only_the_region_where_a_full_fill_fails(client, words):
    with client.websocket_connect("/ws/fill") as ws:
        _, whole = _fill(ws, {"grid": SPLIT, "time_limit_s": 20})
    assert whole["status"] == "unfillable"  # the part outside the region dooms a full fill
    with client.websocket_connect("/ws/fill") as ws:
        progress, result = _fill(ws, {"grid": SPLIT, "time_limit_s": 20, "region": SPLIT_REGION})
    assert result["status"] == "filled", result
    rows = result["grid"]
    for r, (given, got) in enumerate(zip(SPLIT, rows)):
        for c, (a, b) in enumerate(zip(given, got)):
            if r <= 1 and c <= 3:
                assert "A" <= b <= "Z", (r, c, b)
            else:
                assert a == b, (r, c, a, b)  # outside: letters kept, empty cells still empty
    for message in progress:  # the streamed branch never writes outside the region either
        for r, row in enumerate(message.get("grid", SPLIT)):
            assert all(a == b for c, (a, b) in enumerate(zip(SPLIT[r], row)) if not (r <= 1 and c <= 3))
    # the library's check on the problem compiled with the same controls: the open slots' entries
    # (border slots with the word that completes them), every other slot as the result grid has it
    problem = xwcp.compile_problem(
        xwcp.parse_grid("\n".join(SPLIT)), words, controls=xwcp.Controls(region=(1, 1, 2, 4))
    )
    assert sorted(result["entries"]) == sorted(problem.slots[s].name for s in problem.open_slot_ids)
    shown = entries_of(problem, rows)
    entries = tuple(result["entries"].get(slot.name, text) for slot, text in zip(problem.slots, shown))
    assert check_fill(problem, entries) == []
    for text, entry in zip(shown, entries):  # the grid shows each entry's letters (the border slots' inside part)
        assert all(a in (".", b) for a, b in zip(text, entry)), (text, entry)
    assert result["scores"]["min"] >= 50


def test_fill_region_with_quality(client, words):
    with client.websocket_connect("/ws/fill") as ws:
        _, result = _fill(ws, {"grid": SPLIT, "time_limit_s": 10, "region": SPLIT_REGION, "quality": True})
    assert result["status"] == "filled", result
    assert result["grid"][2:] == SPLIT[2:] and all(row[4:] == given[4:] for row, given in zip(result["grid"], SPLIT))
    problem = xwcp.compile_problem(
        xwcp.parse_grid("\n".join(SPLIT)), words, controls=xwcp.Controls(region=(1, 1, 2, 4))
    )
    shown = entries_of(problem, result["grid"])
    entries = tuple(result["entries"].get(slot.name, text) for slot, text in zip(problem.slots, shown))
    assert check_fill(problem, entries) == []


def test_fill_unfillable_outlines_the_slot(client):
    with client.websocket_connect("/ws/fill") as ws:
        _, result = _fill(ws, {"grid": UNFILLABLE, "time_limit_s": 20})
    assert result["status"] == "unfillable" and result["core"]["cells"]


def test_fill_sends_the_verdict_before_the_core(client):
    """Issue 29: "unfillable" goes out as soon as the proof is in, the core after it, with its own time."""
    with client.websocket_connect("/ws/fill") as ws:
        messages, result = _fill(ws, {"grid": UNFILLABLE, "time_limit_s": 20})
    verdicts = [m for m in messages if m["type"] == "verdict"]
    assert len(verdicts) == 1 and verdicts[0]["status"] == "unfillable" and verdicts[0]["reason"]
    after = messages[messages.index(verdicts[0]) + 1 :]
    assert all(m["type"] == "core-progress" for m in after)  # no fill progress once the verdict is out
    assert result["core"]["minimal"] and result["verdict_seconds"] == verdicts[0]["seconds"]
    assert result["core"]["seconds"] >= 0


@pytest.mark.timing
def test_stop_stops_the_solver_and_progress_shows_the_branch(client, words):
    with client.websocket_connect("/ws/fill") as ws:
        ws.send_json({"grid": OPEN_7, "time_limit_s": 60})
        while "grid" not in (progress := ws.receive_json()):
            assert progress["type"] == "progress"
        start = time.perf_counter()
        ws.send_json({"type": "stop"})
        while (message := ws.receive_json())["type"] == "progress":
            pass
    assert message["status"] == "aborted" and time.perf_counter() - start < 3
    # the branch shown is the open grid with some letters placed
    shown = "".join(progress["grid"])
    assert len(progress["grid"]) == 7 and all(len(row) == 7 for row in progress["grid"])
    assert set(shown) - {"."} and all(ch == "." or "A" <= ch <= "Z" for ch in shown)


@pytest.mark.timing
def test_disconnect_mid_fill_stops_solver_thread_and_rival_process(client):
    state = client.app.state.xwcp
    with client.websocket_connect("/ws/fill") as ws:
        ws.send_json({"grid": OPEN_7, "time_limit_s": 60})
        while ws.receive_json()["seconds"] < 1.5:  # past the auto backend's race delay: the rival child runs
            pass
        assert multiprocessing.active_children(), "the rival process should be running by now"
        left = time.perf_counter()
    # leaving the block disconnects and waits for the session, which returns only after its solver stopped
    assert time.perf_counter() - left < 5, "the solver went on after the client left"
    deadline = time.perf_counter() + 5
    while (state.active_fills or state.fill_threads) and time.perf_counter() < deadline:
        time.sleep(0.05)
    assert state.active_fills == 0 and not state.fill_threads
    assert multiprocessing.active_children() == []
    assert not [t for t in threading.enumerate() if t in state.fill_threads]
    _ok(client)


def test_fill_over_max_fills_is_429(words):
    with TestClient(web_app.create_app(words=words, max_fills=1, hosts=HOSTS), base_url=LOCAL) as client:
        with client.websocket_connect("/ws/fill") as first:
            first.send_json({"grid": OPEN_7, "time_limit_s": 30})
            assert first.receive_json()["type"] == "progress"
            with client.websocket_connect("/ws/fill") as second:
                second.send_json({"grid": MINI})
                message = second.receive_json()
            assert message["type"] == "error" and message["status"] == 429 and "--max-fills 1" in message["error"]
            first.send_json({"type": "stop"})
            while first.receive_json()["type"] == "progress":
                pass
        with client.websocket_connect("/ws/fill") as again:  # the slot is free again
            _, result = _fill(again, {"grid": MINI, "time_limit_s": 20})
        assert result["status"] == "filled"


@pytest.mark.parametrize(
    "message, status, words_in_error",
    [
        ("not json", 400, "malformed JSON"),
        ('{"type": "stop"}', 400, "first message must be a fill request"),
        ('{"grid": ["#..", "...."]}', 400, "row 2"),
        ('{"grid": ["..", ".."], "time_limit_s": -1}', 400, "time_limit_s"),
        ('{"grid": ["..", ".."], "region": [0, 0, 5, 5]}', 400, "region"),
        ('{"grid": ["..", ".."], "quality": "yes"}', 400, "quality"),
    ],
)
def test_wrong_shape_fill_requests(client, message, status, words_in_error):
    with client.websocket_connect("/ws/fill") as ws:
        ws.send_text(message)
        reply = ws.receive_json()
    assert reply["type"] == "error" and reply["status"] == status and words_in_error in reply["error"]
    _ok(client)


def test_wrong_message_during_a_fill_is_an_error_and_the_fill_goes_on(client):
    with client.websocket_connect("/ws/fill") as ws:
        ws.send_json({"grid": OPEN_7, "time_limit_s": 30})
        assert ws.receive_json()["type"] == "progress"
        ws.send_json({"type": "pause"})
        while (reply := ws.receive_json())["type"] == "progress":
            pass
        assert reply["type"] == "error" and reply["status"] == 400
        ws.send_json({"type": "stop"})
        while (reply := ws.receive_json())["type"] == "progress":
            pass
    assert reply["type"] == "result" and reply["status"] == "aborted"


def test_quality_fill_is_used(client):
    with client.websocket_connect("/ws/fill") as ws:
        _, reply = _fill(ws, {"grid": MINI, "quality": True, "time_limit_s": 1})  # runs to its limit: 1 s is enough
    assert reply["type"] == "result" and reply["status"] == "filled"


def test_quality_search_reports_each_better_fill_whole(words):
    """Issue 35: a quality autofill's page draws each better fill as it arrives. The search hands every fill
    it accepts to `Limits.progress` whole (every letter), and the socket's progress message carries it as a
    filled grid marked `best`: each one a valid fill, the last one the answer."""
    from xwcp.engine.result import Limits
    from xwcp.search.quality.run import fill_quality
    from xwcp.search.quality.state import BEST_FILL_BACKEND
    from xwcp.web import fill_ws

    assert fill_ws.BEST_FILL_BACKEND == BEST_FILL_BACKEND
    problem = _problem(MINI, words)
    heard = []
    result, _ = fill_quality(problem, "auto", Limits(time_limit_s=1, seed=0, progress=heard.append))  # 5 better fills
    best = [p for p in heard if p.backend == BEST_FILL_BACKEND]
    assert best, "the first fill at least is reported"
    for p in best:
        message = fill_ws._progress_json(problem, p, 1.0)
        assert message["best"] is True and "." not in "".join(message["grid"])
        assert check_fill(problem, entries_of(problem, message["grid"])) == []
    assert entries_of(problem, fill_ws._progress_json(problem, best[-1], 1.0)["grid"]) == result.entries
