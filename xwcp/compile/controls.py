"""The constructor's controls on a fill (locks, bans, per-slot floors and filters, a region, shared substrings, stems,
unfair crossings), read and checked.

One `Controls` value travels from any front end (CLI, web, batch) into `compile_problem`,
which turns it into fixed entries and domain masks; `check_fill` then holds every fill to it.
Slot ids in controls are user-facing names (`17A`), resolved against the grid here, so a
wrong one is bad input that lists the nearest ids.

Per-slot filters narrow one slot's domain when the problem is compiled, so every backend keeps
them. The rules on pairs of entries (no long shared substring, no two entries of one stem, no
crossing of two tagged entries) are kept by `xwcp.backends.controlled`, lazily, on any backend.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from xwcp.base.errors import InputError, option_text
from xwcp.base.types import SlotId
from xwcp.model import BLOCK, EMPTY, Grid, Slot
from xwcp.model.alphabet import Alphabet
from xwcp.model.grid import cell_upper
from xwcp.model.letters import SpelledGrid, write_letters

MAX_BAN_BYTES = 32 * 1024 * 1024
"""Largest ban file read (a list of a million words is under 16 MiB): /dev/zero or a runaway pipe is refused at it."""
NEAREST_SHOWN = 5
"""Slot ids listed when a control names a slot the grid does not have."""


SlotKey = str | int
"""A slot named in a control: its name (`17A`, any case) or its id (the index in `Problem.slots`)."""

LocksLike = Mapping[SlotKey, str] | Iterable[str] | None
"""Locks as `Controls` takes them: {slot: word}, or the command line's `"17A=WORD"` strings."""
BansLike = str | Iterable[str] | None
"""Bans as `Controls` takes them: one word, or any iterable of words."""
SlotMinsLike = Mapping[SlotKey, int] | Iterable[str] | None
"""Per-slot floors as `Controls` takes them: {slot: score}, or `"17A=60"` strings."""
RegionLike = Sequence[int] | str | None
"""A region as `Controls` takes it: (row1, col1, row2, col2) from 1, inclusive, or the text `"R1,C1:R2,C2"`."""
MAX_PATTERN_CHARS = 200
"""Longest regular expression a slot filter takes."""
TAGS = ("name", "abbr", "foreign", "obscure")
"""The tags a list, the spelling dictionary or the user may give an entry (`obscure` is also every word scored
below `OBSCURE_BELOW`); the list reader's `LIST_TAGS` (not imported: the list reader stays off the start-up path)."""
OBSCURE_BELOW = 50
"""A listed word scored below this is tagged `obscure` for `no_crossing`."""


class FilterKind(Enum):
    """What a per-slot filter asks of the slot's entry; the value is its sign in the text form `17A=~.*ING`."""

    MATCHES = "~"
    """The whole entry matches a regular expression (case ignored)."""
    CONTAINS = "+"
    """The entry contains the text."""
    LACKS = "-"
    """The entry does not contain the text."""
    BANS = "!"
    """The entry is not this word (a ban in this slot only)."""
    ONLY_FROM = "@"
    """The entry is one of these words (a personal list, a file)."""


@dataclass(frozen=True)
class SlotFilter:
    """One filter on one slot's entry (`FilterKind`), its text as the user gave it and, for ONLY_FROM, the words."""

    kind: FilterKind
    text: str
    words: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    _pattern: re.Pattern[str] | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind is FilterKind.MATCHES:
            if len(self.text) > MAX_PATTERN_CHARS:
                raise InputError(f"the pattern {self.text[:40]!r}... is over {MAX_PATTERN_CHARS} characters")
            try:
                object.__setattr__(self, "_pattern", re.compile(self.text, re.IGNORECASE))
            except re.error as err:
                raise InputError(f"{self.text!r} is not a regular expression: {err}") from None

    def keeps(self, written: str) -> bool:
        """Does an entry (as written, upper case: `Alphabet.written`) pass this filter?"""
        kind = self.kind
        if kind is FilterKind.MATCHES:
            return self._pattern is not None and self._pattern.fullmatch(written) is not None
        if kind is FilterKind.CONTAINS:
            return self.text in written
        if kind is FilterKind.LACKS:
            return self.text not in written
        if kind is FilterKind.BANS:
            return written != self.text
        return written in self.words

    def __str__(self) -> str:
        return f"{self.kind.value}{self.text}"


FiltersLike = (
    Mapping[SlotKey, SlotFilter | str | Iterable[SlotFilter | str]]
    | Iterable[str | tuple[SlotKey, SlotFilter | str]]
    | None
)
"""Per-slot filters as `Controls` takes them: {slot: filter or filters}, or `"17A=~.*ING"` strings."""
CrossingsLike = Iterable[str | tuple[str, str]] | str | None
"""Forbidden crossings as `Controls` takes them: `"name:name"` strings or (tag, tag) pairs."""
TagsLike = Mapping[str, str | Iterable[str]] | Iterable[str] | None
"""The user's tags as `Controls` takes them: {word: tag or tags}, or `"WORD=name,foreign"` strings."""


@dataclass(frozen=True, init=False)
class Controls:
    """What the constructor asks of a fill beyond the grid and the list, normalised on construction.

    Every argument is checked and put in one form when the value is made, so a wrong type or
    value fails here, in the caller's words, and never deep inside a solver: slot names are
    upper-cased (an int is a slot id), words folded to A-Z (`"ice cream"` -> `ICECREAM`), a
    single word given for `bans` is one word (not its letters), and `region` may be the
    command line's text `"1,1:3,3"`.

    Attributes:
        locks: slot name (or id) -> word (a theme entry; may be a word the list lacks).
        bans: words no open slot may take.
        min_score_by_slot: slot name (or id) -> that slot's own minimum score (overrides the global one).
        region: (row1, col1, row2, col2), counted from 1, inclusive: fill only the empty cells inside.
        max_shared_substring: no two entries share a substring longer than this many letters.
        filters_by_slot: slot name (or id) -> its filters (`SlotFilter`: a pattern, a substring it must or must
            not contain, a word banned there, the only words it may take).
        distinct_stems: no two entries of one stem, and none a compound of another (`xwcp.words.stems`).
        no_crossing: pairs of tags (sorted) whose entries may not cross: ("name", "name").
        tags_by_word: word -> its tags (`TAGS`), the user's and the lists'; `no_crossing` reads them.
    """

    locks: Mapping[SlotKey, str]
    bans: frozenset[str]
    min_score_by_slot: Mapping[SlotKey, int]
    region: tuple[int, int, int, int] | None
    max_shared_substring: int | None
    filters_by_slot: Mapping[SlotKey, tuple[SlotFilter, ...]]
    distinct_stems: bool
    no_crossing: frozenset[tuple[str, str]]
    tags_by_word: Mapping[str, frozenset[str]]

    def __init__(
        self,
        locks: LocksLike = None,
        bans: BansLike = None,
        min_score_by_slot: SlotMinsLike = None,
        region: RegionLike = None,
        max_shared_substring: int | None = None,
        filters_by_slot: FiltersLike = None,
        distinct_stems: bool = False,
        no_crossing: CrossingsLike = None,
        tags_by_word: TagsLike = None,
    ) -> None:
        """Check and normalise every control.

        Args:
            locks: {slot: word}, or `"17A=WORD"` strings (the command line's form).
            bans: one word, or any iterable of words.
            min_score_by_slot: {slot: score}, or `"17A=60"` strings.
            region: (row1, col1, row2, col2) from 1, inclusive, or the text `"R1,C1:R2,C2"`.
            max_shared_substring: a whole number of letters, at least 1.
            filters_by_slot: {slot: filter or filters}, a filter a `SlotFilter` or its text (`~REGEX`, `+TEXT`,
                `-TEXT`, `!WORD`), or `"17A=~.*ING"` strings.
            distinct_stems: True: no two entries of one stem.
            no_crossing: `"name:name"` strings or (tag, tag) pairs, tags from `TAGS`.
            tags_by_word: {word: tag or tags}, or `"WORD=name,abbr"` strings.

        Raises:
            TypeError: a value of the wrong type (the message names the argument and what it takes).
            InputError: a value of the right type that cannot be used (not a word, an empty region,
                a word both locked and banned).
        """
        lock_by_key = _normal_locks(locks)
        banned = _normal_bans(bans)
        for key, word in lock_by_key.items():
            if word in banned:
                raise InputError(f"{option_text('lock', word, key)}: {word} is also banned")
        object.__setattr__(self, "locks", lock_by_key)
        object.__setattr__(self, "bans", banned)
        object.__setattr__(self, "min_score_by_slot", _normal_slot_mins(min_score_by_slot))
        object.__setattr__(self, "region", _normal_region(region))
        object.__setattr__(self, "max_shared_substring", _normal_max_shared(max_shared_substring))
        object.__setattr__(self, "filters_by_slot", _normal_filters(filters_by_slot))
        if not isinstance(distinct_stems, bool):
            raise TypeError(f"{option_text('distinct_stems')} must be True or False, not {_type_name(distinct_stems)}")
        object.__setattr__(self, "distinct_stems", distinct_stems)
        object.__setattr__(self, "no_crossing", _normal_crossings(no_crossing))
        object.__setattr__(self, "tags_by_word", _normal_tags(tags_by_word))

    def in_alphabet(self, alphabet: Alphabet) -> Controls:
        """These controls with their words folded into `alphabet` (code chars); the same object when nothing changes.

        Raises:
            InputError: a locked or banned word with a character outside the alphabet (naming it).
        """
        locks = {key: _folded(word, alphabet, option_text("lock", word, key)) for key, word in self.locks.items()}
        bans = frozenset(_folded(word, alphabet, option_text("ban", word)) for word in self.bans)
        tags_by_word = {
            folded: tags
            for word, tags in self.tags_by_word.items()
            if (folded := alphabet.typed_word(word).word) is not None
        }
        if locks == dict(self.locks) and bans == self.bans and tags_by_word == dict(self.tags_by_word):
            return self
        return self.replaced(locks=locks, bans=bans, tags_by_word=tags_by_word)

    def replaced(self, **changes: object) -> Controls:
        """A copy with some fields replaced by values already in normal form (no checks)."""
        out = object.__new__(Controls)
        for name in Controls.__annotations__:
            object.__setattr__(out, name, changes.get(name, getattr(self, name)))
        return out

    @property
    def is_empty(self) -> bool:
        return not (
            self.locks
            or self.bans
            or self.min_score_by_slot
            or self.region
            or self.filters_by_slot
            or self.has_pair_rules
        )

    @property
    def has_pair_rules(self) -> bool:
        """Does a rule on pairs of entries apply (shared substrings, stems, crossings of tagged entries)? Those
        are kept lazily (`xwcp.backends.controlled.fill_pair_rules`), never in the domains."""
        return self.max_shared_substring is not None or self.distinct_stems or bool(self.no_crossing)


def _type_name(value: object) -> str:
    return type(value).__name__


def _slot_key(raw: object, option: str) -> SlotKey:
    """A slot key as controls keep it: a name upper-cased, an id as an int; a Slot by its name."""
    if isinstance(raw, Slot):
        return raw.name
    if isinstance(raw, str) and raw.strip():
        return raw.strip().upper()
    if isinstance(raw, int) and not isinstance(raw, bool):
        if raw < 0:
            raise InputError(f"{option_text(option)}: slot id {raw} is negative (slot ids count from 0)")
        return raw
    raise TypeError(
        f"{option_text(option)} takes slot names such as '17A' (or slot ids) as keys, not {_type_name(raw)} {raw!r}"
    )


def _pairs(value: object, option: str, example: str) -> list[tuple[object, object]]:
    """(key, value) pairs from a mapping, or from `SLOT=VALUE` strings or (slot, value) pairs."""
    if isinstance(value, Mapping):
        return list(value.items())
    if isinstance(value, str) and "=" in value:
        value = [value]  # one "17A=WORD" given on its own
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{option_text(option)} takes a dict such as {example}, not {_type_name(value)}")
    pairs: list[tuple[object, object]] = []
    for item in value:
        if isinstance(item, str):
            pairs.append(parse_assignment(item, option))
        elif isinstance(item, tuple) and len(item) == 2:
            pairs.append(item)
        else:
            raise TypeError(
                f"{option_text(option)} takes a dict such as {example}, or 'SLOT=VALUE' strings, not an item {item!r}"
            )
    return pairs


def _normal_locks(locks: object) -> dict[SlotKey, str]:
    if locks is None:
        return {}
    out: dict[SlotKey, str] = {}
    for raw_key, raw_word in _pairs(locks, "lock", "{'17A': 'WORD'}"):
        key = _slot_key(raw_key, "lock")
        if not isinstance(raw_word, str):
            raise TypeError(f"{option_text('lock')}: the word for {key!r} must be a str, not {_type_name(raw_word)}")
        word = _clean_word(raw_word, option_text("lock", raw_word, key))
        if key in out and out[key] != word:
            raise InputError(f"{option_text('lock')}: {key} is locked twice ({out[key]} and {word})")
        out[key] = word
    return out


def _normal_bans(bans: object) -> frozenset[str]:
    if bans is None:
        return frozenset()
    if isinstance(bans, str):
        bans = [bans]  # one word, not its letters
    elif isinstance(bans, (bytes, Mapping)) or not isinstance(bans, Iterable):
        raise TypeError(f"{option_text('ban')} takes a word or a set of words, not {_type_name(bans)}")
    out = set()
    for raw in bans:
        if not isinstance(raw, str):
            raise TypeError(f"{option_text('ban')} takes words (str), not {_type_name(raw)} {raw!r}")
        out.add(_clean_word(raw, option_text("ban", raw)))
    return frozenset(out)


def _whole_number(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TypeError(f"{what} must be a whole number, not {_type_name(value)} {value!r}")
    try:
        return int(value)
    except ValueError:
        raise InputError(f"{what}: {value!r} is not a whole number") from None


def _normal_slot_mins(floors: object) -> dict[SlotKey, int]:
    if floors is None:
        return {}
    out: dict[SlotKey, int] = {}
    for raw_key, raw_score in _pairs(floors, "slot_min", "{'17A': 60}"):
        key = _slot_key(raw_key, "slot_min")
        out[key] = _whole_number(raw_score, option_text("slot_min", raw_score, key))
    return out


def _normal_region(region: object) -> tuple[int, int, int, int] | None:
    if region is None:
        return None
    if isinstance(region, str):
        return parse_region(region)
    if isinstance(region, (bytes, Mapping)) or not isinstance(region, Iterable):
        raise TypeError(
            f"{option_text('region')} takes (row1, col1, row2, col2) or the text 'R1,C1:R2,C2', "
            f"not {_type_name(region)}"
        )
    values = list(region)
    if len(values) != 4 or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise TypeError(
            f"{option_text('region')} takes four whole numbers (row1, col1, row2, col2), counted from 1, not {region!r}"
        )
    r1, c1, r2, c2 = values
    if min(values) < 1:
        raise InputError(f"{option_text('region', (r1, c1, r2, c2))}: rows and columns count from 1")
    if r1 > r2 or c1 > c2:
        raise InputError(
            f"{option_text('region', (r1, c1, r2, c2))}: the region is empty (row1 <= row2 and col1 <= col2 are needed)"
        )
    return r1, c1, r2, c2


def _normal_max_shared(limit: object) -> int | None:
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(
            f"{option_text('max_shared_substring')} must be a whole number of letters, not {_type_name(limit)}"
        )
    if limit < 1:
        raise InputError(f"{option_text('max_shared_substring', limit)}: it must be at least 1")
    return limit


def parse_filter(text: str, slot: SlotKey | None = None) -> SlotFilter:
    """A filter from its text: `~REGEX` (the whole entry matches), `+TEXT` (contains), `-TEXT` (lacks), `!WORD`
    (banned here). Raises InputError naming the slot when it is none of these."""
    said = option_text("filter", text, slot)
    raw = text.strip()
    kinds = {kind.value: kind for kind in FilterKind if kind is not FilterKind.ONLY_FROM}
    kind = kinds.get(raw[:1])
    body = raw[1:].strip()
    if kind is None or not body:
        raise InputError(
            f"{said}: expected ~REGEX, +TEXT, -TEXT, !WORD or @FILE (e.g. {slot or '17A'}=~.*ING), not {text!r}"
        )
    try:
        if kind is FilterKind.MATCHES:
            return SlotFilter(kind, body)
        return SlotFilter(kind, _clean_word(body, said))
    except InputError as err:
        raise InputError(err.message if err.message.startswith(said) else f"{said}: {err.message}") from None


def _normal_filters(filters: object) -> dict[SlotKey, tuple[SlotFilter, ...]]:
    if filters is None:
        return {}
    out: dict[SlotKey, list[SlotFilter]] = {}
    for raw_key, raw_value in _pairs(filters, "filter", "{'17A': '~.*ING'}"):
        key = _slot_key(raw_key, "filter")
        values = [raw_value] if isinstance(raw_value, (str, SlotFilter)) else raw_value
        if not isinstance(values, Iterable):
            raise TypeError(f"{option_text('filter')}: the filter of {key!r} must be a str or SlotFilter")
        for value in values:
            if isinstance(value, SlotFilter):
                got = value
            elif isinstance(value, str):
                got = parse_filter(value, key)
            else:
                raise TypeError(
                    f"{option_text('filter')}: the filter of {key!r} must be a str or SlotFilter, not {_type_name(value)}"
                )
            out.setdefault(key, []).append(got)
    return {key: tuple(dict.fromkeys(values)) for key, values in out.items()}


def _normal_crossings(pairs: object) -> frozenset[tuple[str, str]]:
    if pairs is None:
        return frozenset()
    if isinstance(pairs, str):
        pairs = [pairs]
    if isinstance(pairs, (bytes, Mapping)) or not isinstance(pairs, Iterable):
        raise TypeError(f"{option_text('no_crossing')} takes 'tag:tag' strings, not {_type_name(pairs)}")
    out = set()
    for item in pairs:
        if isinstance(item, str):
            left, sep, right = item.partition(":")
            if not sep:
                raise InputError(f"{option_text('no_crossing', item)}: expected TAG:TAG, e.g. name:name")
            item = (left, right)
        if not (isinstance(item, tuple) and len(item) == 2 and all(isinstance(t, str) for t in item)):
            raise TypeError(f"{option_text('no_crossing')} takes 'tag:tag' strings or (tag, tag) pairs, not {item!r}")
        tags = tuple(sorted(_tag(t, option_text("no_crossing", ":".join(item))) for t in item))
        out.add((tags[0], tags[1]))
    return frozenset(out)


def _tag(raw: str, said: str) -> str:
    tag = raw.strip().lower()
    if tag not in TAGS:
        raise InputError(f"{said}: {raw.strip()!r} is not a tag; tags: {', '.join(TAGS)}")
    return tag


def _normal_tags(tags: object) -> dict[str, frozenset[str]]:
    if tags is None:
        return {}
    if isinstance(tags, str):
        tags = [tags]
    if isinstance(tags, Iterable) and not isinstance(tags, (Mapping, bytes)):
        items = list(tags)
        for item in items:
            if isinstance(item, str) and "=" not in item:
                raise InputError(f"{option_text('tag', item)}: expected WORD=TAGS, e.g. ENO=name")
        tags = items
    out: dict[str, set[str]] = {}
    for raw_word, raw_tags in _pairs(tags, "tag", "{'ENO': 'name'}"):
        if not isinstance(raw_word, str):
            raise TypeError(f"{option_text('tag')} takes words (str) as keys, not {_type_name(raw_word)}")
        said = option_text("tag", raw_tags, raw_word)
        word = _clean_word(raw_word, said)
        values = raw_tags.split(",") if isinstance(raw_tags, str) else raw_tags
        if not isinstance(values, Iterable):
            raise TypeError(f"{said}: tags must be str, not {_type_name(raw_tags)}")
        for value in values:
            if not isinstance(value, str):
                raise TypeError(f"{said}: tags must be str, not {_type_name(value)}")
            out.setdefault(word, set()).add(_tag(value, said))
    return {word: frozenset(tags) for word, tags in out.items()}


def _clean_word(raw: str, what: str) -> str:
    """A control's word as Controls keep it: A-Z upper case when given in ASCII; else its letters as given (NFC,
    upper case, spaces and hyphens dropped), folded into the word list's alphabet when the problem is compiled
    (`Controls.in_alphabet`): Spanish keeps AÑO, English reads it ANO."""
    from xwcp.words.wordlist import normalise_word

    stripped = raw.strip()
    if stripped.isascii():
        word = normalise_word(stripped)
    else:
        word = cell_upper(stripped).translate(_DROPPED)
        word = (
            word
            if word and all(ch.isalpha() or unicodedata.category(ch).startswith("M") or ch == "+" for ch in word)
            else None
        )  # marks: accents, and Devanagari's vowel signs
    if not word:
        raise InputError(f"{what}: {raw!r} is not a word of letters")
    return word


_DROPPED = str.maketrans("", "", " -'’.·")


def _folded(word: str, alphabet: Alphabet, what: str) -> str:
    """A control's word in `alphabet`'s code chars, read as a typed word is (`Alphabet.typed_word`): a character
    the alphabet cannot keep (the ligature ﬁ, English's dotless ı) is refused, never read as another word's."""
    read = alphabet.typed_word(word)
    if read.word is None:
        raise InputError(f"{what}: {alphabet.written(word)!r} has {read.refused}, not a letter of {alphabet.name}")
    return read.word


def parse_assignment(text: str, option: str) -> tuple[str, str]:
    """Split `17A=WORD` (or `17A=60`) into ('17A', 'WORD'). Raises InputError naming `option` (e.g. "lock")."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise InputError(f"{option_text(option)} {text!r}: expected SLOT=VALUE, e.g. 17A=...")
    return name.strip().upper(), value.strip()


def parse_locks(items: Iterable[str]) -> dict[SlotKey, str]:
    """`['17A=ICE CREAM', ...]` -> {'17A': 'ICECREAM'}. A slot locked twice is bad input."""
    return _normal_locks(list(items))


def parse_slot_mins(items: Iterable[str]) -> dict[SlotKey, int]:
    """`['17A=60']` -> {'17A': 60}."""
    return _normal_slot_mins(list(items))


def parse_region(text: str) -> tuple[int, int, int, int]:
    """`'R1,C1:R2,C2'` (from 1, inclusive) -> (r1, c1, r2, c2). Raises InputError when malformed or empty."""
    try:
        a, b = text.split(":")
        r1, c1 = (int(x) for x in a.split(","))
        r2, c2 = (int(x) for x in b.split(","))
    except ValueError:
        raise InputError(
            f"{option_text('region', text)}: expected R1,C1:R2,C2 (rows and columns from 1), e.g. 1,1:5,7"
        ) from None
    region = _normal_region((r1, c1, r2, c2))
    assert region is not None  # four ints in: a region out
    return region


def read_ban_file(path: str | Path, what: str = "ban-list") -> set[str]:
    """Words of a ban file (`WORD` or `WORD;score` lines, '#' comments; .xz or .gz too), at most MAX_BAN_BYTES.

    Raises:
        InputError: missing, unreadable, over the cap, a pipe silent for `FIFO_WAIT_S`, a device, a bad line.
    """
    from xwcp.runtime.files import read_text_bounded
    from xwcp.words.wordlist import parse_word_lines

    text = read_text_bounded(path, MAX_BAN_BYTES, what)  # bounded: /dev/zero, a silent pipe are refused
    score_by_word, problems, _ = parse_word_lines(text, str(path))
    if problems:
        line, what = problems[0]
        raise InputError(what, str(path), line)
    return set(score_by_word)


def only_from_file(path: str | Path, text: str | None = None) -> SlotFilter:
    """The filter "only words of this file" (`17A=@FILE`): the words of a list file (`read_ban_file`'s rules)."""
    return SlotFilter(FilterKind.ONLY_FROM, text or str(path), frozenset(read_ban_file(path, "filter word-list")))


def _filters_from_text(items: Iterable[str], personal_list: str | Path | None) -> list[tuple[str, SlotFilter]]:
    """`17A=~.*ING` strings as (slot, filter); `17A=@FILE` reads FILE, `17A=@personal` the personal list."""
    out: list[tuple[str, SlotFilter]] = []
    for item in items:
        name, value = parse_assignment(item, "filter")
        if value.startswith("@"):
            target = value[1:].strip()
            if target.lower() == "personal":
                if personal_list is None or not Path(personal_list).exists():
                    raise InputError(f"{option_text('filter', value, name)}: there is no personal word list yet")
                out.append((name, only_from_file(personal_list, "personal")))
            else:
                out.append((name, only_from_file(target)))
        else:
            out.append((name, parse_filter(value, name)))
    return out


def read_list_tags(path: str | Path) -> dict[str, frozenset[str]]:
    """The tags a list gives its words in a third column (`WORD;score;name,abbr`); {} for a list without one.

    Raises:
        InputError: unreadable list, or a tag that is none of `TAGS` (naming file and line).
    """
    from xwcp.runtime.files import read_text_bounded
    from xwcp.words.wordlist import normalise_word

    text = read_text_bounded(path, MAX_BAN_BYTES, "word-list")
    out: dict[str, frozenset[str]] = {}
    for line_no, line in enumerate(text.splitlines(), start=1):
        parts = line.strip().split(";")
        if len(parts) < 3 or line.lstrip().startswith("#") or not parts[2].strip():
            continue
        word = normalise_word(parts[0]) if parts[0].strip().isascii() else parts[0].strip().upper()
        if not word:
            continue
        try:
            tags = frozenset(_tag(t, "a tag") for t in parts[2].split(",") if t.strip())
        except InputError as err:
            raise InputError(err.message.removeprefix("a tag: "), str(path), line_no) from None
        out[word] = out.get(word, frozenset()) | tags
    return out


def make_controls(
    *,
    locks: Iterable[str] = (),
    bans: Iterable[str] = (),
    ban_files: Iterable[str | Path] = (),
    slot_mins: Iterable[str] = (),
    region: str | None = None,
    max_shared_substring: int | None = None,
    filters: Iterable[str] = (),
    personal_list: str | Path | None = None,
    distinct_stems: bool = False,
    no_crossing: Iterable[str] = (),
    tags: Iterable[str] = (),
    tag_files: Iterable[str | Path] = (),
) -> Controls:
    """Controls from the text a user typed (the CLI's and the web API's shared parser).

    Args:
        filters: `17A=~.*ING` strings; `17A=@FILE` (only FILE's words) and `17A=@personal` (only `personal_list`'s).
        tags: `WORD=name,abbr` strings, the user's own tags.
        tag_files: lists whose third column tags their words (`WORD;score;tags`), read only when `no_crossing`
            is given (tags are not needed otherwise).

    Raises:
        InputError: a malformed value, or a word both banned and locked.
    """
    banned = set(_normal_bans(list(bans)))
    for path in ban_files:
        banned |= read_ban_file(path)
    tag_by_word: dict[str, frozenset[str]] = {}
    crossings = list(no_crossing)
    if crossings:
        for path in tag_files:
            for word, got in read_list_tags(path).items():
                tag_by_word[word] = tag_by_word.get(word, frozenset()) | got
    for word, got in _normal_tags(list(tags)).items():
        tag_by_word[word] = tag_by_word.get(word, frozenset()) | got
    return Controls(
        locks=list(locks),
        bans=banned,
        min_score_by_slot=list(slot_mins),
        region=region or None,
        max_shared_substring=max_shared_substring,
        filters_by_slot=_filters_from_text(filters, personal_list),
        distinct_stems=distinct_stems,
        no_crossing=crossings,
        tags_by_word=tag_by_word,
    )


def nearest_slot_names(slots: tuple[Slot, ...], name: str, n: int = NEAREST_SHOWN) -> list[str]:
    """The grid's slot ids closest to `name`: same direction and nearby number first."""
    digits = "".join(ch for ch in name if ch.isdigit())
    number = int(digits) if digits else 0
    direction = name[-1:].upper()

    def key(slot: Slot) -> tuple[int, bool, int]:
        return (abs(slot.number - number), slot.direction.letter != direction, slot.number)

    return [s.name for s in sorted(slots, key=key)[:n]]


def resolve_slot(slots: tuple[Slot, ...], name: SlotKey, option: str) -> Slot:
    """The slot called `name` (or with id `name`, an int), or InputError naming `option` (e.g. "lock")
    and listing the nearest ids."""
    if isinstance(name, int):
        if 0 <= name < len(slots):
            return slots[name]
        raise InputError(
            f"{option_text(option)}: this grid has no slot id {name} (its slot ids are 0 to "
            f"{len(slots) - 1}; slot names such as {slots[0].name} work too)"
        )
    key = name.strip().upper()
    for slot in slots:
        if slot.name == key:
            return slot
    raise InputError(
        f"{option_text(option)}: this grid has no slot {name!r}; nearest: {', '.join(nearest_slot_names(slots, key))}"
    )


def apply_locks(grid: Grid, spelled: SpelledGrid, controls: Controls) -> tuple[Grid, dict[SlotId, str]]:
    """Write every lock into the grid's empty cells; returns the new grid and {slot_id: locked word}.

    `spelled` is the grid spelled out (`xwcp.model.letters.spell_out`): a locked word spells the
    slot's letters, a rebus cell's letters included, and must agree with them.

    Raises:
        InputError: unknown slot, wrong length, or a letter that clashes with the grid or another lock.
    """
    slots, letters = spelled.slots, spelled.letters
    letter_by_cell: dict[int, str] = {}
    source_by_cell: dict[int, str] = {}
    word_by_slot: dict[SlotId, str] = {}
    for name, word in controls.locks.items():
        slot = resolve_slot(slots, name, "lock")
        said = option_text("lock", word, slot.name)
        if word in controls.bans:
            raise InputError(f"{said}: {word} is also banned")
        if len(word) != slot.length:
            raise InputError(f"{said}: {slot.name} has {slot.length} letters, {word} has {len(word)}")
        for pos, (cell, letter) in enumerate(zip(slot.cells, word)):
            at = spelled.cell_of(cell)
            row, col = at // grid.width + 1, at % grid.width + 1
            given = letters[cell]
            if given not in (EMPTY, BLOCK) and given != letter:
                held = grid.cells[at]
                given = given if held == given else f"{given} (of the rebus {held})"
                raise InputError(
                    f"{said}: letter {pos + 1} ({letter}) clashes with the grid's {given} at row {row}, column {col}"
                )
            other = letter_by_cell.get(cell)
            if other is not None and other != letter:
                raise InputError(
                    f"{said}: letter {pos + 1} ({letter}) clashes with "
                    f"{source_by_cell[cell]} ({other}) at row {row}, column {col}"
                )
            letter_by_cell[cell] = letter
            source_by_cell[cell] = said
        word_by_slot[slot.id] = word
    return (write_letters(grid, spelled, letter_by_cell) if letter_by_cell else grid), word_by_slot


def region_cells(grid: Grid, region: tuple[int, int, int, int]) -> frozenset[int]:
    """Flat cells of the rectangle. Raises InputError when it lies outside the grid."""
    r1, c1, r2, c2 = region
    if r1 < 1 or c1 < 1 or r2 > grid.height or c2 > grid.width:
        raise InputError(f"{option_text('region', region)} is outside the {grid.height}-row, {grid.width}-column grid")
    return frozenset((r - 1) * grid.width + (c - 1) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1))


def longest_shared_substring(a: str, b: str) -> int:
    """Length of the longest common substring of `a` and `b`."""
    best = 0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, start=1):
            if x == y:
                cur[j] = prev[j - 1] + 1
                if cur[j] > best:
                    best = cur[j]
        prev = cur
    return best


def shared_substring_pairs(
    entries: Mapping[SlotId, str], limit: int, only: Iterable[SlotId] | None = None
) -> list[tuple[SlotId, SlotId, str]]:
    """Pairs of slots whose entries share a substring longer than `limit`, with one such substring.

    Args:
        entries: slot_id -> entry text.
        only: if given, report only pairs with at least one slot from this set.
    """
    n = limit + 1
    first_by_gram: dict[str, list[SlotId]] = {}
    for slot_id, text in entries.items():
        for gram in {text[i : i + n] for i in range(len(text) - n + 1)}:
            first_by_gram.setdefault(gram, []).append(slot_id)
    wanted = None if only is None else set(only)
    pairs: dict[tuple[SlotId, SlotId], str] = {}
    for gram, slot_ids in first_by_gram.items():
        for i, a in enumerate(slot_ids):
            for b in slot_ids[i + 1 :]:
                key = (min(a, b), max(a, b))
                if key in pairs or (wanted is not None and a not in wanted and b not in wanted):
                    continue
                pairs[key] = gram
    return [(a, b, gram) for (a, b), gram in sorted(pairs.items())]
