"""The default backend: our compiled search, raced against a portfolio of rivals on the other cores when it is slow.

Most grids are filled (or proven unfillable) by `backtrack` in well under a second, so
`auto` starts it alone. If it has not answered after RACE_DELAY_S, forked child processes, one
per core this process may use beyond its own (xwcp/runtime/cores.py: capped by
`Limits.max_processes` or XWCP_MAX_PROCESSES, none with XWCP_NO_RACE; one, RACE_LEAST, on one core
where nothing caps it), run the rivals
(`rival_setting`: differently tuned copies, each under its own seed) on the same problem for the
remaining time while `backtrack` goes on in this process; the first definite answer (a fill, or
a proof that none exists) wins and the others are stopped: the children are killed, or the kernel
is aborted between time slices. With two processes the one rival is the one it always was.
Fork keeps the start cheap (the child inherits the compiled problem; nothing is pickled but
the answer). Asking for several fills (`count`) runs `backtrack` alone. An alphabet the compiled search does not
take (more letters than its tables hold: akshara, kana) runs on `cpsat` instead (xwcp/engine/wide.py).
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from xwcp.backends import backtrack
from xwcp.base.types import FillStatus
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, Limits, Progress
from xwcp.engine.wide import kernel_takes
from xwcp.runtime.cores import search_processes

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

NAME = "auto"

RACE_DELAY_S = 1.0
"""Seconds `backtrack` runs alone before the rival starts; below this, a second process only costs."""
RACE_LEAST = 2
"""Processes the race runs where nothing caps them, however few the cores: on one core the rival shares it."""
RIVAL = "backtrack"
"""The backend raced against `backtrack`: a second, differently tuned copy of our own search.

Hard grids make restarting search heavy-tailed: the same grid takes 1 s with one restart
schedule and seed and 20 s with another, so a second search with longer runs, noisy word
choice and another seed covers the first one's bad luck (docs/design-notes.md, "The `auto` race").
"""
RIVAL_EXTRA = {"restart_base": 1000, "noise": 0.5, "branch": "word"}
"""Tuning of the rival when it is `backtrack`; its seed is the caller's seed + 1.

Rivals that differ in kind were measured against it on blocked grids (stock themeless,
seeds 0-9, whole command, interleaved in one run, load 4-7): letter branching had the lighter
tail but the slower middle (median 10.6 s, max 20.1 s against 7.3 s and 19.3 s; a second run
13.8 s and 31.6 s against 10.1 s and 38.6 s), so its lower max/median came from a worse median;
learning at every failure (`learn` 2) gave median 6.3 s, max 25.1 s. Neither settles van Beek
23.06 or 23.10 with SCOWL-55 in 60 s (letters filled 23.06 once in 35 s, seed 0; seeds 1 and 2
did not), so the rival stays this one."""
RIVAL_EXTRA_OPEN = {"branch": "letter", "slot_rule": 1}
"""The rival on open grids: letters too, but the cell with the fewest letters first (pure dom),
not dom/wdeg. The two differ in kind, and each wins its own half (one run, load ~3.7,
`backtrack` alone): dom/wdeg fills XCSP lex 4x8 in 0.68 s and open 6x6 @100k in 0.49 s (pure
dom 2.46 s, 1.24 s), pure dom proves open 7x7 @50k unfillable in 11.9 s and open 6x6 @50k in
6.2 s (dom/wdeg 21.3 s, 11.1 s). Fills mostly end before the race starts; proofs go to the rival."""
PORTFOLIO_EXTRA: tuple[dict[str, Any], ...] = (
    RIVAL_EXTRA,
    {"branch": "word"},
    {"restart_base": 300, "noise": 0.35, "branch": "word"},
    {"branch": "letter"},
    {"restart_base": 3000, "noise": 0.8, "branch": "word"},
    {"learn": 2, "branch": "word"},
)
"""Tunings of the rivals on blocked grids, rival 1 first (RIVAL_EXTRA, so two processes race as they always did),
then in turn, each rival under a seed of its own (the caller's + its rank).

A portfolio against the heavy tail: the main search's own tuning under another seed, restart schedules
between and beyond the two (Luby base 300 and 3000 failures) with less and more noise, letter branching
(the lighter tail measured above) and learning at every failure (median 6.3 s, max 25.1 s above). Past
the end of the list the tunings repeat under new seeds."""
PORTFOLIO_EXTRA_OPEN: tuple[dict[str, Any], ...] = (
    RIVAL_EXTRA_OPEN,
    {"branch": "letter"},
    {"branch": "letter", "slot_rule": 1, "restart_base": 1000, "noise": 0.5},
    {"branch": "letter", "restart_base": 1000, "noise": 0.5},
    {"branch": "letter", "slot_rule": 1, "restart_base": 300, "noise": 0.35},
    {"branch": "letter", "restart_base": 3000, "noise": 0.8},
)
"""Tunings of the rivals on open grids, as PORTFOLIO_EXTRA: letter branching throughout (word branching is
20x slower there), the two slot rules (dom/wdeg fills, pure dom proves) under several restart schedules."""
RIVAL_LARGE = "grow"
"""The rival on grids of GROW_MIN_CELLS cells and more: fill region by region from the hardest slot
(xwcp/backends/grow.py), a search of another kind than the main one, with the caller's own seed.

On van Beek 23.06 and 23.10 with SCOWL-55 the second `backtrack` settled neither in 60 s; `grow`
alone (whole command, one core) filled 23.06 in 7.6 s and 23.10 in 22.4 s with seed 0 (seed 1:
neither; seed 2: 23.06 in 43 s), see bench/README.md, the section on van Beek 23.06 and 23.10."""
GROW_MIN_CELLS = 500
"""Grids with at least this many cells (23x23 and up) race `grow`; the Herald 15x15s and 21x21s (225
and 441 cells) keep the `backtrack` rival, so their fills are unchanged by construction."""
OPEN_BLOCK_FRACTION = 0.05
"""Grids with fewer blocks than this share of their cells are searched by letters first.

On open grids every cell is checked and the words are short, so branching on a cell's letter
(xwcp/engine/_bitsearch.c, `branch_mode` 1) splits the search far more evenly than choosing a whole
word: XCSP lex 4x8 0.87 s vs 18.8 s, open 6x6 at 100k words 0.83 s vs 19.9 s (one run, loaded
machine, `backtrack` alone). On blocked grids it is the other way round (stock themeless 17 s
vs 1.7 s), so they keep word branching (and the word-branching rival, RIVAL_EXTRA)."""


def branching_for(problem: Problem) -> str:
    """ "letter" for open grids (few blocks), else "word" (see OPEN_BLOCK_FRACTION).

    A barred grid has no blocks and counts as open: its entries are short and mostly checked,
    as an open grid's are (on the harder generated barred 21x21s letters filled in 0.2-3.3 s
    where word branching took 1.5-7.3 s, seeds 0-2, one run; on the 15x15s both took under 0.7 s).
    """
    from xwcp.model import BLOCK

    cells = problem.grid.cells
    blocks = sum(1 for c in cells if c == BLOCK)
    return "letter" if blocks < OPEN_BLOCK_FRACTION * len(cells) else "word"


def rival_for(problem: Problem) -> str:
    """The rival backend for `problem`: RIVAL_LARGE on grids of GROW_MIN_CELLS cells or more, else RIVAL."""
    return RIVAL_LARGE if len(problem.grid.cells) >= GROW_MIN_CELLS else RIVAL


def available() -> bool:
    return backtrack.available()


def missing() -> str:
    return backtrack.missing()


def _rival_main(problem: Problem, limits: Limits, conn: Connection[FillResult | str, object]) -> None:
    """Child process: run the rival backend and send back its result (or an error text)."""
    try:
        from xwcp.backends import get_backend
        from xwcp.runtime.signals import forget_signals_in_child

        forget_signals_in_child()
        result = get_backend(limits.extra.get("rival", RIVAL)).fill(problem, limits)
        conn.send(result)
    except BaseException as exc:  # report, never hang the parent
        conn.send(f"{exc.__class__.__name__}: {exc}")
    finally:
        conn.close()


def rival_setting(problem: Problem, limits: Limits, rank: int) -> tuple[str, dict[str, Any], int]:
    """The backend, its `Limits.extra` changes and its seed for the portfolio's rival number `rank` (from 1).

    Rival 1 is the one rival two processes race (RIVAL_EXTRA, RIVAL_EXTRA_OPEN or RIVAL_LARGE, as
    `rival_for` says); the others take PORTFOLIO_EXTRA (or PORTFOLIO_EXTRA_OPEN) in turn, each
    under a seed of its own. On grids that race `grow`, odd ranks run `grow` (seed + rank // 2)
    and even ranks our own search's portfolio. A caller's `extra["rival"]` names every rival's backend.
    """
    forced = limits.extra.get("rival")
    rival = str(forced) if forced is not None else rival_for(problem)
    open_grid = "branch" not in limits.extra and branching_for(problem) == "letter"
    tunings = PORTFOLIO_EXTRA_OPEN if open_grid else PORTFOLIO_EXTRA
    if rival == RIVAL_LARGE and forced is None and rank % 2 == 0:  # half a large grid's portfolio: our own search
        return RIVAL, dict(tunings[(rank // 2 - 1) % len(tunings)]), limits.seed + rank
    if rival != "backtrack":
        return rival, {}, limits.seed + rank // 2
    return rival, dict(tunings[(rank - 1) % len(tunings)]), limits.seed + rank


class _Rival:
    """One rival child process and its pipe."""

    def __init__(self, rank: int, backend: str, process: BaseProcess, conn: Connection[object, FillResult | str]):
        self.rank = rank
        self.backend = backend
        self.process: BaseProcess | None = process
        self.conn: Connection[object, FillResult | str] | None = conn
        self.pid = process.pid


class _Race:
    """The rival child processes (up to `n_rivals`) and their pipes; started at most once, always reaped."""

    def __init__(self, problem: Problem, limits: Limits, n_rivals: int):
        self.problem = problem
        self.limits = limits
        self.n_rivals = n_rivals
        self.rivals: list[_Rival] = []
        self.answer: FillResult | None = None
        self.answer_rank = 0
        self.error = ""
        self.tried = False

    @property
    def started(self) -> bool:
        """True once a rival process has been started."""
        return bool(self.rivals)

    @property
    def is_due(self) -> bool:
        """True until the rivals have been started (or tried: a rival's package may be missing)."""
        return not self.tried and self.n_rivals > 0

    def start(self, remaining_s: float | None) -> None:
        from xwcp.backends import get_backend

        self.tried = True
        import multiprocessing  # here, not at the top: most fills end before a race (a small fill's start-up)

        ctx = multiprocessing.get_context("fork")
        for rank in range(1, self.n_rivals + 1):
            rival, tuning, seed = rival_setting(self.problem, self.limits, rank)
            try:
                get_backend(rival)
            except Exception as exc:  # the rival's package is missing: race the others
                self.error = str(exc)
                continue
            conn, child_conn = ctx.Pipe(duplex=False)
            extra = dict(self.limits.extra)
            extra.update(tuning)
            extra["rival"] = rival
            child_limits = Limits(time_limit_s=remaining_s, seed=seed, threads=1, extra=extra)
            process = ctx.Process(target=_rival_main, args=(self.problem, child_limits, child_conn), daemon=True)
            process.start()
            child_conn.close()
            self.rivals.append(_Rival(rank, rival, process, conn))

    @property
    def is_running(self) -> bool:
        return any(r.process is not None for r in self.rivals)

    def poll(self) -> bool:
        """True once a rival has a definite answer (FILLED or UNFILLABLE)."""
        if self.answer is not None:
            return True
        for rival in self.rivals:
            if rival.conn is None or not rival.conn.poll():
                continue
            try:
                message = rival.conn.recv()
            except (EOFError, OSError):
                rival.conn = None
                continue
            rival.conn = None
            if isinstance(message, FillResult):
                if message.status in (FillStatus.FILLED, FillStatus.UNFILLABLE):
                    self.answer, self.answer_rank = message, rival.rank
                    return True
            else:
                self.error = str(message)
        return False

    def settle(self) -> None:
        """Take an answer a rival sent at the last moment (the main search has stopped)."""
        for rival in self.rivals:
            if rival.process is not None:
                rival.process.join(timeout=0)
        self.poll()

    def stop(self) -> None:
        """Kill every rival still running, then reap them all."""
        for rival in self.rivals:
            if rival.process is not None and rival.process.is_alive():
                rival.process.kill()
        for rival in self.rivals:
            if rival.process is not None:
                rival.process.join(timeout=5)
                rival.process = None
            if rival.conn is not None:
                rival.conn.close()
                rival.conn = None


def fill(problem: Problem, limits: Limits | None = None) -> FillResult:
    """Fill `problem` with the fastest answer from `backtrack` or the rival (see the module docstring)."""
    limits = limits or Limits()
    if not kernel_takes(problem):  # an alphabet the compiled search does not take (more than 64 letters)
        from xwcp.backends import cpsat

        return replace(cpsat.fill(problem, limits), backend=NAME)
    delay_s = float(limits.extra.get("race_delay_s", RACE_DELAY_S))
    n_processes = search_processes(limits.max_processes, least=RACE_LEAST)
    if (limits.count not in (None, 1)) or n_processes < 2:
        extra = dict(limits.extra)
        extra.setdefault("branch", branching_for(problem))
        return replace(backtrack.fill(problem, replace(limits, extra=extra)), backend=NAME)
    race = _Race(problem, limits, n_processes - 1)
    stop_backtrack = threading.Event()

    def on_progress(p: Progress) -> None:
        if race.is_due and p.wall_time_s >= delay_s:
            remaining = None if limits.time_limit_s is None else limits.time_limit_s - p.wall_time_s
            if remaining is None or remaining > 0.2:
                race.start(remaining)
        if race.poll() or (limits.abort is not None and limits.abort.is_set()):
            stop_backtrack.set()
        if limits.progress is not None:
            limits.progress(replace(p, backend=NAME))

    extra = dict(limits.extra)
    extra.setdefault("branch", branching_for(problem))
    own = replace(limits, abort=stop_backtrack, progress=on_progress, extra=extra)
    try:
        if delay_s <= 0:
            race.start(limits.time_limit_s)
        result = backtrack.fill(problem, own)
        if result.status is FillStatus.ABORTED and race.answer is None and race.is_running:
            race.settle()
    finally:
        race.stop()
    winner = "backtrack"
    if race.answer is not None and result.status not in (FillStatus.FILLED, FillStatus.UNFILLABLE):
        result, winner = race.answer, f"rival-{race.answer.backend}"
    elif result.status is FillStatus.ABORTED and not (limits.abort is not None and limits.abort.is_set()):
        result = replace(result, status=FillStatus.LIMIT)
    extra = dict(result.stats.extra)
    extra["winner"] = winner
    extra["raced"] = race.started
    if race.rivals:
        extra["rival_pid"] = race.rivals[0].pid
        extra["rival_pids"] = [r.pid for r in race.rivals]
    if winner != "backtrack":
        extra["winner_rank"] = race.answer_rank
    if race.error:
        extra["rival_error"] = race.error
    return replace(result, backend=NAME, stats=replace(result.stats, extra=extra))
