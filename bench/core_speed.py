"""How fast a minimal core is found on every unfillable grid of the bench suites, side by side with an older checkout.

For each grid proven unfillable (by `auto`, as `xwcp fill` proves it, up to --fill-limit s), a
child process of each checkout loads it, proves it, and finds the core (`xwcp.search.core.explain`,
its 5 s budget unless --budget; this checkout hands it the proof's dead-end weights); the
checkouts take turns, --repeat times, and the medians are printed: proof time, core time,
core size, minimal or not, searches. With --check, this checkout's cores are verified by a
second backend (default `sat`): unfillable, and each one-smaller subset fillable.
--extra adds grids outside the suites (e.g. the seeded themeless, bench/seeded/, with
Spread the Wordlist, which is not shipped: give its path).

Usage:
    PYTHONPATH=. python3 bench/core_speed.py [--base OLD_CHECKOUT] [--repeat 3] [--suites ...]
        [--grids SUITE:NAME,...] [--extra GRID:WORDS:MIN_SCORE ...] [--check sat]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUITES = "stock,vanbeek72,vanbeek72-ukacd,herald15,herald21,xcsp,scaling"
KNOWN_UNFILLABLE = (
    "stock:4x4-unfillable,vanbeek72:23.01,xcsp:normalized-crossword-m1-lex-15-04,"
    "scaling:blocked-07x07@25000,scaling:blocked-09x09@25000,scaling:blocked-11x11@25000,"
    "scaling:blocked-15x15@25000,scaling:open-5x5@25000,scaling:open-6x6@25000,"
    "scaling:open-7x7@25000"
)
"""The unfillable grids of the suites (bench/results/2026-11-23/core_speed.txt): --grids known."""


def _bench_function(name: str):
    """A function of the bench package of the checkout on sys.path (its layout changed over time)."""
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


def _instances(suite: str, root: Path):
    return _bench_function("suite_instances")(suite, root=root)


def _key(instance) -> str:
    return f"{instance.suite}:{instance.name}" + (f"@{instance.words.top_n}" if instance.words.top_n else "")


def load_spec(spec: str, root: Path):
    """The compiled problem of "SUITE:NAME[@TOP_N]" or "GRID:WORDS:MIN_SCORE" (an --extra grid)."""
    from xwcp import compile_problem

    if spec.count(":") == 2 and spec.split(":")[0] not in _suite_names():
        from xwcp.services.load import LoadOptions, load_problem

        grid, words, min_score = spec.split(":")
        return load_problem(grid, words or None, LoadOptions(min_score=int(min_score)))
    lists = _bench_function("WordLists")()
    for instance in _instances(spec.split(":")[0], root):
        if _key(instance) == spec:
            loaded = _bench_function("load_instance")(instance, lists)
            return compile_problem(
                loaded.grid, loaded.words, min_score=loaded.min_score, allow_dupes=loaded.allow_dupes
            )
    raise SystemExit(f"no instance {spec}")


def _suite_names() -> set[str]:
    return set(SUITES.split(","))


def child(spec: str, budget_s: float, fill_limit_s: float) -> dict:
    """Load, prove and explain one grid with the checkout on sys.path; the numbers as a dict."""
    import inspect

    from xwcp.backends import fill
    from xwcp.engine.result import Limits
    from xwcp.search.core import explain

    problem = load_spec(spec, Path.cwd())
    start = time.perf_counter()
    result = fill(problem, "auto", Limits(time_limit_s=fill_limit_s))
    proof_s = time.perf_counter() - start
    if result.status.value != "unfillable":
        return {"spec": spec, "status": result.status.value, "proof_s": proof_s}
    options = {}
    if "weight_by_slot" in inspect.signature(explain).parameters:
        options["weight_by_slot"] = result.weight_by_slot
    start = time.perf_counter()
    core = explain(problem, seed_slot_id=result.slot_id, time_limit_s=budget_s, **options)
    core_s = time.perf_counter() - start
    out = {"spec": spec, "status": "unfillable", "slots": len(problem.slots), "proof_s": proof_s, "core_s": core_s}
    if core is not None and not isinstance(core, dict):  # a CoreReport: its JSON object, as older checkouts gave
        from xwcp.render.core import core_json

        core = core_json(core)
    if core is not None:
        out.update(size=len(core["slots"]), minimal=core["minimal"], calls=core["oracle_calls"], names=core["slots"])
    return out


def run_child(checkout: Path, spec: str, args) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    done = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            spec,
            "--budget",
            str(args.budget),
            "--fill-limit",
            str(args.fill_limit),
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=checkout,
        timeout=600,
    )
    if done.returncode != 0:
        return {"spec": spec, "status": "error", "error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def verify(spec: str, names, checker: str, limit_s: float, is_minimal: bool) -> str:
    """'ok' if `checker` proves the core unfillable and (when it is called minimal) each one-smaller subset
    fillable; 'WRONG ...' if it proves the opposite; 'unknown ...' if it reaches its limit first."""
    from xwcp.backends import fill
    from xwcp.engine.result import Limits
    from xwcp.search.core import sub_problem

    problem = load_spec(spec, ROOT)
    ids = [problem.slot_by_name(n).id for n in names]
    status = fill(sub_problem(problem, ids), checker, Limits(time_limit_s=limit_s)).status.value
    if status == "filled":
        return "WRONG: the core has a fill"
    if status != "unfillable":
        return f"unknown: {checker} reached {limit_s:g} s on the core"
    if not is_minimal:
        return "ok (unfillable)"
    for dropped in ids:
        status = fill(
            sub_problem(problem, [s for s in ids if s != dropped]), checker, Limits(time_limit_s=limit_s)
        ).status.value
        if status == "unfillable":
            return f"WRONG: not minimal, still unfillable without {problem.slots[dropped].name}"
        if status != "filled":
            return f"unknown: {checker} reached {limit_s:g} s without {problem.slots[dropped].name}"
    return "ok"


def find_unfillable(suites: str, fill_limit_s: float) -> list[str]:
    from xwcp.backends import fill
    from xwcp.base.errors import InputError
    from xwcp.engine.result import Limits

    found = []
    for suite in suites.split(","):
        for instance in _instances(suite, ROOT):
            try:
                problem = load_spec(_key(instance), ROOT)
            except (ValueError, InputError, SystemExit):
                continue
            if fill(problem, "auto", Limits(time_limit_s=fill_limit_s)).status.value == "unfillable":
                found.append(_key(instance))
    return found


def _median(rows: list[dict], key: str):
    values = [r[key] for r in rows if key in r]
    return statistics.median(values) if values else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", metavar="SPEC", help=argparse.SUPPRESS)
    parser.add_argument("--suites", default=SUITES)
    parser.add_argument(
        "--grids",
        default="known",
        help="SUITE:NAME[@TOP_N],... ('known': the unfillable grids "
        "of the suites found before; 'all': fill every grid of --suites to find them)",
    )
    parser.add_argument("--extra", action="append", default=[], metavar="GRID:WORDS:MIN_SCORE")
    parser.add_argument("--base", type=Path, help="an older checkout to run side by side (its extension built)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per grid and checkout, taking turns (medians)")
    parser.add_argument("--fill-limit", type=float, default=10.0, help="seconds to prove a grid unfillable")
    parser.add_argument("--budget", type=float, default=5.0, help="seconds for each core (the default budget)")
    parser.add_argument("--check", default="", help="second backend that verifies this checkout's cores")
    parser.add_argument("--check-limit", type=float, default=20.0, help="seconds per verifying call")
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.budget, args.fill_limit)))
        return 0
    sys.path.insert(0, str(ROOT))
    specs = (
        find_unfillable(args.suites, args.fill_limit)
        if args.grids == "all"
        else (KNOWN_UNFILLABLE if args.grids == "known" else args.grids).split(",")
    )
    specs += [str(Path(e.split(":")[0]).resolve()) + ":" + ":".join(e.split(":")[1:]) for e in args.extra]
    checkouts = [("new", ROOT)] + ([("base", args.base.resolve())] if args.base else [])
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M:%S')}  load {os.getloadavg()[0]:.2f}  budget {args.budget:g} s  "
        f"repeat {args.repeat}  new {ROOT}" + (f"  base {args.base}" if args.base else "")
    )
    print(
        f"{'grid':<46} {'slots':>5} {'who':<4} {'proof s':>7} {'core s':>7} {'size':>4} {'minimal':>7} "
        f"{'calls':>5}  check"
    )
    for spec in specs:
        rows: dict[str, list[dict]] = {who: [] for who, _ in checkouts}
        for _ in range(args.repeat):
            for who, checkout in checkouts:
                rows[who].append(run_child(checkout, spec, args))
        label = Path(spec.split(":")[0]).name if spec.startswith("/") else spec
        for who, _ in checkouts:
            runs = [r for r in rows[who] if r.get("status") == "unfillable"]
            if not runs:
                print(f"{label:<46} {'':>5} {who:<4} {rows[who][0].get('status')} {rows[who][0].get('error', '')}")
                continue
            minimal = f"{sum(bool(r.get('minimal')) for r in runs)}/{len(runs)}"
            check = "-"
            if who == "new" and args.check and runs[-1].get("names"):
                check = verify(spec, runs[-1]["names"], args.check, args.check_limit, runs[-1]["minimal"])
            sizes = sorted({r.get("size") for r in runs if r.get("size")})
            print(
                f"{label:<46} {runs[0]['slots']:>5} {who:<4} {_median(runs, 'proof_s'):>7.3f} "
                f"{_median(runs, 'core_s'):>7.3f} {'/'.join(map(str, sizes)):>4} {minimal:>7} "
                f"{_median(runs, 'calls') or 0:>5.0f}  {check}",
                flush=True,
            )
    print(f"# end {time.strftime('%H:%M:%S')}  load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
