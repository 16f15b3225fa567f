"""Expand a Hunspell dictionary (.dic with its .aff) into the word forms it accepts, through PyPI's `spylls`.

`spylls` (a pure-Python Hunspell, the [languages] extra) reads the two files, their encoding and flag syntax;
this module walks its parsed tables the way Hunspell's own `unmunch` does:
- every stem of the .dic (but comment lines, which start with a tab), unless it carries NEEDAFFIX (then only its affixed forms are words), FORBIDDENWORD or
  ONLYINCOMPOUND (a piece of compounds only); an affix carrying one of the last two makes no form either;
- each suffix of the stem's flags whose condition the stem meets, and each suffix named in that suffix's own
  continuation flags (Hunspell's two-fold suffixes: one more level);
- each prefix of the stem's flags, and each prefix on each suffixed form when both sides allow the cross product.
What it does not make (a documented partial expansion): compound words (COMPOUNDFLAG, COMPOUNDRULE: German
joins stems freely, so its compounds are no finite list), a second prefix (COMPLEXPREFIXES), forms that need a
CIRCUMFIX pair, and the .dic's alternative spellings. Every form made is a form Hunspell accepts.
"""
from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xwcp.base.errors import InputError

MAX_FORMS_PER_STEM = 5000
"""Most forms kept from one stem (a safety cap: Spanish verbs with their clitic suffixes give about 1,500)."""
MAX_HUNSPELL_BYTES = 64 * 1024 * 1024
"""Largest .dic or .aff read (Debian's largest, el_GR.dic, is 10 MB)."""


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
                raise InputError(f"a Hunspell dictionary needs both {dic.name} and {aff.name}; {needed.name} is "
                                 "missing" + ("" if not needed.exists() else " (it is not a plain file)"),
                                 str(needed))
            size = needed.stat().st_size
            if size > MAX_HUNSPELL_BYTES:
                raise InputError(f"the Hunspell file is {size:,} bytes, larger than {MAX_HUNSPELL_BYTES >> 20} MiB, "
                                 "more than any dictionary needs; is it the right file?", str(needed))
        return cls(dic, aff)


def _load(files: HunspellFiles) -> Any:
    """spylls' Dictionary of the pair (InputError when spylls is missing or cannot read the files)."""
    try:
        from spylls.hunspell import Dictionary
    except ImportError:
        raise InputError("expanding a Hunspell dictionary needs the [languages] extra (spylls is missing): "
                         "pip install 'xwcp[languages]'") from None
    try:
        return Dictionary.from_files(str(files.dic.with_suffix("")))
    except Exception as exc:  # spylls raises plain exceptions on files it cannot parse
        raise InputError(f"cannot read the Hunspell dictionary ({exc.__class__.__name__}: {exc})",
                         str(files.dic)) from None


def expand(files: HunspellFiles) -> Iterator[str]:
    """Every word form the dictionary makes (see the module docstring), stems in .dic order, each stem's forms
    together, made one at a time (a caller may stop at any form); a form may come twice (from two stems)."""
    dictionary = _load(files)
    tables = _Tables(dictionary.aff)
    for word in dictionary.dic.words:
        flags: set[str] = word.flags
        if flags & tables.skip_flags:
            continue
        stem: str = word.stem
        if not stem or any(ch.isspace() for ch in stem):  # a comment line (Hunspell skips lines that start with a
            continue  # tab; spylls reads them as words: de_DE.dic's licence text)
        yield from itertools.islice(_stem_forms(stem, flags, tables), MAX_FORMS_PER_STEM)


class _Tables:
    """The .aff's affix tables and special flags, and the prefixes that may join a suffixed form, worked out once
    per set of flags (not once per suffix of every stem: with 2,000 flags that was 2,000 x 2,000 per stem)."""

    def __init__(self, aff: Any) -> None:
        self.skip_flags: set[str] = {flag for flag in (aff.FORBIDDENWORD, aff.ONLYINCOMPOUND) if flag}
        self.need_affix: str | None = aff.NEEDAFFIX or None
        self.circumfix: str | None = aff.CIRCUMFIX or None
        self.suffixes: dict[str, list[Any]] = aff.SFX
        self.prefixes: dict[str, list[Any]] = aff.PFX
        self._cross_by_flags: dict[frozenset[str], tuple[_PrefixGroup, ...]] = {}

    def cross_prefixes(self, flags: frozenset[str]) -> tuple[_PrefixGroup, ...]:
        """The prefixes of `flags` that may join a suffixed form (cross product on, not circumfix, no skip flag),
        grouped by their strip and condition, so that a form is tested once per group."""
        groups = self._cross_by_flags.get(flags)
        if groups is None:
            by_test: dict[tuple[str, str], _PrefixGroup] = {}
            for flag in flags:
                for prefix in self.prefixes.get(flag, ()):
                    if prefix.crossproduct and not (self.circumfix and self.circumfix in prefix.flags) \
                            and not prefix.flags & self.skip_flags:
                        key = (prefix.strip, prefix.cond_regexp.pattern)
                        group = by_test.setdefault(key, _PrefixGroup(prefix.strip, prefix.cond_regexp, []))
                        group.adds.append(prefix.add)
            groups = self._cross_by_flags[flags] = tuple(by_test.values())
        return groups


@dataclass
class _PrefixGroup:
    """Prefixes that strip the same text under the same condition: one test, then each one's text added."""

    strip: str
    cond_regexp: Any
    adds: list[str]

    def forms(self, stem: str) -> list[str]:
        if not stem.startswith(self.strip) or not self.cond_regexp.search(stem):
            return []
        base = stem[len(self.strip):]
        return [add + base for add in self.adds if base or add]


def _stem_forms(stem: str, flags: set[str], tables: _Tables) -> Iterator[str]:
    """One stem's forms, as made (see the module docstring)."""
    skip_flags, need_affix, circumfix = tables.skip_flags, tables.need_affix, tables.circumfix
    suffixes, prefixes = tables.suffixes, tables.prefixes
    if not (need_affix and need_affix in flags):
        yield stem
    stem_cross: tuple[_PrefixGroup, ...] | None = None  # the stem's own cross prefixes, when a suffix asks
    for flag in flags:
        for suffix in suffixes.get(flag, ()):
            if circumfix and circumfix in suffix.flags:
                continue
            form = _add_suffix(stem, suffix)
            if form is None:
                continue
            if not (need_affix and need_affix in suffix.flags) and not suffix.flags & skip_flags:
                yield form
            for flag2 in suffix.flags:  # two-fold suffixes: the suffix's own continuation flags
                for suffix2 in suffixes.get(flag2, ()):
                    form2 = _add_suffix(form, suffix2)
                    if form2 is not None and not (circumfix and circumfix in suffix2.flags) \
                            and not suffix2.flags & skip_flags:
                        yield form2
            if suffix.crossproduct and not suffix.flags & skip_flags:
                if stem_cross is None:
                    stem_cross = tables.cross_prefixes(frozenset(flags))
                groups = stem_cross
                own = suffix.flags - flags  # the suffix's continuation prefixes (few)
                if own:
                    groups = (*groups, *tables.cross_prefixes(frozenset(own)))
                for group in groups:
                    yield from group.forms(form)
        for prefix in prefixes.get(flag, ()):
            if circumfix and circumfix in prefix.flags:
                continue
            with_prefix = _add_prefix(stem, prefix)
            if with_prefix is not None and not (need_affix and need_affix in prefix.flags) \
                    and not prefix.flags & skip_flags:
                yield with_prefix


def _add_suffix(stem: str, suffix: Any) -> str | None:
    """`stem` with `suffix` (its strip taken off the end, its text added), None when its condition fails."""
    strip: str = suffix.strip
    if not stem.endswith(strip) or not suffix.cond_regexp.search(stem):
        return None
    base = stem[:len(stem) - len(strip)] if strip else stem
    return base + suffix.add if base or suffix.add else None


def _add_prefix(stem: str, prefix: Any) -> str | None:
    """`stem` with `prefix` (its strip taken off the start, its text added), None when its condition fails."""
    strip: str = prefix.strip
    if not stem.startswith(strip) or not prefix.cond_regexp.search(stem):
        return None
    base = stem[len(strip):]
    return prefix.add + base if base or prefix.add else None
