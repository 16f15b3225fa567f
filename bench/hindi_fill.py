"""Fill Hindi grids (one akshara a cell) from a Hindi list, every fill checked; draw the Hindi layouts of models/.

Usage: PYTHONPATH=$PWD python3 bench/hindi_fill.py [--words LIST] [--random 20] [--time-limit 60]
           [--max-letters 250] [--stock]
       PYTHONPATH=$PWD python3 bench/hindi_fill.py --draw lattice 7 [--shift 0]   # models/7x7-hindi-mini.txt
       PYTHONPATH=$PWD python3 bench/hindi_fill.py --draw british 11 --seed 4   # models/11x11-hindi-01.txt

Without --words the list is built here from wordfreq's Hindi (`xwcp words build --language hi`; its data is
CC BY-SA 4.0, so the list is written under the cache folder and never committed). --max-letters N builds it as if
an open pack's list kept only N letters (250: one byte a letter). The grids: the three Hindi models, --random N
British-style 11x11 layouts (alternate checking, entries 2-5, seeds 30...), and with --stock the American stock
grids. Each is filled once by `xwcp.fill` (auto backend); each fill is checked here, independently of the engine:
every slot's cells, cut into aksharas, spell a listed word, no word twice. Prints one line a grid: its status and
wall seconds (a shared machine makes these noisy).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import xwcp  # noqa: E402

HINDI_MODELS = ("7x7-hindi-mini.txt", "9x9-hindi-01.txt", "11x11-hindi-01.txt")
STOCK = ("5x5-open.txt", "7x7-mini.txt", "11x11-01.txt", "15x15-daily-01.txt")
MAX_ENTRY = 5
"""Longest entry of a drawn British-style layout: Hindi answers run 2-5 aksharas."""


def runs(rows: list[str]) -> list[list[tuple[int, int]]]:
    """The runs of 2+ white cells, across then down, as lists of (row, col)."""
    height, width = len(rows), len(rows[0])
    out = []
    for lines in (
        [[(r, c) for c in range(width)] for r in range(height)],
        [[(r, c) for r in range(height)] for c in range(width)],
    ):
        for line in lines:
            current: list[tuple[int, int]] = []
            for cell in line + [(-1, -1)]:
                if cell != (-1, -1) and rows[cell[0]][cell[1]] != "#":
                    current.append(cell)
                else:
                    if len(current) >= 2:
                        out.append(current)
                    current = []
    return out


def lattice(n: int, shift: int = 0) -> list[str]:
    """Blocks on every fifth diagonal cell: entries of at most 4, nearly every cell in an across and a down."""
    return ["".join("#" if (r + 2 * c + shift) % 5 == 4 else "." for c in range(n)) for r in range(n)]


def british(n: int, seed: int) -> list[str] | None:
    """A British lattice (blocks on every (odd, odd) cell) with symmetric blocks added until no entry passes
    MAX_ENTRY; every cell in an entry, one white area. None when 2,000 drawings fail."""
    rng = random.Random(seed)
    for _ in range(2000):
        grid = [["#" if r % 2 and c % 2 else "." for c in range(n)] for r in range(n)]
        for _ in range(400):
            rows = ["".join(row) for row in grid]
            long = [run for run in runs(rows) if len(run) > MAX_ENTRY]
            if not long:
                break
            run = rng.choice(long)
            r, c = run[rng.randrange(2, len(run) - 2) if len(run) > 4 else rng.randrange(1, len(run) - 1)]
            grid[r][c] = grid[n - 1 - r][n - 1 - c] = "#"
        rows = ["".join(row) for row in grid]
        covered = {cell for run in runs(rows) for cell in run}
        white = {(r, c) for r in range(n) for c in range(n) if rows[r][c] == "."}
        if any(len(run) > MAX_ENTRY for run in runs(rows)) or covered != white or not _connected(white):
            continue
        return rows
    return None


def _connected(white: set[tuple[int, int]]) -> bool:
    start = next(iter(white))
    seen, stack = {start}, [start]
    while stack:
        r, c = stack.pop()
        for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if cell in white and cell not in seen:
                seen.add(cell)
                stack.append(cell)
    return len(seen) == len(white)


def build_list(max_letters: int | None) -> Path:
    """wordfreq's Hindi list, built as `xwcp words build --language hi` does (under the cache folder)."""
    from xwcp.words import build

    base = os.environ.get("XWCP_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "xwcp"
    )
    out = Path(base) / "bench-hindi" / f"hi-wordfreq-{max_letters or 'all'}.dict"
    if max_letters is not None:
        build.MAX_OPEN_LETTERS = max_letters
    report = build.build_words("hi", "wordfreq", out)
    print(report.summary().splitlines()[0] + "; " + report.summary().splitlines()[-1], flush=True)
    return out


def check(cells: list[list[str]], listed: set[str]) -> list[str]:
    """Every way the written cells break the rules: a slot that is no listed word, a word twice."""
    rows = ["".join("#" if cell == "#" else "." for cell in row) for row in cells]
    problems, seen = [], set()
    for run in runs(rows):
        word = "".join(cells[r][c] for r, c in run)
        if word not in listed:
            problems.append(f"{word} at {run[0]} is not listed")
        if word in seen:
            problems.append(f"{word} twice")
        seen.add(word)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words")
    parser.add_argument("--random", type=int, default=20)
    parser.add_argument("--time-limit", type=float, default=60)
    parser.add_argument("--max-letters", type=int)
    parser.add_argument("--stock", action="store_true")
    parser.add_argument("--draw", nargs=2, metavar=("KIND", "SIZE"))
    parser.add_argument("--seed", type=int, default=4)
    parser.add_argument("--shift", type=int, default=0)
    args = parser.parse_args()
    if args.draw:
        kind, size = args.draw[0], int(args.draw[1])
        rows = lattice(size, args.shift) if kind == "lattice" else british(size, args.seed)
        print("\n".join(rows or ["no layout"]))
        return 0
    words = Path(args.words) if args.words else build_list(args.max_letters)
    listed = {line.split(";")[0] for line in words.read_text("utf-8").splitlines() if line and line[0] != "#"}
    grids: list[tuple[str, list[str]]] = []
    for name in HINDI_MODELS + (STOCK if args.stock else ()):
        grids.append(
            (name, [x for x in (ROOT / "models" / name).read_text("utf-8").splitlines() if x and not x.startswith(";")])
        )
    for seed in range(30, 30 + args.random):
        rows = british(11, seed)
        if rows is not None:
            grids.append((f"british 11x11 seed {seed}", rows))
    n_filled = 0
    for name, rows in grids:
        start = time.monotonic()
        answer = xwcp.fill("\n".join(rows) + "\n", str(words), language="hi", time_limit_s=args.time_limit)
        seconds = time.monotonic() - start
        status = answer.status.value
        if answer.status is xwcp.FillStatus.FILLED:
            problems = check(answer.as_dict()["cells"], listed)
            status = f"BAD ({problems[0]})" if problems else status
            n_filled += not problems
        print(f"{name:28s} {status:12s} {seconds:6.1f} s", flush=True)
    print(f"{n_filled} of {len(grids)} grids filled and checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
