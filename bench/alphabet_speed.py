"""A 27-33-letter alphabet fills as fast as English: the same grids, a list of the same size and shape, one run.

Usage: PYTHONPATH=. python3 bench/alphabet_speed.py [--letters 33] [--share 0.1] [--words LIST] [--seeds 3]
                                                    [--rounds 3] [--time-limit 30] [--cpu-time] [--no-spread]
                                                    [GRID ...]
       (default grids: Herald 15.01-15.10 and 21.01-21.10 from models/vanbeek, models/11x11-01.txt,
        models/15x15-daily-01.txt and -02.txt)

The English list (the default list, or --words) is mapped onto an alphabet of K letters (A-Z, then K - 26
more: Ñ, Ä, Ö, Ü, Å, Ø, Ł, ...) two ways, each keeping every word (the maps are one to one) and every length:
  moved   A-Z onto 26 of the K letters spread over the whole alphabet, in order (A -> code 0, Z -> code K-1,
          the rest evenly between): the same words, sorted the same, in letter codes up to K-1, searched by the
          engine's generic build (K letters, 64-bit letter sets) instead of the 26-letter one. Same choices,
          so the node counts must be equal: the ratio is the engine's own cost of a larger alphabet.
  spread  as a language with K letters: each extra letter takes over a share (--share, default 0.1) of the
          occurrences of one frequent English letter (chosen per word and position by a hash: E -> Ñ,
          A -> Ä, I -> Ö, ...), so the list uses every letter and keeps its size and lengths; with 7 extra
          letters about 5% of all letters are beyond Z (Spanish Ñ is under 1%, Polish's 9 letters about 7%).
          Each split makes crossings a little harder (half of E no longer meets the other half), so the
          search differs and its nodes do too: the time ratio is such a language's against English on the
          same grid, seeds spread the luck; time per node compares the engine's speed.
Every grid is filled with `backtrack` per seed, English, moved and spread interleaved (the order rotates
each round, after one untimed warm-up fill per grid and variant), and every fill is checked (`check_fill`). Times are the fill alone (the problem is compiled
before the clock starts; compile times are printed apart). The summary gives, per variant, the ratio of
total times over every grid and seed (the headline: issue 36's target is <= 1.1), the median of the
per-instance ratios, and the ratio of time per search node (over all instances, which the heaviest search
dominates, and the median of the per-instance ratios). Grids with letters in them are skipped.
The machine may be shared: `uptime` is printed before and after; compare the ratios, not the seconds.
`--no-spread` runs English and moved only (the engine's own cost, quicker). `--cpu-time` times each fill by this thread's CPU time instead of the wall clock (the search runs in this
thread): other processes' load then inflates it far less.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from xwcp.backends import fill  # noqa: E402
from xwcp.compile.problem import Problem, compile_problem  # noqa: E402
from xwcp.engine.result import Limits, check_fill  # noqa: E402
from xwcp.model import BLOCK, EMPTY, read_grid  # noqa: E402
from xwcp.model.alphabet import Alphabet  # noqa: E402
from xwcp.words.wordlist import WordList, build_word_list, load_word_list, score_by_word_of  # noqa: E402

ENGLISH = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
EXTRA = "ÑÄÖÜÅØŁĆČĘĞİŃŐŚŠŞŰŹŻŽ"
"""Letters beyond Z, in the order the extra letters of the alphabet take them (up to 26 + 22 = 48 letters)."""
SOURCES = "EAIORNTSLCUDPMHGBYFKWVZXJQ"
"""The English letter each extra letter takes half of, in order (most frequent in crossword lists first)."""
DEFAULT_GRIDS = (
    [f"models/vanbeek/15.{k:02d}.txt" for k in range(1, 11)]
    + [f"models/vanbeek/21.{k:02d}.txt" for k in range(1, 11)]
    + ["models/11x11-01.txt", "models/15x15-daily-01.txt", "models/15x15-daily-02.txt"]
)
VARIANTS: tuple[str, ...] = ("english", "moved", "spread")


def say(text: str) -> None:
    print(text, flush=True)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def alphabet_of(n_letters: int) -> Alphabet:
    letters = (ENGLISH + EXTRA)[:n_letters]
    return Alphabet(f"x{n_letters}", f"Bench {n_letters}", tuple(letters))


def spread_word(word: str, extra: str, share: float) -> str:
    """`word` with about `share` of the occurrences of each source letter written as its extra letter instead
    (one to one: mapping every extra letter back gives `word`)."""
    out = list(word)
    cut = int(share * 1000)
    for letter, source in zip(extra, SOURCES):
        for pos, ch in enumerate(word):
            if ch == source and zlib.crc32(f"{word}:{pos}".encode()) % 1000 < cut:
                out[pos] = letter
    return "".join(out)


def lists(english: WordList, n_letters: int, share: float) -> dict[str, WordList]:
    alphabet = alphabet_of(n_letters)
    score_by_word = score_by_word_of(english)
    extra = alphabet.chars[26:]
    spread = {spread_word(word, extra, share): score for word, score in score_by_word.items()}
    assert len(spread) == len(score_by_word)
    codes = [round(i * (n_letters - 1) / 25) for i in range(26)]
    moved = str.maketrans(ENGLISH, "".join(alphabet.chars[code] for code in codes))
    return {
        "english": english,
        "moved": build_word_list(
            {word.translate(moved): score for word, score in score_by_word.items()}, "moved", alphabet=alphabet
        ),
        "spread": build_word_list(spread, "spread", alphabet=alphabet),
    }


def letter_share(words: WordList) -> float:
    """The share of letter occurrences in the list that are beyond index 25."""
    letters = words.letters_flat
    return float((letters >= 26).sum()) / max(len(letters), 1)


CLOCK = time.perf_counter


def run(problem: Problem, seed: int, time_limit_s: float) -> tuple[float, str, int]:
    start = CLOCK()
    result = fill(problem, "backtrack", Limits(seed=seed, time_limit_s=time_limit_s))
    wall = CLOCK() - start
    status = result.status.value
    if result.entries is not None and check_fill(problem, result.entries):
        status = "error (invalid fill)"
    return wall, status, result.stats.nodes


def ratio_line(name: str, total: float, per_instance: list[float], per_node: float, per_node_each: list[float]) -> str:
    return (
        f"{name}/english: total time {total:.3f}; per instance median {statistics.median(per_instance):.3f}, "
        f"worst {max(per_instance):.3f}, best {min(per_instance):.3f}; time per node {per_node:.3f} over all, "
        f"per instance median {statistics.median(per_node_each):.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--letters", type=int, default=33, help="the alphabet's size, 27..48 (default 33)")
    parser.add_argument(
        "--share",
        type=float,
        default=0.1,
        help="share of each source letter's occurrences an extra letter takes (default 0.1)",
    )
    parser.add_argument("--words", help="the English list (default: the embedded default list)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--cpu-time", action="store_true", help="time fills by CPU time, not the wall clock")
    parser.add_argument("--no-spread", action="store_true", help="English and moved only")
    parser.add_argument("grids", nargs="*")
    args = parser.parse_args()
    global CLOCK, VARIANTS
    if args.cpu_time:
        CLOCK = time.thread_time
    if args.no_spread:
        VARIANTS = ("english", "moved")
    if not 27 <= args.letters <= 26 + len(EXTRA):
        parser.error(f"--letters must be 27..{26 + len(EXTRA)}")
    say(
        f"start: {uptime()}  letters: {args.letters}  share: {args.share}  seeds: {args.seeds}  rounds: {args.rounds}"
        f"  clock: {'cpu' if args.cpu_time else 'wall'}"
    )
    start = time.perf_counter()
    words_by_variant = lists(load_word_list(args.words), args.letters, args.share)
    say(
        f"lists built in {time.perf_counter() - start:.1f} s: "
        + ", ".join(
            f"{name} {len(score_by_word_of(w))} words (K={w.alphabet.size}, "
            f"{letter_share(w) * 100:.1f}% letters beyond Z)"
            for name, w in words_by_variant.items()
        )
    )
    problems: dict[tuple[str, str], Problem] = {}
    compile_ms: dict[str, list[float]] = {name: [] for name in VARIANTS}
    grids = []
    for path in args.grids or [str(ROOT / g) for g in DEFAULT_GRIDS]:
        grid = read_grid(path)
        if any(cell not in (EMPTY, BLOCK) for cell in grid.cells):
            say(f"{Path(path).name}: skipped (letters in the grid)")
            continue
        grids.append(path)
        for name in VARIANTS:
            t = time.perf_counter()
            problems[path, name] = compile_problem(grid, words_by_variant[name])
            compile_ms[name].append((time.perf_counter() - t) * 1000)
            run(problems[path, name], 0, args.time_limit)  # warm up (first touch of the list's pages), untimed
    walls: dict[tuple[str, int, str], list[float]] = {}
    nodes: dict[tuple[str, int, str], set[int]] = {}
    statuses: dict[tuple[str, int, str], set[str]] = {}
    for round_no in range(args.rounds):
        order = VARIANTS[round_no % len(VARIANTS) :] + VARIANTS[: round_no % len(VARIANTS)]
        for path in grids:
            for seed in range(args.seeds):
                for name in order:
                    wall, status, n = run(problems[path, name], seed, args.time_limit)
                    key = (path, seed, name)
                    walls.setdefault(key, []).append(wall)
                    nodes.setdefault(key, set()).add(n)
                    statuses.setdefault(key, set()).add(status)
    say(f"end: {uptime()}")
    totals = {name: 0.0 for name in VARIANTS}
    total_nodes = {name: 0 for name in VARIANTS}
    per_instance: dict[str, list[float]] = {name: [] for name in VARIANTS if name != "english"}
    per_node_each: dict[str, list[float]] = {name: [] for name in per_instance}
    moved_nodes_differ = []
    for path in grids:
        cells = []
        for seed in range(args.seeds):
            median = {name: statistics.median(walls[path, seed, name]) for name in VARIANTS}
            for name in VARIANTS:
                totals[name] += median[name]
                total_nodes[name] += min(nodes[path, seed, name])
            for name in per_instance:
                per_instance[name].append(median[name] / median["english"])
                per_node_each[name].append(
                    (median[name] / max(min(nodes[path, seed, name]), 1))
                    / (median["english"] / max(min(nodes[path, seed, "english"]), 1))
                )
            if nodes[path, seed, "moved"] != nodes[path, seed, "english"]:
                moved_nodes_differ.append(f"{Path(path).stem} seed {seed}")
            cells.append(
                " ".join(
                    f"{name} {median[name] * 1000:.1f} ms {'/'.join(sorted(statuses[path, seed, name]))}"
                    f" {min(nodes[path, seed, name])} nodes"
                    for name in VARIANTS
                )
            )
        say(f"{Path(path).stem}: " + " | ".join(f"seed {s}: {c}" for s, c in enumerate(cells)))
    say(
        "compile ms (median per grid): "
        + ", ".join(f"{name} {statistics.median(compile_ms[name]):.1f}" for name in VARIANTS)
    )
    say("totals: " + ", ".join(f"{name} {totals[name]:.3f} s, {total_nodes[name]} nodes" for name in VARIANTS))
    for name in per_instance:
        per_node = (totals[name] / max(total_nodes[name], 1)) / (totals["english"] / max(total_nodes["english"], 1))
        say(ratio_line(name, totals[name] / totals["english"], per_instance[name], per_node, per_node_each[name]))
    say(
        "moved searches node for node as English: "
        + ("yes" if not moved_nodes_differ else "NO: " + ", ".join(moved_nodes_differ))
    )
    bad = sorted({s for v in statuses.values() for s in v if s.startswith("error")})
    if bad:
        say(f"INVALID FILLS: {bad}")
        sys.exit(1)


if __name__ == "__main__":
    main()
