"""Expand a Hunspell dictionary (.dic with its .aff) into the word forms it accepts, through PyPI's `spylls`.

`spylls` (a pure-Python Hunspell, the [languages] extra) reads the .aff: its encoding, flag syntax and affix
tables; the .dic is read here a line at a time (its stems and flags only: 470,000 stems of he_IL as spylls'
word objects took 450 MB). The expansion walks the tables the way Hunspell's own `unmunch` does:
- every stem of the .dic (but comment lines, which start with a tab), unless it carries NEEDAFFIX (then only its
  affixed forms are words), FORBIDDENWORD or ONLYINCOMPOUND (a piece of compounds only); an affix carrying one
  of the last two makes no form either;
- each suffix and prefix of the stem's flags whose condition the stem meets;
- each suffix named in a suffix's own continuation flags (Hunspell's two-fold suffixes: one more level, as far
  as Hunspell itself goes), and each prefix on each suffixed form when both sides allow the cross product.
What it does not make (a documented partial expansion): compound words (COMPOUNDFLAG, COMPOUNDRULE: German
joins stems freely, so its compounds are no finite list), a second prefix (COMPLEXPREFIXES), forms that need a
CIRCUMFIX pair, the .dic's alternative spellings, and forms with a character the list's alphabet cannot spell
(`spells`: such an affix is never added). Every form made is a form Hunspell accepts.

The bound: most dictionaries make under 4 million forms (pl_PL 3.6 million), but Hungarian's suffix tables make
thousands a stem (billions in all) and Hebrew's .dic lists every inflection with up to 960 stacked prefixes each
(ו ה ש ב ל מ כ and their chains: 120 million, 62 million spelt in Hebrew letters). When the whole expansion,
estimated from an evenly spread sample of SAMPLE_STEMS stems, would pass LIST_FORMS, each stem keeps only its
`per_stem_cap` shortest forms, in this order: the stem, its single affixes by length (one suffix or one prefix:
Hebrew's one-letter prefixes before their chains), then its two-fold and cross-product forms. The cap is the
largest that keeps the estimate within LIST_FORMS; `Expansion.bound_note` says it in the build's output.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xwcp.base.errors import InputError

MAX_FORMS_PER_STEM = 5000
"""Most forms kept from one stem (a safety cap: no stem of es, de, ru or pl makes more than 200)."""
LIST_FORMS = 4_000_000
"""Most forms a whole expansion aims at: what a build reads, folds and de-duplicates well within 2 minutes and
1 GB on two shared cores (hu_HU's 3.8 million forms in 20 s and 530 MB, 45 s with the machine busy), and more than
most Debian dictionaries make whole (pl_PL 3.6 million, counting each stem's forms once): hu, he, cs and et are
bounded. Under DEFAULT_MAX_READ of `xwcp.words.build` by a quarter, the estimate's margin."""
SAMPLE_STEMS = 600
"""Stems expanded to estimate the whole expansion's size (evenly spread over the .dic)."""
FITTING_PER_FORM = 4
"""Affixes listed a form a stem keeps when stems are capped (more are listed only when those are not enough)."""
MAX_REMEMBERED_AFFIXES = 4_000_000
"""Affixes remembered by the ends of stems that fit them (32 MB of references) before they are forgotten."""
SAMPLE_CAP = 500
"""Forms of a sampled stem counted at first: enough to choose a cap below it, and far more than any stem of a
dictionary that needs no cap makes."""
MAX_HUNSPELL_BYTES = 64 * 1024 * 1024
"""Largest .dic or .aff read (Debian's largest, el_GR.dic, is 10 MB)."""
_COUNT = re.compile(r"^\d+(\s|$)")
_TAGS = re.compile(r"[ \t]\w{2}:")
_SLASH = re.compile(r"(?<!\\)/")
_SPACE = re.compile(r"\s")
_CONDITION_UNIT = re.compile(r"\[[^\]]*\]|.")


@dataclass(frozen=True)
class HunspellFiles:
    """A dictionary's two files: `dic` (stems and their flags) and `aff` (the affix tables)."""

    dic: Path
    aff: Path

    @classmethod
    def beside(cls, path: Path) -> HunspellFiles:
        """The pair named by either file (or by their common stem, `/usr/share/hunspell/es_ES`).

        Raises:
            InputError: one of the two files is missing.
        """
        stem = path.with_suffix("") if path.suffix in (".dic", ".aff") else path
        dic, aff = stem.with_name(stem.name + ".dic"), stem.with_name(stem.name + ".aff")
        for needed in (dic, aff):
            if not needed.is_file():  # (a FIFO or a device is not a file: never opened)
                raise InputError(
                    f"a Hunspell dictionary needs both {dic.name} and {aff.name}; {needed.name} is "
                    "missing" + ("" if not needed.exists() else " (it is not a plain file)"),
                    str(needed),
                )
            size = needed.stat().st_size
            if size > MAX_HUNSPELL_BYTES:
                raise InputError(
                    f"the Hunspell file is {size:,} bytes, larger than {MAX_HUNSPELL_BYTES >> 20} MiB, "
                    "more than any dictionary needs; is it the right file?",
                    str(needed),
                )
        return cls(dic, aff)


def _read_aff(files: HunspellFiles) -> tuple[Any, Any]:
    """spylls' (Aff, reading context) of the pair (InputError when spylls is missing or cannot read it)."""
    try:
        from spylls.hunspell.readers import read_aff
        from spylls.hunspell.readers.file_reader import FileReader
    except ImportError:
        raise InputError(
            "expanding a Hunspell dictionary needs the [languages] extra (spylls is missing): "
            "pip install 'xwcp[languages]'"
        ) from None
    try:
        aff, context = read_aff(FileReader(str(files.aff)))
    except Exception as exc:  # spylls raises plain exceptions on files it cannot parse
        raise InputError(
            f"cannot read the Hunspell affix file ({exc.__class__.__name__}: {exc})", str(files.aff)
        ) from None
    return aff, context


def _read_stems(files: HunspellFiles, context: Any) -> list[tuple[str, frozenset[str]]]:
    """(stem, flags) of each line of the .dic, as spylls reads it (data tags after a tab or ` xy:` dropped, `\\/`
    a slash of the stem, IGNORE characters taken out), but comment lines and stems with a space."""
    flags_by_text: dict[str, frozenset[str]] = {"": frozenset()}
    ignore = context.ignore.tr if context.ignore else None
    stems: list[tuple[str, frozenset[str]]] = []
    try:
        with files.dic.open(encoding=context.encoding, errors="surrogateescape") as lines:
            for line_no, raw in enumerate(lines, start=1):
                if raw.startswith("\t"):  # Hunspell's comment line (de_DE.dic's licence text)
                    continue
                line = raw.strip().lstrip("\ufeff")
                if not line or (line_no == 1 and _COUNT.match(line)):
                    continue
                tags = _TAGS.search(line)
                end = tags.start() if tags else len(line)
                tab = line.find("\t")
                if tab != -1:
                    end = min(end, tab)
                word = line[:end]
                flag_text = ""
                if not word.startswith("/"):
                    parts = _SLASH.split(word, maxsplit=1)
                    if len(parts) == 2:
                        word, flag_text = parts
                if "\\/" in word:
                    word = word.replace("\\/", "/")
                if ignore:
                    word = word.translate(ignore)
                if not word or _SPACE.search(word):
                    continue
                flags = flags_by_text.get(flag_text)
                if flags is None:
                    flags = flags_by_text[flag_text] = frozenset(context.parse_flags(flag_text))
                stems.append((word, flags))
    except (OSError, LookupError, KeyError) as exc:
        raise InputError(
            f"cannot read the Hunspell dictionary ({exc.__class__.__name__}: {exc})", str(files.dic)
        ) from None
    return stems


@dataclass
class Expansion:
    """The forms of a dictionary (iterate it: see the module docstring), stems in .dic order, each stem's forms
    together and each once, made one at a time (a caller may stop at any form); a form may come twice (from two
    stems). `n_stems_done` of `n_stems` tells how far it is."""

    stems: list[tuple[str, frozenset[str]]] = field(repr=False)
    tables: _Tables = field(repr=False)
    per_stem_cap: int
    estimated_forms: int
    """Forms the whole expansion would make, estimated from the sample (at least: a sampled stem's forms are
    counted up to SAMPLE_CAP when that already passes `list_forms`)."""
    list_forms: int = LIST_FORMS
    n_stems_done: int = 0

    @property
    def n_stems(self) -> int:
        return len(self.stems)

    @property
    def is_bounded(self) -> bool:
        """Whether stems keep fewer forms than the dictionary makes (`per_stem_cap` below MAX_FORMS_PER_STEM)."""
        return self.per_stem_cap < MAX_FORMS_PER_STEM

    def bound_note(self) -> str:
        """One line for the build's output: the bound, or '' when every form is made."""
        if not self.is_bounded:
            return ""
        return (
            f"the whole expansion would make {self.estimated_forms:,} forms or more (estimated from "
            f"{SAMPLE_STEMS} stems), past the {self.list_forms:,} a build aims at: each stem keeps its "
            f"{self.per_stem_cap:,} shortest (the stem, single affixes by length, then two-fold and cross-product "
            "forms)"
        )

    def __iter__(self) -> Iterator[str]:
        tables, cap = self.tables, self.per_stem_cap
        for index, (stem, flags) in enumerate(self.stems):
            self.n_stems_done = index
            yield from _stem_forms(stem, flags, tables, cap)
        self.n_stems_done = len(self.stems)


def expand(
    files: HunspellFiles, spells: Callable[[str], bool] | None = None, list_forms: int = LIST_FORMS
) -> Expansion:
    """The pair's forms (see the module docstring) as an `Expansion` to iterate.

    Args:
        files: the pair.
        spells: whether the list's alphabet can spell a text (None: any text); an affix it cannot spell is never
            added, a stem it cannot spell makes only the forms that strip the characters away.
        list_forms: most forms the whole expansion aims at (LIST_FORMS).

    Raises:
        InputError: spylls is missing or cannot read the pair.
    """
    aff, context = _read_aff(files)
    tables = _Tables(aff, spells)
    stems = [(stem, flags) for stem, flags in _read_stems(files, context) if not flags & tables.skip_flags]
    step = max(1, len(stems) // SAMPLE_STEMS)
    sample = stems[step // 2 :: step]
    scale = len(stems) / len(sample) if sample else 0.0
    for sample_cap in (SAMPLE_CAP, MAX_FORMS_PER_STEM):  # counts past the cap chosen do not matter
        counts = sorted(sum(1 for _ in _stem_forms(stem, flags, tables, sample_cap)) for stem, flags in sample)
        estimated = round(sum(counts) * scale)
        if estimated > list_forms or not counts or counts[-1] < sample_cap:
            break
    cap = MAX_FORMS_PER_STEM
    if estimated > list_forms:
        cap = min(_largest_cap(counts, list_forms / scale), sample_cap)
    return Expansion(stems, tables, cap, estimated, list_forms)


def _largest_cap(counts: list[int], most: float) -> int:
    """The largest cap (1 at least) with sum(min(count, cap)) <= most, `counts` sorted."""
    total_below, n = 0, len(counts)
    for index, count in enumerate(counts):
        # caps in [previous count, count] give total_below + cap * (n - index)
        cap = int((most - total_below) // (n - index))
        if cap < count:
            return max(1, cap)
        total_below += count
    return MAX_FORMS_PER_STEM


class _Affix:
    """One affix rule as the expansion uses it: strip, text, condition, continuation flags, and whether a form
    with it is a word (`is_word`) and spelt in the list's letters (`is_spelt`)."""

    __slots__ = (
        "strip",
        "add",
        "search",
        "condition",
        "flags",
        "is_cross",
        "is_suffix",
        "is_word",
        "is_spelt",
        "growth",
        "reach",
        "flag_order",
    )

    def __init__(self, rule: Any, is_suffix: bool, tables: _Tables) -> None:
        self.strip: str = rule.strip
        self.add: str = rule.add
        self.search = rule.cond_regexp.search
        self.condition: str = rule.cond_regexp.pattern
        self.reach = len(_CONDITION_UNIT.findall(rule.condition or "."))
        """Letters the condition looks at: one a character or [class]."""
        self.flags: frozenset[str] = frozenset(rule.flags)
        self.flag_order = tuple(sorted(self.flags))
        """The continuation flags in a fixed order (a capped stem keeps the same forms from run to run)."""
        self.is_cross: bool = bool(rule.crossproduct)
        self.is_suffix = is_suffix
        self.is_word = (
            not (tables.need_affix and tables.need_affix in self.flags) and not self.flags & tables.skip_flags
        )
        self.is_spelt = tables.spells(self.add)
        self.growth = len(self.add) - len(self.strip)

    def fits(self, stem: str) -> bool:
        """Whether `stem` ends (a prefix: starts) with the strip and meets the condition."""
        if self.is_suffix:
            return stem.endswith(self.strip) and self.search(stem) is not None
        return stem.startswith(self.strip) and self.search(stem) is not None

    def put_on(self, stem: str) -> str | None:
        """`stem` (which `fits`) with this affix: its strip taken off, its text added; None when nothing is left."""
        if self.is_suffix:
            base = stem[: len(stem) - len(self.strip)] if self.strip else stem
            return base + self.add if base or self.add else None
        base = stem[len(self.strip) :]
        return self.add + base if base or self.add else None


@dataclass
class _Singles:
    """A flag set's single affixes, shortest growth first, each with the index of its test (strip and condition:
    the affixes of a table share a few, so a stem is tested once a test), and the affixes that fit a stem by the
    letters the tests look at (its first `prefix_window` and last `suffix_window`: a condition is a fixed run of
    letters or classes at the start or end): stems that end alike are tested once."""

    tests: list[_Affix]
    """One affix for each distinct (suffix or prefix, strip, condition)."""
    test_ids: list[int]
    affixes: list[_Affix]
    prefix_window: int
    suffix_window: int
    fitting_by_ends: dict[tuple[str, str], tuple[tuple[_Affix, ...], bool]] = field(default_factory=dict)
    """(the affixes that fit, whether that is all of them) by a stem's ends."""

    def fitting(self, stem: str, tables: _Tables, most: int | None = None) -> tuple[_Affix, ...]:
        """The affixes whose strip and condition `stem` meets, shortest growth first: all of them, or at least the
        first `most` (a stem that keeps 48 forms need not list the 950 that fit); remembered by `stem`'s ends
        within the tables' MAX_REMEMBERED_AFFIXES."""
        ends = (
            stem[: self.prefix_window],
            stem[max(0, len(stem) - self.suffix_window) :] if self.suffix_window else "",
        )
        known = self.fitting_by_ends.get(ends)
        if known is not None and (known[1] or (most is not None and len(known[0]) >= most)):
            return known[0]
        fit = [test.fits(stem) for test in self.tests]
        fitting = itertools.compress(self.affixes, map(fit.__getitem__, self.test_ids))
        found = tuple(fitting if most is None else itertools.islice(fitting, most))
        self.fitting_by_ends[ends] = (found, most is None or len(found) < most)
        tables.remember(len(found))
        return found


class _Tables:
    """The .aff's affix rules indexed by flag once (circumfix rules left out), each flag set's single affixes in
    order of length and its cross-product prefixes, worked out once per set of flags."""

    def __init__(self, aff: Any, spells: Callable[[str], bool] | None) -> None:
        self.skip_flags: frozenset[str] = frozenset(flag for flag in (aff.FORBIDDENWORD, aff.ONLYINCOMPOUND) if flag)
        self.need_affix: str | None = aff.NEEDAFFIX or None
        circumfix: str | None = aff.CIRCUMFIX or None
        self.spells: Callable[[str], bool] = spells if spells is not None else (lambda text: True)
        self.suffixes_by_flag: dict[str, list[_Affix]] = {}
        self.prefixes_by_flag: dict[str, list[_Affix]] = {}
        for rules_by_flag, out, is_suffix in (
            (aff.SFX, self.suffixes_by_flag, True),
            (aff.PFX, self.prefixes_by_flag, False),
        ):
            for flag, rules in rules_by_flag.items():
                out[flag] = [
                    _Affix(rule, is_suffix, self) for rule in rules if not (circumfix and circumfix in rule.flags)
                ]
        self._singles_by_flags: dict[frozenset[str], _Singles] = {}
        self._continuations_by_flag: dict[str, _Singles] = {}
        self.n_remembered = 0
        self._cross_by_flags: dict[frozenset[str], tuple[_PrefixGroup, ...]] = {}

    def first_unspelt(self, text: str) -> int:
        """Index of the first character of `text` the alphabet cannot spell, -1 when it spells them all."""
        if self.spells(text):
            return -1
        return next(index for index, ch in enumerate(text) if not self.spells(ch))

    def remember(self, n_affixes: int) -> None:
        """Count affixes remembered by stems' ends; past MAX_REMEMBERED_AFFIXES forget them all (hu's stems
        fit 950 affixes each: remembering every ending took 260 MB)."""
        self.n_remembered += n_affixes + 8
        if self.n_remembered > MAX_REMEMBERED_AFFIXES:
            for singles in (*self._singles_by_flags.values(), *self._continuations_by_flag.values()):
                singles.fitting_by_ends.clear()
            self.n_remembered = 0

    def continuations(self, flag: str) -> _Singles:
        """The suffixes of a continuation flag that make forms (no skip flag, spelt), shortest growth first."""
        found = self._continuations_by_flag.get(flag)
        if found is None:
            found = self._continuations_by_flag[flag] = self._grouped(
                [
                    suffix
                    for suffix in self.suffixes_by_flag.get(flag, ())
                    if not suffix.flags & self.skip_flags and suffix.is_spelt
                ]
            )
        return found

    def singles(self, flags: frozenset[str]) -> _Singles:
        """The suffixes and prefixes of `flags`, shortest growth first (suffixes before prefixes at a tie)."""
        found = self._singles_by_flags.get(flags)
        if found is None:
            ordered = sorted(flags)
            affixes = [affix for flag in ordered for affix in self.suffixes_by_flag.get(flag, ())]
            affixes += [affix for flag in ordered for affix in self.prefixes_by_flag.get(flag, ())]
            found = self._singles_by_flags[flags] = self._grouped(affixes)
        return found

    @staticmethod
    def _grouped(affixes: list[_Affix]) -> _Singles:
        """`affixes` in order of growth, with their tests shared."""
        affixes.sort(key=lambda affix: affix.growth)
        index_by_test: dict[tuple[bool, str, str], int] = {}
        tests: list[_Affix] = []
        test_ids = []
        for affix in affixes:
            key = (affix.is_suffix, affix.strip, affix.condition)
            index = index_by_test.get(key)
            if index is None:
                index = index_by_test[key] = len(tests)
                tests.append(affix)
            test_ids.append(index)
        windows = [(test.is_suffix, max(test.reach, len(test.strip))) for test in tests]
        return _Singles(
            tests,
            test_ids,
            affixes,
            max((n for is_suffix, n in windows if not is_suffix), default=0),
            max((n for is_suffix, n in windows if is_suffix), default=0),
        )

    def cross_prefixes(self, flags: frozenset[str]) -> tuple[_PrefixGroup, ...]:
        """The prefixes of `flags` that may join a suffixed form (cross product on, no skip flag, spelt), grouped
        by their strip and condition so that a form is tested once a group (2,000 numbered flags made 1,000 x
        1,000 tests a stem one by one), shortest first within a group."""
        found = self._cross_by_flags.get(flags)
        if found is None:
            by_test: dict[tuple[str, str], _PrefixGroup] = {}
            for flag in sorted(flags):
                for prefix in self.prefixes_by_flag.get(flag, ()):
                    if prefix.is_cross and not prefix.flags & self.skip_flags and prefix.is_spelt:
                        group = by_test.setdefault(
                            (prefix.strip, prefix.condition), _PrefixGroup(prefix.strip, prefix.search, [])
                        )
                        group.adds.append(prefix.add)
            for group in by_test.values():
                group.adds.sort(key=len)
            found = self._cross_by_flags[flags] = tuple(by_test.values())
        return found


@dataclass
class _PrefixGroup:
    """Prefixes that strip the same text under the same condition: one test, then each one's text added."""

    strip: str
    search: Any
    adds: list[str]

    def forms(self, stem: str) -> list[str]:
        if not stem.startswith(self.strip) or not self.search(stem):
            return []
        base = stem[len(self.strip) :]
        return [add + base for add in self.adds if base or add]


def _rest(singles: _Singles, stem: str, tables: _Tables, n_seen: int) -> Iterator[_Affix]:
    """The affixes that fit `stem` after its first `n_seen`."""
    yield from singles.fitting(stem, tables)[n_seen:]


def _stem_forms(stem: str, flags: frozenset[str], tables: _Tables, cap: int) -> Iterator[str]:
    """One stem's forms, each once, at most `cap`, in the order of the module docstring."""
    spells = tables.spells
    is_spelt = spells(stem)
    seen: set[str] = set()
    if not (tables.need_affix and tables.need_affix in flags) and is_spelt:
        seen.add(stem)
        yield stem
        if len(seen) >= cap:
            return
    suffixed: list[tuple[str, _Affix, int]] = []  # (form, suffix, its first unspelt character or -1)
    singles = tables.singles(flags)
    most = None if cap >= MAX_FORMS_PER_STEM else FITTING_PER_FORM * cap
    first = singles.fitting(stem, tables, most)
    fitting: Iterable[_Affix] = first
    if most is not None and len(first) >= most:  # all of them, made when the first ones are not enough
        fitting = itertools.chain(first, _rest(singles, stem, tables, len(first)))
    for affix in fitting:
        form = affix.put_on(stem)
        if form is None:
            continue
        spelt = affix.is_spelt and (is_spelt or spells(form))
        if affix.is_suffix and (affix.flags or affix.is_cross):
            suffixed.append((form, affix, -1 if spelt else tables.first_unspelt(form)))
        if spelt and affix.is_word and form not in seen:
            seen.add(form)
            yield form
            if len(seen) >= cap:
                return
    skip_flags = tables.skip_flags
    stem_cross: tuple[_PrefixGroup, ...] | None = None
    for form, suffix, unspelt_at in suffixed:
        for flag in suffix.flag_order:  # two-fold suffixes: the suffix's own continuation flags
            for suffix2 in tables.continuations(flag).fitting(form, tables):
                if unspelt_at != -1 and unspelt_at < len(form) - len(suffix2.strip):
                    continue  # the character the alphabet cannot spell stays
                form2 = suffix2.put_on(form)
                if form2 is None or form2 in seen or (unspelt_at != -1 and not spells(form2)):
                    continue
                seen.add(form2)
                yield form2
                if len(seen) >= cap:
                    return
        if suffix.is_cross and unspelt_at == -1 and not suffix.flags & skip_flags:
            if stem_cross is None:
                stem_cross = tables.cross_prefixes(flags)
            prefixes = stem_cross
            own = suffix.flags - flags  # the suffix's continuation prefixes (few)
            if own:
                prefixes = (*prefixes, *tables.cross_prefixes(own))
            for group in prefixes:
                for form2 in group.forms(form):
                    if form2 not in seen:
                        seen.add(form2)
                        yield form2
                        if len(seen) >= cap:
                            return


def alphabet_spells(fold_word: Callable[[str], str | None], drop: str = "", pieces: str = "") -> Callable[[str], bool]:
    """`spells` for `expand` from an alphabet's `fold_word`: a text is spelt when each of its characters (NFC)
    folds alone, is dropped (`drop`) or is a character of a letter of several (`pieces`: Dutch IJ's I and J)."""
    ok_by_char: dict[str, bool] = {}

    def spells(text: str) -> bool:
        for ch in unicodedata.normalize("NFC", text):
            ok = ok_by_char.get(ch)
            if ok is None:
                ok = ok_by_char[ch] = ch in drop or ch.upper() in pieces or ch in pieces or fold_word(ch) is not None
            if not ok:
                return False
        return True

    return spells


def tagged_stems(path: str | Path) -> dict[str, str]:
    """The stems of a Hunspell .dic the spelling dictionary writes as names or abbreviations: {stem: tag}, tag
    `name` for a capitalised stem (Paris, O'Brien), `abbr` for one in capitals (NASA), unless the dictionary has
    the word in lower case too (Spirit and spirit: a common word). Stems of letters only (an apostrophe, hyphen or
    full stop dropped); no spylls needed (flags are not read).

    Raises:
        InputError: the .dic or its .aff is missing or unreadable.
    """
    files = HunspellFiles.beside(Path(path))
    encoding = "utf-8"
    try:
        for line in files.aff.read_text(encoding="latin-1").splitlines():
            if line.startswith("SET "):
                encoding = line.split()[1].strip()
                break
        text = files.dic.read_text(encoding=encoding, errors="replace")
    except (OSError, LookupError) as exc:
        raise InputError(
            f"cannot read the Hunspell dictionary ({exc.__class__.__name__}: {exc})", str(files.dic)
        ) from None
    out: dict[str, str] = {}
    lower: set[str] = set()
    for line_no, raw in enumerate(text.splitlines(), start=1):
        if raw.startswith("\t") or line_no == 1:
            continue
        stem = _SLASH.split(raw.strip().split("\t")[0].split(" ")[0], maxsplit=1)[0]
        letters = stem.replace("'", "").replace("-", "").replace(".", "").replace("’", "")
        if not letters.isalpha():
            continue
        if not stem[:1].isupper():
            lower.add(stem)
            continue
        out[stem] = "abbr" if len(letters) > 1 and letters.isupper() else "name"
    return {stem: tag for stem, tag in out.items() if stem.lower() not in lower}
