"""The minimal core: the slots that cannot be filled together, each one needed, found by every backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.engine.test_ac3 import SPIRAL, SPIRAL_WORDS
from xwcp import compile_problem, load_word_list, parse_grid, read_grid, words_from_pairs
from xwcp.backends import available_backends, fill
from xwcp.backends.core_oracle import sub_problem
from xwcp.base.types import FillStatus
from xwcp.cli.commands import main
from xwcp.engine.ac3 import propagate
from xwcp.engine.result import Limits, check_fill
from xwcp.search.core import CoreKind, explain, find_core

ROOT = Path(__file__).resolve().parents[2]
ORACLES = [name for name in ("backtrack", "cpsat", "sat") if name in available_backends()]


def _other(backend: str) -> str:
    """A different backend to check a core with (SAT checks the compiled search, and vice versa)."""
    others = [name for name in ORACLES if name != backend]
    return others[0] if others else backend


def assert_minimal_core(problem, slot_ids, checker: str) -> None:
    """The core cannot be filled, and dropping any one slot leaves a fillable rest (every fill validated)."""
    whole = sub_problem(problem, slot_ids)
    assert fill(whole, checker, Limits(time_limit_s=60)).status is FillStatus.UNFILLABLE
    for dropped in slot_ids:
        rest = sub_problem(problem, [s for s in slot_ids if s != dropped])
        result = fill(rest, checker, Limits(time_limit_s=60))
        assert result.status is FillStatus.FILLED, f"dropping {problem.slots[dropped].name} leaves it unfillable"
        assert check_fill(rest, result.entries) == []


def names(problem, slot_ids) -> set[str]:
    return {problem.slots[s].name for s in slot_ids}


@pytest.fixture(scope="module")
def four_by_four():
    return compile_problem(read_grid(ROOT / "models" / "4x4-unfillable.txt"), load_word_list())


def test_4x4_core_is_exactly_the_last_row_and_column(four_by_four):
    core = explain(four_by_four)
    assert core is not None and core.search is not None and set(core.slots) == {"7A", "4D"}
    assert core.is_minimal is True and core.search.kind is CoreKind.NO_COMMON_LETTER
    assert core.cells == ((0, 3), (1, 3), (2, 3), (3, 0), (3, 1), (3, 2), (3, 3))
    assert dict(core.patterns) == {"7A": "WOR.", "4D": "ZER."}
    ids = [four_by_four.slot_by_name(n).id for n in core.slots]
    assert_minimal_core(four_by_four, ids, _other("backtrack"))


@pytest.mark.parametrize("backend", ORACLES)
def test_spiral_core_is_all_six_slots_with_every_backend(backend):
    problem = compile_problem(parse_grid(SPIRAL), words_from_pairs(SPIRAL_WORDS), min_score=0)
    core = find_core(problem, backend=backend, time_limit_s=60, seed_slot_ids=[problem.slot_by_name("4D").id])
    assert core is not None and core.is_minimal and core.backend == backend
    assert names(problem, core.slot_ids) == {"1A", "2D", "5A", "3D", "3A", "4D"}
    assert core.kind is CoreKind.GROUP
    assert_minimal_core(problem, core.slot_ids, _other(backend))


@pytest.mark.parametrize("backend", ORACLES)
def test_search_proven_core_with_every_backend(backend):
    # Three crossing-free 3-letter slots and two words: AC-3 sees nothing wrong (each slot has two
    # words), only search proves that no word twice cannot hold. The fourth slot is a bystander.
    grid = "...\n###\n...\n###\n...\n###\n..#\n"
    problem = compile_problem(parse_grid(grid), words_from_pairs(["CAT", "DOG", "AB"]), min_score=0)
    assert propagate(problem).is_consistent
    result = fill(problem, backend)
    assert result.status is FillStatus.UNFILLABLE
    core = find_core(
        problem, backend=backend, time_limit_s=60, seed_slot_ids=[] if result.slot_id is None else [result.slot_id]
    )
    assert core is not None and core.is_minimal
    assert names(problem, core.slot_ids) == {"1A", "2A", "3A"} and core.kind is CoreKind.GROUP
    assert_minimal_core(problem, core.slot_ids, _other(backend))


@pytest.mark.parametrize("backend", ORACLES)
def test_slot_with_no_word_at_all(backend):
    # No listed word starts QZ, while every other slot has words.
    problem = compile_problem(
        parse_grid("QZ..\n....\n"), words_from_pairs(["ABCD", "QXAB", "AB", "ZC", "EF"]), min_score=0
    )
    core = explain(problem, backend=backend)
    assert core is not None and core.search is not None
    assert core.slots == ("1A",) and core.search.kind is CoreKind.NO_WORD and core.is_minimal
    assert "has no word at all" in core.message


def test_two_slots_that_do_not_cross_are_a_group_not_a_crossing():
    problem = compile_problem(parse_grid("...\n###\n...\n"), words_from_pairs(["CAT"]), min_score=0)
    core = explain(problem)
    assert core is not None and core.search is not None
    assert set(core.slots) == {"1A", "2A"} and core.search.kind is CoreKind.GROUP
    assert "these 2 slots cannot be filled together" in core.message


def test_fillable_problem_has_no_core():
    problem = compile_problem(parse_grid("..\n..\n"), words_from_pairs(["AB", "CD", "AC", "BD"]), min_score=0)
    assert find_core(problem) is None


def test_time_limit_cut_short_is_not_called_minimal(four_by_four):
    core = find_core(four_by_four, time_limit_s=1e-9, seed_slot_ids=[0])
    assert core is None or not core.is_minimal


def test_check_and_fill_report_the_core(capsys):
    grid = str(ROOT / "models" / "4x4-unfillable.txt")
    for command in (["check"], ["fill"]):
        assert main([*command, grid, "--format", "json"]) == 1
        core = json.loads(capsys.readouterr().out)["core"]
        assert set(core["slots"]) == {"7A", "4D"} and core["minimal"] is True
        assert [3, 0] in core["cells"] and [0, 3] in core["cells"] and len(core["cells"]) == 7
        assert main([*command, grid]) == 1
        text = capsys.readouterr().out
        assert "7A (WOR.) and 4D (ZER.) cross" in text and "*W*O*R*." in text
        assert "    7A  WOR." in text and "    4D  ZER." in text


def test_check_reports_the_core_of_a_grid_only_search_proves_unfillable(tmp_path, capsys):
    grid = tmp_path / "g.txt"
    grid.write_text("...\n###\n...\n###\n...\n")
    words = tmp_path / "w.txt"
    words.write_text("CAT\nDOG\n")
    assert main(["check", str(grid), "--words", str(words), "--min-score", "0", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ac3"] == "consistent" and data["proof"] == "search"
    assert data["core"]["slots"] == ["1A", "2A", "3A"] and data["core"]["kind"] == "group"
    assert "these 3 slots cannot be filled together, though any 2 of them can" in data["core"]["message"]


def test_core_of_an_alphabet_the_compiled_search_does_not_take_is_found_on_cpsat():
    # the Spanish corner clash written in the last 27 letters of an 80-letter pack (more than the compiled
    # search's tables hold): the default oracle (backtrack) becomes cpsat, AC-3 runs in numpy (xwcp.engine.wide)
    from tests.backends.alphabets import pack
    from tests.backends.test_backends import SPANISH_CORNER, SPANISH_CORNER_WORDS
    from xwcp.model import make_grid

    x80, es = pack("x80"), pack("es")
    relabel = str.maketrans(es.chars, x80.chars[-27:])
    grid = make_grid(4, 4, [ch.translate(relabel) for row in SPANISH_CORNER for ch in row])
    words = words_from_pairs([(w.translate(relabel), 50) for w in SPANISH_CORNER_WORDS], alphabet=x80)
    problem = compile_problem(grid, words, min_score=0)
    corner = {s.id for s in problem.slots if s.cells in ((12, 13, 14, 15), (3, 7, 11, 15))}
    core = find_core(problem)
    assert core is not None and set(core.slot_ids) == corner and core.is_minimal and core.backend == "cpsat"
    explained = explain(problem)
    assert explained is not None and set(explained.slots) == {problem.slots[s].name for s in corner}
