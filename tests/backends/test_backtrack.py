"""Our compiled word-branching search (`xwcp.backends.backtrack`): restarts and nogoods keep proofs exact; a seed fixes the fill."""

from __future__ import annotations

import pytest

from tests.backends.test_backends import RESTART_SEEDS, assert_valid, restart_runs
from xwcp.backends import fill
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.model import parse_grid


@pytest.mark.parametrize("seed", RESTART_SEEDS)
def test_restarts_and_nogoods_keep_proofs_exact(seed):
    """Restarting after every failure (so nogoods are recorded and used constantly) never
    changes whether a fill exists, and every fill found is valid."""
    problem, n_fills, results = restart_runs(seed)
    for result in results:
        assert result.status is (FillStatus.FILLED if n_fills else FillStatus.UNFILLABLE)
        if result.entries:
            assert check_fill(problem, result.entries) == []


def test_restart_test_is_not_vacuous():
    """The runs above do restart a lot, and both outcomes occur (computed here if not yet run)."""
    results = [result for seed in RESTART_SEEDS for result in restart_runs(seed)[2]]
    assert sum(r.stats.restarts for r in results) > 200
    statuses = [r.status for r in results]
    assert statuses.count(FillStatus.UNFILLABLE) > 10 and statuses.count(FillStatus.FILLED) > 10


def test_backtrack_is_deterministic_for_a_seed(default_words):
    problem = compile_problem(
        parse_grid(
            "\n".join(
                [
                    "....#......",
                    "....#......",
                    "...........",
                    "...#...#...",
                    "......#....",
                    "###.....###",
                    "....#......",
                    "...#...#...",
                    "...........",
                    "......#....",
                    "......#....",
                ]
            )
        ),
        default_words,
    )
    first = fill(problem, "backtrack", Limits(seed=3, time_limit_s=30))
    again = fill(problem, "backtrack", Limits(seed=3, time_limit_s=30))
    assert_valid(problem, first)
    assert first.entries == again.entries
    assert first.stats.nodes == again.stats.nodes


@pytest.mark.parametrize("n_letters", [33, 64])
def test_progress_letters_beyond_26_read_the_alphabet(n_letters):
    """A letter decision is -(1 + pos * K + letter) with K the alphabet's size: the progress display's letters
    (`_branch_letters`) are the fill's own letters at those cells, beyond Z too."""
    import random

    from tests.engine.alphabets import alphabet_of, shape
    from xwcp.backends._common import entries_from_word_ids
    from xwcp.backends.backtrack import _branch_letters
    from xwcp.engine import kernel
    from xwcp.engine.plain_kernel import bit_search
    from xwcp.words.wordlist import build_word_list

    alphabet = alphabet_of(n_letters)
    rng = random.Random(n_letters)
    letter_decisions = high = 0
    for index in range(12):
        grid = shape(index)
        chars = alphabet.chars[26:][:6]
        words = {"".join(rng.choice(chars) for _ in range(length)): 50 for length in (4, 5) for _ in range(400)}
        problem = compile_problem(grid, build_word_list(words, "<test>", alphabet=alphabet), min_score=0)
        engine = bit_search(problem)
        if not engine.is_consistent:
            continue
        engine.configure(seed=index, restart_base=0, noise=0.2, score_weight=0.05, branch="letter")
        if engine.search(10.0) != kernel.SOLVED:
            continue
        entries = entries_from_word_ids(problem, engine.solution_word_ids())
        assert check_fill(problem, entries) == []
        letter_by_cell = {
            cell: letter for slot, entry in zip(problem.slots, entries) for cell, letter in zip(slot.cells, entry)
        }
        shown = _branch_letters(problem, engine)
        assert shown and all(letter_by_cell[cell] == letter for cell, letter in shown.items())
        letter_decisions += sum(value < 0 for _, value in engine.decisions())
        high += sum(alphabet.index(letter) >= 26 for letter in shown.values())
    assert letter_decisions >= 5 and high >= 5
