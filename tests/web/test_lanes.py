"""The server's sharing between clients (xwcp/web/lanes.py): turns client by client, a newer search superseding the
older, searches at a lowered CPU priority, and at the app: a keystroke's question is not queued behind searches."""

from __future__ import annotations

import json
import os
import sys
import threading
import time

import anyio
import httpx
import pytest

from tests.web.helpers import HOSTS, MINI, OPEN_7
from xwcp.web import app as app_module
from xwcp.web.lanes import FairLimiter, Superseded, client_id, in_lowered_thread, run_lowered


def test_client_id_is_the_address_and_the_named_client():
    scope = {"client": ("10.0.0.7", 5000), "headers": [(b"x-xwcp-client", b"tab-1\x00\n")]}
    assert client_id(scope) == "10.0.0.7/tab-1"
    assert client_id({"client": ("10.0.0.7", 5001), "headers": []}) == "10.0.0.7"
    assert client_id({"headers": [(b"x-xwcp-client", b"x" * 500)]}) == "-/" + "x" * 64


def test_waiting_clients_are_served_in_turn_not_in_arrival_order():
    async def main() -> list[str]:
        lane = FairLimiter(1)
        first = lane.enter("a")
        await lane.acquire(first)
        async with anyio.create_task_group() as tasks:

            async def one(client: str) -> None:
                ticket = lane.enter(client)
                await lane.acquire(ticket)
                await anyio.sleep(0.01)
                lane.release(ticket)

            for client in ("a", "a", "a", "b"):  # a's burst arrives before b's one request
                tasks.start_soon(one, client)
                await anyio.sleep(0.01)
            lane.release(first)
        return lane.granted_order

    assert anyio.run(main) == ["a", "b", "a", "a", "a"]


def test_a_newer_search_of_the_same_client_supersedes_the_older():
    async def main() -> None:
        lane = FairLimiter(1, one_per_client=True)
        other = lane.enter("b")
        await lane.acquire(other)  # the slot is taken
        running = lane.enter("a")
        outcome: list[str] = []

        async def wait(ticket) -> None:
            try:
                await lane.acquire(ticket)
                outcome.append("granted")
            except Superseded:
                outcome.append("superseded")

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(wait, running)
            await anyio.sleep(0.01)
            newer = lane.enter("a")
            assert running.abort.is_set() and not newer.abort.is_set()
            await anyio.sleep(0.01)
            assert outcome == ["superseded"] and lane.waiting() == 0
            lane.release(running)  # the caller's `finally`: a no-op for a ticket that holds nothing
            tasks.start_soon(wait, newer)
            await anyio.sleep(0.01)
            lane.release(other)
        assert outcome == ["superseded", "granted"] and lane.held == 1
        lane.release(newer)
        assert lane.held == 0 and lane.held_by_client == {}

    anyio.run(main)


def test_a_cancelled_wait_takes_no_slot():
    async def main() -> None:
        lane = FairLimiter(1)
        holder = lane.enter("a")
        await lane.acquire(holder)
        with anyio.move_on_after(0.05):
            await lane.acquire(lane.enter("b"))
        assert lane.waiting() == 0
        lane.release(holder)
        assert lane.held == 0
        later = lane.enter("c")
        with anyio.fail_after(1):
            await lane.acquire(later)

    anyio.run(main)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="threads have their own priority on Linux only")
def test_heavy_work_runs_at_a_lowered_priority_and_the_caller_keeps_its_own():
    def nice() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    mine = nice()
    assert in_lowered_thread(nice) == min(19, mine + 10)
    assert nice() == mine

    async def main() -> tuple[int, int]:
        return await run_lowered(nice), await anyio.to_thread.run_sync(nice)  # anyio's own threads untouched

    lowered, pooled = anyio.run(main)
    assert lowered == min(19, mine + 10) and pooled == mine
    with pytest.raises(ZeroDivisionError):
        in_lowered_thread(lambda: 1 // 0)


# ----- at the app ---------------------------------------------------------------------------------


@pytest.fixture
def app(words, monkeypatch):
    monkeypatch.setattr(app_module, "ANALYSIS_THREADS", 1)  # one slot: a search in it would hold every keystroke
    return app_module.create_app(words=words, hosts=HOSTS, personal=False)


def _search(slot: str = "1A", limit_s: float = 3.0) -> dict:
    """A verified suggestion that runs to its limit (no fill of the open 7x7 comes within seconds)."""
    return {"grid": OPEN_7, "slot": slot, "k": 5, "verify": True, "time_limit_s": limit_s}


@pytest.mark.timing
def test_a_keystroke_is_answered_while_searches_hold_the_server(app):
    """Two clients' searches run; a third client's quick question is answered before either ends, not after."""

    async def main() -> tuple[float, list[float], int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            ended: list[float] = []

            async def search(name: str) -> None:
                response = await client.post(
                    "/api/suggest", json=_search(), headers={"X-Xwcp-Client": name}, timeout=60
                )
                ended.append(time.monotonic())
                assert response.status_code in (200, 409)

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(search, "heavy-1")
                tasks.start_soon(search, "heavy-2")
                await anyio.sleep(0.5)  # both searches are in
                start = time.monotonic()
                response = await client.post(
                    "/api/suggest",
                    json={"grid": MINI, "slot": "4A", "k": 3},
                    headers={"X-Xwcp-Client": "typist"},
                    timeout=60,
                )
                answered = time.monotonic()
                status = response.status_code
            return answered - start, [end - answered for end in ended], status

    waited_s, searches_after_s, status = anyio.run(main)
    assert status == 200
    assert all(after > 0 for after in searches_after_s), (waited_s, searches_after_s)  # answered first
    assert waited_s < 5.0


@pytest.mark.timing
def test_a_newer_search_of_the_same_client_stops_the_older(app):
    async def main() -> tuple[list[int], float]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            statuses: list[int] = []
            first_done: list[float] = []

            async def first() -> None:
                response = await client.post(
                    "/api/suggest", json=_search(limit_s=10.0), headers={"X-Xwcp-Client": "tab"}, timeout=60
                )
                first_done.append(time.monotonic())
                statuses.append(response.status_code)

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(first)
                await anyio.sleep(1.0)
                sent = time.monotonic()
                second = await client.post(
                    "/api/suggest", json=_search("8A", limit_s=0.5), headers={"X-Xwcp-Client": "tab"}, timeout=60
                )
                statuses.append(second.status_code)
            return statuses, first_done[0] - sent

    statuses, first_after_s = anyio.run(main)
    assert statuses == [200, 200]  # the older answered with what it settled, the newer in full
    assert first_after_s < 5.0  # stopped, not run to its 10 s


@pytest.mark.timing
def test_a_short_check_does_not_wait_behind_long_searches(app, monkeypatch):
    """The page's check after a keystroke (2 s) has a slot of its own: with every search slot taken by 3 s
    verifications, it is answered before they end."""
    monkeypatch.setattr(app_module, "HEAVY_SLOTS", 1)

    async def main() -> tuple[float, list[float], int]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            ended: list[float] = []

            async def search(name: str) -> None:
                await client.post("/api/suggest", json=_search(), headers={"X-Xwcp-Client": name}, timeout=60)
                ended.append(time.monotonic())

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(search, "heavy-1")
                tasks.start_soon(search, "heavy-2")
                await anyio.sleep(0.5)
                start = time.monotonic()
                response = await client.post(
                    "/api/check",
                    json={"grid": MINI, "time_limit_s": 1},
                    headers={"X-Xwcp-Client": "typist"},
                    timeout=60,
                )
                answered = time.monotonic()
            return answered - start, [end - answered for end in ended], response.status_code

    waited_s, searches_after_s, status = anyio.run(main)
    assert status == 200
    assert all(after > 0 for after in searches_after_s), (waited_s, searches_after_s)
    assert waited_s < 5.0


@pytest.mark.timing
def test_a_search_whose_client_hangs_up_stops_within_a_second_or_two(app):
    """A verified suggestion of 10 s whose client goes away after 1 s stops soon after, not at its limit: its
    slot and its CPU go back to the clients still there."""
    body = json.dumps(_search(limit_s=10.0)).encode()
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/suggest",
        "raw_path": b"/api/suggest",
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }

    async def main() -> float:
        hung_up = anyio.Event()
        body_sent = False

        async def receive() -> dict:
            nonlocal body_sent
            if not body_sent:
                body_sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            if not hung_up.is_set():  # as a server does: nothing to read until the client goes away
                await hung_up.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            pass

        async def hang_up() -> None:
            await anyio.sleep(1.0)
            hung_up.set()

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(hang_up)
            await app(scope, receive, send)
        return time.monotonic()

    start = time.monotonic()
    ended_s = anyio.run(main) - start
    assert ended_s < 5.0, f"the search ran {ended_s:.1f} s of its 10 s after its client left at 1 s"
