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

from xwcp import compile_problem  # noqa: E402
from xwcp.backends import fill  # noqa: E402
from xwcp.errors import InputError  # noqa: E402
from xwcp.core import CORE_TIME_LIMIT_S, core_dict, explain, find_core, sub_problem  # noqa: E402
from xwcp.result import Limits  # noqa: E402
from xwcp.types import FillStatus  # noqa: E402


def _bench_function(name: str):
    """A function of the bench module (xwcp/bench.py, or a module of the xwcp/bench/ package)."""
    import importlib
    import pkgutil

    bench = importlib.import_module("xwcp.bench")
    if hasattr(bench, name):
        return getattr(bench, name)
    for info in pkgutil.iter_modules(getattr(bench, "__path__", [])):
        module = importlib.import_module(f"xwcp.bench.{info.name}")
        if hasattr(module, name):
            return getattr(module, name)
    raise ImportError(f"xwcp.bench has no {name}")


def _suite_instances(suite: str):
    return _bench_function("suite_instances")(suite, root=ROOT)


def load(instance, cache: dict):
    """The compiled problem of a bench instance, loaded the way the bench loads it (`xwcp.bench.load_instance`)."""
    if "lists" not in cache:
        cache["lists"] = _bench_function("WordLists")()
    loaded = _bench_function("load_instance")(instance, cache["lists"])
    return compile_problem(loaded.grid, loaded.words, min_score=loaded.min_score, allow_dupes=loaded.allow_dupes)


def verify(problem, names, checker: str, limit_s: float, is_minimal: bool) -> str:
    """'ok' if `checker` proves the core unfillable and (when it is called minimal) each one-smaller subset
    fillable; 'WRONG ...' if it proves the opposite; 'unknown ...' if it reaches its limit first."""
    ids = [problem.slot_by_name(n).id for n in names]
    status = fill(sub_problem(problem, ids), checker, Limits(time_limit_s=limit_s)).status
    if status is FillStatus.FILLED:
        return "WRONG: the core has a fill"
    if status is not FillStatus.UNFILLABLE:
        return f"unknown: {checker} reached {limit_s:g} s on the core"
    if not is_minimal:
        return "ok (unfillable)"
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
    parser.add_argument("--suites", default="stock,vanbeek72,vanbeek72-ukacd,herald15,herald21,xcsp,scaling")
    parser.add_argument("--fill-limit", type=float, default=10.0, help="seconds to prove a grid unfillable")
    parser.add_argument("--check", default="sat", help="second backend that verifies each core ('' to skip)")
    parser.add_argument("--check-limit", type=float, default=20.0, help="seconds per verifying call")
    parser.add_argument("--budget", type=float, default=CORE_TIME_LIMIT_S, help="seconds for each core (default 5)")
    parser.add_argument("--seedless", action="store_true",
                        help="shrink from all slots instead of growing from the slot the proof names (to compare)")
    args = parser.parse_args()
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S')}  load {os.getloadavg()[0]:.2f}  core budget {args.budget:g} s"
          f"{'  seedless' if args.seedless else ''}")
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
            name = instance.name + (f" ({instance.words.top_n // 1000}k)" if instance.words.top_n else "")
            start = time.perf_counter()
            if args.seedless:
                found = find_core(problem, time_limit_s=args.budget, is_proven=True)
                core = None if found is None else core_dict(problem, found)
            else:
                core = explain(problem, backend="backtrack", seed_slot_id=result.slot_id, time_limit_s=args.budget)
            seconds = time.perf_counter() - start
            worst = max(worst, seconds)
            if core is None:
                print(f"{suite:<16} {name:<40} {len(problem.slots):>5} {result.stats.wall_time_s:>8.3f} "
                      f"no core within the budget")
                continue
            n_minimal += core["minimal"]
            check = (verify(problem, core["slots"], args.check, args.check_limit, core["minimal"])
                     if args.check else "-")
            print(f"{suite:<16} {name:<40} {len(problem.slots):>5} {result.stats.wall_time_s:>8.3f} "
                  f"{len(core['slots']):>4} {str(core['minimal']):>7} {core['oracle_calls']:>5} {seconds:>7.3f}  "
                  f"{check:<5}  {' '.join(core['slots'])}")
    print(f"# {n_unfillable} unfillable grids, {n_minimal} cores minimal, worst core time {worst:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
