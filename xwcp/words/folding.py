"""Fold millions of words through an alphabet fast: what `Alphabet.fold_word` gives, by tables of characters.

`fold_word` walks each word a character at a time in Python (about 35 microseconds a word: 100 s for the
3 million forms of a Hunspell expansion). Its steps are each a character's own business on NFC text (drop,
upper-case, take the letter or the pack's fold), but the longest-first cut into letters of several characters
(Hungarian CS, Dutch IJ): so a word in NFC is folded by one `str.translate` through a table filled from
`fold_word` of each character as it is first met, and, in a pack with letters of several characters, then cut by
one regular expression whose branches are the letters longest first. Any other word (not NFC, an open pack, the
English fold) goes to `fold_word` itself.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING

from xwcp.model.alphabet import CUT

if TYPE_CHECKING:
    from xwcp.model.alphabet import Alphabet

_NO_LETTER = "\x00"
"""What the table gives a character that is no letter and folds into none: the word folds into nothing."""


def word_folder(alphabet: Alphabet) -> Callable[[str], str | None]:
    """A function equal to `alphabet.fold_word` (see the module docstring)."""
    if alphabet.segment or alphabet.is_ascii:
        return alphabet.fold_word
    fold_word = alphabet.fold_word
    drop = set(alphabet.drop) | {CUT}
    if not alphabet.has_multi_letters:
        code_by_ord = _CharTable(lambda ch: "" if ch in drop else fold_word(ch) or _NO_LETTER)

        def fold_single(raw: str) -> str | None:
            if not raw.isascii() and not unicodedata.is_normalized("NFC", raw):
                return fold_word(raw)
            folded = raw.translate(code_by_ord)
            return folded if folded and _NO_LETTER not in folded else None

        return fold_single
    letters = sorted((letter for letter in alphabet.letters if len(letter) > 1), key=len, reverse=True)
    multi = re.compile("|".join(re.escape(letter) for letter in letters))
    code_by_multi = {letter: fold_word(letter) or _NO_LETTER for letter in letters}
    multi_codes = set(code_by_multi.values())
    upper_by_ord = _CharTable(lambda ch: CUT if ch == CUT else "" if ch in drop else alphabet.upper(ch))
    code_by_upper = _CharTable(lambda ch: "" if ch == CUT else ch if ch in multi_codes else fold_word(ch) or _NO_LETTER)

    def fold_multi(raw: str) -> str | None:
        if not raw.isascii() and (not unicodedata.is_normalized("NFC", raw) or not multi_codes.isdisjoint(raw)):
            return fold_word(raw)
        upper = multi.sub(lambda found: code_by_multi[found.group()], raw.translate(upper_by_ord))
        folded = upper.translate(code_by_upper)  # a cut only parts two letters (Welsh N+G): then it goes
        return folded if folded and _NO_LETTER not in folded else None

    return fold_multi


class _CharTable(dict[int, str]):
    """A `str.translate` table filled as characters are met: `make(ch)` gives a character's text once."""

    def __init__(self, make: Callable[[str], str]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, code_point: int) -> str:
        text = self[code_point] = self.make(chr(code_point))
        return text
