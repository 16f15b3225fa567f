"""The library's jobs take the one runner's cancellation (`abort=`), and their warnings point at the caller's line."""

from __future__ import annotations

import threading
import time
import warnings
from pathlib import Path

import pytest

import xwcp
from xwcp.base.types import FillStatus

ROOT = Path(__file__).resolve().parents[2]
OPEN_7 = "\n".join(["......."] * 7) + "\n"
"""No fill with the default list within seconds: a fill that runs until stopped."""


def test_fill_takes_abort_and_stops_with_status_aborted():
    abort = threading.Event()
    timer = threading.Timer(0.3, abort.set)
    timer.start()
    start = time.perf_counter()
    try:
        answer = xwcp.fill(OPEN_7, time_limit_s=60, abort=abort)
    finally:
        timer.cancel()
    assert answer.status is FillStatus.ABORTED
    assert time.perf_counter() - start < 20


def test_a_set_abort_stops_a_session_fill_and_a_quality_fill():
    abort = threading.Event()
    abort.set()
    session = xwcp.Session(OPEN_7)
    assert session.fill(time_limit_s=60, abort=abort).status is FillStatus.ABORTED
    assert session.fill(time_limit_s=60, abort=abort, quality=True).status is FillStatus.ABORTED


def test_abort_must_be_an_event():
    with pytest.raises(TypeError, match="abort must be a threading.Event"):
        xwcp.fill(OPEN_7, abort=True)


def test_a_library_warning_points_at_the_callers_line():
    with pytest.warns(UserWarning, match="QZX") as record:
        xwcp.Session("QZX\n...\n...\n")
    assert record[0].filename == __file__
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        xwcp.fill("QZX\n...\n...\n", time_limit_s=10)  # through the one-call job, then Session
    assert caught and all(w.filename == __file__ for w in caught)
