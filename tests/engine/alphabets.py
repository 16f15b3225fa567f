"""Synthetic alphabets of more than 26 letters for the engine's tests (issue 36), and lists and grids in them.

`alphabet_of(33)` is A-Z then seven more letters; `alphabet_of(64)` adds Greek and Cyrillic capitals up to 64
(every letter one code point, so a letter's code char is the letter itself). `shifted` maps English words onto
the LAST 26 letters of such an alphabet, keeping their order: the list sorts the same, so a search over it
makes the same choices as over the English list, while every letter code is different from English's and
most are beyond 25.
"""

from __future__ import annotations

import random

from xwcp.model import Grid, parse_grid
from xwcp.model.alphabet import Alphabet

ENGLISH_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
EXTRA_LETTERS = (
    "ÑÄÖÜÅØŁ"  # 33
    + "ΓΔΘΛΞΠΣΦΨΩ"  # Greek capitals that are not Latin look-alikes
    + "БГҐДЖЗИЙЛПФЦЧШЩЪЫЬЭЮЯ"
)  # Cyrillic likewise


def alphabet_of(n_letters: int) -> Alphabet:
    """An alphabet of `n_letters` (26..64) one-code-point letters: A-Z first, then EXTRA_LETTERS in order."""
    letters = (ENGLISH_LETTERS + EXTRA_LETTERS)[:n_letters]
    assert len(set(letters)) == n_letters == len(letters)
    return Alphabet(f"x{n_letters}", f"Test {n_letters}", tuple(letters))


def shifted(alphabet: Alphabet) -> dict[int, int]:
    """A-Z onto the last 26 letters of `alphabet`, in order (a str.maketrans table)."""
    return str.maketrans(ENGLISH_LETTERS, alphabet.chars[-26:])


def random_words(rng: random.Random, chars: str, lengths: tuple[int, ...], count: int) -> dict[str, int]:
    """About `count` random words over `chars` with scores 30..100."""
    return {"".join(rng.choice(chars) for _ in range(rng.choice(lengths))): rng.randint(30, 100) for _ in range(count)}


SHAPES = [
    "....\n....\n....\n....",
    ".....\n.....\n..#..\n.....\n.....",
    "#....\n.....\n.....\n.....\n....#",
    "...#\n....\n....\n#...",
    "....#\n.....\n.....\n#....",
]
"""Small grids whose slots all cross (every white cell checked), so dead ends travel (test_kernel's too)."""


def shape(index: int) -> Grid:
    return parse_grid(SHAPES[index % len(SHAPES)])
