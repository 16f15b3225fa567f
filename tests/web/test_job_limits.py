"""Long jobs behind the builder's sockets end at their limit and when their client leaves: a 60x60 design with a 1 s
limit used to run two minutes, and two design sockets closed after 0.5 s held both job slots as long (every
autofill refused)."""

from __future__ import annotations

import time
from contextlib import ExitStack

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")
pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

from tests.web.helpers import OPEN_7  # noqa: E402

MAX_FILLS = 2
"""Jobs the app under test runs at once (the `client` fixture of conftest.py reads it)."""
GRACE_S = 3.0
"""Allowed past a limit or a hang-up on a loaded two-core box (the target is 1 s; measured: 0.01-0.1 s)."""
BIG_DESIGN = {"themes": ["CROSSWORD"], "size": "60x60"}


@pytest.mark.timing
def test_a_60x60_design_ends_near_its_limit(client):
    with client.websocket_connect("/ws/design") as ws:
        started = time.monotonic()
        ws.send_json({**BIG_DESIGN, "time_limit_s": 1})
        while (message := ws.receive_json())["type"] == "progress":
            pass
        took_s = time.monotonic() - started
    assert message["type"] == "result" and message["status"] == "limit"
    assert took_s < 1 + GRACE_S, f"a 1 s design answered after {took_s:.1f} s"


@pytest.mark.timing
@pytest.mark.timeout(60)
def test_sockets_closed_early_free_their_slots_for_an_autofill(client):
    state = client.app.state.xwcp
    with ExitStack() as sockets:
        for _ in range(MAX_FILLS):
            ws = sockets.enter_context(client.websocket_connect("/ws/design"))
            ws.send_json({**BIG_DESIGN, "time_limit_s": 300})
            assert ws.receive_json()["type"] == "progress"  # running: it holds a slot
        assert state.active_fills == MAX_FILLS
        time.sleep(0.5)
        closed = time.monotonic()
    while True:
        with client.websocket_connect("/ws/fill") as ws:
            ws.send_json({"grid": OPEN_7, "time_limit_s": 0.5})
            first = ws.receive_json()
            if first["type"] == "progress":
                ws.send_json({"type": "stop"})
                while ws.receive_json()["type"] == "progress":
                    pass
                break
        assert first["status"] == 429
        assert time.monotonic() - closed < GRACE_S, "the closed sockets' jobs still hold the slots"
        time.sleep(0.1)
    accepted_s = time.monotonic() - closed
    assert accepted_s < GRACE_S, f"an autofill was accepted {accepted_s:.1f} s after the sockets closed"
    assert state.active_fills == 0
