"""Split an answer into the words of the phrase it spells (ICECREAMCONE -> ICE CREAM CONE), saying where from.

Three sources, the first that knows the answer wins: the word list's own spacing (a list line `ICE CREAM CONE;60`
keeps its spaces here though the fill reads ICECREAMCONE), WordNet's lemma (`ice-cream_cone`), then the most
likely cut by word frequencies: the cut into known words whose pieces cost least, a piece costing PIECE_COST plus
how much rarer it is than MAX_ZIPF (wordfreq's Zipf scale, log10 of uses per billion words). Frequencies come from
wordfreq where it is installed (its data is read on this machine, never shipped), else from WordNet's sense counts.
Where neither is installed, the cut by the word list itself stands in (`list_cut`): its pieces are the list's own
entries (or `LITTLE_WORDS`) weighed by their scores, and the answer, itself an entry, stays whole unless its pieces
are clearly better. Measured against UKACD's spaced entries (bench/phrase_split_agreement.py), it finds the right
cut less often and cuts single words more often than the frequency cut, so it comes after it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path

from xwcp.words.dictionary import Dictionary, answer_key

PIECE_COST = 3.0
"""What each word of a cut costs, in Zipf units, on top of its rarity: CARPET (Zipf 4.2) stays whole rather than
CAR PET, while ICECREAM, unknown as one word, is cut."""
MAX_ZIPF = 8.0
"""The top of the Zipf scale ('the' is about 7.7): a piece's rarity is (MAX_ZIPF - its Zipf value)^2 / RARITY_SCALE,
squared so that one rare word (ALIE, 2.5) costs more than two common ones (A LIE)."""
RARITY_SCALE = 4.0
SINGLE_LETTER_WORDS = frozenset({"A", "I"})
"""The only one-letter pieces: the S of a plural is no word of its own."""
MIN_ZIPF_BY_LENGTH = {2: 4.5, 3: 3.0}
"""The least frequency a short piece needs to count as a word (OF, IN; ERA), so that an unknown word is not read as
letter pairs (SOLOPRENEUR is no SOLO PR EN EUR); longer pieces need MIN_ZIPF."""
MIN_ZIPF = 1.5
WHOLE_MIN_ZIPF = 3.0
"""An answer the dictionary lacks stays one word only when at least this common (STREETVIEW, 2.2, is cut)."""
DICTIONARY_WORD_ZIPF = 4.5
"""An answer the dictionary has as one word counts as at least this common: ATONE (2.9) is no AT ONE."""
MAX_PIECE_LETTERS = 20
"""Longest single word tried (longer answers are cut into pieces at most this long)."""


class SplitSource(Enum):
    """Where a phrase split came from."""

    LIST = "list"
    """The word list wrote the entry with spaces."""
    DICTIONARY = "dictionary"
    """WordNet has the phrase as one lemma."""
    FREQUENCY = "frequency"
    """Cut into the likeliest known words by word frequencies."""
    WORD_LIST = "word list"
    """Cut into the word list's own entries by their scores (`list_cut`)."""


@dataclass(frozen=True)
class PhraseSplit:
    """An answer's words, e.g. ('ICE', 'CREAM', 'CONE'), and where the split came from."""

    words: tuple[str, ...]
    source: SplitSource

    def text(self) -> str:
        """The words spaced, e.g. `ICE CREAM CONE`."""
        return " ".join(self.words)


Zipf = Callable[[str], float]
"""A word's frequency on the Zipf scale (0 for an unknown word), given the word in lower case."""
ScoreOf = Callable[[str], "int | None"]
"""A word list's score of a text (an answer key, A-Z for English), None when the list lacks it (`WordList.score`)."""

FUNCTION_WORDS = frozenset(
    "a an and are as at be but by for from has have he her his in is it its of on or she so than that the their "
    "them they this to was were with you your one ones who what which when where not no yes do does did".split()
)
"""Little words of phrases (lower case): inside a list cut they are a sign of a phrase (CALL THE SHOTS), and the stem
rule never counts them as a word two phrases share (ONEDAY and ONEWAY)."""
LITTLE_WORDS = frozenset(
    "a i am an as at be by do go he if in is it me my no of oh ok on or so to up us we".upper().split()
)
"""The pieces of one or two letters a list cut may use (word lists rarely carry them), scored LITTLE_WORD_SCORE."""
LITTLE_WORD_SCORE = 70
LIST_PIECE_COST = 1.0
"""What each piece of a list cut costs on top of its rarity. This and the four below are the best of a grid search
on half of UKACD's spaced and single-word entries found in the default list (bench/phrase_split_agreement.py)."""
LIST_RARITY_WEIGHT = 1.0
"""A piece's rarity is LIST_RARITY_WEIGHT * ((100 - its score) / 10)^2: a 90 costs 1, a 50 costs 25, so one
poorly scored piece outweighs several good ones (scores are read on the 0-100 scale, clamped to it)."""
LIST_SHORT_PIECE_COST = {1: 2.0, 2: 2.0, 3: 3.0}
"""Extra cost of a piece this short: short entries are where junk cuts come from (REM OVAL, SHA NICE)."""
LIST_WHOLE_BONUS = 8.0
"""What the answer as one piece costs on top of its own rarity: a listed answer is a word unless its pieces are
clearly better (CARPET 90 stays, CAR 80 PET 90; ATECROW 80 is ATE 80 CROW 90)."""
LIST_INNER_FUNCTION_BONUS = 4.0
"""A function word inside a cut (THE of CALLTHESHOTS) costs this much less."""


def wordfreq_zipf() -> Zipf | None:
    """wordfreq's English Zipf frequency when wordfreq is installed, else None."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:
        return None

    def zipf(word: str) -> float:
        return float(zipf_frequency(word, "en"))

    return zipf


def dictionary_zipf(dictionary: Dictionary) -> Zipf:
    """A stand-in frequency from WordNet: a one-word lemma or its inflection (PLANES) is a word, the more senses the
    commoner (2.5 .. 6)."""

    def zipf(word: str) -> float:
        senses = [s for s in dictionary.definitions(word) if " " not in s.lemma and "-" not in s.lemma]
        return 0.0 if not senses else min(6.0, 2.5 + math.log2(len(senses)))

    return zipf


def spacing_from_lines(lines: Iterable[str]) -> dict[str, str]:
    """Answer key -> the phrase as a word list writes it, for the list lines written with spaces or hyphens
    (`ICE CREAM CONE;60`, `ice-cream cone`); a line without them says nothing about spacing."""
    spaced: dict[str, str] = {}
    for line in lines:
        word = re.split(r"[;\t]", line, maxsplit=1)[0].strip()
        if " " in word or "-" in word:
            key = answer_key(word)
            if key:
                spaced.setdefault(key, word)
    return spaced


@lru_cache(maxsize=8)
def spacing_from_file(path: str, mtime_ns: int) -> Mapping[str, str]:
    """`spacing_from_lines` of a list file (UTF-8, else Latin-1), kept per file and modification time."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    return spacing_from_lines(text.splitlines())


def _words_of(phrase: str) -> tuple[str, ...]:
    return tuple(w for w in (answer_key(part) for part in re.split(r"[\s\-_/]+", phrase)) if w)


def split_answer(
    answer: str,
    *,
    spacing: Mapping[str, str] | None = None,
    dictionary: Dictionary | None = None,
    zipf: Zipf | None = None,
    score_of: ScoreOf | None = None,
) -> PhraseSplit | None:
    """The words `answer` spells, or None when it reads as one word (or as nothing known).

    Args:
        answer: the answer, any spelling (letters A-Z are kept).
        spacing: answer key -> the list's spaced spelling (`spacing_from_lines`).
        dictionary: WordNet, for its multiword lemmas (and its sense counts when `zipf` is None).
        zipf: word frequencies (default: wordfreq's when installed, else the dictionary's stand-in).
        score_of: the word list's scores, for the list cut (`list_cut`) when there are no word frequencies.
    """
    key = answer_key(answer)
    if not key:
        return None
    if spacing and key in spacing:
        words = _words_of(spacing[key])
        if len(words) > 1 and "".join(words) == key:
            return PhraseSplit(words, SplitSource.LIST)
    if dictionary is not None:
        for sense in dictionary.senses(key):
            words = _words_of(sense.lemma)
            if len(words) > 1 and "".join(words) == key:
                return PhraseSplit(words, SplitSource.DICTIONARY)
    if zipf is None:
        zipf = wordfreq_zipf() or (dictionary_zipf(dictionary) if dictionary is not None else None)
    if zipf is None:
        cut = list_cut(key, score_of) if score_of is not None else None
        return None if cut is None else PhraseSplit(cut, SplitSource.WORD_LIST)
    cut = _likeliest_cut(key, zipf, _one_word_lemma(dictionary))
    if cut is None or len(cut) < 2:
        return None
    return PhraseSplit(cut, SplitSource.FREQUENCY)


def _list_rarity(score: int) -> float:
    return LIST_RARITY_WEIGHT * ((100 - min(100, max(0, score))) / 10) ** 2


def list_cut(key: str, score_of: ScoreOf) -> tuple[str, ...] | None:
    """The cut of `key` (an answer key) into two or more entries of a word list (or `LITTLE_WORDS`) of least cost,
    when that costs less than `key` whole; None when `key` reads as one word or no cut is all entries.

    A piece costs LIST_PIECE_COST, its rarity by its score and LIST_SHORT_PIECE_COST when short, less
    LIST_INNER_FUNCTION_BONUS for a function word inside the cut; the whole costs its rarity and LIST_WHOLE_BONUS (an
    answer the list lacks is never kept whole). SOLOPRENEUR is no SOLO PR EN EUR: PR and EN are no pieces, and no
    other cut of it is all entries."""
    n = len(key)
    best: list[float] = [0.0] + [math.inf] * n
    cut_at: list[int] = [0] * (n + 1)
    for end in range(1, n + 1):
        for start in range(max(0, end - MAX_PIECE_LETTERS), end):
            if best[start] == math.inf or end - start == n:
                continue
            piece = key[start:end]
            score = score_of(piece) if len(piece) > 2 else (LITTLE_WORD_SCORE if piece in LITTLE_WORDS else None)
            if score is None:
                continue
            cost = best[start] + LIST_PIECE_COST + _list_rarity(score) + LIST_SHORT_PIECE_COST.get(len(piece), 0.0)
            if 0 < start and end < n and piece.lower() in FUNCTION_WORDS:
                cost -= LIST_INNER_FUNCTION_BONUS
            if cost < best[end]:
                best[end] = cost
                cut_at[end] = start
    whole = score_of(key)
    if best[n] == math.inf or (
        whole is not None and LIST_PIECE_COST + _list_rarity(whole) + LIST_WHOLE_BONUS <= best[n]
    ):
        return None
    return _pieces(key, cut_at)


def _pieces(key: str, cut_at: list[int]) -> tuple[str, ...]:
    """The pieces of `key` a cut search chose, read back from where each piece ending at an index starts."""
    words: list[str] = []
    end = len(key)
    while end > 0:
        words.append(key[cut_at[end] : end])
        end = cut_at[end]
    return tuple(reversed(words))


def _one_word_lemma(dictionary: Dictionary | None) -> Callable[[str], bool]:
    """Whether the dictionary has a key as a one-word lemma (never, without a dictionary)."""

    def is_word(key: str) -> bool:
        return dictionary is not None and any(" " not in s.lemma for s in dictionary.senses(key))

    return is_word


def _likeliest_cut(key: str, zipf: Zipf, is_word: Callable[[str], bool]) -> tuple[str, ...] | None:
    """The cut of `key` into known words of least total cost (see PIECE_COST); None when no cut is all words."""
    n = len(key)
    best: list[float] = [0.0] + [math.inf] * n
    cut_at: list[int] = [0] * (n + 1)
    for end in range(1, n + 1):
        for start in range(max(0, end - MAX_PIECE_LETTERS), end):
            if best[start] == math.inf:
                continue
            piece = key[start:end]
            if len(piece) == 1 and piece not in SINGLE_LETTER_WORDS:
                continue
            z = zipf(piece.lower())
            least = MIN_ZIPF_BY_LENGTH.get(len(piece), MIN_ZIPF)
            if len(piece) == n:
                z, least = (max(z, DICTIONARY_WORD_ZIPF), least) if is_word(piece) else (z, max(least, WHOLE_MIN_ZIPF))
            if z < least:
                continue
            cost = best[start] + PIECE_COST + (MAX_ZIPF - z) ** 2 / RARITY_SCALE
            if cost < best[end]:
                best[end] = cost
                cut_at[end] = start
    if best[n] == math.inf:
        return None
    return _pieces(key, cut_at)
