"""Keep compiled word lists on disk: write them atomically, verify every byte they are read for, bound the folder.

A list lives in `<cache_dir>/wordlist-v<CACHE_VERSION>-<hash of its source>/`: one `.npy` per
array of `xwcp.words.wordlist.WordList` and a `meta.json` holding the skipped lines, the notes, and
for each file its size and XXH3-64 checksums (plus one of meta.json itself): one of its `.npy`
header, then one of each length's words (the table's row), so that every byte of the file is
covered once. A load checks the sizes, the headers and that the arrays fit together
(`_verify_arrays`), and the checksum of each length's words before they are used: all of
them when the list is read whole (`read`), the lengths a grid uses when it is read mapped
(`read_mapped` with `check_words=False`, then `verify_bucket` per length). A file damaged in
place, its size and time kept, is found: a folder that does not verify raises CacheDamaged,
whose message names the file, and the caller rebuilds it. Writes go to a `.tmp<PID>` folder
renamed into place; `tidy` removes the temporary folders of runs that died, older versions'
lists, and the least recently used lists beyond CACHE_KEEP_LISTS or `byte_bound()` bytes
($XWCP_CACHE_MAX_MB, else CACHE_MAX_BYTES).

Reading needs no numpy: `read_mapped` maps each file with `mmap`, checks its size and its
`.npy` header, and verifies the arrays as memoryviews; `read` wraps those views as numpy
arrays without copying. The start-up path of a small fill (xwcp/services/quick.py) uses the views
directly, so it never imports numpy.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import os
import re
import shutil
import sys
import time
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

CACHE_VERSION = 7
"""Bump when the cached layout or the parsing changes, so stale caches are rebuilt, not misread.

A list cached by another version is in another folder: it is compiled again without a word, as
after any upgrade, and `tidy` removes the old folder.
3: a leading UTF-8 byte order mark is dropped instead of spoiling the first word.
5: `º`-like letters are no words.
6: meta.json records CRC-32 checksums covering every byte of each file (the header, each length's words).
7: the checksums are XXH3-64, a tenth of CRC-32's time."""


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
_BY_LENGTH = ("letters_flat", "scores_flat", "order_flat", "starts_flat", "bits_flat")
"""The arrays cut by length, in the order of their offsets in a length-table row (columns 2-6)."""
_IntFormat = Literal["B", "h", "i", "q", "Q"]
_FORMATS: dict[str, _IntFormat] = {
    "letters_flat": "B",
    "scores_flat": "h",
    "order_flat": "i",
    "starts_flat": "i",
    "table": "q",
    "bits_flat": "Q",
}
"""Each array's element type as a `memoryview` format (numpy: uint8, int16, int32, int32, int64, uint64)."""
_DESCRS = {
    "letters_flat": "|u1",
    "scores_flat": "<i2",
    "order_flat": "<i4",
    "starts_flat": "<i4",
    "table": "<i8",
    "bits_flat": "<u8",
}
"""The `.npy` header's dtype of each array (numpy writes little-endian on this kind of machine)."""
_ITEM_BYTES = {"letters_flat": 1, "scores_flat": 2, "order_flat": 4, "starts_flat": 4, "table": 8, "bits_flat": 8}
_MAX_HEADER_BYTES = 65536
"""Longest `.npy` header read (numpy writes about 128 bytes; a damaged length field is not followed far)."""
CHECKSUM_KEY = "xxh3_64"
"""The key of a file's checksums in meta.json: XXH3-64 (the xxhash package) of the bytes.

Why: every load checksums the bytes it reads, so the check's speed is part of a fill's start-up.
Over 20 MB in one process on this 2-core box: XXH3-64 0.52 ms (39 GB/s), zlib's CRC-32 6.4 ms
(3.1 GB/s), blake2b about 22 ms. With CRC-32, a whole `xwcp fill models/15x15-daily-01.txt`
ran 6.8% more instructions than the tree before checksums (valgrind: 653.7 M against 612.2 M),
27 M of them in crc32; with XXH3 it runs 622.3 M (+1.6%, 2.3 M in XXH3), and on the default list
the grid's lengths hash in 0.11 ms, every byte in 0.76 ms (`bench/cache_checksum.py`, quiet
machine). A mapped read (the command line's fill)
checks the lengths the grid uses before their first use; a whole read (`read`: the library, the
server, a batch worker) checks every byte at load.
A 64-bit hash finds damage (a disk, a tool, a half-done copy) with odds 1 - 2**-64; it guards
against accidents, not against an attacker who can write the cache folder (and so meta.json too)."""


def _checksum(data: bytes | memoryview) -> int:
    """XXH3-64 of `data`'s bytes (any contiguous buffer)."""
    import xxhash

    return xxhash.xxh3_64_intdigest(data)


CACHE_KEEP_LISTS = 64
"""Most compiled lists kept in the cache (the most recently used); writing a new one removes the rest.
Bytes (`byte_bound`) are the bound that matters; this one only stops a flood of small lists."""
CACHE_MAX_BYTES = 512 * 1024 * 1024
"""Most bytes the kept lists may take unless $XWCP_CACHE_MAX_MB says otherwise; the least recently used
go first, but the newest list is always kept. Why 512 MiB: compiled, the default English list takes
22 MiB and `xwcp words build`'s wordfreq lists 3-53 MiB (es 21, fr 18, nl 22, pl 36, de 52, ru 53), so
English and the four largest others take 185 MiB: a user switching among several languages keeps each
compiled (German's 612,000 words take seconds to compile, 0.06 s to load), with room for lists of their own."""
CACHE_MAX_MB_ENV = "XWCP_CACHE_MAX_MB"
"""The environment variable that sets the byte bound, in MiB (a whole number; 0 keeps only the newest list)."""


def byte_bound() -> int:
    """The cache's byte bound: $XWCP_CACHE_MAX_MB MiB, else CACHE_MAX_BYTES (also for a value that is not a
    whole number of MiB: a cache setting never stops a fill)."""
    text = os.environ.get(CACHE_MAX_MB_ENV, "").strip()
    if text.isdigit():
        return int(text) * 1024 * 1024
    return CACHE_MAX_BYTES


class CacheDamaged(Exception):
    """A cached list that does not verify; its message names the file and says what is wrong, in one line."""


if TYPE_CHECKING:  # types only: a class made at import costs every small fill's start-up

    class MappedFields(TypedDict):
        """A cached list as `read_mapped` gives it: the WordList fields, each array a flat memoryview of its
        mapped file, the arrays' shapes, and per length-table row the checksum of its words in each array
        (`verify_bucket` checks them)."""

        problems: list[tuple[int, str]]
        n_problems: int
        notes: list[str]
        shapes: dict[str, tuple[int, ...]]
        row_crcs: list[dict[str, int]]
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


def _row_sizes(length: int, n: int, n_letters: int) -> tuple[int, int, int, int, int]:
    """Items each array of `_BY_LENGTH` holds for the `n` words of `length` (K = `n_letters`)."""
    return (n * length, n, n * length, (n_letters + 1) * length, n_letters * length * ((n + 63) // 64))


def _meta_check(meta: Mapping[str, Any]) -> int:
    body = {key: value for key, value in meta.items() if key != "check"}
    return _checksum(json.dumps(body, sort_keys=True).encode())


_NPY_HEADER = re.compile(rb"\{'descr': '([^']*)', 'fortran_order': (True|False), 'shape': \(([0-9, ]*)\), \}")
"""The header dict numpy writes in a `.npy` file (version 1-3), keys in the order it writes them."""


def _native_descr(name: str) -> str:
    return _DESCRS[name] if sys.byteorder == "little" else _DESCRS[name].replace("<", ">")


def _data_start(head: bytes | mmap.mmap, name: str) -> int:
    """Where the data of a `.npy` file starts (after its header), from its first bytes.

    Raises:
        CacheDamaged: it does not start as a numpy array file does.
    """
    if len(head) < 16 or head[:6] != b"\x93NUMPY" or head[6] not in (1, 2, 3):
        raise CacheDamaged(f"{name}.npy is not a numpy array file")
    size_bytes = 2 if head[6] == 1 else 4
    header_bytes = int.from_bytes(head[8 : 8 + size_bytes], "little")
    if header_bytes > _MAX_HEADER_BYTES:
        raise CacheDamaged(f"{name}.npy has a header of {header_bytes} bytes")
    return 8 + size_bytes + header_bytes


def _map_array(path: Path, name: str, entry: Mapping[str, Any]) -> tuple[memoryview, tuple[int, ...]]:
    """The data of the `.npy` file `path` as a flat read-only memoryview of its element type, and its shape.

    `entry` is the file's record in meta.json: its size and checksums (`_file_checksums`). The
    header is checked here, and the table's data; the other arrays' data by length in `verify_bucket`.

    Raises:
        CacheDamaged: the file cannot be read, its size or a checksum is not the recorded one, or its
            header is not the one numpy writes for this array.
    """
    try:
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            # a private (copy-on-write) map: ctypes can point the search at it; nothing writes to it
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_COPY) if size else None
    except (OSError, ValueError) as exc:
        raise CacheDamaged(f"{name}.npy cannot be read ({exc.__class__.__name__}: {exc})") from None
    if size != entry["size"]:
        what = "truncated" if size < entry["size"] else "grown"
        raise CacheDamaged(f"{name}.npy was damaged ({what}: {size} bytes, written with {entry['size']})")
    if mapped is None:  # a written array file is never empty: its header alone is over 100 bytes
        raise CacheDamaged(f"{name}.npy is empty")
    start = _data_start(mapped[:16], name)
    crcs = entry[CHECKSUM_KEY]
    if start > size or _checksum(mapped[:start]) != crcs[0]:
        raise CacheDamaged(f"{name}.npy was damaged (checksum mismatch in its header)")
    found = _NPY_HEADER.match(mapped[:start], 8 + (2 if mapped[6] == 1 else 4))
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
    if name == "table" and _checksum(view) != crcs[1]:
        raise CacheDamaged("table.npy was damaged (checksum mismatch)")
    return view.cast(_FORMATS[name]), shape


def _file_checksums(path: Path, name: str, rows: Sequence[Sequence[int]], n_letters: int) -> dict[str, Any]:
    """The record of a written `.npy` file in meta.json: its size and its checksums, those of its header and
    data (the table) or of its header and each length's words (`rows`, the length table), in order."""
    raw = path.read_bytes()
    start = _data_start(raw[:16], name)
    crcs = [_checksum(raw[:start])]
    if name == "table":
        crcs.append(_checksum(raw[start:]))
    else:
        column = _BY_LENGTH.index(name)
        item_bytes = _ITEM_BYTES[name]
        for length, n, *offsets in rows:
            begin = start + offsets[column] * item_bytes
            crcs.append(_checksum(raw[begin : begin + _row_sizes(length, n, n_letters)[column] * item_bytes]))
    return {"size": len(raw), CHECKSUM_KEY: crcs}


def _verify_arrays(
    arrays: Mapping[str, memoryview],
    shapes: Mapping[str, tuple[int, ...]],
    crcs: Mapping[str, Sequence[int]],
    check_words: bool = True,
    n_letters: int = 26,
) -> list[dict[str, int]]:
    """Raise CacheDamaged unless the arrays fit together: the length table against the array sizes
    (so each array's words of all lengths cover its data exactly, and the checksums of meta.json
    cover every byte), and, unless `check_words` is False (the caller then checks each length
    it reads: `verify_bucket`), every length's words.

    Returns:
        Per length-table row, the checksum of its words in each array (for `verify_bucket`).
    """
    for name, shape in shapes.items():
        if len(shape) != (2 if name == "table" else 1):
            raise CacheDamaged(f"{name}.npy has {len(shape)} dimensions")
    if shapes["table"][1] != 7:
        raise CacheDamaged(f"table.npy has shape {shapes['table']}")
    flat = arrays["table"].tolist()
    rows = [flat[k : k + 7] for k in range(0, len(flat), 7)]
    lengths = [row[0] for row in rows]
    if rows and (
        min(lengths) < 1 or min(row[1] for row in rows) < 1 or any(b <= a for a, b in zip(lengths, lengths[1:]))
    ):
        raise CacheDamaged("table.npy is not increasing lengths with words")
    ends = dict.fromkeys(_BY_LENGTH, 0)
    for length, n, *offsets in rows:
        for name, size, offset in zip(_BY_LENGTH, _row_sizes(length, n, n_letters), offsets):
            if offset != ends[name]:
                raise CacheDamaged(f"table.npy does not match {name}.npy")
            ends[name] += size
    for name, end in ends.items():
        if end != len(arrays[name]):
            raise CacheDamaged(f"table.npy does not match {name}.npy")
        if len(crcs[name]) != 1 + len(rows):
            raise CacheDamaged(
                f"meta.json has {len(crcs[name]) - 1} checksums for the {len(rows)} lengths of {name}.npy"
            )
    row_crcs = [{name: crcs[name][1 + index] for name in _BY_LENGTH} for index in range(len(rows))]
    for row, row_crc in zip(rows, row_crcs) if check_words else ():
        verify_bucket(arrays, row, row_crc, n_letters)
    return row_crcs


def verify_bucket(
    arrays: Mapping[str, memoryview], row: Sequence[int], row_crc: Mapping[str, int], n_letters: int = 26
) -> None:
    """Raise CacheDamaged unless the words of one length table `row` (already checked against the
    array sizes) have the checksum `row_crc` in each array, letter codes under `n_letters`, and starts
    rows that are partitions of them."""
    length, n, *offsets = row
    for name, size, offset in zip(_BY_LENGTH, _row_sizes(length, n, n_letters), offsets):
        if _checksum(arrays[name][offset : offset + size]) != row_crc[name]:
            raise CacheDamaged(f"{name}.npy was damaged (checksum mismatch in the words of length {length})")
    l_off, st_off = offsets[0], offsets[3]
    if arrays["letters_flat"][l_off : l_off + n * length].tobytes().translate(None, bytes(range(n_letters))):
        raise CacheDamaged(f"letters_flat.npy has a letter code over {n_letters - 1}")
    width = n_letters + 1
    starts = arrays["starts_flat"][st_off : st_off + width * length].tolist()
    for at in range(0, width * length, width):
        line = starts[at : at + width]
        if line[0] != 0 or line[n_letters] != n or line != sorted(line):
            raise CacheDamaged("starts_flat.npy has a row that is not a partition of its words")


def _meta_identity(folder: Path) -> tuple[int, int] | None:
    """(device, inode) of the folder's meta.json, None when there is none: it changes when another run
    replaces the folder."""
    try:
        info = (folder / "meta.json").stat()
    except OSError:
        return None
    return info.st_dev, info.st_ino


def read_meta(folder: Path) -> dict[str, Any] | None:
    """The verified meta.json of the cached list in `folder`; None when there is none.

    Raises:
        CacheDamaged: the folder is there but its meta.json is missing, unreadable, does not match its
            checksum or lacks a file's size or checksums.
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
            raise CacheDamaged("meta.json was damaged (checksum mismatch)")
        meta["problems"] = [(int(line), str(what)) for line, what in meta["problems"]]
        meta["n_problems"], meta["notes"] = int(meta["n_problems"]), [str(note) for note in meta["notes"]]
        for name in ARRAYS:
            entry = meta["files"][name]
            crcs = entry.get(CHECKSUM_KEY) if isinstance(entry, dict) else None
            if (
                not isinstance(crcs, list)
                or len(crcs) < (2 if name == "table" else 1)
                or not all(type(crc) is int for crc in crcs)
                or type(entry.get("size")) is not int
            ):
                raise CacheDamaged(f"meta.json has no size and checksums for {name}.npy")
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:  # RecursionError: deep nesting
        raise CacheDamaged(f"meta.json is not valid ({exc.__class__.__name__}: {exc})") from None
    return meta


def read_mapped(folder: Path, check_words: bool = True, n_letters: int = 26) -> MappedFields | None:
    """The cached list in `folder` as WordList fields (problems, n_problems, notes, and each array as a
    flat memoryview of its memory-mapped file), plus `shapes` and `row_crcs`; None when there is none.
    No numpy.

    `check_words=False` leaves `verify_bucket` to the caller, for the lengths it reads (a small
    grid reads a few of the lengths: their checksums are most of the cost of a load).
    A folder replaced by another run while it was read (a rebuild of the same list) is read again.

    Raises:
        CacheDamaged: the folder is there but does not verify (the message names the file and says what is wrong).
    """
    identity = _meta_identity(folder)
    try:
        return _read_mapped(folder, check_words, n_letters)
    except CacheDamaged:
        now = _meta_identity(folder)
        if now == identity:
            raise
        return None if now is None else _read_mapped(folder, check_words, n_letters)


def _read_mapped(folder: Path, check_words: bool, n_letters: int) -> MappedFields | None:
    meta = read_meta(folder)
    if meta is None:
        return None
    arrays: dict[str, memoryview] = {}
    shapes: dict[str, tuple[int, ...]] = {}
    for name in ARRAYS:
        arrays[name], shapes[name] = _map_array(folder / f"{name}.npy", name, meta["files"][name])
    row_crcs = _verify_arrays(
        arrays, shapes, {name: meta["files"][name][CHECKSUM_KEY] for name in ARRAYS}, check_words, n_letters
    )
    mark_used(folder)
    mapped: MappedFields = {
        "problems": meta["problems"],
        "n_problems": meta["n_problems"],
        "notes": meta["notes"],
        "shapes": shapes,
        "row_crcs": row_crcs,
        "letters_flat": arrays["letters_flat"],
        "scores_flat": arrays["scores_flat"],
        "order_flat": arrays["order_flat"],
        "starts_flat": arrays["starts_flat"],
        "table": arrays["table"],
        "bits_flat": arrays["bits_flat"],
    }
    return mapped


def read(folder: Path, n_letters: int = 26) -> ArrayFields | None:
    """The cached list in `folder` as WordList fields (the arrays as numpy views of the mapped files,
    problems, n_problems, notes), every byte checked; None when there is none.

    Raises:
        CacheDamaged: the folder is there but does not verify (the message names the file and says what is wrong).
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
        "problems": fields["problems"],
        "n_problems": fields["n_problems"],
        "notes": fields["notes"],
        "letters_flat": view("letters_flat", fields["letters_flat"]),
        "scores_flat": view("scores_flat", fields["scores_flat"]),
        "order_flat": view("order_flat", fields["order_flat"]),
        "starts_flat": view("starts_flat", fields["starts_flat"]),
        "table": view("table", fields["table"]),
        "bits_flat": view("bits_flat", fields["bits_flat"]),
    }
    return viewed


def mark_used(folder: Path) -> None:
    """Set the folder's time to now: its last use, by which `tidy` removes the least recently used lists first.

    The time is the process's clock in nanoseconds, not the file system's (which may advance in steps of
    milliseconds): two lists used one after the other keep their order."""
    now_ns = time.time_ns()
    try:
        os.utime(folder, ns=(now_ns, now_ns))
    except OSError:
        pass


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


def tidy(root: Path | None = None, keep: int = CACHE_KEEP_LISTS, max_bytes: int | None = None) -> list[Path]:
    """Remove what the cache no longer needs; returns the removed folders.

    Removed: temporary folders whose writing process is gone (a run killed mid-write), lists
    compiled by an older cache version (a newer one's are left to it), and the least recently used lists beyond `keep` lists
    or `max_bytes` in all (None: `byte_bound()`; the most recently used one always stays).
    """
    root = root or cache_dir()
    bound = byte_bound() if max_bytes is None else max_bytes
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
        version_text = base[len("wordlist-v") :].partition("-")[0]
        if version_text != str(CACHE_VERSION):
            if not version_text.isdigit() or int(version_text) < CACHE_VERSION:
                removed.append(path)  # a newer xwcp's list stays: two versions side by side keep their caches
            continue
        try:
            kept.append((path.stat().st_mtime_ns, path))
        except OSError:
            continue
    kept.sort(reverse=True)
    total_bytes = 0
    for index, (_, path) in enumerate(kept):
        total_bytes += _folder_bytes(path)
        if index and (index >= keep or total_bytes > bound):
            removed.append(path)
    for path in removed:
        _remove_tree(path)
    return removed


def write(
    folder: Path,
    arrays: Mapping[str, NDArray[Any]],
    *,
    problems: list[tuple[int, str]],
    n_problems: int,
    notes: list[str],
    n_letters: int,
) -> str | None:
    """Write a compiled list to `folder` (replacing a damaged one), then tidy the cache.

    The files are written in a temporary folder renamed into place, so a reader sees the old
    folder, no folder (it compiles the list itself) or the new one, never half of one; a
    damaged folder is first renamed aside. Two runs writing the same list at once both
    succeed: the second finds the first's folder in place and keeps it.

    Args:
        n_letters: the size K of the alphabet the list was indexed in (it sizes the arrays' lengths).

    Returns:
        Why it could not be written, or None when it was.
    """
    tmp = folder.with_name(folder.name + f".tmp{os.getpid()}")
    aside = folder.with_name(folder.name + f".tmp{os.getpid()}-old")  # a `tidy` of any run removes it
    try:
        tmp.mkdir(parents=True, exist_ok=True)
        if aside.exists():  # left by a run of the same process id that died
            _remove_tree(aside)
        rows = np.asarray(arrays["table"]).tolist()
        files: dict[str, dict[str, Any]] = {}
        for name in ARRAYS:
            np.save(tmp / f"{name}.npy", arrays[name])
            files[name] = _file_checksums(tmp / f"{name}.npy", name, rows, n_letters)
        meta: dict[str, Any] = {
            "version": CACHE_VERSION,
            "problems": problems,
            "n_problems": n_problems,
            "notes": notes,
            "files": files,
        }
        meta["check"] = _meta_check(meta)
        (tmp / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        with contextlib.suppress(FileNotFoundError):
            os.replace(folder, aside)  # the damaged (or just rebuilt) folder, out of the way in one step
        try:
            os.replace(tmp, folder)
        except OSError:
            if not folder.is_dir():  # else another run has just written the same list: keep theirs
                raise
        mark_used(folder)
        tidy(folder.parent)
        return None
    except OSError as exc:
        return exc.strerror or str(exc)  # a cache we cannot write only costs time, never correctness
    finally:
        for path in (tmp, aside):
            if path.exists():
                _remove_tree(path)
