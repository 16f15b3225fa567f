"""Issue 17's heavy tail, A/B in one run: this checkout against a base checkout (and Qxw), whole `xwcp fill` commands.

Usage: PYTHONPATH=. python3 bench/heavy_tail.py --base DIR [--sections tail,seeds,herald]
                                              [--time-limit S] [--grids 23.06,23.10,...] [--no-qxw]

Sections (rows print as they go, the summary table at the end):
  tail    the hardest van Beek grids with SCOWL-55 (min score 0; default 23.06, 23.10, 15.06,
          21.10, 23.03, 23.09), `xwcp fill` (auto) from this checkout and from the base, and
          Qxw on the same list, interleaved grid by grid; a run at the limit counts as 2x the limit.
  seeds   the stock themeless (default list) with seeds 0-9, this checkout and the base
          interleaved: median, max and max/median of each (target: under 3).
  herald  Herald 15.01-15.10 and 21.01-21.10 (default list): new/base ratio of the whole
          command, grid by grid (bench/speed2.py's no-regression check, on all 20).

`--base DIR` is a checkout of the code to compare against, with its C extension built in place
(`git worktree add /tmp/base main && (cd /tmp/base && python3 setup.py build_ext --inplace)`).
Every fill is checked with `check_fill` (here, from the printed grid). The machine may be
shared: `uptime` is printed before and after; compare the ratios, which come from one run.
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

SCOWL = ROOT / "bench/wordlists/scowl-english-55.words.txt"
TAIL_GRIDS = ["23.06", "23.10", "15.06", "21.10", "23.03", "23.09"]
SUMMARY: list[str] = []


def say(text: str) -> None:
    print(text, flush=True)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def fill_command(tree: Path, grid: Path, time_limit_s: float, *extra: str) -> tuple[float, str, str]:
    """(wall s, status, winner) of one whole `xwcp fill --format json` from checkout `tree`; the fill is checked."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    argv = [
        sys.executable,
        "-m",
        "xwcp",
        "fill",
        str(grid),
        "--format",
        "json",
        "--time-limit",
        f"{time_limit_s:g}",
        *extra,
    ]
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tree, timeout=time_limit_s + 120)
    wall = time.perf_counter() - start
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError:
        return wall, f"error (exit {done.returncode})", ""
    status = data.get("status", "?")
    if status == "filled":
        status = _checked(grid, data, extra)
    return wall, status, str(data.get("stats", {}).get("winner", ""))


def _checked(grid: Path, data: dict, extra: tuple[str, ...]) -> str:
    """'filled' if the printed grid passes check_fill against the same list and rules, else 'error'."""
    from xwcp.compile.problem import compile_problem
    from xwcp.engine.result import check_fill
    from xwcp.model import read_grid
    from xwcp.words.wordlist import load_word_list

    words_path = extra[extra.index("--words") + 1] if "--words" in extra else None
    min_score = int(extra[extra.index("--min-score") + 1]) if "--min-score" in extra else 50
    problem = compile_problem(read_grid(grid), load_word_list(words_path), min_score=min_score)
    rows = data.get("grid") or data.get("rows")
    if not rows:
        return "error (no grid in output)"
    width = problem.grid.width
    entries = tuple("".join(rows[cell // width][cell % width] for cell in slot.cells) for slot in problem.slots)
    return "filled" if not check_fill(problem, entries) else "error (invalid fill)"


def qxw_command(grid: Path, time_limit_s: float) -> tuple[float, str]:
    from xwcp.bench import Instance, WordLists, WordSource, load_instance, peer_word_file, run_peer_checked

    instance = Instance("tail", grid.stem, grid, words=WordSource(str(SCOWL)), min_score=0)
    loaded = load_instance(instance, WordLists())
    row = run_peer_checked(loaded, "qxw", time_limit_s, peer_word_file("qxw", loaded))
    return float(row["seconds"]), str(row["status"])


def scored(wall: float, status: str, time_limit_s: float) -> float:
    return wall if status in ("filled", "unfillable") else 2 * time_limit_s


def section_tail(base: Path, names: list[str], time_limit_s: float, with_qxw: bool) -> None:
    settled = {"new": 0, "base": 0, "qxw": 0}
    for name in names:
        grid = ROOT / "models/vanbeek" / f"{name}.txt"
        cells = []
        for label, tree in (("new", ROOT), ("base", base)):
            wall, status, winner = fill_command(tree, grid, time_limit_s, "--words", str(SCOWL), "--min-score", "0")
            settled[label] += status in ("filled", "unfillable")
            cells.append(f"{label} {status} {wall:.2f} s" + (f" ({winner})" if winner else ""))
        if with_qxw:
            wall, status = qxw_command(grid, time_limit_s)
            settled["qxw"] += status in ("filled", "unfillable")
            cells.append(f"qxw {status} {wall:.2f} s")
        say(f"tail {name}: " + " | ".join(cells))
        SUMMARY.append(f"| van Beek {name}, SCOWL-55 | " + " | ".join(cells) + " |")
    qxw = f", qxw {settled['qxw']}" if with_qxw else ""
    say(f"tail: settled new {settled['new']}/{len(names)}, base {settled['base']}{qxw}")


def section_seeds(base: Path, time_limit_s: float) -> None:
    grid = ROOT / "models/15x15-themeless-01.txt"
    times: dict[str, list[float]] = {"new": [], "base": []}
    for seed in range(10):
        cells = []
        for label, tree in (("new", ROOT), ("base", base)):
            wall, status, winner = fill_command(tree, grid, time_limit_s, "--seed", str(seed))
            times[label].append(scored(wall, status, time_limit_s))
            cells.append(f"{label} {status} {wall:.2f} s ({winner})")
        say(f"seeds themeless seed {seed}: " + " | ".join(cells))
    for label, values in times.items():
        med = statistics.median(values)
        say(f"seeds {label}: median {med:.2f} s, max {max(values):.2f} s, max/median {max(values) / med:.2f}")
        SUMMARY.append(
            f"| themeless seeds 0-9, {label} | median {med:.2f} s, max {max(values):.2f} s | "
            f"max/median {max(values) / med:.2f} (target 3) |"
        )


def section_herald(base: Path) -> None:
    """The no-regression check of bench/speed2.py, on all 20 Herald 15x15 and 21x21 grids."""
    sys.path.insert(0, str(ROOT / "bench"))
    import speed2

    speed2.section_herald(base, [f"15.{k:02d}" for k in range(1, 11)] + [f"21.{k:02d}" for k in range(1, 11)])
    SUMMARY.extend(speed2.SUMMARY)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="checkout to compare against (extension built)")
    parser.add_argument("--sections", default="tail,seeds,herald")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--grids", default=",".join(TAIL_GRIDS), help="van Beek grids for the tail section")
    parser.add_argument("--no-qxw", action="store_true", help="leave Qxw out of the tail section")
    args = parser.parse_args()
    from xwcp.bench.peers import peer_available

    with_qxw = not args.no_qxw and peer_available("qxw")
    say(f"start: {uptime()}  base: {args.base}")
    sections = args.sections.split(",")
    if "tail" in sections:
        section_tail(args.base.resolve(), args.grids.split(","), args.time_limit, with_qxw)
    if "seeds" in sections:
        section_seeds(args.base.resolve(), args.time_limit)
    if "herald" in sections:
        section_herald(args.base.resolve())
    say(f"end: {uptime()}")
    say("\n| case | result | |\n|---|---|---|")
    for line in SUMMARY:
        say(line)


if __name__ == "__main__":
    main()
