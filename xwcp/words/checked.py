"""Choose a language's words the way a list maker does: words in use that the language's spelling dictionary accepts.

`xwcp words build --from checked` (the default where wordfreq has the language and a Hunspell dictionary is
installed) reads wordfreq's "best" list, commonest first, and keeps a word only when
- it is in use: its Zipf frequency is at least `min_zipf` (default `DEFAULT_MIN_ZIPF`), and
- the language's Hunspell dictionary accepts it as written in lower case.
The words left out are counted by rule (`Rule`), in this order, each word under the first rule it meets:
- `below_floor`: rarer than `min_zipf` (never looked up);
- `repeated`: one letter repeated (ΣΣΣΣ, ААА, after the alphabet's fold);
- `joined`: two words joined by an apostrophe, which the fold would write as one (French jusqu'à, Italian
  dell'anno, German gibt's, Dutch zo'n), except where the apostrophe is part of the spelling
  (`APOSTROPHE_IN_WORDS`: Ukrainian пам'ять). A few single words go with them (French aujourd'hui, Dutch
  plurals such as foto's);
- `name`: the dictionary accepts it only capitalised (España, Madrid). In a language that capitalises every
  noun (`CAPITALISES_NOUNS`: German) these are its nouns (Haus) and are kept: Hunspell's German dictionary
  does not mark which of them are names, so German names (Müller) stay unless another rule takes them, and those
  shared with English (Berlin, Peter) go as English;
- `abbreviation`: accepted only in capitals (German NSA, Russian ГАИ, Spanish ONU);
- `not_in_dictionary`: not accepted in any case (misspellings such as glos for głos and tul for túl, which
  wordfreq lists as used; slang and abbreviations the dictionary lacks such as ptdr, спб, ftp; English words
  such as head, coat, little);
- `english`: accepted, but at least `ENGLISH_MARGIN_ZIPF` more frequent in English than in the language
  (wordfreq's English list, the same for every language): Polish who and Dutch the go, while words the
  language uses about as much as English does (Spanish no, la; German hotel) stay. Where the language is
  English or wordfreq's English list is missing, the rule does nothing.
Words with a character the alphabet neither has nor folds (digits, other scripts), and words of a length outside
the build's limits, are passed on unchecked for the build to count.

Scores are bands a constructor reads at a glance (`BANDS`): 70 everyday, 60 common, 50 ordinary (the lowest
band `xwcp fill` uses by default, `--min-score 50`), 40 rare, 30 rarest.

The dictionary is asked through Debian's `hunspell` command when it is installed (`hunspell -G`, a batch of all
the words at once: wordfreq's 634,000 German words in about 5 s), else through PyPI's spylls (pure Python,
one word at a time: 5,000 Spanish words in 0.1 s, 50,000 German words in 29 s, since every word German rejects
is tried as a compound).
"""

from __future__ import annotations

import math
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from xwcp.base.errors import InputError

if TYPE_CHECKING:
    from xwcp.model.alphabet import Alphabet
    from xwcp.words.hunspell import HunspellFiles

BANDS: tuple[tuple[float, int, str], ...] = (
    (4.5, 70, "everyday"),
    (3.5, 60, "common"),
    (2.5, 50, "ordinary"),
    (1.5, 40, "rare"),
    (-math.inf, 30, "rarest"),
)
"""(lowest Zipf frequency, score, name), commonest first. Zipf is log10 of uses per billion words: 4.5 is about
30 a million (the, house, go), 3.5 three a million, 2.5 three in ten million, 1.5 three in a hundred million."""
DEFAULT_MIN_ZIPF = 2.5
"""Words rarer than this are left out by default: every word listed then fills by default (band 50 and up),
and the lists hold 25,000-90,000 words, the commonest that pass the rules; `--min-zipf 1.5` adds the rare band."""
ENGLISH_MARGIN_ZIPF = 1.5
"""A word 30 times as frequent in English as in the language is English (who in Polish: zipf 6.3 against 4.3,
the in Dutch 7.7 against 5.8). A margin of 1.0 also took words the languages share with English at 10-30
times its rate: Spanish come and once, German still, held and last, French an and or."""
CAPITALISES_NOUNS = frozenset({"de"})
"""Languages (wordfreq codes) whose nouns are written capitalised: a word accepted only capitalised is kept."""
APOSTROPHE_IN_WORDS = frozenset({"uk", "be"})
"""Languages (wordfreq codes) that write an apostrophe inside single words (Ukrainian пам'ять, здоров'я)."""
APOSTROPHES = ("'", "\u2019")
DOTTED_I = frozenset({"tr", "az"})
"""Languages whose capital of i is İ and of ı is I."""
SHOWN_EXAMPLES = 5
"""Words named for each rule in the build's report."""
CLOCK_EVERY = 1_000
"""Words spylls looks up between two looks at the clock."""
HUNSPELL_COMMAND = "hunspell"


class Rule(Enum):
    """Why a word of the source was left out of a checked list."""

    BELOW_FLOOR = "below_floor"
    REPEATED = "repeated"
    JOINED = "joined"
    NAME = "name"
    ABBREVIATION = "abbreviation"
    NOT_IN_DICTIONARY = "not_in_dictionary"
    ENGLISH = "english"


RULE_TEXT = {
    Rule.BELOW_FLOOR: "rarer than the frequency floor",
    Rule.REPEATED: "one letter repeated",
    Rule.JOINED: "joined by an apostrophe",
    Rule.NAME: "names (accepted only capitalised)",
    Rule.ABBREVIATION: "abbreviations (accepted only in capitals)",
    Rule.NOT_IN_DICTIONARY: "not in the spelling dictionary",
    Rule.ENGLISH: "English (30x as frequent in English)",
}


class CheckTimeLimit(Exception):
    """Asking the dictionary went past its deadline (spylls on a large list); the message says how far it got."""


class SpellChecker(Protocol):
    """A spelling dictionary asked about many words at once."""

    name: str

    def accepted(self, words: Sequence[str]) -> set[str]:
        """The words of `words` the dictionary accepts exactly as written (case included)."""


class HunspellCommand:
    """Debian's `hunspell` program over one dictionary, in batch mode (`-G`: print the accepted words)."""

    def __init__(self, files: HunspellFiles, command: str) -> None:
        self.files = files
        self.command = command
        self.name = f"the hunspell command ({command})"

    def accepted(self, words: Sequence[str]) -> set[str]:
        if not words:
            return set()
        stem = self.files.dic.with_suffix("")
        with tempfile.TemporaryDirectory(prefix="xwcp-hunspell-") as folder:  # an empty personal dictionary
            args = [self.command, "-d", str(stem), "-i", "utf-8", "-p", str(Path(folder) / "none"), "-G"]
            try:
                done = subprocess.run(
                    args,
                    input="\n".join(words) + "\n",
                    capture_output=True,
                    text=True,
                    encoding="utf-8",
                    errors="replace",
                    check=False,
                )
            except OSError as exc:
                raise InputError(f"cannot run {self.command} ({exc.strerror or exc})") from None
        if done.returncode != 0:
            raise InputError(f"{self.command} -d {stem} failed: {done.stderr.strip()[:200] or done.returncode}")
        asked = set(words)
        return {line for line in done.stdout.splitlines() if line in asked}  # a line split into tokens never is


class SpyllsChecker:
    """PyPI's spylls (a Hunspell in Python) over one dictionary, a word at a time."""

    def __init__(self, files: HunspellFiles, deadline: float | None = None) -> None:
        self.deadline = deadline
        """`time.monotonic()` past which `accepted` stops with CheckTimeLimit (None: never)."""
        try:
            from spylls.hunspell import Dictionary
        except ImportError:
            raise InputError(
                "checking words needs Debian's hunspell command or PyPI's spylls (the [languages] "
                "extra); run .ci/install-languages.sh"
            ) from None
        try:
            self.dictionary: Any = Dictionary.from_files(str(files.dic.with_suffix("")))
        except Exception as exc:  # spylls raises many kinds on a file it cannot parse
            raise InputError(
                f"spylls cannot read the dictionary ({type(exc).__name__}: {exc})", str(files.dic)
            ) from None
        self.name = "spylls (PyPI)"

    def accepted(self, words: Sequence[str]) -> set[str]:
        lookup = self.dictionary.lookup
        if self.deadline is None:
            return {word for word in words if lookup(word)}
        out = set()
        for n_done, word in enumerate(words):
            if n_done % CLOCK_EVERY == 0 and time.monotonic() > self.deadline:
                raise CheckTimeLimit(
                    f"spylls looked up {n_done:,} of {len(words):,} words before the time limit "
                    "(Debian's hunspell command checks a list in seconds: install-languages.sh)"
                )
            if lookup(word):
                out.add(word)
        return out


def find_checker(files: HunspellFiles, prefer: str = "auto", deadline: float | None = None) -> SpellChecker:
    """The fastest way to ask the dictionary here: the `hunspell` command if installed, else spylls.

    Args:
        files: the dictionary.
        prefer: "auto", "command" or "spylls".
        deadline: for spylls, the `time.monotonic()` past which it stops (CheckTimeLimit).

    Raises:
        InputError: the chosen way is not installed.
    """
    command = shutil.which(HUNSPELL_COMMAND)
    if prefer == "spylls" or (prefer == "auto" and command is None):
        return SpyllsChecker(files, deadline)
    if command is None:
        raise InputError("the hunspell command is not installed (Debian's hunspell package)")
    return HunspellCommand(files, command)


def band(zipf: float) -> int:
    """The score of a word of Zipf frequency `zipf` (see BANDS)."""
    for floor, score, _ in BANDS:
        if zipf >= floor:
            return score
    return BANDS[-1][1]


def bands_text() -> str:
    """One line naming the bands: '70 everyday (zipf >= 4.5), ...'."""
    parts = [
        f"{score} {name} (zipf >= {floor:g})" if math.isfinite(floor) else f"{score} {name} (rarer)"
        for floor, score, name in BANDS
    ]
    return ", ".join(parts)


def capitalised(word: str, language: str) -> str:
    """`word` with its first letter capital (Turkish: i to İ)."""
    return upper(word[:1], language) + word[1:]


def upper(word: str, language: str) -> str:
    """`word` in capitals (Turkish and Azeri: i to İ, ı to I)."""
    if language in DOTTED_I:
        word = word.replace("i", "İ").replace("ı", "I")
    return word.upper()


def is_repeated(code_text: str) -> bool:
    """Whether a folded word of 2+ letters is one letter repeated."""
    return len(code_text) >= 2 and len(set(code_text)) == 1


@dataclass
class Choice:
    """What the checking did: the words kept (raw, score) and, for each rule, how many it left out."""

    checker: str = ""
    kept: list[tuple[str, int]] = field(default_factory=list)
    passed_on: list[str] = field(default_factory=list)
    """Words not folding into the alphabet or of a length outside the limits, for the build to count."""
    n_by_rule: Counter[Rule] = field(default_factory=Counter)
    examples_by_rule: dict[Rule, list[str]] = field(default_factory=dict)
    n_kept_capitalised: int = 0
    """Words accepted only capitalised and kept as nouns (German)."""
    rule_by_word: dict[str, Rule] | None = None
    """Each word left out and its rule, when asked for (`choose_words(..., record=True)`)."""

    def leave_out(self, rule: Rule, word: str) -> None:
        self.n_by_rule[rule] += 1
        if self.rule_by_word is not None:
            self.rule_by_word[word] = rule
        examples = self.examples_by_rule.setdefault(rule, [])
        if len(examples) < SHOWN_EXAMPLES:
            examples.append(word)

    def counts_text(self) -> str:
        """'names 1,234 (españa, madrid); ...' for every rule, in Rule order."""
        parts = []
        for rule in Rule:
            n = self.n_by_rule.get(rule, 0)
            shown = self.examples_by_rule.get(rule, [])
            parts.append(f"{RULE_TEXT[rule]} {n:,}" + (f" ({', '.join(shown)})" if shown else ""))
        return "; ".join(parts)


def choose_words(
    frequency_by_word: dict[str, float],
    alphabet: Alphabet,
    checker: SpellChecker,
    *,
    language: str,
    english_frequency_by_word: dict[str, float] | None,
    min_zipf: float = DEFAULT_MIN_ZIPF,
    record: bool = False,
    lengths: tuple[int, float] = (1, math.inf),
) -> Choice:
    """Apply the rules (see the module docstring) to a frequency list.

    Args:
        frequency_by_word: the language's words (lower case, as wordfreq gives them) and their frequencies
            (a fraction of all words, wordfreq's unit).
        alphabet: the pack, whose fold decides which words the build can write and which are one letter repeated.
        checker: the language's spelling dictionary.
        language: the wordfreq code of the language (de capitalises nouns, tr dots its i).
        english_frequency_by_word: wordfreq's English list, or None to skip the English rule.
        min_zipf: the frequency floor.
        record: keep each left-out word's rule in `Choice.rule_by_word`.
        lengths: the fewest and most letters (folded) a word may have; others are passed on.

    Returns:
        The Choice; `kept` in the source's order, scored by `band`.
    """
    choice = Choice(checker=checker.name, rule_by_word={} if record else None)
    zipf_by_word: dict[str, float] = {}
    joins_words = language not in APOSTROPHE_IN_WORDS
    for word, frequency in frequency_by_word.items():
        zipf = math.log10(frequency * 1e9) if frequency > 0 else -math.inf
        if zipf < min_zipf:
            choice.leave_out(Rule.BELOW_FLOOR, word)
            continue
        code_text = alphabet.fold_word(word)
        if code_text is None or not lengths[0] <= len(code_text) <= lengths[1]:
            choice.passed_on.append(word)
            continue
        if is_repeated(code_text):
            choice.leave_out(Rule.REPEATED, word)
            continue
        if joins_words and any(mark in word for mark in APOSTROPHES):
            choice.leave_out(Rule.JOINED, word)
            continue
        zipf_by_word[word] = zipf
    words = list(zipf_by_word)
    lower_ok = checker.accepted(words)
    rest = [word for word in words if word not in lower_ok]
    capital_by_word = {word: capitalised(word, language) for word in rest}
    capital_ok = checker.accepted(sorted(set(capital_by_word.values())))
    rest = [word for word in rest if capital_by_word[word] not in capital_ok]
    upper_by_word = {word: upper(word, language) for word in rest}
    upper_ok = checker.accepted(sorted(set(upper_by_word.values()) - capital_ok))
    keeps_nouns = language in CAPITALISES_NOUNS
    for word, zipf in zipf_by_word.items():
        if word not in lower_ok:
            if capital_by_word[word] in capital_ok:
                if not keeps_nouns:
                    choice.leave_out(Rule.NAME, word)
                    continue
                choice.n_kept_capitalised += 1
            elif upper_by_word[word] in upper_ok:
                choice.leave_out(Rule.ABBREVIATION, word)
                continue
            else:
                choice.leave_out(Rule.NOT_IN_DICTIONARY, word)
                continue
        if english_frequency_by_word is not None and is_english(word, zipf, english_frequency_by_word):
            choice.leave_out(Rule.ENGLISH, word)
            continue
        choice.kept.append((word, band(zipf)))
    return choice


def english_frequencies(language: str, wordlist: str) -> dict[str, float] | None:
    """wordfreq's English list for the English rule (None for English itself, or when wordfreq has none)."""
    if language == "en":
        return None
    import wordfreq

    if "en" not in wordfreq.available_languages(wordlist=wordlist):
        return None
    return dict(wordfreq.get_frequency_dict("en", wordlist=wordlist))


def checked_words(
    alphabet: Alphabet,
    files: HunspellFiles,
    *,
    wordlist: str,
    min_zipf: float,
    prefer: str = "auto",
    on_choice: Callable[[Choice], None] | None = None,
    deadline: float | None = None,
    lengths: tuple[int, float] = (1, math.inf),
) -> Iterator[tuple[str, int | None]]:
    """(raw word, score) of a checked list: the kept words, then the words outside the alphabet or `lengths`
    (score None, for the build to count); `on_choice` is given the Choice before the first word.

    Raises:
        InputError: wordfreq has no list for the language, or the dictionary cannot be asked.
        CheckTimeLimit: spylls was still looking words up at `deadline` (a `time.monotonic()`).
    """
    import wordfreq

    language = alphabet.sources.get("wordfreq") or alphabet.code
    if language not in wordfreq.available_languages(wordlist=wordlist):
        raise InputError(
            f"wordfreq has no list for {language!r}: --from checked needs one (--from hunspell "
            "reads the dictionary alone)"
        )
    checker = find_checker(files, prefer, deadline)
    choice = choose_words(
        wordfreq.get_frequency_dict(language, wordlist=wordlist),
        alphabet,
        checker,
        language=language,
        english_frequency_by_word=english_frequencies(language, wordlist),
        min_zipf=min_zipf,
        lengths=lengths,
    )
    if on_choice is not None:
        on_choice(choice)
    yield from choice.kept
    for word in choice.passed_on:
        yield word, None


def rule_counts(choice: Choice) -> dict[str, int]:
    """{rule value: words left out}, every rule present (JSON-ready)."""
    return {rule.value: choice.n_by_rule.get(rule, 0) for rule in Rule}


def spellings_by_code(frequency_by_word: Iterable[str], alphabet: Alphabet) -> dict[str, list[str]]:
    """{folded word: the source's spellings that fold to it} (ANIMO: ánimo, animo), to ask the dictionary about a
    word a fill writes in the alphabet's letters."""
    out: dict[str, list[str]] = {}
    for word in frequency_by_word:
        code_text = alphabet.fold_word(word)
        if code_text is not None:
            out.setdefault(code_text, []).append(word)
    return out


def verdict_by_code(
    code_texts: Iterable[str],
    alphabet: Alphabet,
    frequency_by_word: dict[str, float],
    checker: SpellChecker,
    *,
    language: str,
    english_frequency_by_word: dict[str, float] | None,
) -> dict[str, Rule | None]:
    """For each folded word (a fill's entries, in the alphabet's code letters), None when the rules keep one of
    its spellings in `frequency_by_word` (at any frequency), else the rule that leaves out its commonest
    spelling; a word with no spelling there is `Rule.NOT_IN_DICTIONARY`."""
    spellings = spellings_by_code(frequency_by_word, alphabet)
    wanted = {code: spellings.get(code, []) for code in code_texts}
    asked = {word: frequency_by_word[word] for words in wanted.values() for word in words}
    choice = choose_words(
        asked,
        alphabet,
        checker,
        language=language,
        english_frequency_by_word=english_frequency_by_word,
        min_zipf=-math.inf,
        record=True,
    )
    kept = {word for word, _ in choice.kept}
    rule_by_word = choice.rule_by_word or {}
    out: dict[str, Rule | None] = {}
    for code, words in wanted.items():
        if any(word in kept for word in words):
            out[code] = None
        elif words:
            commonest = max(words, key=lambda word: frequency_by_word[word])
            out[code] = rule_by_word.get(commonest, Rule.NOT_IN_DICTIONARY)
        else:
            out[code] = Rule.NOT_IN_DICTIONARY
    return out


def is_english(word: str, zipf: float, english_frequency_by_word: dict[str, float]) -> bool:
    """Whether the English rule takes `word` of Zipf frequency `zipf` in its language."""
    english = english_frequency_by_word.get(word, 0.0)
    return english > 0 and math.log10(english * 1e9) >= zipf + ENGLISH_MARGIN_ZIPF
