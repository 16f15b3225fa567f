"""The cluster a batch or a bench runs on (`xwcp.dist.cluster`): an unreachable scheduler is one line and exit 2,
the bench spread over a running cluster gives the statuses it gives serially, and a batch that finished closes its
cluster without a traceback."""
from __future__ import annotations

import logging

import pytest
from distributed.diagnostics.plugin import WorkerPlugin

from xwcp.dist import batch
from xwcp.dist.cluster import SHUTDOWN_NOISE, ShutdownNoise, open_client

from tests.dist.helpers import GRIDS, assert_files_hold_valid_fills, plan
from tests.helpers import run


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
    monkeypatch.setattr("xwcp.dist.cluster.CONNECT_TIMEOUT_S", 0.3)
    for address in ("tcp://127.0.0.1:9", "not an address"):
        code, out, err = run(["batch", inputs["grids"], "--words", inputs["words"], "--out", inputs["out"],
                              "--cluster", address], capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert address in err and "Traceback" not in err
    code, _, err = run(["bench", inputs["grids"] / "open3.txt", "--peers", "none", "--backends", "backtrack",
                        "--out", inputs["out"] / "bench", "--cluster", "tcp://127.0.0.1:9"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "cannot reach" in err


class HeartbeatRace(WorkerPlugin):
    """The shutdown race of issue 34 made certain: each worker, as it closes, logs what distributed logs when its
    heartbeat finds the scheduler gone (an OSError's traceback under `Failed to communicate ...`)."""

    def teardown(self, worker) -> None:
        try:
            raise OSError("Timed out trying to connect to tcp://127.0.0.1:1 after 30 s")
        except OSError:
            logging.getLogger("distributed.worker").exception("Failed to communicate with scheduler during heartbeat.")


@pytest.mark.cluster
def test_a_finished_batch_closes_its_cluster_without_a_traceback(inputs, capfd):
    import xwcp

    capfd.readouterr()
    with open_client(None, n_workers=2) as client:
        client.register_plugin(HeartbeatRace())
        the_plan = plan(inputs)
        outcome = batch.run_batch(the_plan, client)
    err = capfd.readouterr().err
    assert outcome.counts() == {"filled": 3, "unfillable": 1}
    assert_files_hold_valid_fills(inputs["out"], outcome.records, xwcp.load_word_list(inputs["words"]))
    assert "Traceback" not in err and "Failed to communicate" not in err, err[-2000:]


def test_the_shutdown_filter_drops_the_heartbeat_race_only():
    noise = ShutdownNoise()

    def record(message: str) -> logging.LogRecord:
        return logging.LogRecord("distributed.worker", logging.ERROR, __file__, 1, message, None, None)

    assert not noise.filter(record(SHUTDOWN_NOISE[0] + "."))
    assert noise.filter(record("Compute Failed")) and noise.filter(record("Worker stream died"))
