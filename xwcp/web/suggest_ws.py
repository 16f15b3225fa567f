"""The builder's suggestion WebSocket (`/ws/suggest`): a slot's suggestions, then the solver's label of each, streamed.

Protocol. The page keeps one socket open and sends a request whenever the grid or the slot changes:
    {"id": 7, "grid": [rows], "slot": "12A", "k": 40, "time_limit_s": 30, "seed": 0, "min_score": 50,
     "allow_dupes": false, "visible": 13}
(`grid` and `slot` required; `visible`, the list rows the page shows without scrolling: those words are
labelled first, under the whole budget, and the rest with what is left). A new request cancels the one running (its thread is stopped and waited
for first), as does {"type": "stop"}. For each request the server sends, every message carrying its `id`:
    {"type": "words", ...}   the `/api/suggest` answer (the same object, from the same cache): the top k
                             words that survive being entered, `counts`, `dropped`; when that answer's
                             probing budget ran out short of k words, the answer over the whole slot;
    {"type": "label", "word", "verdict", "how", "seconds"}
                             each word's label the moment it is settled ("viable", "dead-end"); labels
                             this grid already had (an undo, the cursor back on a slot), and the dead ends
                             proven on a grid this one adds letters to (the keystroke before), come first,
                             at once, with "how": "kept"; when the budget runs out, each word still
                             unsettled gets one with "verdict": "unknown" (the page says "unsettled");
    {"type": "counts", "counts": {...}}
                             the survivors counted over the whole slot, when the first answer's count
                             stopped at its k words;
    {"type": "done", "labelled": n, "seconds": s}
                             the labelling ended (every word settled, the budget spent, or cancelled:
                             `cancelled` true).
A bad request gets {"type": "error", "status": N, "error": "..."} (the socket stays open for the next).
The labels are kept with the grid in the analysis cache (`("labels", slot)`), so coming back to a grid
costs nothing; a fill found for one word labels every other word it uses at once (xwcp/analysis/verify.py
keeps recent fills per layout). Labelling runs in a worker thread at a lowered CPU priority (xwcp/web/lanes.py) counted against the server's
`--max-fills` while it runs; when all are busy the words still come, then an error saying no labels follow
and "done".
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import anyio
import anyio.from_thread
from starlette.websockets import WebSocket, WebSocketDisconnect

from xwcp.analysis.reports import Consistency
from xwcp.base.errors import InputError
from xwcp.library.answers import How, Viability, WordLabel
from xwcp.library.jobs import Session
from xwcp.model.alphabet import Alphabet
from xwcp.services.analysis_cache import Analysed, CacheKey, Report
from xwcp.web.fields import Body, filter_field, number_field, page_data, slot_field
from xwcp.web.http import ApiError, parse_json as _parse_json
from xwcp.web.lanes import run_lowered
from xwcp.web.socket_job import JobState

Analyse = Callable[[Body], "tuple[Analysed, CacheKey]"]
"""The app's `_analysed`: a request body to its grid compiled and propagated (from the cache), and its key."""
FirstAnswer = Callable[[Analysed, CacheKey, Body], Report]
"""The app's `/api/suggest` answer for a body (made once per grid, slot and k, and kept)."""

DEFAULT_LABEL_S = 30.0
"""The labels' budget when the request names none: the page labels on while the constructor is idle."""
MAX_LABEL_S = 120.0
COUNT_S = 2.0
"""Budget of the full count of survivors after the labels (singleton consistency over the whole slot)."""


async def suggest_session(
    state: JobState, websocket: WebSocket, analyse: Analyse, first_answer: FirstAnswer, *, max_k: int
) -> None:
    """Serve one page's suggestion socket until it closes (see the module docstring)."""
    await websocket.accept()
    running: dict[str, Any] = {}
    """The request running: its abort event and an anyio.Event set when its thread ended."""

    async def send(message: Report) -> None:
        await websocket.send_json(message)

    async def stop_running() -> None:
        if running:
            running["abort"].set()
            await running["ended"].wait()

    async def job(body: Body, abort: threading.Event, ended: anyio.Event) -> None:
        try:
            await run_lowered(
                lambda: _label_request(
                    state, body, abort, analyse, first_answer, max_k, lambda m: anyio.from_thread.run(send, m)
                )
            )
        except Exception:  # the client left mid-send; the thread has ended
            abort.set()
        finally:
            ended.set()

    try:
        async with anyio.create_task_group() as tasks:
            while True:
                try:
                    text = await websocket.receive_text()
                except (WebSocketDisconnect, KeyError, RuntimeError):
                    break
                await stop_running()
                try:
                    body = _parse_json(text)
                except ApiError as exc:
                    await send({"type": "error", "status": exc.status, "error": exc.message})
                    continue
                if body.get("type") == "stop":
                    continue
                abort, ended = threading.Event(), anyio.Event()
                running.update(abort=abort, ended=ended)
                tasks.start_soon(job, body, abort, ended)
            if running:
                running["abort"].set()
    except Exception:  # the socket closed under a send
        if running:
            running["abort"].set()


def _label_request(
    state: JobState,
    body: Body,
    abort: threading.Event,
    analyse: Analyse,
    first_answer: FirstAnswer,
    max_k: int,
    send: Callable[[Report], None],
) -> None:
    """One request, in a worker thread: the words, the labels as they settle, the full count, the end."""
    start = time.perf_counter()
    request_id = body.get("id")

    alphabet: Alphabet | None = None  # the grid's, once read: messages go as the page reads them (page_data)

    def say(message: Report) -> None:
        if not abort.is_set():
            send({**(message if alphabet is None else page_data(message, alphabet)), "id": request_id})

    try:
        entry, key = analyse(body)
        alphabet = entry.problem.alphabet
        answer = first_answer(entry, key, body)
        limit = number_field(body, "time_limit_s", DEFAULT_LABEL_S, 0.01, MAX_LABEL_S, float)
        seed = number_field(body, "seed", 0, 0, 2**31 - 1)
        slot = slot_field(body).strip().upper()
        k = number_field(body, "k", 20, 1, max_k)
        visible = number_field(body, "visible", k, 0, max_k)
    except (ApiError, InputError) as exc:
        say({"type": "error", "status": getattr(exc, "status", 400), "error": getattr(exc, "message", str(exc))})
        return
    session = Session.analysed(entry.problem, entry.prop)
    filtered = bool(filter_field(body))  # the filter box's list: its counts are the filtered slot's, kept as sent
    if not filtered and not answer["counts"].get("complete", True) and len(answer["words"]) < k:
        # the first answer's probing budget ran out before k words survived (a slot where most words fail):
        # the whole slot is probed now, and this fuller list is the one labelled
        answer = entry.report(
            ("suggest-all", slot, k),
            lambda: session.suggest(slot, k=k, count=True, probe_max_words=None, probe_time_limit_s=COUNT_S).as_dict(),
        )
    say({"type": "words", **answer})
    words = [w["word"] for w in answer["words"]]
    if Consistency(answer["status"]) is not Consistency.CONSISTENT or not words or "." not in answer["slot"]["pattern"]:
        say({"type": "done", "labelled": 0, "seconds": round(time.perf_counter() - start, 4)})
        return
    kept: dict[str, Report] = entry.report(("labels", slot), dict)  # this grid's settled labels, shared
    for word in words:
        if word in kept:
            say({"type": "label", **kept[word], "how": "kept"})
    todo = [w for w in words if w not in kept]
    cancelled = False
    if todo:
        if state.active_fills >= state.max_fills:
            say(
                {
                    "type": "error",
                    "status": 429,
                    "error": f"{state.active_fills} fills or labellings running, "
                    "the most this server runs at once: no labels",
                }
            )
            say(
                {
                    "type": "done",
                    "labelled": len(kept),
                    "cancelled": False,
                    "seconds": round(time.perf_counter() - start, 4),
                }
            )
            return
        state.active_fills += 1
        state.fill_threads.add(threading.current_thread())
        state.label_aborts.append(abort)  # a fill asked for meanwhile stops it (socket_job.refuse_when_busy)

        def settled(label: WordLabel) -> None:
            if label.verdict is not Viability.UNKNOWN:
                kept[label.word] = label.as_dict()
            say({"type": "label", **label.as_dict()})

        try:
            labels = _label_visible_first(
                session, slot, todo, [w for w in words[:visible] if w in todo], limit, seed, settled, abort
            )
            if not abort.is_set():
                for label in labels:
                    if label.verdict is Viability.UNKNOWN:
                        settled(label)
        finally:
            state.active_fills -= 1
            state.fill_threads.discard(threading.current_thread())
            state.label_aborts.remove(abort)
        cancelled = abort.is_set()
    if not cancelled and not filtered and not answer["counts"].get("complete", True):
        counts = entry.report(
            ("suggest-count", slot),
            lambda: session.suggest(slot, k=k, count=True, probe_max_words=None, probe_time_limit_s=COUNT_S).as_dict()[
                "counts"
            ],
        )
        say({"type": "counts", "counts": counts})
    send(
        {
            "type": "done",
            "id": request_id,
            "labelled": len(kept),
            "cancelled": abort.is_set(),
            "seconds": round(time.perf_counter() - start, 4),
        }
    )


def _label_visible_first(
    session: Session,
    slot: str,
    todo: list[str],
    visible: list[str],
    limit_s: float,
    seed: int,
    settled: Callable[[WordLabel], None],
    abort: threading.Event,
) -> list[WordLabel]:
    """Label `todo` under `limit_s`, the words the page shows without scrolling (`visible`) first.

    Two labellings: the visible words under the whole budget, then the others under what is left
    (fills found for the first label the second's words at once, xwcp/analysis/verify.py's recent fills)."""
    end = time.perf_counter() + limit_s
    rest = [w for w in todo if w not in set(visible)]
    if not visible or not rest:
        return session.label(slot, todo, time_limit_s=limit_s, seed=seed, on_label=settled, abort=abort)
    by_word = {
        label.word: label
        for label in session.label(slot, visible, time_limit_s=limit_s, seed=seed, on_label=settled, abort=abort)
    }
    left_s = end - time.perf_counter()
    if left_s > 0.01 and not abort.is_set():
        by_word.update(
            (label.word, label)
            for label in session.label(slot, rest, time_limit_s=left_s, seed=seed, on_label=settled, abort=abort)
        )
    return [by_word.get(w) or WordLabel(w, Viability.UNKNOWN, How.UNSETTLED, round(limit_s, 4)) for w in todo]
