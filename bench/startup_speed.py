"""Benchmark what a constructor waits for around a fill: list loads, imports, whole `xwcp fill` commands.

Usage: python bench/startup_speed.py [REPEATS]   (default 5)

Prints median milliseconds (and peak memory of the fill commands) for:
  - the first load of the embedded default list (a fresh, empty cache folder: decompress,
    parse, index, write the cache), and a load from that cache;
  - `python -c pass`, `import numpy` and `import xwcp.cli.commands` as separate interpreters, and
    `xwcp --help` (interpreter, imports and argument parsing, no solving);
  - the whole `xwcp fill GRID --format json` command on the stock 15x15 dailies and the
    21x21 Sunday, next to the seconds the command reports for loading, compiling and
    filling (its `seconds` field).
Targets (issues 2 and 9): cached load < 0.1 s, first load < 5 s, 15x15 daily command < 3 s
with the solve < 1 s, 21x21 < 10 s, peak memory < 2 GiB (15x15 < 1 GiB).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRIDS = ("models/15x15-daily-01.txt", "models/15x15-daily-02.txt", "models/21x21-sunday-01.txt")


def run_ms(argv: list[str], env: dict[str, str]) -> tuple[float, str, float]:
    """(wall ms, stdout, peak RSS MiB) of one command, measured with GNU time's %M when present."""
    start = time.perf_counter()
    if Path("/usr/bin/time").exists():
        done = subprocess.run(["/usr/bin/time", "-f", "%M", *argv], capture_output=True, text=True, env=env, cwd=ROOT)
        peak_mb = int(done.stderr.strip().splitlines()[-1]) / 1024
    else:
        done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT)
        peak_mb = float("nan")
    return (time.perf_counter() - start) * 1000, done.stdout, peak_mb


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XWCP_CACHE_DIR=tmp)
        load = "import time, xwcp; t = time.perf_counter(); xwcp.load_word_list(); print(time.perf_counter() - t)"
        first = [float(subprocess.run([py, "-c", load], capture_output=True, text=True, env=env).stdout)]
        cached = [
            float(subprocess.run([py, "-c", load], capture_output=True, text=True, env=env).stdout)
            for _ in range(repeats)
        ]
        print(
            f"default list load: first {first[0] * 1000:.0f} ms (empty cache), "
            f"cached {statistics.median(cached) * 1000:.1f} ms (median of {repeats})"
        )
        for label, argv in (
            ("python -c pass", [py, "-c", "pass"]),
            ("import numpy", [py, "-c", "import numpy"]),
            ("import xwcp.cli.commands", [py, "-c", "import xwcp.cli.commands"]),
            ("xwcp --help", [py, "-m", "xwcp", "--help"]),
        ):
            ms = statistics.median(run_ms(argv, env)[0] for _ in range(repeats))
            print(f"{label:<16} {ms:7.0f} ms")
        print(f"\n{'grid':<28} {'command ms':>10} {'load+compile+fill ms':>21} {'peak MiB':>9}  status")
        for grid in GRIDS:
            walls, inner, peaks, status = [], [], [], set()
            for _ in range(repeats):
                wall, out, peak = run_ms([py, "-m", "xwcp", "fill", grid, "--format", "json"], env)
                data = json.loads(out)
                walls.append(wall)
                inner.append(data["seconds"] * 1000)
                peaks.append(peak)
                status.add(data["status"])
            print(
                f"{grid:<28} {statistics.median(walls):10.0f} {statistics.median(inner):21.0f} "
                f"{max(peaks):9.1f}  {','.join(sorted(status))}"
            )


if __name__ == "__main__":
    main()
