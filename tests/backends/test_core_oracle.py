"""The core search's oracle (`xwcp.backends.core_oracle`): sub-problems of some slots, and answers about them, remembered."""

from __future__ import annotations

import itertools
import random
import threading
import time
from pathlib import Path

import pytest

from tests.backends.tiny import has_fill
from xwcp.backends import fill
from xwcp.backends.core_oracle import Answer, CoreOracle, fill_slots, fill_status, sub_problem
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import check_fill
from xwcp.model import parse_grid, read_grid
from xwcp.words.wordlist import load_word_list, words_from_pairs

ROOT = Path(__file__).resolve().parents[2]
SQUARE_PAIRS = [(word, 50) for word in ("ACE", "TAN", "ERE", "ATE", "CAR", "ENE")]


@pytest.fixture(scope="module")
def four_by_four():
    return compile_problem(read_grid(ROOT / "models" / "4x4-unfillable.txt"), load_word_list())


def test_sub_problem_keeps_only_the_given_slots_and_their_crossings(four_by_four):
    sub = sub_problem(four_by_four, [four_by_four.slot_by_name("7A").id, four_by_four.slot_by_name("4D").id])
    assert [s.name for s in sub.slots] == ["7A", "4D"] and [s.id for s in sub.slots] == [0, 1]
    assert len(sub.crossings) == 1 and sub.cross_slot == ((-1, -1, -1, 1), (-1, -1, -1, 0))
    assert fill(sub, "backtrack").status is FillStatus.UNFILLABLE
    alone = sub_problem(four_by_four, [four_by_four.slot_by_name("7A").id])
    result = fill(alone, "backtrack")
    assert result.status is FillStatus.FILLED and check_fill(alone, result.entries) == []


def random_problem(seed):
    """A tiny grid and a sparse list of A/B/C words: some sets of slots fill, some do not."""
    rng = random.Random(900 + seed)
    grid = parse_grid(rng.choice(["...\n...\n...\n", "...\n.#.\n...\n", "....\n....\n", "..#\n...\n#..\n"]))
    words = sorted({"".join(rng.choice("ABC") for _ in range(rng.randint(2, 4))) for _ in range(rng.randint(6, 12))})
    return compile_problem(grid, words_from_pairs(words), min_score=0)


@pytest.mark.parametrize("backend", ["backtrack", "letters"])  # the compiled search with provenance, and any other
def test_every_answer_agrees_with_brute_force_and_is_remembered(backend):
    n_filled = n_proven = n_smaller_proof = n_known = 0
    for seed in range(12):
        problem = random_problem(seed)
        oracle = CoreOracle(problem, backend=backend, seed=seed)
        assert oracle.is_tracked is (backend == "backtrack")
        all_ids = [slot.id for slot in problem.slots]
        for size in (len(all_ids), 2, 1):  # the whole first: its fill answers every subset
            for slot_ids in itertools.islice(itertools.combinations(all_ids, size), 4):
                n_calls = oracle.n_calls
                answer = oracle.ask(list(slot_ids))
                sub = sub_problem(problem, slot_ids)
                assert answer.status is (FillStatus.FILLED if has_fill(sub) else FillStatus.UNFILLABLE)
                assert oracle.n_calls == n_calls + answer.is_new
                n_known += not answer.is_new
                if answer.status is FillStatus.FILLED:
                    n_filled += 1
                    assert set(slot_ids) <= answer.fill.keys()
                    assert check_fill(sub, [answer.fill[s] for s in slot_ids]) == []
                else:
                    n_proven += 1
                    used = sorted(answer.used_slot_ids)
                    assert set(used) <= set(slot_ids)
                    assert not has_fill(sub_problem(problem, used))  # the proof's slots alone cannot fill
                    n_smaller_proof += len(used) < len(slot_ids)
                again = oracle.ask(list(slot_ids))
                assert not again.is_new and again.status is answer.status and oracle.n_calls == n_calls + answer.is_new
    assert n_filled > 10 and n_proven > 5 and n_known > 5
    if backend == "backtrack":
        assert n_smaller_proof > 0  # provenance drops slots the proof did not need


def only(problem, text):
    """`problem` with every domain cut to `text` alone."""
    from xwcp.backends.controlled import only_word

    for slot in problem.slots:
        problem = only_word(problem, slot.id, text)
    return problem


def test_a_fill_answers_its_subsets_and_a_proof_its_supersets_without_a_search():
    # ACE/TAN/ERE across, ATE/CAR/ENE down (or the transpose): the only fills of the 3x3
    problem = compile_problem(
        parse_grid("...\n...\n...\n"), words_from_pairs(SQUARE_PAIRS + [("ZZZ", 50)]), min_score=0
    )
    oracle = CoreOracle(problem)
    whole = oracle.ask([slot.id for slot in problem.slots])
    assert whole.status is FillStatus.FILLED and whole.is_new and oracle.n_calls == 1
    part = oracle.ask([0, 3])
    assert part.status is FillStatus.FILLED and not part.is_new and oracle.n_calls == 1
    assert oracle.known([0, 3]).fill is whole.fill
    zzz = only(problem, "ZZZ")
    oracle = CoreOracle(zzz)
    proof = oracle.ask([0, 3])  # 1A and 1D must both be ZZZ: no word twice
    assert proof.status is FillStatus.UNFILLABLE and proof.used_slot_ids == frozenset({0, 3})
    bigger = oracle.ask([0, 1, 3])
    assert bigger.status is FillStatus.UNFILLABLE and not bigger.is_new and oracle.n_calls == 1


def test_a_stopped_oracle_searches_no_more():
    problem = random_problem(0)
    abort = threading.Event()
    abort.set()
    oracle = CoreOracle(problem, abort=abort)
    assert oracle.ask([0, 1]).status is FillStatus.ABORTED and oracle.n_calls == 0
    oracle = CoreOracle(problem, deadline=time.perf_counter() - 1)
    assert oracle.remaining_s() == 0.0 and oracle.is_stopped()
    assert oracle.ask([0, 1]).status is FillStatus.LIMIT and oracle.n_calls == 0
    assert CoreOracle(problem).remaining_s() is None


def test_an_answer_without_a_fill_has_no_entries():
    with pytest.raises(ValueError, match="unfillable answer has no entries"):
        _ = Answer(FillStatus.UNFILLABLE).fill
    assert Answer(FillStatus.FILLED, {0: "CAT"}).fill == {0: "CAT"}


def test_extend_finds_a_word_fitting_every_crossing_and_not_yet_used():
    problem = compile_problem(parse_grid("...\n...\n...\n"), words_from_pairs(SQUARE_PAIRS), min_score=0)
    id_by_name = {slot.name: slot.id for slot in problem.slots}
    oracle = CoreOracle(problem)
    across = {id_by_name["1A"]: "ACE", id_by_name["4A"]: "TAN", id_by_name["5A"]: "ERE"}
    assert oracle.extend(across, id_by_name["1D"]) == "ATE"  # A-T-E down the first column
    assert oracle.extend(across, id_by_name["2D"]) == "CAR"
    assert oracle.extend({**across, id_by_name["3D"]: "ATE"}, id_by_name["1D"]) is None  # ATE is taken
    assert oracle.extend({id_by_name["1A"]: "ACE"}, id_by_name["1D"]) == "ATE"  # the only listed A..
    assert oracle.extend({id_by_name["1A"]: "TAN"}, id_by_name["1D"]) is None  # no listed T.. but TAN


def test_fill_slots_of_no_slots_is_filled_and_of_some_slots_gives_their_entries():
    problem = random_problem(1)
    assert fill_slots(problem, []) == (FillStatus.FILLED, {})
    for backend in ("backtrack", "auto"):
        slot_ids = [slot.id for slot in problem.slots][:2]
        status, entry_by_slot = fill_slots(problem, slot_ids, backend)
        assert status is fill_status(problem, slot_ids, backend)
        assert status is fill(sub_problem(problem, slot_ids), "backtrack").status
        if status is FillStatus.FILLED:
            assert sorted(entry_by_slot) == slot_ids
