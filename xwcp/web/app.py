"""The builder's ASGI app: routes that turn JSON into library calls (the library's jobs, the one runner) and back.

Stateless per request: every call sends the whole grid; what a process shares across requests
is the word list (loaded once at start, with the user's personal list layered over it and
reloaded when that file changes: xwcp/web/wordsource.py), a cache of compiled grids keyed by
their content (xwcp/services/analysis_cache.py) and the counters behind the load caps, so any number
of processes can serve the same users (`xwcp serve --workers N`). Blocking library calls run
in worker threads so the event loop keeps serving, in lanes with their own slots, each served client by
client (`Lane`, xwcp/web/lanes.py): the quick questions asked after every keystroke, and the solver's searches
(verified suggestions, the check; short ones apart from long ones; like fills and designs, at a lowered CPU
priority); a fill runs in its own thread and stops (through `Limits.abort`) when the client says stop or goes away (xwcp/web/fill_ws.py). Only the
hosts served are answered (xwcp/web/hosts.py).

A grid travels as JSON in xwcp's text syntax (docs/grids.md): `"grid"` is a list of its
lines (today's plain rows, or rows with `[STAR]` rebus cells, `(A)` circled and `{A}` shaded
cells, `|` bars between cells, lines of `-` under cells with a bar below, and `; colors:` /
`; numbers:` lines). Answers give grids the same way (`xwcp.model.grid_lines`: the rows of
a plain grid); a fill's result and progress messages
also give `"contents"`, the grid's cells row by row ('#', '.', a letter or a rebus string).

Caps, each answered with a JSON error `{"error": ..., "status": N}`:
413 body over MAX_BODY_BYTES or grid over 60x60; 429 too many fills (`max_fills`) or analysis
requests (MAX_PENDING) at once; 409 a search superseded by a newer one of the same client; 503 an analysis
call that waited too long for a worker (QUEUE_CAP_S) or ran past its work-time cap (REQUEST_CAP_S); 408 a
body that stops arriving (xwcp.web.http.BODY_TIMEOUT_S). The caps are read from this module per request. An
uploaded puzzle file is read in a worker process under a time and memory limit (xwcp/web/puzzles.py); anything a
route fails to answer is a JSON 500 (xwcp.web.http).
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from xwcp.analysis.stats import grid_stats
from xwcp.base.errors import InputError
from xwcp.library.jobs import Session
from xwcp.model import MAX_SIDE, grid_lines, read_grid
from xwcp.model.alphabet import Alphabet
from xwcp.runtime.cores import search_processes
from xwcp.services.analysis_cache import MAX_BYTES, Analysed, AnalysisCache, CacheKey, Report
from xwcp.services.types import FilterKind, SlotFilter, default_threads
from xwcp.services.unfillable import unfillable_core, with_core
from xwcp.web import puzzles
from xwcp.web.cluehelp import clue_routes
from xwcp.web.fields import (
    Body,
    filter_field,
    flag_field,
    grid_field,
    grid_source,
    number_field as _number,
    optional_slot_field,
    page_data,
    slot_field,
    written_letters,
)
from xwcp.web.fill_ws import fill_session
from xwcp.web.hosts import HostGuard, allowed_hosts
from xwcp.web.http import ApiError, JsonErrors, error_response as _error, parse_json, read_body
from xwcp.web.lanes import FairLimiter, Superseded, Ticket, client_id, run_lowered
from xwcp.web.languages import LanguageLists, language_field, language_routes
from xwcp.web.personal import word_routes
from xwcp.web.wordsource import WordSource
from xwcp.words.wordlist import WordList

if TYPE_CHECKING:
    from xwcp.services.load import WordPaths
    from xwcp.services.types import FillResult, Problem
    from xwcp.services.unfillable import CoreReport

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
HANG_UP_POLL_S = 0.25
"""How often a running search asks whether its client is still there: a hang-up stops it well within 1 s."""
MAX_FILL_S = 120.0
"""Cap on one autofill's time limit; the page's default is 30 s."""
DEFAULT_FILL_S = 30.0
MAX_PENDING = 256
"""Analysis requests in flight (queued or running) before new ones get 429: enough for 50 busy clients."""
ANALYSIS_THREADS = max(2, default_threads())
"""Quick analysis calls running at once: one per core (numpy and the ctypes kernel release the GIL for much of
the work, so threads use the cores; more threads than cores only add switching)."""
HEAVY_SLOTS = max(1, default_threads() // max(2, search_processes()))
"""Searches (verified suggestions, checks) running at once per process, apart from the quick calls' slots: a
search runs in up to `search_processes()` processes (a server worker's share of the cores, xwcp/web/serve.py),
so this many keep the searches to the cores there are (as before: half the cores, where a search runs in
two); the rest wait their turn, client by client."""
SHORT_SEARCH_S = 2.0
"""A search with at most this time limit (the page's check after a keystroke: 2 s) has a slot of its own per
process, beside HEAVY_SLOTS, so it waits for no 10 s verification."""
MAX_K = 200
"""Most words one suggestion list may ask for."""
PROBE_S = 0.03
"""Budget for entering a slot's words one by one (singleton consistency) until k survive, per suggestion list:
most 15x15 lists need 2-10 ms, but a slot where nearly every word fails is probed to its end (themed 15x15s
of bench/suggest_labels.py: up to 0.1 s and more on a loaded machine). The cap keeps the keystroke's answer
fast (and 50 clients' CPU bounded); the list it leaves short is completed over /ws/suggest."""
FORMATS = ("puz", "ipuz", "jpz", "xd", "json", "txt")
"""Formats the page saves (xwcp.formats writes each)."""
PROGRESS_EVERY_S = 0.1
"""How often a running fill or design streams its progress."""

Job = Callable[[Analysed, CacheKey, Body, threading.Event], Report]
"""An analysis endpoint's work: `job(analysed grid, cache key, request body, abort)` -> the JSON answer (a worker
thread); a search stops when `abort` is set (a newer search of the same client)."""


@dataclass
class ServerState:
    """What the app shares across requests: the word list, the analysis cache and the load counters."""

    source: WordSource
    max_fills: int
    active_fills: int = 0
    pending: int = 0
    fill_threads: set[threading.Thread] = field(default_factory=set)
    """Threads of fills still running (tests check that a disconnect leaves none)."""
    label_aborts: list[threading.Event] = field(default_factory=list)
    """The stop events of the suggestion labellings running (/ws/suggest): background work a fill or a design
    asked for while every slot is taken stops, so the button always works (`socket_job.refuse_when_busy`)."""
    lanes: dict[Lane, FairLimiter] = field(default_factory=dict)
    """The lanes analysis calls wait in for a slot (`_lane`), each made on first use."""
    latest_search: dict[str, Ticket] = field(default_factory=dict)
    """Per client and endpoint, its search in a search lane (a newer one supersedes it, in either lane)."""
    cache: AnalysisCache = field(default_factory=AnalysisCache)
    languages: LanguageLists | None = None

    @property
    def words(self) -> WordList:
        """The word list to use now (the personal list layered over the server's)."""
        return self.source.current()[0]

    def words_for(self, body: Body) -> tuple[WordList, object]:
        """(the list for the request's `language`, its cache token): the server's own for its language, else
        the language's list (xwcp/web/languages.py); ApiError 409 when this server has none."""
        if self.languages is None:
            self.languages = LanguageLists(self.source)
        return self.languages.words(language_field(body))


# ----- the analysis path: a body in, a job in a worker thread under the caps, JSON out ----------


async def _read_json(request: Request) -> Body:
    return parse_json(await read_body(request, MAX_BODY_BYTES))


def _analysed(state: ServerState, body: Body) -> tuple[Analysed, CacheKey]:
    """The request's grid compiled and propagated, from the process's cache when it was seen (see
    xwcp/services/analysis_cache.py); also the cache key."""
    min_score = _number(body, "min_score", 50, 0, 100)
    allow_dupes = flag_field(body, "allow_dupes")
    source = grid_source(body)
    words, token = state.words_for(body)
    if source is None:  # not rows: grid_field says what is wrong
        grid_field(body)
    entry = state.cache.analysed(
        words, token, source, lambda: written_letters(grid_field(body), words.alphabet), min_score, allow_dupes
    )
    return entry, state.cache.key(token, source, min_score, allow_dupes)


class Lane(Enum):
    """Which slots an analysis call waits for (xwcp/web/lanes.py)."""

    QUICK = "quick"
    """Arc consistency and probing: what the page asks after every keystroke (ANALYSIS_THREADS slots)."""
    SEARCH = "search"
    """A solver's search under a time limit over SHORT_SEARCH_S (HEAVY_SLOTS slots)."""
    SHORT_SEARCH = "short search"
    """A search of at most SHORT_SEARCH_S, as the page's check after a keystroke (one slot of its own): it does
    not wait behind long verifications."""


def _quick(body: Body) -> Lane:
    return Lane.QUICK


def _lane(state: ServerState, kind: Lane) -> FairLimiter:
    """The lane of `kind` (made on first use, with the caps as this module has them then): a search's holds one
    request per client and endpoint."""
    lane = state.lanes.get(kind)
    if lane is None:
        slots = {Lane.QUICK: ANALYSIS_THREADS, Lane.SEARCH: HEAVY_SLOTS, Lane.SHORT_SEARCH: 1}[kind]
        lane = state.lanes[kind] = FairLimiter(slots, latest=None if kind is Lane.QUICK else state.latest_search)
    return lane


async def _analyse(
    state: ServerState,
    request: Request,
    job: Job,
    body: Body | None = None,
    *,
    lane_of: Callable[[Body], Lane] = _quick,
) -> Response:
    """Parse the body (unless given), run `job(analysed grid, cache key, body, abort)` in a worker thread under
    the caps, answer JSON. `lane_of(body)` says which slots it waits for; a search runs at a lowered CPU priority
    and supersedes the client's search of the same endpoint still running or waiting (xwcp/web/lanes.py)."""
    try:
        request_body = await _read_json(request) if body is None else body
        kind = lane_of(request_body)
        heavy = kind is not Lane.QUICK
        if state.pending >= MAX_PENDING:
            raise ApiError(429, f"the server is busy ({MAX_PENDING} requests in progress); try again shortly")
        lane = _lane(state, kind)
        state.pending += 1
        # a search supersedes the client's older one of the same kind (a check another check, not a verification)
        ticket = lane.enter(f"{client_id(request.scope)} {request.url.path}" if heavy else client_id(request.scope))
        try:
            try:
                with anyio.fail_after(QUEUE_CAP_S):
                    await lane.acquire(ticket)
            except TimeoutError:
                raise ApiError(
                    503,
                    f"the server is overloaded: the request waited {QUEUE_CAP_S:g} s for a worker; try again shortly",
                ) from None
            except Superseded:
                raise ApiError(409, "a newer search from the same client took this one's place") from None
            if await request.is_disconnected():  # the page moved on (a newer keystroke): skip the work
                return Response(status_code=499)

            def answer() -> Any:
                return _answer(state, job, request_body, ticket.abort)

            try:
                with anyio.fail_after(REQUEST_CAP_S):
                    if heavy:
                        data = await _run_watched(request, ticket.abort, answer)
                    else:
                        data = await anyio.to_thread.run_sync(answer, abandon_on_cancel=True)
            except TimeoutError:
                raise ApiError(
                    503,
                    f"the request worked longer than its {REQUEST_CAP_S:g} s cap; ask with a smaller time_limit_s or k",
                ) from None
            finally:
                ticket.abort.set()  # a search left behind by the cap stops
        finally:
            lane.release(ticket)
            state.pending -= 1
    except ApiError as exc:
        return _error(exc.status, exc.message)
    except InputError as exc:
        return _error(400, str(exc))
    return JSONResponse(data)


async def _run_watched(request: Request, abort: threading.Event, work: Callable[[], Any]) -> Any:
    """`work()` at a lowered priority (`run_lowered`), `abort` set when the client hangs up meanwhile; its
    exception is raised as it is (not in a task group's ExceptionGroup)."""
    done: list[Any] = []
    failed: list[Exception] = []
    async with anyio.create_task_group() as watchers:
        watchers.start_soon(_abort_on_hang_up, request, abort)
        try:
            done.append(await run_lowered(work, abandon_on_cancel=True))
        except Exception as exc:  # raised below, outside the task group
            failed.append(exc)
        finally:
            watchers.cancel_scope.cancel()
    if failed:
        raise failed[0]
    return done[0]


async def _abort_on_hang_up(request: Request, abort: threading.Event) -> None:
    """Set `abort` when the client of `request` goes away, looking every HANG_UP_POLL_S: a search nobody waits
    for stops within a second instead of running to its time limit."""
    while not abort.is_set():
        await anyio.sleep(HANG_UP_POLL_S)
        if await request.is_disconnected():
            abort.set()
            return


def _answer(state: ServerState, job: Job, body: Body, abort: threading.Event) -> Any:
    """`job`'s answer about the request's grid, written as the page reads it (`page_data`)."""
    entry, key = _analysed(state, body)
    return page_data(job(entry, key, body, abort), entry.problem.alphabet)


def _domains(entry: Analysed, key: CacheKey, body: Body, abort: threading.Event) -> Report:
    slot, k = optional_slot_field(body), _number(body, "k", 20, 1, MAX_K)
    return entry.report(
        ("domains", slot and slot.strip().upper(), k),
        lambda: Session.analysed(entry.problem, entry.prop).domains(slot, k=k).as_dict(),
    )


def _heatmap(entry: Analysed, key: CacheKey, body: Body, abort: threading.Event) -> Report:
    def make() -> Report:  # after every keystroke: the named slot, no core search
        answer = Session.analysed(entry.problem, entry.prop).heatmap(core=False)
        return with_core(entry.problem, answer.as_dict(), not answer.is_consistent, search=False)

    return entry.report(("heatmap",), make)


PersonalWords = Callable[[Alphabet], "frozenset[str] | None"]
"""The personal list's words (not its bans) in a language; None when this server uses no personal list."""


def _personal_words(state: ServerState, alphabet: Alphabet) -> frozenset[str] | None:
    if not state.source.personal:
        return None
    from xwcp.words.userwords import personal_path, read_personal

    return frozenset(word for word, score in read_personal(personal_path(alphabet), alphabet).items() if score > 0)


def _suggest(
    entry: Analysed, key: CacheKey, body: Body, abort: threading.Event, personal: PersonalWords | None = None
) -> Report:
    """`/api/suggest`: the slot's top k words that survive being entered (probed until k survive, within
    PROBE_S; the counts say how many were checked); with `verify`, labelled (/ws/suggest streams the labels)
    until `abort` is set."""
    k = _number(body, "k", 20, 1, MAX_K)
    verify = flag_field(body, "verify")
    limit = _number(body, "time_limit_s", 5.0, 0.01, MAX_WORK_S, float)  # the labels' total budget
    slot = slot_field(body)
    seed = _number(body, "seed", 0, 0, 2**31 - 1)
    filter_text = filter_field(body)
    if verify:  # a solver's labels depend on the time it got: asked again, it may settle more (not cached)
        return (
            (
                _filtered_session(entry, slot, filter_text, personal)
                if filter_text
                else Session.analysed(entry.problem, entry.prop)
            )
            .suggest(
                slot,
                k=k,
                verify=True,
                time_limit_s=limit,
                seed=seed,
                count=False,
                probe_max_words=None,
                probe_time_limit_s=PROBE_S,
                abort=abort,
            )
            .as_dict()
        )
    slot_name = slot.strip().upper()
    if filter_text:
        return entry.report(
            ("suggest-filtered", slot_name, k, filter_text),
            lambda: _filtered(entry, slot_name, k, filter_text, personal),
        )

    def make() -> Report:
        from xwcp.analysis.questions import find_slot, suggest_report
        from xwcp.render.questions_json import suggest_json

        # Session.suggest's answer, with the words this grid (or the one it extends) already found dead not
        # probed again: typing into a slot where most words fail costs one probing, not one per keystroke
        slot_id = find_slot(entry.problem, slot_name).id
        dead, alive = entry.known_words(slot_id)
        known_dead = len(dead)
        with entry.probing(slot_id) as make_engine:  # a kept engine, maybe the grid's typing started from
            answer = suggest_json(
                suggest_report(
                    entry.problem,
                    slot_name,
                    k=k,
                    prop=entry.prop,
                    count=False,
                    probe_max_words=None,
                    probe_time_limit_s=PROBE_S,
                    dead_words=dead,
                    alive_words=alive,
                    probe_engine=make_engine,
                )
            )
        entry.keep_found(slot_id, dead, known_dead)
        return answer

    return entry.report(("suggest", slot_name, k), make)


def _filtered_session(entry: Analysed, slot: str, filter_text: str, personal: PersonalWords | None = None) -> Session:
    """A session over the request's grid with the filter box's filter (`~REGEX`, `+TEXT`, `-TEXT`, `!WORD`, or
    `@personal`: only the personal list's words) on `slot`: the grid compiled again with it, so the whole slot is
    searched, not only the words shown."""
    problem = entry.problem
    chosen: str | SlotFilter = filter_text
    if filter_text.lower() == "@personal":
        words = None if personal is None else personal(problem.alphabet)
        if words is None:
            raise ApiError(400, "this server uses no personal list (it was started with --no-personal)")
        if not words:
            raise ApiError(400, "your personal list has no words yet: add some in the Word list panel")
        chosen = SlotFilter(FilterKind.ONLY_FROM, "personal", words)
    return Session(
        problem.grid,
        problem.words,
        min_score=problem.min_score,
        allow_dupes=problem.allow_dupes,
        filters_by_slot={slot.strip().upper(): chosen},
        warn=None,
    )


def _filtered(
    entry: Analysed, slot_name: str, k: int, filter_text: str, personal: PersonalWords | None = None
) -> Report:
    """The slot's suggestions under the filter box's filter (`_filtered_session`)."""
    session = _filtered_session(entry, slot_name, filter_text, personal)
    return session.suggest(slot_name, k=k, count=False, probe_max_words=None, probe_time_limit_s=PROBE_S).as_dict()


def _crossings(entry: Analysed, key: CacheKey, body: Body, abort: threading.Event) -> Report:
    """`/api/crossings`: each crossing of two tagged complete entries (names, abbreviations, obscure words), with
    the reason, for the page to mark (xwcp/services/crossings.py)."""
    from xwcp.services.crossings import unfair_crossings

    return entry.report(("crossings",), lambda: {"crossings": unfair_crossings(entry.problem)})


def _first_suggestions(entry: Analysed, key: CacheKey, body: Body, personal: PersonalWords | None = None) -> Report:
    """The `/api/suggest` answer (unlabelled) that /ws/suggest starts from: the same cached object."""
    first = {name: value for name, value in body.items() if name != "time_limit_s"}  # the labels' budget, not this
    return _suggest(entry, key, {**first, "verify": False}, threading.Event(), personal)


def _stats(entry: Analysed, key: CacheKey, body: Body, abort: threading.Event) -> Report:
    theme = body.get("theme", [])
    if not isinstance(theme, list) or not all(isinstance(name, str) for name in theme):
        raise ApiError(400, 'theme must be a list of slot ids, like ["17A", "3D"]')
    below, substring = _number(body, "below_score", 50, 0, 100), _number(body, "substring", 4, 2, 15)
    names = frozenset(name.upper() for name in theme)
    return entry.report(
        ("stats", names, below, substring),
        lambda: grid_stats(
            entry.problem.grid, entry.problem.words, below_score=below, substring=substring, theme=names
        ),
    )


def _check(
    state: ServerState,
    entry: Analysed,
    key: CacheKey,
    body: Body,
    abort: threading.Event,
    on_verdict: Callable[[Report], None] | None = None,
) -> Report:
    """The fillability check, kept per grid, time limit and seed; `on_verdict` gets an unfillable verdict before
    its core search (a streamed check shows the verdict while the core is sought)."""
    limit = _number(body, "time_limit_s", 2.0, 0.01, MAX_WORK_S, float)
    seed = _number(body, "seed", 0, 0, 2**31 - 1)
    check_key = (key, limit, seed)
    data = state.cache.check(check_key)  # an undo, or the same grid from another user
    if data is None:
        from xwcp.analysis.questions import check_report
        from xwcp.analysis.reports import CheckReport, Verdict
        from xwcp.render.questions_json import check_json

        def explain_core(report: CheckReport, problem: Problem, result: FillResult | None) -> CoreReport | None:
            if on_verdict is not None:  # the verdict first when streamed
                on_verdict(check_json(report, is_verdict_first=False))
            slot = problem.slot_by_name(report.wipeout_slot) if report.wipeout_slot else None
            return unfillable_core(
                problem,
                None if slot is None else slot.id,
                weight_by_slot=None if result is None else result.weight_by_slot,
            )

        # Session.check's report (from the cached propagation), the verdict sent before the core search
        report = check_report(
            entry.problem, time_limit_s=limit, seed=seed, prop=entry.prop, explain_core=explain_core
        )  # every unfillable verdict asks explain_core once
        data = check_json(report)
        if report.verdict is not Verdict.UNKNOWN:  # a proof or a fill holds; an unknown may settle next time
            state.cache.keep_check(check_key, data)
    return data


async def _check_answer(state: ServerState, request: Request) -> Response:
    """The check's answer: one JSON report, or with `?stream=1` NDJSON lines (the verdict, then the report)."""
    job = functools.partial(_check, state)
    if request.query_params.get("stream") in ("1", "true"):
        from xwcp.web.verdict import streamed_check

        try:  # read before streaming: the streamed answer listens on the same channel for a disconnect
            body = await _read_json(request)
        except ApiError as exc:
            return _error(exc.status, exc.message)
        return streamed_check(lambda work: _analyse(state, request, work, body, lane_of=_check_lane), job)
    return await _analyse(state, request, job, lane_of=_check_lane)


def _search_lane(limit_s: float) -> Lane:
    return Lane.SHORT_SEARCH if limit_s <= SHORT_SEARCH_S else Lane.SEARCH


def _check_lane(body: Body) -> Lane:
    return _search_lane(_number(body, "time_limit_s", 2.0, 0.01, MAX_WORK_S, float))


def _suggest_lane(body: Body) -> Lane:
    if not flag_field(body, "verify"):
        return Lane.QUICK
    return _search_lane(_number(body, "time_limit_s", 5.0, 0.01, MAX_WORK_S, float))


# ----- the page, its facts and its presets ----------------------------------------------------


def _info_json(state: ServerState) -> Report:
    """What the page asks at start: the list, its language, the caps, the formats it saves, the personal list,
    the cache's counters."""
    words = state.words
    return {
        "words": {"source": words.source, "n_words": words.n_words},
        "language": {
            "code": words.alphabet.code,
            "name": words.alphabet.name,
            "letters": list(words.alphabet.letters),
            "direction": words.alphabet.direction,
            "size": words.alphabet.size,
        },
        "max_side": MAX_SIDE,
        "max_fills": state.max_fills,
        "active_fills": state.active_fills,
        "pid": os.getpid(),
        "formats": list(FORMATS),
        "personal": {
            "enabled": state.source.personal,
            "path": str(state.source.path),
            "n_words": len(state.source.personal_words),
            "error": state.source.error,
        },
        "cache": {
            "hits": state.cache.hits,
            "misses": state.cache.misses,
            "incremental": state.cache.incremental,
            "bytes": state.cache.held_bytes(),
            "max_bytes": state.cache.max_bytes,
            "evicted": state.cache.evicted,
        },
        "caps": {"max_body_bytes": MAX_BODY_BYTES, "max_work_s": MAX_WORK_S, "max_fill_s": MAX_FILL_S},
    }


def _presets_json() -> list[Report]:
    """The preset patterns, smallest first: each file's name and its grid's lines."""
    out = []
    for path in sorted(PRESETS_DIR.glob("*.txt"), key=lambda p: (int(p.stem.split("x")[0]), p.stem)):
        grid = read_grid(path)  # the file as a grid file is read: bar lines keep their columns
        out.append({"name": path.stem, "rows": grid_lines(grid)})
    return out


# ----- route groups and the app -------------------------------------------------------------


def _page_routes(state: ServerState) -> list[BaseRoute]:
    """The page itself, its icon, `/api/info` and `/api/presets`."""

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html")

    async def info(request: Request) -> Response:  # in a thread: the personal list may be reloaded first
        return JSONResponse(await anyio.to_thread.run_sync(_info_json, state))

    async def presets(request: Request) -> Response:
        return JSONResponse(_presets_json())

    return [
        Route("/", index),
        Route("/favicon.ico", lambda request: Response(status_code=204)),
        Route("/api/info", info),
        Route("/api/presets", presets),
    ]


def _analysis_routes(state: ServerState) -> list[BaseRoute]:
    """The analysis endpoints (POST a grid, get JSON): domains, heat map, check, suggestions, statistics."""

    def post(path: str, job: Job, lane_of: Callable[[Body], Lane] = _quick) -> Route:
        async def endpoint(request: Request) -> Response:
            return await _analyse(state, request, job, lane_of=lane_of)

        return Route(path, endpoint, methods=["POST"], name=path.rsplit("/", 1)[-1])

    async def check(request: Request) -> Response:
        return await _check_answer(state, request)

    return [
        post("/api/domains", _domains),
        post("/api/heatmap", _heatmap),
        Route("/api/check", check, methods=["POST"]),
        post(
            "/api/suggest",
            functools.partial(_suggest, personal=functools.partial(_personal_words, state)),
            _suggest_lane,
        ),
        post("/api/stats", _stats),
        post("/api/crossings", _crossings),
    ]


def _socket_routes(state: ServerState) -> list[BaseRoute]:
    """The fill, design and suggestion WebSockets; PROGRESS_EVERY_S and the fill's time caps are read per session."""

    async def ws_fill(websocket: WebSocket) -> None:
        await fill_session(
            state, websocket, every_s=PROGRESS_EVERY_S, default_time_s=DEFAULT_FILL_S, max_time_s=MAX_FILL_S
        )

    async def ws_design(websocket: WebSocket) -> None:
        from xwcp.web.design_ws import design_session

        await design_session(state, websocket, every_s=PROGRESS_EVERY_S)  # read per request: tests tune it

    async def ws_suggest(websocket: WebSocket) -> None:
        from xwcp.web.suggest_ws import suggest_session

        first = functools.partial(_first_suggestions, personal=functools.partial(_personal_words, state))
        await suggest_session(state, websocket, lambda body: _analysed(state, body), first, max_k=MAX_K)

    return [
        WebSocketRoute("/ws/fill", ws_fill),
        WebSocketRoute("/ws/design", ws_design),
        WebSocketRoute("/ws/suggest", ws_suggest),
    ]


def create_app(
    words_path: WordPaths = None,
    *,
    max_fills: int | None = None,
    words: WordList | None = None,
    hosts: frozenset[str] | None = None,
    personal: bool = True,
    language: str | None = None,
    cache_bytes: int | None = None,
) -> Starlette:
    """The builder app.

    Args:
        words_path: word list file, or several layered in order (as the CLI's repeated --words);
            None for the embedded default list.
        max_fills: autofills allowed at once (default: the cores this process may use).
        words: an already loaded list (tests), instead of `words_path`.
        hosts: the Host names answered (default: 127.0.0.1, localhost, ::1; see xwcp/web/hosts.py).
        personal: layer the user's personal list (xwcp.words.userwords) over the list, and let the page edit it.
        language: the language of the server's own list (`xwcp serve --language`: a pack's code or file): the
            lists are read in its letters (the default list is English only, refused for another language).
        cache_bytes: the most bytes of grids and engines this process keeps between requests (default
            `analysis_cache.MAX_BYTES`; `xwcp serve --cache-mb` shares its megabytes out over the workers).
    """
    if words is None:
        from xwcp.model.alphabet import load_alphabet
        from xwcp.services.load import load_words

        words = load_words(words_path, alphabet=load_alphabet(language))
    state = ServerState(
        source=WordSource(words, personal=personal),
        max_fills=max_fills or default_threads(),
        cache=AnalysisCache(max_bytes=cache_bytes if cache_bytes is not None else MAX_BYTES),
    )
    state.languages = LanguageLists(state.source)
    routes = [
        *_page_routes(state),
        *_analysis_routes(state),
        *puzzles.file_routes(MAX_BODY_BYTES),
        *clue_routes(MAX_BODY_BYTES, _list_files(words_path)),
        *word_routes(state.source, MAX_BODY_BYTES),
        *language_routes(state.languages),
        *_socket_routes(state),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    guard = Middleware(HostGuard, hosts=hosts if hosts is not None else allowed_hosts("127.0.0.1"))
    app = Starlette(
        routes=routes,
        middleware=[Middleware(JsonErrors), guard],
        exception_handlers={404: _not_found, 405: _not_allowed},
    )
    app.state.xwcp = state
    return app


def _list_files(words_path: WordPaths) -> list[str]:
    """The server's word-list files (not the embedded list): their spaced lines give clue help's phrases."""
    paths: list[str | Path | None] = (
        [words_path] if words_path is None or isinstance(words_path, (str, Path)) else list(words_path)
    )
    return [str(p) for p in paths if p is not None and os.path.isfile(p)]


async def _not_found(request: Request, exc: Exception) -> Response:
    return _error(404, f"no such page or endpoint: {request.url.path}")


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return _error(405, f"{request.method} is not allowed on {request.url.path}")
