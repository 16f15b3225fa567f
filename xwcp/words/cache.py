"""Keep compiled word lists on disk: write them atomically, verify them on every load, bound the folder.

A list lives in `<cache_dir>/wordlist-v<CACHE_VERSION>-<hash of its source>/`: one `.npy` per
array of `xwcp.words.wordlist.WordList` and a `meta.json` holding the skipped lines, the notes, and
for each file its size, modification time and a CRC of its first and last 4 KiB (plus a CRC of
meta.json itself). A load compares those stamps (any write to a file changes one) and checks
that the arrays fit together (`_verify_arrays`); a folder that does not verify raises
CacheDamaged, and the caller rebuilds it. Writes go to a `.tmp<PID>` folder renamed into place;
`tidy` removes the temporary folders of runs that died, other versions' lists, and the least
recently used lists beyond CACHE_KEEP_LISTS or CACHE_MAX_BYTES.

Reading needs no numpy: `read_mapped` maps each file with `mmap`, checks its stamp and its
`.npy` header, and verifies the arrays as memoryviews; `read` wraps those views as numpy
arrays without copying. The start-up path of a small fill (xwcp/services/quick.py) uses the views
directly, so it never imports numpy (issue 17).
"""
from __future__ import annotations

import contextlib
import json
import mmap
import os
import re
import shutil
import sys
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from xwcp.runtime.lazy import lazy_import

if TYPE_CHECKING:
    from typing import TypedDict

    import numpy as np
    from numpy.typing import NDArray
else:
    np = lazy_import("numpy")  # only `read` and `write` need it

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
_IntFormat = Literal["B", "h", "i", "q", "Q"]
_FORMATS: dict[str, _IntFormat] = {"letters_flat": "B", "scores_flat": "h", "order_flat": "i", "starts_flat": "i", "table": "q",
            "bits_flat": "Q"}
"""Each array's element type as a `memoryview` format (numpy: uint8, int16, int32, int32, int64, uint64)."""
_DESCRS = {"letters_flat": "|u1", "scores_flat": "<i2", "order_flat": "<i4", "starts_flat": "<i4", "table": "<i8",
           "bits_flat": "<u8"}
"""The `.npy` header's dtype of each array (numpy writes little-endian on this kind of machine)."""
_ITEM_BYTES = {"letters_flat": 1, "scores_flat": 2, "order_flat": 4, "starts_flat": 4, "table": 8, "bits_flat": 8}
_SAMPLE_BYTES = 4096
"""Bytes at each end of a cached array file covered by its recorded checksum (the npy header and the tail)."""
CACHE_KEEP_LISTS = 20
"""Most compiled lists kept in the cache (the most recently used); writing a new one removes the rest."""
CACHE_MAX_BYTES = 256 * 1024 * 1024
"""Most bytes the kept lists may take (the default list takes 23 MB); the least recently used go
first, but the newest list is always kept."""


class CacheDamaged(Exception):
    """A cached list that does not verify; its message says what is wrong."""


if TYPE_CHECKING:  # types only: a class made at import costs every small fill's start-up (issue 17)
    class MappedFields(TypedDict):
        """A cached list as `read_mapped` gives it: the WordList fields, each array a flat memoryview of its
        mapped file, and the arrays' shapes."""

        problems: list[tuple[int, str]]
        n_problems: int
        notes: list[str]
        shapes: dict[str, tuple[int, ...]]
        letters_flat: memoryview
        scores_flat: memoryview
        order_flat: memoryview
        starts_flat: memoryview
        table: memoryview
        bits_flat: memoryview

    class ArrayFields(TypedDict):
        """A cached list as `read` gives it: the WordList fields but `source`, each array a read-only numpy
        view of its mapped file."""

        problems: list[tuple[int, str]]
        n_problems: int
        notes: list[str]
        letters_flat: NDArray[np.uint8]
        scores_flat: NDArray[np.int16]
        order_flat: NDArray[np.int32]
        starts_flat: NDArray[np.int32]
        table: NDArray[np.int64]
        bits_flat: NDArray[np.uint64]


def _file_stamp(path: Path) -> dict[str, int]:
    """Size, modification time and a checksum of both ends: any write to the file changes one of them."""
    info = path.stat()
    with path.open("rb") as handle:
        head = handle.read(_SAMPLE_BYTES)
        handle.seek(max(0, info.st_size - _SAMPLE_BYTES))
        tail = handle.read(_SAMPLE_BYTES)
    return {"size": info.st_size, "mtime_ns": info.st_mtime_ns, "crc": zlib.crc32(tail, zlib.crc32(head))}


def _meta_check(meta: Mapping[str, Any]) -> int:
    body = {key: value for key, value in meta.items() if key != "check"}
    return zlib.crc32(json.dumps(body, sort_keys=True).encode())


_NPY_HEADER = re.compile(rb"\{'descr': '([^']*)', 'fortran_order': (True|False), 'shape': \(([0-9, ]*)\), \}")
"""The header dict numpy writes in a `.npy` file (version 1-3), keys in the order it writes them."""


def _native_descr(name: str) -> str:
    return _DESCRS[name] if sys.byteorder == "little" else _DESCRS[name].replace("<", ">")


def _map_array(path: Path, name: str, stamp: Mapping[str, int]) -> tuple[memoryview, tuple[int, ...]]:
    """The data of the `.npy` file `path` as a flat read-only memoryview of its element type, and its shape.

    Raises:
        CacheDamaged: the file changed after it was written (its stamp), or its header is not
            the one numpy writes for this array.
    """
    try:
        with path.open("rb") as handle:
            info = os.fstat(handle.fileno())
            # a private (copy-on-write) map: ctypes can point the search at it; nothing writes to it
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY)
    except (OSError, ValueError) as exc:
        raise CacheDamaged(f"{name}.npy cannot be read ({exc.__class__.__name__}: {exc})") from None
    head, tail = mapped[:_SAMPLE_BYTES], mapped[max(0, info.st_size - _SAMPLE_BYTES):]
    if stamp != {"size": info.st_size, "mtime_ns": info.st_mtime_ns, "crc": zlib.crc32(tail, zlib.crc32(head))}:
        raise CacheDamaged(f"{name}.npy changed after it was written")
    if head[:6] != b"\x93NUMPY" or head[6] not in (1, 2, 3):
        raise CacheDamaged(f"{name}.npy is not a numpy array file")
    size_bytes = 2 if head[6] == 1 else 4
    start = 8 + size_bytes + int.from_bytes(head[8:8 + size_bytes], "little")
    found = _NPY_HEADER.match(head, 8 + size_bytes, start)
    descr = _native_descr(name)
    if found is None or found[1].decode() != descr or found[2] != b"False":
        raise CacheDamaged(f"{name}.npy does not hold {descr} values in C order")
    shape = tuple(int(x) for x in found[3].split(b",") if x.strip())
    view = memoryview(mapped)[start:]
    n_items = 1
    for extent in shape:
        n_items *= extent
    if len(view) != n_items * _ITEM_BYTES[name]:
        raise CacheDamaged(f"{name}.npy has {len(view)} bytes of data for shape {shape}")
    return view.cast(_FORMATS[name]), shape


def _verify_arrays(arrays: Mapping[str, memoryview], shapes: Mapping[str, tuple[int, ...]], check_words: bool = True,
                   n_letters: int = 26) -> None:
    """Raise CacheDamaged unless the arrays fit together: the length table against the array sizes,
    and (`check_words`, else left to the caller: `verify_bucket` per length used) every starts
    row a partition of its words, every letter code under `n_letters` (the alphabet's size).

    It runs on every cached load, so it reads only the small arrays and the letters (a few ms
    for the default list, without numpy). The word ids in `order` and the bit sets are not
    scanned (10-20 ms more, as they are 20 MB); any write to them changes the file's time, size
    or ends, which `read_mapped` checks first.
    """
    for name, shape in shapes.items():
        if len(shape) != (2 if name == "table" else 1):
            raise CacheDamaged(f"{name} has {len(shape)} dimensions")
    if shapes["table"][1] != 7:
        raise CacheDamaged(f"table has shape {shapes['table']}")
    flat = arrays["table"].tolist()
    rows = [flat[k:k + 7] for k in range(0, len(flat), 7)]
    lengths = [row[0] for row in rows]
    if rows and (min(lengths) < 1 or min(row[1] for row in rows) < 1
                 or any(b <= a for a, b in zip(lengths, lengths[1:]))):
        raise CacheDamaged("the length table is not increasing lengths with words")
    ends = dict.fromkeys(("letters_flat", "scores_flat", "order_flat", "starts_flat", "bits_flat"), 0)
    for length, n, *offsets in rows:
        sizes = {"letters_flat": n * length, "scores_flat": n, "order_flat": n * length,
                 "starts_flat": (n_letters + 1) * length, "bits_flat": n_letters * length * ((n + 63) // 64)}
        for (name, size), offset in zip(sizes.items(), offsets):
            if offset != ends[name]:
                raise CacheDamaged(f"the length table does not match {name}")
            ends[name] += size
    for name, end in ends.items():
        if end != len(arrays[name]):
            raise CacheDamaged(f"the length table does not match {name}")
    for row in rows if check_words else ():
        verify_bucket(arrays, row, n_letters)


def verify_bucket(arrays: Mapping[str, memoryview], row: Sequence[int], n_letters: int = 26) -> None:
    """Raise CacheDamaged unless the words of one length table `row` (already checked against the
    array sizes) have letter codes under `n_letters` and every starts row of theirs is a partition of them."""
    length, n, l_off, _, _, st_off, _ = row
    if arrays["letters_flat"][l_off:l_off + n * length].tobytes().translate(None, bytes(range(n_letters))):
        raise CacheDamaged(f"a letter code is over {n_letters - 1}")
    width = n_letters + 1
    starts = arrays["starts_flat"][st_off:st_off + width * length].tolist()
    for at in range(0, width * length, width):
        line = starts[at:at + width]
        if line[0] != 0 or line[n_letters] != n or line != sorted(line):
            raise CacheDamaged("a starts row is not a partition of its words")


def read_meta(folder: Path) -> dict[str, Any] | None:
    """The verified meta.json of the cached list in `folder`; None when there is none.

    Raises:
        CacheDamaged: the folder is there but its meta.json is missing, unreadable or does not match its checksum.
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
        meta: dict[str, Any] = json.loads(meta_text)
        if meta["version"] != CACHE_VERSION or meta["check"] != _meta_check(meta):
            raise CacheDamaged("meta.json does not match its checksum")
        meta["problems"] = [(int(line), str(what)) for line, what in meta["problems"]]
        meta["n_problems"], meta["notes"] = int(meta["n_problems"]), [str(note) for note in meta["notes"]]
        if not all(isinstance(meta["files"][name], dict) for name in ARRAYS):
            raise TypeError("a file stamp is not an object")
    except (ValueError, KeyError, TypeError) as exc:
        raise CacheDamaged(f"meta.json is not valid ({exc.__class__.__name__}: {exc})") from None
    return meta


def read_mapped(folder: Path, check_words: bool = True, n_letters: int = 26) -> MappedFields | None:
    """The cached list in `folder` as WordList fields (problems, n_problems, notes, and each array as a
    flat memoryview of its memory-mapped file), plus `shapes`; None when there is none. No numpy.

    `check_words=False` leaves `verify_bucket` to the caller, for the lengths it reads (a small
    grid reads one or two of the twenty).

    Raises:
        CacheDamaged: the folder is there but does not verify (the message says what is wrong).
    """
    meta = read_meta(folder)
    if meta is None:
        return None
    arrays: dict[str, memoryview] = {}
    shapes: dict[str, tuple[int, ...]] = {}
    for name in ARRAYS:
        arrays[name], shapes[name] = _map_array(folder / f"{name}.npy", name, meta["files"][name])
    _verify_arrays(arrays, shapes, check_words, n_letters)
    try:
        os.utime(folder)  # the folder's time is its last use: the least recently used lists go first
    except OSError:
        pass
    mapped: MappedFields = {
        "problems": meta["problems"], "n_problems": meta["n_problems"], "notes": meta["notes"], "shapes": shapes,
        "letters_flat": arrays["letters_flat"], "scores_flat": arrays["scores_flat"],
        "order_flat": arrays["order_flat"], "starts_flat": arrays["starts_flat"], "table": arrays["table"],
        "bits_flat": arrays["bits_flat"]}
    return mapped


def read(folder: Path, n_letters: int = 26) -> ArrayFields | None:
    """The cached list in `folder` as WordList fields (the arrays as numpy views of the mapped files,
    problems, n_problems, notes); None when there is none.

    Raises:
        CacheDamaged: the folder is there but does not verify (the message says what is wrong).
    """
    fields = read_mapped(folder, n_letters=n_letters)
    if fields is None:
        return None
    shapes = fields["shapes"]

    def view(name: str, data: memoryview) -> NDArray[Any]:
        # a plain read-only ndarray view of the map (numpy's memmap subclass makes every slice cost a Python call)
        array = np.frombuffer(data, dtype=_native_descr(name)).reshape(shapes[name])
        array.flags.writeable = False
        return array

    viewed: ArrayFields = {
        "problems": fields["problems"], "n_problems": fields["n_problems"], "notes": fields["notes"],
        "letters_flat": view("letters_flat", fields["letters_flat"]),
        "scores_flat": view("scores_flat", fields["scores_flat"]),
        "order_flat": view("order_flat", fields["order_flat"]),
        "starts_flat": view("starts_flat", fields["starts_flat"]), "table": view("table", fields["table"]),
        "bits_flat": view("bits_flat", fields["bits_flat"])}
    return viewed


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


def write(folder: Path, arrays: Mapping[str, NDArray[Any]], *, problems: list[tuple[int, str]], n_problems: int,
          notes: list[str]) -> str | None:
    """Write a compiled list to `folder` (replacing a damaged one), then tidy the cache.

    Returns:
        Why it could not be written, or None when it was.
    """
    tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
    try:
        tmp.mkdir(parents=True, exist_ok=True)
        stamps: dict[str, dict[str, int]] = {}
        for name in ARRAYS:
            np.save(tmp / f"{name}.npy", arrays[name])
            stamps[name] = _file_stamp(tmp / f"{name}.npy")
        meta: dict[str, Any] = {"version": CACHE_VERSION, "problems": problems, "n_problems": n_problems, "notes": notes,
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
