"""Benchmark `fill --quality`'s floor against the plain `--min-score` ladder, per grid, before and after a change.

For each grid (Herald 15.01-15.10 and 21.01-21.10 with the default list by default) it runs
  (a) the plain ladder: `xwcp fill GRID --min-score L --time-limit T` for L = 50, 55, 60, ... until a level
      does not fill (unfillable or limit), recording per level the outcome and seconds;
  (b) `xwcp fill GRID --quality --time-limit T --format json` on a code tree (PYTHONPATH=tree) under a label
      ("before", "after"), recording floor, proven or not, entries at the floor, mean, bound and the per-floor
      report when the tree gives one.
Every row goes to a JSON results file as soon as it is done, with the load average at its start; a rerun skips
rows already there (the machine is shared and slow, so runs are resumable). Runs are one process at a time.

`--table` prints, per grid: the highest plain level and its seconds, the highest plain level reached within
--reach-s seconds (20), and for each quality label the floor, proven, entries at it, mean and bound, and
whether that floor reaches the plain level.

Usage:
    python3 bench/quality_floor.py --results R.json plain [--tree /work/main]
    python3 bench/quality_floor.py --results R.json quality --label before --tree /work/main
    python3 bench/quality_floor.py --results R.json table [--labels before,after]
    (--only 15.01,21.07 runs or prints those grids only)
Timings are wall seconds of the whole command (loading included) and are only as good as the load allows.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRIDS = {
    "herald15": [ROOT / "models" / "vanbeek" / f"15.{k:02d}.txt" for k in range(1, 11)],
    "herald21": [ROOT / "models" / "vanbeek" / f"21.{k:02d}.txt" for k in range(1, 11)],
}
TOP_LEVEL = 100


def load_results(path: Path) -> dict:
    if path.is_file():
        return json.loads(path.read_text())
    return {"rows": {}}


def save_results(path: Path, results: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(results, indent=1, sort_keys=True))
    tmp.replace(path)


def loadavg() -> str:
    try:
        return Path("/proc/loadavg").read_text().split(" ", 3)[:3].__str__()
    except OSError:
        return "?"


def run_fill(tree: Path, grid: Path, extra: list[str], time_limit_s: float, nice: int) -> dict:
    argv = [
        sys.executable,
        "-m",
        "xwcp",
        "fill",
        str(grid),
        "--time-limit",
        f"{time_limit_s:g}",
        "--format",
        "json",
        *extra,
    ]
    if nice:
        argv = ["nice", "-n", str(nice), *argv]
    env = dict(os.environ, PYTHONPATH=str(tree))
    load = loadavg()
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=str(tree))
    wall_s = time.perf_counter() - start
    row: dict = {
        "argv": " ".join(argv[argv.index("-m") :]),
        "tree": str(tree),
        "rc": proc.returncode,
        "wall_s": round(wall_s, 2),
        "load_at_start": load,
        "load_at_end": loadavg(),
        "at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        row["status"] = f"error: {proc.stderr.strip()[-300:]}"
        return row
    row["status"] = data.get("status")
    row["seconds"] = data.get("seconds")
    row["quality"] = data.get("quality")
    stats = data.get("stats") or {}
    row["stats"] = {
        k: stats[k]
        for k in ("nodes", "first_at_floor_s", "final_fill_s", "mean_optimal", "stopped_early")
        if k in stats
    }
    if "floors" in data:
        row["floors"] = data["floors"]
    return row


ONLY: set[str] = set()
"""Grid names to run (--only), all when empty."""


def grids_of(names: list[str]) -> list[Path]:
    return [g for name in names for g in GRIDS[name] if not ONLY or g.stem in ONLY]


def do_plain(args: argparse.Namespace, results: dict) -> None:
    for grid in grids_of(args.set):
        level = args.start
        while level <= TOP_LEVEL:
            key = f"plain/{grid.stem}/{level}"
            row = results["rows"].get(key)
            if row is None:
                row = run_fill(args.tree, grid, ["--min-score", str(level)], args.time_limit, args.nice)
                results["rows"][key] = row
                save_results(args.results, results)
                print(f"{key:<22} {row['status']:<11} {row['wall_s']:>6.1f}s  load {row['load_at_start']}", flush=True)
            if row["status"] != "filled":
                break
            level += args.step


def do_quality(args: argparse.Namespace, results: dict) -> None:
    for grid in grids_of(args.set):
        key = f"quality/{args.label}/{grid.stem}"
        if key in results["rows"]:
            continue
        row = run_fill(args.tree, grid, ["--quality"], args.time_limit, args.nice)
        results["rows"][key] = row
        save_results(args.results, results)
        q = row.get("quality") or {}
        print(
            f"{key:<26} {row['status']:<9} floor {q.get('min_score')} proven {q.get('floor_optimal')} "
            f"at {q.get('n_at_min')} mean {q.get('mean_score')} {row['wall_s']:.1f}s "
            f"load {row['load_at_start']}",
            flush=True,
        )


def plain_summary(rows: dict, grid: str, reach_s: float) -> tuple[int | None, float | None, int | None, str]:
    """(highest level filled, its seconds, highest level filled within reach_s, how the ladder ended)."""
    best = best_s = reached = None
    ended = "-"
    level = 0
    while level <= TOP_LEVEL:
        row = rows.get(f"plain/{grid}/{level}")
        level += 5
        if row is None:
            continue
        if row["status"] == "filled":
            best, best_s = level - 5, row["wall_s"]
            if row["wall_s"] <= reach_s:
                reached = level - 5
        else:
            ended = f"{level - 5}:{row['status']}"
            break
    return best, best_s, reached, ended


def do_table(args: argparse.Namespace, results: dict) -> str:
    rows = results["rows"]
    labels = [label for label in args.labels.split(",") if label]
    head = f"{'grid':<6} {'plain':>5} {'s':>5} {'<=' + format(args.reach_s, 'g') + 's':>5} {'ended':<13}"
    for label in labels:
        head += f" | {label + ' floor':>12} {'prv':>3} {'at':>3} {'mean':>6} {'bound':>6} {'ok':>3}"
    lines = [head]
    misses = {label: 0 for label in labels}
    counted = 0
    for grid in grids_of(args.set):
        best, best_s, reached, ended = plain_summary(rows, grid.stem, args.reach_s)
        line = (
            f"{grid.stem:<6} {best if best is not None else '-':>5} "
            f"{format(best_s, '.1f') if best_s is not None else '-':>5} "
            f"{reached if reached is not None else '-':>5} {ended:<13}"
        )
        if reached is not None:
            counted += 1
        for label in labels:
            row = rows.get(f"quality/{label}/{grid.stem}")
            q = (row or {}).get("quality") or {}
            if not q:
                line += f" | {(row or {}).get('status', '-') or '-':>12} {'':>3} {'':>3} {'':>6} {'':>6} {'':>3}"
                continue
            ok = "-" if reached is None else ("yes" if q["min_score"] >= reached else "NO")
            if ok == "NO":
                misses[label] += 1
            bound = "-" if q.get("mean_bound") is None else f"{q['mean_bound']:.2f}"
            line += (
                f" | {q['min_score']:>12} {'yes' if q.get('floor_optimal') else 'no':>3} "
                f"{q.get('n_at_min', '-'):>3} {q['mean_score']:>6.2f} {bound:>6} {ok:>3}"
            )
        lines.append(line)
    for label in labels:
        lines.append(
            f"# {label}: misses a plain level reached within {args.reach_s:g} s on {misses[label]} of {counted} grids"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, required=True, help="the JSON results file (resumable)")
    parser.add_argument("--set", action="append", choices=sorted(GRIDS))
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--tree", type=Path, default=ROOT, help="code tree to run (PYTHONPATH)")
    parser.add_argument("--nice", type=int, default=5)
    parser.add_argument("--start", type=int, default=50)
    parser.add_argument("--step", type=int, default=5)
    parser.add_argument("--label", default="after")
    parser.add_argument("--labels", default="before,after")
    parser.add_argument("--reach-s", type=float, default=20.0)
    parser.add_argument("--only", default="", help="comma-separated grid names (e.g. 15.01,21.07)")
    parser.add_argument("part", choices=("plain", "quality", "table"))
    args = parser.parse_args(argv)
    ONLY.update(name for name in args.only.split(",") if name)
    args.set = args.set or ["herald15", "herald21"]
    args.tree = args.tree.resolve()
    results = load_results(args.results)
    if args.part == "plain":
        do_plain(args, results)
    elif args.part == "quality":
        do_quality(args, results)
    else:
        print(do_table(args, results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
