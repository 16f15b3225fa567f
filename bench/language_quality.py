"""Build each language's default (checked) list, fill the stock 15x15 with it, and count the fill's words the spelling dictionary accepts.

Usage:
    PYTHONPATH=$PWD python3 bench/language_quality.py [--languages es,de,...] [--grid models/15x15-daily-01.txt]
        [--time-limit 60] [--baseline] [--min-zipf 2.5] [--checker auto|command|spylls] [--out FILE]

For each language (default: every pack with a wordfreq list and an installed Hunspell dictionary), in this
process:
- `xwcp words build --language L --from checked` (xwcp.words.build.build_words) into the cache folder, timed:
  the list's size and the words each rule left out (below the frequency floor, one letter repeated, two
  words joined by an apostrophe, names,
  abbreviations, not in the dictionary, English);
- one fill of the grid with its letters removed (backend auto, seed 0, the default `--min-score 50`), checked by
  the project's checker (xwcp.engine.result.check_fill: every slot a listed word, crossings agree, no
  duplicates), and its mean score;
- each entry of the fill judged by the rules with no frequency floor (xwcp.words.checked.verdict_by_code): one
  of its wordfreq spellings accepted by the dictionary in lower case (capitalised for a German noun), and not
  English by the 30x rule. `ok` counts the entries that pass, `bad` names the others with their rule.
With `--baseline`, the same for the previous default, `--from wordfreq` (every word of wordfreq's list, scored
round(10 * zipf + 25)), to show what the rules change. The lists are written under $XWCP_CACHE_DIR (never
committed: wordfreq's data is CC BY-SA 4.0, the dictionaries carry their own licences).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from xwcp.backends import fill  # noqa: E402
from xwcp.compile.problem import compile_problem  # noqa: E402
from xwcp.engine.result import Limits, check_fill, measure_quality  # noqa: E402
from xwcp.model import read_grid  # noqa: E402
from xwcp.model.alphabet import load_alphabet  # noqa: E402
from xwcp.words.build import WORDFREQ_LIST, build_words, find_hunspell  # noqa: E402
from xwcp.words.checked import RULE_TEXT, Rule, english_frequencies, find_checker, verdict_by_code  # noqa: E402
from xwcp.words.wordlist import load_word_list  # noqa: E402

LANGUAGES = ("es", "de", "fr", "nl", "ru", "pl", "hu", "tr", "el", "he", "ca", "cs", "da", "it", "no", "pt", "sv", "uk")
"""The issue's ten, then every other pack with both sources on a Debian machine after install-languages.sh."""
GRID = "models/15x15-daily-01.txt"
SHORT = {
    Rule.BELOW_FLOOR: "floor",
    Rule.REPEATED: "rep",
    Rule.JOINED: "joined",
    Rule.NAME: "name",
    Rule.ABBREVIATION: "abbr",
    Rule.NOT_IN_DICTIONARY: "nodict",
    Rule.ENGLISH: "en",
}


def cache_dir() -> Path:
    base = os.environ.get("XWCP_CACHE_DIR") or os.path.join(tempfile.gettempdir(), "xwcp-bench")
    path = Path(base) / "bench-language-quality"
    path.mkdir(parents=True, exist_ok=True)
    return path


def judge(
    code: str, source: str, grid_path: str, time_limit_s: float, min_zipf: float | None, checker: str, min_score: int
) -> dict[str, object]:
    """Build, fill, check and judge one language's list from `source`."""
    import wordfreq

    alphabet = load_alphabet(code)
    out = cache_dir() / f"{code}-{source}-{min_zipf}.dict"
    t0 = time.perf_counter()
    report = build_words(code, source, out, min_zipf=min_zipf, checker=checker)
    build_s = time.perf_counter() - t0
    row: dict[str, object] = {
        "language": code,
        "source": source,
        "words": report.n_written,
        "build_s": build_s,
        "rules": report.left_out_by_rule,
        "checker": report.checker,
    }
    words = load_word_list(out, alphabet=alphabet)
    grid = read_grid(ROOT / grid_path)
    grid = grid.with_cells("#" if cell == "#" else "." for cell in grid.cells)  # its letters removed
    problem = compile_problem(grid, words, min_score=min_score)
    t0 = time.perf_counter()
    result = fill(problem, "auto", Limits(time_limit_s=time_limit_s, seed=0))
    row["fill_s"] = time.perf_counter() - t0
    row["status"] = result.status.value
    entries = result.entries
    if entries is None:
        return row
    violations = check_fill(problem, entries)
    row["violations"] = violations
    row["mean_score"] = measure_quality(problem, entries).mean_score
    language = alphabet.sources.get("wordfreq") or code
    files = find_hunspell(alphabet)
    assert files is not None
    verdicts = verdict_by_code(
        entries,
        alphabet,
        wordfreq.get_frequency_dict(language, wordlist=WORDFREQ_LIST),
        find_checker(files, checker),
        language=language,
        english_frequency_by_word=english_frequencies(language, WORDFREQ_LIST),
    )
    bad = [(alphabet.written(entry), verdicts[entry]) for entry in entries if verdicts[entry] is not None]
    row["entries"] = len(entries)
    row["ok"] = len(entries) - len(bad)
    row["bad"] = [f"{text} ({SHORT[rule]})" for text, rule in bad if rule is not None]
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    parser.add_argument("--grid", default=GRID)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--baseline", action="store_true", help="also the wordfreq list (the previous default)")
    parser.add_argument("--min-zipf", type=float)
    parser.add_argument("--checker", choices=["auto", "command", "spylls"], default="auto")
    parser.add_argument("--min-score", type=int, default=50, help="the fill's --min-score (default 50)")
    parser.add_argument("--out", help="also write the table here")
    args = parser.parse_args(argv)
    lines: list[str] = []

    def say(line: str) -> None:
        print(line, flush=True)
        lines.append(line)

    say(f"$ PYTHONPATH=$PWD python3 bench/language_quality.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    say(
        f"grid {args.grid} (letters removed), backend auto, seed 0, --min-score {args.min_score}, limit "
        f"{args.time_limit:g} s, checked lists' floor zipf {args.min_zipf or 'default'}; mean = the fill's mean score; "
        "left out by rule: " + ", ".join(f"{SHORT[rule]} = {RULE_TEXT[rule]}" for rule in Rule)
    )
    say(
        f"{'lang':<4} {'source':<8} {'words':>7} {'build s':>7} "
        + " ".join(f"{SHORT[r]:>7}" for r in Rule)
        + f" {'fill s':>6} {'status':<8} {'mean':>5} {'accepted':>8}  not accepted"
    )
    n_invalid = 0
    sources = ["checked", "wordfreq"] if args.baseline else ["checked"]
    for code in [c for c in args.languages.split(",") if c]:
        for source in sources:
            try:
                row = judge(code, source, args.grid, args.time_limit, args.min_zipf, args.checker, args.min_score)
            except Exception as exc:  # a language whose sources are missing here: say so and go on
                say(f"{code:<4} {source:<8} skipped: {type(exc).__name__}: {exc}")
                continue
            rules = row["rules"] if isinstance(row["rules"], dict) else {}
            counts = " ".join(f"{rules[r.value]:>7,}" if r.value in rules else f"{'':>7}" for r in Rule)
            accepted = f"{row['ok']}/{row['entries']}" if "ok" in row else "-"
            status = str(row["status"])
            if row.get("violations"):
                n_invalid += 1
                status = "INVALID"
            listed_bad = row.get("bad")
            bad = [str(item) for item in listed_bad] if isinstance(listed_bad, list) else []
            shown = ", ".join(bad[:8]) + (f", ... {len(bad) - 8} more" if len(bad) > 8 else "")
            mean = f"{row['mean_score']:.1f}" if isinstance(row.get("mean_score"), float) else "-"
            say(
                f"{code:<4} {source:<8} {row['words']:>7,} {row['build_s']:>7.1f} {counts} {row['fill_s']:>6.1f} "
                f"{status:<8} {mean:>5} {accepted:>8}  {shown}"
            )
    say("every fill passed check_fill" if not n_invalid else f"{n_invalid} fills FAILED check_fill")
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n", "utf-8")
    return 1 if n_invalid else 0


if __name__ == "__main__":
    raise SystemExit(main())
