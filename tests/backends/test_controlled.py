"""Fills under the controls no backend posts itself (`xwcp.backends.controlled`): domain cuts, no long shared substrings, diverse fills."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.backends.test_backends import SMALL_PAIRS, brute_force_fills
from xwcp.backends.controlled import (
    check_min_diff,
    differing_entries,
    exclude_fill,
    fill_diverse,
    fill_pair_rules,
    only_word,
    with_domains,
    without_word,
)
from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.compile.controls import Controls
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import FillResult, FillStats, Limits, check_fill
from xwcp.model import parse_grid
from xwcp.words.wordlist import words_from_pairs

GRID = "...\n.#.\n...\n"


def small_problem(controls=None):
    return compile_problem(
        parse_grid(GRID), words_from_pairs(SMALL_PAIRS), min_score=0, controls=controls or Controls()
    )


def live_words(problem, slot_id):
    bucket = problem.words.bucket(problem.slots[slot_id].length)
    return {bucket.text(int(w)) for w in np.flatnonzero(problem.domains[slot_id])}


def test_with_domains_changes_only_the_listed_slots_read_only():
    problem = small_problem()
    mask = np.zeros_like(problem.domains[1])
    changed = with_domains(problem, {1: mask})
    assert not changed.domains[1].any() and not changed.domains[1].flags.writeable
    assert all(changed.domains[s] is problem.domains[s] for s in range(len(problem.slots)) if s != 1)
    assert problem.domains[1].any()  # the original is untouched


def test_without_word_and_only_word_cut_one_slots_domain():
    problem = small_problem()
    assert "CAT" in live_words(problem, 0)
    assert live_words(without_word(problem, 0, "CAT"), 0) == live_words(problem, 0) - {"CAT"}
    assert live_words(only_word(problem, 0, "CAT"), 0) == {"CAT"}
    assert without_word(problem, 0, "ZZZ") is problem  # not a live word: nothing to take out
    assert live_words(only_word(problem, 0, "ZZZ"), 0) == set()  # nothing left


def longest_common_substring(a, b):
    return max(
        (n for n in range(1, min(len(a), len(b)) + 1) for i in range(len(a) - n + 1) if a[i : i + n] in b), default=0
    )


def entries_of(rows):
    across = [w for row in rows for w in row.split("#") if len(w) >= 2]
    down = [w for c in range(len(rows[0])) for w in "".join(row[c] for row in rows).split("#") if len(w) >= 2]
    return across + down


@pytest.mark.parametrize(
    "rows, dropped",
    [
        (("...", ".#.", "..."), ()),
        (("...", "...", "..."), ()),  # 6 of its 38 fills keep the limit: the first fill found needs splits
        (("...", "...", "..."), ("ACE",)),  # 28 fills, none within the limit: a proof by splitting
    ],
)
def test_fill_pair_rules_finds_a_fill_within_the_limit_or_proves_there_is_none(rows, dropped):
    words = [w for w, _ in SMALL_PAIRS if w not in dropped]
    fills = brute_force_fills(rows, words)
    ok = {
        f
        for f in fills
        if all(longest_common_substring(a, b) <= 1 for i, a in enumerate(entries_of(f)) for b in entries_of(f)[i + 1 :])
    }
    assert fills and ok != fills  # the control matters here
    problem = compile_problem(
        parse_grid("\n".join(rows) + "\n"),
        words_from_pairs([(w, 50) for w in words]),
        min_score=0,
        controls=Controls(max_shared_substring=1),
    )
    result = fill_pair_rules(problem, "backtrack", Limits(time_limit_s=30))
    if ok:
        assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
        assert tuple(result.grid(problem).rows) in ok
    else:
        assert result.status is FillStatus.UNFILLABLE and result.stats.extra["pair_splits"] > 0
        assert result.reason == "no fill keeps every shared substring within 1 letters"


def test_fill_pair_rules_needs_the_control():
    with pytest.raises(ValueError, match="pair rule"):
        fill_pair_rules(small_problem(), "backtrack", Limits())


def test_check_min_diff_accepts_one_to_the_open_slots():
    problem = small_problem()
    n_open = len(problem.open_slot_ids)
    check_min_diff(problem, 2, 1)
    check_min_diff(problem, 2, n_open)
    with pytest.raises(InputError, match=f"more than the {n_open} open slots"):
        check_min_diff(problem, 2, n_open + 1)
    with pytest.raises(InputError, match="at least 1"):
        check_min_diff(problem, 2, 0)


def test_exclude_fill_takes_the_fills_word_out_of_k_slots():
    problem = small_problem()
    entries = ("CAT", "TEN", "CAT", "TEN")  # one word per slot, by slot id (need not be a fill)
    for k in (1, 2, 4):
        cut = exclude_fill(problem, entries, k, random.Random(k))
        lost = [s for s in problem.open_slot_ids if entries[s] not in live_words(cut, s)]
        assert len(lost) == k
        for s in problem.open_slot_ids:
            assert live_words(cut, s) == live_words(problem, s) - ({entries[s]} if s in lost else set())


def test_differing_entries_counts_slots_filled_differently():
    assert differing_entries(("CAT", "ARE", "TEN"), ("CAT", "ERA", "NET")) == 2
    assert differing_entries(("CAT",), ("CAT",)) == 0


def test_fill_diverse_gives_fills_at_least_min_diff_apart():
    problem = small_problem()
    result = fill_diverse(problem, "backtrack", Limits(time_limit_s=30, seed=1), count=3, min_diff=2)
    assert result.status is FillStatus.FILLED and result.n_fills == len(result.fills) == 3
    assert result.stats.extra["min_diff"] == 2
    for i, a in enumerate(result.fills):
        assert check_fill(problem, a) == []
        for b in result.fills[i + 1 :]:
            assert differing_entries(a, b) >= 2


def test_fill_diverse_keeps_what_it_found_and_says_so_when_the_next_fill_fails():
    problem = small_problem()
    first = fill_diverse(problem, "backtrack", Limits(time_limit_s=30), count=1, min_diff=1).fills[0]
    calls = []

    def fill_one(node, limits):
        calls.append(node)
        if len(calls) == 1:
            return FillResult(FillStatus.FILLED, "fake", FillStats(0.0), (first,), 1)
        return FillResult(FillStatus.UNFILLABLE, "fake", FillStats(0.0), reason="no")

    result = fill_diverse(problem, "backtrack", Limits(time_limit_s=30), count=3, min_diff=2, fill_one=fill_one)
    assert result.status is FillStatus.FILLED and result.fills == (first,)
    assert result.stats.extra["note"] == "found 1 fills at least 2 entries apart (3 asked for)"
    assert len(calls) == 1 + 4  # the second fill is tried DIVERSE_TRIES times
    assert calls[0] is problem and all(node is not problem for node in calls[1:])


def test_fill_diverse_returns_the_first_failure_as_it_is():
    problem = small_problem()
    failed = FillResult(FillStatus.UNFILLABLE, "fake", FillStats(0.0), reason="none at all")
    assert (
        fill_diverse(problem, "backtrack", Limits(), count=2, min_diff=1, fill_one=lambda node, limits: failed)
        is failed
    )
