"""The builder's ASGI app: routes that turn JSON into library calls (the library's jobs, backends.fill) and back.

Stateless per request: every call sends the whole grid; what a process shares across requests
is the word list (loaded once at start, with the user's personal list layered over it and
reloaded when that file changes: xwcp/web/wordsource.py), a cache of compiled grids keyed by
their content (xwcp/web/analysis_cache.py) and the counters behind the load caps, so any number
of processes can serve the same users (`xwcp serve --workers N`). Blocking library calls run
in worker threads so the event loop keeps serving; a fill runs in its own thread and stops
(through `Limits.abort`) when the client says stop or goes away. Only the hosts served are
answered (xwcp/web/hosts.py).

A grid travels as JSON in xwcp's text syntax (README, "Grid files"): `"grid"` is a list of its
lines (today's plain rows, or rows with `[STAR]` rebus cells, `(A)` circled and `{A}` shaded
cells, `|` bars between cells, lines of `-` under cells with a bar below, and `; colors:` /
`; numbers:` lines). Answers give grids the same way (`xwcp.model.grid_lines`: the rows of
a plain grid); a fill's result and progress messages
also give `"contents"`, the grid's cells row by row ('#', '.', a letter or a rebus string).

Caps, each answered with a JSON error `{"error": ..., "status": N}`:
413 body over MAX_BODY_BYTES or grid over 30x30; 429 too many fills (`max_fills`) or analysis
requests (MAX_PENDING) at once; 503 an analysis call that waited too long for a worker (QUEUE_CAP_S)
or ran past its work-time cap (REQUEST_CAP_S).
"""
from __future__ import annotations

import importlib
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from xwcp.words import userwords
from xwcp.library.answers import FillAnswer
from xwcp.library.jobs import Session
from xwcp.compile.controls import Controls
from xwcp.base.errors import InputError
from xwcp.model import MAX_SIDE, Grid, grid_from_rows
from xwcp.model import grid_lines, read_grid
from xwcp.compile.problem import Problem
from xwcp.engine.result import Progress, default_threads
from xwcp.analysis.stats import grid_stats
from xwcp.base.types import FillStatus
from xwcp.web import puzzles
from xwcp.web.http import ApiError, parse_json as _parse_json, read_body
from xwcp.web.http import number_field as _number
from xwcp.web.http import error_response as _error
from xwcp.web.analysis_cache import AnalysisCache
from xwcp.web.hosts import HostGuard, allowed_hosts
from xwcp.web.personal import word_routes
from xwcp.web.socket_job import read_request, refuse_when_busy, run_socket_job, send_error
from xwcp.web.wordsource import WordSource
from xwcp.words.wordlist import WordList

STATIC_DIR = Path(__file__).with_name("static")
PRESETS_DIR = Path(__file__).with_name("presets")

MAX_BODY_BYTES = 256 * 1024
"""A 30x30 grid is under 1 KB; clues for the export fit easily; anything larger is a mistake or abuse."""
MAX_WORK_S = 10.0
"""Cap on one analysis request's solver time (check, verified suggestions); AC-3 alone takes milliseconds."""
REQUEST_CAP_S = 20.0
"""Work time after which an analysis request is answered 503 (its solver time, a core search, AC-3 and ranking)."""
QUEUE_CAP_S = 60.0
"""Wall time a request may wait for a worker before it is answered 503 (the server is overloaded)."""
MAX_FILL_S = 120.0
"""Cap on one autofill's time limit; the page's default is 30 s."""
DEFAULT_FILL_S = 30.0
MAX_PENDING = 256
"""Analysis requests in flight (queued or running) before new ones get 429: enough for 50 busy clients."""
ANALYSIS_THREADS = max(2, default_threads())
"""Analysis calls running at once: one per core (numpy and the ctypes kernel release the GIL for much of
the work, so threads use the cores; more threads than cores only add switching)."""
MAX_K = 200
"""Most words one suggestion list may ask for."""
FORMATS = ("puz", "ipuz", "jpz", "xd", "json", "txt")
"""Formats the page opens and saves when xwcp.formats reads and writes them."""
PROGRESS_EVERY_S = 0.1
"""How often a running fill or design streams its progress."""
CORE_TIME_S = 5.0
"""Time the minimal-core search may take for one answer (issue 15 measured cores within 5 s on the bench grids)."""


@dataclass
class ServerState:
    """What the app shares across requests: the word list, the analysis cache and the load counters."""

    source: WordSource
    max_fills: int
    active_fills: int = 0
    pending: int = 0
    fill_threads: set = field(default_factory=set)
    """Threads of fills still running (tests check that a disconnect leaves none)."""
    limiter: anyio.CapacityLimiter | None = None
    cache: AnalysisCache = field(default_factory=AnalysisCache)

    @property
    def words(self) -> WordList:
        """The word list to use now (the personal list layered over the server's)."""
        return self.source.current()[0]


# ----- request parsing: JSON in, library arguments out -------------------------------------

async def _read_json(request: Request) -> dict:
    return _parse_json(await read_body(request, MAX_BODY_BYTES))


def _flag(body: dict, key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise ApiError(400, f"{key} must be true or false, got {value!r}")
    return value


_CELL_TOKEN = re.compile(r"\[[^\]]*\]|[^\s|(){}\[\]]")
"""One cell of a grid row in the text syntax (a rebus `[...]` or one character), for the size check."""


def _grid(body: dict) -> Grid:
    rows = body.get("grid")
    if rows is None:
        raise ApiError(400, "missing \"grid\": a list of row strings, '#' block, '.' empty, A-Z letters")
    if isinstance(rows, list):
        cell_rows = [r for r in rows if isinstance(r, str) and r.strip() and not r.lstrip().startswith(";")
                     and not set(r.strip()) <= {"-", " "}]  # not the bar lines under rows, nor comments
        width = max((len(_CELL_TOKEN.findall(r)) for r in cell_rows), default=0)
        if len(cell_rows) > MAX_SIDE or width > MAX_SIDE:
            raise ApiError(413, f"the grid is {width}x{len(cell_rows)}; the largest supported is "
                                f"{MAX_SIDE}x{MAX_SIDE}")
    try:
        return grid_from_rows(rows, "grid")
    except InputError as exc:
        raise ApiError(400, str(exc)) from None


def _grid_json(grid: Grid) -> dict:
    """A grid for the page: its lines (`"grid"`) and its cells row by row (`"contents"`)."""
    return {"grid": grid_lines(grid),
            "contents": [list(grid.cells[r * grid.width:(r + 1) * grid.width]) for r in range(grid.height)]}


def _problem(state: ServerState, body: dict, controls: Controls | None = None, grid: Grid | None = None) -> Problem:
    """The request's grid (`grid` when already read from it) compiled over the server's list, through the one
    loader (`xwcp.services.load.load`)."""
    from xwcp.services.load import load

    grid = _grid(body) if grid is None else grid
    min_score = _number(body, "min_score", 50, 0, 100)
    return load(grid, state.words, min_score=min_score, allow_dupes=_flag(body, "allow_dupes"),
                controls=controls).problem


def _analysed(state: ServerState, body: dict):
    """The request's grid compiled and propagated, from the process's cache when it was seen (see
    xwcp/web/analysis_cache.py); also the cache key."""
    min_score = _number(body, "min_score", 50, 0, 100)
    allow_dupes = _flag(body, "allow_dupes")
    rows = body.get("grid")
    source = tuple(rows) if isinstance(rows, list) and all(isinstance(r, str) for r in rows) else None
    words, token = state.source.current()
    if source is None:  # not rows: _grid says what is wrong
        _grid(body)
    entry = state.cache.analysed(words, token, source, lambda: _grid(body), min_score, allow_dupes)
    return entry, state.cache.key(token, source, min_score, allow_dupes)


def _slot_name(body: dict, required: bool) -> str | None:
    slot = body.get("slot")
    if slot is None and not required:
        return None
    if not isinstance(slot, str) or not slot.strip():
        raise ApiError(400, "missing \"slot\": a slot id such as \"1A\" or \"12D\"")
    return slot


# ----- optional features from other modules: used when importable -------------------------

def _optional(module: str, attr: str):
    try:
        return getattr(importlib.import_module(module), attr, None)
    except ImportError:
        return None


def quality_fill_function():
    """The quality search's `fill_quality(problem, backend, limits, say=...)` (issue 14) when it exists, else None."""
    return _optional("xwcp.search.quality", "fill_quality")


def export_formats() -> list[str]:
    """The download formats xwcp.formats (issue 15) can write here, or [] when it is not there."""
    suffixes = _optional("xwcp.formats", "MODULE_BY_SUFFIX") or {}
    if _optional("xwcp.formats", "write_puzzle") is None:
        return []
    return [fmt for fmt in FORMATS if f".{fmt}" in suffixes
            and _optional(suffixes[f".{fmt}"], "write") is not None]


def unfillable_core(problem: Problem, slot_id: int | None, *, weight_by_slot=None, progress=None,
                    abort: threading.Event | None = None) -> dict | None:
    """The slots to outline on an unfillable grid: the minimal core from xwcp.search.core (issue 15) when it
    exists, else the one slot the proof names (`slot_id`). `weight_by_slot` is the proof's
    (`FillResult.weight_by_slot`); `progress` and `abort` are `xwcp.search.core.find_core`'s (issue 29).

    Returns:
        {"slots": [names], "cells": [[row, col], ...], "minimal": bool, ...} or None when nothing is known.
    """
    explain = _optional("xwcp.search.core", "explain")
    if explain is not None:
        core = explain(problem, seed_slot_id=slot_id, time_limit_s=CORE_TIME_S, weight_by_slot=weight_by_slot,
                       progress=progress, abort=abort)
        if core is not None:
            return core
    if slot_id is None:
        return None
    return _core_dict(problem, [slot_id], False)


def _with_core(problem: Problem, data: dict, is_unfillable: bool, search: bool = True) -> dict:
    """`data` (a report naming the dead slot as "slot") with a "core" to outline when the grid is unfillable;
    without `search`, the named slot only."""
    if is_unfillable and "core" not in data:
        slot = problem.slot_by_name(data["slot"]) if data.get("slot") else None
        slot_id = None if slot is None else slot.id
        data["core"] = unfillable_core(problem, slot_id) if search else (
            None if slot_id is None else _core_dict(problem, [slot_id], False))
    return data


def _core_dict(problem: Problem, slot_ids: list[int], minimal: bool) -> dict:
    width = problem.grid.width
    cells = sorted({cell for s in slot_ids for cell in problem.slot_cells(s)})
    return {"slots": [problem.slots[s].name for s in slot_ids],
            "cells": [[cell // width, cell % width] for cell in cells], "minimal": minimal}


# ----- HTTP routes ----------------------------------------------------------------------------

def create_app(words_path: str | Path | list | None = None, *, max_fills: int | None = None,
               words: WordList | None = None, hosts: frozenset[str] | None = None,
               personal: bool = True) -> Starlette:
    """The builder app.

    Args:
        words_path: word list file, or several layered in order (as the CLI's repeated --words);
            None for the embedded default list.
        max_fills: autofills allowed at once (default: the cores this process may use).
        words: an already loaded list (tests), instead of `words_path`.
        hosts: the Host names answered (default: 127.0.0.1, localhost, ::1; see xwcp/web/hosts.py).
        personal: layer the user's personal list (xwcp.words.userwords) over the list, and let the page edit it.
    """
    if words is None:
        from xwcp.services.session import load_words

        words = load_words(words_path)
    state = ServerState(source=WordSource(words, personal=personal), max_fills=max_fills or default_threads())

    async def analyse(request: Request, job, body: dict | None = None) -> Response:
        """Parse the body (unless given), run `job(analysed grid, cache key, body)` in a worker thread under the
        caps, answer JSON."""
        try:
            body = await _read_json(request) if body is None else body
            if state.pending >= MAX_PENDING:
                raise ApiError(429, f"the server is busy ({MAX_PENDING} requests in progress); try again shortly")
            if state.limiter is None:
                state.limiter = anyio.CapacityLimiter(ANALYSIS_THREADS)
            state.pending += 1
            try:
                try:
                    with anyio.fail_after(QUEUE_CAP_S):
                        await state.limiter.acquire()
                except TimeoutError:
                    raise ApiError(503, f"the server is overloaded: the request waited {QUEUE_CAP_S:g} s "
                                        "for a worker; try again shortly") from None
                try:
                    if await request.is_disconnected():  # the page moved on (a newer keystroke): skip the work
                        return Response(status_code=499)
                    with anyio.fail_after(REQUEST_CAP_S):
                        data = await anyio.to_thread.run_sync(lambda: job(*_analysed(state, body), body),
                                                              abandon_on_cancel=True)
                except TimeoutError:
                    raise ApiError(503, f"the request worked longer than its {REQUEST_CAP_S:g} s cap; "
                                        "ask with a smaller time_limit_s or k") from None
                finally:
                    state.limiter.release()
            finally:
                state.pending -= 1
        except ApiError as exc:
            return _error(exc.status, exc.message)
        except InputError as exc:
            return _error(400, str(exc))
        return JSONResponse(data)

    async def domains(request: Request) -> Response:
        def job(entry, key, body):
            slot, k = _slot_name(body, False), _number(body, "k", 20, 1, MAX_K)
            return entry.report(("domains", slot and slot.strip().upper(), k), lambda: Session.analysed(
                entry.problem, entry.prop).domains(slot, k=k).as_dict())
        return await analyse(request, job)

    async def heatmap(request: Request) -> Response:
        def job(entry, key, body):  # after every keystroke: the named slot, no core search
            def make():
                data = Session.analysed(entry.problem, entry.prop).heatmap(core=False).as_dict()
                return _with_core(entry.problem, data, data["status"] != "consistent", search=False)
            return entry.report(("heatmap",), make)
        return await analyse(request, job)

    async def check(request: Request) -> Response:
        def job(entry, key, body, on_verdict=None):
            limit = _number(body, "time_limit_s", 2.0, 0.01, MAX_WORK_S, float)
            seed = _number(body, "seed", 0, 0, 2**31 - 1)
            check_key = (key, limit, seed)
            data = state.cache.check(check_key)  # an undo, or the same grid from another user
            if data is None:
                from xwcp.analysis.questions import check_report

                def explain_core(report, problem, result):  # the verdict first when streamed (issue 29)
                    if on_verdict is not None:
                        on_verdict(dict(report))
                    slot = problem.slot_by_name(report["slot"]) if report.get("slot") else None
                    return unfillable_core(problem, None if slot is None else slot.id,
                                           weight_by_slot=None if result is None else result.weight_by_slot)
                # Session.check's report (from the cached propagation), the verdict sent before the core search
                data = check_report(entry.problem, time_limit_s=limit, seed=seed, prop=entry.prop,
                                    explain_core=explain_core)  # every unfillable verdict asks explain_core once
                if data["verdict"] != "unknown":  # a proof or a fill holds; "unknown" may settle next time
                    state.cache.keep_check(check_key, data)
            return data
        if request.query_params.get("stream") in ("1", "true"):
            from xwcp.web.verdict import streamed_check

            try:  # read before streaming: the streamed answer listens on the same channel for a disconnect
                body = await _read_json(request)
            except ApiError as exc:
                return _error(exc.status, exc.message)
            return streamed_check(lambda work: analyse(request, work, body), job)
        return await analyse(request, job)

    async def suggest(request: Request) -> Response:
        def job(entry, key, body):
            k = _number(body, "k", 20, 1, MAX_K)
            verify = _flag(body, "verify")
            limit = _number(body, "time_limit_s", 5.0, 0.01, MAX_WORK_S, float)  # the labels' total budget
            slot = _slot_name(body, True)
            seed = _number(body, "seed", 0, 0, 2**31 - 1)

            def make():
                return Session.analysed(entry.problem, entry.prop).suggest(
                    slot, k=k, verify=verify, time_limit_s=limit, seed=seed).as_dict()
            if verify:  # a solver's labels depend on the time it got: asked again, it may settle more
                return make()
            return entry.report(("suggest", slot.strip().upper(), k), make)
        return await analyse(request, job)

    async def stats(request: Request) -> Response:
        def job(entry, key, body):
            theme = body.get("theme", [])
            if not isinstance(theme, list) or not all(isinstance(name, str) for name in theme):
                raise ApiError(400, "theme must be a list of slot ids, like [\"17A\", \"3D\"]")
            below, substring = _number(body, "below_score", 50, 0, 100), _number(body, "substring", 4, 2, 15)
            names = frozenset(name.upper() for name in theme)
            return entry.report(("stats", names, below, substring), lambda: grid_stats(
                entry.problem.grid, entry.problem.words, below_score=below, substring=substring, theme=names))
        return await analyse(request, job)

    async def info(request: Request) -> Response:
        words = state.words
        return JSONResponse({
            "words": {"source": words.source, "n_words": words.n_words},
            "max_side": MAX_SIDE, "max_fills": state.max_fills, "active_fills": state.active_fills, "pid": os.getpid(),
            "quality": quality_fill_function() is not None, "formats": export_formats(),
            "core": _optional("xwcp.search.core", "explain") is not None,
            "design": _optional("xwcp.designer.search", "design") is not None,
            "personal": {"enabled": state.source.personal, "path": str(userwords.personal_path()),
                         "n_words": len(state.source.personal_words), "error": state.source.error},
            "cache": {"hits": state.cache.hits, "misses": state.cache.misses,
                      "incremental": state.cache.incremental},
            "caps": {"max_body_bytes": MAX_BODY_BYTES, "max_work_s": MAX_WORK_S, "max_fill_s": MAX_FILL_S}})

    async def presets(request: Request) -> Response:
        out = []
        for path in sorted(PRESETS_DIR.glob("*.txt"), key=lambda p: (int(p.stem.split("x")[0]), p.stem)):
            grid = read_grid(path)  # the file as a grid file is read: bar lines keep their columns
            out.append({"name": path.stem, "rows": grid_lines(grid)})
        return JSONResponse(out)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html")

    async def ws_fill(websocket: WebSocket) -> None:
        await _fill_session(state, websocket)

    async def ws_design(websocket: WebSocket) -> None:
        from xwcp.web.design_ws import design_session

        await design_session(state, websocket, every_s=PROGRESS_EVERY_S)  # read per request: tests tune it

    routes = [
        Route("/", index),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/info", info),
        Route("/api/presets", presets),
        Route("/api/domains", domains, methods=["POST"]),
        Route("/api/heatmap", heatmap, methods=["POST"]),
        Route("/api/check", check, methods=["POST"]),
        Route("/api/suggest", suggest, methods=["POST"]),
        Route("/api/stats", stats, methods=["POST"]),
        *puzzles.file_routes(MAX_BODY_BYTES),
        *word_routes(state.source, MAX_BODY_BYTES),
        WebSocketRoute("/ws/fill", ws_fill),
        WebSocketRoute("/ws/design", ws_design),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    guard = Middleware(HostGuard, hosts=hosts if hosts is not None else allowed_hosts("127.0.0.1"))
    app = Starlette(routes=routes, middleware=[guard], exception_handlers={404: _not_found, 405: _not_allowed})
    app.state.xwcp = state
    return app


async def _not_found(request: Request, exc) -> Response:
    return _error(404, f"no such page or endpoint: {request.url.path}")


async def _not_allowed(request: Request, exc) -> Response:
    return _error(405, f"{request.method} is not allowed on {request.url.path}")


# ----- the fill WebSocket ---------------------------------------------------------------------

def _region_controls(body: dict, grid: Grid) -> Controls | None:
    """The fill's controls for `"region": [top, left, bottom, right]` (rows and columns from 0, inclusive),
    or None when the request fills the whole grid."""
    region = body.get("region")
    if region is None:
        return None
    ok = (isinstance(region, list) and len(region) == 4 and all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in region))
    if ok:
        top, left, bottom, right = region
        ok = 0 <= top <= bottom < grid.height and 0 <= left <= right < grid.width
    if not ok:
        raise ApiError(400, "region must be [top, left, bottom, right] (rows and columns from 0, inclusive, "
                            f"inside the {grid.width}x{grid.height} grid)")
    return Controls(region=(top + 1, left + 1, bottom + 1, right + 1))  # Controls count from 1


def _progress_json(problem: Problem, p: Progress | None, elapsed_s: float) -> dict:
    """A progress message: the search's latest snapshot (with the grid of its current branch when the
    backend tells it), or only the time when it has reported nothing yet."""
    if p is None:
        return {"type": "progress", "seconds": round(elapsed_s, 2), "nodes": 0, "backtracks": 0, "restarts": 0,
                "filled_slots": 0, "n_slots": 0}
    out = {"type": "progress", "seconds": round(elapsed_s, 2), "nodes": p.nodes, "backtracks": p.backtracks,
           "restarts": p.restarts, "filled_slots": p.filled_slots, "n_slots": p.n_slots}
    if p.partial:
        allowed = problem.fillable_cells  # a region fill shows only the letters it will write
        out.update(_grid_json(problem.grid_with_letters({cell: letter for cell, letter in dict(p.partial).items()
                                                         if allowed is None or cell in allowed})))
    return out


def _result_json(answer: FillAnswer, problem: Problem, seed: int, quality: bool) -> dict:
    """A fill's result message for the page, rendered from the library's answer (`xwcp.FillAnswer`, whose
    `as_dict()` is the command line's JSON): status, counters, the grid (filled when there is a fill), the
    words the fill chose by slot and their scores, the quality when a quality search ran."""
    out = {"type": "result", "status": answer.status.value, "backend": answer.backend,
           "seconds": round(answer.wall_time_s, 3), "nodes": answer.stats.nodes,
           "backtracks": answer.stats.backtracks, "reason": answer.reason, **_grid_json(problem.grid), "seed": seed}
    if answer.is_filled and answer.report is not None and answer.result is not None:
        entries = answer.result.fills[0]
        out.update(_grid_json(answer.report.grid(0)))  # a region fill writes only the region's empty cells
        # the words the fill chose, by slot id; a slot crossing a region's border shows the listed word
        # that proves its cells outside the region can still be completed
        out["entries"] = {problem.slots[s].name: entries[s] for s in problem.open_slot_ids}
        found = answer.fills[0].quality
        if found.min_score is not None and found.mean_score is not None:
            out["scores"] = {"min": found.min_score, "mean": round(found.mean_score, 1)}
        if quality:
            out["quality"] = found.as_dict()
    return out


async def _fill_session(state: ServerState, websocket: WebSocket) -> None:
    """One autofill: read the request, run the solver in a thread, stream progress, send the result.

    A `{"type": "stop"}` message or a disconnect sets the solver's abort event; the session
    waits for the solver thread to end before it returns, so nothing is left running.
    """
    from xwcp.services import session

    text = await read_request(websocket)
    if text is None:
        return
    try:
        body = _parse_json(text)
        if body.get("type", "fill") != "fill":
            raise ApiError(400, "the first message must be a fill request: {\"grid\": [...], \"quality\": false}")
        request_grid = _grid(body)  # read once
        controls = _region_controls(body, request_grid)
        # compiling is CPU work: off the loop; a region fill compiles only the region's slots as open
        problem = await anyio.to_thread.run_sync(_problem, state, body, controls, request_grid)
        time_limit_s = _number(body, "time_limit_s", DEFAULT_FILL_S, 0.01, MAX_FILL_S, float)
        seed = _number(body, "seed", 0, 0, 2**31)
        quality = _flag(body, "quality")
        quality_fill = quality_fill_function()
        if quality and quality_fill is None:
            raise ApiError(501, "quality fill is not available in this build (xwcp.search.quality is missing)")
    except ApiError as exc:
        await send_error(websocket, exc.status, exc.message, 1008)
        return
    except InputError as exc:
        await send_error(websocket, 400, str(exc), 1008)
        return
    if await refuse_when_busy(state, websocket, "fills are"):
        return
    abort = threading.Event()
    latest: list[Progress | None] = [None]
    notes: list[str] = []

    core: list[dict | None] = [None]
    verdict: list[dict | None] = [None]  # the unfillable verdict, sent before the core search ends (issue 29)
    core_progress: list[object] = []  # [latest xwcp.search.core.CoreProgress or None] once the core search runs
    sent_verdict = [False]

    def run():  # the one runner every front door fills through
        result = session.run_fill(problem, backend="auto", time_limit_s=time_limit_s, seed=seed, quality=quality,
                                  say=notes.append, progress=lambda p: latest.__setitem__(0, p), abort=abort)
        if result.status is FillStatus.UNFILLABLE:
            from xwcp.web.verdict import verdict_json

            verdict[0] = verdict_json(problem, result, time.perf_counter() - start)
            core_progress.append(None)
            core[0] = unfillable_core(problem, result.slot_id, weight_by_slot=result.weight_by_slot,
                                      progress=lambda p: core_progress.__setitem__(0, p), abort=abort)
        return result

    def messages() -> list[dict]:
        message = _progress_json(problem, latest[0], time.perf_counter() - start)
        if notes:
            message["note"] = notes[-1].strip()
        if verdict[0] is not None:  # the verdict once, then the core search's progress
            from xwcp.web.verdict import core_progress_json

            message = (verdict[0] if not sent_verdict[0] else
                       core_progress_json(core_progress[0], time.perf_counter() - start))
            sent_verdict[0] = True
        return [message]

    start = time.perf_counter()
    end = await run_socket_job(state, websocket, run, abort, messages, what="fill", every_s=PROGRESS_EVERY_S)
    result = end.result
    if end.gone:
        return
    if result is None:
        await send_error(websocket, 500, f"the fill failed: {end.failure}", 1011)
        return
    answer = FillAnswer.build(problem, result, time.perf_counter() - start, core=core[0])  # the answer, once
    out = _result_json(answer, problem, seed, quality)
    if result.status is FillStatus.UNFILLABLE:
        out["core"] = core[0]
        if verdict[0] is not None:
            out["verdict_seconds"] = verdict[0]["seconds"]
            if not sent_verdict[0]:  # the core came within one progress tick: the verdict still goes first
                try:
                    await websocket.send_json(verdict[0])
                except Exception:
                    return
    try:
        await websocket.send_json(out)
        await websocket.close()
    except Exception:
        pass
