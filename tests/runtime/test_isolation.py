"""Running a call in a forked worker (xwcp/runtime/isolation.py, reached as `xwcp.bench.call_isolated`): its
time limit, its crash and its answer."""

from __future__ import annotations

import os
import time

import pytest

from xwcp import bench


def test_isolated_worker_timeout_and_crash():
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        bench.call_isolated(lambda: time.sleep(30) or {}, timeout_s=0.3)
    assert time.monotonic() - start < 10
    with pytest.raises(RuntimeError, match="ValueError: broken"):
        bench.call_isolated(lambda: (_ for _ in ()).throw(ValueError("broken")), timeout_s=5)
    with pytest.raises(RuntimeError, match="worker died"):
        bench.call_isolated(lambda: os._exit(7), timeout_s=5)
    assert bench.call_isolated(lambda: {"x": 1}, timeout_s=5)["x"] == 1


# ----- call_bounded: a module-level job in a worker forked from the fork server, under a time and memory limit ------


def _sleep(seconds: float) -> str:
    time.sleep(seconds)
    return "slept"


def _sleep_after_saying_pid(path: str) -> None:
    with open(path, "w") as out:
        out.write(str(os.getpid()))
    time.sleep(60)


def _allocate(megabytes: int) -> int:
    return len(bytearray(megabytes << 20))


def _raise() -> None:
    raise ValueError("broken " + "x" * 2000)


def _recurse(depth: int = 0) -> int:
    return _recurse(depth + 1)


def _pid() -> int:
    return os.getpid()


def _big_answer() -> bytes:
    return b"x" * (4 << 20)


@pytest.mark.timing
def test_bounded_call_answers_and_stops_a_worker_over_its_time_or_memory(tmp_path):
    from xwcp.runtime.isolation import OverLimit, call_bounded

    assert call_bounded(_allocate, (64,), time_limit_s=20, memory_mb=256) == 64 << 20
    pids = {call_bounded(_pid, (), time_limit_s=20, memory_mb=64) for _ in range(3)}
    assert len(pids) == 3 and os.getpid() not in pids  # a fresh worker for every call: nothing carries over
    start = time.monotonic()
    with pytest.raises(OverLimit) as over:
        call_bounded(_sleep, (30,), time_limit_s=0.5, memory_mb=64)
    assert over.value.limit == "time" and time.monotonic() - start < 5
    with pytest.raises(OverLimit):
        call_bounded(_sleep_after_saying_pid, (str(tmp_path / "pid"),), time_limit_s=2.0, memory_mb=64)
    worker = int((tmp_path / "pid").read_text())
    assert not os.path.exists(f"/proc/{worker}") or " Z " in open(f"/proc/{worker}/stat").read()  # killed
    with pytest.raises(OverLimit) as over:
        call_bounded(_allocate, (2048,), time_limit_s=20, memory_mb=256)  # 2 GB asked, 256 MB allowed
    assert over.value.limit == "memory"
    with pytest.raises(OverLimit) as over:
        call_bounded(_big_answer, (), time_limit_s=20, memory_mb=256, max_answer_bytes=1 << 20)
    assert over.value.limit == "size"
    with pytest.raises(RuntimeError, match="ValueError: broken") as failed:
        call_bounded(_raise, (), time_limit_s=20, memory_mb=64)
    assert len(str(failed.value)) < 600  # the worker's line is cut, not the whole message
    with pytest.raises(RuntimeError, match="RecursionError"):
        call_bounded(_recurse, (), time_limit_s=20, memory_mb=256)
    with pytest.raises(RuntimeError, match="died"):
        call_bounded(os._exit, (7,), time_limit_s=20, memory_mb=64)
    assert call_bounded(_sleep, (0,), time_limit_s=20, memory_mb=64) == "slept"  # the pool is still there


def test_a_waiting_worker_is_no_leftover_child():
    """Tests and callers check `multiprocessing.active_children()` for a fill's leftovers: the spare bounded worker
    waiting for the next job is not one of them."""
    import multiprocessing

    from xwcp.runtime import isolation
    from xwcp.runtime.isolation import call_bounded

    assert call_bounded(_pid, (), time_limit_s=20, memory_mb=64)
    deadline = time.monotonic() + 10
    while not isolation._spares and time.monotonic() < deadline:  # the successor starts after the call
        time.sleep(0.05)
    assert isolation._spares and isolation._spares[0][0].is_alive()
    assert multiprocessing.active_children() == []


@pytest.mark.subprocess
def test_tree_rss_counts_a_process_and_its_children():
    import subprocess
    import sys

    from xwcp.runtime.isolation import tree_rss_mb

    alone = tree_rss_mb(os.getpid())
    assert alone > 1
    child = subprocess.Popen([sys.executable, "-c", "b = bytearray(64 << 20); import time; time.sleep(30)"])
    try:
        deadline = time.monotonic() + 10
        while tree_rss_mb(os.getpid()) < alone + 50 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert tree_rss_mb(os.getpid()) >= alone + 50  # the child's 64 MB counted with this process
    finally:
        child.kill()
        child.wait()
    assert tree_rss_mb(child.pid) == 0.0  # a process gone counts nothing
