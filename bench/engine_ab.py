"""The fill search alone, this checkout against others: best of N in-process fills per grid, processes alternating.

Usage: PYTHONPATH=. python3 bench/engine_ab.py --trees /work/main,/path/to/base [--fills 7] [--rounds 3]
                                               models/vanbeek/21.10.txt models/vanbeek/15.06.txt ...

Each round starts one process per checkout (in turn, the order flipping every round); a process loads the
default list, compiles each grid once, fills it once to warm up, then times `--fills` fills with `backtrack`
(seed 0). The table gives the best time over all rounds and the search's node count, which is the same in
every checkout that searches the same way. For a change inside xwcp/engine/_bitsearch.c this is the measure
that sees a few percent; whole commands (bench/ab_herald.py) drown it in the interpreter's start.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, statistics, sys, time
from xwcp.model import read_grid
from xwcp.compile.problem import compile_problem
from xwcp.backends import fill
from xwcp.engine.result import Limits, check_fill
from xwcp.words.wordlist import load_word_list
words = load_word_list(None)
out = {}
for g in sys.argv[2:]:
    p = compile_problem(read_grid(g), words)
    fill(p, "backtrack", Limits(time_limit_s=60))
    times = []
    for _ in range(int(sys.argv[1])):
        t = time.perf_counter()
        r = fill(p, "backtrack", Limits(time_limit_s=60))
        times.append(time.perf_counter() - t)
        assert r.entries is None or not check_fill(p, r.entries), g
    out[g] = [min(times), statistics.median(times), r.stats.nodes]
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trees", required=True, help="checkouts, comma-separated (extensions built in place)")
    parser.add_argument("--fills", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("grids", nargs="+")
    args = parser.parse_args()
    trees = [os.path.abspath(t) for t in args.trees.split(",")]
    grids = [os.path.abspath(g) for g in args.grids]
    runs: dict[str, list[dict]] = {t: [] for t in trees}
    for round_no in range(args.rounds):
        for tree in trees if round_no % 2 == 0 else trees[::-1]:
            done = subprocess.run(
                [sys.executable, "-c", CHILD, str(args.fills), *grids],
                cwd=tree,
                capture_output=True,
                text=True,
                env=dict(os.environ, PYTHONPATH=tree),
            )
            if done.returncode:
                sys.exit(f"{tree}: {done.stderr.strip().splitlines()[-1:]}")
            runs[tree].append(json.loads(done.stdout))
    for grid in grids:
        cells = [
            f"{tree}: best {min(r[grid][0] for r in runs[tree]) * 1000:.2f} ms, nodes {runs[tree][0][grid][2]}"
            for tree in trees
        ]
        print(f"{os.path.basename(grid)} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
