"""What runs on a worker (`xwcp.dist.tasks`): a fill that ignores its limit stopped by the guard, quality tasks."""
from __future__ import annotations

import time

from xwcp.backends import fill
from xwcp.dist.tasks import GridTask, WordsKey, fill_grid_task
from xwcp.services.load import LoadOptions
from xwcp.engine.result import Limits

from tests.dist.helpers import GRIDS, plan


def test_a_fill_that_ignores_its_limit_is_stopped_by_the_guard(inputs, monkeypatch):
    from xwcp.backends import backtrack

    monkeypatch.setattr(backtrack, "fill", lambda problem, limits=None: time.sleep(60))
    task = GridTask("open3", "open3.txt", GRIDS["open3"], WordsKey.of(str(inputs["words"])), LoadOptions(min_score=0),
                    backend="backtrack", time_limit_s=0.3, guard_s=0.5)
    start = time.monotonic()
    record = fill_grid_task(task)  # forks the fill here, as on a worker
    assert record["status"] == "limit" and "stopped by the worker" in record["reason"]
    assert time.monotonic() - start < 10


def test_quality_tasks_call_the_librarys_quality_search(inputs, monkeypatch):
    from dataclasses import replace

    def run_fill_with_quality(problem, *, backend="auto", time_limit_s=None, seed=0, quality=False, max_processes=None):
        result = fill(problem, backend, Limits(time_limit_s=time_limit_s, seed=seed, max_processes=max_processes))
        return replace(result, reason=f"quality={quality}")  # the fork runs this patched copy

    monkeypatch.setattr("xwcp.services.run.run_fill", run_fill_with_quality)
    the_plan = plan(inputs, quality=True)
    assert all(task.quality for task in the_plan.tasks)
    record = fill_grid_task(the_plan.tasks[0])
    assert record["status"] in ("filled", "unfillable") and record["name"] == the_plan.tasks[0].name
    assert record["reason"] == "quality=True"
    if record["status"] == "filled":
        assert record["quality"]["min_score"] is not None


def test_a_grid_with_chains_is_filled_over_its_splits(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("CAT;50\nDOG;50\nCATDOG;50\n")
    grid = "; entries: listed\n; chain: R = 2 words: 1,1 1,2 1,3 1,4 1,5 1,6\n......\n"
    task = GridTask("chain", "chain.txt", grid, WordsKey.of(str(words)), LoadOptions(min_score=0), time_limit_s=20)
    record = fill_grid_task(task)
    assert record["status"] == "filled", record
    assert {e["id"]: e["word"] for e in record["entries"]} in ({"R+1": "CAT", "R+2": "DOG"}, {"R+1": "DOG", "R+2": "CAT"})
