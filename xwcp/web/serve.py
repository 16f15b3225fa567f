"""Run the builder under uvicorn: one process, or N worker processes sharing the port (`--workers`).

Every request is stateless (the grid travels with it; a process keeps only caches keyed by
content and the personal list's file), so the workers need no coordination. Each worker listens
on the port with SO_REUSEPORT, so the kernel spreads new connections evenly over them (with
one shared socket, whichever worker is idle first accepts: 50 kept-alive clients split 32/18
and the busier worker sets the p95). A worker that dies is started again. Outside Linux (where
SO_REUSEPORT does not spread connections, or is missing) uvicorn's own workers share one socket. The same statelessness holds across
machines: several `xwcp serve` processes behind any load balancer serve more users (docs/builder.md). Workers get their options through the environment (they start with `spawn`).

The workers share the cores: each gives one search (a fill's portfolio, a verification's processes) its
share of them (`xwcp.runtime.cores.worker_share`, through XWCP_MAX_PROCESSES), so N workers do not each
fork a process per core. One worker gives its searches every core.
"""

from __future__ import annotations

import json
import math
import os
import socket
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from xwcp.base.errors import InputError

if TYPE_CHECKING:
    from multiprocessing.context import SpawnProcess

    from starlette.applications import Starlette

CONFIG_ENV = "XWCP_SERVE_CONFIG"
"""Environment variable holding a worker's options (JSON)."""
WS_MAX_BYTES = 1 << 20
"""Largest WebSocket message (a fill request is a grid: well under this)."""
BACKLOG = 2048
"""Connections a worker's socket queues (uvicorn's default)."""
CACHE_MB = 512
"""Megabytes of kept grids over all worker processes (`--cache-mb`)."""
RESTART_GRACE_S = 10.0
"""A worker that dies sooner than this after starting, twice in a row, stops the server (a broken start)."""


def app_from_environment() -> Starlette:
    """The app of one worker process, from the options `serve` put in CONFIG_ENV."""
    from xwcp.web.app import create_app

    config = json.loads(os.environ[CONFIG_ENV])
    app = create_app(
        config["words"],
        max_fills=config["max_fills"],
        hosts=frozenset(config["hosts"]),
        personal=config["personal"],
        language=config.get("language"),
        cache_bytes=config.get("cache_bytes"),
    )
    _warm_up()
    return app


def _warm_up() -> None:
    """Start the fork server uploads are read from (xwcp/web/puzzles.py), so the first open is as quick as the next."""
    from xwcp.web.puzzles import warm_up

    warm_up()


def check_port(host: str, port: int) -> None:
    """Refuse a port that is taken (one line, before any list is loaded).

    Raises:
        InputError: the address cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise InputError(
                f"cannot listen on {host} port {port}: {exc.strerror or exc}"
                + (" (another server is using it: pick another --port)" if exc.errno in (98, 48) else "")
            ) from None


def serve(
    *,
    host: str,
    port: int,
    words: list[str] | None,
    workers: int,
    max_fills: int,
    hosts: frozenset[str],
    personal: bool,
    announce: Callable[[str], None],
    language: str | None = None,
    cache_mb: int = CACHE_MB,
) -> None:
    """Serve until stopped; `announce` gets the page's URL once the port is known to be free.

    `max_fills` is shared out: each of the `workers` processes runs at most ceil(max_fills / workers); so is
    `cache_mb`, the megabytes of grids the processes keep between requests (xwcp/services/analysis_cache.py),
    and so are the cores one search may use (`share_cores`).

    Raises:
        InputError: the port is taken, or the word list cannot be loaded.
    """
    import uvicorn

    check_port(host, port)
    per_worker = max(1, math.ceil(max_fills / workers))
    cache_bytes = max(1, cache_mb * 2**20 // workers)
    url_host = f"[{host}]" if ":" in host else host
    if workers == 1:
        from xwcp.web.app import create_app

        app = create_app(
            words, max_fills=per_worker, hosts=hosts, personal=personal, language=language, cache_bytes=cache_bytes
        )
        _warm_up()
        announce(f"http://{url_host}:{port}/")
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=WS_MAX_BYTES)
        return
    from xwcp.model.alphabet import load_alphabet
    from xwcp.services.load import load_words

    share_cores(workers)
    # load once here, so a bad list (or the English default for another language) is one line and exit 2, and
    # the workers find it in the cache
    if words or language not in (None, "en"):
        load_words(words, alphabet=load_alphabet(language))
    os.environ[CONFIG_ENV] = json.dumps(
        {
            "words": words,
            "max_fills": per_worker,
            "hosts": sorted(hosts),
            "personal": personal,
            "language": language,
            "cache_bytes": cache_bytes,
        }
    )
    announce(f"http://{url_host}:{port}/")
    if not (hasattr(socket, "SO_REUSEPORT") and sys.platform.startswith("linux")):  # elsewhere it does not balance
        uvicorn.run(
            "xwcp.web.serve:app_from_environment",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level="warning",
            ws_max_size=WS_MAX_BYTES,
        )
        return
    _supervise(host, port, workers)


def share_cores(workers: int) -> int:
    """Cap the processes one search of each worker may use at its share of the cores (`worker_share`), through
    XWCP_MAX_PROCESSES, which the workers inherit; a lower cap already set is kept. Returns the cap."""
    from xwcp.runtime.cores import MAX_PROCESSES_ENV, env_cap, worker_share

    share = worker_share(workers)
    cap = env_cap()
    share = share if cap is None else min(cap, share)
    os.environ[MAX_PROCESSES_ENV] = str(share)
    return share


def _listen(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(BACKLOG)
    return sock


def _worker(host: str, port: int) -> None:
    """One worker process: its own SO_REUSEPORT socket, uvicorn serving the app built from CONFIG_ENV."""
    import uvicorn

    from xwcp.runtime.signals import forget_signals_in_child

    forget_signals_in_child()  # dies with the supervisor even when that is killed outright
    sock = _listen(host, port)
    config = uvicorn.Config(app_from_environment, factory=True, log_level="warning", ws_max_size=WS_MAX_BYTES)
    uvicorn.Server(config).run(sockets=[sock])


def _supervise(host: str, port: int, workers: int) -> None:
    """Start the workers and keep them running until a stop signal (then stop them all and wait)."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    started: dict[int, float] = {}
    processes: list[SpawnProcess | None] = [None] * workers
    quick_deaths = 0

    def start(index: int) -> None:
        process = context.Process(target=_worker, args=(host, port), name=f"xwcp-serve-{index}", daemon=False)
        process.start()
        processes[index] = process
        started[index] = time.monotonic()

    try:
        for index in range(workers):
            start(index)
        while True:
            time.sleep(0.5)
            for index, process in enumerate(processes):
                if process is None or process.is_alive():  # None: not started (each is, before this loop)
                    continue
                quick = time.monotonic() - started[index] < RESTART_GRACE_S
                quick_deaths = quick_deaths + 1 if quick else 0
                if quick_deaths >= 2:
                    raise InputError(
                        f"the server's worker processes stop right after starting (exit code "
                        f"{process.exitcode}); run with --workers 1 to see why"
                    )
                start(index)
    finally:
        for process in processes:
            if process is not None and process.is_alive():
                process.terminate()  # uvicorn stops gracefully on SIGTERM: fills are aborted, sockets closed
        for process in processes:
            if process is not None:
                process.join(timeout=10)
                if process.is_alive():
                    process.kill()
