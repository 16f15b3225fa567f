"""Problems over other alphabets for the backend tests: a fill planted in a pack's letters among near-miss words."""

from __future__ import annotations

import random

from xwcp.compile.problem import compile_problem
from xwcp.model import make_grid
from xwcp.model.alphabet import alphabet_from_data, load_alphabet
from xwcp.words.wordlist import words_from_pairs

SYNTHETIC_64 = alphabet_from_data(
    {
        "code": "x64",
        "name": "Synthetic 64",
        "letters": [chr(0x410 + i) for i in range(32)]
        + [chr(0x391 + i) for i in range(17)]
        + [chr(0x3A3 + i) for i in range(7)]
        + ["Ä", "Ö", "Ü", "Å", "Ø", "Æ", "Ñ", "Ç"],
    },
    "test",
)
"""64 letters (Cyrillic, Greek, Latin with marks): the most the compiled search takes."""
SYNTHETIC_80 = alphabet_from_data(
    {
        "code": "x80",
        "name": "Synthetic 80",
        "letters": [chr(0x10A0 + i) for i in range(38)]
        + [chr(0x410 + i) for i in range(32)]
        + [chr(0x391 + i) for i in range(10)],
    },
    "test",
)
"""80 letters (Georgian, Cyrillic, Greek): more than the compiled search takes, as an akshara pack has."""

AKSHARA_70 = alphabet_from_data(
    {
        "code": "xak",
        "name": "Synthetic akshara",
        "letters": [chr(0x915 + i) + sign for sign in ("", "\u093e", "\u093f") for i in range(37)][:70],
    },
    "test",
)
"""70 Devanagari aksharas (a consonant, or with the vowel sign ा or ि: two code points, one cell, a private-use code
char each inside xwcp), as a Hindi pack has: more than the compiled search takes."""


def pack(code):
    return {"x64": SYNTHETIC_64, "x80": SYNTHETIC_80, "xak": AKSHARA_70}.get(code) or load_alphabet(code)


def high_letters(alphabet, n=8):
    """`n` letters English never has: its letters outside A-Z first (Ñ), then its last ones (past the 26th when
    there are more)."""
    chars = alphabet.chars
    other = [ch for ch in chars if not ("A" <= ch <= "Z")]
    return "".join(dict.fromkeys(other[:1] + list(chars[-(n - 1) :])))


def planted(alphabet, rows, seed=0, n_decoys=30):
    """(problem, cells before, cells of the planted fill, listed words): `rows` ('#' block, '.' empty) filled at
    random from `high_letters`, its slots' words listed with `n_decoys` one-letter variants each (any letter of
    the alphabet), and the first white cell pre-filled with the first of `high_letters`."""
    rng = random.Random(seed)
    width, height = len(rows[0]), len(rows)
    pool = high_letters(alphabet)
    for _ in range(100):
        cells = [ch if ch == "#" else rng.choice(pool) for row in rows for ch in row]
        cells[next(i for i, ch in enumerate(cells) if ch != "#")] = pool[0]  # pre-filled below: Ñ in Spanish
        words = _slot_words(cells, width, height)
        if len(set(words)) == len(words):
            break
    listed = set(words)
    for word in words:
        for _ in range(n_decoys):
            i = rng.randrange(len(word))
            listed.add(word[:i] + rng.choice(alphabet.chars) + word[i + 1 :])
    first = next(i for i, ch in enumerate(cells) if ch != "#")
    before = ["#" if ch == "#" else "." for ch in cells]
    before[first] = cells[first]
    word_list = words_from_pairs([(alphabet.written(w), 50) for w in sorted(listed)], alphabet=alphabet)
    problem = compile_problem(make_grid(width, height, before), word_list, min_score=0)
    return problem, before, cells, sorted(listed)


def _slot_words(cells, width, height):
    from tests.helpers import _white_runs

    words = []
    for r in range(height):
        line = cells[r * width : (r + 1) * width]
        words += ["".join(line[a:b]) for a, b in _white_runs(line)]
    for c in range(width):
        line = cells[c::width]
        words += ["".join(line[a:b]) for a, b in _white_runs(line)]
    return words
