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
without copying, and the compiled form is cached in the user's cache directory keyed by
the source file's hash, so a second load is a handful of memory-mapped reads.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import lzma
import os
import shutil
import unicodedata
import zlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from xwcp.errors import InputError
from xwcp.files import read_bounded, source_name
from xwcp.types import WordId

DEFAULT_SCORE = 50
"""Score of a word given without one (CWL convention: 50 is an ordinary entry)."""

CACHE_VERSION = 5
"""Bump when the cached layout or the parsing changes, so stale caches are rebuilt, not misread.

3: a leading UTF-8 byte order mark is dropped instead of spoiling the first word.
5: meta.json records each file's size, time and end checksums; `º`-like letters are no words."""

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


def cache_dir() -> Path:
    """Where compiled lists are kept: $XWCP_CACHE_DIR, else $XDG_CACHE_HOME/xwcp, else ~/.cache/xwcp."""
    env = os.environ.get("XWCP_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "xwcp"


_ARRAYS = ("letters_flat", "scores_flat", "order_flat", "starts_flat", "table", "bits_flat")
_DTYPES = {"letters_flat": np.uint8, "scores_flat": np.int16, "order_flat": np.int32, "starts_flat": np.int32,
           "table": np.int64, "bits_flat": np.uint64}
_SAMPLE_BYTES = 4096
"""Bytes at each end of a cached array file covered by its recorded checksum (the npy header and the tail)."""
CACHE_KEEP_LISTS = 20
"""Most compiled lists kept in the cache (the most recently used); writing a new one removes the rest."""
CACHE_MAX_BYTES = 256 * 1024 * 1024
"""Most bytes the kept lists may take (the default list takes 23 MB); the least recently used go
first, but the newest list is always kept."""


class CacheDamaged(Exception):
    """A cached list that does not verify; its message says what is wrong."""


def _file_stamp(path: Path) -> dict:
    """Size, modification time and a checksum of both ends: any write to the file changes one of them."""
    info = path.stat()
    with path.open("rb") as handle:
        head = handle.read(_SAMPLE_BYTES)
        handle.seek(max(0, info.st_size - _SAMPLE_BYTES))
        tail = handle.read(_SAMPLE_BYTES)
    return {"size": info.st_size, "mtime_ns": info.st_mtime_ns, "crc": zlib.crc32(tail, zlib.crc32(head))}


def _meta_check(meta: dict) -> int:
    body = {key: value for key, value in meta.items() if key != "check"}
    return zlib.crc32(json.dumps(body, sort_keys=True).encode())


def _verify_arrays(arrays: dict[str, np.ndarray]) -> None:
    """Raise CacheDamaged unless the arrays fit together: the length table against the array sizes,
    every starts row a partition of its words, every letter code 0..25.

    It runs on every cached load, so it reads only the small arrays and the letters (under 1 ms
    for the default list). The word ids in `order` and the bit sets are not scanned (10-20 ms
    more, as they are 20 MB); any write to them changes the file's time, size or ends, which
    `_read_cache` checks first.
    """
    for name, dtype in _DTYPES.items():
        if arrays[name].dtype != dtype or arrays[name].ndim != (2 if name == "table" else 1):
            raise CacheDamaged(f"{name} has type {arrays[name].dtype} and {arrays[name].ndim} dimensions")
    table = arrays["table"]
    if table.shape[1:] != (7,):
        raise CacheDamaged(f"table has shape {table.shape}")
    length, n = table[:, 0], table[:, 1]
    if len(table) and (length.min() < 1 or n.min() < 1 or (np.diff(length) <= 0).any()):
        raise CacheDamaged("the length table is not increasing lengths with words")
    n_blocks = (n + 63) // 64
    sizes = {"letters_flat": n * length, "scores_flat": n, "order_flat": n * length,
             "starts_flat": 27 * length, "bits_flat": 26 * length * n_blocks}
    for column, (name, size) in enumerate(sizes.items(), start=2):
        ends = np.cumsum(size)
        if (table[:, column] != ends - size).any() or (ends[-1] if len(ends) else 0) != arrays[name].size:
            raise CacheDamaged(f"the length table does not match {name}")
    if not len(table):
        return
    if int(arrays["letters_flat"].max()) > 25:
        raise CacheDamaged("a letter code is over 25")
    starts = arrays["starts_flat"].reshape(-1, 27)
    if (starts[:, 0] != 0).any() or (starts[:, 26] != np.repeat(n, length)).any() or (np.diff(starts) < 0).any():
        raise CacheDamaged("a starts row is not a partition of its words")


def _read_cache(folder: Path, source: str) -> WordList | None:
    """The cached list in `folder`; None when there is none; raises CacheDamaged when it does not verify."""
    try:
        meta_text = (folder / "meta.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        if folder.is_dir():
            raise CacheDamaged("meta.json is missing") from None
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise CacheDamaged(f"meta.json cannot be read ({exc})") from None
    try:
        meta = json.loads(meta_text)
        if meta["version"] != CACHE_VERSION or meta["check"] != _meta_check(meta):
            raise CacheDamaged("meta.json does not match its checksum")
        problems = [(int(line), str(what)) for line, what in meta["problems"]]
        n_problems, notes = int(meta["n_problems"]), [str(note) for note in meta["notes"]]
        stamps = meta["files"]
    except (ValueError, KeyError, TypeError) as exc:
        raise CacheDamaged(f"meta.json is not valid ({exc.__class__.__name__}: {exc})") from None
    arrays = {}
    for name in _ARRAYS:
        path = folder / f"{name}.npy"
        try:
            if _file_stamp(path) != stamps[name]:
                raise CacheDamaged(f"{name}.npy changed after it was written")
            # plain ndarray views of the maps: numpy's memmap subclass makes every slice cost a Python call
            arrays[name] = np.asarray(np.load(path, mmap_mode="r"))
        except (OSError, ValueError, EOFError, KeyError, TypeError) as exc:
            raise CacheDamaged(f"{name}.npy cannot be read ({exc.__class__.__name__}: {exc})") from None
    _verify_arrays(arrays)
    try:
        os.utime(folder)  # the folder's time is its last use: the least recently used lists go first
    except OSError:
        pass
    return WordList(source=source, problems=problems, n_problems=n_problems, notes=notes, **arrays)


def _remove_tree(path: Path) -> None:
    """Remove a folder and what it holds, or a file where a folder should be; quietly, as far as possible."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


def _pid_is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists but belongs to someone else
        return True
    return True


def _folder_bytes(folder: Path) -> int:
    try:
        return sum(child.stat().st_size for child in folder.iterdir())
    except OSError:
        return 0


def tidy_cache(root: Path | None = None, keep: int = CACHE_KEEP_LISTS, max_bytes: int = CACHE_MAX_BYTES) -> list[Path]:
    """Remove what the cache no longer needs; returns the removed folders.

    Removed: temporary folders whose writing process is gone (a run killed mid-write), lists
    compiled by another cache version, and the least recently used lists beyond `keep` lists
    or `max_bytes` in all (the most recently used one always stays).
    """
    root = root or cache_dir()
    removed: list[Path] = []
    try:
        entries = list(root.iterdir())
    except OSError:
        return removed
    kept: list[tuple[int, Path]] = []
    for path in entries:
        name = path.name
        if not name.startswith("wordlist-v") or not path.is_dir():
            continue
        base, _, pid_text = name.partition(".tmp")
        if pid_text:
            if not pid_text.isdigit() or not _pid_is_alive(int(pid_text)):
                removed.append(path)
            continue
        if not base.startswith(f"wordlist-v{CACHE_VERSION}-"):
            removed.append(path)
            continue
        try:
            kept.append((path.stat().st_mtime_ns, path))
        except OSError:
            continue
    kept.sort(reverse=True)
    total_bytes = 0
    for index, (_, path) in enumerate(kept):
        total_bytes += _folder_bytes(path)
        if index and (index >= keep or total_bytes > max_bytes):
            removed.append(path)
    for path in removed:
        _remove_tree(path)
    return removed


def _write_cache(folder: Path, words: WordList) -> str | None:
    """Write the compiled list to `folder` (replacing a damaged one); returns why not, or None when written."""
    tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
    try:
        tmp.mkdir(parents=True, exist_ok=True)
        stamps = {}
        for name in _ARRAYS:
            np.save(tmp / f"{name}.npy", getattr(words, name))
            stamps[name] = _file_stamp(tmp / f"{name}.npy")
        meta = {"version": CACHE_VERSION, "problems": words.problems, "n_problems": words.n_problems,
                "notes": words.notes, "files": stamps}
        meta["check"] = _meta_check(meta)
        (tmp / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        if folder.exists():
            _remove_tree(folder)
        try:
            os.replace(tmp, folder)
        except OSError:
            if not folder.is_dir():  # else another run has just written the same list: keep theirs
                raise
        return None
    except OSError as exc:
        return exc.strerror or str(exc)  # a cache we cannot write only costs time, never correctness
    finally:
        if tmp.exists():
            _remove_tree(tmp)


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
    digest = hashlib.sha256(raw).hexdigest()[:32]
    folder = cache_dir() / f"wordlist-v{CACHE_VERSION}-{digest}"
    damage = None
    if use_cache:
        try:
            cached = _read_cache(folder, source)
        except CacheDamaged as exc:
            cached, damage = None, str(exc)
        if cached is not None:
            return cached
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
        failure = _write_cache(folder, words)
        if failure is not None:
            words.notes.append(f"cannot write the word-list cache in {folder.parent} ({failure}); every run "
                               "compiles the list again (set XWCP_CACHE_DIR to a writable folder)")
        else:
            tidy_cache(folder.parent)
            if damage is not None:
                words.notes.append(f"rebuilt the word-list cache in {folder}: the old one did not verify ({damage})")
    return words
