"""xwcp/services/run.py: the one runner (a checked fill, several fills, the quality search, the CNF export, the
refusals) and its terminal status lines; the minimal core after an unfillable verdict."""

from __future__ import annotations

import io

import pytest

from xwcp.base.errors import InputError, front_end
from xwcp.base.types import FillStatus
from xwcp.engine.result import Progress, check_fill
from xwcp.services.inputs import compile_problem
from xwcp.services.run import ProgressLine, StatusLine, explain_verdict, run_fill

# 2x3, open. Row 1 must be CAT (only C, A and T start a listed two-letter word); row 2 is ?RE: ORE or ARE.
# So there are exactly two fills, CAT/ORE (every entry 50) and CAT/ARE (with CA 30 and ARE 40).
GRID = "...\n...\n"
WORDS = {"CAT": 50, "ORE": 50, "ARE": 40, "COW": 40, "CO": 50, "AR": 50, "TE": 50, "CA": 30}
BEST = ("CAT", "ORE", "CO", "AR", "TE")  # slot order 1A 4A 1D 2D 3D
OTHER = ("CAT", "ARE", "CA", "AR", "TE")


@pytest.fixture(scope="module")
def problem():
    return compile_problem(GRID, WORDS, min_score=0)


def test_one_fill_checked(problem):
    result = run_fill(problem)
    assert result.status is FillStatus.FILLED and result.entries in (BEST, OTHER)
    assert check_fill(problem, result.entries) == []


def test_counting_every_fill(problem):
    result = run_fill(problem, count=0)
    assert result.n_fills == 2 and set(result.fills) == {BEST, OTHER}


def test_several_distinct_fills_each_with_its_quality(problem):
    result = run_fill(problem, count=2, min_diff=1)
    assert set(result.fills) == {BEST, OTHER}
    min_by_fill = {fill: q.min_score for fill, q in zip(result.fills, result.qualities)}
    assert min_by_fill == {BEST: 50, OTHER: 30}


def test_the_quality_search_finds_the_highest_floor(problem):
    result = run_fill(problem, quality=True, time_limit_s=10)
    assert result.fills == (BEST,)
    (quality,) = result.qualities
    assert (quality.min_score, quality.mean_score, quality.floor_optimal) == (50, 50.0, True)


def test_quality_cannot_count_every_fill(problem):
    with pytest.raises(InputError, match=r"^quality=True cannot be combined with count=0 "):
        run_fill(problem, quality=True, count=0)
    with front_end("cli"):
        with pytest.raises(InputError, match=r"^--quality cannot be combined with --count all "):
            run_fill(problem, quality=True, count=0)


def test_the_cnf_is_written_beside_the_fill(problem, tmp_path):
    path = tmp_path / "grid.cnf"
    assert run_fill(problem, export_cnf=path).status is FillStatus.FILLED
    header = next(line for line in path.read_text().splitlines() if line.startswith("p "))
    assert header.startswith("p cnf ")
    with pytest.raises(InputError) as info:
        run_fill(problem, export_cnf=tmp_path / "no-such-folder" / "grid.cnf")
    assert info.value.message.startswith("cannot write CNF file (")
    assert info.value.source == str(tmp_path / "no-such-folder" / "grid.cnf")


def test_the_core_of_an_unfillable_grid():
    # three two-letter down slots and only two two-letter words, none used twice: any two fit, not all three
    problem = compile_problem(GRID, {"CAT": 50, "ORE": 50, "CO": 50, "AR": 50}, min_score=0)
    result = run_fill(problem)
    assert result.status is FillStatus.UNFILLABLE
    core = explain_verdict(problem, result)
    assert core is not None
    assert core.search is not None and core.search.is_stopped is False
    assert sorted(core.slots) == ["1D", "2D", "3D"] and core.is_minimal is True


def test_a_status_line_waits_a_second_and_then_shows_a_few_times_a_second():
    stream = io.StringIO()
    line = StatusLine(stream, every_s=60.0)
    line.show(0.5, "early")
    assert stream.getvalue() == "" and not line.shown
    line.show(1.5, "first")
    line.show(1.6, "too soon")
    assert stream.getvalue() == "\rfirst"
    line.close()
    assert stream.getvalue() == "\rfirst\n"
    quiet = io.StringIO()
    StatusLine(quiet).close()  # never shown: nothing to end
    assert quiet.getvalue() == ""


def test_the_fill_progress_line():
    stream = io.StringIO()
    ProgressLine(stream, every_s=0.0)(Progress("dfs", 2.5, 12345, 678, 9, 4, 20))
    assert stream.getvalue() == (
        "\rdfs:    2.5 s     12,345 nodes        678 backtracks      9 restarts  deepest 4/20 slots "
    )
