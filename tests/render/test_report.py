"""xwcp/render/report.py: one fill's answer as the `xwcp fill` JSON object, its text and its `--format grid`
output, and a grid spaced out for reading. Results are built by hand, so no search runs."""

from __future__ import annotations

import pytest

from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import FillResult, FillStats, Quality
from xwcp.model import parse_grid
from xwcp.render.report import (
    TEXT_MAX_FILLS,
    FillReport,
    entry_dicts,
    fewer_fills_note,
    fill_dict,
    fill_grids,
    fill_text,
    grid_text,
    verdict_text,
)
from xwcp.search.core import CoreReport
from xwcp.words.wordlist import words_from_pairs

FILL = ("AB", "CD", "AC", "BD")  # slot order 1A 3A 1D 2D
OTHER = ("AC", "BD", "AB", "CD")


@pytest.fixture(scope="module")
def problem():
    words = words_from_pairs([("AB", 60), ("CD", 40), ("AC", 50), ("BD", 70)])
    problem = compile_problem(parse_grid("..\n..\n"), words, min_score=0)
    assert [s.name for s in problem.slots] == ["1A", "3A", "1D", "2D"]
    return problem


def filled(*fills, n_fills=None, **kwargs):
    return FillResult(
        FillStatus.FILLED,
        "dfs",
        FillStats(0.1, 5, 1, 0, {"decisions": 7}),
        fills=fills,
        n_fills=len(fills) if n_fills is None else n_fills,
        **kwargs,
    )


def test_fill_json_object(problem):
    data = FillReport(problem, filled(FILL), 1.23456).as_dict()
    assert list(data) == ["status", "grid", "entries", "quality", "backend", "seconds", "stats"]
    assert data["status"] == "filled" and data["grid"] == ["AB", "CD"]
    assert data["entries"][0] == {
        "id": "1A",
        "number": 1,
        "direction": "across",
        "row": 0,
        "col": 0,
        "length": 2,
        "word": "AB",
        "score": 60,
    }
    assert [(e["id"], e["word"], e["score"]) for e in data["entries"]] == [
        ("1A", "AB", 60),
        ("3A", "CD", 40),
        ("1D", "AC", 50),
        ("2D", "BD", 70),
    ]  # clue order: across first
    assert data["quality"] == {
        "min_score": 40,
        "mean_score": 55.0,
        "floor_optimal": False,
        "mean_bound": None,
        "n_at_min": 1,
    }
    assert data["backend"] == "dfs" and data["seconds"] == 1.2346
    assert data["stats"] == {"nodes": 5, "backtracks": 1, "restarts": 0, "decisions": 7}
    assert fill_dict(problem, filled(FILL), 1.23456) == data


def test_a_quality_search_keeps_its_own_quality(problem):
    own = Quality(40, 55.0, 1, floor_optimal=True, mean_bound=58.25)
    data = FillReport(problem, filled(FILL, qualities=(own,)), 0.5).as_dict()
    assert data["quality"] == {
        "min_score": 40,
        "mean_score": 55.0,
        "floor_optimal": True,
        "mean_bound": 58.25,
        "n_at_min": 1,
    }


def test_unfillable_json_has_reason_slot_core_and_times(problem):
    result = FillResult(FillStatus.UNFILLABLE, "dfs", reason="1A has no word", slot_id=0)
    core = CoreReport(("1A", "1D"), ((0, 0), (0, 1), (1, 0)), True)
    data = FillReport(problem, result, 0.25, core=core, total_seconds=0.75).as_dict()
    assert data["status"] == "unfillable" and data["entries"] == []
    assert "grid" not in data and "quality" not in data and "fills" not in data
    assert (data["reason"], data["slot"]) == ("1A has no word", "1A")
    assert data["core"] == {"slots": ["1A", "1D"], "cells": [[0, 0], [0, 1], [1, 0]], "minimal": True}
    assert (data["seconds"], data["total_seconds"]) == (0.25, 0.75)


def test_several_fills_are_listed_and_counted(problem):
    data = FillReport(problem, filled(FILL, OTHER), 0.1, count=2).as_dict()
    assert data["grid"] == ["AB", "CD"]  # the first fill
    assert [f["grid"] for f in data["fills"]] == [["AB", "CD"], ["AC", "BD"]]
    assert data["fills"][1]["quality"]["min_score"] == 40 and data["n_fills"] == 2
    assert "note" not in data


def test_fewer_fills_than_asked_is_noted(problem):
    assert fewer_fills_note(filled(FILL), 2) == "only 1 fill exists (2 asked for)"
    assert fewer_fills_note(filled(FILL, OTHER), 5) == "only 2 fills exist (5 asked for)"
    assert fewer_fills_note(filled(FILL), None) == "" and fewer_fills_note(filled(FILL), 0) == ""
    assert fewer_fills_note(FillResult(FillStatus.LIMIT, "dfs", fills=(FILL,), n_fills=1), 3) == ""
    assert FillReport(problem, filled(FILL), 0.1, count=3).as_dict()["note"] == "only 1 fill exists (3 asked for)"


def test_fill_text(problem):
    text = FillReport(problem, filled(FILL), 1.23456).text()
    assert text.splitlines() == [
        "A B",
        "C D",
        "quality: mean 55.0, min 40, 1 entry at 40",
        "",
        "Across",
        "    1  AB  (60)",
        "    3  CD  (40)",
        "Down",
        "    1  AC  (50)",
        "    2  BD  (70)",
        "",
        "filled in 1.23 s by dfs",
    ]
    assert fill_text(problem, filled(FILL), 1.23456) == text


def test_no_fill_text_starts_with_the_verdict_unless_shown(problem):
    result = FillResult(FillStatus.LIMIT, "dfs", reason="time limit 5 s reached")
    report = FillReport(problem, result, 5.0)
    assert report.text().splitlines() == ["No fill found: time limit 5 s reached", "limit in 5.00 s by dfs"]
    assert report.text(verdict_shown=True).splitlines() == ["limit in 5.00 s by dfs"]


def test_verdicts():
    assert (
        verdict_text(FillResult(FillStatus.UNFILLABLE, "dfs", reason="2D has no word")) == "Unfillable: 2D has no word"
    )
    assert verdict_text(FillResult(FillStatus.LIMIT, "dfs")) == "No fill found"
    assert verdict_text(FillResult(FillStatus.ABORTED, "dfs", reason="stopped")) == "Aborted: stopped"


def test_text_draws_at_most_the_first_fills(problem):
    fills = (FILL, OTHER) * 6  # 12 fills
    lines = FillReport(problem, filled(*fills), 0.1, count=12).text().splitlines()
    assert lines[0] == "Fill 1:" and f"Fill {TEXT_MAX_FILLS}:" in lines and f"Fill {TEXT_MAX_FILLS + 1}:" not in lines
    assert f"(the first {TEXT_MAX_FILLS} fills are shown; --format json lists 12)" in lines
    assert lines[-2:] == ["12 fills", "filled in 0.10 s by dfs"]


def test_grid_output_reads_back_one_grid_per_fill(problem):
    assert FillReport(problem, filled(FILL), 0.1).grids_text() == "AB\nCD"
    text = fill_grids(problem, filled(FILL, OTHER))
    assert text == "; fill 1 of 2\nAB\nCD\n\n; fill 2 of 2\nAC\nBD"
    parts = text.split("\n\n")
    assert [parse_grid(part).rows for part in parts] == [["AB", "CD"], ["AC", "BD"]]


def test_each_fill_is_worked_out_once(problem):
    report = FillReport(problem, filled(FILL, OTHER), 0.1)
    assert report.grid(1) is report.grid(1) and report.lines(1) is report.lines(1)
    assert report.entries(0) is report.entries(0) and report.quality(1) is report.quality(1)
    assert report.is_filled and not FillReport(problem, FillResult(FillStatus.LIMIT, "dfs"), 0.1).is_filled


def test_entries_without_a_fill_have_no_words(problem):
    rows = entry_dicts(problem, None)
    assert [r["id"] for r in rows] == ["1A", "3A", "1D", "2D"]
    assert all(r["word"] is None and r["score"] is None for r in rows)


@pytest.mark.parametrize(
    "text, drawn",
    [
        ("AB\nCD\n", ["A B", "C D"]),
        ("A|B\nCD\n", ["A|B", "C D"]),  # a bar between two cells replaces the space
        ("AB\n -\nCD\n", ["A B", "  -", "C D"]),  # a bar under B: a '-' line under its column
        ("[AB]C\nDE\n", ["[AB] C", "D    E"]),  # each column as wide as its widest token
        ("(A){B}\n#.\n", ["(A) {B}", "#   ."]),  # circled and shaded cells
    ],
)
def test_grid_text(text, drawn):
    grid = parse_grid(text)
    assert grid_text(grid).splitlines() == drawn
    assert grid_text(text.splitlines()) == grid_text(grid)  # a grid's JSON lines draw the same
