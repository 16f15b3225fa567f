"""`auto` over the cores: fill time at 1, 2 and N processes, and the same search as a base checkout at 1 and 2.

Usage: PYTHONPATH=. nice -n 10 python3 bench/auto_scaling.py [--part scale,same] [--processes 1,2,4]
                                        [--grids 15x15-themeless-01] [--seeds 6] [--time-limit 60]
                                        [--base DIR] [--herald-seeds 3]

Parts:
- scale: `fill(problem, "auto", Limits(seed=s, max_processes=n))` of each grid (a name under models/, e.g. 15x15-themeless-01, or a path
  ending in .txt from the checkout, e.g. bench/suggest_grids/open-4.txt) at seeds
  0..--seeds - 1 for each n of --processes, interleaved seed by seed (the order flips every seed); wall and CPU
  seconds (this process and its reaped children: the rivals), median and max per n, and who won. n = 1 is one
  search; n runs the portfolio's n - 1 rivals after auto.RACE_DELAY_S. More processes than the machine's cores
  measure only the overhead of oversubscribing (the rivals share the cores with the main search).
- same: the Herald grids (models/vanbeek/15.01.txt to 15.10.txt and 21.01.txt to 21.10.txt) at seeds 0..--herald-seeds - 1 with 1 and 2
  processes, in this checkout (`Limits.max_processes`) and in --base (a checkout from before the portfolio:
  XWCP_NO_RACE for one process, its default race for two); each in a subprocess with that checkout first on the
  path. Prints whether status, nodes, backtracks and the fill are equal row by row (the single-core search
  and the two-process race must be unchanged). Needs --base (its C extension built in place).

Timings on a shared 2-core machine are noisy: compare rows of one run, and read CPU beside wall time.
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
sys.path.insert(0, str(ROOT))

HERALD = [f"15.{k:02d}" for k in range(1, 11)] + [f"21.{k:02d}" for k in range(1, 11)]

SAME_SCRIPT = """
import hashlib, json, os, sys
from xwcp.backends import fill
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.model import read_grid
from xwcp.words.wordlist import load_word_list
words = load_word_list(None)
new = sys.argv[1] == "new"
for path in sys.argv[4:]:
    problem = compile_problem(read_grid(path), words)
    for seed in range(int(sys.argv[3])):
        for cap in (1, 2):
            if new:
                limits = Limits(time_limit_s=float(sys.argv[2]), seed=seed, max_processes=cap)
            else:
                os.environ.pop("XWCP_NO_RACE", None)
                if cap == 1:
                    os.environ["XWCP_NO_RACE"] = "1"
                limits = Limits(time_limit_s=float(sys.argv[2]), seed=seed)
            result = fill(problem, "auto", limits)
            os.environ.pop("XWCP_NO_RACE", None)
            assert result.entries is None or not check_fill(problem, result.entries)
            fills = hashlib.sha1(repr(result.entries).encode()).hexdigest()[:12]
            print(json.dumps([os.path.basename(path), seed, cap, result.status.value, result.stats.nodes,
                              result.stats.backtracks, fills, result.stats.extra.get("winner", "")]), flush=True)
"""


def _cpu_s() -> float:
    """CPU seconds of this process and its reaped children (the rivals)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def scale(grids: list[str], processes: list[int], seeds: int, time_limit_s: float, words=None) -> dict:
    """Fills of each grid at each seed with each number of processes: {grid: {n: seconds, cpu_s, winners}}.

    `words`: the word list (default: the embedded default list)."""
    from xwcp.backends import fill
    from xwcp.compile.problem import compile_problem
    from xwcp.engine.result import Limits, check_fill
    from xwcp.model import read_grid
    from xwcp.words.wordlist import load_word_list

    words = load_word_list() if words is None else words
    out: dict = {}
    for name in grids:
        path = ROOT / name if name.endswith(".txt") else ROOT / "models" / f"{name}.txt"
        problem = compile_problem(read_grid(path), words)
        rows: dict[int, dict[str, list]] = {n: {"seconds": [], "cpu_s": [], "winners": []} for n in processes}
        for seed in range(seeds):
            for n in processes if seed % 2 == 0 else processes[::-1]:
                start, cpu = time.perf_counter(), _cpu_s()
                result = fill(problem, "auto", Limits(time_limit_s=time_limit_s, seed=seed, max_processes=n))
                wall_s, cpu_s = time.perf_counter() - start, _cpu_s() - cpu
                assert result.entries is None or check_fill(problem, result.entries) == []
                row = rows[n]
                row["seconds"].append(wall_s)
                row["cpu_s"].append(cpu_s)
                extra = result.stats.extra
                row["winners"].append(f"{extra.get('winner', 'backtrack')}{extra.get('winner_rank', '')}")
                print(
                    f"  {name} seed {seed}, {n} process(es): {result.status.value} {wall_s:.2f} s "
                    f"(CPU {cpu_s:.2f} s), winner {row['winners'][-1]}",
                    flush=True,
                )
        out[name] = rows
    return out


def same(base: Path, seeds: int, time_limit_s: float) -> tuple[int, int, list]:
    """Rows (grid, seed, cap, status, nodes, backtracks, fill hash, winner) of both checkouts: (equal, total, diffs)."""
    paths = [str(ROOT / "models" / "vanbeek" / f"{g}.txt") for g in HERALD]
    got = {}
    for which, checkout in (("new", ROOT), ("base", base)):
        env = dict(os.environ, PYTHONPATH=str(checkout))
        env.pop("XWCP_NO_RACE", None)
        env.pop("XWCP_MAX_PROCESSES", None)
        done = subprocess.run(
            [sys.executable, "-c", SAME_SCRIPT, which, str(time_limit_s), str(seeds), *paths],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=checkout,
        )
        got[which] = [json.loads(line) for line in done.stdout.splitlines()]
    pairs = list(zip(got["new"], got["base"], strict=True))
    diffs = [(n, b) for n, b in pairs if n[:7] != b[:7]]
    return len(pairs) - len(diffs), len(pairs), diffs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--part", default="scale,same")
    parser.add_argument("--processes", default="1,2,4")
    parser.add_argument("--grids", default="15x15-themeless-01")
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--base", type=Path, default=None, help="same part: a checkout from before (built in place)")
    parser.add_argument("--herald-seeds", type=int, default=3)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    parts = set(args.part.split(","))
    out: dict = {"cores": len(os.sched_getaffinity(0)), "load_average_at_start": os.getloadavg()}
    print(f"{out['cores']} cores; load average at start {os.getloadavg()}", flush=True)
    if "scale" in parts:
        processes = [int(n) for n in args.processes.split(",")]
        found = scale(args.grids.split(","), processes, args.seeds, args.time_limit)
        out["scale"] = found
        for name, rows in found.items():
            one = statistics.median(rows[processes[0]]["seconds"])
            for n, row in rows.items():
                median = statistics.median(row["seconds"])
                print(
                    f"fill {name} seeds 0-{args.seeds - 1}, {n} process(es): median {median:.2f} s "
                    f"max {max(row['seconds']):.2f} s, CPU median {statistics.median(row['cpu_s']):.2f} s; "
                    f"{processes[0]}/{n} median {one / max(median, 1e-9):.2f}x; winners {row['winners']}"
                    + (f" (more processes than the {out['cores']} cores: overhead only)" if n > out["cores"] else ""),
                    flush=True,
                )
    if "same" in parts:
        if args.base is None:
            parser.error("the same part needs --base DIR")
        equal, total, diffs = same(args.base, args.herald_seeds, args.time_limit)
        out["same"] = {"equal": equal, "total": total, "diffs": diffs}
        print(
            f"Herald {len(HERALD)} grids x seeds 0-{args.herald_seeds - 1} x 1 and 2 processes: {equal} of {total} "
            f"rows equal to the base (status, nodes, backtracks, fill){'' if not diffs else f'; differ: {diffs[:5]}'}",
            flush=True,
        )
    print(f"load average at end {os.getloadavg()}", flush=True)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
