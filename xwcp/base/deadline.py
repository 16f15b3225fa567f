"""A job's stop condition as one object, its time limit and its abort event, for the loops that build a search.

A search proper watches its limit and its abort event in its own way (CP-SAT's `stop_search`, the
compiled search's time slices). The work before it does not: a pattern model or a SAT encoding
built clause by clause, a problem compiled over a huge grid. Such loops take a `Deadline` and call
`check()` every so often; it raises `Cancelled` once the time is up or the job was stopped, and the
job's caller turns that into a LIMIT or ABORTED answer. A check is one clock read and one flag read
(about 0.1 microseconds), cheap next to any loop body that builds a constraint.
"""

from __future__ import annotations

import enum
import threading
import time


class StopReason(enum.Enum):
    """Why a job was cut short: its time limit passed, or someone stopped it (Stop, a closed socket, Ctrl-C)."""

    LIMIT = "limit"
    ABORTED = "aborted"


class Cancelled(Exception):
    """A job's time ran out or it was stopped while it was being prepared; `reason` says which."""

    def __init__(self, reason: StopReason) -> None:
        super().__init__("stopped" if reason is StopReason.ABORTED else "time limit reached")
        self.reason = reason


class Deadline:
    """When a job must end (a `time.perf_counter()` value, None: no limit) and the event that stops it early.

    A plain class, not a dataclass: it is imported on every fill's start-up path, where making a dataclass
    costs a millisecond."""

    __slots__ = ("at_s", "abort")

    def __init__(self, at_s: float | None = None, abort: threading.Event | None = None) -> None:
        self.at_s = at_s
        self.abort = abort

    def __repr__(self) -> str:
        return f"Deadline(at_s={self.at_s!r}, abort={self.abort!r})"

    @classmethod
    def after(cls, seconds: float | None, abort: threading.Event | None = None) -> Deadline:
        """The deadline `seconds` from now (None: none), stopped early by `abort`."""
        return cls(None if seconds is None else time.perf_counter() + seconds, abort)

    def reason(self) -> StopReason | None:
        """Why the job must stop now, or None while it may go on."""
        if self.abort is not None and self.abort.is_set():
            return StopReason.ABORTED
        if self.at_s is not None and time.perf_counter() >= self.at_s:
            return StopReason.LIMIT
        return None

    def check(self) -> None:
        """Raise `Cancelled` when the job must stop now.

        Raises:
            Cancelled: the abort event is set (ABORTED) or the deadline has passed (LIMIT).
        """
        reason = self.reason()
        if reason is not None:
            raise Cancelled(reason)

    def remaining_s(self) -> float | None:
        """Seconds left before the deadline (0 once passed), None without one."""
        return None if self.at_s is None else max(0.0, self.at_s - time.perf_counter())


NEVER = Deadline()
"""No limit and no abort event: `check()` never raises."""
