"""The `batch` command (`xwcp.cli.batch`): the plan made from the options, unreadable grids said on stderr, each
result printed as it arrives (text) and the summary, as text or one JSON object, with the outcome's exit code.
The cluster is replaced by a stand-in here; batches on a real Dask cluster are tested in tests/dist/."""

from __future__ import annotations

import json

from tests.cli.helpers import TINY_LIST, write
from tests.helpers import run
from xwcp.dist.batch import BatchOutcome

STATUS_BY_GRID = {"open": "filled", "stuck": "unfillable"}
"""What the stand-in cluster answers for each readable grid."""


def _batch_folder(tmp_path):
    grids = tmp_path / "grids"
    grids.mkdir()
    write(grids, "open.txt", "...\n...\n...\n")
    write(grids, "stuck.txt", "...Z\n...E\n...R\nWOR.\n")
    write(grids, "ragged.txt", "...\n..\n")
    return grids, write(tmp_path, "w.txt", TINY_LIST)


def _stand_in_cluster(monkeypatch):
    """Replace `run_plan` with one that answers STATUS_BY_GRID in task order; returns what it was asked."""
    asked = {}

    def run_plan(plan, address=None, *, n_workers=None, on_result=None):
        asked.update(plan=plan, address=address, n_workers=n_workers)
        outcome = BatchOutcome(plan.out_dir)
        for task in plan.tasks:
            record = {"name": task.name, "status": STATUS_BY_GRID[task.name], "seconds": 0.25}
            path = plan.out_dir / f"{task.name}.json"
            outcome.records[task.name], outcome.files[task.name] = record, path
            if on_result is not None:
                on_result(task.name, record, path)
        return outcome

    monkeypatch.setattr("xwcp.dist.batch.run_plan", run_plan)
    return asked


def test_text_prints_each_result_and_the_summary(tmp_path, capsys, monkeypatch):
    asked = _stand_in_cluster(monkeypatch)
    grids, words = _batch_folder(tmp_path)
    out_dir = tmp_path / "out"
    code, out, err = run(
        [
            "batch",
            grids,
            "--words",
            words,
            "--out",
            out_dir,
            "--backend",
            "backtrack",
            "--time-limit",
            "5",
            "--workers",
            "2",
            "--cluster",
            "tcp://sched:8786",
        ],
        capsys,
    )
    assert code == 1  # one grid proven unfillable, the other filled
    plan = asked["plan"]
    assert asked["address"] == "tcp://sched:8786" and asked["n_workers"] == 2
    assert [t.name for t in plan.tasks] == ["open", "stuck"] and list(plan.unreadable) == ["ragged"]
    assert all(t.backend == "backtrack" and t.time_limit_s == 5.0 and t.options.min_score == 50 for t in plan.tasks)
    assert err.startswith("xwcp batch: cannot read ragged: ") and str(grids / "ragged.txt") in err
    assert out.splitlines() == [
        "open: filled in 0.25 s",
        "stuck: unfillable in 0.25 s",
        f"2 grids: 1 filled, 1 unfillable; results in {out_dir}/",
    ]


def test_json_is_the_summary_alone(tmp_path, capsys, monkeypatch):
    _stand_in_cluster(monkeypatch)
    grids, words = _batch_folder(tmp_path)
    out_dir = tmp_path / "out"
    code, out, _ = run(["batch", grids / "open.txt", "--words", words, "--out", out_dir, "--format", "json"], capsys)
    assert code == 0
    summary = json.loads(out)  # one JSON object: no per-grid lines before it
    assert summary["counts"] == {"filled": 1} and summary["ran"] == 1 and summary["grids"] == 1
    assert summary["results"] == [{"name": "open", "status": "filled", "file": str(out_dir / "open.json")}]
    assert summary["unreadable"] == {} and summary["interrupted"] is False
