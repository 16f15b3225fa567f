"""Where a slot's verification time goes: each candidate word's own search, in failures (load-independent).

Usage: PYTHONPATH=. python3 bench/verify_work.py GRID SLOT [--k 20] [--max-fails 40000] [--seeds 0,1,2]
                                                [--score-weight 0] [--restart-base 100] [--noise 0.2]
                                                [--learn 0] [--branch word]

For each of the slot's top-k words (as `suggest` ranks them) it runs our compiled search with
the slot set to the word, up to --max-fails failures, and prints the label (viable with a fill
checked by `check_fill`, dead (proof), or unsettled) and the failures spent; then the whole grid's
own fill at each seed for scale, and the totals. Failures, unlike seconds, do not change with
the machine's load, so configurations can be compared on a shared machine (xwcp/analysis/verify.py's
docstring quotes these numbers).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from xwcp.analysis import questions as analysis, verify  # noqa: E402
from xwcp.backends._common import entries_from_word_ids  # noqa: E402
from xwcp.compile.problem import compile_problem  # noqa: E402
from xwcp.engine import kernel  # noqa: E402
from xwcp.engine.ac3 import propagate  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402
from xwcp.model import read_grid  # noqa: E402
from xwcp.words.wordlist import load_word_list  # noqa: E402


def search(problem, args, seed: int) -> tuple[str, int, float]:
    engine = kernel.BitSearch(problem)
    if not engine.is_consistent:
        return "dead (ac3)", 0, 0.0
    engine.configure(
        seed=seed,
        restart_base=args.restart_base,
        noise=args.noise,
        score_weight=args.score_weight,
        max_fails=args.max_fails,
        learn=args.learn,
        branch=args.branch,
    )
    start = time.perf_counter()
    code = kernel.RUNNING
    while code == kernel.RUNNING:
        code = engine.search(1.0)
    seconds = time.perf_counter() - start
    if code == kernel.SOLVED:
        entries = entries_from_word_ids(problem, engine.solution_word_ids())
        if check_fill(problem, entries):
            raise RuntimeError("invalid fill")
        return "viable", engine.stats["fails"], seconds
    return ("dead" if code == kernel.EXHAUSTED else "unsettled"), engine.stats["fails"], seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("grid")
    parser.add_argument("slot")
    parser.add_argument("--k", type=int, default=20)
    parser.add_argument("--max-fails", type=int, default=40000)
    parser.add_argument("--seeds", default="0")
    parser.add_argument("--score-weight", type=float, default=verify.SCORE_WEIGHT)
    parser.add_argument("--restart-base", type=int, default=100)
    parser.add_argument("--noise", type=float, default=0.2)
    parser.add_argument("--learn", type=int, default=0, help="0, 1 or 2 (BitSearch.configure)")
    parser.add_argument("--branch", default="word", help="word or letter (BitSearch.configure)")
    args = parser.parse_args()
    problem = compile_problem(read_grid(args.grid), load_word_list(), min_score=50)
    slot = problem.slot_by_name(args.slot)
    words = [w.word for w in analysis.rank_words(problem, propagate(problem), slot.id, args.k)]
    for seed in (int(s) for s in args.seeds.split(",")):
        label, fails, seconds = search(problem, args, seed)
        print(f"seed {seed} whole grid: {label} {fails} failures {seconds:.2f} s", flush=True)
        spent = []
        for word in words:
            label, fails, seconds = search(
                verify._restricted(problem, slot.id, [problem.words.word_id(word)]), args, seed
            )
            spent.append(fails)
            print(f"seed {seed} {args.slot}={word}: {label} {fails} failures {seconds:.2f} s", flush=True)
        print(
            f"seed {seed} total {sum(spent)} failures, median {statistics.median(spent):.0f}, "
            f"unsettled {sum(f >= args.max_fails for f in spent)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
