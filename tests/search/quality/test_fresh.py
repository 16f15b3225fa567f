"""Fills at the floor from our fast search (`xwcp.search.quality.fresh`): `lift_slots` against brute force."""

from __future__ import annotations

import pytest

from tests.search.quality.cases import all_fills, brute_force_key, fill_grid_rows, fill_scores, random_case
from xwcp.engine.result import Limits, check_fill
from xwcp.search.quality import lex_key

pytest.importorskip("ortools")


def test_lift_slots_only_takes_valid_fills_with_fewer_entries_at_the_floor():
    """`lift_slots` starts from the fill with the most entries at the floor; whatever it takes is a valid fill
    with a better key, never beyond the brute force's best, and on some cases it does lift entries."""
    import time

    from xwcp.search.quality import at_floor, lift_slots
    from xwcp.search.quality.state import _Search

    n_lifted = n_cases = 0
    for seed in range(60, 90):
        rows, score_by_word, problem, expected = random_case(seed)
        if expected is None:
            continue
        best_key = brute_force_key(rows, score_by_word)
        floor = best_key[0]
        fills = [f for f in all_fills(rows, tuple(score_by_word)) if min(fill_scores(f, score_by_word)) == floor]
        worst = min(fills, key=lambda f: lex_key(fill_scores(f, score_by_word)))
        width = problem.grid.width
        entries = tuple("".join(worst[c // width][c % width] for c in slot.cells) for slot in problem.slots)
        problem_at = at_floor(problem, floor)
        search = _Search(
            problem,
            "backtrack",
            Limits(time_limit_s=30, seed=seed),
            time.perf_counter(),
            lambda line: None,
            best=entries,
            best_problem=problem_at,
            floor=floor,
        )
        start_key = search.key(entries)
        lift_slots(search, 20.0)
        n_cases += 1
        assert check_fill(problem_at, search.best) == []
        key = lex_key(fill_scores(fill_grid_rows(problem_at, search.best), score_by_word))
        assert start_key <= key == search.key(search.best) <= best_key
        n_lifted += key[1] > start_key[1]
    assert n_cases >= 10 and n_lifted >= 3, (n_cases, n_lifted)  # 20 cases, 6 lifted when written
