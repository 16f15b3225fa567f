"""Fill and suggestion speed per language against English, with word lists of equal size.

Usage: XWCP_CACHE_MAX_MB=2048 PYTHONPATH=$PWD python3 bench/language_speed.py [--languages es,de,...]
           [--grids G1,G2] [--seeds 0,1,2,3] [--repeats 2] [--backend backtrack] [--time-limit 10] [--wall]
           [--relabel-seeds 0,1] [--no-relabel | --relabel-only] [--equal size|lengths]
           [--out FILE]

English is the embedded list (CWL), its words of MIN_LENGTH-MAX_LENGTH letters (the grids' slot lengths).
Every other language gets a list of exactly as many words of the same lengths: its commonest words in
PyPI wordfreq (folded through its pack, capitalised words left out but in German, scored as `xwcp words
build` scores them, cut by frequency). Where wordfreq has fewer such words, English is cut to that size for
that pair instead (its best-scored words; ties in a fixed hashed order) and the table says so. With
`--equal lengths` each length is cut alike: at each length both lists keep the smaller of their two counts
(English then differs per language), so a list's spread over lengths (wordfreq lists hold 2-4x CWL's
words of 3-6 letters) is taken out of the comparison too. The lists are
written under the cache folder (wordfreq's data is CC BY-SA 4.0: never committed) and indexed once; every
list stays loaded in this process, so every fill and suggestion is warm (the list compiled, as a second
`xwcp fill` reads it from the cache, or the builder keeps it).
Measured on each grid (default: the stock 15x15 daily and themeless patterns and a blocked 11x11, all empty),
every word usable (min score 0):
  fill     compile the grid against the list and fill it with `auto` (seconds, search nodes), per seed;
  suggest  `Session.suggest` (the builder's first answer: k = 20 words that survive being entered, no count)
           for the first across slot, the first down slot and the longest slot, after the grid's AC-3.
Each repeat runs every language, English first, on one grid and seed before the next (interleaved: machine
noise hits every language alike). The table gives per language the median of each measure over repeats,
summed over grids and seeds, and its ratio to its English list's: fill time, nodes, fill time per node,
suggest time. Every fill is checked (`check_fill`); a failed check is reported and the exit code is 1.
With `--relabel` (the default) a second table fills the English list written in the first 26 letters of each
alphabet size met (the same words, the same search, nodes equal): its time ratio is the engine's own cost
of K letters, apart from any list's shape.
"""

from __future__ import annotations

import argparse
import lzma
import math
import os
import statistics
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xwcp.backends import fill  # noqa: E402
from xwcp.compile.problem import compile_problem  # noqa: E402
from xwcp.engine.ac3 import propagate  # noqa: E402
from xwcp.engine.result import Limits, check_fill  # noqa: E402
from xwcp.library.jobs import Session  # noqa: E402
from xwcp.model import read_grid  # noqa: E402
from xwcp.model.alphabet import Alphabet, load_alphabet  # noqa: E402
from xwcp.model.grid import Grid  # noqa: E402
from xwcp.words.wordlist import WordList, load_word_list  # noqa: E402

LANGUAGES = (
    "es",
    "de",
    "fr",
    "nl",
    "ru",
    "pl",
    "hu",
    "tr",
    "el",
    "he",
    "it",
    "pt",
    "ca",
    "cs",
    "da",
    "sv",
    "no",
    "uk",
    "fi",
)
WORDFREQ_CODE_BY_PACK = {"no": "nb"}
"""wordfreq's code where it is not the pack's (Norwegian Bokmål)."""
GRIDS = ("models/15x15-daily-01.txt", "models/15x15-themeless-01.txt", "bench/scaling/blocked-11x11.txt")
MIN_LENGTH, MAX_LENGTH = 3, 15
ENGLISH_LIST = ROOT / "xwcp" / "words" / "data" / "cwl50.dict.xz"
SUGGEST_K = 20
ALL_WORDS = 10_000_000
"""`wordfreq_pairs`'s cut that keeps every word (the per-length comparison cuts each length itself)."""


def bench_dir() -> Path:
    base = os.environ.get("XWCP_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "xwcp"
    )
    path = Path(base) / "bench-languages"
    path.mkdir(parents=True, exist_ok=True)
    return path


def english_pairs() -> list[tuple[str, int]]:
    """CWL's words of MIN_LENGTH-MAX_LENGTH letters, best score first (ties in a fixed hashed order)."""
    pairs = []
    for line in lzma.open(ENGLISH_LIST, "rt", encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("#"):
            word, score = line.rsplit(";", 1)
            if MIN_LENGTH <= len(word) <= MAX_LENGTH:
                pairs.append((word, int(score)))
    return sorted(pairs, key=lambda p: (-p[1], zlib.crc32(p[0].encode())))


def wordfreq_pairs(alphabet: Alphabet, max_words: int) -> list[tuple[str, int]] | None:
    """The language's `max_words` commonest words of MIN_LENGTH-MAX_LENGTH letters, written forms with scores
    (`round(10 * zipf + 25)`, as `xwcp words build`), commonest first; None without a wordfreq list."""
    path = bench_dir() / f"speed-{alphabet.code}-{MIN_LENGTH}-{MAX_LENGTH}-{max_words}.txt"
    if not path.exists():
        try:
            import wordfreq
        except ImportError:
            return None
        code = WORDFREQ_CODE_BY_PACK.get(alphabet.code, alphabet.code)
        if code not in wordfreq.available_languages("best"):
            return None
        score_by_word: dict[str, tuple[int, float]] = {}
        for raw, freq in wordfreq.get_frequency_dict(code, "best").items():
            if not raw or raw[0].isupper() and alphabet.code != "de":  # names (German capitalises every noun)
                continue
            word = alphabet.fold_word(raw)
            if word and MIN_LENGTH <= len(word) <= MAX_LENGTH:
                zipf = math.log10(freq) + 9
                if zipf > score_by_word.get(word, (0, -99.0))[1]:
                    score_by_word[word] = (max(1, min(100, round(10 * zipf + 25))), zipf)
        best = sorted(score_by_word.items(), key=lambda item: (-item[1][1], item[0]))[:max_words]
        path.write_text("".join(f"{alphabet.written(w)};{s}\n" for w, (s, _) in best), "utf-8")
    pairs = []
    for line in path.read_text("utf-8").splitlines():
        word, score = line.rsplit(";", 1)
        pairs.append((word, int(score)))
    return pairs


def indexed(pairs: list[tuple[str, int]], name: str, alphabet: Alphabet) -> WordList:
    """`pairs` (written forms) as a list file under the bench folder, loaded through xwcp's compiled cache (so a
    second run reads it in milliseconds; set $XWCP_CACHE_MAX_MB high enough to hold every list)."""
    path = bench_dir() / f"{name}.txt"
    if not path.exists():
        path.write_text("".join(f"{word};{score}\n" for word, score in pairs), "utf-8")
    return load_word_list(path, alphabet=alphabet)


def cut_by_length(
    pairs: list[tuple[str, int]], n_by_length: Counter[int], alphabet: Alphabet | None = None
) -> list[tuple[str, int]]:
    """The first `n_by_length[L]` words of each length L of `pairs` (in their order: the commonest first)."""
    taken: Counter[int] = Counter()
    out = []
    for word, score in pairs:
        length = len(alphabet.fold_word(word) or word) if alphabet is not None else len(word)
        if taken[length] < n_by_length[length]:
            taken[length] += 1
            out.append((word, score))
    return out


def slot_words(grids: dict[str, Grid], words: WordList) -> int:
    """The words of the grids' slots' lengths, summed over every slot: the work of one pass of AC-3 (and the
    bits a search starts from), which a list's words per length set, apart from any alphabet."""
    n = 0
    for grid in grids.values():
        problem = compile_problem(grid, words, min_score=0)
        n += sum(
            words.bucket(len(slot.cells)).n_words if len(slot.cells) in words.lengths else 0 for slot in problem.slots
        )
    return n


def slot_names(grid: Grid, words: WordList) -> list[str]:
    """The first across slot, the first down slot and the longest slot (the first of them)."""
    problem = compile_problem(grid, words, min_score=0)
    slots = problem.slots
    across = next(s for s in slots if s.name.endswith("A"))
    down = next(s for s in slots if s.name.endswith("D"))
    longest = max(slots, key=lambda s: len(s.cells))
    return list(dict.fromkeys([across.name, down.name, longest.name]))


class Measure:
    """What one (list, grid) pair measured: per seed the fill times and nodes, the suggestion times."""

    def __init__(self) -> None:
        self.fill_s_by_seed: dict[int, list[float]] = {}
        self.nodes_by_seed: dict[int, int] = {}
        self.suggest_s: list[float] = []
        self.ac3_s: list[float] = []
        self.n_checked = 0
        self.statuses: Counter[str] = Counter()
        self.bad: list[str] = []


CLOCK = time.thread_time
"""The clock of every measure: this thread's CPU time (the search and the probing run in it), which other
processes' load inflates far less than the wall clock; `--wall` sets time.perf_counter."""


def run_fill(
    grid: Grid, words: WordList, seed: int, time_limit_s: float, measure: Measure, backend: str = "backtrack"
) -> None:
    t0 = CLOCK()
    problem = compile_problem(grid, words, min_score=0)
    result = fill(problem, backend, Limits(time_limit_s=time_limit_s, seed=seed))
    seconds = CLOCK() - t0
    measure.fill_s_by_seed.setdefault(seed, []).append(seconds)
    measure.nodes_by_seed[seed] = result.stats.nodes
    measure.statuses[result.status.value] += 1
    if result.status.value == "filled":
        violations = check_fill(problem, list(result.fills[0]))
        if violations:
            measure.bad.append(f"seed {seed}: {violations[0]}")


def run_suggest(grid: Grid, words: WordList, names: list[str], measure: Measure) -> None:
    t0 = CLOCK()
    problem = compile_problem(grid, words, min_score=0)
    propagation = propagate(problem)
    t1 = CLOCK()
    session = Session.analysed(problem, propagation)
    n_checked = 0
    for name in names:
        n_checked += session.suggest(name, k=SUGGEST_K, count=False, probe_max_words=None).counts.checked
    measure.suggest_s.append(CLOCK() - t0)
    measure.ac3_s.append(t1 - t0)
    measure.n_checked = n_checked


def totals(measures: list[Measure]) -> tuple[float, int, float, float, int]:
    """(fill seconds, nodes, suggest seconds, of which AC-3, words probed) summed over grids and seeds, each
    time the median over repeats."""
    fill_s = sum(statistics.median(times) for m in measures for times in m.fill_s_by_seed.values())
    nodes = sum(n for m in measures for n in m.nodes_by_seed.values())
    suggest_s = sum(statistics.median(m.suggest_s) for m in measures if m.suggest_s)
    ac3_s = sum(statistics.median(m.ac3_s) for m in measures if m.ac3_s)
    return fill_s, nodes, suggest_s, ac3_s, sum(m.n_checked for m in measures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--grids", default=",".join(GRIDS))
    parser.add_argument("--seeds", default="0,1,2,3")
    parser.add_argument("--relabel-seeds", default="0,1", help="seeds of the same-search table")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument(
        "--backend",
        default="backtrack",
        help="the fill's backend (`auto` races a second search on hard grids: two threads)",
    )
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument(
        "--equal",
        choices=("size", "lengths"),
        default="size",
        help="size: as many words as English's list; lengths: as many of each length (both cut to the smaller count)",
    )
    parser.add_argument("--wall", action="store_true", help="time by the wall clock, not this thread's CPU time")
    parser.add_argument("--no-relabel", action="store_true", help="skip the same-search table")
    parser.add_argument("--relabel-only", action="store_true", help="only the same-search table")
    parser.add_argument("--out", help="also write the output here")
    args = parser.parse_args()
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    seeds = [int(s) for s in args.seeds.split(",") if s]
    grids = {path: read_grid(ROOT / path) for path in args.grids.split(",") if path}
    lines: list[str] = []

    def say(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    say(f"$ PYTHONPATH=$PWD python3 bench/language_speed.py {' '.join(sys.argv[1:])}")
    say(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load {os.getloadavg()[0]:.2f}; "
        f"seeds {args.relabel_seeds if args.relabel_only else args.seeds}, {args.repeats} repeats, `{args.backend}`, {'wall' if args.wall else 'CPU'} time, min score 0, words of {MIN_LENGTH}-{MAX_LENGTH} letters"
    )
    english_all = english_pairs()
    n_english = len(english_all)
    english_by_key: dict[str, WordList] = {}
    english_alphabet = load_alphabet("en")

    def english_list(key: str, pairs: list[tuple[str, int]]) -> WordList:
        if key not in english_by_key:
            english_by_key[key] = indexed(pairs, f"speed-en-cwl-{MIN_LENGTH}-{MAX_LENGTH}-{key}", english_alphabet)
        return english_by_key[key]

    if args.relabel_only:
        sizes = sorted({load_alphabet(c).size for c in args.languages.split(",") if c} - set(range(27)))
        n_bad = relabel_table(
            say,
            english_all,
            sizes,
            grids,
            [int(s) for s in args.relabel_seeds.split(",") if s],
            args.repeats,
            args.time_limit,
            args.backend,
        )
        say(f"{n_bad} fills failed the check" if n_bad else "every fill passed check_fill")
        if args.out:
            Path(args.out).write_text("\n".join(lines) + "\n", "utf-8")
        return 1 if n_bad else 0
    english_list(str(n_english), english_all)
    say(f"en: CWL (embedded), {n_english} words")
    lists: dict[str, tuple[Alphabet, WordList, str]] = {}  # code -> (pack, list, key of its English list)
    for code in [c for c in args.languages.split(",") if c and c != "en"]:
        alphabet = load_alphabet(code)
        t0 = time.perf_counter()
        pairs = wordfreq_pairs(alphabet, n_english if args.equal == "size" else ALL_WORDS)
        if pairs is None:
            say(f"{code}: no wordfreq list")
            continue
        if args.equal == "size":
            size = min(len(pairs), n_english)
            english_key = str(size)
            english_list(english_key, english_all[:size])
            words = indexed(pairs, f"speed-{code}-{MIN_LENGTH}-{MAX_LENGTH}-{n_english}", alphabet)
            cut = "" if size == n_english else f" (fewer than English's: English cut to {size} for this pair)"
        else:
            n_by_length = Counter(len(alphabet.fold_word(w) or w) for w, _ in pairs)
            n_by_length &= Counter(len(w) for w, _ in english_all)  # the smaller count at each length
            mine, english = cut_by_length(pairs, n_by_length, alphabet), cut_by_length(english_all, n_by_length)
            english_key = str(n_english) if len(english) == n_english else f"like-{code}"
            english_list(english_key, english)
            words = indexed(mine, f"speed-{code}-{MIN_LENGTH}-{MAX_LENGTH}-lengths", alphabet)
            cut = f" (the same words per length as its English list, {len(english)} words)"
        lists[code] = (alphabet, words, english_key)
        say(
            f"{code}: {alphabet.name}, {alphabet.size} letters, {words.n_words} words from wordfreq{cut} "
            f"({time.perf_counter() - t0:.1f} s to build and index)"
        )
    say()
    measures: dict[tuple[str, str, str], Measure] = {}  # (code, English list's key or "", grid) -> what it measured
    names_by_grid = {path: slot_names(grid, english_by_key[str(n_english)]) for path, grid in grids.items()}
    runs: list[tuple[str, str, WordList]] = [("en", key, words) for key, words in english_by_key.items()]
    runs += [(code, "", words) for code, (_, words, _) in lists.items()]
    for path, grid in grids.items():  # untimed: first calls' imports and caches out of the way
        for _code, _key, words in runs:
            run_fill(grid, words, seeds[0], args.time_limit, Measure(), args.backend)
            run_suggest(grid, words, names_by_grid[path], Measure())
    for repeat in range(args.repeats):
        for path, grid in grids.items():
            for seed in seeds:
                for code, key, words in runs:
                    run_fill(
                        grid,
                        words,
                        seed,
                        args.time_limit,
                        measures.setdefault((code, key, path), Measure()),
                        args.backend,
                    )
            for code, key, words in runs:
                run_suggest(grid, words, names_by_grid[path], measures[(code, key, path)])
        say(f"repeat {repeat + 1} of {args.repeats} done, load {os.getloadavg()[0]:.2f}")
    n_bad = 0
    for measure in measures.values():
        n_bad += len(measure.bad)
    say()
    say("Per language: medians over repeats, summed over grids and seeds; x = over its English list's")
    say(
        f"{'lang':<5}{'K':>3}{'words':>8} {'fill s':>8} {'x fill':>7} {'nodes':>8} {'x nodes':>8} {'x s/node':>9}"
        f" {'sugg s':>7} {'x sugg':>7} {'x AC-3':>7} {'x slotw':>7} {'probed':>7} {'x s/probe':>9}  status"
    )
    slot_words_by_list = {id(words): slot_words(grids, words) for _, _, words in runs}
    summary: dict[str, tuple[float, float, float, float]] = {}

    def row(code: str, k: int, words: WordList, english_key: str) -> None:
        mine = [measures[(code, "" if code != "en" else english_key, p)] for p in grids]
        fill_s, nodes, suggest_s, ac3_s, probed = totals(mine)
        status = sum((m.statuses for m in mine), Counter())
        bad = [b for m in mine for b in m.bad]
        shown = ", ".join(f"{n} {s}" for s, n in sorted(status.items())) + (f"; BAD {bad[0]}" if bad else "")
        if code == "en":
            say(
                f"{'en':<5}{k:>3}{words.n_words:>8} {fill_s:>8.2f} {'':>7} {nodes:>8} {'':>8} {'':>9} "
                f"{suggest_s:>7.3f} {'':>7} {'':>7} {'':>7} {probed:>7} {'':>9}  {shown}"
                + ("" if english_key == str(n_english) else f"  (English for {english_key})")
            )
            return
        en_fill_s, en_nodes, en_suggest_s, en_ac3_s, en_probed = totals(
            [measures[("en", english_key, p)] for p in grids]
        )
        x_fill, x_nodes, x_suggest = fill_s / en_fill_s, nodes / max(en_nodes, 1), suggest_s / en_suggest_s
        x_per_node = x_fill / x_nodes
        x_ac3 = ac3_s / en_ac3_s
        x_slot_words = slot_words_by_list[id(words)] / slot_words_by_list[id(english_by_key[english_key])]
        x_per_probe = ((suggest_s - ac3_s) / max(probed, 1)) / ((en_suggest_s - en_ac3_s) / max(en_probed, 1))
        summary[code] = (x_fill, x_nodes, x_per_node, x_suggest)
        note = "" if english_key == str(n_english) else f"  (against English {english_key})"
        say(
            f"{code:<5}{k:>3}{words.n_words:>8} {fill_s:>8.2f} {x_fill:>7.2f} {nodes:>8} {x_nodes:>8.2f} "
            f"{x_per_node:>9.2f} {suggest_s:>7.3f} {x_suggest:>7.2f} {x_ac3:>7.2f} {x_slot_words:>7.2f} {probed:>7} "
            f"{x_per_probe:>9.2f}  {shown}{note}"
        )

    for key, words in english_by_key.items():
        row("en", 26, words, key)
    for code, (alphabet, words, english_key) in lists.items():
        row(code, alphabet.size, words, english_key)
    if summary:
        over = [code for code, (x_fill, *_rest) in summary.items() if x_fill > 1.1]
        say()
        say(
            f"fill time within 1.1x English: {len(summary) - len(over)} of {len(summary)} languages"
            + (f"; over: {', '.join(over)}" if over else "")
        )
    if not args.no_relabel:
        n_bad += relabel_table(
            say,
            english_all,
            sorted({a.size for a, _, _ in lists.values() if a.size > 26}),
            grids,
            [int(s) for s in args.relabel_seeds.split(",") if s],
            args.repeats,
            args.time_limit,
            args.backend,
        )
    say()
    say(f"{n_bad} fills failed the check" if n_bad else "every fill passed check_fill")
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n", "utf-8")
    return 1 if n_bad else 0


def relabel_table(
    say: Callable[[str], None],
    pairs: list[tuple[str, int]],
    sizes: list[int],
    grids: dict[str, Grid],
    seeds: list[int],
    repeats: int,
    time_limit_s: float,
    backend: str,
) -> int:
    """The English list written in the first 26 letters of a K-letter alphabet (a pack of that size): the same
    words in the same order, so the same search; the time ratio is what K letters cost the engine."""
    from xwcp.model.alphabet import alphabet_from_data

    if not sizes:
        return 0
    letters = [chr(0x410 + i) for i in range(32)] + [chr(0x10A0 + i) for i in range(32)]  # Cyrillic, then Georgian
    variants: list[tuple[int, Alphabet, WordList, dict[int, int]]] = []
    for k in [26, *sizes]:
        if k == 26:
            alphabet, table = load_alphabet("en"), {}
        else:
            alphabet = alphabet_from_data({"code": f"k{k}", "name": f"{k} letters", "letters": letters[:k]}, "bench")
            table = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "".join(letters[:26]))
        words = indexed([(w.translate(table), s) for w, s in pairs], f"speed-relabel-k{k}-{len(pairs)}", alphabet)
        variants.append((k, alphabet, words, table))
    say()
    say(
        f"Same search, larger alphabet: the English list written in the first 26 of K letters; medians over "
        f"{repeats} repeats, summed over grids and seeds"
    )
    say(
        f"{'K':>3} {'fill s':>8} {'x fill':>7} {'nodes':>8} {'x nodes':>8} {'sugg s':>7} {'x sugg':>7} {'x AC-3':>7}"
        f" {'probed':>7}"
    )
    measures = {k: {path: Measure() for path in grids} for k, _, _, _ in variants}
    names_by_grid = {path: slot_names(grid, variants[0][2]) for path, grid in grids.items()}
    for grid in grids.values():
        for _k, _, words, _ in variants:
            run_fill(grid, words, seeds[0], time_limit_s, Measure(), backend)
    for _ in range(repeats):
        for path, grid in grids.items():
            for seed in seeds:
                for k, _, words, _ in variants:
                    run_fill(grid, words, seed, time_limit_s, measures[k][path], backend)
            for k, _, words, table in variants:
                run_suggest(
                    grid.with_cells(cell.translate(table) for cell in grid.cells),
                    words,
                    names_by_grid[path],
                    measures[k][path],
                )
    n_bad = sum(len(m.bad) for by_grid in measures.values() for m in by_grid.values())
    en_fill_s, en_nodes, en_suggest_s, en_ac3_s, _ = totals(list(measures[26].values()))
    for k, _, _, _ in variants:
        fill_s, nodes, suggest_s, ac3_s, probed = totals(list(measures[k].values()))
        if k == 26:
            say(f"{k:>3} {fill_s:>8.2f} {'':>7} {nodes:>8} {'':>8} {suggest_s:>7.3f} {'':>7} {'':>7} {probed:>7}")
        else:
            say(
                f"{k:>3} {fill_s:>8.2f} {fill_s / en_fill_s:>7.2f} {nodes:>8} {nodes / max(en_nodes, 1):>8.2f} "
                f"{suggest_s:>7.3f} {suggest_s / en_suggest_s:>7.2f} {ac3_s / en_ac3_s:>7.2f} {probed:>7}"
            )
    return n_bad


if __name__ == "__main__":
    sys.exit(main())
