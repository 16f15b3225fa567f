"""What every backend does the same way: the arc-consistent start, decoding fills, limits and results."""

from __future__ import annotations

import time
from collections.abc import Mapping

from xwcp.base.deadline import Deadline
from xwcp.base.types import FillStatus, SlotId
from xwcp.compile.problem import Domains, Problem
from xwcp.engine.kernel import Engine
from xwcp.engine.plain_kernel import engine_for
from xwcp.engine.result import FillResult, FillStats, Limits
from xwcp.engine.wide import WideEngine, kernel_takes

MAX_KEPT_FILLS = 1000
"""When counting every fill, only this many are kept in the result (the count is exact)."""


class Clock:
    """Wall time since the backend started, and whether the caller's limits say stop."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.start = time.perf_counter()

    @property
    def elapsed_s(self) -> float:
        return time.perf_counter() - self.start

    def remaining_s(self) -> float | None:
        if self.limits.time_limit_s is None:
            return None
        return self.limits.time_limit_s - self.elapsed_s

    @property
    def deadline(self) -> Deadline:
        """The limits as a `Deadline`, for the loops that prepare a search (they raise `Cancelled` past it)."""
        limit_s = self.limits.time_limit_s
        return Deadline(None if limit_s is None else self.start + limit_s, self.limits.abort)

    def stop_status(self) -> FillStatus | None:
        """ABORTED if the abort event is set, LIMIT if the time is up, else None."""
        if self.limits.abort is not None and self.limits.abort.is_set():
            return FillStatus.ABORTED
        remaining = self.remaining_s()
        if remaining is not None and remaining <= 0:
            return FillStatus.LIMIT
        return None


AcEngine = Engine | WideEngine
"""Arc-consistent domains: the compiled kernel's, or numpy's for an alphabet it does not take (`xwcp.engine.wide`)."""


def ac_engine(problem: Problem, domains: Domains | None = None) -> AcEngine:
    """The compiled AC kernel for `problem` (PlainEngine for a plain problem), or a `WideEngine` when the kernel
    does not take the problem's alphabet."""
    if not kernel_takes(problem):
        return WideEngine(problem, domains)
    return engine_for(problem) if domains is None else Engine(problem, domains)


def start_engine(problem: Problem, backend: str, clock: Clock) -> tuple[AcEngine | None, FillResult | None]:
    """Propagate the problem's root. Returns (engine, None), or (None, UNFILLABLE result) when AC-3 proves it."""
    from xwcp.engine.ac3 import (
        unfillable_reason,  # numpy: not for the fills that need no AC-3 (a small fill's start-up)
    )

    if problem.conflicts:
        return None, FillResult(FillStatus.UNFILLABLE, backend, FillStats(clock.elapsed_s), reason=problem.conflicts[0])
    engine = ac_engine(problem)
    if not engine.propagate_all():
        slot_id = engine.wipeout_slot_id
        if slot_id is None:  # the kernel names the slot of every wipeout
            raise RuntimeError("the AC kernel reported a wipeout without naming its slot")
        return None, FillResult(
            FillStatus.UNFILLABLE,
            backend,
            FillStats(clock.elapsed_s),
            reason=unfillable_reason(problem, slot_id, engine.cause_chain(slot_id)),
            slot_id=slot_id,
        )
    return engine, None


def entries_from_word_ids(problem: Problem, word_id_by_slot: Mapping[SlotId, int]) -> tuple[str, ...]:
    """The fill's entries in slot order; slots the user filled keep their text."""
    entries = []
    for slot in problem.slots:
        fixed = problem.fixed_text_by_slot.get(slot.id)
        entries.append(fixed if fixed is not None else problem.words.bucket(slot.length).text(word_id_by_slot[slot.id]))
    return tuple(entries)


def wanted_fills(limits: Limits) -> int:
    """How many fills the caller wants: 1 by default, 0 for all."""
    return 1 if limits.count is None else limits.count


def limit_reason(status: FillStatus, limits: Limits) -> str:
    if status is FillStatus.ABORTED:
        return "aborted by the caller"
    if limits.time_limit_s is not None:
        return f"time limit of {limits.time_limit_s:g} s reached"
    return "search limit reached"
