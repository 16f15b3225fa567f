"""A design result as JSON and text (`xwcp.designer.report`): each field from the design it reports, the summary, the grids."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

from tests.designer.designs import grid_of  # noqa: E402
from xwcp.base.types import Direction, FillStatus  # noqa: E402
from xwcp.compile.problem import compile_problem  # noqa: E402
from xwcp.designer.pattern import Pattern  # noqa: E402
from xwcp.designer.report import design_dict, event_line, result_dict, result_grids, result_text  # noqa: E402
from xwcp.designer.request import DesignRequest  # noqa: E402
from xwcp.designer.rules import Rules  # noqa: E402
from xwcp.designer.search import Design, DesignEvent, DesignResult, DesignStats  # noqa: E402
from xwcp.designer.themes import Placement, Theme  # noqa: E402
from xwcp.engine.result import measure_quality  # noqa: E402
from xwcp.words.wordlist import words_from_pairs  # noqa: E402

RULES = Rules(3, 3, max_words=20, max_blocks=5, min_words=2, max_fill_length=3)
REQUEST = DesignRequest(RULES, (Theme("TAN"),), count=2)
SCORE_BY_WORD = {"ACE": 60, "TAN": 90, "ERE": 50, "ATE": 70, "CAR": 80, "ENE": 50, "CAT": 60, "ARE": 60, "TEN": 60}


def a_design(rows, theme_row, found_s, done_s):
    grid = grid_of(rows)
    problem = compile_problem(grid_of(["...", "...", "..."]), words_from_pairs(SCORE_BY_WORD.items()), min_score=0)
    entries = tuple("".join(grid.cells[c] for c in slot.cells) for slot in problem.slots)
    return Design(
        Pattern(frozenset(), (Placement(theme_row, 0, Direction.ACROSS, 3),)),
        grid,
        problem,
        entries,
        measure_quality(problem, entries),
        len(problem.slots),
        grid.n_blocks,
        found_s,
        done_s,
    )


FIRST = a_design(["ACE", "TAN", "ERE"], 1, 0.3, 1.5)
RESULT = DesignResult(
    FillStatus.FILLED,
    (FIRST,),
    "found 1 design (2 asked for)",
    DesignStats(n_patterns=4, n_unfillable=2, n_cuts=3, n_undecided=1, wall_time_s=2.5),
    RULES,
)


def test_design_dict_reports_the_grid_counts_quality_themes_and_entries():
    data = design_dict(FIRST, REQUEST)
    assert data["grid"] == ["ACE", "TAN", "ERE"] and data["words"] == 6 and data["blocks"] == 0
    assert data["themes"] == [{"word": "TAN", "row": 2, "col": 1, "direction": "across"}]  # counted from 1
    assert data["entries"] == {"1A": "ACE", "4A": "TAN", "5A": "ERE", "1D": "ATE", "2D": "CAR", "3D": "ENE"}
    assert data["quality"]["min_score"] == 50 and data["quality"]["n_at_min"] == 2
    assert data["quality"]["mean_score"] == round((60 + 90 + 50 + 70 + 80 + 50) / 6, 2)
    assert (data["found_s"], data["seconds"]) == (0.3, 1.5)


def test_result_dict_has_status_designs_rules_stats_and_is_json():
    data = result_dict(RESULT, REQUEST)
    assert json.loads(json.dumps(data)) == data
    assert data["status"] == "filled" and data["count"] == 2 and data["reason"] == "found 1 design (2 asked for)"
    assert data["designs"] == [design_dict(FIRST, REQUEST)]
    assert data["rules"] == {
        "size": "3x3",
        "symmetry": "rotational",
        "style": "american",
        "max_words": 20,
        "min_words": 2,
        "max_blocks": 5,
        "max_length": 3,
    }
    assert data["stats"]["patterns"] == 4 and data["stats"]["unfillable_patterns"] == 2
    assert data["stats"]["seconds"] == 2.5 and data["notes"] == []


def test_result_text_lists_each_design_then_a_summary_and_the_reason():
    lines = result_text(RESULT, REQUEST).splitlines()
    assert lines[0] == "design 1 of 1: 6 words, 0 blocks, found in 0.3 s"
    assert lines[1] == FIRST.quality.text()
    assert lines[2] == "  TAN at row 2, column 1, across"
    assert lines[3:6] == ["ACE", "TAN", "ERE"] and lines[6] == ""
    assert lines[7] == "1 design in 2.5 s: 4 patterns tried, 2 unfillable (3 cuts), 1 undecided"
    assert lines[8] == "found 1 design (2 asked for)"


def test_result_text_without_a_design_says_why():
    empty = DesignResult(FillStatus.LIMIT, (), "time limit of 5 s reached", DesignStats(wall_time_s=5.0), RULES)
    assert result_text(empty, REQUEST).splitlines() == [
        "0 designs in 5.0 s: 0 patterns tried, 0 unfillable (0 cuts), 0 undecided",
        "no design: time limit of 5 s reached",
    ]


def test_result_grids_numbers_each_grid_in_xwcps_syntax():
    second = a_design(["CAT", "ARE", "TEN"], 2, 0.5, 2.0)
    two = DesignResult(FillStatus.FILLED, (FIRST, second), "", DesignStats(), RULES)
    assert result_grids(two).splitlines() == [
        "; design 1 of 2",
        "ACE",
        "TAN",
        "ERE",
        "; design 2 of 2",
        "CAT",
        "ARE",
        "TEN",
    ]


def test_event_line_is_seconds_then_text():
    event = DesignEvent("pattern", 3.14159, "pattern 2: 6 words", 2, 0, 0)
    assert event_line(event) == "   3.1 s  pattern 2: 6 words"
