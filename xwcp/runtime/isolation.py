"""Run one job in a forked worker in its own process group: a time limit it cannot overstay, peak memory.

Used by the bench (one worker per measured run) and by Dask tasks (each fill forked from its
Dask worker, `xwcp.dist.tasks`). Top-level imports stay stdlib only.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any

OVERSTAY_GRACE_S = 30.0
"""A worker still running this long after its limit is stopped by the bench (CP-SAT overshoots by ~5 s)."""
STOP_GRACE_S = 3.0
"""After SIGINT, how long a worker gets to stop its own children (peers, auto's rival) before SIGKILL."""
PEER_SAMPLE_S = 0.02
"""How often the peak memory of a peer's processes is sampled from /proc (VmHWM is a running peak)."""


def _rss_mb(pid: int | str = "self", field_name: str = "VmRSS") -> float | None:
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _reset_peak_rss() -> None:
    """Set this process's peak-RSS mark (VmHWM) to its current RSS (Linux >= 4.0), so it measures from now."""
    try:
        with open("/proc/self/clear_refs", "w") as clear_refs:
            clear_refs.write("5")
    except OSError:
        pass


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as children:
                found.extend(int(x) for x in children.read().split())
        except (OSError, ValueError):
            continue
    return found


def tree_rss_mb(pid: int) -> float:
    """The resident memory of `pid` and all its descendants now (from /proc), in MB; 0 for a process gone."""
    total, pending = 0.0, [pid]
    while pending:
        current = pending.pop()
        total += _rss_mb(current) or 0.0
        pending.extend(_children(current))
    return total


class ChildPeakSampler:
    """Samples the running peak RSS (VmHWM) of this process's descendants from /proc in a thread.

    A peer's own peak cannot come from getrusage: an exec'd child inherits the forking
    process's peak in ru_maxrss. VmHWM of the exec'd process is its own.
    """

    def __init__(self, every_s: float = PEER_SAMPLE_S):
        self.every_s = every_s
        self.peak_by_pid: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> ChildPeakSampler:
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._stop.set()
        self._thread.join()

    def _loop(self) -> None:
        me = os.getpid()
        while not self._stop.is_set():
            pending = _children(me)
            while pending:
                pid = pending.pop()
                peak = _rss_mb(pid, "VmHWM")
                if peak is not None:
                    self.peak_by_pid[pid] = max(peak, self.peak_by_pid.get(pid, 0.0))
                pending.extend(_children(pid))
            self._stop.wait(self.every_s)

    @property
    def peak_mb(self) -> float | None:
        return max(self.peak_by_pid.values()) if self.peak_by_pid else None


def call_isolated(job: Callable[[], dict[str, Any]], timeout_s: float) -> dict[str, Any]:
    """Run `job()` in a forked worker in its own process group and return its record, plus peak memory.

    The worker's peak-RSS mark is reset when it starts; `peak_rss_mb` is the larger of its own
    peak and its largest reaped child's (unless the job set it), `start_rss_mb` its RSS at the start.

    Raises:
        KeyboardInterrupt: the bench or the worker was interrupted; the worker group is stopped first.
        TimeoutError: the worker overstayed `timeout_s` and was stopped.
        RuntimeError: the worker raised or died; the message says how.
    """
    import resource

    read_fd, write_fd = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the worker
        os.close(read_fd)
        try:
            os.setpgid(0, 0)
            _die_with_parent()
            try:  # the parent's wake-up fd (xwcp.runtime.signals) must not hear the worker's own signals
                signal.set_wakeup_fd(-1)
            except ValueError:
                pass
            signal.signal(signal.SIGINT, signal.default_int_handler)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            _reset_peak_rss()
            start_rss = _rss_mb()
            record = job()
            own = _rss_mb("self", "VmHWM") or 0.0
            children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            record.setdefault("peak_rss_mb", max(own, children) or None)
            record["start_rss_mb"] = start_rss
            payload: tuple[str, dict[str, Any] | str | None] = ("ok", record)
        except KeyboardInterrupt:
            payload = ("interrupted", None)
        except BaseException as exc:  # report everything; the worker never returns to the bench's code
            payload = ("error", f"{exc.__class__.__name__}: {exc}")
        try:
            data = pickle.dumps(payload)
            with os.fdopen(write_fd, "wb") as pipe:
                pipe.write(data)
        finally:
            os._exit(0)
    os.close(write_fd)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass  # the worker already did it (or is gone)
    chunks: list[bytes] = []
    done = False
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            ready, _, _ = select.select([read_fd], [], [], min(remaining, 1.0))
            if ready:
                chunk = os.read(read_fd, 1 << 16)
                if not chunk:
                    done = True
                    break
                chunks.append(chunk)
    finally:
        os.close(read_fd)
        wait_status = _stop_group(pid) if not done else None
        if wait_status is None:
            _, wait_status = os.waitpid(pid, 0)
    if not done:
        raise TimeoutError(f"stopped by the bench {OVERSTAY_GRACE_S:g} s after its limit")
    if not chunks:
        how = (
            f"signal {os.WTERMSIG(wait_status)}"
            if os.WIFSIGNALED(wait_status)
            else f"exit {os.WEXITSTATUS(wait_status)}"
        )
        raise RuntimeError(f"worker died ({how})")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "interrupted":
        raise KeyboardInterrupt
    if kind == "error":
        raise RuntimeError(value)
    worker_record: dict[str, Any] = value
    return worker_record


def _die_with_parent() -> None:
    """Have the kernel SIGKILL this worker when the thread that forked it ends (Linux), so a worker
    outlives neither the bench nor a Dask worker killed mid-task (its own process group escapes killpg)."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _stop_group(pid: int) -> int | None:
    """SIGINT the worker's group (it then stops its own children), then SIGKILL what is left.

    Returns:
        The worker's wait status if this reaped it, else None.
    """
    try:
        os.killpg(pid, signal.SIGINT)
    except (ProcessLookupError, PermissionError):
        return None
    wait_status = None
    deadline = time.monotonic() + STOP_GRACE_S
    while time.monotonic() < deadline:
        finished, status = os.waitpid(pid, os.WNOHANG)
        if finished:
            wait_status = status
            break
        time.sleep(0.05)
    try:
        os.killpg(pid, signal.SIGKILL)  # the worker's leftover children, or the worker itself
    except (ProcessLookupError, PermissionError):
        pass
    return wait_status


def call(job: Callable[[], dict[str, Any]], timeout_s: float, isolate: bool) -> dict[str, Any]:
    if isolate:
        return call_isolated(job, timeout_s)
    return job()


# ----- a bounded call: one function in a fresh worker under a time and an address-space limit -------------------


class OverLimit(Exception):
    """A bounded call's worker went over its time or memory limit (it was stopped); `limit` says which."""

    def __init__(self, limit: str, message: str) -> None:
        super().__init__(message)
        self.limit = limit  # "time", "memory" or "size" (its answer was larger than allowed)


_preloaded: tuple[str, ...] | None = None
_preload_lock = threading.Lock()


def start_bounded_workers(preload: tuple[str, ...]) -> None:
    """Start the fork server bounded calls fork from, with `preload` (module names) imported once in it.

    A bounded call then costs a fork of that small, warm process (milliseconds), not an interpreter's start.
    Only the first call's `preload` counts (the fork server is one per process); later calls do nothing.
    """
    global _preloaded
    import multiprocessing

    with _preload_lock:
        if _preloaded is not None:
            return
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__, "math", "resource", *preload])  # what every worker runs first
        from multiprocessing import forkserver

        forkserver.ensure_running()
        _preloaded = preload


def call_bounded(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    *,
    time_limit_s: float,
    memory_mb: float,
    max_answer_bytes: int = 16 << 20,
    preload: tuple[str, ...] = (),
) -> Any:
    """`func(*args)` in a fresh worker forked from the fork server, with `memory_mb` of address space over the
    worker's start and `time_limit_s` of wall time; the worker is killed when it overstays. Each worker runs
    one job; SPARE_WORKERS are kept started and waiting, so a call does not wait for a worker's start.

    Blocking: call it from a worker thread. `func` must be a module-level function; its answer and `args`
    travel pickled. As with multiprocessing's spawn, a caller's `__main__` script is imported in the worker
    (not `python -m` modules): it must keep its work under `if __name__ == "__main__":`.

    Raises:
        OverLimit: the worker ran past `time_limit_s` ("time"), ran out of its memory ("memory"), or answered
            more than `max_answer_bytes` ("size").
        RuntimeError: the worker raised something else (the message names it), or died.
    """
    start_bounded_workers(preload)
    worker, channel = _take_worker()
    try:
        channel.send((func, args, memory_mb, time_limit_s, max_answer_bytes))
        if not channel.poll(time_limit_s):
            raise OverLimit("time", f"took longer than {time_limit_s:g} s")
        try:
            kind, value = channel.recv()
        except (EOFError, OSError):
            worker.join(1.0)
            raise RuntimeError(f"the worker died (exit code {worker.exitcode})") from None
    finally:
        channel.close()
        if worker.is_alive():
            worker.kill()
        worker.join(5.0)
        threading.Thread(target=_keep_spare, daemon=True).start()  # after the job: the two do not compete
    if kind == "ok":
        return value
    if kind in ("memory", "size"):
        raise OverLimit(kind, value)
    raise RuntimeError(value)


SPARE_WORKERS = 1
"""Workers kept started and waiting for a job: a call takes one (no start on its path) and starts its successor."""
_spares: list[tuple[Any, Any]] = []
_spares_lock = threading.Lock()


def _take_worker() -> tuple[Any, Any]:
    """A started worker waiting for its job (else one started now), and the channel to it."""
    spare = None
    with _spares_lock:
        while _spares and spare is None:
            worker, channel = _spares.pop()
            if worker.is_alive():
                spare = (worker, channel)
            else:
                channel.close()
                worker.join(0)
    return spare or _start_worker()


def _start_worker() -> tuple[Any, Any]:
    import multiprocessing
    import multiprocessing.process

    context = multiprocessing.get_context("forkserver")
    channel, worker_end = context.Pipe(duplex=True)
    worker = context.Process(target=_waiting_worker, args=(worker_end,), daemon=True, name="xwcp-bounded-worker")
    worker.start()
    worker_end.close()
    # Not one of multiprocessing.active_children(): a waiting spare is no job left running (callers that check
    # for leftover children, such as a fill's rival, must not see it). It still ends with this process: its
    # channel closes, and so does the fork server's.
    getattr(multiprocessing.process, "_children", set()).discard(worker)
    return worker, channel


def _keep_spare() -> None:
    """Start one worker and keep it as a spare (unless SPARE_WORKERS are already waiting)."""
    with _spares_lock:
        if len(_spares) >= SPARE_WORKERS:
            return
    spare = _start_worker()
    with _spares_lock:
        if len(_spares) < SPARE_WORKERS:
            _spares.append(spare)
            return
    worker, channel = spare
    channel.close()  # the worker sees the channel close and ends
    worker.join(5.0)


def _waiting_worker(channel: Any) -> None:
    """A worker started ahead: wait for its one job (a closed channel ends it), then run it as `_bounded_worker`."""
    try:
        func, args, memory_mb, time_limit_s, max_answer_bytes = channel.recv()
    except (EOFError, OSError):
        return
    _bounded_worker(channel, func, args, memory_mb, time_limit_s, max_answer_bytes)


def _bounded_worker(
    sender: Any,
    func: Callable[..., Any],
    args: tuple[Any, ...],
    memory_mb: float,
    time_limit_s: float,
    max_answer_bytes: int,
) -> None:
    """The worker of `call_bounded`: set its limits, run the job, send ("ok", answer) or what went wrong."""
    import math
    import resource

    payload: tuple[str, Any]
    try:
        vm_mb = _rss_mb("self", "VmSize") or 0.0
        limit = int((vm_mb + memory_mb) * (1 << 20))
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        cpu_s = math.ceil(time_limit_s) + 1  # a backstop: the parent kills the worker at time_limit_s
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
        answer = func(*args)
        data = pickle.dumps(("ok", answer))
        if len(data) > max_answer_bytes:
            payload = ("size", f"its answer is {len(data):,} bytes; the most is {max_answer_bytes:,}")
        else:
            sender.send_bytes(data)
            return
    except MemoryError:
        payload = ("memory", f"needed more than {memory_mb:g} MB")
    except RecursionError:
        payload = ("error", "RecursionError: nested too deeply")
    except BaseException as exc:  # everything is reported; the worker then ends
        payload = ("error", f"{exc.__class__.__name__}: {str(exc)[:500]}")
    try:
        sender.send(payload)
    except BaseException:  # the parent is gone, or even the report ran out of memory: the exit code tells
        pass
