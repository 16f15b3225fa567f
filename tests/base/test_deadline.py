"""xwcp/base/deadline.py: a job's limit and abort event as one check that raises Cancelled, saying why."""

from __future__ import annotations

import threading
import time

import pytest

from xwcp.base.deadline import NEVER, Cancelled, Deadline, StopReason


def test_no_limit_and_no_event_never_stops():
    NEVER.check()
    assert NEVER.reason() is None and NEVER.remaining_s() is None


def test_a_deadline_passed_is_a_limit():
    deadline = Deadline.after(0.01)
    deadline.check()  # not yet
    time.sleep(0.02)
    with pytest.raises(Cancelled) as stopped:
        deadline.check()
    assert stopped.value.reason is StopReason.LIMIT and deadline.remaining_s() == 0.0


def test_the_abort_event_comes_before_the_time():
    abort = threading.Event()
    deadline = Deadline.after(-1.0, abort)
    assert deadline.reason() is StopReason.LIMIT
    abort.set()
    with pytest.raises(Cancelled) as stopped:
        deadline.check()
    assert stopped.value.reason is StopReason.ABORTED and str(stopped.value) == "stopped"
