"""Read scored word lists and index them by length as numpy arrays, with an on-disk cache.

A list is `WORD;score` lines (missing score = 50), `WORD;score;tags` lines (the tags are read by
`xwcp.compile.controls.read_list_tags`, for `--no-crossing`) or plain word-per-line text. Words are
read through the list's alphabet (`xwcp.model.alphabet`; English by default: A-Z, accents folded;
spaces, hyphens, apostrophes and periods dropped); a word with a character outside the alphabet is
counted and named, never turned into another word; the highest score of duplicates is kept;
malformed lines are collected, not raised. Words are kept as code chars (one per letter cell).

Per length L the index holds, sorted in alphabet order (K = the alphabet's size, 26 for English):
    letters  uint8 [n, L]   letter codes 0..K-1 (uint16 for a wide alphabet: an open pack past 250 letters)
    scores   int16 [n]
    order    int32 [L, n]   word ids sorted by their letter at each position
    starts   int32 [L, K+1] order[p, starts[p, c]:starts[p, c + 1]] = ids with letter c at p
All lengths live in a few flat arrays (buckets are views), so the search kernel gets them
without copying, and the compiled form is kept by `xwcp.words.cache`, keyed by the source file's
hash, so a second load is a handful of memory-mapped reads. `MappedWordList` is the same
cached list read without numpy (for the start-up path of a small fill, xwcp/services/quick.py).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xwcp.base.errors import InputError
from xwcp.base.types import WordId
from xwcp.model.alphabet import ENGLISH, MAX_OPEN_LETTERS, Alphabet
from xwcp.model.grid import changed_letters
from xwcp.runtime.files import is_compressed, read_bounded, source_name
from xwcp.runtime.lazy import lazy_import
from xwcp.words import cache
from xwcp.words.cache import cache_dir  # noqa: F401 - where xwcp.bench finds the cache folder

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
else:
    np = lazy_import("numpy")  # a cached list is read without it (MappedWordList); building and indexing need it

DEFAULT_SCORE = 50
"""Score of a word given without one (CWL convention: 50 is an ordinary entry)."""

MIN_SCORE, MAX_SCORE = -32768, 32767
"""Scores are stored as int16; others are clamped to this range, with a note."""

DEFAULT_LIST_NAME = "cwl50.dict.xz"
MAX_LIST_BYTES = 256 * 1024 * 1024
"""Largest word-list file we read (the biggest public lists are about 50 MB)."""
_MAX_REPORTED_PROBLEMS = 1000
LIST_TAGS = ("name", "abbr", "foreign", "obscure")
"""The tags a list's third column may give a word (`WORD;score;name,abbr`), for `--no-crossing`."""


@dataclass(frozen=True)
class LengthBucket:
    """All words of one length; `letters[word_id]` spells word `word_id`."""

    length: int
    letters: NDArray[np.uint8]
    scores: NDArray[np.int16]
    order: NDArray[np.int32]
    starts: NDArray[np.int32]
    alphabet: Alphabet = ENGLISH

    @property
    def n_words(self) -> int:
        return int(self.letters.shape[0])

    def text(self, word_id: WordId) -> str:
        """Word `word_id` in code chars (A-Z for English)."""
        if self.alphabet.is_ascii:
            spelled: bytes = (self.letters[word_id] + 65).tobytes()
            return spelled.decode("ascii")
        return self.alphabet.decode(letter_bytes(self.letters[word_id], self.alphabet))

    def ids_with_letter(self, pos: int, letter: int) -> NDArray[np.int32]:
        """Word ids with letter code `letter` at position `pos`."""
        return self.order[pos, self.starts[pos, letter] : self.starts[pos, letter + 1]]


@dataclass
class WordList:
    """A normalised word list indexed by length (see the module docstring for the arrays)."""

    source: str
    letters_flat: NDArray[np.uint8]
    scores_flat: NDArray[np.int16]
    order_flat: NDArray[np.int32]
    starts_flat: NDArray[np.int32]
    table: NDArray[np.int64]
    """int64 [n_lengths, 7]: length, n_words, letters_off, scores_off, order_off, starts_off, bits_off."""
    bits_flat: NDArray[np.uint64]
    """uint64: per length, [L * K, ceil(n / 64)] bitsets of the word ids with letter c at position q."""
    problems: list[tuple[int, str]] = field(default_factory=list)
    n_problems: int = 0
    notes: list[str] = field(default_factory=list)
    """Things a front end should say once about this load: scores clamped, the cache rebuilt or not writable."""
    alphabet: Alphabet = ENGLISH
    """The letters the words are spelled in (`xwcp.model.alphabet`); K = `alphabet.size` sizes the index."""
    _buckets: dict[int, LengthBucket] = field(default_factory=dict, repr=False)
    _id_by_text: dict[int, dict[bytes, int]] = field(default_factory=dict, repr=False)

    @property
    def n_words(self) -> int:
        return int(self.table[:, 1].sum()) if len(self.table) else 0

    @property
    def lengths(self) -> list[int]:
        return [int(x) for x in self.table[:, 0]]

    def bucket(self, length: int) -> LengthBucket:
        """The words of `length` (an empty bucket when there are none)."""
        bucket = self._buckets.get(length)
        if bucket is not None:
            return bucket
        rows = np.nonzero(self.table[:, 0] == length)[0]
        width = self.alphabet.size + 1
        if len(rows) == 0:
            bucket = LengthBucket(
                length,
                np.zeros((0, length), letter_dtype(self.alphabet)),
                np.zeros(0, np.int16),
                np.zeros((length, 0), np.int32),
                np.zeros((length, width), np.int32),
                self.alphabet,
            )
        else:
            _, n, l_off, s_off, o_off, st_off, _ = (int(x) for x in self.table[rows[0]])
            bucket = LengthBucket(
                length,
                self.letters_flat[l_off : l_off + n * length].reshape(n, length),
                self.scores_flat[s_off : s_off + n],
                self.order_flat[o_off : o_off + n * length].reshape(length, n),
                self.starts_flat[st_off : st_off + width * length].reshape(length, width),
                self.alphabet,
            )
        self._buckets[length] = bucket
        return bucket

    def word_id(self, text: str) -> WordId | None:
        """The id of a word (code chars) within its length bucket, or None if it is not listed."""
        length = len(text)
        ids = self._id_by_text.get(length)
        ascii_letters = self.alphabet.is_ascii
        if ids is None:
            bucket = self.bucket(length)
            raw = (bucket.letters + 65).tobytes() if ascii_letters else letter_bytes(bucket.letters, self.alphabet)
            size = length * (2 if self.alphabet.is_wide else 1)
            ids = {raw[k * size : (k + 1) * size]: k for k in range(bucket.n_words)}
            self._id_by_text[length] = ids
        key = text.encode("ascii", "replace") if ascii_letters else _index_key(self.alphabet, text)
        return None if key is None else ids.get(key)

    def score(self, text: str) -> int | None:
        word_id = self.word_id(text)
        return None if word_id is None else int(self.bucket(len(text)).scores[word_id])


_ASCII_OF_CODE = bytes(range(65, 91)).ljust(256, b"?")
"""bytes.translate table: letter code 0..25 -> ASCII A..Z."""


def _index_key(alphabet: Alphabet, text: str) -> bytes | None:
    """`text`'s letter indices as bytes (a non-English list's lookup key), None when a char is no letter."""
    if not all(alphabet.index(ch) is not None for ch in text):
        return None
    return alphabet.encode(text)


class MappedBucket:
    """The words of one length in a MappedWordList: `text(word_id)` spells word `word_id`."""

    def __init__(self, length: int, n_words: int, spelled: bytes, alphabet: Alphabet = ENGLISH):
        self.length = length
        self.n_words = n_words
        self._spelled = spelled
        """The bucket's words one after another, in word-id (alphabet) order: ASCII for English, else letter
        indices (both sort as the words do)."""
        self._alphabet = alphabet

    def text(self, word_id: WordId) -> str:
        spelled = self._spelled[word_id * self.length : (word_id + 1) * self.length]
        return spelled.decode("ascii") if self._alphabet.is_ascii else self._alphabet.decode(spelled)

    def word_id(self, text: str) -> WordId | None:
        """Binary search: the words are sorted alphabetically."""
        key = text.encode("ascii", "replace") if self._alphabet.is_ascii else _index_key(self._alphabet, text)
        if key is None:
            return None
        length, spelled = self.length, self._spelled
        lo, hi = 0, self.n_words
        while lo < hi:
            mid = (lo + hi) // 2
            if spelled[mid * length : (mid + 1) * length] < key:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < self.n_words and spelled[lo * length : (lo + 1) * length] == key else None


class MappedWordList:
    """A cached list read straight from its memory-mapped files, without numpy (`cache.read_mapped`).

    It answers what a fill's problem, check and report ask of a list (`word_id`, `score`,
    `bucket(length).text`), and hands the compiled search the flat arrays as memoryviews. The
    arrays are those of `WordList` (see the module docstring); `table_rows` is its length table.
    The words of a length are verified (`cache.verify_bucket`: their checksums, letters and index) when that
    length is first used, before any of its bytes is read.

    Raises:
        cache.CacheDamaged: (from `row` and `bucket`) the words of a length do not verify.
    """

    def __init__(self, source: str, fields: cache.MappedFields, alphabet: Alphabet = ENGLISH):
        self.source = source
        self.alphabet = alphabet
        self.problems, self.n_problems, self.notes = fields["problems"], fields["n_problems"], fields["notes"]
        self.letters_flat = fields["letters_flat"]
        self.scores_flat = fields["scores_flat"]
        self.order_flat = fields["order_flat"]
        self.starts_flat = fields["starts_flat"]
        self.table = fields["table"]
        self.bits_flat = fields["bits_flat"]
        flat = fields["table"].tolist()
        self.table_rows: list[tuple[int, ...]] = [tuple(flat[k : k + 7]) for k in range(0, len(flat), 7)]
        self._row_by_length = {row[0]: row for row in self.table_rows}
        self._crc_by_length = {row[0]: crc for row, crc in zip(self.table_rows, fields["row_crcs"])}
        self._buckets: dict[int, MappedBucket] = {}
        self._verified: set[int] = set()

    @property
    def lengths(self) -> list[int]:
        return [row[0] for row in self.table_rows]

    def row(self, length: int) -> tuple[int, ...]:
        """The length table's row for `length` (length, n_words and the offsets; all 0 when none)."""
        row = self._row_by_length.get(length)
        if row is None:
            return (length,) + (0,) * 6
        if length not in self._verified:
            arrays = {
                "letters_flat": self.letters_flat,
                "scores_flat": self.scores_flat,
                "order_flat": self.order_flat,
                "starts_flat": self.starts_flat,
                "bits_flat": self.bits_flat,
            }
            cache.verify_bucket(arrays, row, self._crc_by_length[length], self.alphabet.size)
            self._verified.add(length)
        return row

    def bucket(self, length: int) -> MappedBucket:
        bucket = self._buckets.get(length)
        if bucket is None:
            _, n, l_off = self.row(length)[:3]
            spelled = self.letters_flat[l_off : l_off + n * length].tobytes()
            if self.alphabet.is_ascii:
                spelled = spelled.translate(_ASCII_OF_CODE)
            bucket = self._buckets[length] = MappedBucket(length, n, spelled, self.alphabet)
        return bucket

    def word_id(self, text: str) -> WordId | None:
        """The id of a word (code chars) within its length bucket, or None if it is not listed."""
        return self.bucket(len(text)).word_id(text)

    def letter_bits(self, length: int, pos: int, letter: int) -> int:
        """The bitset of the words of `length` with letter code `letter` at `pos` (from the cached bitsets)."""
        _, n, _, _, _, _, b_off = self.row(length)
        n_blocks = (n + 63) // 64
        start = b_off + (pos * self.alphabet.size + letter) * n_blocks
        return int.from_bytes(self.bits_flat[start : start + n_blocks], "little")

    def score(self, text: str) -> int | None:
        word_id = self.word_id(text)
        return None if word_id is None else self.scores_flat[self._row_by_length[len(text)][3] + word_id]


def read_mapped_word_list(path: str | Path | None = None, alphabet: Alphabet = ENGLISH) -> MappedWordList | None:
    """The list at `path` (None: the embedded default list) from the cache, without numpy; None when
    it is not cached yet or its cache does not verify (`load_word_list` then compiles or rebuilds it).

    Raises:
        InputError: missing or unreadable list file.
    """
    source, raw = list_source(path)
    try:  # each length is verified when first used
        fields = cache.read_mapped(cache_folder(raw, alphabet), check_words=False, n_letters=alphabet.size)
    except cache.CacheDamaged:
        return None
    return None if fields is None else MappedWordList(source, fields, alphabet)


def normalise_word(raw: str, alphabet: Alphabet = ENGLISH) -> str | None:
    """Fold `raw` into `alphabet`'s letters (code chars), or None if it holds anything else.

    English: accents are dropped (É -> E) and ligatures spelt out (Æ -> AE); a character whose folded
    form is not A-Z (`º` folds to `o`, `ⁿ` to `n`, `²` to `2`) makes the line no word. Other alphabets:
    `Alphabet.fold_word` (Spanish keeps Ñ, German writes Ä as AE, Dutch IJ is one letter).
    """
    return alphabet.fold_word(raw)


def describe_problems(problems: list[tuple[int, str]], n_problems: int, shown: int = 3) -> str:
    """'2 malformed lines: line 6: ...; line 7: ...' naming the first `shown` of them."""
    named = "; ".join(f"line {line}: {what}" for line, what in problems[:shown])
    more = f"; and {n_problems - shown} more" if n_problems > shown else ""
    return f"{n_problems} malformed line{'s' if n_problems != 1 else ''}: {named}{more}"


def parse_word_lines(
    text: str,
    source: str,
    notes: list[str] | None = None,
    first_line: int = 1,
    alphabet: Alphabet = ENGLISH,
    typed: bool = False,
) -> tuple[dict[str, int], list[tuple[int, str]], int]:
    """Parse list text into {word: best score}, plus (line, problem) pairs and the problem count.

    Scores outside the int16 range are clamped to it; `notes` (when given) gets one line saying so.
    `first_line` is the number of the text's first line in its file (for a chunk of a big list).
    `typed`: the words are a person's (a personal list), read by `Alphabet.typed_word`: a line with a character
    the alphabet cannot keep is a problem naming it, and `notes` gets one line naming the words its pack's rules
    wrote with other letters (CAFÉ -> CAFE).
    """
    score_by_word: dict[str, int] = {}
    problems: list[tuple[int, str]] = []
    n_problems = 0
    n_clamped = 0
    changed: list[tuple[int, str]] = []  # (line, 'ß -> SS'): letters upper case turns into others, said in a note
    n_changed = 0
    folded: list[str] = []  # 'line 3: CAFÉ -> CAFE' (typed words the pack's rules wrote with other letters)
    n_folded = 0
    first_clamped: tuple[int, int] | None = None
    for line_no, line in enumerate(text.splitlines(), start=first_line):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word_part, sep, score_part = line.partition(";")
        score = DEFAULT_SCORE
        if sep:
            score_part, sep_tags, tags_part = score_part.partition(";")  # a third column: tags (`read_list_tags`)
            score_part = score_part.strip()
            bad_tags = [t.strip() for t in tags_part.split(",") if t.strip() not in LIST_TAGS] if sep_tags else []
            if bad_tags:
                n_problems += 1
                if len(problems) < _MAX_REPORTED_PROBLEMS:
                    problems.append((line_no, f"{bad_tags[0]!r} is not a tag ({', '.join(LIST_TAGS)})"))
                continue
            if score_part:
                try:
                    score = int(score_part)
                except ValueError:
                    n_problems += 1
                    if len(problems) < _MAX_REPORTED_PROBLEMS:
                        problems.append((line_no, f"score {score_part!r} is not a whole number"))
                    continue
                if not MIN_SCORE <= score <= MAX_SCORE:
                    n_clamped += 1
                    first_clamped = first_clamped or (line_no, score)
                    score = max(MIN_SCORE, min(MAX_SCORE, score))
        if typed:
            read = alphabet.typed_word(word_part.strip())
            word, why_not = read.word, read.refused
            if word and read.folds:
                n_folded += 1
                if len(folded) < 3:
                    typed_text = unicodedata.normalize("NFC", word_part.strip())[:40]
                    folded.append(f"line {line_no}: {typed_text} -> {alphabet.written(word)[:40]}")
            if not word:
                n_problems += 1
                if len(problems) < _MAX_REPORTED_PROBLEMS:
                    shown = repr(word_part.strip()[:40])
                    problems.append(
                        (
                            line_no,
                            f"{shown} is not a word of letters"
                            if why_not == "no letters"
                            else f"{shown} has {why_not}, which is no letter of {alphabet.name}",
                        )
                    )
                continue
        else:
            word, why_not = alphabet.fold_report(word_part.strip())
        if word and alphabet.is_ascii and not word_part.isascii() and not typed:
            changes = changed_letters(word_part)
            if changes:
                n_changed += 1
                if len(changed) < 3:
                    changed.append((line_no, ", ".join(changes)))
        if not word:
            n_problems += 1
            if len(problems) < _MAX_REPORTED_PROBLEMS:
                problems.append(
                    (
                        line_no,
                        f"{word_part.strip()!r} is not a word of letters"
                        if alphabet.is_ascii
                        else f"{word_part.strip()!r} has {why_not}, not a letter of {alphabet.name}",
                    )
                )
            continue
        old = score_by_word.get(word)
        if old is None or score > old:
            score_by_word[word] = score
    if first_clamped is not None and notes is not None:  # set with the first clamped score
        line_no, score = first_clamped
        notes.append(
            f"{source}: {n_clamped} score{'s' if n_clamped != 1 else ''} outside {MIN_SCORE}..{MAX_SCORE} "
            f"{'were' if n_clamped != 1 else 'was'} clamped to that range (first: line {line_no}, {score})"
        )
    if folded and notes is not None:
        named = "; ".join(folded) + ("; and more" if n_folded > len(folded) else "")
        notes.append(
            f"{source}: {n_folded} word{'s' if n_folded != 1 else ''} stored in the letters of "
            f"{alphabet.name} ({named})"
        )
    if changed and notes is not None:
        named = "; ".join(f"line {line_no}: {what}" for line_no, what in changed)
        notes.append(
            f"{source}: {n_changed} word{'s' if n_changed != 1 else ''} spelled with letters that upper case "
            f"changes into others, read that way ({named}{'; and more' if n_changed > len(changed) else ''})"
        )
    return score_by_word, problems, n_problems


_CLEAN_LINE = re.compile(r"^[ \t]*([A-Za-z]+)[ \t]*(?:;[ \t]*(\d{1,5})?[ \t]*)?\r?$", re.M)
_CONTENT_LINE = re.compile(r"^[^\S\n]*[^\s#]", re.M)
_ODD_LINE_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def _parse_clean(text: str) -> dict[str, int] | None:
    """`parse_word_lines` for text whose every line is a plain `WORD[;score]` (A-Z words), else None.

    One regular-expression pass instead of a Python call chain per line: a big list's parse
    goes from about 9 us to about 1 us a line. Any other line (accents, phrases, bad scores,
    odd line breaks) sends the text to `parse_word_lines`, which keeps its exact rules.
    """
    if any(ch in text for ch in _ODD_LINE_BREAKS):
        return None
    pairs = _CLEAN_LINE.findall(text)
    if len(pairs) != len(_CONTENT_LINE.findall(text)):
        return None
    score_by_word: dict[str, int] = {}
    get = score_by_word.get
    for word, score_text in pairs:
        score = int(score_text) if score_text else DEFAULT_SCORE
        if score > MAX_SCORE:
            return None  # clamped: parse_word_lines says so in a note
        word = word.upper()
        old = get(word)
        if old is None or score > old:
            score_by_word[word] = score
    return score_by_word


PARSE_CHUNK_CHARS = 4_000_000
"""Characters of list text parsed at a time when a list is compiled.

A 50 MB list parsed whole held every line as a Python string and every word in one dict
(1.2 GB); parsed in chunks, each chunk's words go into compact per-length numpy arrays
before the next chunk is read, so the peak is the arrays plus one chunk."""


def byte_spelling(alphabet: Alphabet) -> tuple[int, Callable[[str], bytes]]:
    """(byte of letter 0, text -> bytes): how words are spelled as fixed-width bytes to sort and index them.
    ASCII for English; else letter index + 1 (never a NUL, which numpy's byte strings drop at the end), in two
    bytes, big-endian, when the alphabet `is_wide` (`spelled_dtype` reads them back)."""
    if alphabet.is_ascii:
        return 65, lambda text: text.encode("ascii")
    table = str.maketrans({ch: chr(i + 1) for i, ch in enumerate(alphabet.chars)})
    encoding = "utf-16-be" if alphabet.is_wide else "latin-1"
    return 1, lambda text: text.translate(table).encode(encoding)


def letter_dtype(alphabet: Alphabet) -> type[np.unsignedinteger[Any]]:
    """The element type of a list's letter arrays: one byte a letter, two when the alphabet `is_wide`."""
    return np.uint16 if alphabet.is_wide else np.uint8


def spelled_dtype(alphabet: Alphabet) -> str:
    """The numpy type of one letter as `Alphabet.encode` and `byte_spelling` write it (big-endian when wide)."""
    return ">u2" if alphabet.is_wide else "u1"


def letter_bytes(letters: NDArray[Any], alphabet: Alphabet) -> bytes:
    """Letter codes (any shape) as `alphabet.encode` writes them, row after row."""
    return np.ascontiguousarray(letters, spelled_dtype(alphabet)).tobytes()


class _Builder:
    """Collects (word, score) chunks per length as fixed-width byte arrays, then indexes them.

    Duplicates across chunks are resolved at the end (best score kept), so the result equals
    indexing the whole list at once; the flat arrays are allocated once, at their final size.
    """

    def __init__(self, alphabet: Alphabet = ENGLISH) -> None:
        self.words_by_length: dict[int, list[NDArray[np.bytes_]]] = {}
        self.scores_by_length: dict[int, list[NDArray[np.int16]]] = {}
        self.alphabet = alphabet
        self._offset, self._spell = byte_spelling(alphabet)
        self._width = 2 if alphabet.is_wide else 1

    def add(self, score_by_word: dict[str, int]) -> None:
        by_length: dict[int, list[str]] = {}
        for word in score_by_word:
            by_length.setdefault(len(word), []).append(word)
        for length, words in by_length.items():
            self.words_by_length.setdefault(length, []).append(
                np.frombuffer(self._spell("".join(words)), dtype=f"S{length * self._width}")
            )
            self.scores_by_length.setdefault(length, []).append(
                np.fromiter((score_by_word[w] for w in words), np.int16, len(words))
            )

    def _unique(self, length: int) -> tuple[NDArray[np.bytes_], NDArray[np.int16]]:
        """The words of `length` sorted alphabetically, each once with its best score."""
        words = np.concatenate(self.words_by_length.pop(length))
        scores = np.concatenate(self.scores_by_length.pop(length))
        order = np.lexsort((-scores.astype(np.int32), words))
        words, scores = words[order], scores[order]
        keep = np.ones(len(words), bool)
        keep[1:] = words[1:] != words[:-1]
        return words[keep], scores[keep]

    def finish(self, source: str, problems: list[tuple[int, str]] | None = None, n_problems: int = 0) -> WordList:
        lengths = sorted(self.words_by_length)
        uniq = {length: self._unique(length) for length in lengths}
        counts = {length: len(uniq[length][0]) for length in lengths}
        n_letters = sum(length * n for length, n in counts.items())
        k = self.alphabet.size
        n_bits = sum(length * k * ((n + 63) // 64) for length, n in counts.items())
        letters_flat = np.empty(n_letters, letter_dtype(self.alphabet))
        scores_flat = np.empty(sum(counts.values()), np.int16)
        order_flat = np.empty(n_letters, np.int32)
        starts_flat = np.zeros((k + 1) * sum(lengths), np.int32)
        bits_flat = np.zeros(n_bits, np.uint64)
        rows = []
        l_off = s_off = st_off = b_off = 0
        for length in lengths:
            words, scores = uniq.pop(length)
            n = len(words)
            n_blocks = (n + 63) // 64
            letters = letters_flat[l_off : l_off + n * length].reshape(n, length)
            letters[:] = np.frombuffer(words.tobytes(), spelled_dtype(self.alphabet)).reshape(n, length)
            letters -= self._offset
            del words
            scores_flat[s_off : s_off + n] = scores
            _index_letters(
                letters,
                order_flat[l_off : l_off + n * length].reshape(length, n),
                starts_flat[st_off : st_off + (k + 1) * length].reshape(length, k + 1),
                bits_flat[b_off : b_off + length * k * n_blocks].reshape(length * k, n_blocks),
                k,
            )
            rows.append((length, n, l_off, s_off, l_off, st_off, b_off))
            l_off += n * length
            s_off += n
            st_off += (k + 1) * length
            b_off += length * k * n_blocks
        return WordList(
            source=source,
            letters_flat=letters_flat,
            scores_flat=scores_flat,
            order_flat=order_flat,
            starts_flat=starts_flat,
            table=np.array(rows, np.int64).reshape(-1, 7),
            bits_flat=bits_flat,
            problems=problems or [],
            n_problems=n_problems,
            alphabet=self.alphabet,
        )


def _index_letters(
    letters: NDArray[np.unsignedinteger[Any]],
    order: NDArray[np.int32],
    starts: NDArray[np.int32],
    bits: NDArray[np.uint64],
    n_letters: int = 26,
) -> None:
    """Fill one length's `order`, `starts` and `bits` (zeroed) from its `letters` [n, L] (see the module docstring)."""
    for pos in range(letters.shape[1]):
        column = np.ascontiguousarray(letters[:, pos])
        order[pos] = np.argsort(column, kind="stable")
        starts[pos, 1:] = np.cumsum(np.bincount(column, minlength=n_letters))
        for c in np.unique(column):  # one packed bitset per letter present here
            packed = np.packbits(column == c, bitorder="little")
            row = bits[pos * n_letters + int(c)].view(np.uint8)
            row[: len(packed)] = packed


def overlay_word_list(base: WordList, score_by_word: dict[str, int], source: str) -> WordList:
    """`base` with `score_by_word` layered over it (a score of 0 or below removes the word), re-indexing
    only the lengths it touches: the same list as `layer_word_lists([base, overlay])`, in milliseconds
    for a few words instead of a third of a second (the web builder's ban and boost; nothing is cached).

    Raises:
        InputError: nothing is left after the removals.
    """
    if not score_by_word:
        return base
    if base.alphabet.is_open and any(base.alphabet.index(ch) is None for word in score_by_word for ch in word):
        merged = _merged(score_by_word_of(base), [score_by_word])  # a new akshara: the list's alphabet grows
        if not merged:
            raise InputError("no word is left after layering the lists", source)
        own, merged, _ = _open_alphabet(base.alphabet, merged)
        return build_word_list(merged, source, alphabet=own)
    alphabet, k = base.alphabet, base.alphabet.size
    offset, spell = byte_spelling(alphabet)
    changes_by_length: dict[int, dict[str, int]] = {}
    for word, score in score_by_word.items():
        changes_by_length.setdefault(len(word), {})[word] = max(MIN_SCORE, min(MAX_SCORE, score))
    # per length: (length, letters [n, L], scores [n], its index (order [L, n], starts, bits) or None: to be made)
    pieces: list[
        tuple[
            int,
            NDArray[np.unsignedinteger[Any]],
            NDArray[np.int16],
            tuple[NDArray[np.int32], NDArray[np.int32], NDArray[np.uint64]] | None,
        ]
    ] = []
    for length in sorted(set(base.lengths) | set(changes_by_length)):
        bucket = base.bucket(length)
        changes = changes_by_length.get(length)
        if not changes:
            _, _, _, _, _, _, b_off = (int(x) for x in base.table[np.nonzero(base.table[:, 0] == length)[0][0]])
            n_blocks = (bucket.n_words + 63) // 64
            bits = base.bits_flat[b_off : b_off + length * k * n_blocks]
            pieces.append((length, bucket.letters, bucket.scores, (bucket.order, bucket.starts, bits)))
            continue
        size = length * (2 if alphabet.is_wide else 1)
        spelled = np.frombuffer(letter_bytes(np.asarray(bucket.letters, np.int64) + offset, alphabet), dtype=f"S{size}")
        keep = ~np.isin(spelled, np.array([spell(w) for w in changes], dtype=f"S{size}"))
        added = sorted((spell(word), score) for word, score in changes.items() if score > 0)
        words = np.concatenate([spelled[keep], np.array([w for w, _ in added], dtype=f"S{size}")])
        scores = np.concatenate([np.asarray(bucket.scores)[keep], np.array([s for _, s in added], np.int16)])
        alphabetical = np.argsort(words, kind="stable")
        words, scores = words[alphabetical], scores[alphabetical]
        if len(words):
            letters = np.frombuffer(words.tobytes(), spelled_dtype(alphabet)).reshape(len(words), length) - offset
            pieces.append((length, letters.astype(letter_dtype(alphabet)), scores, None))
    pieces = [p for p in pieces if len(p[2])]
    if not pieces:
        raise InputError("no word is left after layering the lists", source)
    n_letters = sum(p[1].size for p in pieces)
    n_bits = sum(p[0] * k * ((len(p[2]) + 63) // 64) for p in pieces)
    letters_flat = np.empty(n_letters, letter_dtype(alphabet))
    scores_flat = np.empty(sum(len(p[2]) for p in pieces), np.int16)
    order_flat = np.empty(n_letters, np.int32)
    starts_flat = np.zeros((k + 1) * sum(p[0] for p in pieces), np.int32)
    bits_flat = np.zeros(n_bits, np.uint64)
    rows = []
    l_off = s_off = st_off = b_off = 0
    for length, letters, scores, index in pieces:
        n = len(scores)
        n_blocks = (n + 63) // 64
        letters_flat[l_off : l_off + n * length] = np.asarray(letters).reshape(-1)
        scores_flat[s_off : s_off + n] = scores
        order_view = order_flat[l_off : l_off + n * length].reshape(length, n)
        starts_view = starts_flat[st_off : st_off + (k + 1) * length].reshape(length, k + 1)
        bits_view = bits_flat[b_off : b_off + length * k * n_blocks].reshape(length * k, n_blocks)
        if index is None:
            _index_letters(letters, order_view, starts_view, bits_view, k)
        else:
            order, starts, bits = index
            order_view[:] = order
            starts_view[:] = starts
            bits_view.reshape(-1)[:] = bits
        rows.append((length, n, l_off, s_off, l_off, st_off, b_off))
        l_off += n * length
        s_off += n
        st_off += (k + 1) * length
        b_off += length * k * n_blocks
    return WordList(
        source=source,
        letters_flat=letters_flat,
        scores_flat=scores_flat,
        order_flat=order_flat,
        starts_flat=starts_flat,
        table=np.array(rows, np.int64).reshape(-1, 7),
        bits_flat=bits_flat,
        alphabet=alphabet,
    )


def build_word_list(
    score_by_word: dict[str, int],
    source: str,
    problems: list[tuple[int, str]] | None = None,
    n_problems: int = 0,
    alphabet: Alphabet = ENGLISH,
) -> WordList:
    """Index {word: score} (words in `alphabet`'s code chars) by length into the flat arrays described above."""
    builder = _Builder(alphabet)
    builder.add(score_by_word)
    return builder.finish(source, problems, n_problems)


def _parse_in_chunks(
    text: str, source: str, notes: list[str], alphabet: Alphabet = ENGLISH
) -> tuple[_Builder, list[tuple[int, str]], int, int]:
    """Parse `text` PARSE_CHUNK_CHARS at a time (cut at line ends) into a builder.

    Returns (builder, problems, problem count, number of words added before merging duplicates).
    A note about clamped scores is kept from the first chunk that has one (its count is that chunk's).
    """
    builder = _Builder(alphabet)
    problems: list[tuple[int, str]] = []
    n_problems = n_added = 0
    start, line_no = 0, 1
    while start < len(text):
        end = text.find("\n", min(len(text), start + PARSE_CHUNK_CHARS))
        end = len(text) if end < 0 else end + 1
        chunk = text[start:end]
        fast = _parse_clean(chunk) if alphabet.is_ascii else None
        chunk_problems: list[tuple[int, str]]
        if fast is not None:
            score_by_word, chunk_problems, chunk_n = fast, [], 0
        else:
            chunk_notes: list[str] = []
            score_by_word, chunk_problems, chunk_n = parse_word_lines(chunk, source, chunk_notes, line_no, alphabet)
            if chunk_notes and not notes:
                notes.extend(chunk_notes)
        builder.add(score_by_word)
        n_added += len(score_by_word)
        problems.extend(chunk_problems[: _MAX_REPORTED_PROBLEMS - len(problems)])
        n_problems += chunk_n
        line_no += chunk.count("\n")
        start = end
    return builder, problems, n_problems, n_added


def words_from_pairs(
    pairs: Iterable[str | tuple[str, int]], source: str = "<words>", alphabet: Alphabet = ENGLISH
) -> WordList:
    """Build a WordList from (word, score) pairs or plain words, folding them into `alphabet` (for tests and
    tools); words with a character outside it are left out."""
    score_by_word: dict[str, int] = {}
    for item in pairs:
        raw, score = (item, DEFAULT_SCORE) if isinstance(item, str) else item
        word = alphabet.fold_word(raw)
        if word and (word not in score_by_word or score > score_by_word[word]):
            score_by_word[word] = int(score)
    if alphabet.is_open:
        alphabet, score_by_word, _ = _open_alphabet(alphabet, score_by_word)
    return build_word_list(score_by_word, source, alphabet=alphabet)


def _open_alphabet(alphabet: Alphabet, score_by_word: dict[str, int]) -> tuple[Alphabet, dict[str, int], int]:
    """An open pack's alphabet for one list: the pack's letters and the letters the list uses most, up to
    MAX_OPEN_LETTERS; words with a rarer letter are left out (their count is returned, for a note)."""
    from collections import Counter

    uses = Counter(ch for word in score_by_word for ch in set(word) if alphabet.index(ch) is None)
    room = MAX_OPEN_LETTERS - alphabet.size
    kept = {ch for ch, _ in uses.most_common(room)}
    if len(uses) > room:
        left = {
            word: score
            for word, score in score_by_word.items()
            if all(alphabet.index(ch) is not None or ch in kept for ch in word)
        }
        n_out = len(score_by_word) - len(left)
        score_by_word = left
    else:
        n_out = 0
    return alphabet.with_letters("".join(sorted(kept))), score_by_word, n_out


def _decode(raw: bytes, source: str) -> str:
    """The list's text: decompressed (.xz, .gz) to at most MAX_LIST_BYTES, UTF-8 else Latin-1.

    Raises:
        InputError: a damaged compressed file, or one that inflates past MAX_LIST_BYTES.
    """
    if is_compressed(raw):  # here: a cached list is read without decompressing (start-up)
        from xwcp.runtime.files import decompress_bounded

        raw = decompress_bounded(raw, MAX_LIST_BYTES, "word-list", source)
    try:
        return raw.decode("utf-8-sig")  # -sig: drop a leading byte order mark (Windows editors)
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def list_source(path: str | Path | None) -> tuple[str, bytes]:
    """(source name, raw bytes) of a list file, or of the embedded default list when `path` is None.

    Raises:
        InputError: missing, unreadable or oversized file.
    """
    if path is None:
        # next to this file, not through importlib.resources (its import costs about a fifth of a
        # small fill's start-up; the package ships as files, with its compiled kernel)
        resource = Path(__file__).with_name("data") / DEFAULT_LIST_NAME
        return f"default list ({DEFAULT_LIST_NAME.removesuffix('.xz')})", resource.read_bytes()
    return source_name(path), read_bounded(path, MAX_LIST_BYTES, "word-list")


def cache_folder(raw: bytes, alphabet: Alphabet = ENGLISH) -> Path:
    """The cache folder of the list whose file holds `raw`, read through `alphabet` (English: the file's hash alone)."""
    digest = hashlib.sha256(raw)
    if not alphabet.is_ascii:
        digest.update(b"\0alphabet\0" + alphabet.fingerprint.encode("utf-8"))
    return cache.folder_for(digest.hexdigest()[:32])


def rebuilt_note(folder: Path, damage: str) -> str:
    """The one line that says a damaged cached list was compiled again (`damage`: CacheDamaged's message)."""
    return f"rebuilt the word-list cache in {folder}: {damage}"


def load_word_list(path: str | Path | None = None, *, use_cache: bool = True, alphabet: Alphabet = ENGLISH) -> WordList:
    """Load a word list (the embedded default list when `path` is None), from cache when possible.

    Args:
        path: a `WORD;score` or word-per-line file (may be .xz or .gz compressed).
        use_cache: read and write the compiled cache.
        alphabet: the letters to read the words in (`xwcp.model.alphabet`); English by default.

    Returns:
        The indexed list. `problems` holds up to 1000 (line, problem) pairs for skipped lines.

    Raises:
        InputError: missing/unreadable file, or no usable entry in it.
    """
    from lzma import LZMAError

    source, raw = list_source(path)
    if alphabet.is_open:
        return _load_open(source, raw, alphabet)
    folder = cache_folder(raw, alphabet)
    damage = None
    if use_cache:
        try:
            cached = cache.read(folder, alphabet.size)
        except cache.CacheDamaged as exc:
            cached, damage = None, str(exc)
        if cached is not None:
            return WordList(source=source, alphabet=alphabet, **cached)
    try:
        text = _decode(raw, source)
    except (LZMAError, zlib.error, OSError, EOFError) as exc:
        raise InputError(f"cannot decompress word-list file ({exc})", source) from None
    del raw
    notes: list[str] = []
    builder, problems, n_problems, n_added = _parse_in_chunks(text, source, notes, alphabet)
    del text
    if not n_added:
        in_alphabet = "" if alphabet.is_ascii else f" in {alphabet.name} letters (--language {alphabet.code})"
        raise InputError(
            f"the word list has no usable entries{in_alphabet}"
            + (f" ({describe_problems(problems, n_problems)})" if n_problems else ""),
            source,
        )
    words = builder.finish(source, problems, n_problems)
    words.notes = list(notes)
    if use_cache:
        failure = cache.write(
            folder,
            {name: getattr(words, name) for name in cache.ARRAYS},
            problems=words.problems,
            n_problems=words.n_problems,
            notes=words.notes,
            n_letters=alphabet.size,
        )
        if failure is not None:
            words.notes.append(
                f"cannot write the word-list cache in {folder.parent} ({failure}); every run "
                "compiles the list again (set XWCP_CACHE_DIR to a writable folder)"
            )
        elif damage is not None:
            words.notes.append(rebuilt_note(folder, damage))
    return words


def _load_open(source: str, raw: bytes, alphabet: Alphabet) -> WordList:
    """A list read through an open pack (Hindi aksharas): parsed whole, its alphabet made from the letters it uses
    (`Alphabet.with_letters`), then indexed; not cached (its alphabet is the list's own)."""
    from lzma import LZMAError

    try:
        text = _decode(raw, source)
    except (LZMAError, zlib.error, OSError, EOFError) as exc:
        raise InputError(f"cannot decompress word-list file ({exc})", source) from None
    notes: list[str] = []
    score_by_word, problems, n_problems = parse_word_lines(text, source, notes, 1, alphabet)
    if not score_by_word:
        raise InputError(
            f"the word list has no usable entries in {alphabet.name} letters (--language {alphabet.code})"
            + (f" ({describe_problems(problems, n_problems)})" if n_problems else ""),
            source,
        )
    own, score_by_word, n_out = _open_alphabet(alphabet, score_by_word)
    if n_out:
        notes.append(
            f"{source}: the list uses more than {MAX_OPEN_LETTERS:,} letters of {alphabet.name}; the commonest "
            f"are kept and {n_out} word{'s' if n_out != 1 else ''} with rarer ones left out"
        )
    words = build_word_list(score_by_word, source, problems, n_problems, own)
    words.notes = notes
    return words


def _layer_open(layers: list[WordList]) -> WordList:
    """`layer_word_lists` of lists read through one open pack (Hindi), each with its own alphabet: the words merged
    by their code chars (one per akshara for the life of the process), then indexed over the letters they use
    (`_open_alphabet`); not cached, as `_load_open` is not."""
    source = " + ".join(words.source for words in layers)
    merged = _merged(score_by_word_of(layers[0]), [score_by_word_of(words) for words in layers[1:]])
    if not merged:
        raise InputError("no word is left after layering the lists", source)
    own, merged, n_out = _open_alphabet(layers[0].alphabet, merged)
    out = build_word_list(merged, source, alphabet=own)
    if n_out:
        out.notes.append(
            f"{source}: the lists use more than {MAX_OPEN_LETTERS:,} letters of {own.name}; the commonest "
            f"are kept and {n_out} word{'s' if n_out != 1 else ''} with rarer ones left out"
        )
    return out


def _merged(base: dict[str, int], overs: list[dict[str, int]]) -> dict[str, int]:
    """`base` with each of `overs` laid over it in turn: a later score replaces an earlier one, 0 or below removes."""
    for over in overs:
        for word, score in over.items():
            if score <= 0:
                base.pop(word, None)
            else:
                base[word] = score
    return base


def score_by_word_of(words: WordList) -> dict[str, int]:
    """{word: score} of an indexed list (the inverse of `build_word_list`)."""
    out: dict[str, int] = {}
    for length in words.lengths:
        bucket = words.bucket(length)
        if words.alphabet.is_ascii:
            raw = (np.asarray(bucket.letters) + 65).astype(np.uint8).tobytes().decode("ascii")
        else:
            raw = words.alphabet.decode(letter_bytes(bucket.letters, words.alphabet))
        for k, score in enumerate(np.asarray(bucket.scores).tolist()):
            out[raw[k * length : (k + 1) * length]] = score
    return out


def layer_word_lists(layers: list[WordList], *, use_cache: bool = True) -> WordList:
    """One list from several, in order: a later list's score replaces an earlier one's, and a
    score of 0 or below in a later list removes the word.

    The layered index is cached under a hash of the layers' arrays, so a second load of the
    same layers costs what a single cached list does.

    Raises:
        InputError: nothing is left after the removals.
    """
    if len(layers) == 1:
        return layers[0]
    alphabet = layers[0].alphabet
    if alphabet.is_open and all(words.alphabet.is_open and words.alphabet.code == alphabet.code for words in layers):
        return _layer_open(layers)
    for words in layers[1:]:
        if words.alphabet != alphabet:
            raise InputError(
                f"cannot layer a {words.alphabet.name} list ({words.source}) over a {alphabet.name} "
                "one: layered lists share one alphabet"
            )
    h = hashlib.sha256()
    for words in layers:
        for name in ("table", "letters_flat", "scores_flat"):
            h.update(np.ascontiguousarray(getattr(words, name)).tobytes())
    source = " + ".join(words.source for words in layers)
    h.update(b"layered" + alphabet.fingerprint.encode("utf-8"))  # never the hash of a single list's source
    folder = cache.folder_for(h.hexdigest()[:32])
    damage = None
    if use_cache:
        try:
            cached = cache.read(folder, alphabet.size)
        except cache.CacheDamaged as exc:
            cached, damage = None, str(exc)
        if cached is not None:
            return WordList(source=source, alphabet=alphabet, **cached)
    merged = _merged(score_by_word_of(layers[0]), [score_by_word_of(words) for words in layers[1:]])
    if not merged:
        raise InputError("no word is left after layering the lists", source)
    out = build_word_list(merged, source, alphabet=alphabet)
    if use_cache:
        failure = cache.write(
            folder,
            {name: getattr(out, name) for name in cache.ARRAYS},
            problems=[],
            n_problems=0,
            notes=[],
            n_letters=alphabet.size,
        )
        if failure is None and damage is not None:
            out.notes.append(rebuilt_note(folder, damage))
    return out
