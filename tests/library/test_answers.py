"""The library's typed answers (`xwcp.library.answers`): a fill by slot name, its faults when there is none, a core, a check verdict."""

from __future__ import annotations

import pytest

from xwcp.analysis.reports import CheckReport, Consistency, ForcedLetter, SlotInfo, UnlistedEntry
from xwcp.backends import fill
from xwcp.base.types import Direction, FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import FillResult, FillStats, Limits, measure_quality
from xwcp.library.answers import CheckAnswer, CoreAnswer, FillAnswer, Verdict, filled_grid
from xwcp.model import parse_grid, read_grid
from xwcp.render.questions_json import check_json
from xwcp.search.core import Core, CoreKind, CoreReport
from xwcp.words.wordlist import words_from_pairs

# ACE/TAN/ERE across, ATE/CAR/ENE down, or the transpose: the only fills of the 3x3
SCORE_BY_WORD = {"ACE": 60, "TAN": 90, "ERE": 50, "ATE": 70, "CAR": 80, "ENE": 50}


def square(text="AC.\n...\n...\n"):
    """The 3x3 with its first two letters given: only the ACE/TAN/ERE fill keeps them."""
    return compile_problem(parse_grid(text), words_from_pairs(SCORE_BY_WORD.items()), min_score=0)


@pytest.fixture(scope="module")
def filled():
    problem = square()
    result = fill(problem, "backtrack", Limits(time_limit_s=10))
    assert result.status is FillStatus.FILLED
    return FillAnswer.build(problem, result, 0.5)


def test_a_fill_by_slot_name_across_then_down(filled):
    assert filled.is_filled and filled.status is FillStatus.FILLED and filled.backend == "backtrack"
    assert filled.rows == ["ACE", "TAN", "ERE"]
    assert [e.name for e in filled.entries] == ["1A", "4A", "5A", "1D", "2D", "3D"]
    assert filled.entries_by_name == {"1A": "ACE", "4A": "TAN", "5A": "ERE", "1D": "ATE", "2D": "CAR", "3D": "ENE"}
    first = filled.entries[0]
    assert (first.number, first.direction, first.row, first.col, first.length, first.score) == (
        1,
        Direction.ACROSS,
        0,
        0,
        3,
        60,
    )
    second_down = filled.entries[4]
    assert (second_down.name, second_down.row, second_down.col, second_down.score) == ("2D", 0, 1, 80)
    assert filled.quality.min_score == 50 and filled.quality.n_at_min == 2
    assert filled.quality.mean_score == pytest.approx(sum(SCORE_BY_WORD.values()) / 6)
    assert filled.n_fills == 1 and len(filled.fills) == 1 and filled.wall_time_s == 0.5


def test_slots_are_looked_up_by_name_in_any_case(filled):
    assert filled["2d"] == "CAR" and filled[" 4A "] == "TAN" and filled.fills[0]["5a"] == "ERE"
    with pytest.raises(KeyError, match=r"no slot '9A' here; slots: 1A, 4A, 5A, 1D, 2D, 3D"):
        filled["9A"]
    with pytest.raises(TypeError, match="looked up by name"):
        filled[0]


def test_as_dict_is_the_fill_commands_json(filled):
    data = filled.as_dict()
    assert data["status"] == "filled"
    assert {e["id"]: e["word"] for e in data["entries"]} == filled.entries_by_name
    assert data["grid"] == filled.rows and data["seconds"] == 0.5 and data["backend"] == "backtrack"


def test_text_is_the_fill_commands_text(filled):
    lines = filled.text().splitlines()
    assert lines[:3] == ["A C E", "T A N", "E R E"] == filled.fills[0].text().splitlines()
    assert lines[3] == filled.quality.text()
    assert "    4  TAN  (90)" in lines and "    2  CAR  (80)" in lines
    assert lines[-1] == "filled in 0.50 s by backtrack"


def test_save_writes_the_fill_and_refuses_a_fill_it_has_not(filled, tmp_path):
    path = filled.save(tmp_path / "out.txt")
    assert path == tmp_path / "out.txt"
    assert [row for row in read_grid(path).rows] == ["ACE", "TAN", "ERE"]
    with pytest.raises(ValueError, match=r"fill_index 1 is out of range: this answer has 1 fill\(s\)"):
        filled.save(tmp_path / "other.txt", 1)
    with pytest.raises(TypeError, match="fill_index must be an int"):
        filled.save(tmp_path / "other.txt", True)
    with pytest.raises(TypeError, match="path must be a file name"):
        filled.save(3)


def test_no_fill_answers_empty_and_says_why_when_asked_for_a_word():
    problem = square("Z..\n...\n...\n")
    result = FillResult(FillStatus.LIMIT, "backtrack", FillStats(1.0), reason="time limit of 1 s reached")
    answer = FillAnswer.build(problem, result, 1.0)
    assert not answer.is_filled and answer.fills == () and answer.rows == [] and answer.entries == ()
    assert answer.entries_by_name == {} and answer.quality is None and answer.reason == "time limit of 1 s reached"
    with pytest.raises(LookupError, match=r"no fill: the status is limit \(time limit of 1 s reached\)"):
        answer["1A"]
    with pytest.raises(ValueError, match=r"has 0 fill\(s\) \(status limit: time limit of 1 s reached\)"):
        answer.save("never.txt")


def test_a_users_own_entry_the_list_lacks_has_no_score():
    problem = square("QQQ\n...\n...\n")
    entries = tuple(
        {"1A": "QQQ", "4A": "TAN", "5A": "ERE", "1D": "QTE", "2D": "QAR", "3D": "QNE"}[s.name] for s in problem.slots
    )
    grid = filled_grid(problem, entries, measure_quality(problem, entries))
    assert grid["1A"] == "QQQ" and grid.entries[0].score is None and grid.entries[1].score == 90


CORE = CoreReport(
    ("7A", "4D"),
    ((3, 0), (3, 1)),
    True,
    Core((4, 1), True, CoreKind.NO_COMMON_LETTER, "backtrack", 2, 0.25),
    "7A and 4D share no letter",
    (("7A", "...."), ("4D", "....")),
)
CORE_JSON = {
    "slots": ["7A", "4D"],
    "cells": [[3, 0], [3, 1]],
    "minimal": True,
    "stopped": False,
    "kind": "no-common-letter",
    "message": "7A and 4D share no letter",
    "patterns": {"7A": "....", "4D": "...."},
    "backend": "backtrack",
    "oracle_calls": 2,
    "seconds": 0.25,
}


def test_a_core_from_the_search():
    core = CoreAnswer.from_report(CORE)
    assert core.slots == ("7A", "4D") and list(core) == ["7A", "4D"] and len(core) == 2
    assert core.cells == ((3, 0), (3, 1)) and core.patterns == {"7A": "....", "4D": "...."}
    assert core.is_minimal and core.kind == "no-common-letter" and core.wall_time_s == 0.25
    assert core.report is CORE
    assert core.as_dict() == CORE_JSON and list(core.as_dict()) == list(CORE_JSON)  # the keys in the CLI's order
    assert core.as_dict() is not core.json  # a copy


def test_a_slot_a_proof_named_is_a_core_without_a_search():
    bare = CoreAnswer.from_report(CoreReport(("1A",), ((0, 0), (0, 1)), False))
    assert (bare.is_minimal, bare.kind, bare.message, bare.wall_time_s) == (False, "group", "", 0.0)
    assert bare.as_dict() == {"slots": ["1A"], "cells": [[0, 0], [0, 1]], "minimal": False}


def check_report(verdict, *, reason="", core=None, most=None, unlisted=(), forced=(), fill=None):
    """A check report as `xwcp.analysis.questions.check_report` makes one."""
    return CheckReport(
        verdict,
        Consistency.CONSISTENT,
        reason,
        tuple(UnlistedEntry(*u) for u in unlisted),
        None if most is None else SlotInfo(*most),
        tuple(ForcedLetter(*f) for f in forced),
        None,
        None,
        None,
        fill,
        0.0,
        core,
    )


def test_check_verdicts_and_their_sentences():
    problem = square()
    fillable = CheckAnswer.from_report(
        problem, check_report(Verdict.FILLABLE, fill=["ACE", "TAN", "ERE"], forced=[(0, 1, "C")])
    )
    assert fillable.verdict is Verdict.FILLABLE and fillable.fill == ["ACE", "TAN", "ERE"]
    assert fillable.reason == "A full fill exists (in .fill)." and fillable.core == () and fillable.core_detail is None
    assert [(f.row, f.col, f.letter) for f in fillable.forced] == [(0, 1, "C")]
    unknown = CheckAnswer.from_report(problem, check_report(Verdict.UNKNOWN))
    assert unknown.verdict is Verdict.UNKNOWN and unknown.fill is None and "hit its limit" in unknown.reason
    data = check_report(Verdict.UNFILLABLE, core=CORE, most=("7A", "....", 0), unlisted=[("1A", "QQQ")])
    unfillable = CheckAnswer.from_report(problem, data)
    assert unfillable.verdict is Verdict.UNFILLABLE and unfillable.core == ("7A", "4D")
    assert unfillable.reason == "7A and 4D share no letter."  # the core's message as a sentence
    assert (unfillable.most_constrained.name, unfillable.most_constrained.size) == ("7A", 0)
    assert unfillable.unlisted == {"1A": "QQQ"} and unfillable.as_dict() == check_json(data)
    no_core = CheckAnswer.from_report(problem, check_report(Verdict.UNFILLABLE, reason="1A (Z..): no word fits"))
    assert no_core.reason == "1A (Z..): no word fits." and no_core.core == ()
