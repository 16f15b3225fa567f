"""Issue 25's candidate table: bound-raising and exact solvers against our own search, same grids, one run.

Usage: PYTHONPATH=. python3 bench/candidates.py --base BASE_CHECKOUT [--time-limit 60] [--cases a,b]
                                               [--candidates x,y] > results.jsonl
       python3 bench/candidates.py --table results.jsonl      (the markdown table of a results file)

Each (case, candidate) runs in its own process (`--one CASE CANDIDATE`), killed 30 s past the
limit, and prints one row: status, best (mean at the floor for quality cases), bound, model size
and build seconds. Every fill is checked with `check_fill`. Cases:
  h15.01@90, h15.02@80, h15.06@80, d01@90
                        quality at a fixed floor (Herald 15s and the stock daily, default list): best mean
                        and bound (the last two only for quality / quality-base: --cases)
  tl@50                 the stock themeless' quality (floor 50): floor, entries at it, mean
  tl@55                 is there a fill of the stock themeless at floor 55? (no method had answered)
  23.06, 23.10          van Beek 23x23, SCOWL-55, no word twice: fill or proof
  tl-1A                 themeless 1A fixed to each of three hard words (STDTEST, HDMIOUT viable,
                        SEXHAIR a dead end): one fill or proof per word (what verification needs)
Candidates (not every one runs on every case; see CANDIDATES_BY_KIND):
  quality     `xwcp fill --quality` (the whole command, this checkout)
  quality-base  the same from the checkout named by --base (main before issue 25), run in its own folder
  auto        `xwcp fill` (auto: our search raced against a second copy), whole command
  backtrack   (tl-1A) our compiled search with scores ignored, as `suggest --verify` runs it
  cpsat-lb    CP-SAT over the whole grid, 2 workers named max_lp + lb_tree_search, hinted with a fill
  cpsat-core  CP-SAT over the whole grid, 2 workers named core + max_lp, hinted
  cpsat       the cpsat backend (shortlists), 2 workers
  sat         the sat backend (shortlists, portfolio of 2)
  toulbar2    pytoulbar2 1.4, VAC, hungarian AllDifferent per length, ub from a fill (issue's model)
  toulbar2-relaxed  the same without "no word twice" (its optimum bounds the true one)
  rc2         python-sat RC2 (MaxSAT) over the exact CNF, soft units weighted 100 - score
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SCOWL = ROOT / "bench/wordlists/scowl-english-55.words.txt"
VB = ROOT / "models/vanbeek"
TL = ROOT / "models/15x15-themeless-01.txt"
CASES = {
    "h15.01@90": ("quality", VB / "15.01.txt", None, 90),
    "h15.02@80": ("quality", VB / "15.02.txt", None, 80),
    "h15.06@80": ("quality", VB / "15.06.txt", None, 80),
    "d01@90": ("quality", ROOT / "models/15x15-daily-01.txt", None, 90),
    "tl@50": ("themeless", TL, None, 50),
    "tl@55": ("csp", TL, None, 55),
    "23.06": ("csp", VB / "23.06.txt", SCOWL, 0),
    "23.10": ("csp", VB / "23.10.txt", SCOWL, 0),
    "tl-1A": ("words", TL, None, 50),
}
CANDIDATES_BY_KIND = {
    "quality": ["quality", "quality-base", "cpsat-lb", "cpsat-core", "toulbar2", "toulbar2-relaxed", "rc2"],
    "themeless": ["quality", "quality-base", "cpsat-lb", "toulbar2"],
    "csp": ["auto", "cpsat", "sat", "toulbar2"],
    "words": ["backtrack", "toulbar2"],
}
HARD_WORDS = ("STDTEST", "HDMIOUT", "SEXHAIR")


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def _problem(case: str):
    from xwcp.compile.problem import compile_problem
    from xwcp.model import read_grid
    from xwcp.words.wordlist import load_word_list

    _, grid, words, floor = CASES[case]
    return compile_problem(read_grid(grid), load_word_list(str(words) if words else None), min_score=floor)


def _incumbent(problem, seconds: float = 2.0):
    """A fill at the floor by our search leaning on scores (the hint / upper bound every model starts from)."""
    from xwcp.backends import backtrack
    from xwcp.engine.result import Limits, entry_scores

    best = None
    for seed in range(3):
        result = backtrack.fill(problem, Limits(time_limit_s=seconds, seed=seed, extra={"score_weight": 0.5}))
        if result.entries:
            total = sum(entry_scores(problem, result.entries))
            if best is None or total > best[0]:
                best = (total, result.entries)
    return best


def _row(**kw) -> dict:
    return kw


def run_whole(case: str, candidate: str, time_limit_s: float) -> dict:
    """`xwcp fill` (quality or auto) as a whole command; the fill checked against the case's problem."""
    from xwcp.engine.result import check_fill, measure_quality

    kind, grid, words, floor = CASES[case]
    tree = Path(os.environ["XWCP_CANDIDATES_BASE"]) if candidate == "quality-base" else ROOT
    argv = [
        sys.executable,
        "-m",
        "xwcp",
        "fill",
        str(grid),
        "--format",
        "json",
        "--time-limit",
        f"{time_limit_s:g}",
        "--min-score",
        str(floor),
    ]
    if words:
        argv += ["--words", str(words)]
    if candidate.startswith("quality"):
        argv.append("--quality")
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)))
    wall = time.perf_counter() - start
    try:
        data = json.loads(done.stdout)
    except json.JSONDecodeError:
        return _row(status=f"error exit {done.returncode}", wall_s=wall)
    status = data.get("status")
    row = _row(status=status, wall_s=wall)
    if status == "filled":
        problem = _problem(case)
        rows = data["grid"]
        width = problem.grid.width
        entries = tuple("".join(rows[c // width][c % width] for c in slot.cells) for slot in problem.slots)
        if check_fill(problem, entries):
            return _row(status="error invalid fill", wall_s=wall)
        q = measure_quality(problem, entries)
        row.update(best=round(q.mean_score, 3), floor=q.min_score, n_at_min=q.n_at_min)
        if "quality" in data:
            row.update(bound=data["quality"].get("mean_bound"), floor_optimal=data["quality"].get("floor_optimal"))
    return row


def run_cpsat_whole(case: str, candidate: str, time_limit_s: float) -> dict:
    import numpy as np
    from ortools.sat.python import cp_model

    from xwcp.backends import cpsat
    from xwcp.backends._common import entries_from_word_ids
    from xwcp.backends._shortlist import Shortlists
    from xwcp.engine.ac3 import propagate
    from xwcp.engine.result import check_fill, entry_scores

    problem = _problem(case)
    incumbent = _incumbent(problem)
    n = len(problem.open_slot_ids)
    start = time.perf_counter()
    prop = propagate(problem)
    word_ids = {s: np.flatnonzero(prop.domains[s]).astype(np.int32) for s in problem.open_slot_ids}
    model = cpsat._build_model(
        problem, Shortlists(word_ids, True, True), stop=lambda: time.perf_counter() - start > time_limit_s
    )
    if model is None:
        return _row(status="limit (building)", build_s=time.perf_counter() - start)
    objective = []
    for s in problem.open_slot_ids:
        scores = problem.words.bucket(problem.slots[s].length).scores[word_ids[s]]
        xs = model.xs_by_slot[s]
        objective.extend(int(c) * x for c, x in zip(scores.tolist(), xs) if c)
        if incumbent:
            where = np.flatnonzero(word_ids[s] == problem.words.word_id(incumbent[1][s]))
            model.cp.add_hint(xs[int(where[0])], True)
    model.cp.maximize(sum(objective))
    build_s = time.perf_counter() - start
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.max_time_in_seconds = max(1.0, time_limit_s - build_s)
    params.num_workers = 2
    for key, value in cpsat.NATIVE_DEFAULTS.items():
        setattr(params, key, value)
    for name in {"cpsat-lb": ("max_lp", "lb_tree_search"), "cpsat-core": ("core", "max_lp")}[candidate]:
        params.subsolvers.append(name)
    code = solver.solve(model.cp)
    status = solver.status_name(code)
    row = _row(
        status=status,
        build_s=round(build_s, 2),
        vars=model.n_vars,
        constraints=model.n_constraints,
        incumbent=round(incumbent[0] / n, 3) if incumbent else None,
    )
    if status in ("OPTIMAL", "FEASIBLE"):
        entries = entries_from_word_ids(problem, model.decode(solver.boolean_value))
        if check_fill(problem, entries):
            row["note"] = "best repeats a word or breaks a rule"
        else:
            row["best"] = round(sum(entry_scores(problem, entries)) / n, 3)
        row["bound"] = round(solver.best_objective_bound / n, 3)
    return row


def run_backend(case: str, candidate: str, time_limit_s: float) -> dict:
    from xwcp.backends import fill
    from xwcp.engine.result import Limits

    problem = _problem(case)
    result = fill(problem, candidate, Limits(time_limit_s=time_limit_s, threads=2))
    return _row(
        status=result.status.value,
        seconds=round(result.stats.wall_time_s, 2),
        **{k: v for k, v in result.stats.extra.items() if k in ("vars", "constraints", "k")},
    )


def run_toulbar2(case: str, candidate: str, time_limit_s: float, problem=None) -> dict:
    import tb2_model

    from xwcp.engine.result import check_fill, entry_scores

    problem = problem or _problem(case)
    kind = CASES[case][0]
    scored = kind in ("quality", "themeless")
    n = len(problem.open_slot_ids)
    incumbent = _incumbent(problem) if scored else None
    ub = tb2_model.TOP_SCORE * n - incumbent[0] + 1 if incumbent else None
    start = time.perf_counter()
    cfn, values, stats = tb2_model.build(
        problem, ub=ub, scored=scored, alldiff=None if candidate == "toulbar2-relaxed" else "hungarian"
    )
    row = _row(**{k: (round(v, 2) if isinstance(v, float) else v) for k, v in stats.items()})
    if cfn is None:
        return _row(status="unfillable (AC)", **row)
    left = max(1, int(time_limit_s - (time.perf_counter() - start)))
    print(json.dumps({**row, "progress": "built"}), flush=True)
    solved = cfn.Solve(timeLimit=left)
    row["solve_s"] = round(time.perf_counter() - start - stats["build_s"], 2)
    dual = cfn.GetDDualBound()
    if scored:
        row["bound"] = round(tb2_model.TOP_SCORE - dual / n, 3)
        row["incumbent"] = round(incumbent[0] / n, 3)
    if solved is None:
        # no solution below the ub: optimal = the incumbent if the search finished, else unknown
        row["status"] = "limit" if row["solve_s"] >= left - 0.5 else ("incumbent optimal" if scored else "unfillable")
        return row
    entries = tb2_model.decode(problem, values, {s: i for i, s in enumerate(problem.open_slot_ids)}, solved[0])
    violations = check_fill(problem, entries)
    row["status"] = "filled" if not violations else "relaxed fill (" + violations[0][:40] + ")"
    if scored:
        row["best"] = round(sum(entry_scores(problem, entries)) / n, 3)
    return row


def run_rc2(case: str, candidate: str, time_limit_s: float) -> dict:
    """RC2 over the exact CNF (sat backend's encoder, every word, eager no-word-twice) with soft units."""
    import numpy as np
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    from xwcp.backends import sat
    from xwcp.backends._shortlist import Shortlists
    from xwcp.engine.ac3 import propagate
    from xwcp.engine.result import check_fill, entry_scores

    problem = _problem(case)
    n = len(problem.open_slot_ids)
    start = time.perf_counter()
    prop = propagate(problem)
    word_ids = {s: np.flatnonzero(prop.domains[s]).astype(np.int32) for s in problem.open_slot_ids}
    encoder, clauses = sat._build_model(problem, Shortlists(word_ids, True, True), eager_dupes=True, guarded=False)
    wcnf = WCNF()
    wcnf.extend(clauses)
    for s in problem.open_slot_ids:
        scores = problem.words.bucket(problem.slots[s].length).scores[encoder.words_by_slot[s]]
        for x, score in zip(encoder.vars_by_slot[s].tolist(), scores.tolist()):
            if score < 100:
                wcnf.append([-x], weight=100 - int(score))
    build_s = time.perf_counter() - start
    print(json.dumps({"progress": "built", "build_s": round(build_s, 2), "clauses": len(clauses)}), flush=True)
    with RC2(wcnf, solver="g4") as rc2:
        model = rc2.compute()
    if model is None:
        return _row(status="unfillable", build_s=round(build_s, 2), clauses=len(clauses))
    true = set(v for v in model if v > 0)
    entries = list(problem.fixed_text_by_slot.get(s.id, "") for s in problem.slots)
    for s in problem.open_slot_ids:
        k = next(i for i, x in enumerate(encoder.vars_by_slot[s].tolist()) if x in true)
        entries[s] = problem.words.bucket(problem.slots[s].length).text(int(encoder.words_by_slot[s][k]))
    ok = not check_fill(problem, tuple(entries))
    best = round(sum(entry_scores(problem, entries)) / n, 3)
    return _row(
        status="optimal" if ok else "error", best=best, bound=best, build_s=round(build_s, 2), clauses=len(clauses)
    )


def run_words(case: str, candidate: str, time_limit_s: float) -> dict:
    """One fill or proof per hard 1A word (each a third of the limit)."""
    import numpy as np

    from xwcp.backends import fill
    from xwcp.engine.result import Limits

    base = _problem(case)
    slot = base.slot_by_name("1A")
    out = {}
    for word in HARD_WORDS:
        bucket = base.words.bucket(slot.length)
        mask = np.zeros(bucket.n_words, bool)
        mask[base.words.word_id(word)] = True
        domains = list(base.domains)
        mask &= np.asarray(domains[slot.id], bool)
        mask.flags.writeable = False
        domains[slot.id] = mask
        problem = replace(base, domains=tuple(domains))
        start = time.perf_counter()
        if candidate == "toulbar2":
            row = run_toulbar2(case, candidate, time_limit_s / len(HARD_WORDS), problem)
            status = row["status"]
        else:
            status = fill(
                problem, "backtrack", Limits(time_limit_s=time_limit_s / len(HARD_WORDS), extra={"score_weight": 0.0})
            ).status.value
        out[word] = f"{status} {time.perf_counter() - start:.2f}s"
    return _row(status="; ".join(f"{w} {v}" for w, v in out.items()))


def run_one(case: str, candidate: str, time_limit_s: float) -> dict:
    if candidate in ("quality", "quality-base", "auto") and CASES[case][0] != "words":
        return run_whole(case, candidate, time_limit_s)
    if CASES[case][0] == "words":
        return run_words(case, candidate, time_limit_s)
    if candidate.startswith("cpsat-"):
        return run_cpsat_whole(case, candidate, time_limit_s)
    if candidate.startswith("toulbar2"):
        return run_toulbar2(case, candidate, time_limit_s)
    if candidate == "rc2":
        return run_rc2(case, candidate, time_limit_s)
    return run_backend(case, candidate, time_limit_s)


def markdown(path: Path) -> str:
    """The rows of a results file (this script's output) as a markdown table."""
    lines = [
        "| case | candidate | answer | best | bound | model | build s | wall s |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for text in path.read_text().splitlines():
        if not text.startswith("{"):
            continue
        row = json.loads(text)
        status = row.get("status", "no answer (the process ended after building)")
        if row.get("floor") is not None:
            status += f", floor {row['floor']} ({row.get('n_at_min')} at it)"
        if row.get("floor_optimal"):
            status += ", floor proven"
        if "table_entries" in row:
            model = f"{row['values']:,} values, {row['table_entries'] / 1e6:.0f}M table entries"
        elif "clauses" in row:
            model = f"{row['clauses']:,} clauses"
        elif "vars" in row:
            model = (
                f"{row['vars']:,} vars"
                + (f", {row['constraints']:,} constraints" if "constraints" in row else "")
                + (f", K={row['k']}" if "k" in row else "")
            )
        else:
            model = ""
        best = row.get("best", "")
        if row.get("incumbent") is not None and best == row.get("incumbent"):
            best = f"{best} (= hint)"
        lines.append(
            f"| {row['case']} | {row['candidate']} | {status} | {best} | {row.get('bound', '') or ''} | {model} "
            f"| {row.get('build_s', '')} | {row.get('wall_s', '')} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--cases", default=",".join(c for c in CASES if c not in ("h15.06@80", "d01@90")))
    parser.add_argument("--candidates", default="")
    parser.add_argument("--one", nargs=2, metavar=("CASE", "CANDIDATE"))
    parser.add_argument("--base", type=Path, help="checkout for quality-base (built in place)")
    parser.add_argument("--table", type=Path, help="print a results file as a markdown table and exit")
    args = parser.parse_args()
    if args.table:
        print(markdown(args.table))
        return 0
    if args.base:
        os.environ["XWCP_CANDIDATES_BASE"] = str(args.base.resolve())
    if args.one:
        start = time.perf_counter()
        row = run_one(*args.one, args.time_limit)
        row.setdefault("wall_s", round(time.perf_counter() - start, 2))
        print(json.dumps(row), flush=True)
        return 0
    wanted = set(filter(None, args.candidates.split(",")))
    print(f"# {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}  {uptime()}", flush=True)
    for case in args.cases.split(","):
        for candidate in CANDIDATES_BY_KIND[CASES[case][0]]:
            if wanted and candidate not in wanted:
                continue
            start = time.perf_counter()
            try:
                done = subprocess.run(
                    [sys.executable, __file__, "--one", case, candidate, "--time-limit", f"{args.time_limit:g}"],
                    capture_output=True,
                    text=True,
                    timeout=args.time_limit + 30,
                )
                lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
                row = json.loads(lines[-1]) if lines else {"status": f"error: {done.stderr.strip()[-160:]}"}
            except subprocess.TimeoutExpired as exc:
                out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
                lines = [line for line in out.splitlines() if line.startswith("{")]
                row = {"status": "limit (killed)", **(json.loads(lines[-1]) if lines else {})}
            row["wall_s"] = round(time.perf_counter() - start, 1)
            print(json.dumps({"case": case, "candidate": candidate, **row}), flush=True)
    print(f"# end {time.strftime('%H:%M:%S UTC', time.gmtime())}  {uptime()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
