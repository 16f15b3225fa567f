"""The numpy-free kernel (xwcp/engine/plain_kernel.py): it knows the C state, so a small fill needs no numpy
(the quick path's answers: tests/services/test_quick.py)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.engine.alphabets import alphabet_of, shape
from xwcp.compile.problem import compile_problem, compile_structure, plain_problem
from xwcp.engine import kernel, plain_kernel
from xwcp.words.wordlist import load_word_list, read_mapped_word_list


def test_plain_search_knows_the_c_state():
    """If this fails, the C state grew a pointer: PlainBitSearch or PlainEngine (xwcp/engine/plain_kernel.py)
    must fill the new array as BitSearch or Engine does, or every small fill takes the numpy path again."""
    assert plain_kernel.plain_search_supported()


@pytest.mark.parametrize("n_letters", [33, 64])
def test_plain_kernels_beyond_26_letters_match_the_numpy_ones(n_letters, tmp_path):
    """A list of a 33- or 64-letter alphabet read from its memory-mapped cache: PlainBitSearch searches as
    BitSearch does (same nodes, same fill) and PlainEngine counts letters as Engine does, in K columns."""
    alphabet = alphabet_of(n_letters)
    rng = random.Random(n_letters)
    chars = alphabet.chars[20:]  # the last six of A-Z and every letter beyond
    words = {
        "".join(rng.choice(chars[:8]) for _ in range(length)): rng.randint(30, 100)
        for length, count in ((2, 40), (3, 200), (4, 900), (5, 900))
        for _ in range(count)
    }
    path = tmp_path / "words.txt"
    path.write_text("".join(f"{word};{score}\n" for word, score in sorted(words.items())), encoding="utf-8")
    ordinary_words = load_word_list(path, alphabet=alphabet)  # compiles and caches the list
    mapped = read_mapped_word_list(path, alphabet)
    assert mapped is not None and ordinary_words.alphabet.size == n_letters
    solved = 0
    for index in range(5):
        grid = shape(index)
        plain = plain_problem(compile_structure(grid, mapped, min_score=0))
        ordinary = compile_problem(grid, ordinary_words, min_score=0)
        assert kernel.is_plain(plain) and not kernel.is_plain(ordinary)
        engines = [plain_kernel.PlainEngine(plain), kernel.Engine(ordinary)]
        assert [e.propagate_all() for e in engines] == [True, True]
        for slot in ordinary.slots:
            counts = [e.letter_counts(slot.id) for e in engines]
            assert counts[0].shape == (slot.length, n_letters)
            assert np.array_equal(counts[0], counts[1])
        for branch in ("word", "letter"):
            runs = []
            for search in (plain_kernel.PlainBitSearch(plain), kernel.BitSearch(ordinary)):
                search.configure(seed=index, restart_base=20, noise=0.2, score_weight=0.05, branch=branch)
                code = search.search(10.0)
                runs.append((code, search.stats, search.solution_word_ids() if code == kernel.SOLVED else None))
            assert runs[0] == runs[1]
            solved += runs[0][0] == kernel.SOLVED
    assert solved >= 3
