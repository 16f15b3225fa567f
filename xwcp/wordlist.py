"""Read scored word lists and index them by length as numpy arrays, with an on-disk cache.

A list is `WORD;score` lines (missing score = 50) or plain word-per-line text. Words are
normalised to A-Z (accents folded; spaces, hyphens, apostrophes and periods dropped); the
highest score of duplicates is kept; malformed lines are collected, not raised.

Per length L the index holds, sorted alphabetically:
    letters  uint8 [n, L]   letter codes 0..25
    scores   int16 [n]
    order    int32 [L, n]   word ids sorted by their letter at each position
    starts   int32 [L, 27]  order[p, starts[p, c]:starts[p, c + 1]] = ids with letter c at p
All lengths live in a few flat arrays (buckets are views), so the search kernel gets them
without copying, and the compiled form is kept by `xwcp.cache`, keyed by the source file's
hash, so a second load is a handful of memory-mapped reads.
"""
from __future__ import annotations

import hashlib
import lzma
import unicodedata
import zlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from xwcp import cache
from xwcp.cache import cache_dir  # noqa: F401 - where xwcp.bench finds the cache folder
from xwcp.errors import InputError
from xwcp.files import read_bounded, source_name
from xwcp.types import WordId

DEFAULT_SCORE = 50
"""Score of a word given without one (CWL convention: 50 is an ordinary entry)."""

MIN_SCORE, MAX_SCORE = -32768, 32767
"""Scores are stored as int16; others are clamped to this range, with a note."""

DEFAULT_LIST_NAME = "cwl50.dict.xz"
MAX_LIST_BYTES = 256 * 1024 * 1024
"""Largest word-list file we read (the biggest public lists are about 50 MB)."""
_DROPPED_CHARS = str.maketrans("", "", " -'’.")
_MAX_REPORTED_PROBLEMS = 1000


@dataclass(frozen=True)
class LengthBucket:
    """All words of one length; `letters[word_id]` spells word `word_id`."""

    length: int
    letters: np.ndarray
    scores: np.ndarray
    order: np.ndarray
    starts: np.ndarray

    @property
    def n_words(self) -> int:
        return int(self.letters.shape[0])

    def text(self, word_id: WordId) -> str:
        return (self.letters[word_id] + 65).tobytes().decode("ascii")

    def ids_with_letter(self, pos: int, letter: int) -> np.ndarray:
        """Word ids with letter code `letter` at position `pos`."""
        return self.order[pos, self.starts[pos, letter]:self.starts[pos, letter + 1]]


@dataclass
class WordList:
    """A normalised word list indexed by length (see the module docstring for the arrays)."""

    source: str
    letters_flat: np.ndarray
    scores_flat: np.ndarray
    order_flat: np.ndarray
    starts_flat: np.ndarray
    table: np.ndarray
    """int64 [n_lengths, 7]: length, n_words, letters_off, scores_off, order_off, starts_off, bits_off."""
    bits_flat: np.ndarray = None  # type: ignore[assignment]
    """uint64: per length, [L * 26, ceil(n / 64)] bitsets of the word ids with letter c at position q."""
    problems: list[tuple[int, str]] = field(default_factory=list)
    n_problems: int = 0
    notes: list[str] = field(default_factory=list)
    """Things a front end should say once about this load: scores clamped, the cache rebuilt or not writable."""
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
        if len(rows) == 0:
            bucket = LengthBucket(length, np.zeros((0, length), np.uint8), np.zeros(0, np.int16),
                                  np.zeros((length, 0), np.int32), np.zeros((length, 27), np.int32))
        else:
            _, n, l_off, s_off, o_off, st_off, _ = (int(x) for x in self.table[rows[0]])
            bucket = LengthBucket(
                length,
                self.letters_flat[l_off:l_off + n * length].reshape(n, length),
                self.scores_flat[s_off:s_off + n],
                self.order_flat[o_off:o_off + n * length].reshape(length, n),
                self.starts_flat[st_off:st_off + 27 * length].reshape(length, 27),
            )
        self._buckets[length] = bucket
        return bucket

    def word_id(self, text: str) -> WordId | None:
        """The id of an A-Z word within its length bucket, or None if it is not listed."""
        length = len(text)
        ids = self._id_by_text.get(length)
        if ids is None:
            bucket = self.bucket(length)
            raw = (bucket.letters + 65).tobytes()
            ids = {raw[k * length:(k + 1) * length]: k for k in range(bucket.n_words)}
            self._id_by_text[length] = ids
        return ids.get(text.encode("ascii", "replace"))

    def score(self, text: str) -> int | None:
        word_id = self.word_id(text)
        return None if word_id is None else int(self.bucket(len(text)).scores[word_id])


def normalise_word(raw: str) -> str | None:
    """Fold `raw` to A-Z, or None if it holds anything but letters, spaces, hyphens, apostrophes, periods.

    Accents are dropped (É -> E) and ligatures spelt out (Æ -> AE); a character whose folded
    form is not A-Z (`º` folds to `o`, `ⁿ` to `n`, `²` to `2`) makes the line no word.
    """
    word = raw.upper().translate(_DROPPED_CHARS)
    if _is_a_to_z(word):
        return word
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))
    folded = folded.replace("Æ", "AE").replace("Œ", "OE").replace("ß", "SS")
    return folded if _is_a_to_z(folded) else None


def _is_a_to_z(text: str) -> bool:
    return bool(text) and text.isascii() and text.isalpha() and text.isupper()


def describe_problems(problems: list[tuple[int, str]], n_problems: int, shown: int = 3) -> str:
    """'2 malformed lines: line 6: ...; line 7: ...' naming the first `shown` of them."""
    named = "; ".join(f"line {line}: {what}" for line, what in problems[:shown])
    more = f"; and {n_problems - shown} more" if n_problems > shown else ""
    return f"{n_problems} malformed line{'s' if n_problems != 1 else ''}: {named}{more}"


def parse_word_lines(text: str, source: str, notes: list[str] | None = None
                     ) -> tuple[dict[str, int], list[tuple[int, str]], int]:
    """Parse list text into {word: best score}, plus (line, problem) pairs and the problem count.

    Scores outside the int16 range are clamped to it; `notes` (when given) gets one line saying so.
    """
    score_by_word: dict[str, int] = {}
    problems: list[tuple[int, str]] = []
    n_problems = 0
    n_clamped, first_clamped = 0, None
    for line_no, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word_part, sep, score_part = line.partition(";")
        score = DEFAULT_SCORE
        if sep:
            score_part = score_part.strip()
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
        word = normalise_word(word_part.strip())
        if not word:
            n_problems += 1
            if len(problems) < _MAX_REPORTED_PROBLEMS:
                problems.append((line_no, f"{word_part.strip()!r} is not a word of letters"))
            continue
        old = score_by_word.get(word)
        if old is None or score > old:
            score_by_word[word] = score
    if n_clamped and notes is not None:
        line_no, score = first_clamped
        notes.append(f"{source}: {n_clamped} score{'s' if n_clamped != 1 else ''} outside {MIN_SCORE}..{MAX_SCORE} "
                     f"{'were' if n_clamped != 1 else 'was'} clamped to that range (first: line {line_no}, {score})")
    return score_by_word, problems, n_problems


def build_word_list(score_by_word: dict[str, int], source: str,
                    problems: list[tuple[int, str]] | None = None, n_problems: int = 0) -> WordList:
    """Index {word: score} (A-Z words) by length into the flat arrays described above."""
    by_length: dict[int, list[str]] = {}
    for word in score_by_word:
        by_length.setdefault(len(word), []).append(word)
    letters_parts, scores_parts, order_parts, starts_parts, bits_parts, rows = [], [], [], [], [], []
    l_off = s_off = o_off = st_off = b_off = 0
    for length in sorted(by_length):
        words = sorted(by_length[length])
        n = len(words)
        letters = (np.frombuffer("".join(words).encode("ascii"), np.uint8).reshape(n, length) - 65).astype(np.uint8)
        scores = np.fromiter((score_by_word[w] for w in words), np.int16, n)
        order = np.empty((length, n), np.int32)
        starts = np.zeros((length, 27), np.int32)
        for pos in range(length):
            column = letters[:, pos]
            order[pos] = np.argsort(column, kind="stable")
            starts[pos, 1:] = np.cumsum(np.bincount(column, minlength=26))
        letters_parts.append(letters.ravel())
        scores_parts.append(scores)
        order_parts.append(order.ravel())
        starts_parts.append(starts.ravel())
        n_blocks = (n + 63) // 64
        has_letter = np.zeros((length * 26, n_blocks * 64), bool)
        for pos in range(length):
            has_letter[pos * 26 + letters[:, pos].astype(np.intp), np.arange(n)] = True
        bits = np.packbits(has_letter, axis=1, bitorder="little").view("<u8")
        bits_parts.append(bits.ravel())
        rows.append((length, n, l_off, s_off, o_off, st_off, b_off))
        b_off += bits.size
        l_off += n * length
        s_off += n
        o_off += n * length
        st_off += 27 * length

    def cat(parts, dtype):
        return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype)

    return WordList(
        source=source,
        letters_flat=cat(letters_parts, np.uint8),
        scores_flat=cat(scores_parts, np.int16),
        order_flat=cat(order_parts, np.int32),
        starts_flat=cat(starts_parts, np.int32),
        table=np.array(rows, np.int64).reshape(-1, 7),
        bits_flat=cat(bits_parts, np.uint64),
        problems=problems or [],
        n_problems=n_problems,
    )


def words_from_pairs(pairs, source: str = "<words>") -> WordList:
    """Build a WordList from (word, score) pairs or plain words, normalising them (for tests and tools)."""
    score_by_word: dict[str, int] = {}
    for item in pairs:
        raw, score = (item, DEFAULT_SCORE) if isinstance(item, str) else item
        word = normalise_word(raw)
        if word and (word not in score_by_word or score > score_by_word[word]):
            score_by_word[word] = int(score)
    return build_word_list(score_by_word, source)


def _decode(raw: bytes, source: str) -> str:
    if raw[:6] == b"\xfd7zXZ\x00":
        raw = lzma.decompress(raw)
    elif raw[:2] == b"\x1f\x8b":
        import gzip
        raw = gzip.decompress(raw)
    try:
        return raw.decode("utf-8-sig")  # -sig: drop a leading byte order mark (Windows editors)
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def load_word_list(path: str | Path | None = None, *, use_cache: bool = True) -> WordList:
    """Load a word list (the embedded default list when `path` is None), from cache when possible.

    Args:
        path: a `WORD;score` or word-per-line file (may be .xz or .gz compressed).
        use_cache: read and write the compiled cache.

    Returns:
        The indexed list. `problems` holds up to 1000 (line, problem) pairs for skipped lines.

    Raises:
        InputError: missing/unreadable file, or no usable entry in it.
    """
    if path is None:
        resource = resources.files("xwcp") / "data" / DEFAULT_LIST_NAME
        source = f"default list ({DEFAULT_LIST_NAME.removesuffix('.xz')})"
        raw = resource.read_bytes()
    else:
        source = source_name(path)
        raw = read_bounded(path, MAX_LIST_BYTES, "word-list")
    folder = cache.folder_for(hashlib.sha256(raw).hexdigest()[:32])
    damage = None
    if use_cache:
        try:
            cached = cache.read(folder)
        except cache.CacheDamaged as exc:
            cached, damage = None, str(exc)
        if cached is not None:
            return WordList(source=source, **cached)
    try:
        text = _decode(raw, source)
    except (lzma.LZMAError, zlib.error, OSError, EOFError) as exc:
        raise InputError(f"cannot decompress word-list file ({exc})", source) from None
    notes: list[str] = []
    score_by_word, problems, n_problems = parse_word_lines(text, source, notes)
    if not score_by_word:
        raise InputError("the word list has no usable entries"
                         + (f" ({describe_problems(problems, n_problems)})" if n_problems else ""), source)
    words = build_word_list(score_by_word, source, problems, n_problems)
    words.notes = list(notes)
    if use_cache:
        failure = cache.write(folder, {name: getattr(words, name) for name in cache.ARRAYS},
                              problems=words.problems, n_problems=words.n_problems, notes=words.notes)
        if failure is not None:
            words.notes.append(f"cannot write the word-list cache in {folder.parent} ({failure}); every run "
                               "compiles the list again (set XWCP_CACHE_DIR to a writable folder)")
        elif damage is not None:
            words.notes.append(f"rebuilt the word-list cache in {folder}: the old one did not verify ({damage})")
    return words
