"""Benchmark `xwcp fill --quality`: per grid the floor, whether it is proven, the mean, its bound and the times.

Runs the whole command (`python -m xwcp fill GRID --quality --format json`) once per grid with
the default list, so the seconds include loading; prints one row per grid and a summary:
floor, how many entries sit at it (at_it), whether it is proven optimal, mean, bound and gap, the first fill's mean, seconds to the
first fill at the final floor and to the final fill, wall seconds, whether the mean is proven
optimal, and whether the search stopped before its limit (both settled).

Usage:
    python3 bench/quality_bench.py [--set herald15|herald21|stock|small] [--time-limit 60]
                                   [--count 5 --min-diff 15] [GRID ...]
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
SETS = {
    "herald15": [ROOT / "models" / "vanbeek" / f"15.{k:02d}.txt" for k in range(1, 11)],
    "herald21": [ROOT / "models" / "vanbeek" / f"21.{k:02d}.txt" for k in range(1, 11)],
    "stock": [
        ROOT / "models" / name
        for name in ("15x15-daily-01.txt", "15x15-daily-02.txt", "15x15-themeless-01.txt", "21x21-sunday-01.txt")
    ],
    "small": [ROOT / "models" / name for name in ("5x5-open.txt", "7x7-mini.txt")],
}


def run_one(grid: Path, time_limit_s: float, count: int | None, min_diff: int | None) -> dict:
    argv = [
        sys.executable,
        "-m",
        "xwcp",
        "fill",
        str(grid),
        "--quality",
        "--time-limit",
        str(time_limit_s),
        "--format",
        "json",
    ]
    if count:
        argv += ["--count", str(count), "--min-diff", str(min_diff)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    seconds = time.perf_counter() - start
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {
            "grid": grid.stem,
            "status": f"error {proc.returncode}: {proc.stderr.strip()[-200:]}",
            "seconds": seconds,
        }
    data["grid"] = grid.stem
    data["wall_s"] = seconds
    return data


def row_text(data: dict) -> str:
    if "quality" not in data:
        return f"{data['grid']:<22} {data.get('status')}"
    q, stats = data["quality"], data["stats"]
    bound = "-" if q["mean_bound"] is None else f"{q['mean_bound']:.2f}"
    gap = "-" if q["mean_bound"] is None else f"{q['mean_bound'] - q['mean_score']:.2f}"
    line = (
        f"{data['grid']:<22} {q['min_score']:>5} {q.get('n_at_min', '-'):>5} {'yes' if q['floor_optimal'] else 'no':>6} "
        f"{q['mean_score']:>6.2f} {bound:>6} {gap:>5} {stats.get('first_mean', 0) or 0:>7.2f} "
        f"{stats.get('first_at_floor_s', 0):>8.2f} {stats.get('final_fill_s', 0):>8.2f} {data['wall_s']:>6.1f} "
        f"{'yes' if stats.get('mean_optimal') else 'no':>8} {'yes' if stats.get('stopped_early') else 'no':>5}"
    )
    if "fills" in data:
        parts = [f"{f['quality']['min_score']}/{f['quality']['mean_score']:.1f}" for f in data["fills"]]
        line += "  fills (min/mean): " + " ".join(parts)
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grids", nargs="*", type=Path)
    parser.add_argument("--set", choices=sorted(SETS), action="append", default=[])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--count", type=int)
    parser.add_argument("--min-diff", type=int, default=15)
    args = parser.parse_args(argv)
    grids = list(args.grids) + [g for name in args.set for g in SETS[name]]
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; uptime: {os.popen('uptime').read().strip()}")
    print(
        f"# fill --quality --time-limit {args.time_limit:g}"
        + (f" --count {args.count} --min-diff {args.min_diff}" if args.count else "")
    )
    print(
        f"{'grid':<22} {'floor':>5} {'at_it':>5} {'proven':>6} {'mean':>6} {'bound':>6} {'gap':>5} {'first':>7} "
        f"{'floor_s':>8} {'final_s':>8} {'wall_s':>6} {'mean_opt':>8} {'early':>5}"
    )
    rows = []
    for grid in grids:
        data = run_one(grid, args.time_limit, args.count, args.min_diff)
        rows.append(data)
        print(row_text(data), flush=True)
    done = [r for r in rows if "quality" in r]
    if done:
        n = len(done)
        print(
            f"# {n}/{len(rows)} filled; floors proven {sum(r['quality']['floor_optimal'] for r in done)}/{n}; "
            f"mean of means {sum(r['quality']['mean_score'] for r in done) / n:.2f}; "
            f"mean of first-fill means {sum(r['stats'].get('first_mean') or 0 for r in done) / n:.2f}; "
            f"mean proven optimal {sum(bool(r['stats'].get('mean_optimal')) for r in done)}/{n}; "
            f"stopped early {sum(bool(r['stats'].get('stopped_early')) for r in done)}/{n}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
