"""A grid's typed letters fold exactly as its language's word lists fold them (xwcp/model/text.py with
`Alphabet.folded_cell`): Greek ά is Α, Russian ё is Е, German ß is the rebus cell [SS] with one warning line."""

from __future__ import annotations

import unicodedata

import pytest

import xwcp
from xwcp.base.errors import InputError
from xwcp.engine.result import check_fill
from xwcp.model.alphabet import load_alphabet, shipped_alphabets
from xwcp.model.text import parse_grid

MARKS = "\u0300\u0301\u0302\u0303\u0304\u0306\u0307\u0308\u030a\u030b\u030c\u0327\u0328\u0342\u0345"
"""Combining marks put on each letter of a pack to find the characters its list reader folds."""


def _list_folded_chars(alphabet):
    """Every character (upper and lower case) the pack's list reader folds into letters though it is no letter
    itself: its fold map's keys, and each letter with a mark (Ά, ё, É) that `fold_word` takes."""
    found = set()
    for variant in alphabet.fold:
        found.update({variant, variant.lower()})
    for letter in alphabet.letters:
        if len(letter) != 1:
            continue
        for mark in MARKS:
            composed = unicodedata.normalize("NFC", letter + mark)
            if len(composed) == 1:
                found.update({composed, composed.lower()})
    return sorted(
        ch
        for ch in found
        if len(ch) == 1 and ch.isalpha() and alphabet.fold_word(ch) is not None and alphabet.index(ch) is None
    )


PACKS = [a for a in shipped_alphabets() if not a.is_ascii and not a.segment]


@pytest.mark.parametrize("alphabet", PACKS, ids=lambda a: a.code)
def test_every_character_a_list_folds_a_grid_folds_the_same(alphabet):
    chars = _list_folded_chars(alphabet)
    if alphabet.code in ("el", "ru", "de"):
        assert chars, alphabet.code  # the cases the check is for are among them
    for ch in chars:
        notes: list[str] = []
        grid = parse_grid(f"{ch}.\n..\n", "g.txt", alphabet, notes)
        assert grid.cells[0] == alphabet.fold_word(ch), (alphabet.code, ch)
        assert alphabet.typed_word(ch).word == grid.cells[0], (alphabet.code, ch)  # a typed word reads it alike
        assert len(notes) == (len(grid.cells[0]) > 1), (ch, notes)  # one line for a rebus made, none else
        assert parse_grid(f"[{ch}].\n..\n", "g.txt", alphabet).cells[0] == alphabet.fold_word(ch)


def test_greek_tonos_russian_yo_and_a_decomposed_accent_fold_silently():
    notes: list[str] = []
    greek = parse_grid("; language: el\nάνθος\n.....\n", "g.txt", notes=notes)
    assert greek.cells[:5] == tuple("ΑΝΘΟΣ") and notes == []
    assert parse_grid("α\u0301ϊ\n..\n", "g.txt", load_alphabet("el")).cells[:2] == ("Α", "Ι")
    assert parse_grid("[α\u0301ν].\n..\n", "g.txt", load_alphabet("el")).cells[0] == "ΑΝ"
    russian = parse_grid("; language: ru\nёж\n..\n", "g.txt", notes=notes)
    assert russian.cells[:2] == ("Е", "Ж") and notes == []
    with pytest.raises(InputError, match="'Q' is not a letter of Greek"):  # a fold to no letter: refused
        parse_grid("; language: el\nQ.\n..\n", "g.txt")
    with pytest.raises(InputError, match="'ж' is not a letter of German"):
        parse_grid("; language: de\nж.\n..\n", "g.txt")


def test_german_sharp_s_is_a_rebus_cell_said_in_one_line():
    notes: list[str] = []
    grid = parse_grid("; language: de\nMaß\n...\nßß.\n", "g.txt", notes=notes)
    assert grid.cells[:3] == ("M", "A", "SS") and grid.cells[6:8] == ("SS", "SS")
    assert len(notes) == 1
    assert "'ß' is SS in German word lists" in notes[0] and "rebus cell [SS]" in notes[0]
    assert "row 1, column 3 and 2 more" in notes[0]


@pytest.fixture()
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))


@pytest.mark.usefixtures("_cache")
@pytest.mark.parametrize(
    ("text", "words", "rows"),
    [
        ("; language: el\nά.\nν.\n", {"άν": 50, "αβ": 50, "νε": 50, "βε": 50}, ["ΑΒ", "ΝΕ"]),
        ("; language: ru\nё.\nж.\n", {"ёж": 50, "ел": 50, "жа": 50, "ла": 50}, ["ЕЛ", "ЖА"]),
    ],
)
def test_the_library_fills_a_grid_with_folded_letters(text, words, rows):
    session = xwcp.Session(text, words=words)
    answer = session.fill(time_limit_s=30)
    assert answer.status is xwcp.FillStatus.FILLED and answer.rows == rows
    assert check_fill(session.problem, tuple(e.word for e in answer.fills[0].entries)) == []


@pytest.mark.usefixtures("_cache")
def test_the_library_fills_around_a_sharp_s_rebus_and_warns_once():
    words = {"Maß": 50, "ME": 50, "AN": 50, "SSO": 50, "ENO": 50}
    with pytest.warns(UserWarning, match=r"'ß' is SS in German word lists.*\[SS\]") as said:
        session = xwcp.Session("; language: de\nMaß\n...\n", words=words)
    assert len([w for w in said if "ß" in str(w.message)]) == 1
    answer = session.fill(time_limit_s=30)
    assert answer.status is xwcp.FillStatus.FILLED
    assert answer.entries_by_name == {"1A": "MASS", "4A": "ENO", "1D": "ME", "2D": "AN", "3D": "SSO"}
    assert check_fill(session.problem, tuple(e.word for e in answer.fills[0].entries)) == []
