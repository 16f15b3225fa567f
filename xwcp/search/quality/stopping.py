"""How a step of the quality search is stopped: abort events read together, and a CP-SAT solve the caller's abort ends at once."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import CpModel, CpSolver, CpSolverStatus

ABORT_POLL_S = 0.02
"""How often a running CP-SAT step looks at the caller's abort event (Stop in the web builder)."""


class EitherEvent(threading.Event):
    """An abort event that reads as set when any of several is.

    It is a `threading.Event` because `Limits.abort` is typed as one; the backends only ask it
    `is_set()`, which it answers from the events it watches (its own `set` and `wait` are not used).
    """

    def __init__(self, *events: threading.Event | None) -> None:
        super().__init__()
        self.events = [e for e in events if e is not None]

    def is_set(self) -> bool:
        return any(e.is_set() for e in self.events)


def stop_signal() -> threading.Event:
    """The process's stop event (Ctrl-C, SIGTERM: `xwcp.runtime.signals.STOP`)."""
    from xwcp.runtime.signals import STOP

    return STOP


def solve_stoppable(solver: CpSolver, cp: CpModel, abort: threading.Event | None) -> CpSolverStatus:
    """`solver.solve(cp)`, stopped by `solver.stop_search()` from a watcher thread as soon as `abort` is set."""
    if abort is None:
        return solver.solve(cp)
    done = threading.Event()

    def watch() -> None:
        while not done.wait(ABORT_POLL_S):
            if abort.is_set():
                solver.stop_search()  # again each poll: a stop before the solve started must still stop it

    watcher = threading.Thread(target=watch, name="xwcp-quality-watcher", daemon=True)
    watcher.start()
    try:
        return solver.solve(cp)
    finally:
        done.set()
        watcher.join()
