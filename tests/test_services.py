"""The front doors' one loader and one runner (xwcp/services/): the library's jobs stop on `abort=`, warnings
point at the caller's line, and every door loads through `xwcp.services.load.load`."""
from __future__ import annotations

import threading
import time
import warnings
from pathlib import Path

import pytest

import xwcp
from xwcp.base.types import FillStatus
from xwcp.services.load import Loaded, load

ROOT = Path(__file__).resolve().parent.parent
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
        xwcp.fill(OPEN_7, abort=True)  # type: ignore[arg-type]


def test_a_library_warning_points_at_the_callers_line():
    with pytest.warns(UserWarning, match="QZX") as record:
        xwcp.Session("QZX\n...\n...\n")
    assert record[0].filename == __file__
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        xwcp.fill("QZX\n...\n...\n", time_limit_s=10)  # through the one-call job, then Session
    assert caught and all(w.filename == __file__ for w in caught)


def test_load_returns_the_puzzle_the_problem_and_the_warnings_it_said():
    heard: list[str] = []
    loaded = load("QZX\n...\n...\n", warn=heard.append)
    assert isinstance(loaded, Loaded)
    assert loaded.warnings == tuple(heard) and any("QZX" in w for w in heard)
    assert loaded.problem.grid.width == 3 and loaded.puzzle.grid == loaded.problem.grid


def test_load_plain_is_the_numpy_free_problem_and_falls_back_to_the_ordinary_one():
    from xwcp.engine.kernel import is_plain

    path = str(ROOT / "models" / "5x5-open.txt")
    xwcp.load_word_list()  # the default list cached
    assert is_plain(load(path, as_paths=True, plain=True).problem)
    assert not is_plain(load(path, as_paths=True).problem)
    text = "\n".join(["....."] * 5) + "\n"
    assert not is_plain(load(text, plain=True).problem)  # not a file: the ordinary problem
