"""The running state of one quality search (`xwcp.search.quality.state._Search`): totals, keys, the floor's count, settling, the clock."""

from __future__ import annotations

import threading
import time

from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits
from xwcp.model import parse_grid
from xwcp.search.quality.state import DEFAULT_TIME_LIMIT_S, _Search
from xwcp.words.wordlist import words_from_pairs

# AB / CD across, AC / BD down: one fill of the 2x2, with scores 90, 70 (across) and 60, 80 (down)
SCORE_BY_WORD = {"AB": 90, "CD": 70, "AC": 60, "BD": 80, "XY": 40}
ROWS = ("AB", "CD")


def problem_and_fill():
    problem = compile_problem(parse_grid("..\n..\n"), words_from_pairs(SCORE_BY_WORD.items()), min_score=0)
    width = problem.grid.width
    entries = tuple("".join(ROWS[c // width][c % width] for c in slot.cells) for slot in problem.slots)
    return problem, entries


def search_for(limits=None, floor=60, lines=None, start=None):
    problem, entries = problem_and_fill()
    say = lines.append if lines is not None else (lambda line: None)
    return _Search(
        problem,
        "backtrack",
        limits or Limits(time_limit_s=10),
        time.perf_counter() if start is None else start,
        say,
        best=entries,
        best_problem=problem,
        floor=floor,
    )


def test_total_and_key_follow_the_entries_scores():
    search = search_for()
    assert sorted(search.best) == ["AB", "AC", "BD", "CD"]
    assert search.total(search.best) == 90 + 70 + 60 + 80
    assert search.key(search.best) == (60, -1, 300)  # floor, minus how many sit at it, total


def test_n_at_floor_counts_entries_at_or_below_the_floor():
    assert search_for(floor=60).n_at_floor(search_for().best) == 1
    assert search_for(floor=70).n_at_floor(search_for().best) == 2
    assert search_for(floor=50).n_at_floor(search_for().best) == 0


def test_settled_needs_a_bound_met_and_one_entry_at_the_floor():
    search = search_for(floor=60)
    assert not search.is_settled()  # no bound yet
    search.bound_total = 301
    assert not search.is_settled()  # the bound is above the best total
    search.bound_total = 300
    assert search.is_settled()
    search.floor = 70  # two entries (60 and 70) at or below it
    assert not search.is_settled()


def test_remaining_keeps_the_reserve_back_and_stopped_reads_the_clock_and_the_abort():
    search = search_for(Limits(time_limit_s=10))
    assert 9 < search.remaining() <= 10 and not search.stopped()
    search.reserve_s = 4
    assert 5 < search.remaining() <= 6
    search.reserve_s = 10
    assert search.stopped()
    abort = threading.Event()
    search = search_for(Limits(time_limit_s=10, abort=abort))
    assert not search.stopped()
    abort.set()
    assert search.stopped()
    assert search_for(Limits(time_limit_s=10), start=time.perf_counter() - 11).stopped()


def test_no_time_limit_means_the_default():
    search = search_for(Limits())
    assert search.time_limit_s == DEFAULT_TIME_LIMIT_S
    assert DEFAULT_TIME_LIMIT_S - 1 < search.remaining() <= DEFAULT_TIME_LIMIT_S


def test_floor_raised_asks_the_proof_beside():
    search = search_for()
    assert not search.floor_raised()  # no proof running

    class Proof:
        news = False

        def has_news(self):
            return self.news

    search.proof = Proof()
    assert not search.floor_raised()
    search.proof.news = True
    assert search.floor_raised()


def test_accept_takes_the_fill_and_says_its_quality():
    lines = []
    search = search_for(lines=lines)
    other = compile_problem(parse_grid("..\n..\n"), words_from_pairs(SCORE_BY_WORD.items()), min_score=60)
    search.accept(other, list(search.best), "better")
    assert search.best_problem is other and isinstance(search.best, tuple)
    assert search.final_s > 0
    assert len(lines) == 1 and "better: min 60 (1 at it), mean 75.00" in lines[0]
