"""The default backend: our compiled search, raced against a rival on the second core when it is slow.

Most grids are filled (or proven unfillable) by `backtrack` in well under a second, so
`auto` starts it alone. If it has not answered after RACE_DELAY_S, a forked child process
runs the rival backend on the same problem for the remaining time while `backtrack` goes
on in this process; the first definite answer (a fill, or a proof that none exists) wins and
the loser is stopped: the child is killed, or the kernel is aborted between time slices.
Fork keeps the start cheap (the child inherits the compiled problem; nothing is pickled but
the answer). Asking for several fills (`count`) runs `backtrack` alone. An alphabet the compiled search does not
take (more letters than its tables hold: akshara, kana) runs on `cpsat` instead (xwcp/engine/wide.py).
"""

from __future__ import annotations

import os
import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from xwcp.backends import backtrack
from xwcp.base.types import FillStatus
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, Limits, Progress
from xwcp.engine.wide import kernel_takes

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

NAME = "auto"

RACE_DELAY_S = 1.0
"""Seconds `backtrack` runs alone before the rival starts; below this, a second process only costs."""
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


class _Race:
    """The rival child process and its pipe; started at most once, always reaped."""

    def __init__(self, problem: Problem, limits: Limits):
        self.problem = problem
        self.limits = limits
        self.process: BaseProcess | None = None
        self.conn: Connection[object, FillResult | str] | None = None
        self.answer: FillResult | None = None
        self.error = ""
        self.started = False
        self.pid: int | None = None

    def start(self, remaining_s: float | None) -> None:
        from xwcp.backends import get_backend

        rival = self.limits.extra.get("rival", rival_for(self.problem))
        try:
            get_backend(rival)
        except Exception as exc:  # the rival's package is missing: race nobody
            self.error = str(exc)
            return
        self.started = True
        import multiprocessing  # here, not at the top: most fills end before a race (a small fill's start-up)

        ctx = multiprocessing.get_context("fork")
        self.conn, child_conn = ctx.Pipe(duplex=False)
        extra = dict(self.limits.extra)
        seed = self.limits.seed
        if rival == "backtrack":
            open_grid = "branch" not in self.limits.extra and branching_for(self.problem) == "letter"
            extra.update(RIVAL_EXTRA_OPEN if open_grid else RIVAL_EXTRA)
            seed += 1
        extra["rival"] = rival
        child_limits = Limits(time_limit_s=remaining_s, seed=seed, threads=1, extra=extra)
        process = self.process = ctx.Process(
            target=_rival_main, args=(self.problem, child_limits, child_conn), daemon=True
        )
        process.start()
        self.pid = process.pid
        child_conn.close()

    def poll(self) -> bool:
        """True once the rival has a definite answer (FILLED or UNFILLABLE)."""
        if self.answer is not None:
            return True
        if self.conn is None or not self.conn.poll():
            return False
        try:
            message = self.conn.recv()
        except (EOFError, OSError):
            self.conn = None
            return False
        if isinstance(message, FillResult):
            if message.status in (FillStatus.FILLED, FillStatus.UNFILLABLE):
                self.answer = message
                return True
        else:
            self.error = str(message)
        self.conn = None
        return False

    def stop(self) -> None:
        if self.process is not None:
            if self.process.is_alive():
                self.process.kill()
            self.process.join(timeout=5)
            self.process = None
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def fill(problem: Problem, limits: Limits | None = None) -> FillResult:
    """Fill `problem` with the fastest answer from `backtrack` or the rival (see the module docstring)."""
    limits = limits or Limits()
    if not kernel_takes(problem):  # an alphabet the compiled search does not take (more than 64 letters)
        from xwcp.backends import cpsat

        return replace(cpsat.fill(problem, limits), backend=NAME)
    delay_s = float(limits.extra.get("race_delay_s", RACE_DELAY_S))
    if (limits.count not in (None, 1)) or os.environ.get("XWCP_NO_RACE"):
        extra = dict(limits.extra)
        extra.setdefault("branch", branching_for(problem))
        return replace(backtrack.fill(problem, replace(limits, extra=extra)), backend=NAME)
    race = _Race(problem, limits)
    stop_backtrack = threading.Event()

    def on_progress(p: Progress) -> None:
        if race.process is None and not race.error and p.wall_time_s >= delay_s:
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
        if result.status is FillStatus.ABORTED and race.answer is None and race.process is not None:
            race.process.join(timeout=0)
            race.poll()
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
    if race.pid is not None:
        extra["rival_pid"] = race.pid
    if race.error:
        extra["rival_error"] = race.error
    return replace(result, backend=NAME, stats=replace(result.stats, extra=extra))
