"""A fill in every shipped language pack, checked cell by cell against the pack's written letters (issue 36)."""

from __future__ import annotations

import random

import pytest

import xwcp
from tests.helpers import check_written_fill, hindi_ring
from xwcp.model.alphabet import shipped_alphabets

PACKS = [alphabet for alphabet in shipped_alphabets() if alphabet.code != "en"]


def word_square(letters: list[str], seed: int) -> tuple[list[list[str]], list[str]]:
    """A 3x3 block of letters (the pack's own beyond A-Z first) whose 3 rows and 3 columns are 6 different words,
    each written with '+' between its cells (how a list says where a Welsh word is cut)."""
    rng = random.Random(seed)
    special = [x for x in letters if not (len(x) == 1 and "A" <= x <= "Z")] or letters
    while True:
        rows = [[rng.choice(special if (r + c) % 2 == 0 else letters) for c in range(3)] for r in range(3)]
        words = ["+".join(row) for row in rows] + ["+".join(rows[r][c] for r in range(3)) for c in range(3)]
        if len({word.replace("+", "") for word in words}) == 6:
            return rows, words


@pytest.mark.parametrize("alphabet", PACKS, ids=[a.code for a in PACKS])
def test_a_pack_fills_a_small_grid_with_its_own_letters(alphabet, tmp_path) -> None:
    rows, words = word_square(list(alphabet.letters), seed=len(alphabet.code) * 7 + alphabet.size)
    listed = tmp_path / f"{alphabet.code}.dict"
    listed.write_text("".join(f"{word};60\n" for word in words), "utf-8")
    grid = tmp_path / "grid.txt"
    grid.write_text("...\n...\n...\n", "utf-8")
    answer = xwcp.fill(str(grid), language=alphabet.code, words=str(listed))
    assert answer.status is xwcp.FillStatus.FILLED, answer
    cells = answer.as_dict()["cells"]
    finals = {alphabet.cell_text(char): form for char, form in alphabet.final.items()}
    assert check_written_fill(cells, {word.replace("+", "") for word in words}, alphabet.letters, finals=finals) == []
    letter_by_form = {form: letter for letter, form in finals.items()}
    plain = [[letter_by_form.get(cell, cell) for cell in row] for row in cells]
    assert plain in (rows, [list(col) for col in zip(*rows)])  # the square or its mirror: nothing else is listed


def test_hindi_beyond_the_kernels_letters_suggests_and_labels(tmp_path) -> None:
    """A Hindi list of some 170 aksharas (more than the compiled kernels' 64): suggestions probe and label on
    numpy and CP-SAT (the kernels raised here before), and the words come back as written."""
    ring, text = hindi_ring()
    listed = tmp_path / "hi.dict"
    listed.write_text(text, "utf-8")
    grid = tmp_path / "ring.txt"
    grid.write_text(f"{ring[0][0]}..\n.#.\n...\n", "utf-8")
    got = xwcp.suggest(str(grid), "1A", language="hi", words=str(listed), verify=True, time_limit_s=20)
    by_word = {s.word: s.verdict for s in got}
    assert by_word["".join(ring[0])] is xwcp.Viability.VIABLE
    assert all(word.startswith(ring[0][0]) for word in by_word)
