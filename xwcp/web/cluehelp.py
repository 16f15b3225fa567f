"""The builder's clue help over HTTP: GET /api/clues?answer= (earlier clues, definitions, the phrase) and
POST /api/clues/check (the notes on a puzzle's clues), each answering the library's object as JSON.

Both run in a worker thread: the first look-up on a machine builds WordNet's index (about 3 s), later ones take
milliseconds. The answer's memory is the server's clue memory (`xwcp clues --learn`); the page adds its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from xwcp.base.errors import InputError
from xwcp.web.http import ApiError, error_response, parse_json, read_body
from xwcp.web.puzzles import puzzle_from_json


def _help(answer: str, list_files: Sequence[str]) -> dict[str, Any]:
    from xwcp.library.clues import clues

    return clues(answer, words=list(list_files)).as_dict()


def _check(source: object, list_files: Sequence[str]) -> dict[str, Any]:
    from xwcp.library.clues import check_clues

    return check_clues(puzzle_from_json(source), words=list(list_files)).as_dict()


def clue_routes(max_body_bytes: int, list_files: Sequence[str] = ()) -> list[Route]:
    """GET /api/clues?answer=WORD and POST /api/clues/check with `{"puzzle": the page's puzzle object}`;
    `list_files`: the server's word-list files, whose lines written with spaces give the answers' phrases."""

    async def clue_help(request: Request) -> Response:
        answer = request.query_params.get("answer", "")
        try:
            if not answer:
                raise ApiError(400, "say the answer: GET /api/clues?answer=ICECREAMCONE")
            return JSONResponse(await anyio.to_thread.run_sync(_help, answer, list_files))
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        except InputError as exc:
            return error_response(400, exc.message)

    async def clue_check(request: Request) -> Response:
        try:
            body = parse_json(await read_body(request, max_body_bytes))
            if "puzzle" not in body:
                raise ApiError(400, "missing \"puzzle\": the page's puzzle object (xwcp's .json document)")
            return JSONResponse(await anyio.to_thread.run_sync(_check, body["puzzle"], list_files))
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        except InputError as exc:
            return error_response(400, exc.message)

    return [Route("/api/clues", clue_help), Route("/api/clues/check", clue_check, methods=["POST"])]
