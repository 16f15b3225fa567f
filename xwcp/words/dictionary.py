"""Definitions of answers from WordNet: find the system's WordNet files, index them once in the cache, look up fast.

WordNet 3.0 (Princeton; its licence lets anyone use, copy and change it with its copyright notice kept) comes from
the operating system's packages (Debian's `wordnet-base` puts it in /usr/share/wordnet); xwcp never ships it. The
first look-up on a machine reads the four `data.*` and `index.*` files (about 3 s) into a sorted index in the cache
folder (`<cache_dir>/wordnet-v<INDEX_VERSION>-<digest of the files' sizes and times>/`, replacing the index of
an older version or of the same folder's older files): `senses.txt`, one line per
sense (`KEY<TAB>pos<TAB>lemma<TAB>definition<TAB>examples`, sorted by KEY, the answer's letters A-Z), and
`keys.bin`, the byte offset of each KEY's first line. A look-up maps both files and bisects the offsets: a few
microseconds, no parsing of the whole. `meta.json` holds each file's size and XXH3-64 checksum, checked when the
index is opened: a damaged index is built again. Inflected answers (GEESE, RAN, BOXES) reach their lemma through WordNet's
exception lists (kept in the index as `forms.txt`) and its detachment rules, as WordNet's own `morphy` does.
"""

from __future__ import annotations

import array
import hashlib
import json
import mmap
import os
import shutil
import threading
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from xwcp.words.cache import cache_dir

INDEX_VERSION = 4
"""Bump when the index's layout or its parsing changes: another version's index sits in another folder."""

SEARCH_DIRS = (
    "/usr/share/wordnet",
    "/usr/share/wordnet/dict",
    "/usr/local/share/wordnet",
    "/usr/local/WordNet-3.0/dict",
)
"""Where WordNet's database is looked for after $WNSEARCHDIR (WordNet's own variable): Debian's, then source installs."""

POS_BY_FILE = {"noun": "noun", "verb": "verb", "adj": "adjective", "adv": "adverb"}
"""WordNet's file suffix -> the part of speech shown."""

INSTALL_HINT = (
    "install Debian's wordnet-base (apt-get install wordnet-base) or set WNSEARCHDIR to a WordNet dict folder"
)
"""The one line shown when no WordNet is found."""

LICENCE_NAME = "WordNet 3.0 licence"
COPYRIGHT = "WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved."
"""The notice WordNet's licence asks to appear with its data, shown with every definition."""

_DETACHMENTS = {
    "noun": (
        ("S", ""),
        ("SES", "S"),
        ("XES", "X"),
        ("ZES", "Z"),
        ("CHES", "CH"),
        ("SHES", "SH"),
        ("MEN", "MAN"),
        ("IES", "Y"),
    ),
    "verb": (("S", ""), ("IES", "Y"), ("ES", "E"), ("ES", ""), ("ED", "E"), ("ED", ""), ("ING", "E"), ("ING", "")),
    "adjective": (("ER", ""), ("EST", ""), ("ER", "E"), ("EST", "E")),
}
"""WordNet's morphy rules (suffix -> replacement per part of speech), on answers written A-Z."""


INDEX_FILES = ("senses.txt", "keys.bin", "forms.txt", "source.txt")
"""The index's files; meta.json holds each one's size and XXH3-64 checksum, verified when the index is opened."""


class IndexDamaged(Exception):
    """An index file whose size or checksum is not what meta.json says (a disk error, a copy cut short)."""


class DictionaryMissing(Exception):
    """No WordNet database on this machine; the message is one line saying how to install it."""


@dataclass(frozen=True)
class Definition:
    """One sense of an answer."""

    lemma: str
    """The word or phrase as WordNet writes it (`ice-cream cone`, `Eli`)."""
    pos: str
    """Part of speech: noun, verb, adjective, adverb."""
    text: str
    """The definition."""
    examples: tuple[str, ...] = ()
    """WordNet's example sentences for this sense."""
    form_of: str | None = None
    """When the answer is an inflection (GEESE, RAN): the lemma it is a form of; else None."""


@dataclass(frozen=True)
class Licence:
    """The licence of the definitions' source, shown with them."""

    source: str
    """The source's name and version, e.g. `Princeton WordNet 3.0`."""
    name: str
    notice: str
    """The copyright notice the licence asks to keep with the data."""
    path: str
    """The folder the data was read from."""


def answer_key(text: str) -> str:
    """The letters of `text` as an answer is written: accents folded, A-Z only (`ice-cream_cone` -> ICECREAMCONE)."""
    folded = unicodedata.normalize("NFKD", text)
    return "".join(c for c in folded.upper() if "A" <= c <= "Z")


def find_wordnet() -> Path | None:
    """The folder holding WordNet's `data.noun` ... files: $WNSEARCHDIR, else the first of SEARCH_DIRS; None if none."""
    env = os.environ.get("WNSEARCHDIR")
    candidates = ([env] if env else []) + list(SEARCH_DIRS)
    for folder in candidates:
        path = Path(folder)
        if all((path / f"{kind}.{suffix}").is_file() for kind in ("data", "index") for suffix in POS_BY_FILE):
            return path
    return None


class Dictionary:
    """An indexed WordNet: `definitions(answer)` and `senses(key)` look up; open with `open_dictionary()`."""

    def __init__(self, folder: Path, source: Path) -> None:
        """Open the index in `folder`, every file checked against meta.json (about 15 ms for all 23 MB).

        Raises:
            IndexDamaged: a file is missing, or its size or checksum differs from meta.json's.
        """
        self.folder = folder
        self.licence = Licence("Princeton WordNet 3.0", LICENCE_NAME, COPYRIGHT, str(source))
        try:
            expected = json.loads((folder / "meta.json").read_text("utf-8"))["files"]
            with open(folder / "senses.txt", "rb") as f:
                self._senses = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            keys = (folder / "keys.bin").read_bytes()
            for name in INDEX_FILES:
                data = (
                    self._senses
                    if name == "senses.txt"
                    else keys
                    if name == "keys.bin"
                    else (folder / name).read_bytes()
                )
                if [len(data), _checksum(data)] != expected[name]:
                    raise IndexDamaged(f"{folder / name}: its size or checksum is not the one it was written with")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise IndexDamaged(f"{folder}: the WordNet index cannot be read ({exc})") from None
        offsets = array.array("I")
        offsets.frombytes(keys)
        self._offsets = offsets
        self._forms: dict[str, tuple[tuple[str, str], ...]] | None = None

    @property
    def n_keys(self) -> int:
        """How many different answers the index defines."""
        return len(self._offsets) - 1

    def _key_at(self, index: int) -> bytes:
        start = self._offsets[index]
        return self._senses[start : self._senses.find(b"\t", start)]

    def senses(self, key: str) -> list[Definition]:
        """The senses whose lemma's letters are exactly `key` (A-Z), most common first; [] when none."""
        target = key.encode("ascii", "ignore")
        lo, hi = 0, self.n_keys
        while lo < hi:
            mid = (lo + hi) // 2
            if self._key_at(mid) < target:
                lo = mid + 1
            else:
                hi = mid
        if lo >= self.n_keys or self._key_at(lo) != target:
            return []
        block = self._senses[self._offsets[lo] : self._offsets[lo + 1]].decode("utf-8")
        found = []
        for line in block.splitlines():
            _, pos, lemma, text, examples = line.split("\t")
            found.append(Definition(lemma, pos, text, tuple(x for x in examples.split(" | ") if x)))
        return found

    def has(self, key: str) -> bool:
        """Whether WordNet has a lemma written with exactly these letters."""
        return bool(self.senses(key))

    def forms(self) -> dict[str, tuple[tuple[str, str], ...]]:
        """Irregular inflection (A-Z) -> (part of speech, key of its lemma) pairs, from WordNet's exception lists."""
        if self._forms is None:
            forms: dict[str, tuple[tuple[str, str], ...]] = {}
            for line in (self.folder / "forms.txt").read_text("utf-8").splitlines():
                key, _, bases = line.partition("\t")
                forms[key] = tuple((b.partition(":")[0], b.partition(":")[2]) for b in bases.split())
            self._forms = forms
        return self._forms

    def base_keys(self, key: str) -> list[tuple[str, str]]:
        """(part of speech, lemma key) pairs `key` may be an inflection of (GEESE -> noun GOOSE, RAN -> verb RUN),
        each lemma in the index with that part of speech; never `key` itself."""
        bases = list(self.forms().get(key, ()))
        for pos, rules in _DETACHMENTS.items():
            for suffix, replacement in rules:
                if key.endswith(suffix) and len(key) > len(suffix) + 1:
                    bases.append((pos, key[: -len(suffix)] + replacement))
        found: list[tuple[str, str]] = []
        for pos, base in bases:
            if base != key and (pos, base) not in found and any(s.pos == pos for s in self.senses(base)):
                found.append((pos, base))
        return found

    def definitions(self, answer: str) -> list[Definition]:
        """Every sense of `answer` (any spelling: `ice cream cone`, ICECREAMCONE), then those of the lemmas it
        inflects (each with `form_of`), most common first; [] when WordNet has neither."""
        key = answer_key(answer)
        found = self.senses(key)
        seen = {(d.pos, d.text) for d in found}
        for pos, base in self.base_keys(key):
            for sense in self.senses(base):
                if sense.pos == pos and (sense.pos, sense.text) not in seen:
                    seen.add((sense.pos, sense.text))
                    found.append(Definition(sense.lemma, sense.pos, sense.text, sense.examples, form_of=sense.lemma))
        return found


_OPENED: dict[Path, Dictionary] = {}
_OPENING = threading.Lock()
"""One thread at a time opens or builds an index: the web builder's first requests come in parallel."""


def open_dictionary(source: Path | None = None) -> Dictionary:
    """The indexed WordNet of `source` (default: `find_wordnet()`), built in the cache on first use, then kept open.

    Raises:
        DictionaryMissing: no WordNet database is installed (its message says how to install one).
    """
    source = source or find_wordnet()
    if source is None:
        raise DictionaryMissing(f"no WordNet dictionary on this machine: {INSTALL_HINT}")
    folder = cache_dir() / f"wordnet-v{INDEX_VERSION}-{_digest(source)}"
    opened = _OPENED.get(folder)
    if opened is not None:
        return opened
    with _OPENING:
        return _open_or_build(source, folder)


def _open_or_build(source: Path, folder: Path) -> Dictionary:
    """The index in `folder` opened (built first when missing, again when damaged) and kept in _OPENED."""
    opened = _OPENED.get(folder)
    if opened is not None:
        return opened
    if not (folder / "meta.json").is_file():
        build_index(source, folder)
        _remove_other_indexes(folder)
    try:
        opened = Dictionary(folder, source)
    except IndexDamaged:  # rebuilt once, as a damaged word-list cache is
        shutil.rmtree(folder, ignore_errors=True)
        build_index(source, folder)
        opened = Dictionary(folder, source)
    _OPENED[folder] = opened
    return opened


def _checksum(data: bytes | mmap.mmap) -> int:
    """XXH3-64 of `data`, as the word-list cache checks its files (xwcp.words.cache)."""
    import xxhash

    return int(xxhash.xxh3_64_intdigest(data))


def _remove_other_indexes(kept: Path) -> None:
    """Remove the indexes `kept` replaces: another version's, and this version's of the same folder's older files (an
    upgraded database). Indexes of other WordNet folders stay."""
    source = (kept / "source.txt").read_text("utf-8")
    for other in kept.parent.glob("wordnet-v*"):
        if other == kept or not other.is_dir() or ".tmp" in other.name:
            continue
        same_version = other.name.startswith(f"wordnet-v{INDEX_VERSION}-")
        try:
            same_source = (other / "source.txt").read_text("utf-8") == source
        except OSError:
            same_source = False
        if not same_version or same_source:
            shutil.rmtree(other, ignore_errors=True)


def _digest(source: Path) -> str:
    """A digest of WordNet's files' names, sizes and times: a changed database gets a new index."""
    h = hashlib.sha256(str(source.resolve()).encode())
    for kind in ("data", "index"):
        for suffix in POS_BY_FILE:
            st = (source / f"{kind}.{suffix}").stat()
            h.update(f"{kind}.{suffix}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:16]


def _gloss(gloss: str) -> tuple[str, list[str]]:
    """(definition, examples) from a WordNet gloss `defn; "example"; "example"`."""
    parts = [p.strip() for p in gloss.strip().split("; ")]
    definition = [p for p in parts if not p.startswith('"')]
    examples = [p.strip('"') for p in parts if p.startswith('"')]
    return "; ".join(definition), examples


def _clean_word(word: str) -> str:
    """A synset word as shown: `_` as spaces, an adjective's marker like `(a)` dropped."""
    if word.endswith(")") and "(" in word:
        word = word[: word.index("(")]
    return word.replace("_", " ")


def _read_synsets(source: Path, suffix: str) -> dict[str, tuple[tuple[str, ...], str, list[str]]]:
    """Synset offset -> (its words as written, definition, examples) of one `data.*` file."""
    synsets: dict[str, tuple[tuple[str, ...], str, list[str]]] = {}
    with open(source / f"data.{suffix}", encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith(" "):
                continue
            head, _, gloss = line.partition(" | ")
            fields = head.split()
            n_words = int(fields[3], 16)
            words = tuple(_clean_word(fields[4 + 2 * i]) for i in range(n_words))
            definition, examples = _gloss(gloss)
            synsets[fields[0]] = (words, definition, examples)
    return synsets


def _sense_rows(source: Path) -> Iterator[tuple[str, int, int, str, str, str, str]]:
    """(key, sense number, pos order, pos, lemma, definition, examples) for every sense of every index file."""
    for pos_order, (suffix, pos) in enumerate(POS_BY_FILE.items()):
        synsets = _read_synsets(source, suffix)
        with open(source / f"index.{suffix}", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith(" "):
                    continue
                fields = line.split()
                lemma, n_synsets, n_pointers = fields[0], int(fields[2]), int(fields[3])
                key = answer_key(lemma)
                if not key:
                    continue
                offsets = fields[6 + n_pointers : 6 + n_pointers + n_synsets]
                for sense_number, offset in enumerate(offsets):
                    words, definition, examples = synsets[offset]
                    shown = lemma.replace("_", " ")
                    written = next((w for w in words if w.lower() == shown), shown)
                    clean = " | ".join(x.replace("\t", " ") for x in examples)
                    yield key, sense_number, pos_order, pos, written, definition.replace("\t", " "), clean


def build_index(source: Path, folder: Path) -> None:
    """Write the index of the WordNet at `source` into `folder` (atomically: a temporary folder renamed)."""
    rows = sorted(_sense_rows(source), key=lambda r: (r[0], r[1], r[2]))
    tmp = folder.with_name(f"{folder.name}.tmp{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    offsets = array.array("I")
    position = 0
    last_key = None
    with open(tmp / "senses.txt", "wb") as out:
        for key, _, _, pos, lemma, definition, examples in rows:
            row = f"{key}\t{pos}\t{lemma}\t{definition}\t{examples}\n".encode()
            if key != last_key:
                offsets.append(position)
                last_key = key
            out.write(row)
            position += len(row)
    offsets.append(position)
    (tmp / "keys.bin").write_bytes(offsets.tobytes())
    (tmp / "source.txt").write_text(str(source.resolve()), "utf-8")
    forms: dict[str, list[str]] = {}
    keys = {r[0] for r in rows}
    for suffix, pos in POS_BY_FILE.items():
        exceptions = source / f"{suffix}.exc"
        if not exceptions.is_file():
            continue
        for line in exceptions.read_text("utf-8", errors="replace").splitlines():
            fields = line.split()
            if len(fields) < 2:
                continue
            inflected = answer_key(fields[0])
            for base in fields[1:]:
                base_key = f"{pos}:{answer_key(base)}"
                if base_key[len(pos) + 1 :] in keys and base_key not in forms.setdefault(inflected, []):
                    forms[inflected].append(base_key)
    (tmp / "forms.txt").write_text("".join(f"{k}\t{' '.join(v)}\n" for k, v in sorted(forms.items()) if v), "utf-8")
    meta = {
        "files": {name: [len(data), _checksum(data)] for name in INDEX_FILES for data in [(tmp / name).read_bytes()]}
    }
    (tmp / "meta.json").write_text(json.dumps(meta), "utf-8")
    try:
        tmp.rename(folder)
    except OSError:  # another process built it first: theirs is as good
        shutil.rmtree(tmp, ignore_errors=True)
        if not (folder / "meta.json").is_file():
            raise


def index_bytes(dictionary: Dictionary) -> int:
    """The index's size on disk, in bytes."""
    return sum(p.stat().st_size for p in dictionary.folder.iterdir())


__all__ = [
    "COPYRIGHT",
    "Definition",
    "Dictionary",
    "DictionaryMissing",
    "Licence",
    "answer_key",
    "find_wordnet",
    "index_bytes",
    "open_dictionary",
]
