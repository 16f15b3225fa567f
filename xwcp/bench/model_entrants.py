"""What the textbook-model entrants (cpsat-table, sat-plain) do the same way: answers found before any model is
built, and the result of a stop while building one."""
from __future__ import annotations

from xwcp.backends._common import Clock, limit_reason
from xwcp.problem import Problem
from xwcp.result import FillResult, FillStats
from xwcp.types import FillStatus


def answer_before_building(problem: Problem, name: str, clock: Clock) -> FillResult | None:
    """UNFILLABLE when the entered grid repeats an entry or an open slot has no candidate, else None."""
    if problem.conflicts:
        return FillResult(FillStatus.UNFILLABLE, name, FillStats(clock.elapsed_s), reason=problem.conflicts[0])
    for slot_id in problem.open_slot_ids:
        if not problem.domains[slot_id].any():  # an empty variable domain: nothing to model
            return FillResult(FillStatus.UNFILLABLE, name, FillStats(clock.elapsed_s), slot_id=slot_id,
                              reason=f"no listed word fits {problem.slots[slot_id].name}")
    return None


def stopped_while_building(name: str, clock: Clock, what: str) -> FillResult:
    """LIMIT or ABORTED, reached while building `what` ("the model", "the formula")."""
    status = clock.stop_status() or FillStatus.LIMIT
    return FillResult(status, name, FillStats(clock.elapsed_s, extra={"phase": f"building {what}"}),
                      reason=f"{limit_reason(status, clock.limits)} while building {what}")
