"""`xwcp batch` and `xwcp bench --workers` on a Dask LocalCluster of 2 workers (one cluster for the module).

Tiny grids and lists written here; every fill read back from its result file is checked
with `check_fill`. The slow grids are open 15x15s with the default list that reach a short
limit, so a worker can be killed while it runs one.
"""
from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest

from xwcp.backends import fill
from xwcp.dist import batch
from xwcp.dist.cluster import open_client
from xwcp.dist.tasks import GridTask, WordsKey, fill_grid_task, worker_word_list_loads
from xwcp.model import parse_grid, read_grid
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.words.wordlist import load_word_list

from tests.helpers import entries_of, run

WORDS = ("CAB;60\nORE;60\nWET;60\nCOW;60\nARE;60\nBET;60\nCAT;60\nTEN;60\n"
         "AB;50\nCD;50\nAC;50\nBD;50\n"
         "WORD;50\nWORK;50\nZERO;50\nABCZ;50\nDEFE;50\nGHIR;50\nADGW;50\nBEHO;50\nCFIR;50\n")
GRIDS = {"open3": "...\n...\n...\n", "open2": "..\n..\n", "prefilled": "C..\n...\n...\n",
         "wor-zero": "...Z\n...E\n...R\nWOR.\n"}
SLOW_GRID = "\n".join(["." * 15] * 15) + "\n"


@pytest.fixture(scope="module")
def client():
    with open_client(None, n_workers=2) as client:
        yield client


@pytest.fixture
def inputs(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text(WORDS, encoding="utf-8")
    folder = tmp_path / "grids"
    folder.mkdir()
    for name, text in GRIDS.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return {"words": words, "grids": folder, "out": tmp_path / "out"}


def plan(inputs, *paths, **options):
    options.setdefault("backend", "backtrack")
    options.setdefault("time_limit_s", 10.0)
    return batch.plan_batch([str(p) for p in paths or [inputs["grids"]]], out_dir=inputs["out"],
                            words_path=str(inputs["words"]), min_score=0, **options)


def assert_files_hold_valid_fills(out_dir: Path, records: dict, words) -> None:
    for name, record in records.items():
        saved = json.loads((out_dir / f"{name}.json").read_text(encoding="utf-8"))
        assert saved["status"] == record["status"]
        if record["status"] == "filled":
            filled = read_grid(out_dir / f"{name}.txt")
            problem = compile_problem(parse_grid(Path(record["source"]).read_text()), words, min_score=0)
            assert check_fill(problem, entries_of(problem, filled.rows)) == []
            assert filled.rows == saved["grid"]
        else:
            assert not (out_dir / f"{name}.txt").exists()


def test_batch_gives_the_serial_statuses_and_valid_fills(client, inputs):
    words = load_word_list(inputs["words"])
    serial = {}
    for name, text in GRIDS.items():
        problem = compile_problem(parse_grid(text), words, min_score=0)
        serial[name] = fill(problem, "backtrack", Limits(time_limit_s=10)).status.value
    assert set(serial.values()) == {"filled", "unfillable"}
    loads_before = client.run(worker_word_list_loads)
    outcome = batch.run_batch(plan(inputs), client)
    assert {name: r["status"] for name, r in outcome.records.items()} == serial
    assert_files_hold_valid_fills(inputs["out"], outcome.records, words)
    assert outcome.exit_code == 1  # wor-zero is proven unfillable, the rest filled
    # the list was loaded once per worker, not once per task, also across batches
    batch.run_batch(plan(inputs, resume=False), client)
    loads_after = client.run(worker_word_list_loads)
    assert all(loads_after[worker] - loads_before.get(worker, 0) <= 1 for worker in loads_after)


def test_a_worker_killed_mid_task_loses_nothing(client, inputs):
    slow = inputs["grids"] / "slow15.txt"
    slow.write_text(SLOW_GRID, encoding="utf-8")
    the_plan = batch.plan_batch([str(inputs["grids"])], out_dir=inputs["out"], backend="backtrack",
                                time_limit_s=3.0, min_score=50)  # the default list: the 15x15 reaches its limit
    done = {}
    runner = threading.Thread(target=lambda: done.update(outcome=batch.run_batch(the_plan, client)))
    runner.start()
    killed_pid = None
    deadline = time.monotonic() + 60
    while killed_pid is None and time.monotonic() < deadline:
        for address, keys in client.processing().items():
            if any("slow15" in str(key) for key in keys):
                time.sleep(0.5)  # let it start on the worker
                killed_pid = client.run(os.getpid, workers=[address])[address]
                os.kill(killed_pid, signal.SIGKILL)
                break
        time.sleep(0.05)
    runner.join(120)
    assert killed_pid is not None and not runner.is_alive()
    outcome = done["outcome"]
    assert set(outcome.records) == {*GRIDS, "slow15"}
    slow_record = outcome.records["slow15"]
    assert slow_record["status"] == "limit" and slow_record["worker_pid"] != killed_pid
    assert slow_record["seconds"] < 3.0 + 5
    assert "error" not in {r["status"] for r in outcome.records.values()}


def test_a_fill_that_ignores_its_limit_is_stopped_by_the_guard(inputs, monkeypatch):
    from xwcp.backends import backtrack

    monkeypatch.setattr(backtrack, "fill", lambda problem, limits=None: time.sleep(60))
    task = GridTask("open3", "open3.txt", GRIDS["open3"], WordsKey.of(str(inputs["words"])), min_score=0,
                    backend="backtrack", time_limit_s=0.3, guard_s=0.5)
    start = time.monotonic()
    record = fill_grid_task(task)  # forks the fill here, as on a worker
    assert record["status"] == "limit" and "stopped by the worker" in record["reason"]
    assert time.monotonic() - start < 10


def test_a_task_that_keeps_failing_is_an_error_record_and_the_rest_are_kept(client, inputs):
    the_plan = plan(inputs)
    broken = GridTask("broken", "broken.txt", "...\n...\n...\n", WordsKey("/nonexistent/words.txt", 1, 1))
    the_plan.tasks.append(broken)
    outcome = batch.run_batch(the_plan, client)
    assert outcome.records["broken"]["status"] == "error" and outcome.records["broken"]["reason"]
    assert {name for name, r in outcome.records.items() if r["status"] != "error"} == set(GRIDS)
    assert outcome.exit_code == 3
    future = client.submit(lambda: 1 / 0, pure=False)
    record = batch.task_record(future, broken)
    assert record["status"] == "error" and "ZeroDivisionError" in record["reason"]


def test_resume_after_an_interrupted_batch(client, inputs):
    seen = []

    def stop_after_first(name, record, path):
        seen.append(name)
        raise KeyboardInterrupt

    first = batch.run_batch(plan(inputs), client, on_result=stop_after_first)
    assert first.interrupted and first.exit_code == 130 and list(first.records) == seen
    (inputs["out"] / "half.json").write_text('{"stat', encoding="utf-8")  # a torn file is not a result
    again = plan(inputs, resume=True)
    assert list(again.done) == seen and {t.name for t in again.tasks} == set(GRIDS) - set(seen)
    second = batch.run_batch(again, client)
    assert set(first.records) | set(second.records) == set(GRIDS)
    assert_files_hold_valid_fills(inputs["out"], {**first.records, **second.records}, load_word_list(inputs["words"]))
    assert plan(inputs, resume=True).tasks == []


def test_bench_on_the_cluster_gives_the_serial_statuses(client, inputs, tmp_path):
    from xwcp import bench

    instances = bench.file_instances([str(inputs["grids"] / f"{name}.txt") for name in GRIDS] + ["missing.txt"],
                                     words_path=str(inputs["words"]), min_score=0)
    entrants = bench.make_entrants(["backtrack", "sat"], [])
    serial = bench.run_bench(instances, entrants, out_dir=tmp_path / "serial", time_limit_s=10)
    spread = bench.run_bench(instances, entrants, out_dir=tmp_path / "spread", time_limit_s=10, client=client)

    def statuses(run):
        return sorted((r["grid"], r["backend"], r["status"], r["valid"]) for r in run.rows)

    assert statuses(spread) == statuses(serial)
    assert {r["status"] for r in spread.rows} == {"filled", "unfillable", "error"}
    assert spread.unreadable == {"missing": serial.unreadable["missing"]}
    from xwcp.bench.runner import _task_fields

    failed = client.submit(lambda: 1 / 0, pure=False)
    assert _task_fields(failed)["status"] == "error" and "ZeroDivisionError" in _task_fields(failed)["note"]


def test_unreachable_cluster_is_one_line_and_exit_2(inputs, capsys, monkeypatch):
    monkeypatch.setattr("xwcp.dist.cluster.CONNECT_TIMEOUT_S", 1.0)
    for address in ("tcp://127.0.0.1:9", "not an address"):
        code, out, err = run(["batch", inputs["grids"], "--words", inputs["words"], "--out", inputs["out"],
                              "--cluster", address], capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert address in err and "Traceback" not in err
    code, _, err = run(["bench", inputs["grids"] / "open3.txt", "--peers", "none", "--backends", "backtrack",
                        "--out", inputs["out"] / "bench", "--cluster", "tcp://127.0.0.1:9"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "cannot reach" in err


def test_batch_command_end_to_end(inputs, capsys):
    argv = ["batch", inputs["grids"], "--words", inputs["words"], "--min-score", "0", "--out", inputs["out"],
            "--backend", "backtrack", "--time-limit", "10", "--workers", "1", "--format", "json"]
    code, out, _ = run(argv, capsys)
    summary = json.loads(out)
    assert code == 1 and summary["counts"] == {"filled": 3, "unfillable": 1} and summary["ran"] == 4
    assert {r["name"] for r in summary["results"]} == set(GRIDS)
    code, out, _ = run(argv[:-2] + ["--resume", "--cluster", "tcp://127.0.0.1:9"], capsys)
    assert code == 1  # nothing left to do, so no cluster is reached; the earlier results give the answer
    assert "4 grids: 3 filled, 1 unfillable" in out and "4 already done" in out


def test_batch_command_on_a_running_scheduler(client, inputs, capsys):
    code, out, _ = run(["batch", inputs["grids"], "--words", inputs["words"], "--min-score", "0", "--out",
                        inputs["out"], "--backend", "backtrack", "--cluster", client.scheduler.address, "--workers", "2"],
                       capsys)
    assert code == 1 and "4 grids: 3 filled, 1 unfillable" in out
    assert "open3: filled" in out and "wor-zero: unfillable" in out
    worker_pids = set(client.run(os.getpid).values())
    for name in GRIDS:  # every grid ran on that scheduler's workers
        assert json.loads((inputs["out"] / f"{name}.json").read_text())["worker_pid"] in worker_pids


def test_batch_command_with_unreadable_grids(inputs, tmp_path, capsys):
    code, out, err = run(["batch", tmp_path / "nope.txt", "--out", inputs["out"]], capsys)
    assert code == 2 and "no grid could be read" in err and len(err.strip().splitlines()) == 1
    taken = tmp_path / "taken"
    taken.write_text("x", encoding="utf-8")
    code, _, err = run(["batch", inputs["grids"], "--words", inputs["words"], "--out", taken], capsys)
    assert code == 2 and "is a file" in err


def test_quality_without_the_quality_search_is_refused_in_one_line(inputs, capsys, monkeypatch):
    def run_fill_without_quality(problem, *, backend="auto", time_limit_s=None, seed=0):
        raise AssertionError("not called")

    monkeypatch.setattr("xwcp.services.run.run_fill", run_fill_without_quality)  # as before issue 14
    code, _, err = run(["batch", inputs["grids"], "--words", inputs["words"], "--out", inputs["out"], "--quality"],
                       capsys)
    assert code == 2 and "--quality needs the quality search" in err and len(err.strip().splitlines()) == 1
    assert not inputs["out"].exists()


def test_quality_tasks_call_the_librarys_quality_search(inputs, monkeypatch):
    from dataclasses import replace

    def run_fill_with_quality(problem, *, backend="auto", time_limit_s=None, seed=0, quality=False):
        result = fill(problem, backend, Limits(time_limit_s=time_limit_s, seed=seed))
        return replace(result, reason=f"quality={quality}")  # the fork runs this patched copy

    monkeypatch.setattr("xwcp.services.run.run_fill", run_fill_with_quality)
    the_plan = plan(inputs, quality=True)
    assert all(task.quality for task in the_plan.tasks)
    record = fill_grid_task(the_plan.tasks[0])
    assert record["status"] in ("filled", "unfillable") and record["name"] == the_plan.tasks[0].name
    assert record["reason"] == "quality=True"
    if record["status"] == "filled":
        assert record["quality"]["min_score"] is not None


def test_result_names_are_unique_and_stable(tmp_path):
    paths = [tmp_path / "a" / "g.txt", tmp_path / "b" / "g.txt", tmp_path / "g", tmp_path / "h.txt"]
    assert batch.result_names(paths) == ["g", "g-2", "g-3", "h"]
