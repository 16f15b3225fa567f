"""Issue 29's yardstick: the seeded themeless with no fill, xwcp against Qxw, whole commands, taking turns.

The grid is bench/seeded/sticky-fingers.txt (ingrid_core's `test_abort_fill_attempt` layout);
the list is Spread the Wordlist at min score 50, which is not shipped (non-commercial): pass
its path. Per round, in turn:
- `xwcp fill GRID --words LIST --min-score 50` (text) from this checkout: seconds from the
  process start to the verdict line ("Unfillable: ...") on stdout, and to the end;
- `xwcp fill ... --format json`, whole run, from this checkout and from --base if given (its
  `seconds`, `core.seconds`, core size and minimal read from the JSON);
- Qxw on the same grid and words (`xwcp.bench.peers`, min score 50, no word twice), whole run.
Prints every run and the medians. Qxw's word file is written once, untimed, as the bench does.

Usage: PYTHONPATH=. python3 bench/seeded_themeless.py --words PATH/spreadthewordlist.dict [--base OLD] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRID = ROOT / "bench" / "seeded" / "sticky-fingers.txt"


def xwcp_text(checkout: Path, words: str, min_score: int) -> tuple[float, float, int]:
    """(seconds to the verdict line, seconds to the end, exit code) of the text command."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "xwcp", "fill", str(GRID), "--words", words, "--min-score", str(min_score)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=checkout,
    )
    verdict_s = None
    for line in process.stdout:
        if verdict_s is None and line.startswith(("Unfillable", "No fill", "Aborted")):
            verdict_s = time.perf_counter() - start
    code = process.wait()
    end_s = time.perf_counter() - start
    return (verdict_s if verdict_s is not None else end_s), end_s, code


def xwcp_json(checkout: Path, words: str, min_score: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    start = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "xwcp",
            "fill",
            str(GRID),
            "--words",
            words,
            "--min-score",
            str(min_score),
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        env=env,
        cwd=checkout,
    )
    wall_s = time.perf_counter() - start
    data = json.loads(done.stdout)
    core = data.get("core") or {}
    return {
        "wall_s": wall_s,
        "status": data["status"],
        "verdict_s": data["seconds"],
        "core_s": core.get("seconds"),
        "size": len(core.get("slots", [])),
        "minimal": core.get("minimal"),
        "code": done.returncode,
    }


def qxw_words(words_path: str, min_score: int) -> list[tuple[str, int]]:
    from xwcp.words.wordlist import load_word_list

    words = load_word_list(words_path)
    pairs = []
    for length in range(2, 16):
        bucket = words.bucket(length)
        for word_id in range(bucket.n_words):
            score = int(bucket.scores[word_id])
            if score >= min_score:
                pairs.append((bucket.text(word_id), score))
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", required=True, help="Spread the Wordlist (.dict, WORD;score lines)")
    parser.add_argument("--min-score", type=int, default=50)
    parser.add_argument("--base", type=Path, help="an older checkout to run side by side (its extension built)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--qxw-limit", type=float, default=120.0)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from xwcp.bench.peers import peer_available, run_peer
    from xwcp.model import read_grid

    rows = list(read_grid(GRID).rows)
    pairs = qxw_words(args.words, args.min_score)
    workdir = Path(os.environ.get("TMPDIR", "/tmp")) / "xwcp-seeded-qxw"
    has_qxw = peer_available("qxw")
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M:%S')}  load {os.getloadavg()[0]:.2f}  {GRID.name}  min score "
        f"{args.min_score}  {len(pairs)} words for Qxw  rounds {args.rounds}"
    )
    xwcp_json(ROOT, args.words, args.min_score)  # warm the list's cache (a first run compiles it, once)
    if args.base:
        xwcp_json(args.base, args.words, args.min_score)
    results: dict[str, list] = {"text": [], "new": [], "base": [], "qxw": []}
    for round_no in range(args.rounds):
        verdict_s, end_s, code = xwcp_text(ROOT, args.words, args.min_score)
        results["text"].append((verdict_s, end_s))
        print(
            f"round {round_no + 1}: xwcp text: verdict line at {verdict_s:.2f} s, end {end_s:.2f} s (exit {code})",
            flush=True,
        )
        for who, checkout in (("new", ROOT), ("base", args.base)):
            if checkout is None:
                continue
            run = xwcp_json(checkout, args.words, args.min_score)
            results[who].append(run)
            print(
                f"round {round_no + 1}: xwcp {who} json: whole {run['wall_s']:.2f} s, verdict {run['verdict_s']:.2f} s "
                f"(after imports), core {run['core_s']} s, {run['size']} slots, minimal {run['minimal']}",
                flush=True,
            )
        if has_qxw:
            peer = run_peer("qxw", rows, pairs, args.qxw_limit, workdir=workdir)
            results["qxw"].append(peer.wall_time_s)
            print(f"round {round_no + 1}: qxw: {peer.status.value} in {peer.wall_time_s:.2f} s", flush=True)
    med = statistics.median
    print(
        f"# medians: xwcp verdict line {med(v for v, _ in results['text']):.2f} s from the process start, "
        f"text run {med(e for _, e in results['text']):.2f} s"
    )
    for who in ("new", "base"):
        runs = results[who]
        if runs:
            print(
                f"# medians: xwcp {who} --format json whole {med(r['wall_s'] for r in runs):.2f} s, core "
                f"{med(r['core_s'] or 0 for r in runs):.2f} s, minimal {sum(bool(r['minimal']) for r in runs)}/{len(runs)}"
            )
    if results["qxw"]:
        print(f"# medians: qxw whole {med(results['qxw']):.2f} s")
    print(f"# end {time.strftime('%H:%M:%S')}  load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
