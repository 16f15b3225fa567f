"""Build the word lists of issue 36's benchmark languages with `xwcp words build` and print what each cost.

Usage:
    PYTHONPATH=ROOT python3 bench/language_lists.py [--out DIR] [--only es-wordfreq,de-hunspell,...] [--format text|json]

Each build runs as its own `python3 -m xwcp words build --language L --from S --out DIR/L-S.dict --format json`
process (so one build's memory is its own), timed by wall clock, its peak memory read from `os.wait4`'s rusage.
The lists are what the fill benchmarks of other languages read (`DIR`, default `bench/results/language-lists/`, is
not committed: wordfreq's data is CC BY-SA 4.0 and the Hunspell dictionaries carry their own licences). A source
this machine lacks (see .ci/install-languages.sh) is reported as skipped with its one-line reason.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_CHILD = ("import resource, sys\nfrom xwcp.cli import main\ncode = main(sys.argv[1:])\n"
          "print('PEAK_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\nsys.exit(code)")
"""The child: the `xwcp` command, then its own peak resident memory (Linux: KB) on stderr."""
BUILDS = ("es-checked", "es-wordfreq", "es-hunspell", "es-wspanish", "de-checked", "de-wordfreq", "de-hunspell",
          "ru-checked", "ru-wordfreq", "ru-hunspell", "nl-checked", "nl-wordfreq", "nl-hunspell", "pl-checked",
          "pl-wordfreq", "pl-hunspell", "el-checked", "el-wordfreq", "el-hunspell")
"""(language, source) pairs: Spanish, German, Dutch, Polish, Russian and Greek (Welsh has no source to build from)."""


def build(language: str, source: str, out_dir: Path) -> dict[str, object]:
    """One build in its own process: its JSON answer plus seconds and peak memory, or why it was skipped."""
    out = out_dir / f"{language}-{source}.dict"
    command = [sys.executable, "-c", _CHILD, "words", "build", "--language", language, "--from", source,
               "--out", str(out), "--format", "json"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    seconds = time.perf_counter() - started
    lines = done.stderr.strip().splitlines()
    peak = [line.split()[1] for line in lines if line.startswith("PEAK_KB ")]
    row: dict[str, object] = {"language": language, "source": source, "seconds": round(seconds, 2),
                              "peak_mb": round(int(peak[-1]) / 1024, 1) if peak else None, "exit": done.returncode}
    if done.returncode != 0:
        row["skipped"] = next((line for line in reversed(lines) if not line.startswith("PEAK_KB ")), "(no message)")
        return row
    stdout = done.stdout
    answer = json.loads(stdout)
    row.update(words=answer["written"], read=answer["read"], outside=answer["outside_alphabet"],
               licence=answer["licence"], path=answer["path"])
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "language-lists")
    parser.add_argument("--only", help="comma-separated LANG-SOURCE pairs (default: all of BUILDS)")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args(argv)
    wanted = args.only.split(",") if args.only else list(BUILDS)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for pair in wanted:
        language, _, source = pair.partition("-")
        rows.append(build(language, source, args.out))
        if args.format == "text":
            row = rows[-1]
            if "skipped" in row:
                print(f"{pair:14} skipped: {row['skipped']}", flush=True)
            else:
                print(f"{pair:14} {row['words']:>10,} words  {row['seconds']:>7.1f} s  {row['peak_mb']} MB  "
                      f"licence: {row['licence']}", flush=True)
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
