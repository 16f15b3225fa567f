"""What runs on a Dask worker for a bench sweep (xwcp/bench/tasks.py), called here in this process as a worker
would: the row of one run plus the worker's pid and wall time, and an instance the worker cannot load is an
"error" row, not a crash (the sweep on a real cluster is tested in tests/dist/test_cluster.py)."""

from __future__ import annotations

import os
from pathlib import Path

from xwcp.bench.entrants import Entrant
from xwcp.bench.suites import Instance, WordSource
from xwcp.bench.tasks import bench_run_task


def test_a_run_gives_its_row_with_the_workers_pid(tmp_path):
    words = tmp_path / "w.txt"
    words.write_text("CAB\nORE\nWET\nCOW\nARE\nBET\nCAT\nTEN\n", encoding="utf-8")
    instance = Instance("test", "open3", rows=("...", "...", "..."), words=WordSource(str(words)), min_score=0)
    row = bench_run_task(instance, Entrant("backtrack", "xwcp"), 0, 10.0, None)
    assert row["status"] == "filled" and row["valid"] is True  # run in a forked child, checked there
    assert row["worker_pid"] == os.getpid() and row["wall_s"] >= row["seconds"] >= 0


def test_an_instance_the_worker_cannot_load_is_an_error_row(tmp_path):
    instance = Instance("test", "gone", path=Path(tmp_path / "gone.txt"))
    row = bench_run_task(instance, Entrant("backtrack", "xwcp"), 0, 10.0, None)
    assert row["status"] == "error" and row["note"].startswith("on the worker: ") and "gone.txt" in row["note"]
    assert row["worker_pid"] == os.getpid()
