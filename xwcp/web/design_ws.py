"""The builder's design WebSocket (`/ws/design`): theme entries in, progress streamed, designed grids out.

Protocol. The client sends one request:
    {"themes": ["WORD", ...], "at": ["WORD=ROW,COL,A"], "size": "15x15", "symmetry": "rotational",
     "style": "american", "count": 2, "time_limit_s": 120, "quality_time_s": 10, "seed": 0,
     "min_score": 50, "max_words": null, "max_blocks": null, "max_length": null}
(everything but `themes` optional, defaults as `xwcp design`), then may send {"type": "stop"}.
The server sends {"type": "progress", "seconds", "patterns", "cuts", "designs", "text", "grid"}
about every `every_s` (the app's PROGRESS_EVERY_S, `grid`: the pattern being tried, theme letters in it), a
{"type": "design", "index", ...} as each design is found (the CLI's JSON design object), and
last {"type": "result", "status", "designs": [...best first], "reason", "stats", "notes", "rules"}.
A bad request gets {"type": "error", "status": 400, "error": "..."} and the socket closes.
A design counts as a fill against the server's `--max-fills`; a stop or a disconnect aborts the
search, and the session waits for its thread, so nothing is left running.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict

import anyio.to_thread
from starlette.websockets import WebSocket

from xwcp.base.errors import InputError
from xwcp.web.http import ApiError
from xwcp.web.socket_job import JobState, read_request, refuse_when_busy, run_socket_job, send_error

if TYPE_CHECKING:
    from xwcp.designer.request import DesignRequest
    from xwcp.designer.search import Design, DesignEvent
    from xwcp.words.wordlist import WordList

MAX_DESIGN_S = 600.0
"""Cap on one design request's time limit."""
MAX_COUNT = 5
"""Most designs one request may ask for."""
DEFAULT_QUALITY_S = 10.0
"""The page's quality search per design (shorter than the CLI's 20 s: the user is watching)."""
_SHAPE_KEYS: tuple[Literal["symmetry", "style"], ...] = ("symmetry", "style")


class _ShapeOptions(TypedDict, total=False):
    """The request's text options passed through to `make_request` when given."""

    symmetry: str
    style: str


class DesignState(JobState, Protocol):
    """What a design session needs of the server's state: a socket job's, and the word list."""

    @property
    def words(self) -> WordList: ...

    def words_for(self, body: dict[str, Any]) -> tuple[WordList, object]: ...


def _text_list(body: dict[str, Any], key: str, required: bool) -> list[str]:
    value = body.get(key, [])
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise ApiError(400, f"{key} must be a list of strings")
    value = [x for x in value if x.strip()]
    if required and not value:
        raise ApiError(400, f'no theme entry: send "{key}": ["WORD", ...]')
    return value


def _request(body: dict[str, Any]) -> DesignRequest:
    """The DesignRequest a message asks for. Raises ApiError (400) naming the problem."""
    from xwcp.designer.request import make_request
    from xwcp.web.fields import number_field as _number

    if body.get("type", "design") != "design":
        raise ApiError(400, 'the first message must be a design request: {"themes": ["WORD", ...]}')
    size = body.get("size", "15x15")
    if isinstance(size, list) and len(size) == 2:
        size = f"{size[0]}x{size[1]}"
    if not isinstance(size, str):
        raise ApiError(400, 'size must be "WxH" or [width, height]')
    options: _ShapeOptions = {}
    for key in _SHAPE_KEYS:
        if key in body:
            if not isinstance(body[key], str):
                raise ApiError(400, f"{key} must be a string")
            options[key] = body[key]
    try:
        return make_request(
            size=size,
            themes=_text_list(body, "themes", not body.get("at")),
            at=_text_list(body, "at", False),
            max_words=_number(body, "max_words", None, 1, 2000),
            min_words=_number(body, "min_words", None, 0, 2000),
            max_blocks=_number(body, "max_blocks", None, 0, 2000),
            max_length=_number(body, "max_length", None, 3, 30),
            count=_number(body, "count", 1, 1, MAX_COUNT),
            time_limit_s=_number(body, "time_limit_s", 120.0, 0.01, MAX_DESIGN_S, float),
            quality_time_s=_number(body, "quality_time_s", DEFAULT_QUALITY_S, 0, MAX_DESIGN_S, float),
            seed=_number(body, "seed", 0, 0, 2**31),
            min_score=_number(body, "min_score", 50, 0, 100),
            **options,
        )
    except InputError as exc:
        raise ApiError(400, str(exc)) from None


async def design_session(state: DesignState, websocket: WebSocket, every_s: float = 0.1) -> None:
    """One design: read the request, run the search in a thread, stream its progress and designs, send the result."""
    from xwcp.designer.report import design_dict, result_dict
    from xwcp.designer.search import design

    body = await read_request(websocket)
    if body is None:
        return
    try:
        request = _request(body)
        words = (await anyio.to_thread.run_sync(state.words_for, body))[0]  # the request's language's list
    except ApiError as exc:
        await send_error(websocket, exc.status, exc.message, 1008)
        return
    if await refuse_when_busy(state, websocket, "fills or designs are"):
        return
    abort = threading.Event()
    latest: list[DesignEvent | None] = [None]
    found: list[Design] = []
    sent = 0

    def progress(event: DesignEvent) -> None:
        latest[0] = event
        if event.kind == "design" and event.design is not None:  # a design event has its design
            found.append(event.design)

    def new_designs() -> list[dict[str, Any]]:
        nonlocal sent
        out = [
            {"type": "design", "index": index + 1, **design_dict(found[index], request)}
            for index in range(sent, len(found))
        ]
        sent += len(out)
        return out

    def messages() -> list[dict[str, Any]]:
        event = latest[0]
        message: dict[str, Any] = {
            "type": "progress",
            "seconds": round(time.perf_counter() - start, 2),
            "patterns": 0,
            "cuts": 0,
            "designs": len(found),
            "text": "starting",
        }
        if event is not None:
            message.update(patterns=event.n_patterns, cuts=event.n_cuts, text=event.text)
            if event.grid:
                message["grid"] = list(event.grid)
        return [*new_designs(), message]

    start = time.perf_counter()
    end = await run_socket_job(
        state,
        websocket,
        lambda: design(request, words, progress=progress, abort=abort),
        abort,
        messages,
        what="design",
        every_s=every_s,
    )
    result = end.result
    if end.gone:
        return
    if result is None:
        await send_error(websocket, 500, f"the design failed: {end.failure}", 1011)
        return
    try:
        for message in new_designs():
            await websocket.send_json(message)
        await websocket.send_json(
            {"type": "result", **result_dict(result, request), "seconds": round(time.perf_counter() - start, 3)}
        )
        await websocket.close()
    except Exception:
        pass
