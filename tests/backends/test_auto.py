"""auto: the first definite answer wins and the loser is stopped, with no process left behind."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from pathlib import Path

import pytest

from tests.helpers import child_pids, child_processes
from xwcp.backends import auto, fill
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem, compile_structure
from xwcp.engine.plain_kernel import bit_search
from xwcp.engine.result import FillResult, Limits, Progress, check_fill
from xwcp.model import parse_grid, read_grid
from xwcp.words.wordlist import load_word_list, words_from_pairs

MODELS = Path(__file__).parents[2] / "models"


@pytest.fixture(scope="module")
def problem():
    return compile_problem(parse_grid("#....\n.....\n.....\n.....\n....#\n"), load_word_list())


@pytest.fixture(autouse=True)
def children_before():
    """The children this process had before the test (a fork server or a cluster of an earlier test): not ours."""
    global BEFORE
    BEFORE = child_pids()


BEFORE: frozenset[int] = frozenset()


def children():
    """(pid, state) of the children the test started and left, zombies included."""
    return child_processes(BEFORE)


@pytest.fixture(autouse=True)
def no_thread_left_behind():
    """After each test the live threads are the ones before it (a stopped search may take a
    moment to wind down its threads, so they are given a few seconds to finish)."""
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 5
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    assert set(threading.enumerate()) == before, [t.name for t in set(threading.enumerate()) - before]


def assert_gone(*pids):
    assert children() == []  # none alive, none a zombie: every rival killed and reaped
    assert not multiprocessing.active_children()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_own_search_wins_and_the_rival_process_is_killed(problem):
    result = fill(problem, "auto", Limits(time_limit_s=30, extra={"race_delay_s": 0}))
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    assert result.stats.extra["raced"] is True
    assert_gone(result.stats.extra["rival_pid"])


class _SlowSearch:
    """Stands in for the main backtrack: never answers, stops only when auto aborts it."""

    @staticmethod
    def fill(problem, limits):
        start = time.perf_counter()
        while not limits.abort.is_set() and time.perf_counter() - start < 30:
            limits.progress(Progress("backtrack", time.perf_counter() - start, 0, 0))
            time.sleep(0.01)
        return FillResult(FillStatus.ABORTED, "backtrack")

    available = staticmethod(lambda: True)


def test_rival_answer_wins_and_stops_the_main_search(problem, monkeypatch):
    monkeypatch.setattr(auto, "backtrack", _SlowSearch)
    start = time.perf_counter()
    result = fill(problem, "auto", Limits(time_limit_s=30, extra={"race_delay_s": 0}))
    assert time.perf_counter() - start < 20
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    assert result.stats.extra["winner"] == "rival-backtrack"
    assert_gone(result.stats.extra["rival_pid"])


def test_time_limit_stops_both(monkeypatch):
    problem = compile_problem(parse_grid("\n".join(["." * 15] * 15)), load_word_list())
    result = fill(problem, "auto", Limits(time_limit_s=0.8, extra={"race_delay_s": 0.2}))
    assert result.status is FillStatus.LIMIT
    assert result.stats.extra["raced"] is True
    assert_gone(result.stats.extra["rival_pid"])


def test_count_runs_backtrack_alone(problem):
    result = fill(problem, "auto", Limits(count=3, time_limit_s=30, extra={"race_delay_s": 0}))
    assert result.status is FillStatus.FILLED
    assert len(result.fills) == 3 == len(set(result.fills))
    assert all(check_fill(problem, entries) == [] for entries in result.fills)
    assert "rival_pid" not in result.stats.extra


def test_open_grids_branch_on_letters_and_blocked_grids_on_words(monkeypatch):
    words = load_word_list()
    open_grid = compile_problem(parse_grid("....\n....\n....\n....\n"), words)
    blocked = compile_problem(parse_grid("...#\n....\n....\n#...\n"), words)
    assert auto.branching_for(open_grid) == "letter" and auto.branching_for(blocked) == "word"
    seen = []
    real = auto.backtrack.fill

    def spy(problem, limits=None):
        seen.append(limits.extra.get("branch"))
        return real(problem, limits)

    monkeypatch.setattr(auto.backtrack, "fill", spy)
    for problem, branch in ((open_grid, "letter"), (blocked, "word")):
        result = fill(problem, "auto", Limits(time_limit_s=30))
        assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
        assert seen[-1] == branch
    # the caller's choice wins
    fill(open_grid, "auto", Limits(time_limit_s=30, extra={"branch": "word"}))
    assert seen[-1] == "word"


def test_large_grids_race_grow_and_smaller_ones_backtrack():
    words = load_word_list()
    large = compile_structure(read_grid(MODELS / "vanbeek" / "23.06.txt"), words)
    herald = compile_structure(read_grid(MODELS / "vanbeek" / "21.10.txt"), words)
    assert auto.rival_for(large) == "grow" and auto.rival_for(herald) == "backtrack"


def test_grow_rival_answer_wins(problem, monkeypatch):
    monkeypatch.setattr(auto, "backtrack", _SlowSearch)
    monkeypatch.setattr(auto, "GROW_MIN_CELLS", 1)
    result = fill(problem, "auto", Limits(time_limit_s=30, extra={"race_delay_s": 0}))
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    assert result.stats.extra["winner"] == "rival-grow"
    assert_gone(result.stats.extra["rival_pid"])


def test_grow_fills_region_by_region():
    problem = compile_problem(read_grid(MODELS / "15x15-daily-01.txt"), load_word_list())
    result = fill(problem, "grow", Limits(time_limit_s=30, extra={"probe_fails": 1}))  # no time to settle it whole
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    assert result.stats.extra["grow_asks"] > 1


def test_grow_proves_a_grid_unfillable_by_a_region():
    # root arc consistent (every letter has support) but no fill: a region's search must prove it
    words = words_from_pairs([(w, 50) for w in ("ABA", "ACA", "BAA", "BAB", "BBC", "BCA", "CAC", "CBB")])
    problem = compile_problem(parse_grid("...\n...\n...\n"), words, min_score=0)
    assert bit_search(problem).is_consistent
    result = fill(problem, "grow", Limits(time_limit_s=30, extra={"probe_fails": 1}))
    assert result.status is FillStatus.UNFILLABLE and result.stats.extra["grow_asks"] >= 1


@pytest.mark.parametrize("processes", [3, 4])
def test_the_portfolio_starts_a_rival_per_process_and_stops_them_all(problem, processes):
    """With the cap at n (oversubscribed on this two-core machine), n - 1 rivals start; the answer is a
    checked fill and every rival is gone after the call."""
    limits = Limits(time_limit_s=30, max_processes=processes, extra={"race_delay_s": 0})
    result = fill(problem, "auto", limits)
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    pids = result.stats.extra["rival_pids"]
    assert len(set(pids)) == processes - 1 and result.stats.extra["rival_pid"] == pids[0]
    assert_gone(*pids)


class _Sleeper:
    """A rival that never answers: only a kill stops it."""

    @staticmethod
    def fill(problem, limits):
        time.sleep(60)
        return FillResult(FillStatus.ABORTED, "sleeper")


@pytest.mark.parametrize("processes", [2, 3, 4])
def test_a_rival_of_the_portfolio_wins_and_the_losers_are_stopped(problem, monkeypatch, processes):
    """The main search never answers, rival 1 fills, the other rivals would run for a minute: the fill comes
    back at once, checked, and every loser is killed and reaped."""
    import xwcp.backends as backends

    monkeypatch.setattr(auto, "backtrack", _SlowSearch)
    real_setting, real_get = auto.rival_setting, backends.get_backend
    monkeypatch.setattr(
        auto,
        "rival_setting",
        lambda problem, limits, rank: real_setting(problem, limits, rank) if rank == 1 else ("sleeper", {}, rank),
    )
    monkeypatch.setattr(backends, "get_backend", lambda name: _Sleeper if name == "sleeper" else real_get(name))
    alive_during = []

    def watch(p):
        alive_during.append(len(children()))

    start = time.perf_counter()
    limits = Limits(time_limit_s=30, max_processes=processes, extra={"race_delay_s": 0}, progress=watch)
    result = fill(problem, "auto", limits)
    assert time.perf_counter() - start < 20
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    assert result.stats.extra["winner"] == "rival-backtrack" and result.stats.extra["winner_rank"] == 1
    assert len(result.stats.extra["rival_pids"]) == processes - 1
    assert max(alive_during) >= processes - 2  # the watch sees the sleeping losers run ...
    assert_gone(*result.stats.extra["rival_pids"])  # ... and none is left: the winner and the losers


def test_a_cap_of_one_runs_no_child(monkeypatch):
    """max_processes 1, XWCP_MAX_PROCESSES=1 and XWCP_NO_RACE each keep the search in this process."""
    problem = compile_problem(parse_grid("\n".join(["." * 15] * 15)), load_word_list())
    seen = []

    def watch(p):
        seen.append(len(children()))

    def run(**limits):
        seen.clear()
        result = fill(problem, "auto", Limits(time_limit_s=0.4, extra={"race_delay_s": 0}, progress=watch, **limits))
        assert "rival_pid" not in result.stats.extra and seen and children() == []
        return max(seen)

    assert run(max_processes=1) == 0
    monkeypatch.setenv("XWCP_MAX_PROCESSES", "1")
    assert run() == 0
    monkeypatch.delenv("XWCP_MAX_PROCESSES")
    monkeypatch.setenv("XWCP_NO_RACE", "1")
    assert run(max_processes=4) == 0
    monkeypatch.delenv("XWCP_NO_RACE")
    seen.clear()
    fill(problem, "auto", Limits(time_limit_s=0.4, max_processes=3, extra={"race_delay_s": 0}, progress=watch))
    assert max(seen) == 2  # the watch does see children when there are some


def test_the_portfolio_is_rival_one_then_other_tunings_and_seeds():
    words = load_word_list()
    blocked = compile_problem(read_grid(MODELS / "15x15-daily-01.txt"), words)
    open_grid = compile_problem(parse_grid("....\n....\n....\n....\n"), words)
    large = compile_structure(read_grid(MODELS / "vanbeek" / "23.06.txt"), words)
    limits = Limits(seed=7)
    # rival 1 is the one two processes always raced
    assert auto.rival_setting(blocked, limits, 1) == ("backtrack", auto.RIVAL_EXTRA, 8)
    assert auto.rival_setting(open_grid, limits, 1) == ("backtrack", auto.RIVAL_EXTRA_OPEN, 8)
    assert auto.rival_setting(large, limits, 1) == ("grow", {}, 7)
    for problem in (blocked, open_grid, large):
        settings = [auto.rival_setting(problem, limits, rank) for rank in range(1, 16)]
        assert len({repr(s) for s in settings}) == 15  # no two rivals alike
        assert len({repr((b, t)) for b, t, _ in settings[:6]}) >= 3  # a portfolio of tunings, not only seeds
    assert {b for b, _, _ in (auto.rival_setting(large, limits, r) for r in range(1, 5))} == {"grow", "backtrack"}


def test_bad_process_caps_are_refused(monkeypatch):
    from xwcp.base.errors import InputError
    from xwcp.runtime.cores import search_processes, worker_share

    with pytest.raises(ValueError, match="max_processes"):
        Limits(max_processes=0)
    monkeypatch.setenv("XWCP_MAX_PROCESSES", "zero")
    with pytest.raises(InputError, match="XWCP_MAX_PROCESSES"):
        search_processes()
    monkeypatch.setenv("XWCP_MAX_PROCESSES", "1")
    assert search_processes() == 1 and search_processes(3) == 3  # the caller's own cap wins
    # a server's workers share the cores, never fewer than two each where there are two
    assert [worker_share(w, 16) for w in (1, 2, 4, 8, 16)] == [16, 8, 4, 2, 2]
    assert worker_share(2, 2) == 2 and worker_share(4, 1) == 1


def test_one_core_still_races_one_rival_and_labels_stay_in_one_process(monkeypatch):
    """On one core with nothing capping it, `auto` races its one rival as it always did (the two share the core);
    verification's default stays one process there."""
    from xwcp.runtime import cores

    monkeypatch.setattr(cores, "owned_cores", lambda: 1)
    monkeypatch.delenv("XWCP_MAX_PROCESSES", raising=False)
    monkeypatch.delenv("XWCP_NO_RACE", raising=False)
    assert cores.search_processes() == 1
    problem = compile_problem(parse_grid("\n".join(["." * 15] * 15)), load_word_list())
    seen = []
    result = fill(
        problem,
        "auto",
        Limits(time_limit_s=0.4, extra={"race_delay_s": 0}, progress=lambda p: seen.append(len(children()))),
    )
    assert "rival_pid" in result.stats.extra and max(seen) == 1
    assert_gone(result.stats.extra["rival_pid"])
