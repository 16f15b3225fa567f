"""What runs on a Dask worker for `xwcp batch`: one grid's fill, with the word list loaded once per worker.

(A bench sweep's task, one bench run, is `xwcp.bench.tasks.bench_run_task`: the bench stands above this folder.)

Word lists are loaded from xwcp's on-disk cache the first time a worker needs them and kept
(`_word_list`, keyed by path, size and modification time, so an edited list is reloaded);
a task never re-reads one. Each fill runs in a child forked from the worker
(`xwcp.runtime.isolation.call_isolated`): the fill obeys its own `Limits.time_limit_s`, and a
child still running GUARD_S later is killed, so no task holds its worker past its limit.
Tasks return plain dicts; "no fill" and bad input are results, never exceptions.

Stdlib-only imports at the top: the client pickles these functions by reference.
"""
from __future__ import annotations

import functools
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from xwcp.services.load import LoadOptions
    from xwcp.services.types import FillResult, Problem
    from xwcp.words.wordlist import WordList

FILL_PROCESSES = 2
"""Processes one batch fill may run (`auto`: its search and one rival): the workers take a core each already, so
a fill forking a rival per core would multiply the processes by the cores."""
GUARD_S = 10.0
"""Seconds past its time limit a fill may run before the worker kills it (CP-SAT overshoots by up to ~5 s)."""
Record = dict[str, Any]
"""A grid's result record: the JSON object written to its result file."""


@dataclass(frozen=True)
class WordsKey:
    """Which word list a task uses: a file (None = the embedded default) and its size and mtime when sent."""

    path: str | None
    size: int = 0
    mtime_ns: int = 0
    language: str | None = None
    """The language the list is read in (`--language`: a pack's code or file); None: English."""

    @classmethod
    def of(cls, path: str | None, language: str | None = None) -> WordsKey:
        if path is None:
            return cls(None, language=language)
        stat = os.stat(path)
        return cls(os.path.abspath(path), stat.st_size, stat.st_mtime_ns, language)


@dataclass(frozen=True)
class GridTask:
    """One grid to fill on a worker, with the options of `xwcp batch`."""

    name: str
    source: str
    grid_text: str
    words: WordsKey
    options: LoadOptions | None = None
    """How the grid and the list are compiled (min score, duplicates); None: the defaults."""
    backend: str = "auto"
    time_limit_s: float = 60.0
    seed: int = 0
    quality: bool = False
    guard_s: float = GUARD_S


@functools.lru_cache(maxsize=4)
def _word_list(key: WordsKey) -> WordList:
    """The word list of `key`, loaded once per worker process (from the compiled cache after the first load)."""
    from xwcp.model.alphabet import load_alphabet
    from xwcp.words.wordlist import load_word_list

    return load_word_list(key.path, alphabet=load_alphabet(key.language))


def worker_word_list_loads() -> int:
    """How many word lists this worker has loaded (a test reads it with `client.run`)."""
    return _word_list.cache_info().misses


def allow_child_processes() -> None:
    """Let fills start child processes from a worker that Dask started as a daemonic process.

    `multiprocessing` refuses children of a daemonic process; `auto`'s rival and the SAT
    backend's solver are such children. Our cluster starts non-daemonic workers; this covers
    workers started elsewhere. The forked fill child dies with its worker (see
    `xwcp.runtime.isolation`), so nothing outlives a worker.
    """
    import multiprocessing

    process = multiprocessing.current_process()
    if process.daemon:
        try:
            process.daemon = False
        except AssertionError:  # the main process object of a worker started without multiprocessing
            pass


def fill_grid_task(task: GridTask) -> Record:
    """Fill one grid on this worker: the record written to the grid's result file.

    Returns:
        The `xwcp fill --format json` object of the fill (status, grid, entries, reason,
        stats, seconds), plus "name", "source", "worker_pid", "wall_s" (the whole task,
        loading included) and "quality" when known. Status "error" with a "reason" when the
        grid or list cannot be used or the fill child died; "limit" when the hard guard
        stopped it.
    """
    from xwcp.runtime.isolation import call_isolated
    from xwcp.base.errors import InputError

    start = time.perf_counter()
    allow_child_processes()
    base = {"name": task.name, "source": task.source, "backend": task.backend, "seed": task.seed,
            "time_limit_s": task.time_limit_s, "worker_pid": os.getpid()}
    try:
        _import_fill_modules(task.backend)
        problem = _compile(task)
    except (InputError, ValueError, OSError) as exc:
        return {**base, "status": "error", "reason": str(exc) or exc.__class__.__name__,
                "wall_s": round(time.perf_counter() - start, 4)}

    def job() -> Record:
        return _fill_record(problem, task)

    record: Record
    try:
        record = call_isolated(job, task.time_limit_s + task.guard_s)
    except TimeoutError:
        record = {"status": "limit", "reason": f"stopped by the worker {task.guard_s:g} s after its "
                                               f"{task.time_limit_s:g} s limit"}
    except RuntimeError as exc:
        record = {"status": "error", "reason": str(exc)}
    record.pop("peak_rss_mb", None)
    record.pop("start_rss_mb", None)
    return {**base, **record, "wall_s": round(time.perf_counter() - start, 4)}


@functools.lru_cache(maxsize=None)
def _import_fill_modules(backend: str) -> None:
    """Import what a fill needs once in the worker, so each forked child starts with it (halves a tiny task's time)."""
    import xwcp.library.answers  # noqa: F401
    import xwcp.services.run  # noqa: F401
    from xwcp.services.backends import get_backend, preload

    get_backend(backend)  # an unknown or missing backend says so here
    preload(backend)


def _compile(task: GridTask) -> Problem:
    """The task's grid and list through the one loader (`xwcp.services.load.load`); the grid is text read
    under its file's name."""
    from xwcp.services.load import DEFAULT_OPTIONS, load

    text = task.grid_text if "\n" in task.grid_text else task.grid_text + "\n"  # text, never a file name
    return load(text, _word_list(task.words), task.options or DEFAULT_OPTIONS, source=task.source).problem


def _fill_record(problem: Problem, task: GridTask) -> Record:
    """In the forked child: fill (or search for quality) through the one runner, validate, and describe the
    result (the library's answer, `xwcp.FillAnswer`, as the command line's JSON)."""
    from xwcp.library.answers import FillAnswer
    from xwcp.services import run as runner

    start = time.perf_counter()
    if task.quality:  # the quality search, as `xwcp fill --quality` runs it (validated, with its quality)
        result = runner.run_fill(problem, backend=task.backend, time_limit_s=task.time_limit_s, seed=task.seed,
                                 quality=True, max_processes=FILL_PROCESSES)
    elif problem.grid.has_chains:  # chains: their boundaries chosen over splits (`xwcp.services.chains`)
        from xwcp.services.chains import fill_chains

        found = fill_chains(problem.grid, problem.words, min_score=problem.min_score,
                            allow_dupes=problem.allow_dupes, controls=problem.controls, backend=task.backend,
                            time_limit_s=task.time_limit_s, seed=task.seed, threads=1)
        problem, result = found.problem, found.result
    else:  # validates every fill with check_fill; one thread: the worker's cores are shared out by Dask
        result = runner.run_fill(problem, backend=task.backend, time_limit_s=task.time_limit_s, seed=task.seed,
                                  threads=1, max_processes=FILL_PROCESSES)
    record = FillAnswer.build(problem, result, time.perf_counter() - start).as_dict()
    if "quality" not in record and result.entries is not None:
        record["quality"] = entry_quality(problem, result.entries)
    return record


def entry_quality(problem: Problem, entries: Sequence[str]) -> Record:
    """Lowest and mean score of the fill's listed entries (the user's own unlisted entries left out)."""
    scores = [s for s in (problem.words.score(e) for e in entries) if s is not None]
    if not scores:
        return {"min_score": None, "mean_score": None}
    return {"min_score": min(scores), "mean_score": round(sum(scores) / len(scores), 2)}
