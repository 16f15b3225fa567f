"""Puzzle files in and out of the page: any format xwcp reads becomes the page's puzzle object, and back.

The page holds a puzzle as xwcp's `.json` document (xwcp/formats/jsonfile.py: title, author,
copyright, notes, width, height, `grid` rows and `entries` with their clues), so what the grid
model learns (marks, bars, several letters in a cell) travels through the page by that one
format's reader and writer. Opening: the uploaded bytes are written to a temporary file under
their own extension and read by `xwcp.formats`; saving: the page's object is read as `.json`
and written in the asked format. Every failure is an ApiError with the reader's one line.

An uploaded file is untrusted: both routes read and write in a worker process forked for the
request (`xwcp.runtime.isolation.call_bounded`) with OPEN_MEMORY_MB of memory and
OPEN_TIME_LIMIT_S of time, at most OPEN_WORKERS at once, so a file that would make a reader slow or
greedy costs only its own request (413 over the memory, 422 over the time) while the event loop and
every other client go on.
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
OPEN_TIME_LIMIT_S = 3.0
"""Wall time a file's reading (or an export's writing) may take; the published files open in well under 1 s."""
OPEN_MEMORY_MB = 256.0
"""Memory (address space over the worker's start) a file's reading may take; a 60x60 puzzle needs a few MB."""
OPEN_WORKERS = 2
"""Files read (or written) at once; more wait their turn."""
PRELOAD = (
    "xwcp.web.puzzles",
    "xwcp.services.save",
    *MODULE_BY_SUFFIX.values(),
    "numpy",
    "puz",
    "xdformat",
    "encodings.cp1252",
)
"""Modules imported once in the fork server the readers' workers fork from (xwcp.runtime.isolation): the readers,
and what they import when they first read (a missing one is skipped)."""
MEDIA_TYPES = {
    "puz": "application/x-crossword",
    "ipuz": "application/json",
    "json": "application/json",
    "xd": "text/plain; charset=utf-8",
    "txt": "text/plain; charset=utf-8",
    "jpz": "application/xml",
}


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
        raise InputError(
            f"the file is {len(data):,} bytes; the most a puzzle file may have is {MAX_FILE_BYTES:,}", name
        )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"puzzle{suffix}"
        path.write_bytes(data)
        try:
            return read_puzzle(path)
        except InputError as exc:  # said without the temporary folder (a zipped .jpz names its member in it)
            raise InputError(exc.message.replace(str(path), name).replace(folder, "").strip(), name, exc.line) from None


def open_job(name: str, data: bytes) -> tuple[str, Any, tuple[str, ...]]:
    """The worker's side of POST /api/open: ("ok", the page's puzzle object, warnings), or ("input", the one line
    of the InputError, ())."""
    try:
        puzzle = read_upload(name, data)
        return "ok", puzzle_json(puzzle), tuple(puzzle.warnings)
    except InputError as exc:
        return "input", str(exc), ()  # put on one line, and cut, by the route's error_response


def export_job(source: object, fmt: str) -> tuple[str, Any, str]:
    """The worker's side of POST /api/export: ("ok", the file's bytes, its download name), or ("input", the one
    line of the InputError, "")."""
    try:
        puzzle = puzzle_from_json(source)
        return "ok", write_format(puzzle, fmt), file_name(puzzle, fmt)
    except InputError as exc:
        return "input", str(exc), ""


def warm_up() -> None:
    """Start the fork server the readers' workers fork from (`xwcp serve` does, so the first open is quick too)."""
    from xwcp.runtime.isolation import start_bounded_workers

    start_bounded_workers(PRELOAD)


PAGE_LISTS = frozenset({"ACROSS", "DOWN", "ENTRIES"})
"""The clue lists the page builds from the grid itself (its across, down and listed entries)."""


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """The page's puzzle object (xwcp's .json document) of `puzzle`. Clue lists that are only the page's own
    (Across, Down and the Entries list xwcp writes, every clue on an entry) are left to the page to rebuild, so
    a grid drawn in xwcp opens as it was drawn; a variety file's own lists go with it."""
    out = to_dict(puzzle)
    if all(
        x.title.strip().upper() in PAGE_LISTS and all(clue.entry is not None for clue in x.clues)
        for x in puzzle.clue_lists
    ):
        out.pop("lists", None)
    return out


def puzzle_from_json(data: object) -> Puzzle:
    """The Puzzle of the page's object (an xwcp .json document; `clues` {slot id: text} may stand for `entries`).

    Raises:
        InputError: not an object, no grid rows, a bad grid (the .json reader's message).
    """
    if not isinstance(data, dict):
        raise InputError('the puzzle must be an object like xwcp\'s .json files: {"grid": [rows], "entries": [...]}')
    clues = data.get("clues")
    if clues is not None:
        if not isinstance(clues, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in clues.items()):
            raise InputError('clues must be an object mapping slot ids (like "12A") to clue text')
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
    import functools
    from collections.abc import Callable

    import anyio
    import anyio.to_thread
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from xwcp.web.http import ApiError, error_response, one_line, parse_json, read_body

    limiter = anyio.CapacityLimiter(OPEN_WORKERS)

    async def bounded(what: str, name: str, job: Callable[..., tuple[str, Any, Any]], *args: object) -> tuple[Any, Any]:
        """`job(*args)` in a bounded worker (module docstring); its answer, or the ApiError saying what went wrong."""
        from xwcp.runtime.isolation import OverLimit, call_bounded

        try:
            async with limiter:
                kind, value, extra = await anyio.to_thread.run_sync(
                    functools.partial(
                        call_bounded,
                        job,
                        args,
                        time_limit_s=OPEN_TIME_LIMIT_S,
                        memory_mb=OPEN_MEMORY_MB,
                        preload=PRELOAD,
                    )
                )
        except OverLimit as exc:
            if exc.limit == "time":
                raise ApiError(
                    422,
                    f"{name}: {what} took longer than {OPEN_TIME_LIMIT_S:g} s and was stopped; "
                    "a puzzle file opens in well under a second",
                ) from None
            raise ApiError(
                413,
                f"{name}: {what} needed more than {OPEN_MEMORY_MB:g} MB of memory and was stopped"
                if exc.limit == "memory"
                else f"{name}: {what} gave too large an answer ({exc})",
            ) from None
        except RuntimeError as exc:
            raise ApiError(422, f"{name}: {what} failed ({exc})") from None
        if kind != "ok":
            raise ApiError(400, value)
        return value, extra

    async def open_file(request: Request) -> Response:
        name = request.query_params.get("name", "")
        try:
            if not name:
                raise ApiError(400, "say the file's name: POST /api/open?name=puzzle.puz with the file as the body")
            data = await read_body(request, MAX_FILE_BYTES)
            puzzle, warnings = await bounded("reading it", name, open_job, name, data)
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        # what reading the file said (a key that unlocked it, a checksum), one line each, as the CLI warns
        return JSONResponse({"puzzle": puzzle, "name": name, "warnings": [one_line(w) for w in warnings[:20]]})

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
            data, download = await bounded("writing it", f"the {fmt} file", export_job, source, fmt)
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        return Response(
            data,
            media_type=MEDIA_TYPES.get(fmt, "application/octet-stream"),
            headers={"Content-Disposition": f'attachment; filename="{download}"'},
        )

    return [Route("/api/open", open_file, methods=["POST"]), Route("/api/export", export_file, methods=["POST"])]
