"""`max_processes` in the library's jobs (`xwcp.fill`, `xwcp.suggest`, `Session.label`) and `xwcp suggest
--processes`: the cap reaches the search, a bad cap is refused, and no labelling process is left behind."""

from __future__ import annotations

import json

import pytest

import xwcp
from tests.helpers import child_pids, child_processes, run
from xwcp.analysis import verify
from xwcp.backends import auto
from xwcp.engine.result import check_fill

GRID = "#....\n.....\n.....\n.....\n....#\n"


@pytest.fixture
def asked(monkeypatch):
    """The caps the labelling and `auto` were given, in call order."""
    caps = []
    real_verify, real_processes = verify.search_processes, auto.search_processes
    monkeypatch.setattr(
        verify, "search_processes", lambda cap=None, least=1: caps.append(("verify", cap)) or real_verify(cap, least)
    )
    monkeypatch.setattr(
        auto, "search_processes", lambda cap=None, least=1: caps.append(("auto", cap)) or real_processes(cap, least)
    )
    return caps


def test_suggest_and_label_take_the_cap_and_leave_no_process(asked):
    verify._recent_by_layout.clear()
    before = child_pids()
    got = xwcp.suggest(GRID, "1A", k=6, verify=True, time_limit_s=30, max_processes=3)
    assert asked == [("verify", 3)] and child_processes(before) == []
    assert all(s.verdict is not None and s.verdict.value != "unknown" for s in got)
    session = xwcp.Session(GRID)
    verify._recent_by_layout.clear()
    labels = session.label("1A", [s.word for s in got], time_limit_s=30, max_processes=4)
    assert asked[-1] == ("verify", 4) and child_processes(before) == []
    assert [label.verdict for label in labels] == [s.verdict for s in got]


def test_fill_takes_the_cap(asked):
    answer = xwcp.fill(GRID, time_limit_s=30, max_processes=1)
    assert answer.status.value == "filled" and asked == [("auto", 1)]
    session = xwcp.Session(GRID)
    assert check_fill(session.problem, tuple(answer[s.name] for s in session.problem.slots)) == []


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2"])
def test_a_bad_cap_is_refused(bad):
    with pytest.raises((xwcp.InputError, TypeError), match="max_processes"):
        xwcp.suggest(GRID, "1A", verify=True, max_processes=bad)
    with pytest.raises((xwcp.InputError, TypeError), match="max_processes"):
        xwcp.Session(GRID).label("1A", ["ABCDE"], max_processes=bad)


def test_suggest_command_takes_processes(tmp_path, capsys, asked):
    grid = tmp_path / "g.txt"
    grid.write_text(GRID)
    verify._recent_by_layout.clear()
    code, out, err = run(
        ["suggest", grid, "--slot", "1A", "-k", "3", "--verify", "--processes", "2", "--format", "json"], capsys
    )
    assert code == 0, err
    assert asked == [("verify", 2)] and json.loads(out)
    code, out, err = run(["suggest", grid, "--slot", "1A", "--verify", "--processes", "0"], capsys)
    assert code == 2 and "--processes" in err and out == ""
