"""Draw barred grids (British style: no blocks, entries cut by bars between white cells) for models/.

Every row and every column is cut by bars into runs: an entry of 3 to MAX_RUN letters, or a single
cell (unchecked in that direction). The bars are symmetric under a half turn, every cell is in at
least one entry, and every entry crosses another one. A drawing is kept when `xwcp fill` (auto, the
default list) fills it within --time-limit seconds; the first such drawing is printed.

    python3 bench/make_barred.py 15 --seed 3 > models/15x15-barred-01.txt
"""

from __future__ import annotations

import argparse
import random
import sys

from xwcp.backends import fill
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.model import BELOW, RIGHT, find_slots, make_grid, render_grid
from xwcp.words.wordlist import load_word_list

RUN_WEIGHTS = {1: 4, 3: 2, 4: 3, 5: 3, 6: 3, 7: 3, 8: 2, 9: 2, 10: 1, 11: 1, 12: 1}
"""How often each run length is drawn (1: a cell unchecked in that direction); no 2-letter runs,
the default list has no 2-letter words."""


def _cuts(n: int, rng: random.Random) -> list[int]:
    """Run lengths adding up to `n` (a line of the grid), drawn from RUN_WEIGHTS."""
    if n == 0:
        return []
    while True:
        runs: list[int] = []
        left = n
        while left > 0:
            choices = [k for k in RUN_WEIGHTS if k <= left and left - k != 2]
            if not choices:
                break
            k = rng.choices(choices, [RUN_WEIGHTS[c] for c in choices])[0]
            runs.append(k)
            left -= k
        if left == 0:
            return runs


def _palindrome(n: int, rng: random.Random) -> list[int]:
    """Run lengths adding up to odd `n` that read the same both ways (the middle line of the grid)."""
    while True:
        middle = rng.choice([k for k in RUN_WEIGHTS if k % 2 == n % 2 and k <= n and (n - k) // 2 != 2])
        half = _cuts((n - middle) // 2, rng)
        return half + [middle] + half[::-1]


def _draw(size: int, rng: random.Random):
    """One symmetric barred grid (a Grid), or None when some cell is in no entry."""
    bars: set[tuple[int, str]] = set()
    runs_by_line: dict[tuple[str, int], list[int]] = {}
    for kind in ("row", "col"):
        for line in range((size + 1) // 2):
            runs = _palindrome(size, rng) if line == size - 1 - line else _cuts(size, rng)
            runs_by_line[kind, line] = runs
            runs_by_line[kind, size - 1 - line] = runs[::-1]
    for (kind, line), runs in runs_by_line.items():
        pos = 0
        for k in runs[:-1]:
            pos += k
            cell = line * size + pos - 1 if kind == "row" else (pos - 1) * size + line
            bars.add((cell, RIGHT if kind == "row" else BELOW))
    grid = make_grid(size, size, ["."] * (size * size), bars=bars)
    covered = {cell for slot in find_slots(grid) for cell in slot.cells}
    if len(covered) < size * size or any(len(slot.cells) < 3 for slot in find_slots(grid)):
        return None
    return grid


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("size", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--tries", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    words = load_word_list(None)
    for attempt in range(args.tries):
        grid = _draw(args.size, rng)
        if grid is None:
            continue
        problem = compile_problem(grid, words)
        result = fill(problem, "auto", Limits(time_limit_s=args.time_limit))
        slots = find_slots(grid)
        checked = sum(1 for c in range(args.size**2) if sum(c in s.cells for s in slots) == 2)
        print(
            f"; try {attempt}: {result.status.value} in {result.stats.wall_time_s:.2f} s, {len(slots)} entries, "
            f"{checked} checked cells",
            file=sys.stderr,
        )
        if result.status is FillStatus.FILLED and not check_fill(problem, result.entries):
            lengths = sorted(len(s.cells) for s in slots)
            print(
                f"; {args.size}x{args.size} barred (British style): no blocks, {len(grid.bars)} bars, "
                f"{len(slots)} entries of {lengths[0]}-{lengths[-1]} letters, {checked} of {args.size**2} "
                f"cells checked, symmetric under a half turn. Drawn by bench/make_barred.py --seed {args.seed}; "
                "xwcp stock grid (MIT)."
            )
            print(render_grid(grid), end="")
            return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
