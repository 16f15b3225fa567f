"""Benchmark `xwcp design` on theme sets from published 15x15 puzzles: time to the first and to --count designs,
and the designs' fill quality against the published fill's, scored with the same list.

Runs the whole command (`python -m xwcp design --theme ... --count N --format json`) once per set
and seed, so the seconds include loading the list. Every design is checked (`check_design`:
symmetric, connected, entries 3+ letters, at most --max-words, theme entries whole, every other
entry a listed word, none twice) and the blocks of every two designs of a run must differ.
Prints one row per run and a summary; `--out FILE` writes the rows as JSON.

The published quality is in bench/design_themes.json; `--published DIR` recomputes it from the
.puz files (puzpy's testfiles folder, https://github.com/alexdej/puzpy) with the same list.

Usage:
    PYTHONPATH=. python3 bench/design_bench.py [--sets NAME,...] [--count 2] [--seeds 0,1]
        [--quality-time 20] [--time-limit S] [--published DIR] [--out FILE] [-- extra xwcp design options]
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
THEMES_FILE = ROOT / "bench" / "design_themes.json"
PUZ_BY_SET = {
    "avclub-2011-06-22": "av110622.puz",
    "crossynergy-2008-09-04": "cs080904.puz",
    "nyt-1996-11-05": "nyt_nov0596.puz",
    "nyt-2008-03-10": "nyt_partlyfilled.puz",
    "wapo-2005-12-06": "washpost.puz",
}


def published_quality(path: Path, themes: list[str], words) -> dict:
    """A published puzzle's own fill scored with `words`: entries other than the theme entries, their mean and
    minimum over the listed ones, and how many are not listed (below the list's floor or absent)."""
    import puz

    from xwcp.model import Grid, find_slots

    p = puz.read(str(path))
    grid = Grid(p.width, p.height, tuple("#" if ch == "." else ch for ch in p.solution))
    slots = find_slots(grid)
    others = ["".join(grid.cells[c] for c in s.cells) for s in slots]
    for word in themes:
        others.remove(word)
    scores = [words.score(e) for e in others]
    listed = [x for x in scores if x is not None]
    return {
        "words": len(slots),
        "blocks": grid.n_blocks,
        "other_entries": len(others),
        "unlisted": len(others) - len(listed),
        "mean_listed": round(sum(listed) / len(listed), 1),
        "min_listed": min(listed),
    }


def run_one(
    themes: list[str], count: int, seed: int, quality_time_s: float, time_limit_s: float | None, extra: list[str]
) -> dict:
    argv = [
        sys.executable,
        "-m",
        "xwcp",
        "design",
        "--count",
        str(count),
        "--seed",
        str(seed),
        "--quality-time",
        str(quality_time_s),
        "--format",
        "json",
    ]
    for word in themes:
        argv += ["--theme", word]
    if time_limit_s is not None:
        argv += ["--time-limit", str(time_limit_s)]
    argv += extra
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    wall_s = time.perf_counter() - start
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"status": f"error {proc.returncode}: {proc.stderr.strip()[-300:]}", "wall_s": wall_s, "designs": []}
    data["wall_s"] = wall_s
    data["exit"] = proc.returncode
    return data


def check_run(data: dict, themes: list[str], words, min_diff: int) -> list[str]:
    """Every problem with the designs of one run (empty when all are valid and pairwise different)."""
    from xwcp.designer.check import check_design
    from xwcp.designer.rules import Rules, Style, Symmetry
    from xwcp.model import grid_from_rows

    rules_json = data["rules"]
    width, height = (int(x) for x in rules_json["size"].split("x"))
    rules = Rules(
        width,
        height,
        Symmetry(rules_json["symmetry"]),
        Style(rules_json["style"]),
        max_words=rules_json["max_words"],
        max_blocks=rules_json["max_blocks"],
        min_words=rules_json["min_words"],
        max_fill_length=rules_json["max_length"],
    )
    problems = []
    grids = []
    for index, design in enumerate(data["designs"], start=1):
        grid = grid_from_rows(design["grid"])
        grids.append(grid)
        problems += [f"design {index}: {p}" for p in check_design(grid, rules, themes, words)]
    for i in range(len(grids)):
        for j in range(i + 1, len(grids)):
            differ = sum((a == "#") != (b == "#") for a, b in zip(grids[i].cells, grids[j].cells))
            if differ < min_diff:
                problems.append(f"designs {i + 1} and {j + 1} differ in {differ} cells' blocks (< {min_diff})")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", help="comma-separated set names (default: all in design_themes.json)")
    parser.add_argument("--count", type=int, default=2)
    parser.add_argument("--seeds", default="0", help="comma-separated seeds (default 0)")
    parser.add_argument("--quality-time", type=float, default=20.0)
    parser.add_argument("--time-limit", type=float, default=None, help="default: the command's (120 s a design)")
    parser.add_argument("--published", metavar="DIR", help="puzpy's testfiles folder: recompute the published quality")
    parser.add_argument("--out", metavar="FILE", help="write the rows as JSON")
    parser.add_argument("extra", nargs="*", help="more `xwcp design` options (after --)")
    args = parser.parse_args(argv)

    import xwcp

    words = xwcp.load_word_list()
    sets = json.loads(THEMES_FILE.read_text())["sets"]
    if args.sets:
        wanted = args.sets.split(",")
        sets = [s for s in sets if s["name"] in wanted]
    print(
        f"# load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}  "
        f"count {args.count}, quality time {args.quality_time:g} s, extra {' '.join(args.extra) or '-'}"
    )
    print(
        f"{'set':<24} {'seed':>4} {'status':<8} {'n':>2} {'first_s':>7} {'count_s':>7} {'wall_s':>6} {'pats':>5} "
        f"{'words':>9} {'blocks':>9} {'min':>7} {'mean':>11} {'published':>18} {'valid':>5}"
    )
    rows = []
    for entry in sets:
        published = entry["published"]
        if args.published:
            published = published_quality(Path(args.published) / PUZ_BY_SET[entry["name"]], entry["themes"], words)
        for seed in (int(s) for s in args.seeds.split(",")):
            data = run_one(entry["themes"], args.count, seed, args.quality_time, args.time_limit, args.extra)
            designs = data.get("designs", [])
            problems = check_run(data, entry["themes"], words, 8) if designs else []
            first_s = min((d["found_s"] for d in designs), default=None)
            count_s = max((d["seconds"] for d in designs), default=None) if len(designs) >= args.count else None
            row = {
                "set": entry["name"],
                "seed": seed,
                "status": data.get("status"),
                "designs": len(designs),
                "first_s": first_s,
                "count_s": count_s,
                "wall_s": round(data["wall_s"], 2),
                "patterns": data.get("stats", {}).get("patterns"),
                "words": [d["words"] for d in designs],
                "blocks": [d["blocks"] for d in designs],
                "min": [d["quality"]["min_score"] for d in designs],
                "mean": [d["quality"]["mean_score"] for d in designs],
                "published": published,
                "problems": problems,
                "notes": data.get("notes", []),
            }
            rows.append(row)
            pub = f"{published['mean_listed']:.1f} ({published['unlisted']} unl.)"
            print(
                f"{entry['name']:<24} {seed:>4} {str(row['status']):<8} {len(designs):>2} "
                f"{first_s if first_s is not None else '-':>7} {count_s if count_s is not None else '-':>7} "
                f"{row['wall_s']:>6.1f} {row['patterns'] or 0:>5} {str(row['words']):>9} {str(row['blocks']):>9} "
                f"{str(row['min']):>7} {str(row['mean']):>11} {pub:>18} {'yes' if not problems else 'NO':>5}",
                flush=True,
            )
            for problem in problems[:5]:
                print(f"    {problem}")
    ok = [r for r in rows if r["designs"] >= args.count and not r["problems"]]
    firsts = sorted(r["first_s"] for r in rows if r["first_s"] is not None)
    counts = sorted(r["count_s"] for r in rows if r["count_s"] is not None)
    means = [m for r in rows for m in r["mean"]]
    pubs = [r["published"]["mean_listed"] for r in rows]
    print(
        f"# {len(ok)}/{len(rows)} runs gave {args.count} valid designs; first design: median "
        f"{firsts[len(firsts) // 2] if firsts else '-'} s, worst {firsts[-1] if firsts else '-'} s; "
        f"{args.count} designs: median {counts[len(counts) // 2] if counts else '-'} s, worst "
        f"{counts[-1] if counts else '-'} s; design mean score {sum(means) / max(1, len(means)):.1f} "
        f"(every entry listed) vs published {sum(pubs) / max(1, len(pubs)):.1f} over their listed entries"
    )
    print(f"# load after: {os.getloadavg()[0]:.2f}")
    if args.out:
        Path(args.out).write_text(json.dumps(rows, indent=1))
    return 0 if len(ok) == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
