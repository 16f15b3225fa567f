"""Keep compiled word lists on disk: write them atomically, verify them on every load, bound the folder.

A list lives in `<cache_dir>/wordlist-v<CACHE_VERSION>-<hash of its source>/`: one `.npy` per
array of `xwcp.wordlist.WordList` and a `meta.json` holding the skipped lines, the notes, and
for each file its size, modification time and a CRC of its first and last 4 KiB (plus a CRC of
meta.json itself). A load compares those stamps (any write to a file changes one) and checks
that the arrays fit together (`_verify_arrays`); a folder that does not verify raises
CacheDamaged, and the caller rebuilds it. Writes go to a `.tmp<PID>` folder renamed into place;
`tidy` removes the temporary folders of runs that died, other versions' lists, and the least
recently used lists beyond CACHE_KEEP_LISTS or CACHE_MAX_BYTES.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import zlib
from pathlib import Path

import numpy as np

CACHE_VERSION = 5
"""Bump when the cached layout or the parsing changes, so stale caches are rebuilt, not misread.

3: a leading UTF-8 byte order mark is dropped instead of spoiling the first word.
5: meta.json records each file's size, time and end checksums; `º`-like letters are no words."""


def folder_for(digest: str) -> Path:
    """The folder of the list whose source hashes to `digest`."""
    return cache_dir() / f"wordlist-v{CACHE_VERSION}-{digest}"


def cache_dir() -> Path:
    """Where compiled lists are kept: $XWCP_CACHE_DIR, else $XDG_CACHE_HOME/xwcp, else ~/.cache/xwcp."""
    env = os.environ.get("XWCP_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "xwcp"


ARRAYS = ("letters_flat", "scores_flat", "order_flat", "starts_flat", "table", "bits_flat")
"""The WordList arrays a cached list holds, one `.npy` file each."""
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
    `read` checks first.
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


def read(folder: Path) -> dict | None:
    """The cached list in `folder` as WordList fields (the arrays, problems, n_problems, notes);
    None when there is none.

    Raises:
        CacheDamaged: the folder is there but does not verify (the message says what is wrong).
    """
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
    for name in ARRAYS:
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
    return {"problems": problems, "n_problems": n_problems, "notes": notes, **arrays}


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


def tidy(root: Path | None = None, keep: int = CACHE_KEEP_LISTS, max_bytes: int = CACHE_MAX_BYTES) -> list[Path]:
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


def write(folder: Path, arrays: dict[str, np.ndarray], *, problems: list, n_problems: int, notes: list[str]) -> str | None:
    """Write a compiled list to `folder` (replacing a damaged one), then tidy the cache.

    Returns:
        Why it could not be written, or None when it was.
    """
    tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
    try:
        tmp.mkdir(parents=True, exist_ok=True)
        stamps = {}
        for name in ARRAYS:
            np.save(tmp / f"{name}.npy", arrays[name])
            stamps[name] = _file_stamp(tmp / f"{name}.npy")
        meta = {"version": CACHE_VERSION, "problems": problems, "n_problems": n_problems, "notes": notes,
                "files": stamps}
        meta["check"] = _meta_check(meta)
        (tmp / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        if folder.exists():
            _remove_tree(folder)
        try:
            os.replace(tmp, folder)
        except OSError:
            if not folder.is_dir():  # else another run has just written the same list: keep theirs
                raise
        tidy(folder.parent)
        return None
    except OSError as exc:
        return exc.strerror or str(exc)  # a cache we cannot write only costs time, never correctness
    finally:
        if tmp.exists():
            _remove_tree(tmp)
