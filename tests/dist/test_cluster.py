"""The cluster a batch or a bench runs on (`xwcp.dist.cluster`): an unreachable scheduler is one line and exit 2,
and the bench spread over a running cluster gives the statuses it gives serially."""
from __future__ import annotations

from tests.dist.helpers import GRIDS
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
    monkeypatch.setattr("xwcp.dist.cluster.CONNECT_TIMEOUT_S", 1.0)
    for address in ("tcp://127.0.0.1:9", "not an address"):
        code, out, err = run(["batch", inputs["grids"], "--words", inputs["words"], "--out", inputs["out"],
                              "--cluster", address], capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert address in err and "Traceback" not in err
    code, _, err = run(["bench", inputs["grids"] / "open3.txt", "--peers", "none", "--backends", "backtrack",
                        "--out", inputs["out"] / "bench", "--cluster", "tcp://127.0.0.1:9"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "cannot reach" in err
