"""xwcp/engine/wide.py: numpy arc consistency reaches the compiled kernel's fixpoint, and says when the kernel
takes an alphabet."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.backends.alphabets import pack, planted
from xwcp.compile.problem import compile_problem
from xwcp.engine.kernel import MAX_LETTERS, Engine
from xwcp.engine.wide import WideEngine, kernel_refusal, kernel_takes
from xwcp.model import parse_grid, read_grid
from xwcp.words.wordlist import words_from_pairs

MODELS = Path(__file__).parents[2] / "models"


@pytest.mark.parametrize("grid_name", ["5x5-open.txt", "7x7-mini.txt", "11x11-01.txt", "4x4-unfillable.txt"])
def test_the_fixpoint_is_the_compiled_kernels(grid_name, default_words):
    problem = compile_problem(read_grid(MODELS / grid_name), default_words)
    kernel, wide = Engine(problem), WideEngine(problem)
    is_consistent = kernel.propagate_all()
    assert wide.propagate_all() is is_consistent
    assert wide.slot_ids == kernel.slot_ids and list(wide.kernel_index) == list(kernel.kernel_index)
    if not is_consistent:
        assert wide.wipeout_slot_id is not None and wide.cause_chain(wide.wipeout_slot_id)[0] == wide.wipeout_slot_id
        return
    for slot_id in kernel.slot_ids:
        assert np.array_equal(wide.domain(slot_id), kernel.domain(slot_id)), problem.slots[slot_id].name
        assert wide.domain_size(slot_id) == kernel.domain_size(slot_id)
        assert np.array_equal(wide.letter_counts(slot_id), kernel.letter_counts(slot_id))


@pytest.mark.parametrize(
    "words, grid_text",
    [
        (["AB", "BA", "AA"], "A.\n..\n"),  # four 2-letter slots share three words
        (["ABC", "BCA", "CAB", "AAA"], "A..\n...\n...\n"),
        (["AB", "BA"], "..\n..\n"),  # only the search can prove it (test_backends): AC keeps all
    ],
)
def test_few_words_shared_by_slots_of_one_length_give_the_kernels_fixpoint(words, grid_text):
    problem = compile_problem(parse_grid(grid_text), words_from_pairs(words), min_score=0)
    wide, kernel = WideEngine(problem), Engine(problem)
    is_consistent = kernel.propagate_all()
    assert wide.propagate_all() is is_consistent
    for slot_id in kernel.slot_ids if is_consistent else ():
        assert np.array_equal(wide.domain(slot_id), kernel.domain(slot_id)), problem.slots[slot_id].name


def test_probe_answers_as_the_compiled_search_does(default_words):
    """Singleton consistency (suggestions) for an alphabet the kernels do not take: `WideEngine.probe` gives
    `BitSearch.probe`'s outcome for every word (survives, is not live, or empties a slot), from the same root."""
    from xwcp.analysis.probe import probe_engine
    from xwcp.engine.ac3 import propagate
    from xwcp.engine.kernel import PROBE_NOT_LIVE

    grid = read_grid(MODELS / "7x7-mini.txt")
    cells = list(grid.cells)
    cells[14], cells[20] = "J", "Z"  # letters typed in row 3: some words now empty a slot
    problem = compile_problem(type(grid)(grid.width, grid.height, tuple(cells)), default_words)
    prop = propagate(problem)
    kernel, wide = probe_engine(problem, prop), WideEngine(problem, prop.domains)
    outcomes = set()
    for slot in problem.slots[:6]:
        ids = np.flatnonzero(prop.domains[slot.id])[:80]
        ids = np.append(ids, np.flatnonzero(~prop.domains[slot.id])[:2])  # and two words not live there
        expected, got = kernel.probe(slot.id, ids).tolist(), wide.probe(slot.id, ids).tolist()
        # the same words survive, are not live, or empty a slot (which slot empties first depends on the order)
        assert [min(o, 0) for o in got] == [min(o, 0) for o in expected], slot.name
        outcomes |= {min(o, 0) for o in got}
        assert np.array_equal(wide.domain(slot.id), prop.domains[slot.id])  # each probe undone
    assert outcomes == {-1, PROBE_NOT_LIVE, 0}  # not vacuous: survivors, words not live, and words emptying a slot
    assert wide.probe(problem.slots[0].id, np.flatnonzero(prop.domains[problem.slots[0].id]), 1e-9).size >= 1


def test_kernel_takes_says_which_alphabets_run_on_the_compiled_search():
    for code, size in (("en", 26), ("es", 27), ("el", 24), ("x64", 64), ("x80", 80)):
        problem = planted(pack(code), ("...", "...", "..."), n_decoys=2)[0]
        assert problem.alphabet.size == size
        assert kernel_takes(problem) is (size <= MAX_LETTERS)
        if size == 80:
            message = kernel_refusal(problem, "backtrack")
            assert "backtrack" in message and "80" in message and "cpsat" in message and "\n" not in message


def test_a_region_fill_keeps_the_kernels_fixpoint_past_a_skipped_slot(default_words):
    """A diagonal's cells are each in three slots (across, down, the diagonal); a region fill of rows 1-2 skips
    rows 3-5's across slots, and the kernel links the down and diagonal slots of a cell past the skipped one
    (`kernel.slot_layout`): the numpy engine must too, or the diagonal never narrows the down slots there."""
    from xwcp.compile.controls import Controls

    grid = parse_grid("; entry: DIAG = 1,1 2,2 3,3 4,4 5,5\nQ....\n.....\n.....\n.....\n.....\n")
    problem = compile_problem(grid, default_words, controls=Controls(region=(1, 1, 2, 5)))
    assert problem.skipped_slot_ids and not problem.is_pairwise
    kernel, wide = Engine(problem), WideEngine(problem)
    assert kernel.propagate_all() and wide.propagate_all()
    for slot_id in kernel.slot_ids:
        assert np.array_equal(wide.domain(slot_id), kernel.domain(slot_id)), problem.slots[slot_id].name
