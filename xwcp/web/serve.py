"""Run the builder under uvicorn: one process, or N worker processes sharing the listening socket (`--workers`).

Every request is stateless (the grid travels with it; a process keeps only caches keyed by
content and the personal list's file), so the workers need no coordination: the kernel hands
each new connection to one of them. The same holds across machines: several `xwcp serve`
processes behind any load balancer serve more users (README, "Web builder"). Workers get their
options through the environment (uvicorn starts them with the `spawn` method and builds each
app from an import string).
"""
from __future__ import annotations

import json
import math
import os
import socket
from collections.abc import Callable

from xwcp.errors import InputError

CONFIG_ENV = "XWCP_SERVE_CONFIG"
"""Environment variable holding a worker's options (JSON)."""
WS_MAX_BYTES = 1 << 20
"""Largest WebSocket message (a fill request is a grid: well under this)."""


def app_from_environment():
    """The app of one worker process, from the options `serve` put in CONFIG_ENV."""
    from xwcp.web.app import create_app

    config = json.loads(os.environ[CONFIG_ENV])
    return create_app(config["words"], max_fills=config["max_fills"], hosts=frozenset(config["hosts"]),
                      personal=config["personal"])


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
            raise InputError(f"cannot listen on {host} port {port}: {exc.strerror or exc}"
                             + (" (another server is using it: pick another --port)"
                                if exc.errno in (98, 48) else "")) from None


def serve(*, host: str, port: int, words: list[str] | None, workers: int, max_fills: int, hosts: frozenset[str],
          personal: bool, announce: Callable[[str], None]) -> None:
    """Serve until stopped; `announce` gets the page's URL once the port is known to be free.

    `max_fills` is shared out: each of the `workers` processes runs at most ceil(max_fills / workers).

    Raises:
        InputError: the port is taken, or the word list cannot be loaded.
    """
    import uvicorn

    check_port(host, port)
    per_worker = max(1, math.ceil(max_fills / workers))
    url_host = f"[{host}]" if ":" in host else host
    if workers == 1:
        from xwcp.web.app import create_app

        app = create_app(words, max_fills=per_worker, hosts=hosts, personal=personal)
        announce(f"http://{url_host}:{port}/")
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=WS_MAX_BYTES)
        return
    if words:  # load once here, so a bad list is one line and exit 2, and the workers find it in the cache
        from xwcp.wordlist import load_word_list

        for path in words:
            load_word_list(path)
    os.environ[CONFIG_ENV] = json.dumps({"words": words, "max_fills": per_worker, "hosts": sorted(hosts),
                                         "personal": personal})
    announce(f"http://{url_host}:{port}/")
    uvicorn.run("xwcp.web.serve:app_from_environment", factory=True, host=host, port=port, workers=workers,
                log_level="warning", ws_max_size=WS_MAX_BYTES)
