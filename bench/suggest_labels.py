"""Suggestions labelled by the solver (issue 35): how long until a slot's shown words are all labelled, and the order.

Usage: PYTHONPATH=. python3 bench/suggest_labels.py [--k 40] [--budget 10] [--slots N] [--themeless-words 20]
                                                   [--keystrokes 60] [--out FILE.json]
                                                   [--part labels,themeless,keys,open] [--open-slots N]
                                                   [--open-variants 2,2o] [--fill-processes 1,2]

Grids: bench/suggest_grids/themed-{1,2,3}.txt are designs from the Design tab (`xwcp design`, rotational,
the default list) around three 15-letter theme entries of published puzzles (rows 3, 8, 13; the theme
sets are bench/design_themes.json's: PROGNOSTICATION, MISTERPRESIDENT (NYT 5 Nov 1996), SPEAKOFTHEDEVIL,
OBEDIENCESCHOOL (NYT 10 Mar 2008), ESCAPEATTENTION (WaPo 6 Dec 2005)), made with
    xwcp design --at T1=3,1,A --at T2=8,1,A --at T3=13,1,A --count 1 --time-limit 120 --quality-time 10
The benchmark keeps the theme rows and two down entries of each design (the first two down slots of 5+
letters crossing row 3 from the left) and empties the rest: a partly filled themed 15x15 as a constructor
has it after laying out the theme and typing two entries.

Parts:
- labels: for each open slot of each themed grid, the page's path at the library level: the first list
  (`Session.suggest(k, count=False, probe_time_limit_s=0.03)`, as /api/suggest) and then `Session.label`
  of its words under --budget; it prints the time until all k shown words are labelled (p50/p95/max over
  slots), how many were unsettled, and whether every viable word is listed above every dead end (the
  page's order: `suggest(verify=True)`'s), the CPU seconds (both processes), the slowest slots, and the share of
  the words probed that were dropped (they empty a slot when entered). "warm": one process through all slots, as the server (fills
  found for one slot's words label other slots' words); "cold": the recent fills forgotten before each slot.
- themeless: models/15x15-themeless-01.txt, labelling the top --themeless-words of 1A against one whole fill
  (`backends.fill(problem, "auto", seed 0)`), alternated, 3 rounds; prints the ratio (issue 35: 25-34x before).
  Seed 0 is one of this grid's lucky seeds, so it also fills the grid at seeds 1..--themeless-seeds - 1 and
  prints the ratio to the median seed's whole fill.
- open: open themelesses, empty (models/15x15-themeless-01.txt and bench/suggest_grids/open-*.txt, block
  patterns of `xwcp design` designs with their letters erased, each file naming its design): for every slot
  (or --open-slots N spread over the grid), the 40 shown words of the first list labelled cold (the recent
  fills forgotten) by `verify.verify_words` under --budget, once per variant, the variants interleaved slot by
  slot: a variant's leading number is its processes (`verify_words(max_processes=N)`): "2" two (the default on two
  cores), "1" one (as XWCP_NO_RACE), "4" four (on two cores: only the overhead of oversubscribing), a trailing "o" (2o, 1o) the
  same with the labelling before projected enumeration (verify.ENUMERATE off: the joint search stops at its
  first fill, then word by word: the old method beside the new), "2e" two, both enumerating (the second
  under another seed, verify.CHILD_ENUMERATES) instead of the second searching word by word, "2L" two, the second learning
  at every failure (verify.CHILD_LEARN); "2w" two, warm: the fills found on this grid's earlier slots kept (as
  the server keeps them while the constructor goes from slot to slot), "2ws" the same with the searches
  weighing scores (0.05, as `fill`), so their fills tend to hold other slots' top (shown) words. Prints per grid and variant the
  seconds until all shown words were labelled (a slot the budget left words unsettled in counts as the
  budget), p50/p95/max, the words left unsettled, the CPU seconds and the search work (failures and nodes
  of both processes, load-independent); then the labelling time per slot: labels per 1k failures, failures a
  label, CPU us a failure and from them the seconds a slot's k words take on two idle cores; and with variants
  1 and others (`--open-variants 1,2,4`) the multi-core scaling (1 process against n: time, labels, CPU).
- fills: `fill` (backend auto) of each open grid at seeds 0..--fill-seeds - 1 with each of --fill-processes
  (`Limits.max_processes`: 1 one search, n the portfolio of n - 1 rivals after auto.RACE_DELAY_S), interleaved;
  seconds and CPU seconds.
- keys: keystroke -> first suggestions at the API level: a TestClient app (the server's code, its cache)
  types the letters of themed grid 1's down entries one by one (as the page does: each keystroke posts the
  grid and asks /api/suggest for the slot under the cursor, k=40), timing each answer; p50/p95. For
  comparison, in the same run, the same keystrokes asking /api/domains (the ranking alone, no probing).

Timings on a shared 2-core machine are noisy: compare rows of one run, not runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import warnings
from collections import OrderedDict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from xwcp.analysis import verify  # noqa: E402
from xwcp.backends import fill  # noqa: E402
from xwcp.compile.problem import compile_problem  # noqa: E402
from xwcp.engine.result import Limits, check_fill  # noqa: E402
from xwcp.library.jobs import Session  # noqa: E402
from xwcp.model import parse_grid, read_grid  # noqa: E402
from xwcp.words.wordlist import load_word_list  # noqa: E402

GRIDS = sorted((ROOT / "bench" / "suggest_grids").glob("themed-*.txt"))
OPEN_GRIDS = [
    ROOT / "models" / "15x15-themeless-01.txt",
    *sorted((ROOT / "bench" / "suggest_grids").glob("open-*.txt")),
]
THEME_ROWS = (2, 7, 12)


def partly_filled(path: Path) -> list[str]:
    """The design's theme rows and two down entries crossing row 3 from the left; every other cell empty."""
    rows = [line for line in path.read_text().split("\n") if line.strip() and not line.startswith(";")]
    keep = [[ch if ch == "#" or r in THEME_ROWS else "." for ch in row] for r, row in enumerate(rows)]
    kept_columns: list[int] = []
    for c in range(len(rows[0])):
        if rows[2][c] == "#" or (kept_columns and kept_columns[-1] == c - 1):
            continue  # a block in row 3, or next to the entry kept already
        top, bottom = 2, 2
        while top > 0 and rows[top - 1][c] != "#":
            top -= 1
        while bottom + 1 < len(rows) and rows[bottom + 1][c] != "#":
            bottom += 1
        if bottom - top + 1 < 5:
            continue
        for r in range(top, bottom + 1):
            keep[r][c] = rows[r][c]
        kept_columns.append(c)
        if len(kept_columns) == 2:
            break
    return ["".join(row) for row in keep]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def label_slots(rows: list[str], words, k: int, budget_s: float, cold: bool, max_slots: int | None) -> dict:
    """The labels part for one grid: per open slot, seconds from the request to all shown words labelled."""
    problem = compile_problem(parse_grid("\n".join(rows)), words)
    session = Session(problem)
    open_slots = [s for s in problem.slots if "." in problem.pattern(s.id)]
    if max_slots is not None:
        open_slots = open_slots[:max_slots]
    seconds, unsettled, order_ok, n_words, dropped_share, first_s, cpu_s = [], 0, True, 0, [], [], []
    slowest: list[tuple[float, str, int]] = []
    n_viable = n_dead = 0
    for slot in open_slots:
        if cold:
            with verify._recent_lock:
                verify._recent_by_layout.clear()
        start, cpu = time.perf_counter(), _cpu_s()
        first = session.suggest(slot.name, k=k, count=False, probe_max_words=None, probe_time_limit_s=0.03)
        first_s.append(time.perf_counter() - start)
        if first.counts is not None and not first.counts.complete and len(first) < k:
            # as /ws/suggest: the first list's probing budget ran out short of k words; the whole slot is probed
            first = session.suggest(slot.name, k=k, count=True, probe_max_words=None, probe_time_limit_s=2.0)
        shown = [s.word for s in first]
        labels = session.label(slot.name, shown, time_limit_s=budget_s) if shown else []
        seconds.append(time.perf_counter() - start)
        cpu_s.append(_cpu_s() - cpu)
        slowest.append((seconds[-1], slot.name, len(shown)))
        by_word = {lab.word: lab.verdict.value for lab in labels}
        unsettled += sum(v == "unknown" for v in by_word.values())
        n_viable += sum(v == "viable" for v in by_word.values())
        n_dead += sum(v == "dead-end" for v in by_word.values())
        n_words += len(shown)
        # the page's order: viable, unsettled, dead ends, each in rank order; check what it shows
        order = {"viable": 0, "unknown": 1, "dead-end": 2}
        listed = sorted(shown, key=lambda w: order[by_word[w]])
        last_viable = max((i for i, w in enumerate(listed) if by_word[w] == "viable"), default=-1)
        first_dead = min((i for i, w in enumerate(listed) if by_word[w] == "dead-end"), default=len(listed))
        order_ok &= last_viable < first_dead
        c = first.counts
        if c is not None and c.checked:
            dropped_share.append(1 - c.survive / c.checked)
    return {
        "slots": len(open_slots),
        "words": n_words,
        "viable": n_viable,
        "dead_end": n_dead,
        "unsettled": unsettled,
        "viable_above_dead": order_ok,
        "first_list_s": {"p50": pct(first_s, 0.5), "p95": pct(first_s, 0.95)},
        "all_labelled_s": {"p50": pct(seconds, 0.5), "p95": pct(seconds, 0.95), "max": max(seconds, default=0)},
        "cpu_s": {"p50": pct(cpu_s, 0.5), "p95": pct(cpu_s, 0.95)},
        "slowest": sorted(slowest, reverse=True)[:5],
        "dropped_by_probing": {
            "median": statistics.median(dropped_share) if dropped_share else None,
            "max": max(dropped_share, default=None),
        },
    }


def _cpu_s() -> float:
    """CPU seconds of this process and its reaped children (the labelling's forked second process)."""
    import os

    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def themeless(words, n_words: int, budget_s: float, rounds: int = 3, fill_seeds: int = 10) -> dict:
    """Labelling the top n words of 1A on the stock themeless against one whole fill (seed 0), alternated;
    then whole fills at seeds 1..fill_seeds-1, for the ratio against a median seed's fill."""
    grid = read_grid(ROOT / "models" / "15x15-themeless-01.txt")
    fills, labels, settled = [], [], []
    for _ in range(rounds):
        problem = compile_problem(grid, words)
        start = time.perf_counter()
        result = fill(problem, "auto", Limits(time_limit_s=60, seed=0))
        fills.append(time.perf_counter() - start)
        assert result.entries is None or check_fill(problem, result.entries) == []
        with verify._recent_lock:
            verify._recent_by_layout.clear()
        session = Session(compile_problem(grid, words))
        start = time.perf_counter()
        shown = [s.word for s in session.suggest("1A", k=n_words, count=False)]
        got = session.label("1A", shown, time_limit_s=budget_s)
        labels.append(time.perf_counter() - start)
        settled.append(sum(lab.verdict.value != "unknown" for lab in got))
    fill_s, label_s = statistics.median(fills), statistics.median(labels)
    seed_fills = [statistics.median(fills)]
    for seed in range(1, fill_seeds):  # the denominator's luck: seed 0 is among this grid's fastest fills
        problem = compile_problem(grid, words)
        start = time.perf_counter()
        result = fill(problem, "auto", Limits(time_limit_s=60, seed=seed))
        seed_fills.append(time.perf_counter() - start)
        assert result.entries is not None and check_fill(problem, result.entries) == []
    return {
        "fill_s": fills,
        "label_s": labels,
        "settled": settled,
        "words": n_words,
        "ratio_median": label_s / fill_s,
        "fill_s_by_seed": seed_fills,
        "ratio_to_median_seed": label_s / statistics.median(seed_fills),
    }


def processes_of(variant: str) -> int:
    """The processes a variant names with its leading number ("2o": 2, "4": 4)."""
    digits = variant[: len(variant) - len(variant.lstrip("0123456789"))]
    if not digits:
        raise SystemExit(f"a variant starts with its number of processes: {variant!r}")
    return int(digits)


def open_grids(
    words, k: int, budget_s: float, max_slots: int | None, variants: list[str], names: list[str] | None = None
) -> dict:
    """The open part: per open grid, every slot's shown words labelled cold under each variant, interleaved."""

    out: dict = {}
    for path in OPEN_GRIDS:
        if names and path.stem not in names:
            continue
        grid = read_grid(path)
        problem = compile_problem(grid, words)
        session = Session(problem)
        slots = list(problem.slots)
        if max_slots:
            step = max(1, len(slots) // max_slots)
            slots = slots[::step][:max_slots]
        kept_by_variant: dict[str, OrderedDict] = {}
        rows: dict[str, dict] = {
            v: {"seconds": [], "unsettled": 0, "cpu_s": [], "fails": [], "nodes": [], "slowest": []} for v in variants
        }
        for slot in slots:
            shown = [
                s.word
                for s in session.suggest(slot.name, k=k, count=False, probe_max_words=None, probe_time_limit_s=0.03)
            ]
            for variant in variants if slots.index(slot) % 2 == 0 else variants[::-1]:  # who goes first alternates
                with verify._recent_lock:  # cold: no fills kept; warm: the fills this variant found on earlier slots
                    verify._recent_by_layout = (
                        kept_by_variant.setdefault(variant, OrderedDict())
                        if variant.lstrip("0123456789").startswith("w")
                        else OrderedDict()
                    )
                verify.SCORE_WEIGHT = 0.05 if variant[len(str(processes_of(variant))) :] == "ws" else 0.0
                verify.ENUMERATE = not variant.endswith("o")
                verify.CHILD_LEARN = 1 if variant.endswith("L") else 0
                verify.CHILD_ENUMERATES = variant.endswith("e")
                work = verify.SearchWork()
                cpu = _cpu_s()
                got = verify.verify_words(
                    problem,
                    slot.id,
                    shown,
                    time_limit_s=budget_s,
                    work=work,
                    max_processes=processes_of(variant),
                )
                row = rows[variant]
                left = sum(v.verdict is verify.Viability.UNKNOWN for v in got)
                done_s = max((v.seconds for v in got), default=0.0) if not left else budget_s
                row["seconds"].append(done_s)
                row["unsettled"] += left
                row["cpu_s"].append(_cpu_s() - cpu)
                row["fails"].append(work.fails)
                row["nodes"].append(work.nodes)
                row["slowest"].append((round(done_s, 2), slot.name, left))
            verify.SCORE_WEIGHT = 0.0
            verify.ENUMERATE = True
            verify.CHILD_ENUMERATES = False
            print(
                f"  {path.stem} {slot.name}: "
                + "; ".join(
                    f"{v} proc {rows[v]['seconds'][-1]:.2f} s, {rows[v]['slowest'][-1][2]} unsettled, "
                    f"{rows[v]['fails'][-1]} failures, CPU {rows[v]['cpu_s'][-1]:.1f} s"
                    for v in variants
                ),
                flush=True,
            )
        summary = {}
        for variant, row in rows.items():
            labels = len(slots) * k - row["unsettled"]
            fails, cpu_total = sum(row["fails"]), sum(row["cpu_s"])
            fails_per_label = fails / labels if labels else None  # None: no label in all those failures
            us_per_fail = 1e6 * cpu_total / fails if fails else 0.0
            summary[variant] = {
                "labels": labels,
                "labels_per_1k_failures": 1000 * labels / fails if fails else 0.0,
                "failures_per_label": fails_per_label,
                "cpu_us_per_failure": us_per_fail,
                # a slot's k words at this rate, its CPU shared by two idle cores (the labelling's two processes)
                "est_slot_s_on_two_idle_cores": k * fails_per_label * us_per_fail / 1e6 / 2
                if fails_per_label
                else None,
                "slots": len(slots),
                "words": len(slots) * k,
                "unsettled": row["unsettled"],
                "all_labelled_s": {
                    "p50": pct(row["seconds"], 0.5),
                    "p95": pct(row["seconds"], 0.95),
                    "max": max(row["seconds"], default=0.0),
                },
                "within_target": sum(s < budget_s for s in row["seconds"]),
                "cpu_s_p50": pct(row["cpu_s"], 0.5),
                "fails_p50": pct(row["fails"], 0.5),
                "fails_total": sum(row["fails"]),
                "nodes_total": sum(row["nodes"]),
                "slowest": sorted(row["slowest"], reverse=True)[:5],
                "per_slot_s": row["seconds"],
            }
        out[path.stem] = summary
    return out


def fill_scaling(words, seeds: int, names: list[str] | None = None, processes: tuple[int, ...] = (1, 2)) -> dict:
    """The fills part: whole fills of each open grid with each number of processes, interleaved seed by seed
    (bench/auto_scaling.py's scale part, on the open grids, 60 s a fill): {grid: {"n": seconds, cpu_s, ...}}."""
    import auto_scaling

    paths = [str(path) for path in OPEN_GRIDS if not names or path.stem in names]
    found = auto_scaling.scale(paths, list(processes), seeds, 60.0, words)
    return {Path(name).stem: {str(n): row for n, row in rows.items()} for name, rows in found.items()}


def keystrokes(words, n_keys: int) -> dict:
    """Keystroke -> /api/suggest (and /api/domains for comparison) through the app, typing down entries."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from xwcp.web.app import create_app
    from xwcp.web.hosts import allowed_hosts

    source = read_grid(GRIDS[0])
    full = [line for line in GRIDS[0].read_text().split("\n") if line.strip() and not line.startswith(";")]
    rows = partly_filled(GRIDS[0])
    problem = compile_problem(parse_grid("\n".join(rows)), words)
    downs = [s for s in problem.slots if s.direction.letter == "D" and "." in problem.pattern(s.id)]
    width = source.width
    suggest_ms, domains_ms = [], []

    def app_client() -> TestClient:  # one app (one analysis cache) per path: each sees every grid once
        return TestClient(
            create_app(words=words, hosts=allowed_hosts("127.0.0.1", ["testserver"])), base_url="http://127.0.0.1"
        )

    clients = {"/api/suggest": app_client(), "/api/domains": app_client()}
    typed = 0
    for slot in downs:
        for cell in slot.cells:
            r, c = divmod(cell, width)
            if rows[r][c] != ".":
                continue
            rows[r] = rows[r][:c] + full[r][c] + rows[r][c + 1 :]
            paths = [("/api/suggest", suggest_ms), ("/api/domains", domains_ms)]
            for path, times in paths if typed % 2 else paths[::-1]:  # alternate which goes first
                start = time.perf_counter()
                response = clients[path].post(path, json={"grid": rows, "slot": slot.name, "k": 40})
                times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200, response.text
            typed += 1
            if typed >= n_keys:
                break
        if typed >= n_keys:
            break
    return {
        "keystrokes": typed,
        "suggest_ms": {"p50": pct(suggest_ms, 0.5), "p95": pct(suggest_ms, 0.95)},
        "domains_ms (ranking only, for comparison)": {"p50": pct(domains_ms, 0.5), "p95": pct(domains_ms, 0.95)},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--k", type=int, default=40)
    parser.add_argument("--budget", type=float, default=10.0, help="labelling budget per slot, seconds")
    parser.add_argument("--slots", type=int, default=None, help="only the first N open slots of each grid")
    parser.add_argument("--themeless-words", type=int, default=20)
    parser.add_argument("--themeless-budget", type=float, default=60.0)
    parser.add_argument(
        "--themeless-seeds",
        type=int,
        default=10,
        help="whole fills at seeds 0..N-1 for the ratio to a median seed's fill (default 10)",
    )
    parser.add_argument("--keystrokes", type=int, default=60)
    parser.add_argument(
        "--open-slots", type=int, default=0, help="open part: N slots spread over each grid (default 0: every slot)"
    )
    parser.add_argument("--fill-seeds", type=int, default=6, help="fills part: seeds per grid (default 6)")
    parser.add_argument(
        "--fill-processes", default="1,2", help="fills part: processes to fill with, interleaved (default 1,2)"
    )
    parser.add_argument(
        "--open-variants",
        default="2,2o",
        help="open part: labelling variants, interleaved (default 2,2o: the new method and the old, two processes)",
    )
    parser.add_argument("--part", default="labels,themeless,keys")
    parser.add_argument(
        "--grids",
        default=None,
        help="comma-separated grid names (default: all), e.g. themed-1, 15x15-themeless-01, open-1",
    )
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    words = load_word_list()
    parts = set(args.part.split(","))
    import os

    out: dict = {"k": args.k, "budget_s": args.budget, "load_average_at_start": os.getloadavg()}
    print(f"load average at start {os.getloadavg()}", flush=True)
    if "labels" in parts:
        for path in GRIDS:
            if args.grids and path.stem not in args.grids.split(","):
                continue
            rows = partly_filled(path)
            for mode in ("warm", "cold"):
                if mode == "warm":
                    with verify._recent_lock:
                        verify._recent_by_layout.clear()
                row = label_slots(rows, words, args.k, args.budget, mode == "cold", args.slots)
                out[f"{path.stem} {mode}"] = row
                print(
                    f"{path.stem} {mode}: {row['slots']} open slots, {row['words']} words shown "
                    f"({row['viable']} viable, {row['dead_end']} dead ends, {row['unsettled']} unsettled); "
                    f"first list p50 {row['first_list_s']['p50'] * 1000:.0f} ms p95 "
                    f"{row['first_list_s']['p95'] * 1000:.0f} ms; all {args.k} labelled p50 "
                    f"{row['all_labelled_s']['p50']:.2f} s p95 {row['all_labelled_s']['p95']:.2f} s max "
                    f"{row['all_labelled_s']['max']:.2f} s (CPU p50 {row['cpu_s']['p50']:.2f} s p95 "
                    f"{row['cpu_s']['p95']:.2f} s); viable above dead ends: {row['viable_above_dead']}; share of "
                    f"checked words dropped by probing: median {row['dropped_by_probing']['median']:.2f}, max "
                    f"{row['dropped_by_probing']['max']:.2f}; slowest {row['slowest'][:3]}",
                    flush=True,
                )
    if "themeless" in parts:
        row = themeless(words, args.themeless_words, args.themeless_budget, fill_seeds=args.themeless_seeds)
        out["themeless"] = row
        print(
            f"themeless 1A: label {args.themeless_words} words {[round(s, 2) for s in row['label_s']]} s "
            f"(settled {row['settled']}), one whole fill {[round(s, 3) for s in row['fill_s']]} s, "
            f"ratio (medians) {row['ratio_median']:.1f}x; whole fill at seeds 0-{len(row['fill_s_by_seed']) - 1} "
            f"{[round(s, 2) for s in row['fill_s_by_seed']]} s, ratio to their median "
            f"{row['ratio_to_median_seed']:.1f}x",
            flush=True,
        )
    if "open" in parts:
        variants = args.open_variants.split(",")
        if len(set(variants)) < len(variants):
            parser.error(f"--open-variants names a variant twice ({args.open_variants}): its rows would be merged")
        found = open_grids(
            words, args.k, args.budget, args.open_slots or None, variants, args.grids.split(",") if args.grids else None
        )
        out["open"] = found
        for grid_name, by_variant in found.items():
            for variant, row in by_variant.items():
                t = row["all_labelled_s"]
                print(
                    f"open {grid_name}, {variant} ({'old: joint to first fill' if variant.endswith('o') else 'new: enumeration'}"
                    f", {processes_of(variant)} process(es)): {row['slots']} slots, {row['words']} words, "
                    f"{row['unsettled']} unsettled; all {args.k} labelled p50 {t['p50']:.2f} s p95 {t['p95']:.2f} s "
                    f"max {t['max']:.2f} s ({row['within_target']}/{row['slots']} slots within the "
                    f"{args.budget:g} s budget); CPU p50 {row['cpu_s_p50']:.1f} s; failures p50 "
                    f"{row['fails_p50']:.0f}, total {row['fails_total']}, nodes {row['nodes_total']}; slowest "
                    f"{row['slowest'][:3]}",
                    flush=True,
                )
                per_label = row["failures_per_label"]
                estimate = row["est_slot_s_on_two_idle_cores"]
                print(
                    f"open {grid_name}, {variant}: labelling time per slot: {row['labels']} labels, "
                    f"{row['labels_per_1k_failures']:.3f} labels per 1k failures ("
                    + (f"{per_label:.0f} failures a label" if per_label else f"none in {row['fails_total']} failures")
                    + f"), {row['cpu_us_per_failure']:.0f} CPU us a failure: all {args.k} words of a slot "
                    + (f"~{estimate:.1f} s" if estimate else "n/a")
                    + f" on two idle cores; per slot (s): {[round(x, 2) for x in row['per_slot_s']]}",
                    flush=True,
                )
            one = by_variant.get("1")
            for variant, two in by_variant.items():
                if one is None or not variant.isdigit() or variant == "1":
                    continue
                n = int(variant)
                print(
                    f"open {grid_name} multi-core scaling, 1 process (variant 1) vs {n} (variant {variant}): time "
                    f"until all labelled p50 {one['all_labelled_s']['p50']:.2f} s vs "
                    f"{two['all_labelled_s']['p50']:.2f} s "
                    f"({one['all_labelled_s']['p50'] / max(two['all_labelled_s']['p50'], 1e-9):.2f}x); labels "
                    f"{one['labels']} vs {two['labels']} ({two['labels'] / max(one['labels'], 1):.2f}x); CPU p50 "
                    f"{one['cpu_s_p50']:.1f} s vs {two['cpu_s_p50']:.1f} s; failures {one['fails_total']} vs "
                    f"{two['fails_total']} (a busy machine gives {n} processes fewer cores: compare CPU; more "
                    f"processes than the {os.cpu_count()} cores only add overhead)",
                    flush=True,
                )
    if "fills" in parts:
        fill_processes = tuple(int(n) for n in args.fill_processes.split(","))
        found = fill_scaling(words, args.fill_seeds, args.grids.split(",") if args.grids else None, fill_processes)
        out["fills"] = found
        for grid_name, by_variant in found.items():
            print(
                f"fill {grid_name} seeds 0-{args.fill_seeds - 1}: "
                + "; ".join(
                    f"{n} process(es) median {statistics.median(row['seconds']):.2f} s max {max(row['seconds']):.2f} s "
                    f"(CPU {statistics.median(row['cpu_s']):.2f} s) {[round(x, 2) for x in row['seconds']]}"
                    for n, row in by_variant.items()
                ),
                flush=True,
            )
    if "keys" in parts:
        row = keystrokes(words, args.keystrokes)
        out["keys"] = row
        print(
            f"keystroke -> /api/suggest (k=40, probed) over {row['keystrokes']} keystrokes: p50 "
            f"{row['suggest_ms']['p50']:.1f} ms, p95 {row['suggest_ms']['p95']:.1f} ms; /api/domains (ranking "
            f"only): p50 {row['domains_ms (ranking only, for comparison)']['p50']:.1f} ms, p95 "
            f"{row['domains_ms (ranking only, for comparison)']['p95']:.1f} ms",
            flush=True,
        )
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
