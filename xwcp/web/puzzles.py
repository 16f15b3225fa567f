"""Puzzle files in and out of the page: any format xwcp reads becomes the page's puzzle object, and back.

The page holds a puzzle as xwcp's `.json` document (xwcp/formats/jsonfile.py: title, author,
copyright, notes, width, height, `grid` rows and `entries` with their clues), so what the grid
model learns (marks, bars, several letters in a cell) travels through the page by that one
format's reader and writer. Opening: the uploaded bytes are written to a temporary file under
their own extension and read by `xwcp.formats`; saving: the page's object is read as `.json`
and written in the asked format. Every failure is an ApiError with the reader's one line.
"""
from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xwcp.base.errors import InputError
from xwcp.formats import MODULE_BY_SUFFIX, Puzzle, read_puzzle
from xwcp.formats.jsonfile import to_dict

if TYPE_CHECKING:
    from starlette.routing import Route

MAX_FILE_BYTES = 1 << 20
"""Largest puzzle file the page may open (xwcp.formats reads at most this much too)."""
MEDIA_TYPES = {"puz": "application/x-crossword", "ipuz": "application/json", "json": "application/json",
               "xd": "text/plain; charset=utf-8", "txt": "text/plain; charset=utf-8", "jpz": "application/xml"}


def formats() -> list[str]:
    """The formats the page can open and save: every extension `xwcp.formats` reads and writes."""
    return [suffix.lstrip(".") for suffix in MODULE_BY_SUFFIX]


def read_upload(name: str, data: bytes) -> Puzzle:
    """The puzzle in an uploaded file called `name` (its extension picks the format; none: a text grid).

    Raises:
        InputError: an unknown extension, a file over MAX_FILE_BYTES, or what the format's reader refuses;
            the message names the file as the user called it.
    """
    suffix = Path(name).suffix.lower() or ".txt"
    if suffix not in MODULE_BY_SUFFIX:
        raise InputError(f"cannot open {suffix} files; open one of {', '.join(MODULE_BY_SUFFIX)}", name)
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"the file is {len(data):,} bytes; the most a puzzle file may have is {MAX_FILE_BYTES:,}",
                         name)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"puzzle{suffix}"
        path.write_bytes(data)
        try:
            return read_puzzle(path)
        except InputError as exc:
            raise InputError(exc.message, name, exc.line) from None


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """The page's puzzle object (xwcp's .json document) of `puzzle`."""
    return to_dict(puzzle)


def puzzle_from_json(data: object) -> Puzzle:
    """The Puzzle of the page's object (an xwcp .json document; `clues` {slot id: text} may stand for `entries`).

    Raises:
        InputError: not an object, no grid rows, a bad grid (the .json reader's message).
    """
    if not isinstance(data, dict):
        raise InputError("the puzzle must be an object like xwcp's .json files: {\"grid\": [rows], \"entries\": [...]}")
    clues = data.get("clues")
    if clues is not None:
        if not isinstance(clues, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in clues.items()):
            raise InputError("clues must be an object mapping slot ids (like \"12A\") to clue text")
        data = {**data, "entries": [{"id": k.upper(), "clue": v} for k, v in clues.items()]}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "puzzle.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        try:
            return read_puzzle(path)
        except InputError as exc:
            raise InputError(exc.message) from None


def write_format(puzzle: Puzzle, fmt: str) -> bytes:
    """The puzzle file's bytes in format `fmt` (an extension without the dot).

    Raises:
        InputError: an unknown format, or content the format cannot carry.
    """
    if f".{fmt}" not in MODULE_BY_SUFFIX:
        raise InputError(f"cannot save as {fmt!r}; save as one of {', '.join(formats())}")
    from xwcp.services.save import write_checked

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"puzzle.{fmt}"
        try:
            write_checked(puzzle, path)  # bars and rebus cells kept, or refused in one line
        except InputError as exc:  # said without the temporary file's name
            raise InputError(exc.message) from None
        return path.read_bytes()


def file_name(puzzle: Puzzle, fmt: str) -> str:
    """A download name from the title (letters, digits, dashes), else `puzzle`."""
    stem = re.sub(r"[^A-Za-z0-9]+", "-", puzzle.title).strip("-").lower()[:60] or "puzzle"
    return f"{stem}.{fmt}"


# ----- routes ---------------------------------------------------------------------------------

def file_routes(max_body_bytes: int) -> list[Route]:
    """POST /api/open (a file's bytes, its name in `?name=`) and POST /api/export (the page's puzzle, a format)."""
    import anyio.to_thread
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from xwcp.web.http import ApiError, error_response, parse_json, read_body

    async def open_file(request: Request) -> Response:
        name = request.query_params.get("name", "")
        try:
            if not name:
                raise ApiError(400, "say the file's name: POST /api/open?name=puzzle.puz with the file as the body")
            data = await read_body(request, MAX_FILE_BYTES)
            puzzle = await anyio.to_thread.run_sync(read_upload, name, data)
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        except InputError as exc:
            return error_response(400, str(exc))
        # what reading the file said (a key that unlocked it, a checksum), one line each, as the CLI warns
        return JSONResponse({"puzzle": puzzle_json(puzzle), "name": name, "warnings": list(puzzle.warnings)})

    async def export_file(request: Request) -> Response:
        try:
            body = parse_json(await read_body(request, max_body_bytes))
            fmt = body.get("format")
            if not isinstance(fmt, str) or f".{fmt}" not in MODULE_BY_SUFFIX:
                raise ApiError(404, f"format {fmt!r} is not available here; available: {', '.join(formats())}")
            source = body.get("puzzle")
            if source is None:  # the first API's shape: {"grid": rows, "clues": {id: text}}
                if "grid" not in body:
                    raise ApiError(400, "missing \"puzzle\": the page's puzzle object (xwcp's .json document)")
                source = {"grid": body["grid"], "clues": body.get("clues", {})}
                if not isinstance(source["clues"], dict):
                    raise ApiError(400, "clues must be an object mapping slot ids to clue text")
            puzzle = await anyio.to_thread.run_sync(puzzle_from_json, source)
            data = await anyio.to_thread.run_sync(write_format, puzzle, fmt)
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        except InputError as exc:
            return error_response(400, str(exc))
        return Response(data, media_type=MEDIA_TYPES.get(fmt, "application/octet-stream"),
                        headers={"Content-Disposition": f'attachment; filename="{file_name(puzzle, fmt)}"'})

    return [Route("/api/open", open_file, methods=["POST"]), Route("/api/export", export_file, methods=["POST"])]
