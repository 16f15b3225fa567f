"""Warm fill and suggestion time of each language's default built list against English's embedded list.

Usage: PYTHONPATH=$PWD python3 bench/language_default_speed.py [--languages es,de,fr,ru,pl,he,ro,sl]
           [--grid models/15x15-daily-01.txt] [--repeats 3]

Each language's list is the one `xwcp words build --language CODE` writes by default (the checked list) under
the data folder (`$XWCP_DATA_DIR/words/CODE-checked.dict`); build them first. The grid's letters are removed.
Every list is loaded and filled once before timing (warm, as in a server or a second command), then each
repeat times `xwcp.fill` and `xwcp.suggest(slot 1A, k=40)` for every language in turn. Every fill is checked.
Prints the medians and their ratio to English's. Timings on a shared machine are noisy: compare rows of one run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import xwcp  # noqa: E402
from xwcp.base.types import FillStatus  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402
from xwcp.words.userwords import data_dir  # noqa: E402


def empty_grid(path: Path) -> str:
    """The grid's rows with every letter removed (comment lines dropped)."""
    rows = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith(";")]
    return "\n".join("".join("#" if ch == "#" else "." for ch in row) for row in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", default="es,de,fr,ru,pl,he,ro,sl")
    parser.add_argument("--grid", default=str(ROOT / "models" / "15x15-daily-01.txt"))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    grid = empty_grid(Path(args.grid))
    lists: list[tuple[str, str | None]] = [("en", None)]
    for code in args.languages.split(","):
        path = data_dir() / "words" / f"{code}-checked.dict"
        if path.exists():
            lists.append((code, str(path)))
        else:
            print(f"{code}: no {path}: run `xwcp words build --language {code}` first")
    for code, words in lists:  # warm: load, compile and fill once
        xwcp.fill(grid, words, language=None if code == "en" else code, time_limit_s=30)
    fill_s: dict[str, list[float]] = {code: [] for code, _ in lists}
    suggest_s: dict[str, list[float]] = {code: [] for code, _ in lists}
    for _ in range(args.repeats):
        for code, words in lists:
            language = None if code == "en" else code
            start = time.perf_counter()
            result = xwcp.fill(grid, words, language=language, time_limit_s=30)
            fill_s[code].append(time.perf_counter() - start)
            problems = check_fill(result.problem, result.result.entries) if result.is_filled else ["not filled"]
            if result.status is not FillStatus.FILLED or problems:
                print(f"{code}: BAD fill ({result.status}, {problems[:3]})")
                return 1
            start = time.perf_counter()
            xwcp.suggest(grid, "1A", words, k=40, language=language)
            suggest_s[code].append(time.perf_counter() - start)
    en_fill, en_suggest = statistics.median(fill_s["en"]), statistics.median(suggest_s["en"])
    print(f"grid {args.grid} (letters removed); medians of {args.repeats} warm runs; every fill checked")
    print("lang   fill s   x en   suggest s   x en")
    for code, _ in lists:
        f, s = statistics.median(fill_s[code]), statistics.median(suggest_s[code])
        print(f"{code:4} {f:8.3f} {f / en_fill:6.2f} {s:11.3f} {s / en_suggest:6.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
