"""Blocked grids lose no speed: the Herald 15x15 and 21x21 grids, this checkout against a base and Qxw, one run.

Usage: PYTHONPATH=. python3 bench/ab_herald.py --base DIR [--repeats 3] [--time-limit 60] [--no-qxw]
                                             [--grids 15.01,...]

Two measures, each interleaved grid by grid (new, base, new, base ...; the order flips every round):
  command    the whole `xwcp fill --format json` (interpreter start, list load, compile, fill; the
             way a user and a peer are timed), run from each checkout; every fill is checked.
  engine     compile + fill (auto, seed 0) inside one process per checkout and round, the list
             loaded once: what the engine itself costs, without Python's start; with the search's
             node counts, which are equal when both checkouts search the same way.
Both checkouts' bytecode is compiled first, as `pip install` does (where PYTHONDONTWRITEBYTECODE is
set, every command would otherwise compile every module from source: 40 ms of a 0.1 s fill, more for the
checkout with more code). Qxw fills each grid once on the same list (as `xwcp bench` runs peers). Medians over the rounds;
the summary gives the new/base ratio per grid (median and worst) and new/Qxw for the command.
`--base DIR` is a checkout with its C extension built in place
(`git worktree add --detach /tmp/base main && (cd /tmp/base && python3 setup.py build_ext --inplace)`).
The machine may be shared: `uptime` is printed before and after; compare the ratios.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GRIDS = [f"15.{k:02d}" for k in range(1, 11)] + [f"21.{k:02d}" for k in range(1, 11)]

ENGINE_SCRIPT = """
import json, sys, time
from xwcp.backends import fill
try:  # the layered package (issue 33)
    from xwcp.model import read_grid
    from xwcp.compile.problem import compile_problem
    from xwcp.engine.result import Limits, check_fill
    from xwcp.words.wordlist import load_word_list
except ImportError:  # a base checkout from before the layers
    from xwcp.grid import read_grid
    from xwcp.problem import compile_problem
    from xwcp.result import Limits, check_fill
    from xwcp.wordlist import load_word_list
words = load_word_list(None)
out = {}
for path in sys.argv[2:]:
    start = time.perf_counter()
    problem = compile_problem(read_grid(path), words)
    compiled = time.perf_counter()
    result = fill(problem, "auto", Limits(time_limit_s=float(sys.argv[1])))
    done = time.perf_counter()
    ok = result.entries is None or not check_fill(problem, result.entries)
    out[path] = [compiled - start, done - compiled, result.status.value if ok else "error", result.stats.nodes]
print(json.dumps(out))
"""


def say(text: str) -> None:
    print(text, flush=True)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def tree_env(tree: Path) -> dict[str, str]:
    """The environment a checkout runs in: its own package first, and a word-list cache folder of its own (two
    checkouts of different cache versions sharing one would each remove the other's compiled list: every run of
    one of them would compile its list again and be timed doing it)."""
    cache = (
        Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        / "xwcp-ab"
        / hashlib.sha1(str(tree.resolve()).encode()).hexdigest()[:12]
    )
    return dict(os.environ, PYTHONPATH=str(tree), XWCP_CACHE_DIR=str(cache))


def command(tree: Path, grid: Path, time_limit_s: float) -> tuple[float, str]:
    """(wall s, status) of one whole `xwcp fill` from checkout `tree`; a fill is checked by this checkout's rules."""
    env = tree_env(tree)
    argv = [sys.executable, "-m", "xwcp", "fill", str(grid), "--format", "json", "--time-limit", f"{time_limit_s:g}"]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tree, timeout=time_limit_s + 120)
    wall = time.perf_counter() - start
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError:
        return wall, f"error (exit {done.returncode})"
    status = data.get("status", "?")
    if status == "filled":
        from xwcp.compile.problem import compile_problem
        from xwcp.engine.result import check_fill, grid_entries
        from xwcp.model import grid_from_rows, read_grid
        from xwcp.words.wordlist import load_word_list

        problem = compile_problem(read_grid(grid), load_word_list(None))
        entries = grid_entries(problem, grid_from_rows(data["grid"]))
        status = "filled" if not check_fill(problem, entries) else "error (invalid fill)"
    return wall, status


def engine(tree: Path, grids: list[Path], time_limit_s: float) -> dict[str, list]:
    env = tree_env(tree)
    done = subprocess.run(
        [sys.executable, "-c", ENGINE_SCRIPT, f"{time_limit_s:g}", *map(str, grids)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
        timeout=len(grids) * (time_limit_s + 60),
    )
    if done.returncode:
        raise RuntimeError(f"engine run in {tree} failed: {done.stderr[-500:]}")
    return json.loads(done.stdout)


def qxw(grid: Path, time_limit_s: float) -> tuple[float, str]:
    from xwcp.bench import Instance, WordLists, WordSource, load_instance, peer_word_file, run_peer_checked

    instance = Instance("herald", grid.stem, grid, words=WordSource(None), min_score=50)
    loaded = load_instance(instance, WordLists())
    row = run_peer_checked(loaded, "qxw", time_limit_s, peer_word_file("qxw", loaded))
    return float(row["seconds"]), str(row["status"])


def ratio_line(name: str, ratios: list[float]) -> str:
    return f"{name}: median {statistics.median(ratios):.3f}, worst {max(ratios):.3f}, best {min(ratios):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="checkout to compare against (extension built)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--grids", default=",".join(GRIDS))
    parser.add_argument("--no-qxw", action="store_true")
    args = parser.parse_args()
    from xwcp.bench.peers import peer_available

    base = args.base.resolve()
    grids = [ROOT / "models/vanbeek" / f"{name}.txt" for name in args.grids.split(",")]
    with_qxw = not args.no_qxw and peer_available("qxw")
    say(f"start: {uptime()}  base: {base}  repeats: {args.repeats}")
    trees = {"new": ROOT, "base": base}
    import compileall  # bytecode first, as an installed package has it (PYTHONDONTWRITEBYTECODE may be set)

    for tree in trees.values():
        compileall.compile_dir(str(tree / "xwcp"), quiet=2)
    # engine: one process per checkout and round, alternating
    engine_runs: dict[str, list[dict]] = {"new": [], "base": []}
    for round_no in range(args.repeats):
        for label in ("new", "base") if round_no % 2 == 0 else ("base", "new"):
            engine_runs[label].append(engine(trees[label], grids, args.time_limit))
    say(f"engine done: {uptime()}")
    command_ratios, engine_ratios, compile_ratios, qxw_ratios = [], [], [], []
    for grid in grids:
        walls: dict[str, list[float]] = {"new": [], "base": []}
        statuses: dict[str, set[str]] = {"new": set(), "base": set()}
        for round_no in range(args.repeats):
            for label in ("new", "base") if round_no % 2 == 0 else ("base", "new"):
                wall, status = command(trees[label], grid, args.time_limit)
                walls[label].append(wall)
                statuses[label].add(status)
        cmd = {label: statistics.median(values) for label, values in walls.items()}
        fills = {label: statistics.median(run[str(grid)][1] for run in engine_runs[label]) for label in trees}
        compiles = {label: statistics.median(run[str(grid)][0] for run in engine_runs[label]) for label in trees}
        nodes = {label: sorted({run[str(grid)][3] for run in engine_runs[label]}) for label in trees}
        command_ratios.append(cmd["new"] / cmd["base"])
        engine_ratios.append(fills["new"] / fills["base"])
        compile_ratios.append(compiles["new"] / compiles["base"])
        line = (
            f"{grid.stem}: command new {cmd['new']:.3f} s {'/'.join(sorted(statuses['new']))}, base "
            f"{cmd['base']:.3f} s {'/'.join(sorted(statuses['base']))} (ratio {command_ratios[-1]:.3f}); "
            f"engine fill new {fills['new']:.4f} s, base {fills['base']:.4f} s (ratio {engine_ratios[-1]:.3f}); "
            f"compile new {compiles['new'] * 1000:.1f} ms, base {compiles['base'] * 1000:.1f} ms; search nodes "
            f"{'the same' if nodes['new'] == nodes['base'] else 'DIFFER'} ({nodes['new']} / {nodes['base']})"
        )
        if with_qxw:
            wall, status = qxw(grid, args.time_limit)
            if status in ("filled", "unfillable"):
                qxw_ratios.append(cmd["new"] / wall)
            line += f"; qxw {status} {wall:.3f} s"
        say(line)
    say(f"end: {uptime()}")
    say(ratio_line("command new/base", command_ratios))
    say(ratio_line("engine fill new/base", engine_ratios))
    say(ratio_line("compile new/base", compile_ratios))
    if qxw_ratios:
        say(ratio_line(f"command new/qxw ({len(qxw_ratios)} grids qxw settled)", qxw_ratios))


if __name__ == "__main__":
    main()
