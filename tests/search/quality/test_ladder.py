"""Issue 37: the floor climb's plain ladder (`floor._ladder`) reaches a floor a plain `--min-score` fill finds quickly,
where the old climb (bisecting the populous levels, the proof walking the levels one by one) missed it;
and the per-floor report (`Quality.floors`, the JSON's "floors") says what happened at each floor."""

from __future__ import annotations

import json
import random

import pytest

from tests.helpers import entries_of, run
from tests.search.quality.cases import fill_scores
from xwcp.backends import fill
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import FloorOutcome, Limits, check_fill
from xwcp.model import parse_grid
from xwcp.search.quality import fill_quality
from xwcp.words.wordlist import words_from_pairs

pytest.importorskip("ortools")

ROWS = ("...", "...", "...")
SQUARE_85 = ("CAT", "ORE", "WED", "COW", "ARE", "TED")
"""Rows CAT/ORE/WED, columns COW/ARE/TED: the only fill with every entry at 85 or more."""
HARD_LEVELS = (51, 52, 53, 54)
"""Levels whose searches do not settle in their time (see `_hard_levels`): one word each, no fill of their own."""


def _score_by_word() -> dict[str, int]:
    """700 filler words at 50 (the only populous level: 85 holds under 1% of the words, so the old climb's
    bisection never picks it), the 85 square, one word at each hard level and two at 90 that fill nothing."""
    rng = random.Random(37)
    taken = set(SQUARE_85) | {"XQZ", "QZX", "ZZQ", "QQZ", "XXQ", "QXX"}
    score_by_word: dict[str, int] = {}
    while len(score_by_word) < 700:
        word = "".join(rng.choice("BDFHJKLMNSUVY") for _ in range(3))
        if word not in taken:
            score_by_word[word] = 50
    score_by_word.update({w: 85 for w in SQUARE_85})
    score_by_word.update({w: level for w, level in zip(("XQZ", "QZX", "ZZQ", "QQZ"), HARD_LEVELS)})
    score_by_word.update({"XXQ": 90, "QXX": 90})
    return score_by_word


def _hard_levels(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make every try at a level of HARD_LEVELS come back not settled in its time (LIMIT), as the proof's tries
    at 81-84 did on the issue's 15x15 (the levels between two populous ones hold 0.1-0.2% of the words each
    and the proof walks them one at a time: here 51-54 above the first fill's floor 50); every other level
    is searched for real. The levels tried."""
    from dataclasses import replace

    from xwcp.search.quality import floor as Q

    real = Q._fill_at
    tried: list[int] = []

    def slow_between(search, problem_at, time_limit_s, *args, **kwargs):
        tried.append(problem_at.min_score)
        result = real(
            search,
            problem_at,
            min(time_limit_s, 0.05) if problem_at.min_score in HARD_LEVELS else time_limit_s,
            *args,
            **kwargs,
        )
        if problem_at.min_score in HARD_LEVELS:
            return replace(result, status=FillStatus.LIMIT, fills=(), n_fills=0, reason="time limit")
        return result

    monkeypatch.setattr(Q, "_fill_at", slow_between)
    return tried


def _no_mean_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leave the floor to the climb and the proof: on a 3x3 grid the mean search (CP-SAT over the whole grid,
    fresh fills leaning on scores) finds the 85 square by itself, which a 15x15 does not. The mean search
    at each floor only waits (until the proof beside raises the floor or ends, or the time is up)."""
    from xwcp.search.quality import run as R

    def wait_for_the_proof(search, has_cpsat):
        proof = search.proof
        while proof is not None and not search.stopped() and not search.floor_raised() and not proof.done.wait(0.02):
            pass

    monkeypatch.setattr(R, "_mean_at_floor", wait_for_the_proof)


@pytest.mark.timing
def test_a_plain_fill_at_85_is_quick_and_checked():
    score_by_word = _score_by_word()
    problem = compile_problem(parse_grid("\n".join(ROWS) + "\n"), words_from_pairs(score_by_word.items()), min_score=85)
    result = fill(problem, "backtrack", Limits(time_limit_s=5))
    assert result.status is FillStatus.FILLED and result.stats.wall_time_s < 5
    assert check_fill(problem, result.entries) == []
    assert min(fill_scores(result.grid(problem).rows, score_by_word)) == 85


def test_the_ladder_reaches_the_floor_a_plain_fill_reaches(monkeypatch):
    score_by_word = _score_by_word()
    _hard_levels(monkeypatch)
    _no_mean_search(monkeypatch)
    problem = compile_problem(parse_grid("\n".join(ROWS) + "\n"), words_from_pairs(score_by_word.items()), min_score=50)
    result, quality = fill_quality(problem, "backtrack", Limits(time_limit_s=5))
    assert result.status is FillStatus.FILLED
    assert check_fill(problem, result.entries) == []
    scores = fill_scores(result.grid(problem).rows, score_by_word)
    assert min(scores) == 85 == quality.min_score
    assert sorted(result.entries) == sorted(SQUARE_85)
    assert quality.floor_optimal  # 86-89 hold no word and 90 is proven empty
    outcome_by_level = {t.level: t.outcome for t in quality.floors if t.by == "climb"}
    assert outcome_by_level[85] is FloorOutcome.FILLED
    assert outcome_by_level[90] is FloorOutcome.PROVEN_EMPTY


def test_the_json_report_says_what_happened_at_each_floor(monkeypatch, capsys, tmp_path):
    score_by_word = _score_by_word()
    tried = _hard_levels(monkeypatch)
    _no_mean_search(monkeypatch)
    grid = tmp_path / "g.txt"
    grid.write_text("\n".join(ROWS) + "\n")
    words = tmp_path / "w.txt"
    words.write_text("".join(f"{w};{s}\n" for w, s in score_by_word.items()))
    code, out, err = run(["fill", grid, "--words", words, "--quality", "--time-limit", "5", "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["quality"]["min_score"] == 85 and data["quality"]["floor_optimal"] is True
    problem = compile_problem(parse_grid(grid.read_text()), words_from_pairs(score_by_word.items()), min_score=50)
    entries = entries_of(problem, data["grid"])
    assert check_fill(problem, entries) == []
    assert min(fill_scores(data["grid"], score_by_word)) == 85
    floors = data["floors"]
    assert floors[0] == {"level": 50, "outcome": "filled", "seconds": floors[0]["seconds"], "by": "first"}
    assert {"level", "outcome", "seconds", "by"} == set().union(*floors)
    assert all(isinstance(t["seconds"], float) and t["seconds"] >= 0 for t in floors)
    climb = {t["level"]: t["outcome"] for t in floors if t["by"] == "climb"}
    assert climb[85] == "filled" and climb[90] == "proven_empty"
    hard = [t for t in floors if t["level"] in HARD_LEVELS]  # the proof's try at 51, unless the ladder's 85 came first
    assert all(t["outcome"] == "not_settled" and t["by"] == "proof" for t in hard)
    assert 85 in tried and 90 in tried


def test_the_text_report_lists_the_floors_tried(monkeypatch, capsys, tmp_path):
    score_by_word = _score_by_word()
    _hard_levels(monkeypatch)
    _no_mean_search(monkeypatch)
    grid = tmp_path / "g.txt"
    grid.write_text("\n".join(ROWS) + "\n")
    words = tmp_path / "w.txt"
    words.write_text("".join(f"{w};{s}\n" for w, s in score_by_word.items()))
    code, out, err = run(["fill", grid, "--words", words, "--quality", "--time-limit", "5"], capsys)
    assert code == 0, err
    line = next(line for line in out.splitlines() if line.startswith("floors tried: "))
    assert line.startswith("floors tried: 50 filled in ")
    assert "; 85 filled in " in line and "; 90 proven empty in " in line


def test_the_library_answer_carries_the_floors(monkeypatch, tmp_path):
    import xwcp

    score_by_word = _score_by_word()
    _hard_levels(monkeypatch)
    _no_mean_search(monkeypatch)
    words = tmp_path / "w.txt"
    words.write_text("".join(f"{w};{s}\n" for w, s in score_by_word.items()))
    answer = xwcp.fill("\n".join(ROWS) + "\n", str(words), quality=True, time_limit_s=5)
    assert answer.status is FillStatus.FILLED
    problem = compile_problem(parse_grid("\n".join(ROWS) + "\n"), words_from_pairs(score_by_word.items()), min_score=50)
    assert check_fill(problem, entries_of(problem, answer.rows)) == []
    assert min(fill_scores(answer.rows, score_by_word)) == 85 == answer.quality.min_score
    floors = answer.quality.floors
    assert floors[0].by == "first" and floors[0].level == 50 and floors[0].outcome is FloorOutcome.FILLED
    assert any(t.level == 85 and t.outcome is FloorOutcome.FILLED for t in floors)
    assert answer.as_dict()["floors"] == [t.as_dict() for t in floors]
