"""JSON in and out of the builder's routes: the API's error type, its error answer, bounded bodies and JSON parsing.

Also the app's outermost guard (`JsonErrors`): whatever a route raises is answered as the API's
JSON error (500, logged once), and a client that hangs up mid-request is no error at all.
"""

from __future__ import annotations

import errno
import json
import logging
import math
from typing import TYPE_CHECKING, Any

import anyio
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse

from xwcp.runtime.files import nesting_depth
from xwcp.runtime.writes import OutputError

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

BODY_TIMEOUT_S = 15.0
"""Wall time a request body may take to arrive whole; a body that stops arriving is answered 408."""
LOG = logging.getLogger("xwcp.web")


class ApiError(Exception):
    """A request the API refuses: HTTP status and a one-line message naming the problem."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


MAX_ERROR_CHARS = 400
"""Longest error message answered: a reader that quotes its input (a 64 KB row) is cut here, on one line."""


def one_line(message: str, most: int = MAX_ERROR_CHARS) -> str:
    """`message` on one line (its whitespace runs made one space), cut to `most` characters with an ellipsis."""
    line = " ".join(message.split())
    return line if len(line) <= most else line[: most - 1] + "…"


def error_response(status: int, message: str) -> JSONResponse:
    """The API's error answer: `{"error": message, "status": status}`, the message on one line (`one_line`)."""
    return JSONResponse({"error": one_line(message), "status": status}, status_code=status)


async def read_body(request: Request, max_bytes: int) -> bytes:
    """The request body, refused with 413 past `max_bytes` (told by Content-Length or counted as it arrives)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > max_bytes:
        raise ApiError(413, f"request body is {int(length)} bytes; the limit is {max_bytes}")
    chunks, size = [], 0
    try:
        with anyio.fail_after(BODY_TIMEOUT_S):
            async for chunk in request.stream():
                size += len(chunk)
                if size > max_bytes:
                    raise ApiError(413, f"request body is over the limit of {max_bytes} bytes")
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError(
            408, f"the request body did not arrive within {BODY_TIMEOUT_S:g} s ({size:,} bytes came)"
        ) from None
    return b"".join(chunks)


FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
"""A write that failed for want of room: answered 507 Insufficient Storage."""
REFUSED_ERRNOS = frozenset({errno.EROFS, errno.EACCES, errno.EPERM})
"""A write the system refuses (a read-only or locked-down folder): answered 503, the server's state, not the
request's fault."""


def storage_error(exc: OutputError) -> ApiError:
    """The answer to a write into the server's data folder that failed (nothing was kept: the writer leaves the old
    file and no partial one): 507 for a full disk, 503 for a folder the server may not write, else 500; the
    message names the cause, and the server's log says it once, without a traceback (the server keeps running)."""
    if exc.errno in FULL_ERRNOS:
        status, cause = 507, "the server's disk is full"
    elif exc.errno in REFUSED_ERRNOS:
        status, cause = 503, "the server may not write its data folder"
    else:
        status, cause = 500, "the server could not write its data folder"
    LOG.error("%s (answered %d)", exc, status)
    return ApiError(status, f"{cause}: {exc}; nothing was changed")


MAX_BODY_DEPTH = 32
"""Deepest nesting of arrays and objects a request body may hold (the page's deepest, an export's clues, is 4)."""
MAX_BODY_DIGITS = 30
"""Most digits a number in a request body may spell (its sign, point and exponent's `e` aside): seeds and
limits need under 12, and a browser writes any double in 17 and a short exponent."""


class _BodyRefused(Exception):
    """A number the body's parse refuses: its message is the 400's."""


def _number_text(text: str) -> str:
    n_digits = sum(ch.isdigit() for ch in text)
    if n_digits > MAX_BODY_DIGITS:
        shown = text if len(text) <= 24 else f"{text[:20]}..."
        raise _BodyRefused(f"the number {shown} has {n_digits:,} digits; the most is {MAX_BODY_DIGITS}")
    return text


def _whole(text: str) -> int:
    return int(_number_text(text))  # checked first: int() raises past 4,300 digits and is slow below


def _real(text: str) -> float:
    value = float(_number_text(text))
    if not math.isfinite(value):
        raise _BodyRefused(f"the number {text} is too large")
    return value


def _constant(name: str) -> float:
    raise _BodyRefused(f"{name}, which is no number in JSON")


def parse_json(raw: bytes | str) -> dict[str, Any]:
    """A JSON object from `raw`; 400 for anything else: text that is no JSON or not UTF-8, a number longer than
    MAX_BODY_DIGITS (Python's int() raises past 4,300 digits), one too large for a float (1e400), NaN or
    Infinity (not JSON, though the json module reads them), nesting deeper than MAX_BODY_DEPTH, or JSON that is
    no object."""
    try:
        body = json.loads(raw, parse_int=_whole, parse_float=_real, parse_constant=_constant)
    except _BodyRefused as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError
        raise ApiError(400, f"malformed JSON: {exc}") from None
    except RecursionError:
        raise ApiError(400, f"malformed JSON: nested too deeply (the most is {MAX_BODY_DEPTH} levels)") from None
    if nesting_depth(body) > MAX_BODY_DEPTH:
        raise ApiError(400, f"malformed JSON: nested too deeply (the most is {MAX_BODY_DEPTH} levels)")
    if not isinstance(body, dict):
        raise ApiError(400, 'the body must be a JSON object, e.g. {"grid": ["#...", "...."]}')
    return body


class JsonErrors:
    """ASGI middleware, the app's outermost: an exception a route did not answer becomes the API's JSON 500
    (logged once, with its traceback, in the server's log; the client gets one line), and a client that hung
    up mid-body (`ClientDisconnect`) ends its request quietly. A WebSocket that fails is closed with 1011."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept", "websocket.close"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except ClientDisconnect:
            return
        except Exception as exc:
            LOG.error(
                "%s %s failed: %s",
                scope.get("method", "WEBSOCKET"),
                scope.get("path"),
                exc.__class__.__name__,
                exc_info=exc,
            )
            if started:
                return
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1011, "reason": "internal error"})
                return
            response = error_response(
                500,
                f"internal error ({exc.__class__.__name__}) while answering "
                f"{scope.get('path')}; the server's log has the details",
            )
            await response(scope, receive, send)
