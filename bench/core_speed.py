"""How fast a minimal core is found on every unfillable grid of the bench suites (target: minimal within 5 s).

For each grid of the chosen suites: fill it with `backtrack` (up to --fill-limit s); for each
grid proven unfillable, find the core (`xwcp.core.explain`, oracle `backtrack`, 5 s budget),
then check it with a second backend (default `sat`): the core is unfillable and dropping any
one slot leaves a fillable rest. Prints one line per unfillable grid.

Usage: PYTHONPATH=. python3 bench/core_speed.py [--suites stock,vanbeek72,vanbeek72-ukacd,xcsp] [--check sat]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from xwcp import compile_problem, load_word_list, parse_grid, read_grid, words_from_pairs  # noqa: E402
from xwcp.backends import fill  # noqa: E402
from xwcp.errors import InputError  # noqa: E402
from xwcp.core import CORE_TIME_LIMIT_S, explain, sub_problem  # noqa: E402
from xwcp.result import Limits  # noqa: E402
from xwcp.types import FillStatus  # noqa: E402


def _suite_instances(suite: str):
    try:
        from xwcp.bench import suite_instances
    except ImportError:  # the bench may live in a package: xwcp/bench/
        from xwcp.bench.suites import suite_instances  # type: ignore[no-redef]
    return suite_instances(suite, root=ROOT)


def load(instance, cache: dict):
    """(problem, label) for a bench instance: a grid file with its word list, or an XCSP file with its own words."""
    if instance.path is not None and instance.path.name.endswith((".xml", ".xml.xz", ".xml.lzma")):
        from xwcp.xcsp import read_xcsp

        crossword = read_xcsp(instance.path)
        grid = parse_grid("\n".join(crossword.rows), str(instance.path))
        return compile_problem(grid, words_from_pairs(crossword.words), min_score=instance.min_score,
                               allow_dupes=not crossword.distinct_words)
    if instance.words.top_n is not None:
        return None  # cut lists (the scaling suite) are not needed here: its grids are open, not unfillable
    if instance.words.path not in cache:
        cache[instance.words.path] = load_word_list(instance.words.path)
    grid = read_grid(instance.path) if instance.rows is None else parse_grid("\n".join(instance.rows))
    return compile_problem(grid, cache[instance.words.path], min_score=instance.min_score,
                           allow_dupes=instance.allow_dupes)


def verify(problem, names, checker: str, limit_s: float) -> str:
    """'ok' if `checker` proves the core unfillable and each one-smaller subset fillable; 'WRONG ...' if it
    proves the opposite; 'unknown ...' if it reaches its limit first."""
    ids = [problem.slot_by_name(n).id for n in names]
    status = fill(sub_problem(problem, ids), checker, Limits(time_limit_s=limit_s)).status
    if status is FillStatus.FILLED:
        return "WRONG: the core has a fill"
    if status is not FillStatus.UNFILLABLE:
        return f"unknown: {checker} reached {limit_s:g} s on the core"
    for dropped in ids:
        rest = [s for s in ids if s != dropped]
        status = fill(sub_problem(problem, rest), checker, Limits(time_limit_s=limit_s)).status
        if status is FillStatus.UNFILLABLE:
            return f"WRONG: not minimal, still unfillable without {problem.slots[dropped].name}"
        if status is not FillStatus.FILLED:
            return f"unknown: {checker} reached {limit_s:g} s without {problem.slots[dropped].name}"
    return "ok"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suites", default="stock,vanbeek72,vanbeek72-ukacd,herald15,herald21,xcsp")
    parser.add_argument("--fill-limit", type=float, default=10.0, help="seconds to prove a grid unfillable")
    parser.add_argument("--check", default="sat", help="second backend that verifies each core ('' to skip)")
    parser.add_argument("--check-limit", type=float, default=20.0, help="seconds per verifying call")
    args = parser.parse_args()
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S')}  load {os.getloadavg()[0]:.2f}  core budget {CORE_TIME_LIMIT_S:g} s")
    print(f"{'suite':<16} {'grid':<40} {'slots':>5} {'proof s':>8} {'core':>4} {'minimal':>7} "
          f"{'calls':>5} {'core s':>7}  check  slots")
    cache: dict = {}
    worst = 0.0
    n_unfillable = n_minimal = 0
    for suite in args.suites.split(","):
        for instance in _suite_instances(suite):
            try:
                problem = load(instance, cache)
            except (ValueError, InputError):  # an instance the bench skips too (e.g. an XCSP model without letters)
                continue
            if problem is None:
                continue
            result = fill(problem, "backtrack", Limits(time_limit_s=args.fill_limit))
            if result.status is not FillStatus.UNFILLABLE:
                continue
            n_unfillable += 1
            start = time.perf_counter()
            core = explain(problem, backend="backtrack", seed_slot_id=result.slot_id)
            seconds = time.perf_counter() - start
            worst = max(worst, seconds)
            if core is None:
                print(f"{suite:<16} {instance.name:<40} {len(problem.slots):>5} {result.stats.wall_time_s:>8.3f} "
                      f"no core within the budget")
                continue
            n_minimal += core["minimal"]
            check = verify(problem, core["slots"], args.check, args.check_limit) if args.check else "-"
            print(f"{suite:<16} {instance.name:<40} {len(problem.slots):>5} {result.stats.wall_time_s:>8.3f} "
                  f"{len(core['slots']):>4} {str(core['minimal']):>7} {core['oracle_calls']:>5} {seconds:>7.3f}  "
                  f"{check:<5}  {' '.join(core['slots'])}")
    print(f"# {n_unfillable} unfillable grids, {n_minimal} cores minimal, worst core time {worst:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
