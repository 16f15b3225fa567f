"""Check a puzzle's clues as an editor would: the answer in its own clue, a rare word in two clues, a clue too long.

Three kinds of note (ClueIssue), none of which changes whether the grid can be filled:
- ANSWER_IN_CLUE: a clue word is the answer, shares its stem by the stem rule's stemmer (`xwcp.words.stems`, in
  the puzzle's language: RUNNER clued "One who runs", NATION clued "National park"), or is one of the answer's own
  words (ICE CREAM CONE clued "Cream holder"); short words (under MIN_STEM_LETTERS) and the little
  words of STOPWORDS are not counted.
- SHARED_RARE_WORD: two clues use the same uncommon word (rarer than RARE_ZIPF on wordfreq's Zipf scale, or with
  WordNet's stand-in frequencies when wordfreq is not installed), which echoes between them.
- TOO_LONG_FOR_PUZ: a clue longer than PUZ_MAX_CLUE_CHARS, which Across Lite (the reader .puz files are made for)
  cannot show.
Only complete entries are checked for the answer; the frequencies load only when two clues share a word.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from xwcp.model.alphabet import ENGLISH
from xwcp.model.grid import EMPTY, Slot
from xwcp.model.puzzle import Puzzle, clue_order
from xwcp.words.dictionary import Dictionary, DictionaryMissing, answer_key, open_dictionary
from xwcp.words.phrases import Zipf, dictionary_zipf, split_answer, wordfreq_zipf
from xwcp.words.stems import Stems, stems_for

PUZ_MAX_CLUE_CHARS = 505
"""The longest clue Across Lite shows: it fails on a .puz with a longer one (kotwords truncates at this length)."""
RARE_ZIPF = 3.5
"""A word rarer than this (Zipf: log10 of uses per billion words; 'sushi' is 3.6, 'tapir' 2.6) echoes when two
clues use it."""
MIN_STEM_LETTERS = 3
"""Shortest answer word or stem looked for in a clue (ERA in "Geological era" is flagged; A and TO are not)."""
STOPWORDS = frozenset(
    "a an and are as at be but by for from has have he her his in is it its of on or she so than that the their "
    "them they this to was were with you your one ones who what which when where not no yes do does did".split()
)
"""Little words that are no echo, whether in the answer or shared by two clues."""


class ClueIssue(Enum):
    """What a clue note is about."""

    ANSWER_IN_CLUE = "answer-in-clue"
    SHARED_RARE_WORD = "shared-rare-word"
    TOO_LONG_FOR_PUZ = "too-long-for-puz"


@dataclass(frozen=True)
class ClueNote:
    """One thing to fix in the clues."""

    issue: ClueIssue
    slots: tuple[str, ...]
    """The slot names concerned (two for a shared word), e.g. ('17A',)."""
    word: str
    """The word at fault (the clue's word, the shared word), or '' for a long clue."""
    message: str
    """One line for the constructor, naming the slots and the word."""

    def as_dict(self) -> dict[str, object]:
        return {"issue": self.issue.value, "slots": list(self.slots), "word": self.word, "message": self.message}


def stem(word: str, stems: Stems | None = None) -> str:
    """The stem of a lower-case word by the stem rule's stemmer (`xwcp.words.stems`: Snowball, and RUNNER -> RUN),
    English unless `stems` (a pack's) is given; a word under MIN_STEM_LETTERS is its own stem."""
    if len(word) < MIN_STEM_LETTERS:
        return word
    return (stems or stems_for(ENGLISH)).stem_text(word)


def clue_words(clue: str) -> list[str]:
    """The words of a clue in lower case, a possessive's 's, other apostrophes and accents dropped ("Runner's" ->
    "runner", "don't" -> "dont")."""
    words = re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)*", clue)
    return [answer_key(re.sub(r"['’]s$", "", w)).lower() for w in words]


def answer_echoes(answer: str, clue: str, answer_words: Sequence[str] = (), stems: Stems | None = None) -> list[str]:
    """The clue's words that give the answer away: the answer itself, a word with the answer's stem, one of the
    answer's own words (`answer_words`, e.g. ICE CREAM CONE) or a word of its stem, or words that run together into
    the answer. Stems are `stem`'s (English unless `stems` is given)."""
    key = answer_key(answer).lower()
    words = clue_words(clue)
    if len(key) < MIN_STEM_LETTERS or not words:
        return []
    targets = {key, stem(key, stems)}
    parts = {w.lower() for w in answer_words if len(w) >= MIN_STEM_LETTERS and w.lower() not in STOPWORDS}
    part_stems = {stem(p, stems) for p in parts}
    found: list[str] = []
    for word in words:
        if word in STOPWORDS or len(word) < MIN_STEM_LETTERS:
            continue
        word_stem = stem(word, stems)
        if word in targets or word_stem in targets or word in parts or word_stem in part_stems:
            if word not in found:
                found.append(word)
    for start in range(len(words)):  # "ice cream cone" clueing ICECREAMCONE
        joined = ""
        for end in range(start, len(words)):
            joined += words[end]
            if joined == key and end > start:
                found.append(" ".join(words[start : end + 1]))
            if len(joined) >= len(key):
                break
    return found


def check_clues(
    puzzle: Puzzle,
    *,
    dictionary: Dictionary | None = None,
    zipf: Zipf | None = None,
    spacing: Mapping[str, str] | None = None,
) -> list[ClueNote]:
    """The notes on `puzzle`'s clues, in clue order (see the module docstring).

    Args:
        puzzle: a puzzle whose `clue_by_slot` holds the clues; entries still open are not checked for the answer.
        dictionary: WordNet for the answer's words (default: the installed one, or none).
        zipf: word frequencies for rarity (default: wordfreq's, else WordNet's stand-in, else the check is skipped).
        spacing: the word list's spaced spellings, for the answer's words (`xwcp.words.phrases.spacing_from_lines`).
    """
    notes: list[ClueNote] = []
    slots = clue_order(puzzle.slots())
    clued = [(slot, puzzle.clue(slot)) for slot in slots if puzzle.clue(slot).strip()]
    if not clued:
        return notes
    if dictionary is None:
        try:
            dictionary = open_dictionary()
        except DictionaryMissing:
            dictionary = None
    written = puzzle.alphabet.written
    stems = stems_for(puzzle.alphabet)
    for slot, clue in clued:
        if len(clue) > PUZ_MAX_CLUE_CHARS:
            notes.append(
                ClueNote(
                    ClueIssue.TOO_LONG_FOR_PUZ,
                    (slot.name,),
                    "",
                    f"{slot.name}: the clue has {len(clue)} characters; a .puz file's reader shows at most "
                    f"{PUZ_MAX_CLUE_CHARS}",
                )
            )
        cells = [puzzle.grid.cells[cell] for cell in slot.cells]
        if any(c == EMPTY or not c.isalpha() for c in cells):
            continue
        answer = written("".join(cells))
        split = split_answer(answer, spacing=spacing, dictionary=dictionary, zipf=zipf or _no_frequencies)
        for echo in answer_echoes(answer, clue, split.words if split else (), stems):
            notes.append(
                ClueNote(
                    ClueIssue.ANSWER_IN_CLUE,
                    (slot.name,),
                    echo,
                    f"{slot.name}: the clue's word {echo!r} gives away the answer {answer_key(answer)}",
                )
            )
    notes.extend(_shared_rare_words(clued, dictionary, zipf))
    return notes


def _no_frequencies(_: str) -> float:
    """No word is known: the answer's words then come from the list's spacing and the dictionary only."""
    return 0.0


def _shared_rare_words(
    clued: Sequence[tuple[Slot, str]], dictionary: Dictionary | None, zipf: Zipf | None
) -> list[ClueNote]:
    """A note for each uncommon word that two or more clues share, naming every slot that uses it."""
    slots_by_word: dict[str, list[str]] = {}
    for slot, clue in clued:
        for word in dict.fromkeys(clue_words(clue)):
            if len(word) >= 4 and word not in STOPWORDS:
                slots_by_word.setdefault(word, []).append(slot.name)
    shared = {w: names for w, names in slots_by_word.items() if len(names) > 1}
    if not shared:
        return []
    if zipf is None:
        zipf = wordfreq_zipf() or (dictionary_zipf(dictionary) if dictionary is not None else None)
    if zipf is None:
        return []
    notes = []
    for word, names in sorted(shared.items(), key=lambda item: item[1]):
        if zipf(word) < RARE_ZIPF:
            notes.append(
                ClueNote(
                    ClueIssue.SHARED_RARE_WORD,
                    tuple(names),
                    word,
                    f"{' and '.join(names)}: both clues use the uncommon word {word!r}",
                )
            )
    return notes
