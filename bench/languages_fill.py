"""Fill published-style grids in other languages (issue 36): each pack's list, every fill checked independently.

Usage: PYTHONPATH=$PWD python3 bench/languages_fill.py [--languages es,de,nl,pl,ru,el,cy] [--grids G1,G2]
           [--backends auto,cpsat] [--time-limit 20] [--max-words 100000] [--no-qxw] [--out FILE]

For each grid (default: the stock 15x15 daily and British blocked grids, and two denser patterns from
bench/scaling: a blocked 11x11 and the open 5x5) and each language (English first, as the baseline on the
same grid), a list of the language's `--max-words` commonest words of 2-15 letters, folded through its pack:
- built here from PyPI wordfreq (its data is CC BY-SA 4.0: the lists are written under the user's cache folder
  and never committed), else from the system's Hunspell .dic stems or /usr/share/dict; a language with none of
  these is reported as having no list. (`xwcp words build --language X` makes the same kind of list; this
  bench builds its own so that it runs on checkouts without it.) Scores follow `xwcp words build`: round(10 * zipf + 25), 1..100.
Each backend fills each grid once (seed 0) within the time limit, and Qxw beside it where its batch mode takes
the pack's alphabet (`-a ES`, `RU`, `PL`, `EL`, `DE`; see xwcp.bench.peers.QXW_ALPHABET_BY_CODE).
Every fill, ours and Qxw's, is checked by `check_cells` here, which reads the pack's letters from its JSON file
and finds the slots itself: every white cell one letter of the pack, every slot a word of the list cut into the
pack's letters, no word twice. A fill that fails the check is reported as BAD, never as a time.
The table gives seconds per fill, and for each language its time over English's on the same grid and backend
(the issue's target: a 27-33-letter alphabet within 1.1x of English). Timing is noisy on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xwcp.backends import fill  # noqa: E402
from xwcp.bench.peers import QXW_ALPHABET_BY_CODE, PeerStatus, peer_available, run_peer  # noqa: E402
from xwcp.compile.problem import compile_problem  # noqa: E402
from xwcp.engine.result import Limits  # noqa: E402
from xwcp.model import read_grid  # noqa: E402
from xwcp.model.alphabet import Alphabet, load_alphabet  # noqa: E402
from xwcp.words.wordlist import load_word_list  # noqa: E402

LANGUAGES = ("en", "es", "de", "nl", "pl", "ru", "el", "cy")
RELABEL_GRIDS = ("models/15x15-daily-01.txt", "models/15x15-themeless-01.txt", "models/21x21-sunday-01.txt")
GRIDS = (
    "models/15x15-daily-01.txt",
    "models/15x15-british-01.txt",
    "bench/scaling/blocked-11x11.txt",
    "bench/scaling/open-5x5.txt",
)
MIN_LENGTH, MAX_LENGTH = 2, 15
PACKS_DIR = ROOT / "xwcp" / "model" / "languages"


def cache_dir() -> Path:
    base = os.environ.get("XWCP_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "xwcp"
    )
    path = Path(base) / "bench-languages"
    path.mkdir(parents=True, exist_ok=True)
    return path


def score_of_zipf(zipf: float) -> int:
    return max(1, min(100, round(10 * zipf + 25)))


def build_list(alphabet: Alphabet, max_words: int) -> tuple[Path | None, str]:
    """A `WORD;score` list for the pack (written forms), and where it came from; (None, why) when none."""
    path = cache_dir() / f"{alphabet.code}-{max_words}.txt"
    if path.exists():
        return path, path.read_text("utf-8").split("\n", 1)[0].lstrip("# ")
    score_by_word: dict[str, int] = {}
    source = ""
    try:
        import wordfreq

        if alphabet.code in wordfreq.available_languages("best"):
            source = f"wordfreq {alphabet.code} (CC BY-SA 4.0)"
            for raw, freq in wordfreq.get_frequency_dict(alphabet.code, "best").items():
                _add(score_by_word, alphabet, raw, score_of_zipf(math.log10(freq) + 9))
    except ImportError:
        pass
    if not score_by_word:
        for dic in (
            Path("/usr/share/hunspell") / f"{alphabet.sources.get('hunspell', '-')}.dic",
            Path("/usr/share/dict") / alphabet.sources.get("dict", "-"),
        ):
            if dic.is_file():
                source = f"{dic} (stems, score 50)"
                for line in dic.read_text("utf-8", "replace").splitlines()[1:]:
                    _add(score_by_word, alphabet, line.split("/")[0].strip(), 50)
                break
    if not score_by_word:
        return None, "no list source on this machine (wordfreq, hunspell, /usr/share/dict)"
    best = sorted(score_by_word.items(), key=lambda item: (-item[1], item[0]))[:max_words]
    path.write_text(f"# {source}\n" + "".join(f"{alphabet.written(w)};{s}\n" for w, s in best), "utf-8")
    return path, source


def _add(score_by_word: dict[str, int], alphabet: Alphabet, raw: str, score: int) -> None:
    if not raw or raw[0].isupper() and alphabet.code != "de":  # proper names (German capitalises every noun)
        return
    word = alphabet.fold_word(raw)
    if word and MIN_LENGTH <= len(word) <= MAX_LENGTH and score > score_by_word.get(word, 0):
        score_by_word[word] = score


# ----- the independent checker -------------------------------------------------------------------------------


class PackLetters:
    """A pack's letters read from its JSON file, and the private-use code char of each multi-character letter
    (U+E000 + index, the contract of I36): what the checker knows, without xwcp's Alphabet."""

    def __init__(self, code: str):
        if code == "en":
            letters = list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        else:
            data = json.loads((PACKS_DIR / f"{code}.json").read_text("utf-8"))
            letters = data["letters"]
            letters = letters.split() if isinstance(letters, str) and " " in letters.strip() else list(letters)
        self.letters = letters
        self.written_by_char = {(x if len(x) == 1 else chr(0xE000 + i)): x for i, x in enumerate(letters)}

    def cut(self, written: str) -> tuple[str, ...] | None:
        """A listed word (written letters, '+' cutting) as its letters, longest first; None if not letters."""
        out: list[str] = []
        i = 0
        longest = max(len(x) for x in self.letters)
        while i < len(written):
            if written[i] == "+":
                i += 1
                continue
            for size in range(min(longest, len(written) - i), 0, -1):
                if written[i : i + size] in self.letters:
                    out.append(written[i : i + size])
                    i += size
                    break
            else:
                return None
        return tuple(out)


def check_cells(pack: PackLetters, cells: list[str], width: int, listed: set[tuple[str, ...]]) -> list[str]:
    """What is wrong with a filled grid (cells: '#' or one code char), empty when it is a fill."""
    bad: list[str] = []
    written = []
    for cell, ch in enumerate(cells):
        if ch == "#":
            written.append("#")
        elif ch in pack.written_by_char:
            written.append(pack.written_by_char[ch])
        else:
            bad.append(f"cell {cell}: {ch!r} is not a letter of the pack")
            written.append("?")
    height = len(cells) // width
    lines = [[r * width + c for c in range(width)] for r in range(height)]
    lines += [[r * width + c for r in range(height)] for c in range(width)]
    seen: set[tuple[str, ...]] = set()
    for line in lines:
        run: list[int] = []
        for cell in line + [-1]:
            if cell >= 0 and written[cell] != "#":
                run.append(cell)
                continue
            if len(run) >= 2:
                word = tuple(written[c] for c in run)
                if word not in listed:
                    bad.append(f"{''.join(word)} (cells {run[0]}..{run[-1]}) is not listed")
                if word in seen:
                    bad.append(f"{''.join(word)} twice")
                seen.add(word)
            run = []
    return bad


# ----- the run -------------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--grids", default=",".join(GRIDS))
    parser.add_argument("--backends", default="auto,cpsat")
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--max-words", type=int, default=100_000)
    parser.add_argument("--no-qxw", action="store_true")
    parser.add_argument(
        "--relabel-grids", default=",".join(RELABEL_GRIDS), help="grids for the same-search speed table ('' to skip it)"
    )
    parser.add_argument("--relabel-into", default="ru,pl")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--wide-grids",
        default="models/15x15-daily-01.txt,models/15x15-themeless-01.txt",
        help="grids for the more-than-64-letters table ('' to skip it)",
    )
    parser.add_argument("--out", help="also write the table here")
    args = parser.parse_args()
    codes = [c for c in args.languages.split(",") if c]
    if "en" not in codes:
        codes.insert(0, "en")
    backends = [b for b in args.backends.split(",") if b]
    use_qxw = not args.no_qxw and peer_available("qxw")
    lines: list[str] = []

    def say(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    say(f"$ PYTHONPATH=$PWD python3 bench/languages_fill.py {' '.join(sys.argv[1:])}")
    say(
        f"time limit {args.time_limit:g} s per fill, seed 0, lists of the {args.max_words} commonest words "
        f"of {MIN_LENGTH}-{MAX_LENGTH} letters; Qxw {'beside' if use_qxw else 'not run'}"
    )
    lists = {}
    for code in codes:
        alphabet = load_alphabet(code)
        t0 = time.perf_counter()
        path, source = build_list(alphabet, args.max_words)
        if path is None:
            say(f"{code}: {alphabet.name}: {source}")
            continue
        words = load_word_list(path, alphabet=alphabet)
        pack = PackLetters(code)
        listed = set()
        pairs = []
        for line in path.read_text("utf-8").splitlines():
            if line and not line.startswith("#"):
                text, score = line.rsplit(";", 1)
                cut = pack.cut(text)
                if cut is not None:
                    listed.add(cut)
                code_text = alphabet.fold_word(text)
                if code_text:
                    pairs.append((code_text, int(score)))
        lists[code] = (alphabet, words, pack, listed, pairs)
        say(
            f"{code}: {alphabet.name}, {alphabet.size} letters, {words.n_words} words from {source} "
            f"(loaded in {time.perf_counter() - t0:.1f} s)"
        )
    say("")
    header = f"{'grid':<28} {'lang':<4} {'K':>3}  " + "  ".join(
        f"{b:>16}" for b in backends + (["qxw"] if use_qxw else [])
    )
    say(header + "   (seconds status; x = time / English's on the same grid and backend)")
    n_bad = 0
    for grid_path in args.grids.split(","):
        grid = read_grid(ROOT / grid_path)
        english: dict[str, float] = {}
        for code in codes:
            if code not in lists:
                continue
            alphabet, words, pack, listed, pairs = lists[code]
            problem = compile_problem(grid, words, min_score=0)  # every listed word
            cols = []
            for backend in backends:
                t0 = time.perf_counter()
                result = fill(problem, backend, Limits(time_limit_s=args.time_limit, seed=0))
                seconds = time.perf_counter() - t0
                status = result.status.value
                if result.status.value == "filled":
                    bad = check_cells(pack, list(result.grid(problem).cells), grid.width, listed)
                    if bad:
                        n_bad += 1
                        status = "BAD " + bad[0]
                cols.append(_cell(seconds, status, english, backend, code))
            if use_qxw:
                qxw_alphabet = None if code == "en" else alphabet
                if code == "en" or (code in QXW_ALPHABET_BY_CODE and not alphabet.has_multi_letters):
                    rows = ["".join(grid.cells[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)]
                    peer = run_peer("qxw", rows, pairs, args.time_limit, alphabet=qxw_alphabet)
                    status = peer.status.value
                    if peer.status is PeerStatus.FILLED and peer.rows is not None:
                        bad = check_cells(pack, [ch for row in peer.rows for ch in row], grid.width, listed)
                        if bad:
                            n_bad += 1
                            status = "BAD " + bad[0]
                    cols.append(_cell(peer.wall_time_s, status, english, "qxw", code))
                else:
                    cols.append(f"{'(no alphabet)':>16}")
            say(f"{grid_path:<28} {code:<4} {alphabet.size:>3}  " + "  ".join(cols))
    if args.relabel_grids and "en" in lists:
        n_bad += relabel_table(
            say,
            lists["en"][4],
            [c for c in args.relabel_into.split(",") if c],
            args.relabel_grids.split(","),
            args.time_limit,
            args.repeats,
        )
    if args.wide_grids and "en" in lists:
        n_bad += wide_table(say, lists["en"][4], args.wide_grids.split(","), args.time_limit)
    say("")
    say(f"{n_bad} fills failed the independent check" if n_bad else "every fill passed the independent check")
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n", "utf-8")
    return 1 if n_bad else 0


def relabel_table(
    say: Callable[[str], None],
    english_pairs: list[tuple[str, int]],
    codes: list[str],
    grid_paths: list[str],
    time_limit_s: float,
    repeats: int,
) -> int:
    """The same search in a larger alphabet: the English list with A..Z written as the first 26 letters of each
    pack (order kept, so word ids and every choice are the same), filled by `backtrack` (seed 0, best of
    `repeats`, the alphabets interleaved); equal nodes show the search is the same, the time ratio is what K letters cost. Returns the
    number of fills that failed the check."""
    from xwcp.words.wordlist import words_from_pairs

    say("")
    say(
        f"Same search, larger alphabet: English list relabelled into the first 26 letters of {', '.join(codes)}; "
        f"backtrack, seed 0, best of {repeats}"
    )
    say(f"{'grid':<28} {'alphabet':<9} {'K':>3} {'nodes':>9} {'best s':>8}  ratio")
    n_bad = 0
    variants = [("en", load_alphabet("en"))] + [(code, load_alphabet(code)) for code in codes]
    built = {}
    for code, alphabet in variants:
        table = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", alphabet.chars[:26])
        pairs = [(w.translate(table), s) for w, s in english_pairs]
        pack = PackLetters(code)
        listed = {tuple(pack.written_by_char[ch] for ch in w) for w, _ in pairs}
        words = words_from_pairs([(alphabet.written(w), s) for w, s in pairs], alphabet=alphabet)
        built[code] = (alphabet, words, pack, listed, table)
    for grid_path in grid_paths:
        grid = read_grid(ROOT / grid_path)
        problems = {}
        for code, _ in variants:
            _, words, pack, listed, table = built[code]
            problems[code] = compile_problem(
                grid.with_cells(cell.translate(table) for cell in grid.cells), words, min_score=0
            )
        best = {code: math.inf for code in problems}
        nodes = {code: -1 for code in problems}
        status = {code: "" for code in problems}
        for _ in range(repeats):  # interleaved, so load changes hit every alphabet alike
            for code, problem in problems.items():
                t0 = time.perf_counter()
                result = fill(problem, "backtrack", Limits(time_limit_s=time_limit_s, seed=0))
                best[code] = min(best[code], time.perf_counter() - t0)
                nodes[code], status[code] = result.stats.nodes, result.status.value
                if status[code] == "filled":
                    _, _, pack, listed, _ = built[code]
                    bad = check_cells(pack, list(result.grid(problem).cells), grid.width, listed)
                    if bad:
                        n_bad += 1
                        status[code] = "BAD " + bad[0]
        for code, alphabet in variants:
            ratio = "" if code == "en" else f"x{best[code] / max(best['en'], 1e-6):.3f}"
            shown = "" if status[code] == "filled" else f" {status[code]}"
            say(f"{grid_path:<28} {code:<9} {alphabet.size:>3} {nodes[code]:>9} {best[code]:>8.3f}  {ratio}{shown}")
    return n_bad


def wide_table(
    say: Callable[[str], None], english_pairs: list[tuple[str, int]], grid_paths: list[str], time_limit_s: float
) -> int:
    """More letters than the compiled search takes: the English list relabelled into the first 26 letters of an
    80-letter alphabet (as an akshara pack has) runs on cpsat with numpy arc consistency (`auto` picks it);
    beside it English on cpsat (the compiled AC) and on auto. One fill each, seed 0."""
    from xwcp.model.alphabet import alphabet_from_data
    from xwcp.words.wordlist import words_from_pairs

    letters = (
        [chr(0x10A0 + i) for i in range(38)] + [chr(0x410 + i) for i in range(32)] + [chr(0x391 + i) for i in range(10)]
    )
    wide = alphabet_from_data({"code": "x80", "name": "80 letters", "letters": letters}, "bench")
    table = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", wide.chars[:26])
    wide_pairs = [(w.translate(table), s) for w, s in english_pairs]
    wide_words = words_from_pairs(wide_pairs, alphabet=wide)
    english_words = words_from_pairs(english_pairs)
    say("")
    say("More than 64 letters: the English list relabelled into an 80-letter alphabet (cpsat, numpy AC), one fill")
    say(f"{'grid':<28} {'en auto':>10} {'en cpsat':>10} {'x80 auto':>10}")
    n_bad = 0
    en_pack = PackLetters("en")
    en_listed = {tuple(w) for w, _ in english_pairs}
    wide_listed = {tuple(w) for w, _ in wide_pairs}
    wide_pack = PackLetters("en")
    wide_pack.written_by_char = {ch: ch for ch in wide.chars}
    for grid_path in grid_paths:
        grid = read_grid(ROOT / grid_path)
        cols = []
        for words, backend, pack, listed, tr in (
            (english_words, "auto", en_pack, en_listed, None),
            (english_words, "cpsat", en_pack, en_listed, None),
            (wide_words, "auto", wide_pack, wide_listed, table),
        ):
            grid_here = grid if tr is None else grid.with_cells(cell.translate(tr) for cell in grid.cells)
            problem = compile_problem(grid_here, words, min_score=0)
            t0 = time.perf_counter()
            result = fill(problem, backend, Limits(time_limit_s=time_limit_s, seed=0))
            seconds = time.perf_counter() - t0
            status = result.status.value
            if status == "filled":
                bad = check_cells(pack, list(result.grid(problem).cells), grid.width, listed)
                if bad:
                    n_bad += 1
                    status = "BAD"
            cols.append(f"{seconds:7.2f}{'' if status == 'filled' else ' ' + status[:4]}".rjust(10))
        say(f"{grid_path:<28} " + " ".join(cols))
    return n_bad


def _cell(seconds: float, status: str, english: dict[str, float], backend: str, code: str) -> str:
    if status.startswith("BAD"):
        return f"{status[:40]:>16}"
    ratio = ""
    if status == "filled":
        if code == "en":
            english[backend] = seconds
        elif backend in english:
            ratio = f" x{seconds / max(english[backend], 1e-3):.2f}"
    short = {"filled": "", "unfillable": " unf", "limit": " lim"}.get(status, " " + status[:6])
    return f"{seconds:7.2f}{short}{ratio}".rjust(16)


if __name__ == "__main__":
    sys.exit(main())
