"""What every backend does the same way (`xwcp.backends._common`): the clock, the arc-consistent start, decoding fills, limits."""

from __future__ import annotations

import threading
import time

from tests.backends.test_backends import SMALL_PAIRS
from xwcp.backends._common import Clock, entries_from_word_ids, limit_reason, start_engine, wanted_fills
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits
from xwcp.model import parse_grid
from xwcp.words.wordlist import words_from_pairs


def small_problem(text):
    return compile_problem(parse_grid(text), words_from_pairs(SMALL_PAIRS), min_score=0)


def test_clock_without_a_time_limit_never_runs_out():
    clock = Clock(Limits())
    assert clock.remaining_s() is None and clock.stop_status() is None
    assert clock.elapsed_s >= 0


def test_clock_says_limit_when_the_time_is_up_and_aborted_first():
    clock = Clock(Limits(time_limit_s=10))
    assert 9 < clock.remaining_s() <= 10 and clock.stop_status() is None
    clock.start = time.perf_counter() - 11
    assert clock.remaining_s() < 0 and clock.stop_status() is FillStatus.LIMIT
    abort = threading.Event()
    clock = Clock(Limits(time_limit_s=10, abort=abort))
    assert clock.stop_status() is None
    abort.set()
    assert clock.stop_status() is FillStatus.ABORTED
    clock.start = time.perf_counter() - 11
    assert clock.stop_status() is FillStatus.ABORTED  # the caller's abort wins over the clock


def test_start_engine_gives_an_engine_when_the_root_is_arc_consistent():
    engine, result = start_engine(small_problem("...\n...\n...\n"), "mine", Clock(Limits()))
    assert engine is not None and result is None


def test_start_engine_reports_a_conflict_of_entered_words():
    problem = small_problem("CAT\n#.#\nCAT\n")
    engine, result = start_engine(problem, "mine", Clock(Limits()))
    assert engine is None
    assert result.status is FillStatus.UNFILLABLE and result.backend == "mine"
    assert result.reason == problem.conflicts[0] and "CAT is entered twice" in result.reason


def test_start_engine_names_the_slot_arc_consistency_empties():
    problem = small_problem("...\n...\n")  # three 2-letter downs; the list has no 2-letter word
    engine, result = start_engine(problem, "mine", Clock(Limits()))
    assert engine is None and result.status is FillStatus.UNFILLABLE
    assert problem.slots[result.slot_id].length == 2
    assert problem.slots[result.slot_id].name in result.reason


def test_entries_from_word_ids_decodes_words_and_keeps_the_users_entries():
    problem = small_problem("QQQ\n...\n...\n")  # 1A entered by the user, not a listed word
    assert problem.fixed_text_by_slot == {problem.slot_by_name("1A").id: "QQQ"}
    # decoding only: the words need not cross well; the entered slot needs no word id
    text_by_name = {"4A": "ARE", "5A": "TEN", "1D": "CAT", "2D": "NET", "3D": "TEA"}
    word_id_by_slot = {
        problem.slot_by_name(name).id: problem.words.word_id(text) for name, text in text_by_name.items()
    }
    entries = entries_from_word_ids(problem, word_id_by_slot)
    assert {slot.name: entries[slot.id] for slot in problem.slots} == {"1A": "QQQ", **text_by_name}


def test_wanted_fills_is_one_by_default_and_zero_for_all():
    assert wanted_fills(Limits()) == 1
    assert wanted_fills(Limits(count=0)) == 0
    assert wanted_fills(Limits(count=7)) == 7


def test_limit_reason_names_the_abort_or_the_time_limit():
    assert limit_reason(FillStatus.ABORTED, Limits(time_limit_s=5)) == "aborted by the caller"
    assert limit_reason(FillStatus.LIMIT, Limits(time_limit_s=2.5)) == "time limit of 2.5 s reached"
    assert limit_reason(FillStatus.LIMIT, Limits()) == "search limit reached"
