"""JSON in and out of the builder's routes: the API's error type, its error answer, bounded bodies and JSON parsing."""
from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse


class ApiError(Exception):
    """A request the API refuses: HTTP status and a one-line message naming the problem."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def error_response(status: int, message: str) -> JSONResponse:
    """The API's error answer: `{"error": message, "status": status}`."""
    return JSONResponse({"error": message, "status": status}, status_code=status)


async def read_body(request: Request, max_bytes: int) -> bytes:
    """The request body, refused with 413 past `max_bytes` (told by Content-Length or counted as it arrives)."""
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > max_bytes:
        raise ApiError(413, f"request body is {int(length)} bytes; the limit is {max_bytes}")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > max_bytes:
            raise ApiError(413, f"request body is over the limit of {max_bytes} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json(raw: bytes | str) -> dict[str, Any]:
    """A JSON object from `raw`; 400 for anything else."""
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ApiError(400, f"malformed JSON: {exc}") from None
    if not isinstance(body, dict):
        raise ApiError(400, "the body must be a JSON object, e.g. {\"grid\": [\"#...\", \"....\"]}")
    return body
