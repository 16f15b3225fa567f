"""Build a scored word list for one language on the user's machine, from wordfreq, Hunspell or a system word list.

`xwcp words build --language es [--from SOURCE]` reads the words, folds each through the language's alphabet
(`xwcp.model.alphabet`: Ñ stays a letter in Spanish, Ä becomes AE in German, Ё becomes Е in Russian), and
writes `WORD;score` lines in the alphabet's written letters (AÑO, ЖУК, IJS) to
`<data folder>/words/<code>-<source>.dict` (the data folder of `xwcp.words.userwords.data_dir`). A word with a
character the alphabet neither has nor folds is counted and a few are named, never turned into another word.

Sources (`SOURCES`), each read on this machine, none shipped with xwcp:
- `checked` (the default where both are installed): wordfreq's words in use that the language's Hunspell
  dictionary accepts, names, abbreviations, English words and one-letter runs left out by rule, scored in bands
  (`xwcp.words.checked`). Under CC BY-SA 4.0 (wordfreq) and the dictionary's own licence.
- `wordfreq`: PyPI's wordfreq (the [languages] extra), its "best" list for the language. Its data is
  CC BY-SA 4.0: the list built is under that licence too. Score: `score_of_zipf`.
- `hunspell`: a Hunspell dictionary (Debian's hunspell-es, hunspell-de-de, hunspell-ru, ... under
  /usr/share/hunspell), expanded by `xwcp.words.hunspell`. Its licence is its package's.
- `dict`: the system's plain list (/usr/share/dict/spanish from Debian's wspanish, .../ngerman from wngerman);
  `wspanish` names /usr/share/dict/spanish itself. Its licence is its package's.
- a file: a `.dic` with its `.aff` beside it is read as Hunspell; any other file as a list (`WORD;score` or a
  word a line; UTF-8, else Latin-1, or `encoding`). Its licence is the user's to know.
Hunspell and plain lists have no frequencies: their words score `FLAT_SCORE`, or by wordfreq when it is
installed (`scores="wordfreq"`), a word wordfreq has never seen then scoring `UNSEEN_SCORE`.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xwcp.base.errors import InputError
from xwcp.model.alphabet import CUT, MAX_OPEN_LETTERS, load_alphabet
from xwcp.runtime.writes import open_output
from xwcp.words.folding import word_folder
from xwcp.words.hunspell import Expansion, HunspellFiles, alphabet_spells, expand
from xwcp.words.provenance import provenance
from xwcp.words.userwords import data_dir
from xwcp.words.wordlist import DEFAULT_SCORE, list_source

if TYPE_CHECKING:
    from xwcp.model.alphabet import Alphabet


class SourceKind(Enum):
    """What kind of source a list is built from."""

    CHECKED = "checked"
    WORDFREQ = "wordfreq"
    HUNSPELL = "hunspell"
    DICT = "dict"
    FILE = "file"


SOURCES = ("auto", "checked", "wordfreq", "hunspell", "dict", "wspanish")
"""The names `--from` takes besides a file path (`auto`: checked if wordfreq has the language and its Hunspell
dictionary is installed, else wordfreq, else Hunspell, else a dict list). An open pack (Hindi aksharas) is not
checked by default: Debian's Hindi dictionary (16,000 stems) accepts 6,953 of wordfreq's 26,653 Hindi words,
too few to fill a grid."""
HUNSPELL_DIRS = (Path("/usr/share/hunspell"), Path("/usr/share/myspell"), Path("/usr/share/myspell/dicts"))
DICT_DIR = Path("/usr/share/dict")
WSPANISH = DICT_DIR / "spanish"
WORDFREQ_LIST = "best"
WORDFREQ_LICENCE = (
    "CC BY-SA 4.0 (wordfreq's data, by Robyn Speer and contributors; share this list only under "
    "CC BY-SA 4.0, crediting wordfreq)"
)
FILE_LICENCE = "the file's own: xwcp does not know it"
PAGE_SLUG = "page"
"""The web builder keeps a list uploaded in the page as `<code>-page.dict` beside the built ones (xwcp/web/languages.py):
a file source of that name is written as `<code>-page-file.dict` instead."""
FLAT_SCORE = DEFAULT_SCORE
"""Score of a word from a list without frequencies when wordfreq is not used: 50, an ordinary entry."""
UNSEEN_SCORE = 30
"""Score of a dictionary word that wordfreq has never seen (below every word it has: its lists stop at zipf 1,
score 35)."""
DEFAULT_MIN_LENGTH, DEFAULT_MAX_LENGTH = 2, 21
SHOWN_EXAMPLES = 5
"""Words named in the report for each kind of word left out."""
INSTALL_HINT = "run .ci/install-languages.sh from xwcp's repository, or pip install 'xwcp[languages]'"

# ----- the build's budget: a source that gives words without end is stopped, saying which limit it passed -----
DEFAULT_MAX_READ = 5_000_000
"""Most words a build reads from its source (`--max-read`): es_ES's Hunspell pair expands to 750,000 forms,
wordfreq's largest list is under 1,000,000."""
DEFAULT_TIME_LIMIT_S = 600.0
"""Longest a build may read its source (`--time-limit`): Spanish from Hunspell takes about 10 s, Polish (3.7 M
forms) 145 s on a shared core."""
MAX_FORMS_PER_BYTE = 25
"""Most word forms a Hunspell pair may expand to per byte of its two files, past the first MIN_FORMS_BUDGET,
unless `--max-read` is given: es_ES makes under 1 a byte, de_DE 0.4; a 12 KB pair of chained suffixes and
cross products made 100 (1.2 M forms)."""
MIN_FORMS_BUDGET = 200_000
"""Forms any Hunspell pair may make, whatever its size."""
CLOCK_EVERY = 1_000
"""Words read between two looks at the clock (and two progress reports: `status` is told at each)."""


class BuildLimitReached(Exception):
    """A build stopped at its budget (`--max-read`, `--time-limit`, a Hunspell pair's expansion ratio), nothing
    written; its message says which limit and how to raise it."""


@dataclass(frozen=True)
class BuildProgress:
    """How far a build has read its source: words read, seconds, and the most it may read."""

    n_read: int
    elapsed_s: float
    max_read: int
    fraction_done: float | None = None
    """How much of the source is read, 0..1 (a Hunspell pair's stems done), None when not known."""


def score_of_zipf(zipf: float) -> int:
    """A wordfreq Zipf frequency as a CWL-style score: `round(10 * zipf + 25)` clamped to 1..100.

    Zipf is log10 of a word's occurrences per billion words: 2.5 (about 3 per 10 million, a word most readers know
    but seldom meet) scores 50, an ordinary entry; each tenfold frequency adds 10; 'de' or 'и' (zipf 7.5+)
    score 100; the rarest words wordfreq lists (zipf 1) score 35.
    """
    return max(1, min(100, round(10 * zipf + 25)))


@dataclass(frozen=True)
class Origin:
    """Where the words come from: the kind, the file (None for wordfreq), a name for the report and the licence."""

    kind: SourceKind
    path: Path | None
    label: str
    licence: str
    slug: str
    """Part of the default output name: `es-<slug>.dict`."""


@dataclass
class BuildReport:
    """What a build did: where the list went, where it came from, and what was left out."""

    path: Path
    language: str
    origin: Origin
    scores: str
    """How the words were scored (one line)."""
    n_read: int = 0
    n_written: int = 0
    n_outside: int = 0
    """Words with a character outside the alphabet (and not folded into it)."""
    outside_examples: list[str] = field(default_factory=list)
    n_bad_length: int = 0
    n_merged: int = 0
    """Words that folded into a word already listed (the higher score kept): 'ánimo' and 'animo' in Spanish."""
    n_malformed: int = 0
    malformed_examples: list[str] = field(default_factory=list)
    n_dropped_by_max: int = 0
    n_rare_letters: int = 0
    """Words of an open pack (Hindi) with an akshara beyond the list's MAX_OPEN_LETTERS commonest."""
    left_out_by_rule: dict[str, int] = field(default_factory=dict)
    """A checked list's words left out by each rule of `xwcp.words.checked.Rule` (by its value)."""
    rules_text: str = ""
    """The same for people, with examples."""
    checker: str = ""
    """What asked the spelling dictionary (a checked list)."""
    bound: str = ""
    """How a Hunspell expansion was bounded (`Expansion.bound_note`), '' when every form was made."""

    def summary(self) -> str:
        """Lines for people: what was written, from where, under what licence, and what was left out."""
        lines = [
            f"wrote {self.path}: {self.n_written:,} words ({self.language})",
            f"from: {self.origin.label}",
            f"licence: {self.origin.licence}",
            f"scores: {self.scores}",
        ]
        left = []
        if self.n_outside:
            left.append(
                f"{self.n_outside:,} with letters outside the alphabet (e.g. {', '.join(self.outside_examples)})"
            )
        if self.n_bad_length:
            left.append(f"{self.n_bad_length:,} of a length outside the limits")
        if self.n_malformed:
            left.append(f"{self.n_malformed:,} malformed lines (e.g. {', '.join(self.malformed_examples)})")
        if self.n_rare_letters:
            left.append(
                f"{self.n_rare_letters:,} with an akshara beyond the {MAX_OPEN_LETTERS:,} letters a list can have"
            )
        if self.n_dropped_by_max:
            left.append(f"{self.n_dropped_by_max:,} beyond --max-words")
        lines.append(
            f"read {self.n_read:,} words; left out: {'; '.join(left) or 'none'}; "
            f"{self.n_merged:,} folded into a word already listed"
        )
        if self.rules_text:
            lines.append(f"checked by {self.checker}; left out by rule: {self.rules_text}")
        if self.bound:
            lines.append(f"bound: {self.bound}")
        return "\n".join(lines)

    def as_dict(self) -> dict[str, object]:
        """JSON-ready."""
        return {
            "path": str(self.path),
            "language": self.language,
            "source": self.origin.kind.value,
            "from": self.origin.label,
            "source_file": str(self.origin.path) if self.origin.path else None,
            "licence": self.origin.licence,
            "scores": self.scores,
            "read": self.n_read,
            "written": self.n_written,
            "outside_alphabet": self.n_outside,
            "outside_examples": self.outside_examples,
            "bad_length": self.n_bad_length,
            "merged": self.n_merged,
            "malformed": self.n_malformed,
            "malformed_examples": self.malformed_examples,
            "beyond_max_words": self.n_dropped_by_max,
            "rare_letters": self.n_rare_letters,
            "left_out_by_rule": self.left_out_by_rule,
            "checker": self.checker or None,
            "bound": self.bound or None,
        }


def wordfreq_available() -> bool:
    """Whether PyPI's wordfreq is importable."""
    try:
        import wordfreq  # noqa: F401
    except ImportError:
        return False
    return True


def _wordfreq_has(alphabet: Alphabet) -> bool:
    """Whether wordfreq is installed and has a list for the pack's language."""
    lang = alphabet.sources.get("wordfreq")
    if not lang or not wordfreq_available():
        return False
    import wordfreq

    return lang in wordfreq.available_languages(wordlist=WORDFREQ_LIST)


def _hunspell_name(alphabet: Alphabet) -> str:
    return alphabet.sources.get("hunspell") or alphabet.code


def find_hunspell(alphabet: Alphabet, dirs: Iterable[Path] | None = None) -> HunspellFiles | None:
    """The system's Hunspell dictionary for the language (in `dirs`, default HUNSPELL_DIRS): the pack's named one
    (es_ES), else `<code>.dic`, else the first `<code>_*.dic`."""
    name = _hunspell_name(alphabet)
    for folder in HUNSPELL_DIRS if dirs is None else dirs:
        for candidate in [
            folder / f"{name}.dic",
            folder / f"{alphabet.code}.dic",
            *sorted(folder.glob(f"{alphabet.code}_*.dic")),
        ]:
            if candidate.is_file() and candidate.with_suffix(".aff").is_file():
                return HunspellFiles(candidate, candidate.with_suffix(".aff"))
    return None


def find_dict(alphabet: Alphabet, folder: Path | None = None) -> Path | None:
    """The system's plain list for the language (in `folder`, default DICT_DIR: /usr/share/dict/<the pack's dict
    name>)."""
    name = alphabet.sources.get("dict")
    candidate = (DICT_DIR if folder is None else folder) / name if name else None
    return candidate if candidate is not None and candidate.is_file() else None


def resolve_origin(alphabet: Alphabet, source: str = "auto") -> Origin:
    """The source named by `--from` for this language.

    Raises:
        InputError: the source is not installed (saying how to install it) or the file is missing.
    """
    if source == "auto":
        if _wordfreq_has(alphabet) and not alphabet.is_open and find_hunspell(alphabet) is not None:
            return resolve_origin(alphabet, "checked")
        if _wordfreq_has(alphabet):
            return resolve_origin(alphabet, "wordfreq")
        if find_hunspell(alphabet) is not None:
            return resolve_origin(alphabet, "hunspell")
        if find_dict(alphabet) is not None:
            return resolve_origin(alphabet, "dict")
        no_wordfreq = "wordfreq has no list for it" if wordfreq_available() else "no wordfreq"
        raise InputError(
            f"no word source for {alphabet.name} ({alphabet.code}) on this machine: {no_wordfreq}, "
            f"no Hunspell dictionary {_hunspell_name(alphabet)}, no /usr/share/dict list; "
            f"{INSTALL_HINT}, or give a list with --from FILE"
        )
    if source == "wordfreq":
        return _wordfreq_origin(alphabet)
    if source == "checked":
        words = _wordfreq_origin(alphabet)
        files = find_hunspell(alphabet)
        if files is None:
            raise InputError(
                f"--from checked needs the Hunspell dictionary for {alphabet.code} "
                f"({_hunspell_name(alphabet)}.dic in {', '.join(str(d) for d in HUNSPELL_DIRS)}); "
                f"install Debian's hunspell-{alphabet.code}* package (or {INSTALL_HINT})"
            )
        return Origin(
            SourceKind.CHECKED,
            files.dic,
            f"{words.label}, each word checked by {files.dic} with {files.aff.name} (Hunspell)",
            f"{WORDFREQ_LICENCE}; and the dictionary's: {provenance(files.dic).describe()}",
            "checked",
        )
    if source == "hunspell":
        files = find_hunspell(alphabet)
        if files is None:
            raise InputError(
                f"no Hunspell dictionary for {alphabet.code} ({_hunspell_name(alphabet)}.dic in "
                f"{', '.join(str(d) for d in HUNSPELL_DIRS)}); install Debian's hunspell-"
                f"{alphabet.code}* package (or {INSTALL_HINT})"
            )
        return _hunspell_origin(files, "hunspell")
    if source in ("dict", "wspanish"):
        path = WSPANISH if source == "wspanish" else find_dict(alphabet)
        if path is None or not path.is_file():
            name = alphabet.sources.get("dict") or "(the pack names none)"
            raise InputError(
                f"no system word list for {alphabet.code} ({DICT_DIR / name}); install its Debian "
                f"package (wspanish, wngerman, ...; {INSTALL_HINT})"
            )
        return Origin(
            SourceKind.DICT,
            path,
            f"{path} (plain word list)",
            provenance(path).describe(),
            "dict" if source == "dict" else "wspanish",
        )
    path = Path(source).expanduser()
    if not path.exists():
        raise InputError(f"no such file; --from takes {', '.join(SOURCES)} or a word-list or .dic file", str(path))
    if path.suffix == ".dic":
        return _hunspell_origin(HunspellFiles.beside(path), path.stem)
    slug = path.name.split(".")[0] or "file"
    if slug == PAGE_SLUG:  # the builder's own upload is <code>-page.dict
        slug = f"{slug}-file"
    return Origin(SourceKind.FILE, path, f"{path} (word list)", FILE_LICENCE, slug)


def _wordfreq_origin(alphabet: Alphabet) -> Origin:
    try:
        import wordfreq
    except ImportError:
        raise InputError(f"--from wordfreq needs the [languages] extra (wordfreq is missing): {INSTALL_HINT}") from None
    lang = alphabet.sources.get("wordfreq") or alphabet.code
    known = wordfreq.available_languages(wordlist=WORDFREQ_LIST)
    if lang not in known:
        raise InputError(f"wordfreq has no list for {lang!r}; it has {', '.join(sorted(known))}")
    version = getattr(wordfreq, "__version__", None) or _version("wordfreq")
    return Origin(
        SourceKind.WORDFREQ,
        None,
        f"wordfreq {version}, its {WORDFREQ_LIST!r} list for {lang!r}",
        WORDFREQ_LICENCE,
        "wordfreq",
    )


def _version(package: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return "(version unknown)"


def _hunspell_origin(files: HunspellFiles, slug: str) -> Origin:
    return Origin(
        SourceKind.HUNSPELL,
        files.dic,
        f"{files.dic} with {files.aff.name} (Hunspell, affixes expanded by xwcp with spylls)",
        provenance(files.dic).describe(),
        slug,
    )


def default_out(alphabet: Alphabet, origin: Origin) -> Path:
    """`<data folder>/words/<code>-<source>.dict`."""
    return data_dir() / "words" / f"{alphabet.code}-{origin.slug}.dict"


def hunspell_expansion(origin: Origin, alphabet: Alphabet) -> Expansion:
    """The expansion of a Hunspell origin, making only forms the alphabet spells (an open pack's: any)."""
    assert origin.path is not None
    spells = (
        None
        if alphabet.is_open
        else alphabet_spells(
            alphabet.fold_word, alphabet.drop, "".join(letter for letter in alphabet.letters if len(letter) > 1)
        )
    )
    return expand(HunspellFiles.beside(origin.path), spells)


def raw_words(
    origin: Origin,
    alphabet: Alphabet,
    report: BuildReport,
    encoding: str | None = None,
    *,
    min_zipf: float | None = None,
    checker: str = "auto",
    time_limit_s: float | None = None,
    lengths: tuple[int, int] = (DEFAULT_MIN_LENGTH, DEFAULT_MAX_LENGTH),
    expansion: Expansion | None = None,
) -> Iterator[tuple[str, int | None]]:
    """(raw word, its score or None when the source has none) from the origin, in the source's order (a checked
    source: its kept words, then those outside the alphabet or `lengths`; `min_zipf`, `checker` and
    `time_limit_s`, the longest its dictionary may take, are its own; a Hunspell origin's from `expansion`, made
    here when None)."""
    if origin.kind is SourceKind.CHECKED:
        assert origin.path is not None
        yield from _checked_words(origin.path, alphabet, report, min_zipf, checker, time_limit_s, lengths)
    elif origin.kind is SourceKind.WORDFREQ:
        import wordfreq

        lang = alphabet.sources.get("wordfreq") or alphabet.code
        for word, frequency in wordfreq.get_frequency_dict(lang, wordlist=WORDFREQ_LIST).items():
            yield word, score_of_zipf(math.log10(frequency * 1e9)) if frequency > 0 else UNSEEN_SCORE
    elif origin.kind is SourceKind.HUNSPELL:
        for form in expansion if expansion is not None else hunspell_expansion(origin, alphabet):
            if not form.startswith("-") and not form.endswith("-"):  # compound pieces (German -ampel)
                yield form, None
    else:
        assert origin.path is not None
        yield from _list_lines(origin.path, report, encoding)


def _checked_words(
    path: Path,
    alphabet: Alphabet,
    report: BuildReport,
    min_zipf: float | None,
    checker: str,
    time_limit_s: float | None,
    lengths: tuple[int, int],
) -> Iterator[tuple[str, int | None]]:
    from xwcp.words.checked import DEFAULT_MIN_ZIPF, CheckTimeLimit, Choice, checked_words, rule_counts

    def take(choice: Choice) -> None:
        report.left_out_by_rule = rule_counts(choice)
        report.rules_text = choice.counts_text()
        report.checker = choice.checker
        report.n_read += sum(report.left_out_by_rule.values())  # the rest are counted as they come

    deadline = None if time_limit_s is None else time.monotonic() + time_limit_s
    try:
        yield from checked_words(
            alphabet,
            HunspellFiles.beside(path),
            wordlist=WORDFREQ_LIST,
            min_zipf=DEFAULT_MIN_ZIPF if min_zipf is None else min_zipf,
            prefer=checker,
            on_choice=take,
            deadline=deadline,
            lengths=lengths,
        )
    except CheckTimeLimit as exc:
        raise BuildLimitReached(
            f"checking the words took more than {time_limit_s:g} s: {exc}; nothing written "
            "(--time-limit S raises the limit)"
        ) from None


def _list_lines(path: Path, report: BuildReport, encoding: str | None) -> Iterator[tuple[str, int | None]]:
    name, raw = list_source(path)
    if encoding:
        try:
            text = raw.decode(encoding)
        except LookupError:
            raise InputError(f"unknown encoding {encoding!r}", name) from None
        except UnicodeDecodeError as exc:
            raise InputError(f"not {encoding} at byte {exc.start:,} ({exc.reason})", name) from None
    else:
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
    for line_no, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, sep, score_text = line.partition(";")
        word = word.strip()
        if not sep:
            yield word, None
            continue
        try:
            score = int(score_text.strip())
        except ValueError:
            report.n_malformed += 1
            if len(report.malformed_examples) < SHOWN_EXAMPLES:
                report.malformed_examples.append(f"line {line_no}: {line[:40]!r}")
            continue
        yield word, score


def spelled(alphabet: Alphabet, code_text: str, fold: Callable[[str], str | None] | None = None) -> str:
    """Code-char text as the list writes it: the written letters, with a `+` cut where reading them back
    longest-first would join two letters into one (Welsh N+G that is not NG); `fold` is the alphabet's
    `fold_word` or one equal to it (`word_folder`)."""
    written = alphabet.written(code_text)
    if not alphabet.has_multi_letters or (fold or alphabet.fold_word)(written) == code_text:
        return written
    letters = [alphabet.cell_text(ch) for ch in code_text]
    multi = [letter for letter in alphabet.letters if len(letter) > 1]
    parts: list[str] = []
    for i, letter in enumerate(letters):  # cut after a letter where a longer letter would be read from here
        parts.append(letter)
        rest = "".join(letters[i:])
        if i + 1 < len(letters) and any(len(m) > len(letter) and rest.startswith(m) for m in multi):
            parts.append(CUT)
    text = "".join(parts)
    return text if alphabet.fold_word(text) == code_text else CUT.join(letters)


def build_words(
    language: str | None,
    source: str = "auto",
    out: str | Path | None = None,
    *,
    min_length: int = DEFAULT_MIN_LENGTH,
    max_length: int = DEFAULT_MAX_LENGTH,
    scores: str = "auto",
    max_words: int | None = None,
    encoding: str | None = None,
    progress: Callable[[str], None] | None = None,
    max_read: int | None = None,
    time_limit_s: float | None = DEFAULT_TIME_LIMIT_S,
    status: Callable[[BuildProgress], None] | None = None,
    min_zipf: float | None = None,
    checker: str = "auto",
) -> BuildReport:
    """Build the list (see the module docstring) and write it; returns what was done.

    Args:
        language: a pack's code ("es") or a pack's JSON file.
        source: one of SOURCES or a file path.
        out: where to write (default `default_out`); its folder is made.
        min_length, max_length: letters (cells) a word may have.
        scores: for sources without frequencies: "flat" (FLAT_SCORE), "wordfreq", or "auto" (wordfreq when
            installed and it has the language).
        max_words: keep only the best-scored words (ties in alphabet order).
        encoding: a file source's encoding (default UTF-8, else Latin-1).
        progress: told, in a line, what is being read before the work starts (it takes seconds).
        max_read: most words to read from the source (None: DEFAULT_MAX_READ, and for a Hunspell pair at most
            MAX_FORMS_PER_BYTE forms a byte of its files, past MIN_FORMS_BUDGET).
        time_limit_s: longest the source may be read (None: no limit).
        status: told how far the reading is, every CLOCK_EVERY words.
        min_zipf: a checked list's frequency floor (None: `xwcp.words.checked.DEFAULT_MIN_ZIPF`).
        checker: how a checked list asks its dictionary: "auto" (the hunspell command if installed, else
            spylls), "command" or "spylls".

    Raises:
        InputError: an unknown language or source, a source not installed, bad limits, or no word of the
            alphabet in the source.
        BuildLimitReached: the source gave more words than `max_read`, or took longer than `time_limit_s`;
            nothing was written.
    """
    alphabet = load_alphabet(language)
    if min_length < 1 or max_length < min_length:
        raise InputError(f"--min-length {min_length} and --max-length {max_length}: need 1 <= min <= max")
    if scores not in ("auto", "flat", "wordfreq"):
        raise InputError(f"--scores {scores!r}: choose auto, flat or wordfreq")
    origin = resolve_origin(alphabet, source)
    if progress is not None:
        progress(f"building the {alphabet.code} list from {origin.label}")
    zipf_scores = _frequency_scores(alphabet, origin, scores)
    path = Path(out).expanduser() if out is not None else default_out(alphabet, origin)
    if origin.kind is SourceKind.CHECKED:
        from xwcp.words.checked import bands_text

        how = f"bands of wordfreq's zipf frequency: {bands_text()}"
    elif origin.kind is SourceKind.WORDFREQ:
        how = "round(10 * zipf + 25) clamped to 1..100 (zipf 2.5 -> 50, an ordinary entry)"
    elif zipf_scores is not None:
        how = (
            f"by wordfreq: round(10 * zipf + 25) clamped to 1..100; {UNSEEN_SCORE} for words wordfreq has not "
            "seen" + ("; a score given in the file is kept" if origin.kind is SourceKind.FILE else "")
        )
    else:
        how = f"{FLAT_SCORE} for every word" + (
            "; a score given in the file is kept" if origin.kind is SourceKind.FILE else ""
        )
    report = BuildReport(path, f"{alphabet.name}, {alphabet.code}", origin, how)
    expansion = hunspell_expansion(origin, alphabet) if origin.kind is SourceKind.HUNSPELL else None
    report.bound = expansion.bound_note() if expansion is not None else ""
    budget = _Budget(
        origin,
        max_read,
        time_limit_s,
        status,
        None if expansion is None else lambda: expansion.n_stems_done / max(1, expansion.n_stems),
    )
    fold = word_folder(alphabet)
    key_of = None if alphabet.is_open else alphabet.encode  # bytes take half the memory of code text
    score_by_code: dict[Any, int] = {}
    for raw, given in raw_words(
        origin,
        alphabet,
        report,
        encoding,
        min_zipf=min_zipf,
        checker=checker,
        time_limit_s=time_limit_s,
        lengths=(min_length, max_length),
        expansion=expansion,
    ):
        report.n_read += 1
        budget.check(report.n_read)
        code_text = fold(raw)
        if code_text is None:
            report.n_outside += 1
            if len(report.outside_examples) < SHOWN_EXAMPLES:
                report.outside_examples.append(raw)
            continue
        if not min_length <= len(code_text) <= max_length:
            report.n_bad_length += 1
            continue
        if given is not None:
            score = given
        elif zipf_scores is not None:
            score = zipf_scores.get(code_text, UNSEEN_SCORE)
        else:
            score = FLAT_SCORE
        key = code_text if key_of is None else key_of(code_text)
        old = score_by_code.get(key)
        if old is not None:
            report.n_merged += 1
            if old >= score:
                continue
        score_by_code[key] = score
    if not score_by_code:
        raise InputError(
            f"no word of the {alphabet.name} alphabet within {min_length}..{max_length} letters in "
            f"{origin.label} ({report.n_read:,} read, {report.n_outside:,} with other letters"
            + (f", e.g. {', '.join(report.outside_examples)}" if report.outside_examples else "")
            + "): nothing written"
        )
    text_of: Callable[[Any], str] = alphabet.decode
    if alphabet.is_open:  # an open pack (Hindi aksharas): the list's letters must fit MAX_OPEN_LETTERS
        score_by_code = _commonest_letters_only(alphabet, score_by_code, report)
        alphabet = alphabet.with_letters("".join(score_by_code))
        codes = sorted(score_by_code, key=alphabet.encode)
        text_of = str
    else:
        codes = sorted(score_by_code)  # letter indices: the alphabet's order
    if max_words is not None and len(codes) > max_words:
        best = sorted(codes, key=lambda c: -score_by_code[c])[:max_words]
        report.n_dropped_by_max = len(codes) - max_words
        keep = set(best)
        codes = [c for c in codes if c in keep]
    header = [
        f"# xwcp word list: {alphabet.name} ({alphabet.code}), built by `xwcp words build` on "
        f"{datetime.now(timezone.utc):%Y-%m-%d}",
        f"# from: {origin.label}",
        f"# licence: {origin.licence}",
        f"# scores: {how}",
    ]
    if report.rules_text:
        header.append(f"# checked by {report.checker}; left out by rule: {report.rules_text}")
    fold = word_folder(alphabet)
    lines = (f"{spelled(alphabet, text_of(code), fold)};{score_by_code[code]}" for code in codes)
    _write_atomically(path, itertools.chain(header, lines))
    report.n_written = len(codes)
    return report


class _Budget:
    """The build's limits on reading its source, checked as each word comes (the clock every CLOCK_EVERY words)."""

    def __init__(
        self,
        origin: Origin,
        max_read: int | None,
        time_limit_s: float | None,
        status: Callable[[BuildProgress], None] | None,
        fraction_done: Callable[[], float] | None = None,
    ) -> None:
        self.start = time.monotonic()
        self.fraction_done = fraction_done
        self.time_limit_s = time_limit_s
        self.status = status
        self.max_read = DEFAULT_MAX_READ if max_read is None else max_read
        self.ratio_note = ""
        if max_read is None and origin.kind is SourceKind.HUNSPELL and origin.path is not None:
            files = HunspellFiles.beside(origin.path)
            n_bytes = files.dic.stat().st_size + files.aff.stat().st_size
            by_size = max(MIN_FORMS_BUDGET, MAX_FORMS_PER_BYTE * n_bytes)
            if by_size < self.max_read:
                self.max_read = by_size
                self.ratio_note = (
                    f" (a Hunspell pair of {n_bytes:,} bytes may make {MAX_FORMS_PER_BYTE} forms a "
                    f"byte, {MIN_FORMS_BUDGET:,} at least; real dictionaries make under 1)"
                )

    def check(self, n_read: int) -> None:
        if n_read > self.max_read:
            raise BuildLimitReached(
                f"the source gave more than {self.max_read:,} words{self.ratio_note}; "
                "nothing written (--max-read N raises the limit)"
            )
        if n_read % CLOCK_EVERY:
            return
        elapsed_s = time.monotonic() - self.start
        if self.status is not None:
            self.status(
                BuildProgress(
                    n_read, elapsed_s, self.max_read, None if self.fraction_done is None else self.fraction_done()
                )
            )
        if self.time_limit_s is not None and elapsed_s > self.time_limit_s:
            raise BuildLimitReached(
                f"reading the source took more than {self.time_limit_s:g} s ({n_read:,} words "
                "read); nothing written (--time-limit S raises the limit)"
            )


def _commonest_letters_only(alphabet: Alphabet, score_by_code: dict[str, int], report: BuildReport) -> dict[str, int]:
    """The words of an open pack's list made of the pack's letters and the commonest others, MAX_OPEN_LETTERS in
    all; the words left out are counted in `report.n_rare_letters`."""
    count_by_char = Counter("".join(score_by_code))
    new = [(count, ch) for ch, count in count_by_char.items() if alphabet.index(ch) is None]
    room = MAX_OPEN_LETTERS - alphabet.size
    if len(new) <= room:
        return score_by_code
    ranked = sorted(new, key=lambda pair: (-pair[0], alphabet.cell_text(pair[1])))  # ties by the written akshara
    common = set(alphabet.chars) | {ch for _, ch in ranked[:room]}
    kept = {code: score for code, score in score_by_code.items() if set(code) <= common}
    report.n_rare_letters = len(score_by_code) - len(kept)
    return kept


def _frequency_scores(alphabet: Alphabet, origin: Origin, scores: str) -> dict[str, int] | None:
    """{code text: score} from wordfreq for a source without frequencies, or None for flat scores.

    Keyed by the folded word, so a word meets its frequency however either side spells it (wordfreq case-folds
    German ß to ss; the best score of the spellings that fold together counts, as in the list built)."""
    if origin.kind in (SourceKind.WORDFREQ, SourceKind.CHECKED) or scores == "flat":
        return None
    lang = alphabet.sources.get("wordfreq") or alphabet.code
    if scores == "auto" and not _wordfreq_has(alphabet):
        return None
    try:
        import wordfreq
    except ImportError:
        raise InputError(
            f"--scores wordfreq needs the [languages] extra (wordfreq is missing): {INSTALL_HINT}"
        ) from None
    if lang not in wordfreq.available_languages(wordlist=WORDFREQ_LIST):
        if scores == "auto":
            return None
        raise InputError(f"wordfreq has no list for {lang!r} (--scores wordfreq)")
    score_by_code: dict[str, int] = {}
    fold = word_folder(alphabet)
    for word, frequency in wordfreq.get_frequency_dict(lang, wordlist=WORDFREQ_LIST).items():
        code_text = fold(word)
        if code_text is not None and frequency > 0:
            score = score_of_zipf(math.log10(frequency * 1e9))
            if score > score_by_code.get(code_text, 0):
                score_by_code[code_text] = score
    return score_by_code


def _write_atomically(path: Path, lines: Iterable[str]) -> None:
    """Write `lines` to `path` through a temporary file renamed into place (a reader never sees half a list), a
    line at a time (a list of 3 million words made into one text took 400 MB more)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot write word-list file ({exc.strerror or exc})", str(path)) from None
    with open_output(path, "word-list") as stream:
        for line in lines:
            stream.write(line + "\n")
