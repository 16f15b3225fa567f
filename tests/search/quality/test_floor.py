"""The floor of the quality search (`xwcp.search.quality.floor`): no proof, no claim of an optimal floor."""

from __future__ import annotations

import pytest

from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits
from xwcp.model import parse_grid
from xwcp.search.quality import fill_quality
from xwcp.words.wordlist import words_from_pairs

pytest.importorskip("ortools")


def test_no_proof_means_no_claim(monkeypatch):
    # every attempt above the first fill's floor reaches its limit: the floor must stay unproven
    from dataclasses import replace as dc_replace

    from xwcp.search.quality import floor as Q

    _rows, score_by_word = (
        ("...", "...", "..."),
        {"TAR": 60, "ERA": 70, "NET": 80, "TEN": 90, "ARE": 50, "RAT": 55, "TEA": 95, "ATE": 95},
    )
    problem = compile_problem(parse_grid("...\n...\n...\n"), words_from_pairs(score_by_word.items()), min_score=0)
    real = Q._fill_at
    calls = []

    def fake(search, problem_at, time_limit_s, *args, **kwargs):
        result = real(search, problem_at, time_limit_s, *args, **kwargs)
        calls.append(problem_at.min_score)
        if len(calls) > 1:
            return dc_replace(result, status=FillStatus.LIMIT, fills=(), n_fills=0)
        return result

    monkeypatch.setattr(Q, "_fill_at", fake)
    result, quality = fill_quality(problem, "backtrack", Limits(time_limit_s=2))
    assert len(calls) >= 2 and quality.floor_optimal is False
