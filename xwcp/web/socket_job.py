"""One long job behind a WebSocket (a fill, a design): run it in a thread, stream its progress, stop it on request.

Both `/ws/fill` and `/ws/design` work the same way once their request is read: the job runs in
a worker thread at a lowered CPU priority (xwcp/web/lanes.py: a keystroke's answer comes first); a listener takes `{"type": "stop"}` (anything else gets an error message and is
ignored) and a client that goes away stops the job too; a streamer sends the job's messages every
`PROGRESS_EVERY_S`. The job counts against the server's `--max-fills` while it runs, and the
session waits for its thread, so no search is left running.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect

from xwcp.web.http import ApiError, one_line, parse_json as _parse_json
from xwcp.web.lanes import run_lowered


class JobState(Protocol):
    """What a socket job needs of the server's state (the app's ServerState): its running jobs and their cap."""

    max_fills: int
    active_fills: int
    fill_threads: set[threading.Thread]
    label_aborts: list[threading.Event]


PREEMPT_WAIT_S = 2.0
"""Seconds a fill or design waits for the suggestion labellings it stopped to end (they stop within a search
slice, 0.05 s, and their second process is killed) before it is refused as busy."""


@dataclass
class JobEnd:
    """How a socket job ended: its result (None when it raised: `failure` says what), or `gone` when the client left."""

    result: Any = None
    failure: str = ""
    gone: bool = False


async def run_socket_job(
    state: JobState,
    websocket: WebSocket,
    work: Callable[[], Any],
    abort: threading.Event,
    messages: Callable[[], list[dict[str, Any]]],
    *,
    what: str,
    every_s: float,
) -> JobEnd:
    """Run `work()` in a thread, sending `messages()` every `every_s` seconds until it returns.

    Args:
        state: the app's state (`active_fills`, `fill_threads`).
        websocket: the accepted socket.
        work: the job; it must return soon after `abort` is set.
        abort: set on a stop message or when the client leaves.
        messages: the messages to send now (progress, new designs); each is sent whole even when the job
            ends during the send, so a message the caller counted as sent was sent.
        what: the job's name in the error a second message gets ("fill", "design").
        every_s: seconds between two rounds of messages.

    Returns:
        The job's end. The caller sends the result (or the failure) unless the client is gone.
    """
    end = JobEnd()
    state.active_fills += 1

    def run() -> Any:
        state.fill_threads.add(threading.current_thread())
        try:
            return work()
        finally:
            state.fill_threads.discard(threading.current_thread())

    def leave() -> None:
        end.gone = True
        abort.set()

    try:
        async with anyio.create_task_group() as tasks:

            async def listen() -> None:
                while True:
                    try:
                        message = await _receive(websocket)
                    except (WebSocketDisconnect, RuntimeError):
                        leave()
                        return
                    try:
                        if isinstance(message, bytes):
                            raise ApiError(400, BINARY_REFUSED)
                        if _parse_json(message).get("type") != "stop":
                            raise ApiError(
                                400, f'while a {what} runs the only message understood is {{"type": "stop"}}'
                            )
                    except ApiError as exc:
                        await websocket.send_json({"type": "error", "status": exc.status, "error": exc.message})
                        continue
                    abort.set()

            async def stream() -> None:
                while True:
                    await anyio.sleep(every_s)
                    try:
                        # shielded: the job's end cancels this task, and a message must go whole, once
                        with anyio.CancelScope(shield=True):
                            for message in messages():
                                await websocket.send_json(message)
                    except Exception:
                        leave()
                        return

            tasks.start_soon(listen)
            tasks.start_soon(stream)
            try:
                end.result = await run_lowered(run)  # waits for the thread: no orphan search
            except Exception as exc:
                end.failure = f"{exc.__class__.__name__}: {exc}"
            finally:
                tasks.cancel_scope.cancel()
    finally:
        state.active_fills -= 1
    return end


async def send_error(websocket: WebSocket, status: int, message: str, close_code: int) -> None:
    """Send an error message and close the socket with `close_code` and the message (cut to fit) as the reason
    (quietly when the client is already gone)."""
    message = one_line(message)
    try:
        await websocket.send_json({"type": "error", "status": status, "error": message})
        await websocket.close(code=close_code, reason=close_reason(message))
    except Exception:  # the client is already gone
        pass


def close_reason(message: str) -> str:
    """`message` cut to what a close frame carries (123 bytes of UTF-8)."""
    data = message.encode("utf-8")
    return message if len(data) <= 123 else data[:120].decode("utf-8", "ignore") + "..."


BINARY_REFUSED = "binary messages are not understood: send JSON text"


async def _receive(websocket: WebSocket) -> str | bytes:
    """The next message, text or binary. Raises WebSocketDisconnect when the client left."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    return text if text is not None else bytes(message.get("bytes") or b"")


async def read_request(websocket: WebSocket) -> dict[str, Any] | None:
    """Accept the socket and read the job's request, a JSON object; None when the client left first, or when the
    message was no JSON object (the client was told, and the socket closed: 1003 for a binary message, 1007 for
    text that is no JSON or nested too deeply, 1008 for JSON that is no object)."""
    await websocket.accept()
    try:
        message = await _receive(websocket)
    except (WebSocketDisconnect, RuntimeError):
        return None
    if isinstance(message, bytes):
        await send_error(websocket, 400, BINARY_REFUSED, 1003)
        return None
    try:
        return _parse_json(message)
    except ApiError as exc:
        await send_error(websocket, exc.status, exc.message, 1008 if exc.message.startswith("the body") else 1007)
        return None


async def refuse_when_busy(state: JobState, websocket: WebSocket, what: str) -> bool:
    """True (after telling the client, 429) when the server already runs its `--max-fills` jobs, after stopping the
    suggestion labellings among them: a fill or a design the constructor asked for comes before labels made in
    the background (the page asks for them again on the next edit)."""
    if state.active_fills >= state.max_fills and state.label_aborts:
        for abort in list(state.label_aborts):
            abort.set()
        with anyio.move_on_after(PREEMPT_WAIT_S):
            while state.active_fills >= state.max_fills:
                await anyio.sleep(0.02)
    if state.active_fills < state.max_fills:
        return False
    await send_error(
        websocket,
        429,
        f"{state.active_fills} {what} running, the most this server runs at once "
        f"(--max-fills {state.max_fills}); try again shortly",
        1013,
    )
    return True
