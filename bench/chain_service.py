"""Time the product's chain fill (`xwcp.services.chains.fill_chains`) on the published chain layouts.

Usage:
    python3 bench/chain_service.py [--time-limit S] [--seed N] [LAYOUT ...]

Layouts: mb7, mb9, mb13 (Marching Bands N x N, kotwords' form, built by bench/chain_fill.py's
`marching_bands`), rg15x7 (kotwords' `rows-garden-mini.jpz`), rg21x12 (kotwords' `rows-garden.ipuz`),
spiral5 and spiral7 (an N x N spiral: the inward run of every cell one chain of N * N // 4 words, about
kotwords' 3x3 spiral's ratio, and the outward run, the same cells backwards, another as long; `spiral7/6`:
6 words each way). Each is emptied and filled with the default list (score >= 50, or --min-score); the
fill is checked by `check_chains`. Prints one row per layout: status, seconds, splits tried, check problems.
Compare with bench/chain_fill.py (random redraws of whole splits): bench/README.md "Chains with free boundaries".
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "bench"))

from xwcp.formats import read_puzzle  # noqa: E402
from xwcp.model.entries import Entry  # noqa: E402
from xwcp.model.grid import BLOCK, EMPTY, Grid, make_grid  # noqa: E402
from xwcp.services.chains import check_chains, fill_chains  # noqa: E402
from xwcp.services.load import LoadOptions, load  # noqa: E402

VARIETY = HERE / "tests" / "data" / "puzzles" / "variety"


def spiral(size: int, n_words: int | None = None) -> Grid:
    """An N x N spiral of no blocks: the inward run (clockwise from the top-left corner) one chain of N * N // 4
    words, the outward run (the same cells from the centre) one as long."""
    seen: set[tuple[int, int]] = set()
    order: list[int] = []
    r, c, dr, dc = 0, 0, 0, 1
    for _ in range(size * size):
        order.append(r * size + c)
        seen.add((r, c))
        nr, nc = r + dr, c + dc
        if not (0 <= nr < size and 0 <= nc < size) or (nr, nc) in seen:
            dr, dc = dc, -dr
            nr, nc = r + dr, c + dc
        r, c = nr, nc
    n_words = n_words or size * size // 4  # kotwords' 3x3 spiral has 2 and 3 answers over 9 cells
    entries = [Entry("INWARD", tuple(order), n_words), Entry("OUTWARD", tuple(reversed(order)), n_words)]
    return make_grid(size, size, [EMPTY] * (size * size), entries=entries, entries_only=True)


def layout(name: str) -> Grid:
    """The named layout, emptied."""
    if name.startswith("mb"):
        from chain_fill import marching_bands

        grid = marching_bands(int(name[2:]))[0].grid
        return make_grid(
            grid.width,
            grid.height,
            grid.cells,
            entries=[
                Entry(e.name, e.cells, 2 if e.name.startswith("ROWS") else max(1, len(e.cells) // 8))
                for e in grid.entries
            ],
            entries_only=True,
        )
    if name.startswith("spiral"):
        size, _, n_words = name[6:].partition("/")
        return spiral(int(size), int(n_words) if n_words else None)
    path = {"rg15x7": VARIETY / "rows-garden-mini.jpz", "rg21x12": VARIETY / "rows-garden.ipuz"}[name]
    grid = read_puzzle(path).grid
    return grid.with_cells(cell if cell == BLOCK else EMPTY for cell in grid.cells)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("layouts", nargs="*", default=["mb7", "mb9", "rg15x7", "spiral5", "mb13", "rg21x12", "spiral7"])
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-score", type=int, default=50, help="words scored below are never used")
    args = parser.parse_args(argv)
    words = load("#..\n...\n...\n", None, LoadOptions()).problem.words
    print(f"{'layout':10} {'status':11} {'seconds':>8} {'splits':>6}  check")
    for name in args.layouts:
        grid = layout(name)
        start = time.perf_counter()
        found = fill_chains(
            grid,
            words,
            min_score=args.min_score,
            time_limit_s=args.time_limit,
            seed=args.seed,
            threads=1,
            say=lambda line: print("   ", line, file=sys.stderr),
        )
        seconds = time.perf_counter() - start
        problems = check_chains(grid, found.problem, found.result.entries) if found.result.entries else []
        shown = "clean" if found.result.entries and not problems else "; ".join(problems[:2]) or "-"
        print(f"{name:10} {found.result.status.value:11} {seconds:8.1f} {found.n_tries:6}  {shown}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
