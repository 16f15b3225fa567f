"""What the textbook-model entrants (cpsat-table, sat-plain) do the same way: answers found before any model is
built, a stop while building one, and a watcher that stops the solver at the limit or on abort."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator
from typing import Protocol, TypeVar

from xwcp.backends._common import Clock, limit_reason
from xwcp.base.types import FillStatus
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, FillStats

POLL_S = 0.02
"""How often the watcher thread checks the time limit and the abort event."""

Built = TypeVar("Built", covariant=True)


class Builder(Protocol[Built]):
    """`build(problem, stop=...)`: the model of `problem`, or None when `stop()` (a stop status) says stop."""

    def __call__(self, problem: Problem, *, stop: Callable[[], FillStatus | None]) -> Built | None: ...


def answer_before_building(problem: Problem, name: str, clock: Clock) -> FillResult | None:
    """UNFILLABLE when the entered grid repeats an entry or an open slot has no candidate, else None."""
    if problem.conflicts:
        return FillResult(FillStatus.UNFILLABLE, name, FillStats(clock.elapsed_s), reason=problem.conflicts[0])
    for slot_id in problem.open_slot_ids:
        if not problem.domains[slot_id].any():  # an empty variable domain: nothing to model
            return FillResult(
                FillStatus.UNFILLABLE,
                name,
                FillStats(clock.elapsed_s),
                slot_id=slot_id,
                reason=f"no listed word fits {problem.slots[slot_id].name}",
            )
    return None


def stopped_while_building(name: str, clock: Clock, what: str) -> FillResult:
    """LIMIT or ABORTED, reached while building `what` ("the model", "the formula")."""
    status = clock.stop_status() or FillStatus.LIMIT
    return FillResult(
        status,
        name,
        FillStats(clock.elapsed_s, extra={"phase": f"building {what}"}),
        reason=f"{limit_reason(status, clock.limits)} while building {what}",
    )


def build_or_answer(problem: Problem, name: str, clock: Clock, build: Builder[Built], what: str) -> Built | FillResult:
    """The built model, or the result when the problem is answered before building or the clock stops the
    building. `build(problem, stop=...)` returns None when `stop()` says stop."""
    early = answer_before_building(problem, name, clock)
    if early is not None:
        return early
    built = build(problem, stop=clock.stop_status)
    if built is None or clock.stop_status() is not None:
        return stopped_while_building(name, clock, what)
    return built


@contextlib.contextmanager
def stop_on_clock(clock: Clock, stop: Callable[[], None], name: str) -> Iterator[None]:
    """Within the block a thread calls `stop()` (again each poll) once the time is up or the caller aborts."""
    done = threading.Event()

    def watch() -> None:
        while not done.wait(POLL_S):
            if clock.stop_status() is not None:
                stop()  # again each poll: a solve that starts later must stop too

    watcher = threading.Thread(target=watch, name=f"xwcp-{name}-watcher", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
