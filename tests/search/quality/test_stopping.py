"""How a quality step is stopped (`xwcp.search.quality.stopping`): events read together, and a solve the abort ends."""

from __future__ import annotations

import threading
import time

import pytest

from xwcp.runtime.signals import STOP
from xwcp.search.quality.stopping import EitherEvent, solve_stoppable, stop_signal


def test_either_event_is_set_when_any_of_its_events_is():
    a, b = threading.Event(), threading.Event()
    either = EitherEvent(a, None, b)
    assert not either.is_set()
    b.set()
    assert either.is_set()
    b.clear()
    a.set()
    assert either.is_set()
    assert not EitherEvent().is_set() and not EitherEvent(None).is_set()


def test_stop_signal_is_the_process_stop_event():
    assert stop_signal() is STOP


class BlockingSolver:
    """A stand-in for CP-SAT's solver: `solve` forgets earlier stops (as a new solve does) and then runs
    until `stop_search` is called, or 5 s."""

    def __init__(self):
        self.stopped = threading.Event()
        self.n_stops = 0

    def solve(self, cp):
        self.stopped.clear()
        return "STOPPED" if self.stopped.wait(5) else "RAN TO ITS LIMIT"

    def stop_search(self):
        self.n_stops += 1
        self.stopped.set()


def watchers():
    return [t for t in threading.enumerate() if t.name == "xwcp-quality-watcher"]


@pytest.mark.timing
def test_an_abort_set_during_the_solve_stops_it_at_once():
    solver, abort = BlockingSolver(), threading.Event()
    timer = threading.Timer(0.1, abort.set)
    start = time.perf_counter()
    timer.start()
    try:
        assert solve_stoppable(solver, None, abort) == "STOPPED"
    finally:
        timer.cancel()
    assert time.perf_counter() - start < 2 and solver.n_stops >= 1
    assert not watchers()  # the watcher is gone when the solve returns


@pytest.mark.timing
def test_an_abort_set_before_the_solve_still_stops_it():
    solver, abort = BlockingSolver(), threading.Event()
    abort.set()
    start = time.perf_counter()
    assert solve_stoppable(solver, None, abort) == "STOPPED"
    assert time.perf_counter() - start < 2 and not watchers()


def test_no_abort_solves_without_a_watcher():
    seen = []

    class Solver:
        def solve(self, cp):
            seen.append((cp, [t.name for t in watchers()]))
            return "DONE"

    assert solve_stoppable(Solver(), "model", None) == "DONE"
    assert seen == [("model", [])]


def test_a_real_cpsat_solve_returns_its_status():
    cp_model = pytest.importorskip("ortools.sat.python.cp_model")
    cp = cp_model.CpModel()
    x = cp.new_int_var(0, 5, "x")
    cp.maximize(x)
    solver = cp_model.CpSolver()
    assert solve_stoppable(solver, cp, threading.Event()) == cp_model.OPTIMAL
    assert solver.value(x) == 5
