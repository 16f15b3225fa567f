"""`xwcp batch`: fill many grids as Dask tasks, each result written to its own files as it arrives, resumable.

Plan (`plan_batch`, on the client): expand folders into their grid files, read every grid
once (a grid that cannot be read is reported and left out), compile the word list's cache
once so workers only load it, check the backend (and the quality search when asked), and
with `resume` leave out every grid whose result file is already there.

Run (`run_plan` opens a cluster when there is work, `run_batch` uses a client): one task per
grid (`xwcp.dist.tasks.fill_grid_task`); results are taken in the order they finish
(`as_completed`) and each is written at once: `NAME.json` (the `xwcp fill --format json`
object plus timing, worker and quality) and, for a fill, the filled grid in every format of
`GRID_WRITERS` (`NAME.txt`: the grid syntax xwcp reads).
Files are written atomically and the JSON last, so a killed batch keeps every finished grid
and `--resume` never mistakes a half-written file for a result. A task whose worker dies is
rescheduled by Dask (up to the scheduler's `allowed-failures`) and a task that raises is
retried `retries` times; after that the grid's result says "error" with the reason, and
every other grid goes on.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from xwcp.base.types import FillStatus
from xwcp.dist.tasks import GridTask, Record, WordsKey
from xwcp.runtime.files import load_json
from xwcp.runtime.writes import write_output

if TYPE_CHECKING:
    from xwcp.services.load import LoadOptions
    from distributed import Client, Future

GRID_SUFFIXES = (".txt",)
"""Files a folder argument contributes (named files are read whatever their suffix)."""
MAX_RESULT_BYTES = 16 * 1024 * 1024
"""Largest result file --resume reads (one is a few KB; a bigger one is not ours and is done again)."""
RETRIES = 1
"""Times a task that raised on its worker is run again before its grid is recorded as "error"."""
ANSWERED = ("filled", "unfillable")
"""Statuses that settle a grid: a fill, or a proof that none exists."""


def write_grid_text(rows: Sequence[str], path: Path) -> None:
    """The filled grid in xwcp's own grid syntax, one row per line (`xwcp check` reads it back)."""
    _write_atomically(path, "".join(row + "\n" for row in rows))


GridWriter = Callable[[Sequence[str], Path], None]
"""Writes a filled grid's rows to a file."""
GRID_WRITERS: dict[str, GridWriter] = {"txt": write_grid_text}
"""How a filled grid is written, by file suffix. Another format registers here with
`GRID_WRITERS["puz"] = writer` (e.g. from `xwcp.formats`); each writer gets the grid's rows."""


@dataclass
class BatchPlan:
    """What a batch will do: the tasks to run, and the grids it leaves out and why."""

    out_dir: Path
    tasks: list[GridTask] = field(default_factory=list)
    done: dict[str, Record] = field(default_factory=dict)
    """Grids left out because their result file exists (`resume`), with the record read from it."""
    unreadable: dict[str, str] = field(default_factory=dict)
    """Grids that could not be read, by name, with the reason."""


@dataclass
class BatchOutcome:
    """Every result of this run by grid name, the results of earlier runs it resumed, and whether it was cut short."""

    out_dir: Path
    records: dict[str, Record] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)
    interrupted: bool = False
    stop_exit_code: int = 130
    """When interrupted: 128 + the stop signal's number (130 Ctrl-C, 143 SIGTERM; see `xwcp.runtime.signals`)."""
    earlier: dict[str, Record] = field(default_factory=dict)
    """Results already in `out_dir` from an earlier run (`resume`), by grid name."""

    def counts(self) -> dict[str, int]:
        """Grids by status, over this run and the earlier results it resumed."""
        counts: dict[str, int] = {}
        for record in [*self.earlier.values(), *self.records.values()]:
            counts[record["status"]] = counts.get(record["status"], 0) + 1
        return counts

    @property
    def exit_code(self) -> int:
        """Over every grid of the batch (earlier results included): 0 every grid filled, 1 some proven
        unfillable (the rest filled), 3 some without an answer (limit or error); 128 + N stopped by
        signal N (130 Ctrl-C)."""
        if self.interrupted:
            return self.stop_exit_code
        statuses = set(self.counts())
        if statuses - set(ANSWERED):
            return 3
        return 1 if "unfillable" in statuses else 0


def grid_paths(arguments: Iterable[str]) -> list[Path]:
    """The grid files named, with each folder replaced by its grid files (sorted, not recursive)."""
    paths: list[Path] = []
    for text in arguments:
        path = Path(text)
        if path.is_dir():
            paths.extend(sorted(p for p in path.iterdir() if p.is_file() and p.name.endswith(GRID_SUFFIXES)))
        else:
            paths.append(path)
    return paths


def result_names(paths: Sequence[Path]) -> list[str]:
    """A result-file name per grid: its file name without the suffix, made unique with -2, -3 ..."""
    names: list[str] = []
    seen: set[str] = set()
    for path in paths:
        stem = path.name.removesuffix(path.suffix) if path.suffix else path.name
        name, k = stem, 1
        while name in seen:
            k += 1
            name = f"{stem}-{k}"
        seen.add(name)
        names.append(name)
    return names


def result_path(out_dir: Path, name: str) -> Path:
    return out_dir / f"{name}.json"


def read_result(out_dir: Path, name: str) -> Record | None:
    """The grid's result record when its file exists and is a complete JSON record, else None (a damaged one too:
    cut short, nested deep, a number Python will not read or no number at all, NaN: the grid is run again)."""
    from xwcp.runtime.files import read_bounded

    path = result_path(out_dir, name)
    try:  # bounded: a result is a few KB; anything else put there is not one
        record = load_json(read_bounded(path, MAX_RESULT_BYTES, "result").decode("utf-8"), str(path))
    except (OSError, ValueError):  # (InputError is a ValueError: missing, a device, over the cap, not JSON)
        return None
    return record if isinstance(record, dict) and record.get("status") else None


def plan_batch(arguments: Sequence[str], *, out_dir: Path, words_path: str | None = None,
               options: LoadOptions | None = None, backend: str = "auto", time_limit_s: float = 60.0, seed: int = 0,
               quality: bool = False, resume: bool = False) -> BatchPlan:
    """Read the grids and check the options; nothing runs yet. `options`: how every grid is compiled (min score,
    duplicates) and the language of the grids and the list (a pack's code or file; None: English).

    Raises:
        InputError: no grid named, an unknown backend, a word list that cannot be read,
            or `out_dir` that is a file.
    """
    from xwcp.services.backends import get_backend
    from xwcp.base.errors import InputError
    from xwcp.model import read_grid

    paths = grid_paths(arguments)
    if not paths:
        raise InputError("no grid files given (folders contribute their *.txt files)")
    get_backend(backend)
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"--out {out_dir} is a file; --out names a folder for one result file per grid")
    from xwcp.model.alphabet import load_alphabet
    from xwcp.services.load import DEFAULT_OPTIONS, load_words

    options = options or DEFAULT_OPTIONS
    language = options.language
    if not (language is None or isinstance(language, str)):
        raise TypeError(f"a batch's language is a pack's code or file, not {type(language).__name__}")
    alphabet = load_alphabet(language)
    load_words(words_path, alphabet=alphabet)  # compiles the cache once here (refuses the English default list
    # for another language); workers only load it
    words = WordsKey.of(words_path, language)
    plan = BatchPlan(out_dir)
    for path, name in zip(paths, result_names(paths)):
        earlier = read_result(out_dir, name) if resume else None
        if earlier is not None:
            plan.done[name] = earlier
            continue
        try:
            grid = read_grid(path, alphabet)
        except (InputError, OSError, ValueError) as exc:
            plan.unreadable[name] = str(exc) or exc.__class__.__name__
            continue
        plan.tasks.append(GridTask(name, str(path), grid.render(alphabet), words, options, backend, time_limit_s, seed,
                                   quality))
    if plan.unreadable and not plan.tasks and not plan.done:
        first, reason = next(iter(plan.unreadable.items()))
        more = len(plan.unreadable) - 1
        raise InputError(f"no grid could be read: {reason}" + (f" (and {more} more)" if more else ""))
    return plan


def run_batch(plan: BatchPlan, client: Client, *, on_result: Callable[[str, Record, Path], None] | None = None,
              retries: int = RETRIES, grid_writers: dict[str, GridWriter] | None = None) -> BatchOutcome:
    """Run the plan's tasks on `client`'s cluster, writing each result as it arrives.

    Args:
        plan: from `plan_batch`.
        client: a `distributed.Client` (see `xwcp.dist.cluster.open_client`).
        on_result: called with (name, record, JSON path) after each result is written.
        retries: runs again of a task that raised on its worker.
        grid_writers: formats of the filled grid (default `GRID_WRITERS`).

    Returns:
        The results of this run. On KeyboardInterrupt the tasks still queued are cancelled
        and `interrupted` is set; the files written so far stay.
    """
    from distributed import as_completed

    from xwcp.dist.tasks import fill_grid_task

    plan.out_dir.mkdir(parents=True, exist_ok=True)
    outcome = BatchOutcome(plan.out_dir, earlier=dict(plan.done))
    futures: dict[Future[Record], GridTask] = {}
    try:
        for task in plan.tasks:
            future = client.submit(fill_grid_task, task, pure=False, retries=retries, key=f"xwcp-fill-{task.name}-"
                                   f"{os.urandom(4).hex()}")
            futures[future] = task
        for future in as_completed(futures):
            task = futures[future]
            record = task_record(future, task)
            path = write_result(plan.out_dir, task.name, record, grid_writers)
            outcome.records[task.name] = record
            outcome.files[task.name] = path
            if on_result is not None:
                on_result(task.name, record, path)
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP turned into one by `xwcp.runtime.signals`
        outcome.interrupted = True
        outcome.stop_exit_code = getattr(exc, "exit_code", 130)
        client.cancel(list(futures))
    return outcome


def run_plan(plan: BatchPlan, address: str | None = None, *, n_workers: int | None = None,
             on_result: Callable[[str, Record, Path], None] | None = None) -> BatchOutcome:
    """Run the plan on a cluster opened for it (`xwcp.dist.cluster.open_client`); none when nothing is left to do.

    Raises:
        InputError: the scheduler at `address` cannot be reached (see `open_client`).
    """
    from xwcp.dist.cluster import open_client

    if not plan.tasks:
        return BatchOutcome(plan.out_dir, earlier=dict(plan.done))
    with open_client(address, n_workers=n_workers) as client:
        return run_batch(plan, client, on_result=on_result)


def task_record(future: Future[Record], task: GridTask) -> Record:
    """The future's record, or an "error" record naming why the task failed (its worker died too often,
    or it raised)."""
    try:
        return future.result()
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        from distributed import KilledWorker

        if isinstance(exc, KilledWorker):
            reason = f"its worker died while running it, on every try ({exc})"
        else:
            reason = f"{exc.__class__.__name__}: {exc}"
        return {"name": task.name, "source": task.source, "backend": task.backend, "seed": task.seed,
                "time_limit_s": task.time_limit_s, "status": "error", "reason": " ".join(reason.split())[:500]}


def write_result(out_dir: Path, name: str, record: Record, grid_writers: dict[str, GridWriter] | None = None) -> Path:
    """Write the grid's files: the filled grid in each format, then `NAME.json` (the marker that it is done)."""
    rows = record.get("grid")
    if rows and _is_filled(record):
        for suffix, writer in (GRID_WRITERS if grid_writers is None else grid_writers).items():
            writer(rows, out_dir / f"{name}.{suffix}")
    path = result_path(out_dir, name)
    _write_atomically(path, json.dumps(record, indent=1) + "\n")
    return path


def _write_atomically(path: Path, text: str) -> None:
    write_output(path, text, "batch result")


def _is_filled(record: Record) -> bool:
    """Whether a grid's result record holds a fill (its status is a FillStatus value, or "error")."""
    return record.get("status") == FillStatus.FILLED.value


def result_line(name: str, record: Record) -> str:
    """One console line for a grid's result."""
    status = record["status"]
    is_filled = _is_filled(record)
    text = f"{name}: {status}"
    if record.get("seconds") is not None:
        text += f" in {record['seconds']:.2f} s"
    quality = record.get("quality") or {}
    if is_filled and quality.get("mean_score") is not None:
        text += f" (mean score {quality['mean_score']:g}, min {quality['min_score']})"
    if not is_filled and record.get("reason"):
        text += f": {record['reason']}"
    return text


def summary_dict(plan: BatchPlan, outcome: BatchOutcome) -> Record:
    """The `xwcp batch --format json` object."""
    return {"out": str(outcome.out_dir), "grids": len(plan.tasks) + len(plan.done) + len(plan.unreadable),
            "ran": len(outcome.records), "already_done": list(plan.done), "unreadable": plan.unreadable,
            "counts": outcome.counts(), "interrupted": outcome.interrupted,
            "results": [{"name": name, "status": record["status"], "file": str(outcome.files[name])}
                        for name, record in outcome.records.items()]}


def summary_text(plan: BatchPlan, outcome: BatchOutcome) -> str:
    counts = ", ".join(f"{n} {status}" for status, n in sorted(outcome.counts().items())) or "no results"
    n_grids = len(outcome.records) + len(outcome.earlier)
    text = f"{n_grids} grid{'' if n_grids == 1 else 's'}: {counts}; results in {outcome.out_dir}/"
    if plan.done:
        text += f" ({len(plan.done)} already done before this run)"
    if outcome.interrupted:
        text = "interrupted; " + text
    return text
