"""Benchmark bench sweeps on Dask: runs per hour serially, on LocalClusters of 1 and 2 workers, and on a
hand-started `dask scheduler` + 2 `dask worker` processes on loopback; and the overhead per task in ms.

Usage: python bench/dask_sweep.py [--grids N] [--seeds K] [--time-limit S] [--backends A,B] [--micro N]
       python bench/dask_sweep.py --grids 72 --time-limit 20     # the issue's full sweep (about an hour here)

The sweep is N grids of the van Beek suite (its 15x15s first) (SCOWL-55, min score 0, as `xwcp bench
--suite vanbeek72`) x the backends x K seeds, every run one task (`xwcp.bench.tasks.bench_run_task`:
the instance loaded once per worker, the fill in a forked child, exactly as `xwcp bench --cluster`
runs it; serially the same runs go through `xwcp.bench.runs.run_one` one at a time). Backends get
one thread each (`--threads 1`), so one run uses one core. The defaults are scaled down from the
issue's 72 grids x 2 backends x 3 seeds at 20 s so that all four set-ups finish in a few minutes
on a shared 2-core machine.

Overhead per task: (wall x workers - the runs' own time on the workers) / runs, over the sweep;
and from a micro-benchmark of N trivial tasks (a 3x3 fill) and N no-op tasks: wall x workers / N.
Prints one table; the load average at start and end says how busy the machine was.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def sweep_jobs(n_grids: int, backends: list[str], seeds: int):
    from xwcp import bench

    instances = bench.suite_instances("vanbeek72", root=ROOT)
    instances = sorted(instances, key=lambda i: not i.name.startswith("15."))[:n_grids]  # the 15x15s first
    entrants = bench.make_entrants(backends, [])
    return [(instance, entrant, seed) for instance in instances for seed in range(seeds) for entrant in entrants]


def run_serial(jobs, time_limit_s: float) -> tuple[float, list[float], list[str]]:
    from xwcp.bench.inputs import WordLists, load_instance
    from xwcp.bench.runs import run_one

    lists, loaded_by_instance = WordLists(), {}
    start = time.perf_counter()
    own, statuses = [], []
    for instance, entrant, seed in jobs:
        if instance not in loaded_by_instance:
            loaded_by_instance[instance] = load_instance(instance, lists)
        t = time.perf_counter()
        fields = run_one(loaded_by_instance[instance], entrant, seed, time_limit_s, 1, isolate=True)
        own.append(time.perf_counter() - t)
        statuses.append(fields["status"])
    return time.perf_counter() - start, own, statuses


def run_on(client, jobs, time_limit_s: float) -> tuple[float, list[float], list[str]]:
    from distributed import as_completed

    from xwcp.bench.tasks import bench_run_task

    start = time.perf_counter()
    futures = [
        client.submit(bench_run_task, instance, entrant, seed, time_limit_s, 1, pure=False)
        for instance, entrant, seed in jobs
    ]
    own, statuses = [], []
    for future in as_completed(futures):
        fields = future.result()
        own.append(fields.get("wall_s") or 0.0)
        statuses.append(fields["status"])
    return time.perf_counter() - start, own, statuses


def micro(client, n_tasks: int, n_workers: int) -> tuple[float, float]:
    """(ms per tiny 3x3 fill task, ms per no-op task), each as wall x workers / tasks."""
    from distributed import wait

    from xwcp.dist.tasks import GridTask, WordsKey, fill_grid_task
    from xwcp.words.wordlist import load_word_list

    words = ROOT / "bench" / "results" / "_dask_sweep_words.txt"
    words.parent.mkdir(parents=True, exist_ok=True)
    words.write_text("CAB;60\nORE;60\nWET;60\nCOW;60\nARE;60\nBET;60\n", encoding="ascii")
    load_word_list(words)
    task = GridTask(
        "m", "3x3", "...\n...\n...\n", WordsKey.of(str(words)), min_score=0, backend="backtrack", time_limit_s=5
    )
    wait([client.submit(fill_grid_task, task, pure=False) for _ in range(2 * n_workers)])  # warm up
    start = time.perf_counter()
    wait([client.submit(fill_grid_task, task, pure=False) for _ in range(n_tasks)])
    fill_ms = (time.perf_counter() - start) * 1000 * n_workers / n_tasks
    start = time.perf_counter()
    wait([client.submit(abs, -k, pure=False) for k in range(n_tasks)])
    noop_ms = (time.perf_counter() - start) * 1000 * n_workers / n_tasks
    words.unlink()
    return fill_ms, noop_ms


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class HandStarted:
    """A `dask scheduler` and `dask worker` processes on loopback, started and stopped by this script."""

    def __init__(self, n_workers: int):
        self.port = free_port()
        env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env, "start_new_session": True}
        self.processes = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "dask",
                    "scheduler",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--no-dashboard",
                ],
                **quiet,
            )
        ]
        for _ in range(n_workers):
            self.processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "dask",
                        "worker",
                        self.address,
                        "--nthreads",
                        "1",
                        "--nworkers",
                        "1",
                        "--no-dashboard",
                    ],
                    **quiet,
                )
            )

    @property
    def address(self) -> str:
        return f"tcp://127.0.0.1:{self.port}"

    def stop(self) -> None:
        for process in reversed(self.processes):
            try:
                os.killpg(process.pid, 15)
            except ProcessLookupError:
                pass
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, 9)
                process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=8)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--backends", default="backtrack,sat")
    parser.add_argument("--micro", type=int, default=200, help="tasks in each micro-benchmark")
    args = parser.parse_args()
    from xwcp.dist.cluster import open_client

    jobs = sweep_jobs(args.grids, args.backends.split(","), args.seeds)
    print(
        f"sweep: {args.grids} van Beek grids x {args.backends} x {args.seeds} seeds = {len(jobs)} runs, "
        f"limit {args.time_limit:g} s; load average at start {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores"
    )
    table = []

    def record(
        name: str,
        workers: int,
        wall_s: float,
        own: list[float],
        statuses: list[str],
        setup_s: float,
        micro_ms: tuple[float, float] | None,
    ) -> None:
        overhead_ms = (wall_s * workers - sum(own)) * 1000 / len(own)
        answered = sum(s in ("filled", "unfillable") for s in statuses)
        table.append((name, workers, setup_s, wall_s, len(own) / wall_s * 3600, overhead_ms, answered, micro_ms))
        print(f"  {name}: {wall_s:.1f} s, {len(own) / wall_s * 3600:,.0f} runs/hour", flush=True)

    wall, own, statuses = run_serial(jobs, args.time_limit)
    record("serial (one at a time, forked run)", 1, wall, own, statuses, 0.0, None)
    for workers in (1, 2):
        start = time.perf_counter()
        with open_client(None, n_workers=workers) as client:
            setup = time.perf_counter() - start
            wall, own, statuses = run_on(client, jobs, args.time_limit)
            micro_ms = micro(client, args.micro, workers)
        record(f"LocalCluster, {workers} worker{'s' * (workers > 1)}", workers, wall, own, statuses, setup, micro_ms)
    start = time.perf_counter()
    hand = HandStarted(2)
    try:
        with open_client(hand.address, n_workers=2) as client:
            setup = time.perf_counter() - start
            wall, own, statuses = run_on(client, jobs, args.time_limit)
            micro_ms = micro(client, args.micro, 2)
    finally:
        hand.stop()
    record("dask scheduler + 2 dask workers (loopback)", 2, wall, own, statuses, setup, micro_ms)

    print(f"\nload average at end {os.getloadavg()[0]:.2f}")
    print(
        "| set-up | workers | start s | sweep wall s | runs/hour | overhead ms/run (sweep) | answered | "
        "ms/task 3x3 fill | ms/task no-op |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, workers, setup_s, wall_s, per_hour, overhead_ms, answered, micro_ms in table:
        fill_ms, noop_ms = micro_ms or (None, None)
        print(
            f"| {name} | {workers} | {setup_s:.1f} | {wall_s:.1f} | {per_hour:,.0f} | {overhead_ms:.0f} | "
            f"{answered}/{len(jobs)} | {'-' if fill_ms is None else f'{fill_ms:.1f}'} | "
            f"{'-' if noop_ms is None else f'{noop_ms:.2f}'} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
