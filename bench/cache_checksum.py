"""Benchmark the word-list cache's checksums against a warm fill, in one process.

Usage: PYTHONPATH=. python3 bench/cache_checksum.py [--repeats N] [--big N_WORDS]

Prints median milliseconds (and the best run) for, on the default list's compiled cache (warm:
compiled once first, its files in the page cache):
  - XXH3-64 (in use), CRC-32 and blake2b over every byte of its six arrays (which checksum to use);
  - a whole read that checks every byte (`cache.read_mapped`, as `load_word_list` reads: the
    library, the server), and a mapped read with only the headers and the table checked;
  - the checks of the lengths the stock 15x15 uses (`MappedWordList.row`, as the command line's
    fill does before its search);
  - the warm fill of the stock 15x15 (`xwcp fill models/15x15-daily-01.txt` through `cli.main`, and
    its own `seconds`: load, compile and fill), and `xwcp.fill(grid)` of the library.
`--big N` also compiles a list of N random words (3-21 letters) into a scratch cache and times
its whole read, for lists far bigger than the default.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import statistics
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

import xxhash

ROOT = Path(__file__).resolve().parent.parent
GRID = "models/15x15-daily-01.txt"


def timed(job: Callable[[], object], repeats: int) -> tuple[float, float]:
    """(median ms, best ms) of `repeats` runs of `job`."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        job()
        runs.append((time.perf_counter() - start) * 1000)
    return statistics.median(runs), min(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--big", type=int, default=0, metavar="N_WORDS")
    args = parser.parse_args()
    os.chdir(ROOT)

    import xwcp
    from xwcp.cli.commands import main as cli_main
    from xwcp.model import find_slots, read_grid
    from xwcp.words import cache
    from xwcp.words.wordlist import cache_folder, list_source, load_word_list, read_mapped_word_list

    load_word_list()  # compiled once (warm)
    folder = cache_folder(list_source(None)[1])
    files = [folder / f"{name}.npy" for name in cache.ARRAYS]
    n_bytes = sum(path.stat().st_size for path in files)
    datas = [path.read_bytes() for path in files]
    lengths = sorted({slot.length for slot in find_slots(read_grid(GRID))})
    table = load_word_list().table.tolist()
    grid_slices = []  # the bytes of the grid's lengths in each array but the table
    for column, name in enumerate(("letters_flat", "scores_flat", "order_flat", "starts_flat", "bits_flat")):
        data = memoryview(datas[cache.ARRAYS.index(name)])
        start, item_bytes = cache._data_start(bytes(data[:16]), name), cache._ITEM_BYTES[name]
        for length, n, *offsets in table:
            if length in lengths:
                at = start + offsets[column] * item_bytes
                grid_slices.append(data[at : at + cache._row_sizes(length, n, 26)[column] * item_bytes])

    def checked_lengths() -> None:
        words = read_mapped_word_list()
        assert words is not None
        for length in lengths:
            words.row(length)

    def cli_fill() -> float:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            assert cli_main(["fill", GRID, "--format", "json"]) == 0
        return float(json.loads(out.getvalue())["seconds"]) * 1000

    rows: list[tuple[str, tuple[float, float]]] = []
    cli_fill()
    xwcp.fill(GRID)
    for _ in range(2):  # interleaved rounds: a busy neighbour slows both sides alike
        rows = [
            (
                "XXH3-64 over every byte (in use)",
                timed(lambda: [xxhash.xxh3_64_intdigest(data) for data in datas], args.repeats),
            ),
            (
                f"XXH3-64 over the bytes of lengths {lengths[0]}-{lengths[-1]}",
                timed(lambda: [xxhash.xxh3_64_intdigest(data) for data in grid_slices], args.repeats),
            ),
            ("CRC-32 over every byte", timed(lambda: [zlib.crc32(data) for data in datas], args.repeats)),
            (
                f"CRC-32 over the bytes of lengths {lengths[0]}-{lengths[-1]}",
                timed(lambda: [zlib.crc32(data) for data in grid_slices], args.repeats),
            ),
            (
                "blake2b over every byte",
                timed(lambda: [hashlib.blake2b(data).digest() for data in datas], args.repeats),
            ),
            ("whole read, every byte checked", timed(lambda: cache.read_mapped(folder), args.repeats)),
            (
                "mapped read, headers and table",
                timed(lambda: cache.read_mapped(folder, check_words=False), args.repeats),
            ),
            (f"mapped read + lengths {lengths[0]}-{lengths[-1]} checked", timed(checked_lengths, args.repeats)),
            ("warm `xwcp fill` (cli.main)", timed(cli_fill, args.repeats)),
            ("its `seconds` (load+compile+fill)", (statistics.median(cli_fill() for _ in range(args.repeats)), 0.0)),
            ("xwcp.fill(grid), default list", timed(lambda: xwcp.fill(GRID), args.repeats)),
        ]
    print(
        f"default list: {n_bytes / 1e6:.1f} MB of arrays in {folder.name}; grid {GRID}; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    for label, (median_ms, best_ms) in rows:
        print(f"  {label:45} median {median_ms:7.2f} ms   best {best_ms:7.2f} ms")
    by_label = dict(rows)
    whole, lazy = rows[0][1][0], rows[1][1][0]
    for label in ("warm `xwcp fill` (cli.main)", "its `seconds` (load+compile+fill)", "xwcp.fill(grid), default list"):
        fill_ms = by_label[label][0]
        print(f"  XXH3-64 of every byte / {label}: {whole / fill_ms:.1%};  of the grid's lengths: {lazy / fill_ms:.1%}")
    if args.big:
        rng = random.Random(17)
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        with tempfile.TemporaryDirectory() as scratch:
            os.environ["XWCP_CACHE_DIR"] = scratch
            words_path = Path(scratch) / "big.dict"
            words_path.write_text(
                "".join(f"{''.join(rng.choices(alphabet, k=rng.randint(3, 21)))};50\n" for _ in range(args.big))
            )
            start = time.perf_counter()
            load_word_list(words_path)
            build_s = time.perf_counter() - start
            big = cache_folder(words_path.read_bytes())
            big_bytes = sum(path.stat().st_size for path in big.glob("*.npy"))
            median_ms, best_ms = timed(lambda: cache.read_mapped(big), max(3, args.repeats // 3))
            print(
                f"{args.big} random words: {big_bytes / 1e6:.1f} MB of arrays (compiled in {build_s:.1f} s); "
                f"whole read, every byte checked: median {median_ms:.1f} ms, best {best_ms:.1f} ms"
            )


if __name__ == "__main__":
    main()
