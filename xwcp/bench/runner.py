"""Run every entrant on every instance, interleaved, writing each row as it is measured."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from xwcp.bench.entrants import Entrant
from xwcp.bench.inputs import WordLists, load_instance, prepare_cli_inputs
from xwcp.bench.rows import Row, RowWriter
from xwcp.bench.runs import run_one
from xwcp.bench.suites import Instance

if TYPE_CHECKING:
    from distributed import Client, Future

    from xwcp.bench.inputs import Loaded

DEFAULT_TIME_LIMIT_S = 60.0
"""The limit the project's peer measurements use (SOLVER-FACTS.md)."""


@dataclass
class BenchRun:
    """What `run_bench` did: its rows (also on disk), whether it was interrupted, and where it wrote."""

    rows: list[Row]
    out_dir: Path
    interrupted: bool = False
    entrants: list[Entrant] = field(default_factory=list)
    time_limit_s: float = DEFAULT_TIME_LIMIT_S
    unreadable: dict[str, str] = field(default_factory=dict)
    """Why each instance that could not be loaded could not (its rows are "error" rows), by instance name."""


def run_bench(
    instances: Sequence[Instance],
    entrants: Sequence[Entrant],
    *,
    out_dir: Path,
    time_limit_s: float = DEFAULT_TIME_LIMIT_S,
    seeds: int = 1,
    threads: int | None = None,
    isolate: bool | None = None,
    progress: bool | None = None,
    warn: Callable[[str], None] | None = None,
    client: Client | None = None,
) -> BenchRun:
    """Run every entrant on every instance (backends once per seed, peers once), interleaved.

    Args:
        instances: what to solve, in order.
        entrants: backends and peers; for each instance (and seed) each runs in turn, the
            starting entrant rotating from one instance to the next.
        out_dir: where rows.csv and rows.json are written as rows are produced.
        time_limit_s: each run's wall-clock limit.
        seeds: backends run with seeds 0..seeds-1.
        threads: worker threads for backends that use them (default: the backend's own).
        isolate: run each fill in a forked worker (default: when fork exists).
        progress: show a progress bar on stderr (default: when stderr is a terminal).
        warn: called with one line for each instance that cannot be loaded, as it happens.
        client: a `distributed.Client`: each (instance, entrant, seed) run becomes one task on its
            cluster (`xwcp.bench.tasks.bench_run_task`, in a forked child as here) and rows are
            written in the order the runs finish. None runs them here, one at a time.

    Returns:
        The rows; `interrupted` is True when KeyboardInterrupt stopped the run early (the rows
        so far are on disk); `unreadable` names the instances that could not be loaded.
    """
    from tqdm import tqdm

    isolate = hasattr(os, "fork") if isolate is None else isolate
    progress = sys.stderr.isatty() if progress is None else progress
    peer_entrants = [e for e in entrants if e.kind == "peer"]
    has_cli = any(e.kind == "cli" and not e.missing for e in entrants)
    total = len(instances) * ((len(entrants) - len(peer_entrants)) * seeds + len(peer_entrants))
    writer = RowWriter(out_dir)
    lists = WordLists()
    run = BenchRun(writer.rows, out_dir, entrants=list(entrants), time_limit_s=time_limit_s)
    tqdm.monitor_interval = 0  # no monitor thread: the bench forks workers
    bar = tqdm(total=total, file=sys.stderr, disable=not progress, unit="run", dynamic_ncols=True)
    old_sigterm = _sigterm_as_interrupt()
    row_by_future: dict[Future[Row], Row] = {}
    try:
        for index, instance in enumerate(instances):
            base: Row = {
                "suite": instance.suite,
                "grid": instance.name,
                "min_score": instance.min_score,
                "time_limit_s": time_limit_s,
            }
            loaded: Loaded | None = None
            _release_memory()  # so the next workers do not start with the last instance's freed heap
            try:
                loaded = load_instance(instance, lists)
            except Exception as exc:  # an unusable file is a row, not the end of the bench
                note = str(exc) or exc.__class__.__name__
                run.unreadable[instance.name] = note
                if warn is not None:
                    bar.clear()
                    warn(f"{instance.name}: {note}")
                for seed, entrant in _schedule(entrants, seeds, index):
                    writer.add(
                        {
                            **base,
                            "backend": entrant.name,
                            "kind": entrant.kind,
                            "seed": seed,
                            "status": "error",
                            "note": note,
                        }
                    )
                    bar.update(1)
                continue
            grid = loaded.grid
            from xwcp.model import find_slots

            base.update(
                width=grid.width,
                height=grid.height,
                blocks=grid.n_blocks,
                slots=len(find_slots(grid)),
                words=loaded.n_words,
                min_score=loaded.min_score,
            )
            if has_cli:
                prepare_cli_inputs(instance, loaded)
            for seed, entrant in _schedule(entrants, seeds, index):
                row: Row = {**base, "backend": entrant.name, "kind": entrant.kind, "seed": seed}
                if client is not None and not entrant.missing:
                    row_by_future[_submit(client, instance, entrant, seed, time_limit_s, threads)] = row
                    continue
                bar.set_postfix_str(f"{instance.name} {entrant.label}")
                row.update(run_one(loaded, entrant, seed, time_limit_s, threads, isolate))
                writer.add(row)
                bar.update(1)
        if row_by_future:
            from distributed import as_completed

            for future in as_completed(row_by_future):
                row = row_by_future.pop(future)
                row.update(_task_fields(future))
                writer.add(row)
                bar.update(1)
    except KeyboardInterrupt:
        run.interrupted = True
        if row_by_future and client is not None:
            client.cancel(list(row_by_future))
    finally:
        if old_sigterm is not None:
            signal.signal(signal.SIGTERM, old_sigterm)
        bar.close()
        writer.close()
    return run


def _submit(
    client: Client, instance: Instance, entrant: Entrant, seed: int, time_limit_s: float, threads: int | None
) -> Future[Row]:
    """One run as a task; its files are named by absolute paths, so a worker started in another folder finds them."""
    from dataclasses import replace

    from xwcp.bench.tasks import bench_run_task

    if instance.path is not None:
        instance = replace(instance, path=instance.path.absolute())
    if instance.words.path is not None:
        instance = replace(instance, words=replace(instance.words, path=os.path.abspath(instance.words.path)))
    return client.submit(bench_run_task, instance, entrant, seed, time_limit_s, threads, pure=False, retries=1)


def _task_fields(future: Future[Row]) -> Row:
    """A finished task's row fields, or an "error" row naming why it failed (its worker died on every try)."""
    try:
        fields = future.result()
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        return {"status": "error", "note": " ".join(f"{exc.__class__.__name__}: {exc}".split())[:500]}
    fields.pop("worker_pid", None)
    fields.pop("wall_s", None)
    return fields


def _sigterm_as_interrupt() -> Callable[[int, FrameType | None], Any] | int | signal.Handlers | None:
    """Treat SIGTERM (`kill`, `timeout`) like Ctrl-C, so the rows are finished and workers stopped.

    Returns:
        The previous handler, or None when not in the main thread (handlers cannot be set there).
    """

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, interrupt)


def _release_memory() -> None:
    """Collect garbage and hand freed heap back to the OS (glibc), so forked workers start small."""
    import ctypes
    import gc

    gc.collect()
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _schedule(entrants: Sequence[Entrant], seeds: int, index: int) -> list[tuple[int, Entrant]]:
    """(seed, entrant) pairs for one instance: per seed each backend in turn, peers only with seed 0."""
    order = list(entrants[index % len(entrants) :]) + list(entrants[: index % len(entrants)]) if entrants else []
    pairs: list[tuple[int, Entrant]] = []
    for seed in range(seeds):
        pairs.extend((seed, e) for e in order if e.kind != "peer" or seed == 0)
    return pairs
