"""The web builder's memory under large grids: resident memory before and after N different 60x60 `/api/suggest`s.

Builds the app of this checkout's xwcp (run with PYTHONPATH=CHECKOUT to measure another) in this process,
asks /api/suggest for one slot of N different 60x60 grids (the 15x15 daily tiled 4 by 4, as bench/web_load.py's
"heavy neighbour", with one letter typed into a different empty cell each time: every request a grid never
seen), and prints the process's resident memory (VmRSS from /proc/self/status) before the first request and
after every tenth, with what the analysis cache says it keeps when it says (`/api/info`'s "cache").

Example: PYTHONPATH=. python3 bench/web_memory.py --requests 30
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DAILY = ROOT / "models" / "15x15-daily-01.txt"


def rss_mb() -> float:
    """This process's resident memory in MB (Linux /proc)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise SystemExit("bench: no /proc/self/status here (Linux only)")


def grids(n: int) -> list[list[str]]:
    rows = [line.strip() for line in DAILY.read_text().splitlines() if line.strip() and not line.startswith(";")]
    big = [row * 4 for row in rows] * 4
    empty = [(r, c) for r, row in enumerate(big) for c, cell in enumerate(row) if cell == "."]
    out = []
    for index in range(n):
        r, c = empty[(index * 997) % len(empty)]  # spread over the grid
        changed = list(big)
        changed[r] = changed[r][:c] + "ETAOINS"[index % 7] + changed[r][c + 1 :]
        out.append(changed)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=30, help="different 60x60 grids asked about (default 30)")
    args = parser.parse_args(argv)
    if not 1 <= args.requests <= 200:
        parser.error("--requests 1..200")
    import warnings

    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

    import xwcp
    from xwcp.web.app import create_app

    print(
        f"xwcp from {Path(xwcp.__file__).resolve().parent.parent}; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    app = create_app(personal=False)
    with TestClient(app, base_url="http://127.0.0.1") as client:
        client.get("/api/info")
        print(f"before: RSS {rss_mb():.0f} MB")
        start = time.perf_counter()
        for index, grid in enumerate(grids(args.requests), 1):
            response = client.post("/api/suggest", json={"grid": grid, "slot": "1A", "k": 20})
            if response.status_code != 200:
                print(f"request {index}: HTTP {response.status_code} {response.text[:200]}")
            if index % 10 == 0 or index == args.requests:
                cache = client.get("/api/info").json()["cache"]
                kept = (
                    f"; the cache says it keeps {cache['bytes'] / 2**20:.0f} MB of {cache['max_bytes'] / 2**20:.0f}"
                    f" ({cache['evicted']} evicted)"
                    if "bytes" in cache
                    else ""
                )
                print(
                    f"after {index} requests ({time.perf_counter() - start:.0f} s): RSS {rss_mb():.0f} MB{kept}",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
