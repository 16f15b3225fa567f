"""Build the word lists of the benchmark languages, and every pack's Hunspell list, and print what each cost.

Usage:
    PYTHONPATH=ROOT python3 bench/language_lists.py [--out DIR] [--only es-wordfreq,de-hunspell,...|hunspell]
        [--format text|json]

Each build runs as its own `python3 -m xwcp words build --language L --from S --out DIR/L-S.dict --format json`
process (so one build's memory is its own), timed by wall clock, its peak memory read from `os.wait4`'s rusage.
The lists are what the fill benchmarks of other languages read (`DIR`, default `bench/results/language-lists/`, is
not committed: wordfreq's data is CC BY-SA 4.0 and the Hunspell dictionaries carry their own licences). A source
this machine lacks (see .ci/install-languages.sh) is reported as skipped with its one-line reason. `--only hunspell`
builds every pack that names a Hunspell source; each row says whether the build kept within TARGET_S seconds and
TARGET_MB of peak memory.
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
_CHILD = (
    "import resource, sys\nfrom xwcp.cli import main\ncode = main(sys.argv[1:])\n"
    "print('PEAK_KB', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\nsys.exit(code)"
)
"""The child: the `xwcp` command, then its own peak resident memory (Linux: KB) on stderr."""
HUNSPELL_BUILDS = tuple(
    f"{path.stem}-hunspell"
    for path in sorted((ROOT / "xwcp" / "model" / "languages").glob("*.json"))
    if json.loads(path.read_text(encoding="utf-8")).get("sources", {}).get("hunspell")
)
"""Every pack that names a Hunspell source (a pack whose dictionary is not installed is reported as skipped)."""
BUILDS = (
    "es-checked",
    "es-wordfreq",
    "es-wspanish",
    "de-checked",
    "de-wordfreq",
    "ru-checked",
    "ru-wordfreq",
    "nl-checked",
    "nl-wordfreq",
    "pl-checked",
    "pl-wordfreq",
    "el-checked",
    "el-wordfreq",
    *HUNSPELL_BUILDS,
)
"""(language, source) pairs: checked, wordfreq and wspanish lists for the benchmark languages, Hunspell for every
pack."""
TARGET_S, TARGET_MB = 120.0, 1024.0
"""What every build must keep within on this machine: 2 minutes and 1 GB of peak memory."""


def build(language: str, source: str, out_dir: Path) -> dict[str, object]:
    """One build in its own process: its JSON answer plus seconds and peak memory, or why it was skipped."""
    out = out_dir / f"{language}-{source}.dict"
    command = [
        sys.executable,
        "-c",
        _CHILD,
        "words",
        "build",
        "--language",
        language,
        "--from",
        source,
        "--out",
        str(out),
        "--format",
        "json",
    ]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    seconds = time.perf_counter() - started
    lines = done.stderr.strip().splitlines()
    peak = [line.split()[1] for line in lines if line.startswith("PEAK_KB ")]
    row: dict[str, object] = {
        "language": language,
        "source": source,
        "seconds": round(seconds, 2),
        "peak_mb": round(int(peak[-1]) / 1024, 1) if peak else None,
        "exit": done.returncode,
    }
    if done.returncode != 0:
        row["skipped"] = next((line for line in reversed(lines) if not line.startswith("PEAK_KB ")), "(no message)")
        return row
    stdout = done.stdout
    answer = json.loads(stdout)
    row.update(
        words=answer["written"],
        read=answer["read"],
        outside=answer["outside_alphabet"],
        licence=answer["licence"],
        path=answer["path"],
        bound=answer.get("bound"),
    )
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "language-lists")
    parser.add_argument("--only", help="comma-separated LANG-SOURCE pairs (default: all of BUILDS)")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    args = parser.parse_args(argv)
    wanted = list(HUNSPELL_BUILDS) if args.only == "hunspell" else args.only.split(",") if args.only else list(BUILDS)
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for pair in wanted:
        language, _, source = pair.rpartition("-")
        rows.append(build(language, source, args.out))
        if args.format == "text":
            row = rows[-1]
            if "skipped" in row:
                print(f"{pair:14} skipped: {row['skipped']}", flush=True)
            else:
                within = "within" if row["seconds"] <= TARGET_S and (row["peak_mb"] or 0) <= TARGET_MB else "PAST"
                print(
                    f"{pair:18} {row['words']:>10,} words  {row['seconds']:>7.1f} s  {row['peak_mb']:>7} MB  "
                    f"{within} {TARGET_S:g} s/{TARGET_MB:g} MB  licence: {row['licence']}",
                    flush=True,
                )
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
