"""Compile and fill in CPU time, this checkout against another: best of N per grid, processes alternating by round.

Usage: python3 bench/cpu_ab.py NEW_TREE,BASE_TREE FILLS ROUNDS GRID...
   e.g. python3 bench/cpu_ab.py $PWD,/work/wt/base2 7 4 $PWD/models/vanbeek/*.txt

On a shared machine (more runnable processes than cores) wall-clock medians swing by 2x between runs; the
process's own CPU time (`time.process_time`) barely moves with the load, so a few percent shows. Each round
starts one process per checkout (order flipping every round); a process loads the default list, compiles and
fills each grid once to warm up, then times FILLS compiles and FILLS `backtrack` fills (seed 0). Printed: the
best compile and fill time of each checkout per grid, their ratio, the node counts (equal when both search the
same way), and the median ratios.
"""

import json
import os
import statistics
import subprocess
import sys

CHILD = r"""
import json, sys, time
from xwcp.model import read_grid
from xwcp.compile.problem import compile_problem
from xwcp.backends import fill
from xwcp.engine.result import Limits
from xwcp.words.wordlist import load_word_list
words = load_word_list(None)
out = {}
n = int(sys.argv[1])
for g in sys.argv[2:]:
    grid = read_grid(g)
    p = compile_problem(grid, words); fill(p, "backtrack", Limits(time_limit_s=60))
    ct, ft = [], []
    for _ in range(n):
        t = time.process_time(); q = compile_problem(read_grid(g), words); ct.append(time.process_time() - t)
        t = time.process_time(); r = fill(p, "backtrack", Limits(time_limit_s=60)); ft.append(time.process_time() - t)
    out[g] = [min(ct), min(ft), r.stats.nodes]
print(json.dumps(out))
"""
trees = sys.argv[1].split(",")
n = sys.argv[2]
rounds = int(sys.argv[3])
grids = sys.argv[4:]
runs = {t: [] for t in trees}
for k in range(rounds):
    for t in trees if k % 2 == 0 else trees[::-1]:
        d = subprocess.run(
            [sys.executable, "-c", CHILD, n, *grids],
            cwd=t,
            capture_output=True,
            text=True,
            env=dict(os.environ, PYTHONPATH=t),
        )
        if d.returncode:
            sys.exit(d.stderr[-800:])
        runs[t].append(json.loads(d.stdout))
a, b = trees
cr, fr = [], []
for g in grids:
    ca = min(r[g][0] for r in runs[a])
    cb = min(r[g][0] for r in runs[b])
    fa = min(r[g][1] for r in runs[a])
    fb = min(r[g][1] for r in runs[b])
    cr.append(ca / cb)
    fr.append(fa / fb)
    print(
        f"{os.path.basename(g)}: compile {ca * 1e3:.2f}/{cb * 1e3:.2f} ms ({ca / cb:.3f})  fill {fa * 1e3:.2f}/{fb * 1e3:.2f} ms ({fa / fb:.3f})  nodes {runs[a][0][g][2]}/{runs[b][0][g][2]}"
    )
print(
    f"compile ratio median {statistics.median(cr):.3f}  fill ratio median {statistics.median(fr):.3f} (worst {max(fr):.3f}, best {min(fr):.3f})"
)
