"""Time and peak memory of `xwcp check` on each hostile puzzle file of issue 34 (tests/project/hostile.py).

Usage:
    python3 bench/hostile_files.py [--tree PATH ...] [--scale S] [--cap-mb MB] [--timeout-s S]

Each file runs as `python3 -m xwcp check FILE` from each --tree (default: this checkout), the trees
interleaved file by file, each child under an address-space cap (--cap-mb, so a file that grows
without bound is stopped, not the machine) and a wall-clock timeout. Prints a Markdown table: file,
tree, exit code, seconds, peak RSS (MB, from wait4), the first stderr line (cut to 80 characters).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))

from tests.project.hostile import hostile_files  # noqa: E402


def run(path: Path, tree: Path, cap_mb: int, timeout_s: float) -> tuple[str, float, float, str]:
    """(exit code or 'timeout', seconds, peak RSS MB, first stderr line) of `xwcp check path` from `tree`."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap_mb << 20, cap_mb << 20))

    env = dict(os.environ, PYTHONPATH=str(tree))
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "xwcp", "check", str(path), "--time-limit", "2"],
            cwd=tree,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=err,
            preexec_fn=limit,
        )
        deadline = start + timeout_s
        timed_out = False
        while True:  # wait4, not Popen.wait: it gives the child's own peak RSS
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                child.kill()
                timed_out = True
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.01)
        child.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        code = "timeout" if timed_out else str(child.returncode)
        err.seek(0)
        lines = [line for line in err.read().decode("utf-8", "replace").splitlines() if line.strip()]
    first = lines[-1] if lines and "Traceback" in lines[0] else lines[0] if lines else ""
    shown = f"{first[:80]}{' ...' if len(first) > 80 else ''} ({len(lines)} lines)"
    return code, seconds, usage.ru_maxrss / 1024, shown


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, action="append", help="an xwcp checkout (repeatable; default: this one)")
    parser.add_argument("--scale", type=float, default=1.0, help="bomb size factor (1: the issue's sizes)")
    parser.add_argument("--cap-mb", type=int, default=3072, help="address-space cap per run (MB)")
    parser.add_argument("--timeout-s", type=float, default=60.0)
    parser.add_argument("--only", help="run only files whose name contains this")
    parser.add_argument("--write-to", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    trees = [t.resolve() for t in (args.tree or [HERE])]
    if args.write_to:
        for name, data in hostile_files(args.scale).items():
            (args.write_to / name).write_bytes(data)
        return 0
    print("| file | tree | exit | s | peak RSS MB | stderr |\n|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        # written by a child: a forked child's peak RSS counts its parent's pages, so this one stays small
        subprocess.run([sys.executable, __file__, "--write-to", folder, "--scale", str(args.scale)], check=True)
        for path in sorted(Path(folder).iterdir(), key=lambda p: p.stat().st_mtime):
            name, data_size = path.name, path.stat().st_size
            if args.only and args.only not in name:
                continue
            for tree in trees:
                code, seconds, peak_mb, line = run(path, tree, args.cap_mb, args.timeout_s)
                print(
                    f"| {name} ({data_size} B) | {tree} | {code} | {seconds:.2f} | {peak_mb:.0f} | "
                    f"{line.replace('|', '/')} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
