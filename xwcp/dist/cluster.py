"""Open a Dask client: an embedded `LocalCluster` of one-thread worker processes, or an existing scheduler.

Every worker runs one task at a time (one thread), because each task is a fill that uses a
core. Workers are not daemonic processes, so a task may start child processes (the forked
fill, `auto`'s rival, the SAT backend's solver). A task whose worker dies is rescheduled on
another worker up to ALLOWED_FAILURES times, then fails with `KilledWorker`.
"""
from __future__ import annotations

import contextlib
import logging
import os
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from xwcp.base.errors import InputError

if TYPE_CHECKING:
    from distributed import Client

CONNECT_TIMEOUT_S = 10.0
"""How long to wait for a scheduler named by --cluster before saying it cannot be reached."""
ALLOWED_FAILURES = 2
"""Worker deaths a task survives before it is given up (the scheduler's `allowed-failures`; embedded cluster only)."""
SHUTDOWN_NOISE = ("Failed to communicate with scheduler during heartbeat",)
"""Log lines a worker writes (with a traceback) when the scheduler closes under its heartbeat: at the end of a
batch that finished, the race of the shutdown, not a failure. Dropped while the cluster closes."""
SHUTDOWN_LOGGERS = ("distributed.worker", "distributed.core", "distributed.nanny", "distributed.comm")
_ADDRESS = re.compile(r"^(tcp|tls|inproc|ucx|ws|wss)://\S+$|^[\w.\-\[\]:]+:\d+$")


def missing() -> str:
    """Why Dask cannot be used here ('' when it can)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return "Dask is not installed: pip install 'xwcp[dist]' (or pip install 'dask[distributed]')"
    return ""


def local_workers(n_workers: int | None) -> int:
    """Workers of the embedded cluster: `n_workers`, else the cores this process may use."""
    if n_workers:
        return n_workers
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - non-Linux
        return max(1, os.cpu_count() or 1)


@contextlib.contextmanager
def open_client(address: str | None = None, *, n_workers: int | None = None,
                connect_timeout_s: float | None = None) -> Iterator[Client]:
    """A `distributed.Client`, closed (with its embedded cluster) on the way out.

    Args:
        address: a scheduler such as tcp://HOST:8786; None starts a `LocalCluster` here.
        n_workers: workers of the embedded cluster (default: the cores); with `address`, the
            workers to wait for before returning (default: none).
        connect_timeout_s: how long to try to reach `address` (default CONNECT_TIMEOUT_S).

    Raises:
        InputError: Dask is not installed, a malformed address, or a scheduler that cannot be
            reached in time (the message names the address).
    """
    why = missing()
    if why:
        raise InputError(why)
    import dask
    from distributed import Client, LocalCluster

    if address is None:
        with dask.config.set({"distributed.worker.daemon": False,
                              "distributed.scheduler.allowed-failures": ALLOWED_FAILURES,
                              "distributed.admin.tick.limit": "1h",
                              "logging.distributed": "error"}):
            cluster = LocalCluster(n_workers=local_workers(n_workers), threads_per_worker=1, processes=True,
                                   dashboard_address=":0", silence_logs=40)
            # any free port, not a taken 8787; the ignores: distributed leaves LocalCluster, Client, close unannotated
            try:
                client = Client(cluster)
            except BaseException:
                cluster.close()
                raise
        try:
            yield client
        finally:
            with _quiet_shutdown():
                with contextlib.suppress(Exception):  # workers already gone: nothing of theirs to quiet
                    client.run(quiet_shutdown_logs)
                client.close()  # the client before the cluster: it never asks a closed scheduler
                cluster.close()
        return
    connect_timeout_s = CONNECT_TIMEOUT_S if connect_timeout_s is None else connect_timeout_s
    if not _ADDRESS.match(address.strip()):
        raise InputError(f"--cluster {address!r} is not a scheduler address such as tcp://HOST:8786")
    try:
        client = Client(address.strip(), timeout=f"{connect_timeout_s}s")
    except (OSError, TimeoutError, ValueError) as exc:
        reason = " ".join(str(exc).split())[:200] or exc.__class__.__name__
        raise InputError(f"cannot reach the Dask scheduler at {address} within {connect_timeout_s:g} s ({reason})") \
            from None
    try:
        if n_workers:
            try:
                client.wait_for_workers(n_workers, timeout=connect_timeout_s * 6)
            except TimeoutError:
                have = len(client.scheduler_info().get("workers", {}))
                raise InputError(f"the Dask scheduler at {address} has {have} workers; --workers asked to wait "
                                 f"for {n_workers}") from None
        yield client
    finally:
        client.close()


class ShutdownNoise(logging.Filter):
    """Drops the records of SHUTDOWN_NOISE (the heartbeat race of a closing cluster); passes every other record."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(SHUTDOWN_NOISE)


_NOISE_FILTER = ShutdownNoise()


def quiet_shutdown_logs() -> None:
    """Drop SHUTDOWN_NOISE from distributed's loggers in this process (run on each worker as the cluster closes)."""
    for name in SHUTDOWN_LOGGERS:
        logger = logging.getLogger(name)
        if _NOISE_FILTER not in logger.filters:
            logger.addFilter(_NOISE_FILTER)


@contextlib.contextmanager
def _quiet_shutdown() -> Iterator[None]:
    """SHUTDOWN_NOISE dropped from distributed's loggers in this process while the cluster closes."""
    added = [logging.getLogger(name) for name in SHUTDOWN_LOGGERS
             if _NOISE_FILTER not in logging.getLogger(name).filters]
    for logger in added:
        logger.addFilter(_NOISE_FILTER)
    try:
        yield
    finally:
        for logger in added:
            logger.removeFilter(_NOISE_FILTER)
