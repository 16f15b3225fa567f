"""The builder's fill WebSocket (`/ws/fill`): a grid in, the runner's progress streamed, the fill or its verdict out.

Protocol. The client sends one request:
    {"grid": [rows], "time_limit_s": 30, "seed": 0, "quality": false, "min_score": 50, "allow_dupes": false,
     "region": [top, left, bottom, right], "distinct_stems": false}
(everything but `grid` optional), then may send {"type": "stop"}. The server sends {"type": "progress",
"seconds", "nodes", "backtracks", "restarts", "filled_slots", "n_slots"} (with the current branch's
"grid" and "contents" when the backend tells it) about every `every_s` (the app's PROGRESS_EVERY_S); on an
unfillable grid a {"type": "verdict"} first, then {"type": "core-progress"} while the minimal core is sought
(xwcp/web/verdict.py); last {"type": "result", ...} (`_result_json`: with "skipped", the first words the stem
rule turned down and why, and "skipped_words", the same in plain terms once per pair: "EATERY: shares EAT with
ATECROW").
A grid with an open chain (an entry of several words whose boundaries the fill chooses) is filled through
`xwcp.services.chains.fill_chains`, as `xwcp fill` fills it: its progress messages carry "chain_splits" (splits
tried so far) and the chain search's last line as "note"; its result carries "chains" (each chain's words, by
chain name), "entries" by the split's part names (`ROWS.A+1`), and the puzzle's own grid with the letters. A bad request gets
{"type": "error", "status": N, "error": "..."} and the socket closes. A stop or a disconnect sets the
runner's abort event; the session waits for its thread, so nothing is left running.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import anyio
import anyio.to_thread
from starlette.websockets import WebSocket

from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.library.answers import FillAnswer
from xwcp.model import EMPTY, Grid
from xwcp.services.types import Controls, FillResult, Problem, Progress
from xwcp.services.unfillable import unfillable_core
from xwcp.web.fields import Body, flag_field, grid_field, grid_json, number_field, page_data, written_letters
from xwcp.web.http import ApiError
from xwcp.web.socket_job import JobState, read_request, refuse_when_busy, run_socket_job, send_error

if TYPE_CHECKING:
    from xwcp.services.unfillable import CoreProgress, CoreReport
    from xwcp.words.wordlist import WordList


class FillState(JobState, Protocol):
    """What a fill session needs of the server's state: a socket job's, and the word list."""

    @property
    def words(self) -> WordList: ...

    def words_for(self, body: Body) -> tuple[WordList, object]: ...


@dataclass(frozen=True)
class FillRequest:
    """A fill request read from its message: the compiled grid and the runner's options."""

    problem: Problem
    time_limit_s: float
    seed: int
    quality: bool
    chains: bool = False
    """The grid has a chain with an empty cell: its boundaries are the fill's to choose (`fill_chains`)."""


def _controls(body: Body, grid: Grid) -> Controls | None:
    """The fill's controls: `"region"` (`_region`) and `"distinct_stems"` (no two entries of one stem); None when
    the request asks neither."""
    region = _region(body, grid)
    distinct_stems = flag_field(body, "distinct_stems")
    if region is None and not distinct_stems:
        return None
    return Controls(region=region, distinct_stems=distinct_stems)


def _region(body: Body, grid: Grid) -> tuple[int, int, int, int] | None:
    """The region of `"region": [top, left, bottom, right]` (rows and columns from 0, inclusive) as Controls
    take it (from 1), or None when the request fills the whole grid."""
    region = body.get("region")
    if region is None:
        return None
    ok = (
        isinstance(region, list)
        and len(region) == 4
        and all(isinstance(v, int) and not isinstance(v, bool) for v in region)
    )
    if ok:
        top, left, bottom, right = region
        ok = 0 <= top <= bottom < grid.height and 0 <= left <= right < grid.width
    if not ok:
        raise ApiError(
            400,
            "region must be [top, left, bottom, right] (rows and columns from 0, inclusive, "
            f"inside the {grid.width}x{grid.height} grid)",
        )
    return (top + 1, left + 1, bottom + 1, right + 1)  # Controls count from 1


def _problem(words: WordList, body: Body, controls: Controls | None, grid: Grid) -> Problem:
    """The request's grid compiled over the server's list, through the one loader (`xwcp.services.load.load`)."""
    from xwcp.services.load import LoadOptions, load

    options = LoadOptions(
        min_score=number_field(body, "min_score", 50, 0, 100),
        allow_dupes=flag_field(body, "allow_dupes"),
        controls=controls,
    )
    return load(written_letters(grid, words.alphabet), words, options).problem


async def _read_fill(state: FillState, body: Body, *, default_time_s: float, max_time_s: float) -> FillRequest:
    """The fill request in `body`, its grid compiled off the event loop. Raises ApiError or InputError."""
    if body.get("type", "fill") != "fill":
        raise ApiError(400, 'the first message must be a fill request: {"grid": [...], "quality": false}')
    request_grid = grid_field(body)  # read once
    controls = _controls(body, request_grid)
    # compiling is CPU work: off the loop; a region fill compiles only the region's slots as open
    # the request's language's list (loaded on its first use: off the loop too)
    problem = await anyio.to_thread.run_sync(lambda: _problem(state.words_for(body)[0], body, controls, request_grid))
    time_limit_s = number_field(body, "time_limit_s", default_time_s, 0.01, max_time_s, float)
    seed = number_field(body, "seed", 0, 0, 2**31)
    quality = flag_field(body, "quality")
    from xwcp.services.chains import has_open_chain  # numpy under it: imported on a fill request, not at start-up

    chains = has_open_chain(problem.grid)
    if chains and quality:
        raise ApiError(
            400, "a grid with chains takes a plain fill: the quality search does not choose chain boundaries"
        )
    return FillRequest(problem, time_limit_s, seed, quality, chains)


BEST_FILL_BACKEND = "quality-best"
"""`xwcp.search.quality.state.BEST_FILL_BACKEND`, spelled here: the web layer does not import the search."""


def _progress_json(problem: Problem, p: Progress | None, elapsed_s: float) -> Body:
    """A progress message: the search's latest snapshot (with the grid of its current branch when the
    backend tells it), or only the time when it has reported nothing yet."""
    if p is None:
        return {
            "type": "progress",
            "seconds": round(elapsed_s, 2),
            "nodes": 0,
            "backtracks": 0,
            "restarts": 0,
            "filled_slots": 0,
            "n_slots": 0,
        }
    out = {
        "type": "progress",
        "seconds": round(elapsed_s, 2),
        "nodes": p.nodes,
        "backtracks": p.backtracks,
        "restarts": p.restarts,
        "filled_slots": p.filled_slots,
        "n_slots": p.n_slots,
    }
    if p.backend == BEST_FILL_BACKEND:
        out["best"] = True  # a quality search's better fill, whole: the page draws it at once
    if p.partial:
        allowed = problem.fillable_cells  # a region fill shows only the letters it will write
        out.update(
            grid_json(
                problem.grid_with_letters(
                    {cell: letter for cell, letter in dict(p.partial).items() if allowed is None or cell in allowed}
                )
            )
        )
    return out


def _result_json(
    answer: FillAnswer, problem: Problem, seed: int, quality: bool, puzzle_grid: Grid | None = None
) -> Body:
    """A fill's result message for the page, rendered from the library's answer (`xwcp.FillAnswer`, whose
    `as_dict()` is the command line's JSON): status, counters, the grid (filled when there is a fill), the
    words the fill chose by slot and their scores, the quality when a quality search ran. With `puzzle_grid`
    (a grid with chains, `problem` the split filled): the puzzle's own grid with the letters, and "chains"."""
    out = {
        "type": "result",
        "status": answer.status.value,
        "backend": answer.backend,
        "seconds": round(answer.wall_time_s, 3),
        "nodes": answer.stats.nodes,
        "backtracks": answer.stats.backtracks,
        "reason": answer.reason,
        **grid_json(problem.grid),
        "seed": seed,
    }
    if answer.is_filled and answer.report is not None and answer.result is not None:
        entries = answer.result.fills[0]
        out.update(grid_json(answer.report.grid(0)))  # a region fill writes only the region's empty cells
        # the words the fill chose, by slot id; a slot crossing a region's border shows the listed word
        # that proves its cells outside the region can still be completed
        # a Hebrew word's last letter in its final form (its code chars are its letters: one code point each)
        at_end = problem.alphabet.written_at_end if problem.alphabet.final else str
        out["entries"] = {problem.slots[s].name: at_end(entries[s]) for s in problem.open_slot_ids}
        if puzzle_grid is not None:
            from xwcp.services.chains import chain_words, filled_grid

            out.update(grid_json(filled_grid(puzzle_grid, problem, entries)))
            words_by_chain = chain_words(puzzle_grid, problem, entries)
            out["chains"] = {  # a chain a region fill left open (outside the region) has no words to show
                name: [at_end(word) for word in words]
                for name, words in words_by_chain.items()
                if EMPTY not in "".join(words)
            }
        found = answer.fills[0].quality
        if found.min_score is not None and found.mean_score is not None:
            out["scores"] = {"min": found.min_score, "mean": round(found.mean_score, 1)}
        if quality:
            out["quality"] = found.as_dict()
    skipped = answer.stats.extra.get("skipped")
    if skipped:
        out["skipped"] = list(skipped)  # type: ignore[call-overload]
        out["skipped_words"] = list(answer.stats.extra.get("skipped_words", ()))  # type: ignore[call-overload]
    return out


class _FillJob:
    """One autofill's run in its worker thread and what it has told so far, read by the socket's message loop."""

    def __init__(self, request: FillRequest) -> None:
        self.request = request
        self.abort = threading.Event()
        self.latest: Progress | None = None
        self.notes: list[str] = []
        self.verdict: Body | None = None
        """The unfillable verdict, sent before the core search ends (the core takes longer; the verdict is known)."""
        self.core: CoreReport | None = None
        self.core_progress: CoreProgress | None = None
        """The core search's latest snapshot (None: not searched yet)."""
        self.sent_verdict = False
        self.start = time.perf_counter()
        self.problem = request.problem
        """The problem the result belongs to: the request's, or (chains) the split the chain search ended on."""
        self.chain_splits = 0
        self.refused: str | None = None
        """Why the grid cannot be filled as asked (a chain no split fits): sent as a bad request's error."""

    def elapsed_s(self) -> float:
        return time.perf_counter() - self.start

    def _progress(self, progress: Progress) -> None:
        self.latest = progress

    def _core_progress(self, progress: CoreProgress) -> None:
        self.core_progress = progress

    def run(self) -> FillResult:
        """The fill, through the one runner every front door fills through; an unfillable grid's core after it."""
        from xwcp.services import run as runner

        request, problem = self.request, self.request.problem
        if request.chains:
            return self._run_chains()
        result = runner.run_fill(
            problem,
            backend="auto",
            time_limit_s=request.time_limit_s,
            seed=request.seed,
            quality=request.quality,
            say=self.notes.append,
            progress=self._progress,
            abort=self.abort,
        )
        if result.status is FillStatus.UNFILLABLE:
            from xwcp.web.verdict import verdict_json

            self.verdict = verdict_json(problem, result, self.elapsed_s())
            self.core = unfillable_core(
                problem,
                result.slot_id,
                weight_by_slot=result.weight_by_slot,
                progress=self._core_progress,
                abort=self.abort,
            )
        return result

    def _chain_note(self, line: str) -> None:
        self.chain_splits += 1  # `fill_chains` says one line per split it has tried
        self.notes.append(line)

    def _run_chains(self) -> FillResult:
        """The fill of a grid with open chains, as `xwcp fill` does it: splits of the chains tried within the time
        limit; an unfillable verdict (a core outside the chains: no split fills) as `run` gives it."""
        from xwcp.services.chains import fill_chains_of

        request, problem = self.request, self.request.problem
        try:
            found = fill_chains_of(
                problem,
                time_limit_s=request.time_limit_s,
                seed=request.seed,
                say=self._chain_note,
                abort=self.abort,
                progress=self._progress,
            )
        except InputError as exc:  # a chain no split of the list's lengths fits: bad input, said as an error
            self.refused = str(exc)
            return FillResult(FillStatus.ABORTED, "chains", reason=self.refused)
        self.problem, result = found.problem, found.result
        if result.status is FillStatus.UNFILLABLE:
            from xwcp.web.verdict import verdict_json

            self.verdict = verdict_json(found.problem, result, self.elapsed_s())
            self.core = unfillable_core(
                found.problem,
                result.slot_id,
                weight_by_slot=result.weight_by_slot,
                progress=self._core_progress,
                abort=self.abort,
            )
        return result

    def messages(self) -> list[Body]:
        """The message to send now: progress, or the verdict once, then the core search's progress."""
        message = _progress_json(self.request.problem, self.latest, self.elapsed_s())
        if self.notes:
            message["note"] = self.notes[-1].strip()
        if self.request.chains:
            message["chain_splits"] = self.chain_splits
        if self.verdict is not None:
            from xwcp.web.verdict import core_progress_json

            message = (
                self.verdict if not self.sent_verdict else core_progress_json(self.core_progress, self.elapsed_s())
            )
            self.sent_verdict = True
        return [page_data(message, self.request.problem.alphabet)]

    async def send_result(self, websocket: WebSocket, result: FillResult) -> None:
        """The result message (after the verdict when the core came within one progress tick), then close."""
        request, problem = self.request, self.problem
        answer = FillAnswer.build(problem, result, self.elapsed_s(), core=self.core)  # the answer, once
        puzzle_grid = request.problem.grid if request.chains else None
        out = page_data(_result_json(answer, problem, request.seed, request.quality, puzzle_grid), problem.alphabet)
        if request.chains:
            out["chain_splits"] = result.stats.extra.get("chain_splits", self.chain_splits)
        if result.status is FillStatus.UNFILLABLE:
            from xwcp.render.core import core_json

            out["core"] = None if self.core is None else core_json(self.core)
            if self.verdict is not None:
                out["verdict_seconds"] = self.verdict["seconds"]
                if not self.sent_verdict:  # the core came within one progress tick: the verdict still goes first
                    try:
                        await websocket.send_json(page_data(self.verdict, problem.alphabet))
                    except Exception:
                        return
        try:
            await websocket.send_json(out)
            await websocket.close()
        except Exception:
            pass


async def fill_session(
    state: FillState, websocket: WebSocket, *, every_s: float, default_time_s: float, max_time_s: float
) -> None:
    """One autofill: read the request, run the solver in a thread, stream progress every `every_s`, send the result.

    `default_time_s` and `max_time_s` are the fill's time limit when the request names none, and its cap. A
    `{"type": "stop"}` message or a disconnect sets the solver's abort event; the session waits for the solver
    thread to end before it returns, so nothing is left running.
    """
    body = await read_request(websocket)
    if body is None:
        return
    try:
        request = await _read_fill(state, body, default_time_s=default_time_s, max_time_s=max_time_s)
    except ApiError as exc:
        await send_error(websocket, exc.status, exc.message, 1008)
        return
    except InputError as exc:
        await send_error(websocket, 400, str(exc), 1008)
        return
    if await refuse_when_busy(state, websocket, "fills are"):
        return
    job = _FillJob(request)
    end = await run_socket_job(state, websocket, job.run, job.abort, job.messages, what="fill", every_s=every_s)
    if end.gone:
        return
    if end.result is None:
        await send_error(websocket, 500, f"the fill failed: {end.failure}", 1011)
        return
    if job.refused is not None:
        await send_error(websocket, 400, job.refused, 1008)
        return
    await job.send_result(websocket, end.result)
