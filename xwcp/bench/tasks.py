"""What runs on a Dask worker for a bench sweep: one bench run, the instance and lists loaded once per worker.

Stdlib-only imports at the top: the client pickles these functions by reference.
"""

from __future__ import annotations

import functools
import os
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xwcp.bench.entrants import Entrant
    from xwcp.bench.inputs import Loaded, WordLists
    from xwcp.bench.rows import Row
    from xwcp.bench.suites import Instance


def bench_run_task(instance: Instance, entrant: Entrant, seed: int, time_limit_s: float, threads: int | None) -> Row:
    """One bench row's measured fields on this worker, the instance loaded once per worker.

    Same as a serial bench run (`xwcp.bench.runs.run_one` in a forked child), plus
    "worker_pid" and "wall_s".
    """
    from xwcp.bench.runs import run_one
    from xwcp.dist.tasks import allow_child_processes

    start = time.perf_counter()
    allow_child_processes()
    try:
        if entrant.kind == "xwcp" and not entrant.missing:
            _import_entrant_modules(entrant.name)
        loaded = _loaded_instance(instance)
    except Exception as exc:  # the client loaded it first; a worker that cannot is a row, not a crash
        return {"status": "error", "note": f"on the worker: {exc}", "worker_pid": os.getpid()}
    if entrant.kind == "cli" and loaded.grid_path is None:
        from xwcp.bench.inputs import prepare_cli_inputs

        prepare_cli_inputs(instance, loaded)
    fields = run_one(loaded, entrant, seed, time_limit_s, threads, isolate=True)
    return {**fields, "worker_pid": os.getpid(), "wall_s": round(time.perf_counter() - start, 4)}


@functools.lru_cache(maxsize=1)
def _bench_lists() -> WordLists:
    from xwcp.bench.inputs import WordLists

    return WordLists()


@functools.lru_cache(maxsize=8)
def _loaded_instance(instance: Instance) -> Loaded:
    from xwcp.bench.inputs import load_instance

    return load_instance(instance, _bench_lists())


@functools.lru_cache(maxsize=None)
def _import_entrant_modules(name: str) -> None:
    """Import what an entrant's fill needs once in the worker, so each forked child starts with it."""
    import xwcp.render.report  # noqa: F401
    from xwcp.bench.entrants import get_fill_module
    from xwcp.engine.kernel import Engine  # noqa: F401

    get_fill_module(name)
