"""Benchmark xwcp backends and peer solvers side by side on grid suites: rows, summary table and plots.

For each grid, every backend (for every seed) and every peer run in turn, so the machine's
load falls on all of them alike. Each run happens in a freshly forked worker process (its
own process group), which gives each run a clean peak-memory reading and lets the bench stop
a run that overstays its limit. Rows go to `rows.csv` (appended and flushed per row) and
`rows.json` (rewritten atomically per row) as they are produced, so an interrupted run keeps
what it measured.

Times: an xwcp row's `seconds` is compiling the problem plus the backend's fill (the word
list is loaded once per suite, from its cache, before any run); a "cli" row's is a whole
`xwcp fill` command; a peer row's is the peer's whole command, including the peer reading
its word list. Peers are deterministic and run once per grid (seed 0); backends run once
per seed. bench/README.md says what every column means and how memory is measured.

Top-level imports stay light (stdlib only): `xwcp --help` imports this module.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import pickle
import platform
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_TIME_LIMIT_S = 60.0
"""The limit the project's peer measurements use (SOLVER-FACTS.md)."""
OVERSTAY_GRACE_S = 30.0
"""A worker still running this long after its limit is stopped by the bench (CP-SAT overshoots by ~5 s)."""
STOP_GRACE_S = 3.0
"""After SIGINT, how long a worker gets to stop its own children (peers, auto's rival) before SIGKILL."""
PEER_SAMPLE_S = 0.02
"""How often the peak memory of a peer's processes is sampled from /proc (VmHWM is a running peak)."""
SCALING_LIST_SIZES = (25_000, 50_000, 100_000, None)
"""List cuts of the scaling suite (None = the whole list: 252,200 entries for the default list)."""
COLUMNS = ("suite", "grid", "width", "height", "blocks", "slots", "words", "backend", "kind", "seed",
           "status", "seconds", "nodes", "backtracks", "peak_rss_mb", "valid", "note",
           "min_score", "time_limit_s", "start_rss_mb")
"""Row fields, in CSV column order (see bench/README.md for what each means)."""
STATUSES = ("filled", "unfillable", "limit", "aborted", "skipped", "error")
ANSWERED = ("filled", "unfillable")
"""Statuses that settle an instance: a fill, or a proof that none exists."""

SUITES = {
    "vanbeek72": "the 72 van Beek grids (models/vanbeek) with the SCOWL-55 list, min score 0",
    "vanbeek72-ukacd": "the 72 van Beek grids with the UKACD list, min score 0",
    "herald15": "Herald Tribune 15x15 grids 15.01-15.10 with the default list, min score 50",
    "herald21": "Herald Tribune 21x21 grids 21.01-21.10 with the default list, min score 50",
    "xcsp": "the XCSP crossword instances in bench/xcsp, each with its own words and distinct-words rule",
    "stock": "the stock grids models/*.txt with the default list, min score 50",
    "scaling": "open 4x4-7x7 and blocked 5x5-15x15 grids (bench/scaling) x the default list cut to "
               "its best 25k/50k/100k entries and all of it",
}
SCOWL_LIST = "bench/wordlists/scowl-english-55.words.txt"
UKACD_LIST = "bench/wordlists/ukacd18plus.normalized-az.words.txt"
XCSP_SUFFIXES = (".xml", ".xml.xz", ".xml.lzma")


# ----- what runs: word sources, instances, entrants ------------------------------------------

@dataclass(frozen=True)
class WordSource:
    """A word list: a file (None = the embedded default list), optionally cut to its best `top_n` entries.

    A cut keeps the `top_n` highest-scored entries, ties broken alphabetically.
    """

    path: str | None = None
    top_n: int | None = None


@dataclass(frozen=True)
class Instance:
    """One benchmark grid: a grid file, an XCSP file (brings its own words), or rows made in code."""

    suite: str
    name: str
    path: Path | None = None
    rows: tuple[str, ...] | None = None
    words: WordSource = WordSource()
    min_score: int = 50
    allow_dupes: bool = False

    @property
    def is_xcsp(self) -> bool:
        return self.path is not None and self.path.name.endswith(XCSP_SUFFIXES)


@dataclass(frozen=True)
class Entrant:
    """A competitor: an xwcp backend in a forked worker (kind "xwcp"), an xwcp backend as a whole
    `xwcp fill` command (kind "cli"), or a peer solver (kind "peer")."""

    name: str
    kind: str
    missing: str = ""
    """Why it cannot run here (not installed); its rows are then "skipped"."""

    @property
    def label(self) -> str:
        return _label(self.name, self.kind)


def _label(name: str, kind: str) -> str:
    return f"{name} (cli)" if kind == "cli" else name


@dataclass
class _Loaded:
    grid: object  # xwcp.grid.Grid
    words: object  # xwcp.wordlist.WordList
    n_words: int
    min_score: int
    allow_dupes: bool
    word_key: str
    grid_path: Path | None = None
    """A grid file the `xwcp fill` command can read (set when a "cli" entrant runs)."""
    words_arg: str | None = None
    """The --words file for the `xwcp fill` command (None: the default list)."""


def repo_root() -> Path:
    """The checkout holding models/ and bench/: the package's parent folder, else the working directory."""
    here = Path(__file__).resolve().parent.parent
    return here if (here / "models").is_dir() else Path.cwd()


def suite_instances(suite: str, *, root: Path | None = None, words_path: str | None = None,
                    min_score: int | None = None) -> list[Instance]:
    """The instances of a named suite.

    Args:
        suite: a key of `SUITES`.
        root: the checkout holding models/ and bench/ (default `repo_root()`).
        words_path: replaces the suite's word list (not for "xcsp", whose instances bring their own).
        min_score: replaces the suite's minimum score.

    Returns:
        The instances, in the order they run.

    Raises:
        InputError: unknown suite, or its grid folder is missing.
    """
    from xwcp.errors import InputError

    root = root or repo_root()
    if suite not in SUITES:
        raise InputError(f"unknown suite {suite!r}; suites: {', '.join(SUITES)}")

    def need(folder: Path) -> Path:
        if not folder.is_dir():
            raise InputError(f"suite {suite!r} needs {folder}, which is missing (run from the xwcp checkout)")
        return folder

    def source(default_path: str | None) -> WordSource:
        if words_path is not None:
            return WordSource(words_path)
        return WordSource(str(root / default_path) if default_path else None)

    if suite in ("vanbeek72", "vanbeek72-ukacd"):
        folder = need(root / "models" / "vanbeek")
        names = _vanbeek_names(folder)
        words = source(SCOWL_LIST if suite == "vanbeek72" else UKACD_LIST)
        score = 0 if min_score is None else min_score
        return [Instance(suite, name, folder / f"{name}.txt", words=words, min_score=score) for name in names]
    if suite in ("herald15", "herald21"):
        folder = need(root / "models" / "vanbeek")
        side = suite[-2:]
        score = 50 if min_score is None else min_score
        return [Instance(suite, f"{side}.{k:02d}", folder / f"{side}.{k:02d}.txt", words=source(None),
                         min_score=score) for k in range(1, 11)]
    if suite == "xcsp":
        folder = need(root / "bench" / "xcsp")
        paths = sorted(p for p in folder.iterdir() if p.name.endswith(XCSP_SUFFIXES))
        score = 0 if min_score is None else min_score
        return [Instance(suite, _xcsp_name(p), p, min_score=score) for p in paths]
    if suite == "stock":
        folder = need(root / "models")
        score = 50 if min_score is None else min_score
        return [Instance(suite, p.stem, p, words=source(None), min_score=score)
                for p in sorted(folder.glob("*.txt"))]
    # scaling: every grid with every list cut, smallest list first
    folder = need(root / "bench" / "scaling")
    score = 50 if min_score is None else min_score
    paths = sorted(folder.glob("*.txt"))
    return [Instance(suite, p.stem, p, words=WordSource(words_path, top_n), min_score=score)
            for top_n in SCALING_LIST_SIZES for p in paths]


def file_instances(paths: Iterable[str], *, words_path: str | None, min_score: int | None) -> list[Instance]:
    """Instances for grid files named on the command line (XCSP files bring their own words)."""
    instances = []
    for text in paths:
        path = Path(text)
        if path.name.endswith(XCSP_SUFFIXES):
            instances.append(Instance("files", _xcsp_name(path), path, min_score=min_score or 0))
        else:
            name = path.name.removesuffix(".txt")
            instances.append(Instance("files", name, path, words=WordSource(words_path),
                                      min_score=50 if min_score is None else min_score))
    return instances


def _vanbeek_names(folder: Path) -> list[str]:
    index = folder / "index.tsv"
    if index.is_file():
        lines = index.read_text().splitlines()[1:]
        return [line.split("\t")[1] for line in lines if line.strip()]
    return sorted(p.stem for p in folder.glob("*.txt") if p.stem[:1].isdigit() or p.stem.startswith("puzzle"))


def _xcsp_name(path: Path) -> str:
    name = path.name
    for suffix in (".xz", ".lzma", ".xml"):
        name = name.removesuffix(suffix)
    return name


def make_entrants(backends: Sequence[str], peer_names: Sequence[str], cli_backends: Sequence[str] = ()) -> list[Entrant]:
    """Entrants in run order (backends, then `xwcp fill` commands, then peers), each with why it cannot run here."""
    from xwcp import peers
    from xwcp.backends import get_backend
    from xwcp.errors import InputError

    entrants = []
    for kind, names in (("xwcp", backends), ("cli", cli_backends)):
        for name in names:
            try:
                get_backend(name)
                entrants.append(Entrant(name, kind))
            except ImportError as exc:  # registered, but its module is not there
                entrants.append(Entrant(name, kind, f"backend module missing ({exc})"))
            except InputError as exc:
                entrants.append(Entrant(name, kind, str(exc)))
    for name in peer_names:
        missing = "" if peers.peer_available(name) else "; ".join(peers._missing_commands(name)) or "not installed"
        entrants.append(Entrant(name, "peer", missing and f"not installed: {missing}"))
    return entrants


# ----- loading instances and word lists -------------------------------------------------------

class _WordLists:
    """Word lists loaded once per bench run, keyed by source, each with a content key for peer files."""

    def __init__(self):
        self.by_source: dict[WordSource, tuple[object, str]] = {}

    def get(self, source: WordSource):
        if source not in self.by_source:
            from xwcp.wordlist import load_word_list

            words = load_word_list(source.path)
            if source.top_n is not None and source.top_n < words.n_words:
                words = best_entries(words, source.top_n)
            self.by_source[source] = (words, _content_key(words))
        return self.by_source[source]


def best_entries(words, top_n: int):
    """The `top_n` highest-scored entries of `words` (ties alphabetical) as a new WordList."""
    from xwcp.wordlist import build_word_list

    pairs = []
    for length in words.lengths:
        pairs.extend(word_pairs(words, [length], min_score=-32768))
    pairs.sort(key=lambda pair: (-pair[1], pair[0]))
    return build_word_list(dict(pairs[:top_n]), f"{words.source}, best {top_n:,}")


def word_pairs(words, lengths: Iterable[int], min_score: int) -> list[tuple[str, int]]:
    """(word, score) for the listed words of the given lengths scoring at least `min_score`."""
    import numpy as np

    pairs: list[tuple[str, int]] = []
    for length in sorted(set(lengths)):
        bucket = words.bucket(length)
        keep = np.asarray(bucket.scores) >= min_score
        letters = np.asarray(bucket.letters)[keep]
        raw = (letters + 65).astype(np.uint8).tobytes().decode("ascii")
        texts = [raw[k * length:(k + 1) * length] for k in range(len(letters))]
        pairs.extend(zip(texts, np.asarray(bucket.scores)[keep].tolist()))
    return pairs


def _content_key(words) -> str:
    import hashlib

    import numpy as np

    digest = hashlib.sha256()
    for array in (words.table, words.letters_flat, words.scores_flat):
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()[:16]


def _n_words(words, min_score: int) -> int:
    import numpy as np

    return int(sum(int((np.asarray(words.bucket(length).scores) >= min_score).sum()) for length in words.lengths))


def _load_instance(instance: Instance, lists: _WordLists) -> _Loaded:
    """The instance's grid and words. Raises InputError or ValueError (a file that cannot be used)."""
    from xwcp.grid import parse_grid, read_grid

    if instance.is_xcsp:
        from xwcp.wordlist import words_from_pairs
        from xwcp.xcsp import read_xcsp

        crossword = read_xcsp(instance.path)
        grid = parse_grid("\n".join(crossword.rows), str(instance.path))
        words = words_from_pairs(crossword.words, f"{instance.path} (its own words)")
        return _Loaded(grid, words, _n_words(words, instance.min_score), instance.min_score,
                       not crossword.distinct_words, _content_key(words))
    grid = read_grid(instance.path) if instance.rows is None else parse_grid("\n".join(instance.rows), instance.name)
    words, key = lists.get(instance.words)
    return _Loaded(grid, words, _n_words(words, instance.min_score), instance.min_score, instance.allow_dupes, key)


def _prepare_cli_inputs(instance: Instance, loaded: _Loaded) -> None:
    """Give `loaded` a grid file and word-list file the `xwcp fill` command can read (untimed set-up).

    Grid files are used as they are; generated or XCSP grids and cut or XCSP lists are written
    once under the cache directory (named by content), and each written list is loaded here
    once so its compiled cache exists before any timed command reads it.
    """
    import hashlib

    from xwcp.wordlist import cache_dir, load_word_list

    folder = cache_dir() / "bench-inputs"
    if instance.path is not None and not instance.is_xcsp:
        loaded.grid_path = instance.path
    else:
        text = loaded.grid.render()
        loaded.grid_path = folder / f"grid-{hashlib.sha256(text.encode()).hexdigest()[:16]}.txt"
        _write_once(loaded.grid_path, text)
    if not instance.is_xcsp and instance.words.top_n is None:
        loaded.words_arg = instance.words.path
        return
    path = folder / f"words-{loaded.word_key}.txt"
    if not path.exists():
        pairs = word_pairs(loaded.words, loaded.words.lengths, min_score=-32768)
        _write_once(path, "".join(f"{word};{score}\n" for word, score in pairs))
        load_word_list(path)
    loaded.words_arg = str(path)


def _write_once(path: Path, text: str) -> None:
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="ascii")
    os.replace(tmp, path)


# ----- one run, in a forked worker ------------------------------------------------------------

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


class _ChildPeakSampler:
    """Samples the running peak RSS (VmHWM) of this process's descendants from /proc in a thread.

    A peer's own peak cannot come from getrusage: an exec'd child inherits the forking
    process's peak in ru_maxrss. VmHWM of the exec'd process is its own.
    """

    def __init__(self, every_s: float = PEER_SAMPLE_S):
        self.every_s = every_s
        self.peak_by_pid: dict[int, float] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
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


def run_xwcp(loaded: _Loaded, backend: str, seed: int, time_limit_s: float, threads: int | None) -> dict:
    """One backend run: compile the problem and fill it (timed together), then validate every fill.

    Returns:
        Row fields: status, seconds, nodes, backtracks, valid, note.
    """
    from xwcp.backends import get_backend
    from xwcp.problem import compile_problem
    from xwcp.result import Limits, check_fill

    kwargs = {"time_limit_s": time_limit_s, "seed": seed}
    if threads is not None:
        kwargs["threads"] = threads
    start = time.perf_counter()
    problem = compile_problem(loaded.grid, loaded.words, min_score=loaded.min_score,
                              allow_dupes=loaded.allow_dupes)
    result = get_backend(backend).fill(problem, Limits(**kwargs))
    seconds = time.perf_counter() - start
    status, valid, note = result.status.value, None, result.reason
    if result.fills:
        violations = [v for entries in result.fills for v in check_fill(problem, entries)]
        valid = not violations
        if violations:
            status, note = "error", "invalid fill: " + "; ".join(violations[:3])
    elif status == "filled":
        status, note = "error", "reported filled without a fill"
    extra = result.stats.extra
    if not note and "winner" in extra:
        note = f"winner {extra['winner']}" + (", raced" if extra.get("raced") else "")
    return {"status": status, "seconds": seconds, "nodes": result.stats.nodes,
            "backtracks": result.stats.backtracks, "valid": valid, "note": note}


def run_peer_checked(loaded: _Loaded, peer: str, time_limit_s: float, word_file: Path | None) -> dict:
    """One peer run on the instance's problem; a fill it returns is validated with `check_fill`.

    Returns:
        Row fields: status, seconds, nodes, backtracks, valid, note, peak_rss_mb.
    """
    from xwcp import peers
    from xwcp.problem import compile_problem
    from xwcp.result import check_fill

    problem = compile_problem(loaded.grid, loaded.words, min_score=loaded.min_score,
                              allow_dupes=loaded.allow_dupes)
    lengths = {slot.length for slot in problem.slots}
    pairs = word_pairs(loaded.words, lengths, loaded.min_score)
    with _ChildPeakSampler() as sampler:
        result = peers.run_peer(peer, loaded.grid.rows, pairs, time_limit_s, unique=not loaded.allow_dupes,
                                word_file=word_file)
    status, valid, note = result.status.value, None, result.note
    if status == "filled":
        try:
            width = loaded.grid.width
            entries = ["".join(result.rows[cell // width][cell % width] for cell in slot.cells)
                       for slot in problem.slots]
            violations = check_fill(problem, entries)
        except (TypeError, IndexError) as exc:
            violations = [f"unreadable fill ({exc})"]
        valid = not violations
        if violations:
            status, note = "error", "invalid fill: " + "; ".join(violations[:3])
    nodes, backtracks = _gecode_counts(note)
    return {"status": status, "seconds": result.wall_time_s, "nodes": nodes, "backtracks": backtracks,
            "valid": valid, "note": note, "peak_rss_mb": sampler.peak_mb}


def run_cli_checked(loaded: _Loaded, backend: str, seed: int, time_limit_s: float) -> dict:
    """One `xwcp fill` command, timed whole (interpreter start, imports, list load, compile, fill).

    This is the fair comparison with a peer, whose time is also its whole command. The fill it
    prints is validated with `check_fill` against the bench's own compiled problem.

    Returns:
        Row fields: status, seconds, nodes, backtracks, valid, note, peak_rss_mb.
    """
    import subprocess

    from xwcp.problem import compile_problem
    from xwcp.result import check_fill

    argv = [sys.executable, "-m", "xwcp", "fill", str(loaded.grid_path), "--backend", backend,
            "--time-limit", f"{time_limit_s:g}", "--seed", str(seed), "--min-score", str(loaded.min_score),
            "--format", "json"]
    if loaded.words_arg is not None:
        argv += ["--words", loaded.words_arg]
    if loaded.allow_dupes:
        argv.append("--allow-dupes")
    with _ChildPeakSampler() as sampler:
        start = time.perf_counter()
        try:
            done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  timeout=time_limit_s + OVERSTAY_GRACE_S)
        except subprocess.TimeoutExpired:
            return {"status": "limit", "seconds": time.perf_counter() - start,
                    "note": f"xwcp fill overstayed its limit by {OVERSTAY_GRACE_S:g} s", "peak_rss_mb": sampler.peak_mb}
        seconds = time.perf_counter() - start
    fields = {"seconds": seconds, "peak_rss_mb": sampler.peak_mb, "valid": None}
    try:
        data = json.loads(done.stdout)
        status = data["status"]
    except (ValueError, KeyError, TypeError):
        snippet = " ".join((done.stderr or done.stdout).split())[:300]
        return {**fields, "status": "error", "note": f"xwcp fill exit {done.returncode}: {snippet}"}
    stats = data.get("stats", {})
    fields.update(status=status, nodes=stats.get("nodes"), backtracks=stats.get("backtracks"),
                  note=data.get("reason", ""))
    if status == "filled":
        problem = compile_problem(loaded.grid, loaded.words, min_score=loaded.min_score,
                                  allow_dupes=loaded.allow_dupes)
        try:
            rows = data["grid"]
            entries = ["".join(rows[cell // loaded.grid.width][cell % loaded.grid.width] for cell in slot.cells)
                       for slot in problem.slots]
            violations = check_fill(problem, entries)
        except (KeyError, TypeError, IndexError) as exc:
            violations = [f"unreadable fill ({exc})"]
        fields["valid"] = not violations
        if violations:
            fields.update(status="error", note="invalid fill: " + "; ".join(violations[:3]))
    return fields


def _gecode_counts(note: str) -> tuple[int | None, int | None]:
    import re

    def grab(key: str) -> int | None:
        match = re.search(rf"\b{key}=(\d+)", note)
        return int(match.group(1)) if match else None

    return grab("nodes"), grab("failures")


def call_isolated(job: Callable[[], dict], timeout_s: float) -> dict:
    """Run `job()` in a forked worker in its own process group and return its dict, plus peak memory.

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
            signal.signal(signal.SIGINT, signal.default_int_handler)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            _reset_peak_rss()
            start_rss = _rss_mb()
            payload = ("ok", job())
            own = _rss_mb("self", "VmHWM") or 0.0
            children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            payload[1].setdefault("peak_rss_mb", max(own, children) or None)
            payload[1]["start_rss_mb"] = start_rss
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
        how = (f"signal {os.WTERMSIG(wait_status)}" if os.WIFSIGNALED(wait_status)
               else f"exit {os.WEXITSTATUS(wait_status)}")
        raise RuntimeError(f"worker died ({how})")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "interrupted":
        raise KeyboardInterrupt
    if kind == "error":
        raise RuntimeError(value)
    return value


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


def _call(job: Callable[[], dict], timeout_s: float, isolate: bool) -> dict:
    if isolate:
        return call_isolated(job, timeout_s)
    return job()


# ----- rows -----------------------------------------------------------------------------------

class RowWriter:
    """Writes rows as they come: appended + flushed to rows.csv, rewritten atomically to rows.json."""

    def __init__(self, out_dir: Path):
        self.out_dir = out_dir
        out_dir.mkdir(parents=True, exist_ok=True)
        self.rows: list[dict] = []
        self.csv_path = out_dir / "rows.csv"
        self.json_path = out_dir / "rows.json"
        self._csv_file = self.csv_path.open("w", newline="", encoding="utf-8")
        self._csv = csv.DictWriter(self._csv_file, fieldnames=COLUMNS)
        self._csv.writeheader()
        self._csv_file.flush()
        self._write_json()

    def add(self, row: dict) -> None:
        row = {name: row.get(name) for name in COLUMNS}
        self.rows.append(row)
        self._csv.writerow({k: ("" if v is None else v) for k, v in row.items()})
        self._csv_file.flush()
        self._write_json()

    def _write_json(self) -> None:
        tmp = self.json_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(self.rows, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, self.json_path)

    def close(self) -> None:
        if not self._csv_file.closed:
            self._csv_file.close()


def _round(value, digits: int):
    return None if value is None else round(float(value), digits)


@dataclass
class BenchRun:
    """What `run_bench` did: its rows (also on disk), whether it was interrupted, and where it wrote."""

    rows: list[dict]
    out_dir: Path
    interrupted: bool = False
    entrants: list[Entrant] = field(default_factory=list)
    time_limit_s: float = DEFAULT_TIME_LIMIT_S


def run_bench(instances: Sequence[Instance], entrants: Sequence[Entrant], *, out_dir: Path,
              time_limit_s: float = DEFAULT_TIME_LIMIT_S, seeds: int = 1, threads: int | None = None,
              isolate: bool | None = None, progress: bool | None = None) -> BenchRun:
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

    Returns:
        The rows; `interrupted` is True when KeyboardInterrupt stopped the run early (the rows
        so far are on disk).
    """
    from tqdm import tqdm

    isolate = hasattr(os, "fork") if isolate is None else isolate
    progress = sys.stderr.isatty() if progress is None else progress
    peer_entrants = [e for e in entrants if e.kind == "peer"]
    has_cli = any(e.kind == "cli" and not e.missing for e in entrants)
    total = len(instances) * ((len(entrants) - len(peer_entrants)) * seeds + len(peer_entrants))
    writer = RowWriter(out_dir)
    lists = _WordLists()
    run = BenchRun(writer.rows, out_dir, entrants=list(entrants), time_limit_s=time_limit_s)
    tqdm.monitor_interval = 0  # no monitor thread: the bench forks workers
    bar = tqdm(total=total, file=sys.stderr, disable=not progress, unit="run", dynamic_ncols=True)
    old_sigterm = _sigterm_as_interrupt()
    try:
        for index, instance in enumerate(instances):
            base = {"suite": instance.suite, "grid": instance.name, "min_score": instance.min_score,
                    "time_limit_s": time_limit_s}
            loaded = None
            _release_memory()  # so the next workers do not start with the last instance's freed heap
            try:
                loaded = _load_instance(instance, lists)
            except Exception as exc:  # an unusable file is a row, not the end of the bench
                note = str(exc) or exc.__class__.__name__
                for seed, entrant in _schedule(entrants, seeds, index):
                    writer.add({**base, "backend": entrant.name, "kind": entrant.kind, "seed": seed,
                                "status": "error", "note": note})
                    bar.update(1)
                continue
            grid = loaded.grid
            from xwcp.grid import find_slots

            base.update(width=grid.width, height=grid.height, blocks=grid.n_blocks,
                        slots=len(find_slots(grid)), words=loaded.n_words, min_score=loaded.min_score)
            if has_cli:
                _prepare_cli_inputs(instance, loaded)
            for seed, entrant in _schedule(entrants, seeds, index):
                bar.set_postfix_str(f"{instance.name} {entrant.label}")
                row = {**base, "backend": entrant.name, "kind": entrant.kind, "seed": seed}
                row.update(_run_one(loaded, entrant, seed, time_limit_s, threads, isolate))
                writer.add(row)
                bar.update(1)
    except KeyboardInterrupt:
        run.interrupted = True
    finally:
        if old_sigterm is not None:
            signal.signal(signal.SIGTERM, old_sigterm)
        bar.close()
        writer.close()
    return run


def _sigterm_as_interrupt():
    """Treat SIGTERM (`kill`, `timeout`) like Ctrl-C, so the rows are finished and workers stopped.

    Returns:
        The previous handler, or None when not in the main thread (handlers cannot be set there).
    """
    def interrupt(signum, frame):
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
    order = list(entrants[index % len(entrants):]) + list(entrants[:index % len(entrants)]) if entrants else []
    pairs = []
    for seed in range(seeds):
        pairs.extend((seed, e) for e in order if e.kind != "peer" or seed == 0)
    return pairs


def _run_one(loaded: _Loaded, entrant: Entrant, seed: int, time_limit_s: float, threads: int | None,
             isolate: bool) -> dict:
    """One row's measured fields; failures become "error" rows, KeyboardInterrupt propagates."""
    if entrant.missing:
        return {"status": "skipped", "note": entrant.missing}
    if entrant.kind == "xwcp":
        def job():
            return run_xwcp(loaded, entrant.name, seed, time_limit_s, threads)
    elif entrant.kind == "cli":
        def job():
            return run_cli_checked(loaded, entrant.name, seed, time_limit_s)
    else:
        word_file = _peer_word_file(entrant.name, loaded)

        def job():
            return run_peer_checked(loaded, entrant.name, time_limit_s, word_file)
    try:
        fields = _call(job, time_limit_s + max(OVERSTAY_GRACE_S, time_limit_s), isolate)
    except TimeoutError as exc:
        return {"status": "limit", "seconds": time_limit_s, "note": str(exc)}
    except KeyboardInterrupt:
        raise
    except Exception as exc:
        return {"status": "error", "note": str(exc) or exc.__class__.__name__}
    fields["seconds"] = _round(fields.get("seconds"), 4)
    fields["peak_rss_mb"] = _round(fields.get("peak_rss_mb"), 1)
    fields["start_rss_mb"] = _round(fields.get("start_rss_mb"), 1) if entrant.kind == "xwcp" else None
    return fields


def _peer_word_file(peer: str, loaded: _Loaded) -> Path:
    """A stable word-list file name for this peer, list content, minimum score and set of slot lengths.

    The same list and lengths give the same name, so the peer's file is written once and reused
    across grids and bench runs (run_peer reuses an existing `word_file` as it is).
    """
    from xwcp.grid import find_slots
    from xwcp.wordlist import cache_dir

    lengths = sorted({slot.length for slot in find_slots(loaded.grid)})
    suffix = ".dzn" if peer == "gecode" else ".txt"
    name = f"bench-{peer}-{loaded.word_key}-m{loaded.min_score}-L{'_'.join(map(str, lengths))}{suffix}"
    return cache_dir() / "peers" / name


# ----- summary --------------------------------------------------------------------------------

def summarize(rows: Sequence[dict], entrants: Sequence[Entrant], time_limit_s: float) -> dict:
    """Per entrant counts, median time and PAR-2; per peer the time ratio of xwcp's reference backend.

    Returns:
        {"entrants": [...], "ratios": [...]} where each entrant has runs, filled, unfillable, limit,
        error, skipped, median_s (over filled runs) and par2_s (mean over runs that were not
        skipped: the time of a fill or proof, else twice the limit). Ratios compare the reference
        backend ("auto" when it ran, else the first) with each peer, once for the in-process runs
        (kind xwcp) and once for the whole-command runs (kind cli) when there are any.
    """
    import statistics

    names = [(e.name, e.kind) for e in entrants]
    for row in rows:
        if (row["backend"], row["kind"]) not in names:
            names.append((row["backend"], row["kind"]))
    table = []
    for name, kind in names:
        mine = [r for r in rows if r["backend"] == name and r["kind"] == kind]
        counts = {status: sum(1 for r in mine if r["status"] == status) for status in STATUSES}
        filled_s = [r["seconds"] for r in mine if r["status"] == "filled" and r["seconds"] is not None]
        scored = [r for r in mine if r["status"] != "skipped"]
        par2 = [_par2_seconds(r, time_limit_s) for r in scored]
        table.append({
            "backend": name, "kind": kind, "runs": len(mine),
            "filled": counts["filled"], "unfillable": counts["unfillable"],
            "limit": counts["limit"] + counts["aborted"], "error": counts["error"], "skipped": counts["skipped"],
            "median_s": statistics.median(filled_s) if filled_s else None,
            "par2_s": sum(par2) / len(par2) if par2 else None,
        })
    ratios = []
    for reference_kind in ("xwcp", "cli"):
        ours_names = [name for name, kind in names if kind == reference_kind]
        if not ours_names:
            continue
        reference = "auto" if "auto" in ours_names else ours_names[0]
        ours = _answer_seconds_by_grid(rows, reference, reference_kind)
        for name, kind in names:
            if kind != "peer":
                continue
            theirs = _answer_seconds_by_grid(rows, name, "peer")
            both = sorted(set(ours) & set(theirs))
            by_grid = {grid: ours[grid] / max(theirs[grid], 1e-6) for grid in both}
            worst = max(by_grid, key=by_grid.get) if by_grid else None
            ratios.append({
                "backend": _label(reference, reference_kind), "peer": name, "grids_both": len(both),
                "median_ratio": statistics.median(by_grid.values()) if by_grid else None,
                "worst_ratio": by_grid[worst] if worst else None, "worst_grid": worst,
                "only_xwcp": len(set(ours) - set(theirs)), "only_peer": len(set(theirs) - set(ours)),
            })
    return {"entrants": table, "ratios": ratios, "time_limit_s": time_limit_s}


def _par2_seconds(row: dict, time_limit_s: float) -> float:
    if row["status"] in ANSWERED and row["seconds"] is not None and row["valid"] is not False:
        return float(row["seconds"])
    return 2.0 * time_limit_s


def _answer_seconds_by_grid(rows: Sequence[dict], name: str, kind: str) -> dict[tuple, float]:
    """Median seconds over seeds of the runs that settled each grid (a fill or a proof)."""
    import statistics

    seconds_by_grid: dict[tuple, list[float]] = {}
    for r in rows:
        if r["backend"] == name and r["kind"] == kind and r["status"] in ANSWERED and r["seconds"] is not None:
            seconds_by_grid.setdefault((r["suite"], r["grid"], r["words"]), []).append(float(r["seconds"]))
    return {grid: statistics.median(values) for grid, values in seconds_by_grid.items()}


def _seconds_text(seconds: float) -> str:
    """Three decimals below 10 s (xwcp's fills take milliseconds), one above."""
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def summary_text(summary: dict) -> str:
    """The summary as an aligned plain-text table."""
    def fmt(value):
        return "-" if value is None else _seconds_text(value)

    header = ("backend", "kind", "runs", "filled", "unfillable", "limit", "error", "skipped", "median s", "PAR-2 s")
    lines = [header]
    for e in summary["entrants"]:
        lines.append((e["backend"], e["kind"], str(e["runs"]), str(e["filled"]), str(e["unfillable"]),
                      str(e["limit"]), str(e["error"]), str(e["skipped"]), fmt(e["median_s"]), fmt(e["par2_s"])))
    widths = [max(len(line[k]) for line in lines) for k in range(len(header))]
    text = ["  ".join(cell.ljust(w) if k < 2 else cell.rjust(w) for k, (cell, w) in enumerate(zip(line, widths)))
            for line in lines]
    text.append(f"(median s: over filled runs; PAR-2 s: mean time, a run without a fill or proof counts "
                f"2 x {summary['time_limit_s']:g} s)")
    for r in summary["ratios"]:
        if r["grids_both"]:
            worst_grid = "/".join(str(x) for x in r["worst_grid"][:2])
            text.append(f"{r['backend']} / {r['peer']} time per grid: median {r['median_ratio']:.3g}, worst "
                        f"{r['worst_ratio']:.3g} ({worst_grid}) over {r['grids_both']} grids both settled; "
                        f"only {r['backend']}: {r['only_xwcp']}, only {r['peer']}: {r['only_peer']}")
        else:
            text.append(f"{r['backend']} / {r['peer']}: no grid settled by both "
                        f"(only {r['backend']}: {r['only_xwcp']}, only {r['peer']}: {r['only_peer']})")
    return "\n".join(text)


def per_grid_markdown(rows: Sequence[dict], entrants: Sequence[Entrant]) -> str:
    """A Markdown table: one line per grid (and list size), one column per entrant.

    A cell is the median seconds over seeds of the runs that filled the grid, "unfillable N.NN"
    for a proof, or the status of the runs that did neither ("limit", "error", "skipped").
    """
    names = [(e.name, e.kind) for e in entrants]
    sizes = {r["words"] for r in rows}
    keys = list(dict.fromkeys((r["suite"], r["grid"], r["words"]) for r in rows))
    header = ["grid", "slots"] + (["words"] if len(sizes) > 1 else []) + [_label(*key) for key in names]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for key in keys:
        mine = [r for r in rows if (r["suite"], r["grid"], r["words"]) == key]
        cells = [key[1], str(mine[0]["slots"] if mine[0]["slots"] is not None else "-")]
        if len(sizes) > 1:
            cells.append(f"{key[2]:,}" if key[2] is not None else "-")
        for name, kind in names:
            runs = [r for r in mine if r["backend"] == name and r["kind"] == kind]
            cells.append(_cell_text(runs))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _cell_text(runs: Sequence[dict]) -> str:
    import statistics

    if not runs:
        return ""
    for status in ANSWERED:
        seconds = [float(r["seconds"]) for r in runs if r["status"] == status and r["valid"] is not False]
        if seconds:
            text = _seconds_text(statistics.median(seconds))
            prefix = "" if status == "filled" else "unfillable "
            note = f" ({len(seconds)}/{len(runs)})" if len(seconds) < len(runs) else ""
            return prefix + text + note
    return "/".join(dict.fromkeys(r["status"] for r in runs))


# ----- plots ----------------------------------------------------------------------------------

def write_plots(rows: Sequence[dict], entrants: Sequence[Entrant], out_dir: Path, time_limit_s: float) -> list[Path]:
    """Cactus plot and time vs slots (and PAR-2 vs list size when a grid ran with several lists) as PNGs.

    Returns:
        The files written (none when no row has a measured time).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = [(e.name, e.kind) for e in entrants if not e.missing]
    measured = [r for r in rows if r["seconds"] is not None and (r["backend"], r["kind"]) in names]
    if not measured:
        return []
    written = []
    colors = {key: f"C{k % 10}" for k, key in enumerate(names)}

    def save(fig, name):
        FigureCanvasAgg(fig)
        path = out_dir / name
        fig.savefig(path, dpi=110)
        written.append(path)

    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.add_subplot()
    for key in names:
        times = sorted(float(r["seconds"]) for r in measured
                       if (r["backend"], r["kind"]) == key and r["status"] in ANSWERED and r["valid"] is not False)
        if times:
            ax.step(range(1, len(times) + 1), times, where="post", marker=".", color=colors[key],
                    label=f"{_label(*key)} ({len(times)})")
    ax.set_yscale("log")
    ax.axhline(time_limit_s, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("runs settled (a fill or a proof of none)")
    ax.set_ylabel("seconds (log)")
    ax.set_title(f"Cactus plot, limit {time_limit_s:g} s")
    ax.legend(fontsize="small")
    save(fig, "cactus.png")

    fig = Figure(figsize=(7, 4.5), layout="constrained")
    ax = fig.add_subplot()
    for key in names:
        mine = [r for r in measured if (r["backend"], r["kind"]) == key and r["slots"] is not None]
        done = [r for r in mine if r["status"] in ANSWERED and r["valid"] is not False]
        open_ = [r for r in mine if r not in done]
        if done:
            ax.scatter([r["slots"] for r in done], [float(r["seconds"]) for r in done], s=14,
                       color=colors[key], label=_label(*key))
        if open_:
            ax.scatter([r["slots"] for r in open_], [max(float(r["seconds"]), 1e-3) for r in open_], s=24,
                       marker="x", color=colors[key], label=f"{_label(*key)}: no answer" if not done else None)
    ax.set_yscale("log")
    ax.axhline(time_limit_s, color="grey", linestyle=":", linewidth=1)
    ax.set_xlabel("slots in the grid")
    ax.set_ylabel("seconds (log); x = limit, error or no answer")
    ax.set_title("Time vs grid size")
    ax.legend(fontsize="small")
    save(fig, "time-vs-slots.png")

    sizes = sorted({r["words"] for r in measured if r["words"] is not None})
    sizes_by_grid: dict[str, set] = {}
    for r in measured:
        sizes_by_grid.setdefault(r["grid"], set()).add(r["words"])
    if any(len(grid_sizes) > 1 for grid_sizes in sizes_by_grid.values()):  # the same grid, several lists
        fig = Figure(figsize=(7, 4.5), layout="constrained")
        ax = fig.add_subplot()
        for key in names:
            par2 = []
            for size in sizes:
                mine = [r for r in rows if (r["backend"], r["kind"]) == key and r["words"] == size
                        and r["status"] != "skipped"]
                par2.append(sum(_par2_seconds(r, time_limit_s) for r in mine) / len(mine) if mine else None)
            points = [(s, p) for s, p in zip(sizes, par2) if p is not None]
            if points:
                ax.plot(*zip(*points), marker="o", color=colors[key], label=_label(*key))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("word-list entries")
        ax.set_ylabel("PAR-2 seconds (log)")
        ax.set_title("Cost vs list size")
        ax.legend(fontsize="small")
        save(fig, "time-vs-words.png")
    return written


# ----- command line ---------------------------------------------------------------------------

def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the `xwcp bench` options to `parser`."""
    from xwcp.cli import positive_float, positive_int

    suites = ", ".join(SUITES)
    parser.add_argument("grids", nargs="*", metavar="GRID",
                        help="grid files (or XCSP .xml/.xml.xz/.xml.lzma files) to run instead of a suite")
    parser.add_argument("--suite", choices=list(SUITES), metavar="NAME",
                        help=f"a named grid set: {suites} (see bench/README.md)")
    parser.add_argument("--backends", default=None, metavar="A,B",
                        help="xwcp backends to run, comma-separated (default: every available one)")
    parser.add_argument("--peers", default="all", metavar="P,Q",
                        help="peer solvers to run side by side: qxw, gecode, all, or none (default all: "
                             "every peer; one that is not installed gives 'skipped' rows, see bench/peers/install.sh)")
    parser.add_argument("--cli", default="none", metavar="A,B",
                        help="also time these backends as whole `xwcp fill` commands (interpreter start, "
                             "list load, compile, fill), the way peers are timed (default none)")
    parser.add_argument("--words", metavar="FILE", help="word list replacing the suite's (not for XCSP files)")
    parser.add_argument("--min-score", type=int, default=None, metavar="N",
                        help="minimum word score (default: the suite's: 0 for SCOWL/UKACD/XCSP, else 50)")
    parser.add_argument("--time-limit", type=positive_float, default=DEFAULT_TIME_LIMIT_S, metavar="S",
                        help=f"wall-clock limit per run in seconds (default {DEFAULT_TIME_LIMIT_S:g})")
    parser.add_argument("--seeds", type=positive_int, default=1, metavar="K",
                        help="run each backend with seeds 0..K-1 (default 1; peers run once)")
    parser.add_argument("--threads", type=positive_int, default=None, metavar="N",
                        help="threads for backends that use them (default: the backend's own)")
    parser.add_argument("--out", metavar="DIR",
                        help="folder for rows.csv, rows.json, meta.json, summary.txt and plots "
                             "(default xwcp-bench/<suite>-<date>-<time>)")
    parser.add_argument("--format", choices=["text", "json"], default="text",
                        help="summary format on stdout (default text)")


def _split(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def run_bench_command(args: argparse.Namespace) -> int:
    """`xwcp bench`: build the run from the options, run it, write files, print the summary.

    Returns:
        0 when every run finished, 3 when interrupted (the rows so far are kept).

    Raises:
        InputError: no grids or suite, both, an unknown backend or peer (exit 2 in the CLI).
    """
    from xwcp import peers
    from xwcp.backends import BACKENDS, available_backends
    from xwcp.errors import InputError

    if args.grids and args.suite:
        raise InputError("give grid files or --suite, not both")
    if not args.grids and not args.suite:
        raise InputError(f"give grid files or --suite NAME (suites: {', '.join(SUITES)})")
    backends = _split(args.backends) if args.backends is not None else available_backends()
    cli_backends = [] if args.cli.strip().lower() == "none" else _split(args.cli)
    for name in backends + cli_backends:
        if name not in BACKENDS:
            raise InputError(f"unknown backend {name!r}; choose from: {', '.join(BACKENDS)}")
    peer_choice = args.peers.strip().lower()
    peer_names = [] if peer_choice == "none" else list(peers.PEERS) if peer_choice == "all" else _split(args.peers)
    for name in peer_names:
        if name not in peers.PEERS:
            raise InputError(f"unknown peer {name!r}; choose from: {', '.join(peers.PEERS)}, or none")
    if not backends and not peer_names and not cli_backends:
        raise InputError("nothing to run: no backend and no peer")
    label = args.suite or "files"
    if args.suite:
        if args.suite == "xcsp" and args.words:
            print("xwcp: warning: --words is ignored for the xcsp suite (each instance has its own words)",
                  file=sys.stderr)
        instances = suite_instances(args.suite, words_path=args.words, min_score=args.min_score)
    else:
        instances = file_instances(args.grids, words_path=args.words, min_score=args.min_score)
    entrants = make_entrants(backends, peer_names, cli_backends)
    out_dir = Path(args.out) if args.out else Path("xwcp-bench") / f"{label}-{time.strftime('%Y%m%d-%H%M%S')}"
    meta = _meta(args, label, instances, entrants)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"xwcp bench: {label}, {len(instances)} grids, {len(entrants)} entrants, limit {args.time_limit:g} s, "
          f"writing {out_dir}/", file=sys.stderr)
    run = run_bench(instances, entrants, out_dir=out_dir, time_limit_s=args.time_limit, seeds=args.seeds,
                    threads=args.threads)
    try:
        summary = summarize(run.rows, entrants, args.time_limit)
        text = summary_text(summary)
        plots = write_plots(run.rows, entrants, out_dir, args.time_limit)
        meta.update(finished=time.strftime("%Y-%m-%d %H:%M:%S"), interrupted=run.interrupted,
                    load_average_end=_load_average(), rows=len(run.rows))
        (out_dir / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
        (out_dir / "summary.txt").write_text(text + "\n")
        (out_dir / "per-grid.md").write_text(per_grid_markdown(run.rows, entrants))
        (out_dir / "summary.json").write_text(json.dumps(summary, indent=1, default=list) + "\n")
    except KeyboardInterrupt:  # a second Ctrl-C while finishing: the rows are already on disk
        print(f"xwcp bench: interrupted; rows so far in {out_dir}/", file=sys.stderr)
        return 3
    if args.format == "json":
        print(json.dumps({"out": str(out_dir), "interrupted": run.interrupted, "rows": len(run.rows),
                          "plots": [str(p) for p in plots], **summary}, default=list))
    else:
        if run.interrupted:
            print(f"Interrupted after {len(run.rows)} run{'' if len(run.rows) == 1 else 's'}; summary of what ran:")
        print(text)
        print(f"rows: {out_dir / 'rows.csv'}, {out_dir / 'rows.json'}"
              + (f"; plots: {', '.join(str(p) for p in plots)}" if plots else ""))
    return 3 if run.interrupted else 0


def _load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _command_line(args) -> str:
    """The options as an `xwcp bench` command that repeats this run."""
    import shlex

    parts = ["xwcp", "bench", *args.grids]
    for option, value in (("--suite", args.suite), ("--backends", args.backends), ("--cli", args.cli),
                          ("--peers", args.peers),
                          ("--words", args.words), ("--min-score", args.min_score),
                          ("--time-limit", f"{args.time_limit:g}"), ("--seeds", args.seeds),
                          ("--threads", args.threads), ("--out", args.out)):
        if value is not None:
            parts += [option, str(value)]
    return shlex.join(parts)


def _git_describe() -> str | None:
    """The checkout's commit (with "-dirty" when files differ), or None outside a git checkout."""
    import subprocess

    try:
        done = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=Path(__file__).resolve().parent,
                              capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def _meta(args, label: str, instances, entrants) -> dict:
    """Where and how the bench ran: enough to tell whose numbers these are."""
    cpu = ""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            cpu = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), "")
    except OSError:
        pass
    from xwcp import __version__

    return {
        "command": _command_line(args),
        "suite": label, "grids": len(instances), "time_limit_s": args.time_limit, "seeds": args.seeds,
        "threads": args.threads, "words": args.words, "min_score": args.min_score,
        "entrants": [{"name": e.name, "kind": e.kind, "missing": e.missing} for e in entrants],
        "started": time.strftime("%Y-%m-%d %H:%M:%S"), "host": platform.node(), "cpu": cpu,
        "cores": os.cpu_count(), "python": platform.python_version(), "xwcp": __version__,
        "git": _git_describe(),
        "load_average_start": _load_average(),
    }
