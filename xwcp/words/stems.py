"""Which two entries count as one word for the stem rule: the same stem (RUNS, RUNNER) or one inside the other (CONE,
ICECREAMCONE).

The stem of an entry is its Snowball stem (PyPI `snowballstemmer`, BSD) in the language of its pack, taken of the
entry as written, in lower case. English adds one rule Snowball leaves out: an agent noun in -ER is its verb
(RUNNER -> RUN, BAKER -> BAKE, EATER -> EAT), so RUNNER and RUNS share a stem, where WordNet reads the word so
(`xwcp.words.agents`: not CORNER, SEWER, BETTER) or lacks it (PODCASTER, by its spelling); an irregular form is its lemma
(ATE -> EAT, MICE -> MOUSE: `xwcp.words.irregular`, from WordNet); and an entry's root (`Stems.root`) takes a
derivational -ERY back to its listed -ER word (EATERY -> EATER -> EAT; not ARTERY, with no ARTER). A pack Snowball does not cover
(`STEMMER_BY_CODE` has no entry: Welsh, Slovene, Ukrainian, Hebrew, Ancient Greek) compares whole entries instead,
which the compound check still covers.

The compound check: the longer of two entries is the shorter one (or its stem), of at least `COMPOUND_MIN_LETTERS`,
joined at its start or end to another listed word of at least `COMPOUND_REST_LETTERS` (ICECREAMCONE is ICECREAM +
CONE; SEEHERE is SEE + HERE, the stem of HERES). A piece inside a word (LEST in CELESTA), a rest that is no word
(HESS in CHESS) or a short piece (ICE, ART: inside too many unrelated words) is no clash.

The phrase check (English): an entry that reads as a phrase (`phrase_parts`: ATECROW is ATE CROW, by word frequencies
from wordfreq or WordNet where installed, else by the word list's own entries and scores) shares a word with another entry or phrase when one of its words has that
entry's stem (ATECROW and EATERY share EAT); little words (ONE, THE) do not count, and every other word of the
phrase must be listed, of `_ROOT_MIN_LETTERS` or more, or the entry is read whole (RUNNELS is no RUN NELS).

Shared stems and roots are an equivalence, so each listed word gets a stem group (`stem_groups`, cached on disk) that
the kernel, CP-SAT and SAT keep apart during the search; compounds and phrases are pairwise, found in a fill and split
on (`xwcp.backends.controlled.fill_pair_rules`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from xwcp.base.types import SlotId
from xwcp.model.alphabet import Alphabet
from xwcp.words.agents import NOT_AN_AGENT, verb_by_agent
from xwcp.words.irregular import lemma_by_form
from xwcp.words.phrases import FUNCTION_WORDS, ScoreOf

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from xwcp.words.dictionary import Dictionary
    from xwcp.words.phrases import Zipf
    from xwcp.words.wordlist import LengthBucket, WordList

COMPOUND_MIN_LETTERS = 4
"""Shortest entry (or stem) that makes a longer entry it starts or ends a compound of it."""
COMPOUND_REST_LETTERS = 3
"""Shortest other word of a compound (SEE of SEEHERE)."""

STEMMER_BY_CODE: dict[str, str] = {
    "en": "english",
    "ca": "catalan",
    "cs": "czech",
    "da": "danish",
    "de": "german",
    "el": "greek",
    "es": "spanish",
    "et": "estonian",
    "fi": "finnish",
    "fr": "french",
    "hi": "hindi",
    "hu": "hungarian",
    "it": "italian",
    "nl": "dutch",
    "no": "norwegian",
    "pl": "polish",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sv": "swedish",
    "tr": "turkish",
}
"""Language pack code (before any '-variant') -> its Snowball algorithm."""

MASKS_KEPT = 64
"""`clashing_words` answers kept per pack (oldest dropped first)."""
_ROOT_MIN_LETTERS = 3
"""Shortest root an -ERY is taken back to (EAT of EATERY), and shortest word of a phrase compared (EAT of ATECROW)."""
PART_STOPWORDS = FUNCTION_WORDS
"""Little words that make no two phrases one (ONEDAY and ONEWAY share ONE, which is no echo)."""
PHRASE_MIN_LETTERS = 6
"""Shortest entry read as a phrase: two words of `_ROOT_MIN_LETTERS` each."""
_AGENT_MIN_LETTERS = 5
"""Shortest English stem in -ER read as an agent noun (RUNNER; not OVER, EVER)."""


def not_listed(text: str) -> int | None:
    """A `ScoreOf` for no list: no text is listed."""
    return None


def any_word(text: str) -> int | None:
    """A `ScoreOf` for an unknown list: every text counts as listed, all at one score (so the list cut keeps every
    entry whole)."""
    return 0


SplitPhrase = Callable[[str, ScoreOf], tuple[str, ...]]
"""The words an entry (as written) spells, () for one word, given the list's scores (`phrase_parts`)."""


def stemmer_name(alphabet: Alphabet) -> str | None:
    """The Snowball algorithm for `alphabet`'s pack, or None when the pack has none."""
    return STEMMER_BY_CODE.get(alphabet.code.split("-")[0])


class Stems:
    """The stems of one pack's entries (code chars in, stems out), each worked out once."""

    def __init__(self, alphabet: Alphabet, split_phrase: SplitPhrase | None = None) -> None:
        """`split_phrase`: the words an entry (as written) spells, () for one word (`phrase_parts` in `stems_for`'s
        English Stems); None compares whole entries only."""
        self.alphabet = alphabet
        self.split_phrase = split_phrase
        self.algorithm = stemmer_name(alphabet)
        self._stemmer = None
        self._lock = threading.Lock()
        """Held around each Snowball call: one `Stems` serves every thread of a process (the quality search proves
        a floor in one thread while it fills in another), and a Snowball stemmer is not safe across threads."""
        if self.algorithm is not None:
            import snowballstemmer

            self._stemmer = snowballstemmer.stemmer(self.algorithm)
        self._stem_by_word: dict[str, str] = {}
        self._forms_by_head: dict[str, list[str]] | None = None
        self.masks: dict[tuple[int, tuple[str, ...]], tuple[LengthBucket, NDArray[np.bool_]]] = {}
        """`clashing_words`' answers, by bucket and entries (the bucket kept, so a reused id is never mistaken)."""
        self.groups: dict[int, tuple[WordList, StemGroups]] = {}
        """`stem_groups`' answers, by list (the list kept, so a reused id is never mistaken)."""

    def stem(self, word: str) -> str:
        """The stem of `word` (code chars) in lower case, as written; the whole word when the pack has no stemmer."""
        got = self._stem_by_word.get(word)
        if got is not None:
            return got
        stem = self.stem_text(self.alphabet.written(word).lower())
        self._stem_by_word[word] = stem
        return stem

    def stem_text(self, text: str) -> str:
        """The stem of `text` as written, in lower case (a clue's word; `stem` takes an entry's code chars)."""
        if self._stemmer is None:
            return text
        if self.algorithm == "english":
            text = lemma_by_form().get(text, text)  # ATE -> EAT, MICE -> MOUSE
        with self._lock:  # a Snowball stemmer keeps its word in itself: one word at a time
            stem = str(self._stemmer.stemWord(text))
        if (
            self.algorithm == "english"
            and text.endswith(("er", "ers"))  # an agent noun ends so; FUNERAL (stem FUNER) is none
            and len(stem) >= _AGENT_MIN_LETTERS
            and stem.endswith("er")
        ):
            verb = verb_by_agent().get(text[:-1] if text.endswith("ers") else text)
            if verb == NOT_AN_AGENT:
                return stem  # CORNER, SEWER, BETTER: WordNet's common reading is no agent noun
            base = verb or stem[:-2]  # BAKER -> BAKE (the table); PODCASTER -> PODCAST (spelling alone)
            if verb is None and len(base) >= 3 and base[-1] == base[-2] and base[-1] not in "aeiouls":
                base = base[:-1]  # RUNNER -> RUNN -> RUN; not SMALLER -> SMAL
            with self._lock:
                stem = str(self._stemmer.stemWord(base))
        return stem

    def root(self, word: str, score_of: ScoreOf = not_listed) -> str:
        """The stem of `word` (code chars) with an English derivational -ERY taken back to its listed -ER word
        (EATERY -> EATER -> EAT, BAKERY -> BAKER -> BAKE): `stem` when `score_of` (the list's score) does not list it,
        so ARTERY and LOTTERY, with no ARTER or LOTTER listed, keep their own."""
        if self.algorithm == "english":
            text = self.alphabet.written(word).lower()
            for ending, back in (("eries", "er"), ("ery", "er")):
                if text.endswith(ending) and len(text) - len(ending) >= _ROOT_MIN_LETTERS:
                    base = text[: -len(ending)] + back
                    code = self.alphabet.typed_word(base.upper()).word
                    if code and score_of(code) is not None:
                        return self.stem(code)
        return self.stem(word)

    def irregular_forms(self, stem: str) -> tuple[str, ...]:
        """The irregular forms (written, lower case) whose lemma begins as `stem` does (EAT: ATE, EATEN), English
        only: every form whose stem is `stem`, and a few more (a first filter: callers check each exactly)."""
        if self.algorithm != "english":
            return ()
        if self._forms_by_head is None:
            self._forms_by_head = {}
            for form, lemma in lemma_by_form().items():
                self._forms_by_head.setdefault(lemma[:_ROOT_MIN_LETTERS], []).append(form)
        return tuple(self._forms_by_head.get(stem[:_ROOT_MIN_LETTERS], ()))

    def part_stems(self, word: str, score_of: ScoreOf = not_listed) -> dict[str, bool]:
        """The stems of the words of a phrase entry (ATECROW: EAT, CROW), each with whether its word is a form of
        it other than itself (ATE of EAT: True; CROW: False); the little words (`PART_STOPWORDS`) left out. Empty
        for an entry that reads as one word (`split_phrase`), and for a cut with a piece that is neither a little
        word nor a listed word (`score_of`) of `_ROOT_MIN_LETTERS` or more: RUNNELS is no RUN NELS unless NELS is
        listed, and CELESTA no CELE ST A."""
        if self.split_phrase is None:
            return {}
        parts = self.split_phrase(self.alphabet.written(word), score_of)
        stems: dict[str, bool] = {}
        for part in parts:
            low = part.lower()
            if low in PART_STOPWORDS:
                continue
            code = self.alphabet.typed_word(part.upper()).word
            if len(low) < _ROOT_MIN_LETTERS or not code or score_of(code) is None:
                return {}
            stem = self.root(code, score_of)
            stems[stem] = stems.get(stem, False) or _hidden(low, stem)
        return stems

    def may_share_a_word(self, a: str, b: str, score_of: ScoreOf = not_listed) -> bool:
        """A quick test ahead of reading entries as phrases (word frequencies cost milliseconds an entry, and
        loading them most of a second): could a phrase of PHRASE_MIN_LETTERS or more, `a` or `b`, hold a word of the
        other's root R with spelling hiding R on one side? It must hold an irregular form of R (ATE in ATECROW for
        EATERY; a 3-letter form at the phrase's start or end), or R's first letters where the other entry hides R
        (EATERY) or followed by -ER (EATER, RUNNER). Phrases sharing a word hidden only by Snowball's own spelling
        (TAKING of TAKE) are not looked for."""
        if self.split_phrase is None:
            return False
        return _may_share(self.share_key(a, score_of), self.share_key(b, score_of))

    def share_key(self, word: str, score_of: ScoreOf = not_listed) -> _ShareKey:
        """What `may_share_a_word` needs of one entry, worked out once per entry: its written text in lower case, its
        root, the irregular forms of that root, and whether its spelling hides the root."""
        low = self.alphabet.written(word).lower()
        root = self.root(word, score_of)
        return _ShareKey(low, root, self.irregular_forms(root), _hidden(low, root))

    def words_of(self, word: str, score_of: ScoreOf = not_listed) -> dict[str, bool]:
        """`part_stems` of a phrase; of a one-word entry its root, with whether the entry is a form of it other than
        itself (EATERY of EAT, RUNNER of RUN: True; CROW: False)."""
        parts = self.part_stems(word, score_of)
        if parts:
            return parts
        root = self.root(word, score_of)
        return {root: _hidden(self.alphabet.written(word).lower(), root)}

    def clash(self, a: str, b: str, score_of: ScoreOf = any_word) -> str | None:
        """Why entries `a` and `b` (code chars) count as one word, or None when they do not.

        Args:
            score_of: the list's score of a text (code chars), None when unlisted. The compound check asks it of the
                rest of the longer entry (ICECREAM of ICECREAMCONE; without it any rest of `COMPOUND_REST_LETTERS`
                will do), and the phrase check of the pieces of a phrase.
        """
        if a == b:
            return None  # the same word twice is the duplicate rule's, not this one's
        stem_a, stem_b = self.root(a, score_of), self.root(b, score_of)
        if stem_a == stem_b:
            return f"share the stem {stem_a.upper()}"
        short, long = (a, b) if len(a) <= len(b) else (b, a)
        written = self.alphabet.written
        if len(short) >= COMPOUND_MIN_LETTERS:
            rest = _compound_rest(long, short)
            if rest is not None and score_of(rest) is not None:
                return f"{written(long)} is {written(short)} joined to {written(rest)}"
        short_stem = stem_a if short == a else stem_b
        if len(short_stem) >= COMPOUND_MIN_LETTERS and _inflects(written(short).lower(), short_stem):
            as_code = self.alphabet.typed_word(short_stem).word
            rest = None if as_code is None else _compound_rest(long, as_code)
            if rest is not None and score_of(rest) is not None:
                return (
                    f"{written(long)} is {short_stem.upper()} (the stem of {written(short)}) joined to {written(rest)}"
                )
        if self.may_share_a_word(a, b, score_of):
            words_a, words_b = self.words_of(a, score_of), self.words_of(b, score_of)
            # a word the two share counts only when spelling hides it on one side (ATE of EAT, EATERY of EAT): a
            # word spelt out in both is the compound check's (CASTELET is no CASTE LET against LET)
            shared = [w for w in words_a if w in words_b and (words_a[w] or words_b[w])]
            if shared:
                return f"share the word {min(shared).upper()}"
        return None


@dataclass(frozen=True)
class _ShareKey:
    """One entry as `Stems.may_share_a_word` sees it (`Stems.share_key`)."""

    low: str
    root: str
    forms: tuple[str, ...]
    hidden: bool


def _may_share(a: _ShareKey, b: _ShareKey) -> bool:
    """`Stems.may_share_a_word` on two entries' keys."""
    for long, other in ((a, b), (b, a)):
        text = long.low
        if len(text) < PHRASE_MIN_LETTERS:
            continue
        for form in other.forms:  # a 3-letter form only at an end (ATECROW, not AERATE)
            if form in text and (len(form) > _ROOT_MIN_LETTERS or text.startswith(form) or text.endswith(form)):
                return True
        root = other.root
        at = text.find(root[:_ROOT_MIN_LETTERS])
        if at >= 0 and (other.hidden or "er" in text[at + len(root) : at + len(root) + 4]):
            return True
    return False


_INFLECTIONS = frozenset({"s", "es", "ed", "d", "ing", "er", "ers", "est", "ies", "ied"})
"""Endings that make a word a form of its stem for the compound check (HERES of HERE; not IRONIC of IRON)."""


def _inflects(written: str, stem: str) -> bool:
    """Whether `written` is `stem` with an inflectional ending (a last consonant doubled before it: RUNNING)."""
    if written == stem or not written.startswith(stem):
        return False
    rest = written[len(stem) :]
    return rest in _INFLECTIONS or (rest[0] == stem[-1] and rest[1:] in _INFLECTIONS)


def _hidden(written: str, stem: str) -> bool:
    """Whether spelling hides `stem` in `written` (lower case): ATE of EAT, EATERY of EAT, RUNNER of RUN; not
    CROW, EATS, EATING or AIRED, which are their stem with at most a plain ending."""
    if written == stem:
        return False
    plain = written.startswith(stem) and len(written) - len(stem) <= 3
    return not plain or written.endswith(("ery", "eries", "er", "ers"))


def _compound_rest(long: str, piece: str) -> str | None:
    """What is left of `long` around `piece` at its start or end, when that is `COMPOUND_REST_LETTERS` or more."""
    if len(long) - len(piece) < COMPOUND_REST_LETTERS:
        return None
    if long.endswith(piece):
        return long[: len(long) - len(piece)]
    if long.startswith(piece):
        return long[len(piece) :]
    return None


def phrase_parts(written: str, score_of: ScoreOf = not_listed) -> tuple[str, ...]:
    """The words an English entry (as written) spells, by `xwcp.words.phrases.split_answer` with word frequencies
    (wordfreq's where installed, else WordNet's stand-in where WordNet is: `_phrase_sources`), else by the word list's
    own entries and scores (`xwcp.words.phrases.list_cut` on `score_of`, which every machine has); () when it reads
    as one word or is under PHRASE_MIN_LETTERS."""
    if len(written) < PHRASE_MIN_LETTERS:
        return ()
    key = written.upper()
    if _phrase_sources() is not None:
        return _phrase_parts(key)
    from xwcp.words.phrases import list_cut

    return list_cut(key, score_of) or ()


@lru_cache(maxsize=65536)
def _phrase_parts(key: str) -> tuple[str, ...]:
    from xwcp.words.phrases import split_answer

    sources = _phrase_sources()
    if sources is None:
        return ()
    dictionary, zipf = sources
    split = split_answer(key, dictionary=dictionary, zipf=zipf)
    return split.words if split is not None else ()


def open_phrase_sources() -> None:
    """Open what `phrase_parts` reads now: the first time, indexing WordNet takes seconds, which no fill's clock
    should pay."""
    _phrase_sources()


@lru_cache(maxsize=1)
def _phrase_sources() -> tuple[Dictionary | None, Zipf] | None:
    """(WordNet or None, word frequencies) for splitting phrases, or None when no frequencies are installed."""
    from xwcp.words.dictionary import DictionaryMissing, IndexDamaged, find_wordnet, open_dictionary
    from xwcp.words.phrases import dictionary_zipf, wordfreq_zipf

    dictionary = None
    if find_wordnet() is not None:
        try:
            dictionary = open_dictionary()
        except (DictionaryMissing, IndexDamaged, OSError):
            dictionary = None
    zipf = wordfreq_zipf() or (dictionary_zipf(dictionary) if dictionary is not None else None)
    return None if zipf is None else (dictionary, zipf)


@lru_cache(maxsize=8)
def stems_for(alphabet: Alphabet) -> Stems:
    """The one `Stems` of `alphabet` (its cache of stems shared by every fill in this process); English reads
    phrases (`phrase_parts`)."""
    return Stems(alphabet, phrase_parts if stemmer_name(alphabet) == "english" else None)


def stem_clash_pairs(
    entries: Mapping[SlotId, str],
    stems: Stems,
    only: Iterable[SlotId] | None = None,
    score_of: ScoreOf = any_word,
) -> list[tuple[SlotId, SlotId, str]]:
    """Pairs of slots whose entries count as one word, with the reason, (a, b) with a < b, in slot order.

    Args:
        entries: slot_id -> entry (code chars).
        only: if given, report only pairs with at least one slot from this set.
        score_of: the list's score of a text, None when unlisted (`Stems.clash`).
    """
    wanted = None if only is None else set(only)
    items = sorted(entries.items())
    # each entry's stem and written form once; a pair goes to `Stems.clash` only when one of them could make it
    # one word (the same stem, or one's text or stem at an end of the other's): most pairs are ruled out here
    share = [stems.share_key(text, score_of) for _, text in items]
    reads_phrases = stems.split_phrase is not None
    pairs = []
    for i, (a, text_a) in enumerate(items):
        key_a = share[i]
        stem_a, shown_a = key_a.root, key_a.low
        for j in range(i + 1, len(items)):
            b, text_b = items[j]
            if wanted is not None and a not in wanted and b not in wanted:
                continue
            key_b = share[j]
            stem_b, shown_b = key_b.root, key_b.low
            if stem_a != stem_b:
                (short, short_stem), long = (
                    ((shown_a, stem_a), shown_b)
                    if len(text_a) <= len(text_b)
                    else (
                        (shown_b, stem_b),
                        shown_a,
                    )
                )
                is_piece = long.startswith((short, short_stem)) or long.endswith((short, short_stem))
                if text_a == text_b or not (is_piece or (reads_phrases and _may_share(key_a, key_b))):
                    continue
            why = stems.clash(text_a, text_b, score_of)
            if why is not None:
                pairs.append((a, b, why))
    return pairs


def clashing_words(
    bucket: LengthBucket, fixed: Iterable[str], stems: Stems, score_of: ScoreOf = any_word
) -> NDArray[np.bool_]:
    """Bool per word of `bucket`: does it count as one word with one of `fixed` (the user's complete entries,
    code chars)? What the stem rule rules out before any search: such a word can never join them in a fill.

    Only the words that could clash are tested (`Stems.clash`): those that begin with the first letters of a fixed
    entry's stem (a stem starts the word it comes from), and those that begin or end with a fixed entry or its stem,
    or that a fixed entry begins or ends with (the compounds). The test is exact; the selection only saves time.
    The answer is kept on `stems` for the bucket and entries (a quality search compiles its grid again at each floor).
    """
    import numpy as np

    fixed_words = list(dict.fromkeys(fixed))
    key = (id(bucket), tuple(sorted(fixed_words)))
    kept = stems.masks.get(key)
    if kept is not None and kept[0] is bucket:
        return kept[1]

    letters = bucket.letters
    n, length = letters.shape[0], bucket.length
    out = np.zeros(n, bool)
    if n == 0:
        return out
    alphabet = bucket.alphabet

    def codes(text: str) -> list[int] | None:
        word = alphabet.typed_word(text.upper()).word if text else None
        if not word:
            return None
        got = [alphabet.index(ch) for ch in word]
        return None if any(i is None for i in got) else [int(i) for i in got if i is not None]

    def starts(piece: list[int]) -> NDArray[np.bool_]:
        if len(piece) > length:
            return np.zeros(n, bool)
        found: NDArray[np.bool_] = np.all(letters[:, : len(piece)] == np.array(piece, letters.dtype), axis=1)
        return found

    def ends(piece: list[int]) -> NDArray[np.bool_]:
        if len(piece) > length:
            return np.zeros(n, bool)
        found: NDArray[np.bool_] = np.all(letters[:, length - len(piece) :] == np.array(piece, letters.dtype), axis=1)
        return found

    candidates = np.zeros(n, bool)
    for word in fixed_words:
        stem = stems.root(word, score_of)
        whole, stem_codes, head = codes(alphabet.written(word)), codes(stem), codes(stem[:3])
        if whole is None or stem_codes is None or head is None:
            return out  # a letter this test cannot spell: the search's own check keeps the rule
        candidates |= starts(head)
        irregular = [codes(form) for form in stems.irregular_forms(stem)]  # ATE of EAT, alone or in a phrase
        for piece in (whole, stem_codes, *(form for form in irregular if form is not None)):
            candidates |= starts(piece) | ends(piece)
            if len(piece) > length:
                candidates |= starts(piece[:length]) | ends(piece[len(piece) - length :])
    for word_id in np.flatnonzero(candidates):
        text = bucket.text(int(word_id))
        if any(stems.clash(text, word, score_of) is not None for word in fixed_words):
            out[word_id] = True
    out.flags.writeable = False
    if len(stems.masks) >= MASKS_KEPT:
        stems.masks.pop(next(iter(stems.masks)))
    stems.masks[key] = (bucket, out)
    return out


STEM_GROUPS_VERSION = 4
"""Bump when `Stems.root` changes, so cached stem groups are worked out again (a change of the English tables it
reads, irregular forms and agent nouns, changes the cache key by itself: `_groups_path`)."""
STEM_FILE_MIN_WORDS = 10_000
"""Smallest list whose stem groups are kept on disk (a smaller one is stemmed in well under a second)."""
STEM_FILES_KEPT = 8
"""Cached stem-group files kept in the cache folder (the most recently written)."""


@dataclass(frozen=True)
class StemGroups:
    """The stem group of every word of a list: words of one stem share a group id; a word whose stem no other
    listed word has is in none (-1). What the kernel and the CP-SAT and SAT models keep apart under the stem rule."""

    group_by_word: NDArray[np.int32]
    """int32, the list's words length by length in the order of its length table (`offset_by_length`)."""
    offset_by_length: dict[int, int]
    """Where each length's words start in `group_by_word`."""
    n_groups: int

    def of_length(self, length: int) -> NDArray[np.int32]:
        """The group id of each word of the `length` bucket (word id order); empty when the list has none."""
        import numpy as np

        start = self.offset_by_length.get(length)
        if start is None:
            return np.zeros(0, np.int32)
        end = min((o for o in self.offset_by_length.values() if o > start), default=len(self.group_by_word))
        return self.group_by_word[start:end]


def stem_groups(words: WordList, stems: Stems) -> StemGroups:
    """The stem groups of every word of `words` (`StemGroups`), worked out once per list and kept on disk beside the
    compiled lists (stemming a 250,000-word list takes seconds in pure Python; reading it back, milliseconds)."""
    import numpy as np

    kept = stems.groups.get(id(words))
    if kept is not None and kept[0] is words:
        return kept[1]
    offset_by_length: dict[int, int] = {}
    total = 0
    for row in words.table:
        offset_by_length[int(row[0])] = total
        total += int(row[1])
    path = _groups_path(words, stems)
    group_by_word = _read_groups(path, total) if total >= STEM_FILE_MIN_WORDS else None
    if group_by_word is None:
        score_of = words.score

        stem_ids: dict[str, int] = {}
        per_word = np.empty(total, np.int64)
        at = 0
        written = stems.alphabet.written
        for length in words.lengths:
            bucket = words.bucket(length)
            if bucket.alphabet.is_ascii:  # the whole bucket's text at once, cut into words
                raw = (bucket.letters + 65).tobytes().decode("ascii")
                texts = [raw[k : k + length] for k in range(0, len(raw), length)]
            else:
                texts = [bucket.text(word_id) for word_id in range(bucket.n_words)]
            for text in texts:
                low = written(text).lower()
                # `root` for the -ERY words it may take back; `stem_text` for the rest (the same stem, without
                # keeping every word's in the Stems object's cache)
                stem = stems.root(text, score_of) if low.endswith(("ery", "eries")) else stems.stem_text(low)
                per_word[at] = stem_ids.setdefault(stem, len(stem_ids))
                at += 1
        counts = np.bincount(per_word, minlength=len(stem_ids)) if total else np.zeros(0, np.int64)
        shared = counts > 1
        new_id = np.where(shared, np.cumsum(shared) - 1, -1).astype(np.int32)
        group_by_word = new_id[per_word] if total else np.zeros(0, np.int32)
        if total >= STEM_FILE_MIN_WORDS:
            _write_groups(path, group_by_word)
    group_by_word.flags.writeable = False
    n_groups = int(group_by_word.max()) + 1 if len(group_by_word) else 0
    groups = StemGroups(group_by_word, offset_by_length, n_groups)
    if len(stems.groups) >= 4:
        stems.groups.pop(next(iter(stems.groups)))
    stems.groups[id(words)] = (words, groups)
    return groups


def _groups_path(words: WordList, stems: Stems) -> Path:
    """The cache file of `words`' stem groups: named by the stemmer and a hash of the list's words and lengths (and,
    for English, of the shipped tables `Stems.root` reads: irregular forms, agent nouns)."""
    import xxhash

    from xwcp.words import agents, irregular
    from xwcp.words.cache import cache_dir

    digest = xxhash.xxh3_128()
    digest.update(words.table.tobytes())
    digest.update(words.letters_flat.tobytes())
    digest.update(stems.alphabet.code.encode())
    if stems.algorithm == "english":
        for table in (irregular.TABLE_FILE, agents.TABLE_FILE):
            try:
                digest.update(table.read_bytes())
            except OSError:
                digest.update(b"-")
    name = f"stems-v{STEM_GROUPS_VERSION}-{stems.algorithm or 'none'}-{digest.hexdigest()}.npy"
    return cache_dir() / name


def _read_groups(path: Path, total: int) -> NDArray[np.int32] | None:
    """The cached groups at `path`, or None when there are none or they do not fit the list (then they are rebuilt)."""
    import numpy as np

    try:
        got = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None
    if got.dtype != np.int32 or got.shape != (total,) or (total and int(got.min()) < -1):
        return None
    return np.ascontiguousarray(got)


def _write_groups(path: Path, group_by_word: NDArray[np.int32]) -> None:
    """Keep the groups at `path` (written whole, then renamed); older files beyond STEM_FILES_KEPT go. A cache
    folder that cannot be written costs only the time to stem the list again next run."""
    import os

    import numpy as np

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
        with open(tmp, "wb") as out:
            np.save(out, group_by_word, allow_pickle=False)
        os.replace(tmp, path)
        older = sorted(path.parent.glob("stems-v*.npy"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for stale in older[STEM_FILES_KEPT:]:
            stale.unlink(missing_ok=True)
    except OSError:
        return
