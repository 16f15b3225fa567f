"""`xwcp.words.folding.word_folder` folds every word exactly as the pack's own `Alphabet.fold_word` does."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import xwcp
from xwcp.model.alphabet import CUT, load_alphabet
from xwcp.words.folding import word_folder

PACKS = sorted(path.stem for path in (Path(xwcp.__file__).parent / "model" / "languages").glob("*.json"))
OTHERS = "aZ9-' .éßÄöñçЖёΆςיםİıĳ\u0301\u00a0" + CUT
"""Characters of other packs, marks, digits, spaces and the cut: words that fold, fold otherwise, or not at all."""


@pytest.mark.parametrize("code", PACKS)
def test_the_fast_fold_is_the_pack_s_own_fold(code):
    alphabet = load_alphabet(code)
    fold = word_folder(alphabet)
    letters = "".join(alphabet.letters)
    pool = letters + letters.lower() + "".join(alphabet.fold) + alphabet.drop + OTHERS
    chooser = random.Random(code)
    words = ["".join(chooser.choice(pool) for _ in range(chooser.randint(1, 9))) for _ in range(3000)]
    words += [letter + CUT + letter for letter in alphabet.letters] + ["", CUT, "-"]
    differ = [(word, fold(word), alphabet.fold_word(word)) for word in words if fold(word) != alphabet.fold_word(word)]
    assert differ == []
    assert sum(alphabet.fold_word(word) is not None for word in words) > 100  # the words test folding, not refusal
