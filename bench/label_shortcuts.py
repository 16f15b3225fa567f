"""Two shortcuts to a slot's labels on an empty themeless, measured: a smaller list for the witness fills, and repairs of kept fills.

Usage: PYTHONPATH=. python3 bench/label_shortcuts.py subset [--grid G] [--slots 6] [--words 4] [--max-fails 30000]
                                                         [--cut none,freq:0.85,freq:0.5,score:0.7]
       PYTHONPATH=. python3 bench/label_shortcuts.py repair [--grid G] [--slots 8] [--pool 20]

A viable label needs a fill with the word in the slot (xwcp/analysis/verify.py). On the stock themeless such a
fill costs a median 8-10k failures, so 40 labels are 20-40 CPU s. Two ways to make the fills cheaper:

- `subset`: the other slots cut to a part of the list (any fill over a part is a fill over the list, so a label
  found that way is as good). Parts: `freq:F`, the fraction F of each length's words whose letters are commonest
  at their positions (sum of log letter frequencies per position); `score:F`, the F best-scored; `none`, the list.
  For each of --words words of each of --slots shown lists, one search (score weight 0, as the labelling) up to
  --max-fails failures: filled, unfillable (over the part: proves nothing) or at the limit, failures, CPU s.
- `repair`: a pool of --pool fills (seeds 0.., score weight 0); for every shown word of --slots slots, does some
  pool fill take the word when only the nearby slots are searched again? Radius 1: the crossing slots whose
  letter the word changes; radius 2: those and their own crossing slots. Every other slot keeps the pool fill's
  word; each repair search gets 0.2 s.

Failures do not change with the machine's load, CPU seconds do a little. docs/design-notes.md ("Word
verification") quotes the numbers.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from xwcp.analysis import verify  # noqa: E402
from xwcp.backends import backtrack  # noqa: E402
from xwcp.backends._common import entries_from_word_ids  # noqa: E402
from xwcp.base.types import FillStatus, SlotId  # noqa: E402
from xwcp.compile.problem import Problem, compile_problem  # noqa: E402
from xwcp.engine import kernel  # noqa: E402
from xwcp.engine.result import Limits, check_fill  # noqa: E402
from xwcp.library.jobs import Session  # noqa: E402
from xwcp.model import read_grid  # noqa: E402
from xwcp.words.wordlist import load_word_list  # noqa: E402

REPAIR_S = 0.2
"""Seconds each repair search may run."""


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def grid_path(name: str) -> Path:
    return ROOT / ("models/15x15-themeless-01.txt" if name == "stock" else f"bench/suggest_grids/{name}.txt")


def spread(problem: Problem, n_slots: int) -> list[SlotId]:
    slots = list(problem.slots)
    return [slot.id for slot in slots[:: max(1, len(slots) // n_slots)][:n_slots]]


def shown_words(session: Session, problem: Problem, slot_id: SlotId) -> list[str]:
    name = problem.slots[slot_id].name
    return [s.word for s in session.suggest(name, k=40, count=False, probe_max_words=None, probe_time_limit_s=0.03)]


def part_mask(problem: Problem, length: int, cut: str) -> NDArray[np.bool_]:
    """The words of `length` a cut keeps (`none`, `freq:F`, `score:F`)."""
    bucket = problem.words.bucket(length)
    n = bucket.n_words
    if cut == "none" or n == 0:
        return np.ones(n, bool)
    kind, fraction = cut.split(":")
    if kind == "score":
        key = bucket.scores.astype(float) + np.random.default_rng(0).random(n) * 0.01
    elif kind == "freq":
        letters = bucket.letters.astype(np.int64)
        key = np.zeros(n)
        for q in range(length):
            count = np.bincount(letters[:, q], minlength=64).astype(float) + 1.0
            key += np.log(count[letters[:, q]] / n)
    else:
        raise SystemExit(f"label_shortcuts.py: unknown cut {cut!r} (none, freq:F, score:F)")
    mask = np.zeros(n, bool)
    mask[np.argsort(-key)[: max(1, int(float(fraction) * n))]] = True
    return mask


def run_subset(args: argparse.Namespace) -> None:
    words = load_word_list()
    problem = compile_problem(read_grid(grid_path(args.grid)), words)
    session = Session(problem)
    for cut in args.cut.split(","):
        masks = {length: part_mask(problem, length, cut) for length in {s.length for s in problem.slots}}
        failures: list[int] = []
        cpu: list[float] = []
        count_by_status: dict[str, int] = {}
        for slot_id in spread(problem, args.slots):
            shown = shown_words(session, problem, slot_id)
            for word in shown[:: max(1, len(shown) // args.words)][: args.words]:
                word_id = words.word_id(word)
                assert word_id is not None
                cut_problem = verify._restricted(problem, slot_id, [word_id])
                domains = [
                    d if s.id == slot_id else d & masks[s.length] for s, d in zip(problem.slots, cut_problem.domains)
                ]
                cut_problem = replace(cut_problem, domains=tuple(domains))
                start = cpu_s()
                result = backtrack.fill(
                    cut_problem, Limits(seed=0, max_backtracks=args.max_fails, extra={"score_weight": 0.0})
                )
                cpu.append(cpu_s() - start)
                failures.append(result.stats.backtracks)
                if result.status is FillStatus.FILLED:
                    assert not check_fill(problem, result.entries), "a fill over the part broke the grid"
                count_by_status[result.status.value] = count_by_status.get(result.status.value, 0) + 1
                name = problem.slots[slot_id].name
                print(f"{cut} {name} {word}: {result.status.value}, {result.stats.backtracks} failures", flush=True)
        print(
            f"SUBSET {args.grid} {cut}: {len(failures)} words, {count_by_status}; failures median "
            f"{statistics.median(failures):.0f} total {sum(failures)}; CPU {sum(cpu):.1f} s",
            flush=True,
        )


def repair(problem: Problem, slot_id: SlotId, word_id: int, fill: list[int], radius: int) -> bool:
    """Whether `fill` takes `word_id` in `slot_id` with only the slots within `radius` crossings searched again."""
    slots = problem.slots
    old = problem.words.bucket(slots[slot_id].length).text(fill[slot_id])
    new = problem.words.bucket(slots[slot_id].length).text(word_id)
    freed = {problem.cross_slot[slot_id][q] for q in range(len(new)) if new[q] != old[q]} - {-1}
    if radius >= 2:
        for t in list(freed):
            freed |= {u for u in problem.cross_slot[t] if u >= 0 and u != slot_id}
    domains = []
    for slot, domain in zip(slots, problem.domains):
        if slot.id in freed:
            domains.append(domain)
            continue
        one = np.zeros(len(domain), bool)
        one[word_id if slot.id == slot_id else fill[slot.id]] = True
        domains.append(one & domain)
    engine = kernel.BitSearch(replace(problem, domains=tuple(domains)))
    if not engine.is_consistent:
        return False
    verify._configure(engine, seed=0)
    end = time.perf_counter() + REPAIR_S
    while time.perf_counter() < end:
        code = engine.search(0.05)
        if code == kernel.SOLVED:
            assert not check_fill(problem, entries_from_word_ids(problem, engine.solution_word_ids()))
            return True
        if code != kernel.RUNNING:
            return False
    return False


def run_repair(args: argparse.Namespace) -> None:
    words = load_word_list()
    problem = compile_problem(read_grid(grid_path(args.grid)), words)
    session = Session(problem)
    start = cpu_s()
    pool: list[list[int]] = []
    for seed in range(args.pool):
        result = backtrack.fill(problem, Limits(seed=seed, max_backtracks=60_000, extra={"score_weight": 0.0}))
        if result.status is FillStatus.FILLED:
            ids = [words.word_id(entry) for entry in result.entries]
            assert all(word_id is not None for word_id in ids), "a fill with an unlisted entry"
            pool.append([int(word_id or 0) for word_id in ids])
    print(f"pool: {len(pool)} fills of {args.pool} seeds in {cpu_s() - start:.1f} CPU s", flush=True)
    total = {0: 0, 1: 0, 2: 0}
    cpu = {1: 0.0, 2: 0.0}
    n_words = 0
    for slot_id in spread(problem, args.slots):
        got = {0: 0, 1: 0, 2: 0}
        for word in shown_words(session, problem, slot_id):
            word_id = words.word_id(word)
            assert word_id is not None
            n_words += 1
            got[0] += any(fill[slot_id] == word_id for fill in pool)
            for radius in (1, 2):
                start = cpu_s()
                got[radius] += any(repair(problem, slot_id, word_id, fill, radius) for fill in pool)
                cpu[radius] += cpu_s() - start
        print(
            f"{problem.slots[slot_id].name}: in a pool fill {got[0]}, radius 1 {got[1]}, radius 2 {got[2]}", flush=True
        )
        for key in total:
            total[key] += got[key]
    print(
        f"REPAIR {args.grid}: {n_words} shown words, {len(pool)} pool fills: in a pool fill {total[0]}, repaired at "
        f"radius 1 {total[1]} ({cpu[1]:.1f} CPU s), radius 2 {total[2]} ({cpu[2]:.1f} CPU s)",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", choices=("subset", "repair"))
    parser.add_argument("--grid", default="stock", help="stock (models/15x15-themeless-01.txt) or open-1..open-4")
    parser.add_argument("--slots", type=int, default=0, help="slots spread over the grid (default 6 / 8)")
    parser.add_argument("--words", type=int, default=4, help="subset: shown words per slot")
    parser.add_argument("--max-fails", type=int, default=30_000, help="subset: failures per search")
    parser.add_argument("--cut", default="none,freq:0.85,freq:0.5,score:0.7", help="subset: the parts to try")
    parser.add_argument("--pool", type=int, default=20, help="repair: fills in the pool")
    args = parser.parse_args()
    if args.slots <= 0:
        args.slots = 6 if args.part == "subset" else 8
    (run_subset if args.part == "subset" else run_repair)(args)


if __name__ == "__main__":
    main()
