"""One bench run of one entrant on one loaded instance, its fill checked with `check_fill`: a row's measured fields."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, SupportsFloat

from xwcp.bench.entrants import Entrant
from xwcp.bench.inputs import Loaded, word_pairs
from xwcp.bench.rows import FILLED, Row
from xwcp.runtime.isolation import OVERSTAY_GRACE_S, ChildPeakSampler, call

if TYPE_CHECKING:
    from xwcp.engine.result import FillResult


def _round(value: SupportsFloat | None, digits: int) -> float | None:
    return None if value is None else round(float(value), digits)


def run_xwcp(loaded: Loaded, backend: str, seed: int, time_limit_s: float, threads: int | None) -> Row:
    """One backend run: compile the problem and fill it (timed together), then validate every fill.

    Returns:
        Row fields: status, seconds, nodes, backtracks, valid, note.
    """
    from xwcp.bench.entrants import get_fill_module
    from xwcp.engine.result import Limits, check_fill, default_threads
    from xwcp.services.load import load

    start = time.perf_counter()
    problem = load(loaded.grid, loaded.words, loaded.options).problem
    limits = Limits(time_limit_s=time_limit_s, seed=seed, threads=default_threads() if threads is None else threads)
    result: FillResult = get_fill_module(backend).fill(problem, limits)
    seconds = time.perf_counter() - start
    status, valid, note = result.status.value, None, result.reason
    if result.fills:
        violations = [v for entries in result.fills for v in check_fill(problem, entries)]
        valid = not violations
        if violations:
            status, note = "error", "invalid fill: " + "; ".join(violations[:3])
    elif status == FILLED:
        status, note = "error", "reported filled without a fill"
    extra = result.stats.extra
    if not note and "winner" in extra:
        note = f"winner {extra['winner']}" + (", raced" if extra.get("raced") else "")
    return {
        "status": status,
        "seconds": seconds,
        "nodes": result.stats.nodes,
        "backtracks": result.stats.backtracks,
        "valid": valid,
        "note": note,
    }


def run_peer_checked(loaded: Loaded, peer: str, time_limit_s: float, word_file: Path | None) -> Row:
    """One peer run on the instance's problem; a fill it returns is validated with `check_fill`.

    Returns:
        Row fields: status, seconds, nodes, backtracks, valid, note, peak_rss_mb.
    """
    from xwcp.bench import peers
    from xwcp.engine.result import check_fill
    from xwcp.services.load import load

    if loaded.grid.bars or loaded.grid.has_rebus:  # a peer reads blocks and letters only: it would fill other slots
        return {
            "status": "error",
            "seconds": 0.0,
            "valid": None,
            "note": f"{peer} cannot fill a grid with bars or rebus cells",
        }
    problem = load(loaded.grid, loaded.words, loaded.options).problem
    lengths = {slot.length for slot in problem.slots}
    pairs = word_pairs(loaded.words, lengths, loaded.min_score)
    with ChildPeakSampler() as sampler:
        result = peers.run_peer(
            peer, loaded.grid.rows, pairs, time_limit_s, unique=not loaded.allow_dupes, word_file=word_file
        )
    status, valid, note = result.status.value, None, result.note
    if status == FILLED:
        try:
            if result.rows is None:
                raise TypeError("no rows")
            width = loaded.grid.width
            entries = [
                "".join(result.rows[cell // width][cell % width] for cell in slot.cells) for slot in problem.slots
            ]
            violations = check_fill(problem, entries)
        except (TypeError, IndexError) as exc:
            violations = [f"unreadable fill ({exc})"]
        valid = not violations
        if violations:
            status, note = "error", "invalid fill: " + "; ".join(violations[:3])
    nodes, backtracks = _gecode_counts(note)
    return {
        "status": status,
        "seconds": result.wall_time_s,
        "nodes": nodes,
        "backtracks": backtracks,
        "valid": valid,
        "note": note,
        "peak_rss_mb": sampler.peak_mb,
    }


def run_cli_checked(loaded: Loaded, backend: str, seed: int, time_limit_s: float) -> Row:
    """One `xwcp fill` command, timed whole (interpreter start, imports, list load, compile, fill).

    This is the fair comparison with a peer, whose time is also its whole command. The fill it
    prints is validated with `check_fill` against the bench's own compiled problem.

    Returns:
        Row fields: status, seconds, nodes, backtracks, valid, note, peak_rss_mb.
    """
    import subprocess

    from xwcp.base.errors import InputError
    from xwcp.engine.result import check_fill, grid_entries
    from xwcp.model import grid_from_rows
    from xwcp.services.load import load

    argv = [
        sys.executable,
        "-m",
        "xwcp",
        "fill",
        str(loaded.grid_path),
        "--backend",
        backend,
        "--time-limit",
        f"{time_limit_s:g}",
        "--seed",
        str(seed),
        "--min-score",
        str(loaded.min_score),
        "--format",
        "json",
    ]
    if loaded.words_arg is not None:
        argv += ["--words", loaded.words_arg]
    if loaded.allow_dupes:
        argv.append("--allow-dupes")
    with ChildPeakSampler() as sampler:
        start = time.perf_counter()
        try:
            done = subprocess.run(
                argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=time_limit_s + OVERSTAY_GRACE_S
            )
        except subprocess.TimeoutExpired:
            return {
                "status": "limit",
                "seconds": time.perf_counter() - start,
                "note": f"xwcp fill overstayed its limit by {OVERSTAY_GRACE_S:g} s",
                "peak_rss_mb": sampler.peak_mb,
            }
        seconds = time.perf_counter() - start
    fields: Row = {"seconds": seconds, "peak_rss_mb": sampler.peak_mb, "valid": None}
    try:
        data = json.loads(done.stdout)
        status = data["status"]
    except (ValueError, KeyError, TypeError):
        snippet = " ".join((done.stderr or done.stdout).split())[:300]
        return {**fields, "status": "error", "note": f"xwcp fill exit {done.returncode}: {snippet}"}
    stats = data.get("stats", {})
    fields.update(
        status=status, nodes=stats.get("nodes"), backtracks=stats.get("backtracks"), note=data.get("reason", "")
    )
    if status == FILLED:
        problem = load(loaded.grid, loaded.words, loaded.options).problem
        try:
            entries = grid_entries(problem, grid_from_rows(data["grid"]))
            violations = check_fill(problem, entries)
        except (KeyError, TypeError, IndexError, ValueError, InputError) as exc:
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


def run_one(
    loaded: Loaded, entrant: Entrant, seed: int, time_limit_s: float, threads: int | None, isolate: bool
) -> Row:
    """One row's measured fields; failures become "error" rows, KeyboardInterrupt propagates."""
    if entrant.missing:
        return {"status": "skipped", "note": entrant.missing}
    job: Callable[[], Row]
    if entrant.kind == "xwcp":

        def job() -> Row:
            return run_xwcp(loaded, entrant.name, seed, time_limit_s, threads)
    elif entrant.kind == "cli":

        def job() -> Row:
            return run_cli_checked(loaded, entrant.name, seed, time_limit_s)
    else:
        word_file = peer_word_file(entrant.name, loaded)

        def job() -> Row:
            return run_peer_checked(loaded, entrant.name, time_limit_s, word_file)

    try:
        fields = call(job, time_limit_s + max(OVERSTAY_GRACE_S, time_limit_s), isolate)
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


def peer_word_file(peer: str, loaded: Loaded) -> Path:
    """A stable word-list file name for this peer, list content, minimum score and set of slot lengths.

    The same list and lengths give the same name, so the peer's file is written once and reused
    across grids and bench runs (run_peer reuses an existing `word_file` as it is).
    """
    from xwcp.model import find_slots
    from xwcp.words.cache import cache_dir

    lengths = sorted({slot.length for slot in find_slots(loaded.grid)})
    suffix = ".dzn" if peer == "gecode" else ".txt"
    name = f"bench-{peer}-{loaded.word_key}-m{loaded.min_score}-L{'_'.join(map(str, lengths))}{suffix}"
    return cache_dir() / "peers" / name
