"""Clue help's numbers: first and warm `xwcp.clues` times, WordNet's index size, how much of the default list gets a
definition, and phrase splits right on the hand-made sample (bench/clues/phrase_sample.txt).

Usage: PYTHONPATH=. python3 bench/clues_bench.py [--repeats 200]

Each timing of a first call runs in a fresh process (a private cache folder for "build", the same one again for
"cold"): build = the first call on a machine (WordNet's index built), cold = the first call of a process once it is
built (import, open the index, look up; again for an answer whose split loads wordfreq), warm = later calls in one process (median and 95th percentile over the
list's sampled answers). Needs WordNet installed (.ci/install-dictionary.sh); wordfreq, where installed, gives the
phrase splits their frequencies (else WordNet's sense counts stand in; both are measured).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SAMPLE = ROOT / "bench" / "clues" / "phrase_sample.txt"
FIRST_CALL = (
    "import sys, time; t = time.perf_counter(); import xwcp; xwcp.clues(sys.argv[1]); print(time.perf_counter() - t)"
)


def first_call_s(cache: str, answer: str = "ICECREAMCONE") -> float:
    """A fresh process's first `xwcp.clues(answer)`, import included (ICECREAMCONE: WordNet knows the phrase;
    AAABATTERIES: the split needs word frequencies, so wordfreq loads too where installed)."""
    env = {**os.environ, "XWCP_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", FIRST_CALL, answer]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=200, help="answers timed warm (default 200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        build_s = first_call_s(cache)
        cold_s = statistics.median(first_call_s(cache) for _ in range(3))
        cold_frequency_s = statistics.median(first_call_s(cache, "AAABATTERIES") for _ in range(3))
        os.environ["XWCP_CACHE_DIR"] = cache
        import xwcp
        from xwcp.base.types import WordId
        from xwcp.words.dictionary import index_bytes, open_dictionary
        from xwcp.words.phrases import dictionary_zipf, split_answer, wordfreq_zipf

        wordnet = open_dictionary()
        words = xwcp.load_word_list()
        answers = [
            words.bucket(n).text(WordId(i)).upper() for n in range(3, 16) for i in range(words.bucket(n).n_words)
        ]
        rng = random.Random(0)
        timed = rng.sample(answers, args.repeats)
        xwcp.clues(timed[0])
        times_ms = []
        for answer in timed:
            t = time.perf_counter()
            xwcp.clues(answer)
            times_ms.append((time.perf_counter() - t) * 1000)
        times_ms.sort()
        t = time.perf_counter()
        defined_direct = sum(1 for a in answers if wordnet.senses(a))
        defined = sum(1 for a in answers if wordnet.definitions(a))
        coverage_s = time.perf_counter() - t
        phrases = [
            line.strip() for line in SAMPLE.read_text().splitlines() if line.strip() and not line.startswith("#")
        ]
        splits = {}
        for name, zipf in (("wordfreq", wordfreq_zipf()), ("wordnet", dictionary_zipf(wordnet))):
            if zipf is None:
                continue
            right = [
                p
                for p in phrases
                if (s := split_answer(p.replace(" ", ""), dictionary=wordnet, zipf=zipf)) and s.text() == p
            ]
            splits[name] = {"right": len(right), "of": len(phrases), "wrong": sorted(set(phrases) - set(right))}
        report = {
            "first_call_build_s": round(build_s, 3),
            "first_call_cold_s": round(cold_s, 3),
            "first_call_cold_with_frequencies_s": round(cold_frequency_s, 3),
            "warm_ms_median": round(statistics.median(times_ms), 3),
            "warm_ms_p95": round(times_ms[int(0.95 * len(times_ms))], 3),
            "index_bytes": index_bytes(wordnet),
            "index_keys": wordnet.n_keys,
            "list_entries_3_15": len(answers),
            "defined_direct": defined_direct,
            "defined_with_inflections": defined,
            "coverage_pass_s": round(coverage_s, 2),
            "phrase_splits": splits,
        }
        print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
