"""Benchmark AC-3 on 15x15 grids with the default list: from scratch, after one letter edit, and the domains CLI.

Usage: python bench/ac3_speed.py [GRID ...]   (default: models/vanbeek/15.01..15.10)
Prints median milliseconds over repeats; targets (issue 3): scratch < 50 ms, one edit < 16 ms,
`xwcp domains` end to end < 1 s.
"""

from __future__ import annotations

import glob
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from xwcp.compile.problem import compile_problem
from xwcp.engine.ac3 import Propagator, propagate
from xwcp.model import EMPTY, read_grid
from xwcp.words.wordlist import load_word_list

ROOT = Path(__file__).resolve().parent.parent


def median_ms(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main(paths: list[str]) -> None:
    words = load_word_list()
    rng = random.Random(0)
    print(f"{'grid':10} {'compile':>8} {'scratch':>8} {'edit':>8} {'erase':>8} {'domains CLI':>12}  (ms, median)")
    rows = []
    for path in paths:
        grid = read_grid(path)
        compile_ms = median_ms(lambda grid=grid: compile_problem(grid, words), 5)
        problem = compile_problem(grid, words)
        scratch_ms = median_ms(lambda problem=problem: propagate(problem), 5)
        editor = Propagator(problem)
        cells = [c for c, ch in enumerate(grid.cells) if ch == EMPTY]
        edit_times, erase_times = [], []
        for _ in range(20):
            cell = rng.choice(cells)
            letter = rng.choice("EATRSON")
            start = time.perf_counter()
            editor.enter(cell, letter)
            editor.snapshot()
            edit_times.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            editor.erase(cell)
            editor.snapshot()
            erase_times.append((time.perf_counter() - start) * 1000)
        cli_times = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "xwcp", "domains", path, "-k", "5"],
                check=True,
                stdout=subprocess.DEVNULL,
                cwd=ROOT,
            )
            cli_times.append((time.perf_counter() - start) * 1000)
        row = (
            compile_ms,
            scratch_ms,
            statistics.median(edit_times),
            statistics.median(erase_times),
            statistics.median(cli_times),
        )
        rows.append(row)
        print(f"{Path(path).stem:10} " + " ".join(f"{x:8.1f}" for x in row[:4]) + f" {row[4]:12.0f}")
    print(
        "median     "
        + " ".join(f"{statistics.median(r[i] for r in rows):8.1f}" for i in range(4))
        + f" {statistics.median(r[4] for r in rows):12.0f}"
    )


if __name__ == "__main__":
    main(sys.argv[1:] or sorted(glob.glob(str(ROOT / "models/vanbeek/15.*.txt"))))
