"""`xwcp batch` (`xwcp.dist.batch`) on a Dask LocalCluster of 2 workers (one cluster for the folder: conftest.py).

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

import pytest

from xwcp.backends import fill
from xwcp.dist import batch
from xwcp.services.load import LoadOptions
from xwcp.dist.tasks import GridTask, WordsKey, worker_word_list_loads
from xwcp.model import parse_grid
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits
from xwcp.words.wordlist import load_word_list

from tests.dist.helpers import GRIDS, SLOW_GRID, assert_files_hold_valid_fills, plan
from tests.helpers import run


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
                                time_limit_s=3.0, options=LoadOptions(min_score=50))  # the default list: the 15x15 reaches its limit
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


@pytest.mark.cluster
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


def test_result_names_are_unique_and_stable(tmp_path):
    paths = [tmp_path / "a" / "g.txt", tmp_path / "b" / "g.txt", tmp_path / "g", tmp_path / "h.txt"]
    assert batch.result_names(paths) == ["g", "g-2", "g-3", "h"]


def test_a_plan_reads_grids_and_the_list_in_its_language(tmp_path, monkeypatch):
    """--language: every grid and the list are read in the pack; the default list is refused for it (no cluster)."""
    from xwcp.base.errors import InputError

    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grids = tmp_path / "grids"
    grids.mkdir()
    (grids / "es.txt").write_text("AÑ.\n...\n...\n", encoding="utf-8")
    words = tmp_path / "es.dict"
    words.write_text("AÑO;60\nSON;60\n", encoding="utf-8")
    the_plan = batch.plan_batch([str(grids)], out_dir=tmp_path / "out", words_path=str(words),
                                options=LoadOptions(language="es"))
    assert not the_plan.unreadable and len(the_plan.tasks) == 1
    task = the_plan.tasks[0]
    assert task.grid_text.startswith("AÑ.") and task.words.language == "es"
    with pytest.raises(InputError, match="unexpected character 'Ñ'"):  # read as English, Ñ is no letter
        batch.plan_batch([str(grids)], out_dir=tmp_path / "out2", words_path=str(words))
    with pytest.raises(InputError, match="default word list is English"):
        batch.plan_batch([str(grids)], out_dir=tmp_path / "out3", options=LoadOptions(language="es"))
