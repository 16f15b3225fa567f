"""Issue 17's target table, measured in one run with the peers side by side (Qxw, MiniZinc + Gecode).

Usage: PYTHONPATH=. python3 bench/speed2.py [--sections open,startup,verify,seeds,biglist,herald]
                                            [--time-limit S] [--base DIR] [--out FILE]

Sections (each prints its rows as it goes, then the summary table at the end):
  open     XCSP lex 4x8, open 6x6 with the default list cut to its best 100k, open 7x7 at 50k:
           whole `xwcp fill` command (auto) against Qxw and Gecode, one run each, interleaved.
  startup  whole `xwcp fill` on models/5x5-open.txt and the 4x4 proof against `qxw -b`, the median
           of 5 interleaved runs each, with `python -c pass` (the interpreter's floor, site and .pth
           files included) and `python -S -c pass` in the same loop. The package's bytecode is
           compiled first, as `pip install` does (with PYTHONDONTWRITEBYTECODE set, as on some
           machines, every run would otherwise compile every module from source).
  verify   `xwcp suggest --slot S --verify -k 20` on the stock themeless (1A, 36A, 63A) and 1A of three
           Herald 15s, against the same grid's whole `xwcp fill` command (target: under 3x); with
           --base, the base checkout's same command too.
  seeds    the stock themeless with seeds 0-9 (whole command): max/median (target: under 3).
  biglist  the first load of a 50 MB list (built here from the repo's lists plus two-word phrases,
           in a temporary folder) with an empty cache, wall time and peak memory, against Qxw reading
           the same list for a 3x3 deck (target: under 5x Qxw, under 500 MB).
  herald   no-regression check: Herald 15.01-15.05 and 21.06-21.10, whole command, this checkout
           against `--base DIR` (a checkout of the code before issue 17, built in place), same run.

Every xwcp fill is checked with `check_fill` (by the bench helpers of xwcp/bench/, or here).
The machine is shared: the script prints `uptime` before and after, and ratios measured in the
same run are what to compare.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from xwcp.bench import (  # noqa: E402
    Instance,
    WordLists,
    WordSource,
    load_instance,
    peer_word_file,
    prepare_cli_inputs,
    run_cli_checked,
    run_peer_checked,
)
from xwcp.bench.peers import peer_available  # noqa: E402

PEERS = [p for p in ("qxw", "gecode") if peer_available(p)]
SUMMARY: list[str] = []


def say(text: str) -> None:
    print(text, flush=True)


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run_cmd(
    argv: list[str], env: dict | None = None, timeout: float = 600, cwd: Path = ROOT
) -> tuple[float, str, float, int]:
    """(wall s, stdout, peak RSS MiB, exit code) of a command run in `cwd`, peak by GNU time when present.

    `python -m xwcp` imports the package from its working folder before PYTHONPATH, so a run of
    another checkout must run in that checkout (`cwd`), with absolute paths to its inputs."""
    prefix = ["/usr/bin/time", "-f", "%M"] if Path("/usr/bin/time").exists() else []
    start = time.perf_counter()
    done = subprocess.run(prefix + argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    wall = time.perf_counter() - start
    peak = float("nan")
    if prefix:
        try:
            peak = int(done.stderr.strip().splitlines()[-1]) / 1024
        except (ValueError, IndexError):
            pass
    return wall, done.stdout, peak, done.returncode


def xwcp_argv(*args: str, python_path: Path = ROOT) -> tuple[list[str], dict]:
    env = dict(os.environ, PYTHONPATH=str(python_path))
    return [sys.executable, "-m", "xwcp", *args], env


# ----- open grids --------------------------------------------------------------------------------


def section_open(time_limit_s: float) -> None:
    lists = WordLists()
    cases = [
        ("XCSP lex 4x8", Instance("open", "lex-4x8", ROOT / "bench/xcsp/Crossword-lex-vg-4-8.xml.xz", min_score=0)),
        (
            "open 6x6 @100k",
            Instance(
                "open", "open-6x6", ROOT / "bench/scaling/open-6x6.txt", words=WordSource(None, 100_000), min_score=50
            ),
        ),
        (
            "open 7x7 @50k",
            Instance(
                "open", "open-7x7", ROOT / "bench/scaling/open-7x7.txt", words=WordSource(None, 50_000), min_score=50
            ),
        ),
    ]
    for label, instance in cases:
        loaded = load_instance(instance, lists)
        prepare_cli_inputs(instance, loaded)
        ours = run_cli_checked(loaded, "auto", 0, time_limit_s)
        row = {"xwcp": ours}
        for peer in PEERS:
            row[peer] = run_peer_checked(loaded, peer, time_limit_s, peer_word_file(peer, loaded))
        cells = "  ".join(f"{name} {r['status']} {r['seconds']:.2f} s" for name, r in row.items())
        say(f"open  {label:16s} {cells}")
        assert ours.get("valid") in (None, True), ours
        qxw = row.get("qxw")
        ratio = (
            f"{ours['seconds'] / qxw['seconds']:.2f}"
            if qxw and qxw["status"] in ("filled", "unfillable") and ours["status"] in ("filled", "unfillable")
            else "-"
        )
        SUMMARY.append(
            f"| {label} | xwcp {ours['status']} {ours['seconds']:.2f} s | "
            + " | ".join(f"{p} {row[p]['status']} {row[p]['seconds']:.2f} s" for p in PEERS)
            + f" | ours/Qxw {ratio} |"
        )


# ----- start-up ----------------------------------------------------------------------------------


def section_startup(base: Path | None, repeats: int = 5) -> None:
    import compileall

    lists = WordLists()
    for tree in (ROOT, base):
        if tree is not None:
            compileall.compile_dir(str(tree / "xwcp"), quiet=1)
    for label, path in (("5x5 open", "models/5x5-open.txt"), ("4x4 proof", "models/4x4-unfillable.txt")):
        instance = Instance("startup", label, ROOT / path, min_score=50)
        loaded = load_instance(instance, lists)
        ours, qxw, before, floor, bare, ours_bare = [], [], [], [], [], []
        for _ in range(repeats):
            floor.append(run_cmd([sys.executable, "-c", "pass"])[0])
            bare.append(run_cmd([sys.executable, "-S", "-c", "pass"])[0])
            argv, env = xwcp_argv("fill", path, "--format", "json")
            ours_bare.append(run_cmd([argv[0], "-S", *argv[1:]], env)[0])  # no site: the quick path needs no package
            argv, env = xwcp_argv("fill", path, "--format", "json")
            wall, out, _, _ = run_cmd(argv, env)
            status = json.loads(out)["status"]
            ours.append(wall)
            if base is not None:
                argv, env = xwcp_argv("fill", str(ROOT / path), "--format", "json", python_path=base)
                before.append(run_cmd(argv, env, cwd=base)[0])
            if "qxw" in PEERS:
                r = run_peer_checked(loaded, "qxw", 30, peer_word_file("qxw", loaded))
                qxw.append(r["seconds"])
        o = statistics.median(ours)
        q = statistics.median(qxw) if qxw else float("nan")
        b = statistics.median(before) if before else float("nan")
        f, f_bare, o_bare = statistics.median(floor), statistics.median(bare), statistics.median(ours_bare)
        say(
            f"startup {label}: xwcp {status} median {o:.3f} s (before issue 17: {b:.3f} s), Qxw median {q:.3f} s, "
            f"ratio {o / q:.2f}; `python -c pass` {f:.3f} s (`-S` {f_bare:.3f} s): xwcp above the floor {o - f:.3f} s; "
            f"`python -S -m xwcp fill` {o_bare:.3f} s (ratio {o_bare / q:.2f})"
        )
        SUMMARY.append(
            f"| whole fill, {label} | xwcp {o:.3f} s (before: {b:.3f} s) | Qxw {q:.3f} s | "
            f"ratio {o / q:.2f} (target 1.5); python -c pass {f:.3f} s |"
        )


# ----- suggest --verify ----------------------------------------------------------------------------

VERIFY_CASES = (
    ("models/15x15-themeless-01.txt", "1A"),
    ("models/15x15-themeless-01.txt", "36A"),
    ("models/15x15-themeless-01.txt", "63A"),
    ("models/vanbeek/15.01.txt", "1A"),
    ("models/vanbeek/15.05.txt", "1A"),
    ("models/vanbeek/15.09.txt", "1A"),
)
"""(grid, slot) pairs: the stock themeless' corner 1A, its 13-letter middle row 36A and the opposite
corner 63A, and 1A of three Herald 15s (issue 17's target row: must not regress)."""


def section_verify(time_limit_s: float, base: Path | None = None) -> None:
    for path, slot in VERIFY_CASES:
        argv, env = xwcp_argv("fill", path, "--format", "json")
        fill_s, out, _, _ = run_cmd(argv, env)
        fill_status = json.loads(out)["status"]
        args = (
            "suggest",
            path,
            "--slot",
            slot,
            "-k",
            "20",
            "--verify",
            "--time-limit",
            f"{time_limit_s:g}",
            "--format",
            "json",
        )
        verify_s, out, _, _ = run_cmd(*xwcp_argv(*args))
        verdicts = [w["verdict"] for w in json.loads(out)["words"]]
        counts = {v: verdicts.count(v) for v in ("viable", "dead-end", "unknown")}
        before = ""
        if base is not None:  # the same command on the base checkout, in its own folder, in the same run
            base_args = (args[0], str(ROOT / path), *args[2:])
            base_s, out, _, _ = run_cmd(*xwcp_argv(*base_args, python_path=base), cwd=base)
            base_verdicts = [w["verdict"] for w in json.loads(out)["words"]]
            before = f" (base {base_s:.2f} s, {base_verdicts.count('unknown')} unknown)"
        ratio = verify_s / fill_s
        say(
            f"verify {path} {slot}: fill {fill_status} {fill_s:.2f} s; suggest --verify -k 20 {verify_s:.2f} s "
            f"({counts}){before}; ratio {ratio:.2f}"
        )
        SUMMARY.append(
            f"| verify -k 20, {Path(path).stem} {slot} | {verify_s:.2f} s, {counts['viable']} viable, "
            f"{counts['dead-end']} dead-end, {counts['unknown']} unknown{before} | fill {fill_s:.2f} s | "
            f"ratio {ratio:.2f} (target 3) |"
        )


# ----- seeds on the themeless ----------------------------------------------------------------------


def section_seeds(time_limit_s: float) -> None:
    times = []
    for seed in range(10):
        argv, env = xwcp_argv(
            "fill",
            "models/15x15-themeless-01.txt",
            "--seed",
            str(seed),
            "--time-limit",
            f"{time_limit_s:g}",
            "--format",
            "json",
        )
        wall, out, _, _ = run_cmd(argv, env)
        data = json.loads(out)
        times.append(wall if data["status"] == "filled" else 2 * time_limit_s)
        say(
            f"seeds themeless seed {seed}: {data['status']} {wall:.2f} s (winner {data.get('stats', {}).get('winner', '?')})"
        )
    med = statistics.median(times)
    say(f"seeds: median {med:.2f} s, max {max(times):.2f} s, max/median {max(times) / med:.2f}")
    SUMMARY.append(
        f"| themeless seeds 0-9 | median {med:.2f} s, max {max(times):.2f} s | max/median "
        f"{max(times) / med:.2f} (target 3) | |"
    )


# ----- a 50 MB list ----------------------------------------------------------------------------------


def make_big_list(path: Path, target_bytes: int = 50_000_000) -> int:
    """Write a ~50 MB WORD;score list: the default list, UKACD and SCOWL-55, then two-word phrases."""
    import lzma

    base = lzma.decompress((ROOT / "xwcp/words/data/cwl50.dict.xz").read_bytes()).decode().splitlines()
    words = [line.split(";")[0] for line in base if line]
    for name in ("ukacd18plus.normalized-az.words.txt", "scowl-english-55.words.txt"):
        words += (ROOT / "bench/wordlists" / name).read_text().split()
    rng = random.Random(17)
    lines = [f"{w};{rng.randint(30, 90)}" for w in words]
    size = sum(len(line) + 1 for line in lines)
    short = [w for w in words if 3 <= len(w) <= 9]
    while size < target_bytes:
        line = f"{rng.choice(short)}{rng.choice(short)};{rng.randint(20, 70)}"
        lines.append(line)
        size += len(line) + 1
    path.write_text("\n".join(lines) + "\n")
    return len(lines)


def section_biglist() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big50.txt"
        n_lines = make_big_list(big)
        qxw_list = Path(tmp) / "big50.qxw.txt"
        with big.open() as src, qxw_list.open("w") as dst:
            for line in src:
                word, _, score = line.strip().partition(";")
                dst.write(f"{word} {(int(score) - 50) / 25:.1f}\n")
        load = (
            "import time; from xwcp.words.wordlist import load_word_list; t = time.perf_counter(); "
            f"w = load_word_list({str(big)!r}); print(time.perf_counter() - t, w.n_words)"
        )
        env = dict(os.environ, PYTHONPATH=str(ROOT), XWCP_CACHE_DIR=str(Path(tmp) / "cache"))
        wall, out, peak, _ = run_cmd([sys.executable, "-c", load], env)
        ours_s, n_words = out.split()
        qxw_s = qxw_peak = float("nan")
        if "qxw" in PEERS:
            from xwcp.bench.peers import _qxw_command

            deck = Path(tmp) / "deck.qxd"
            deck.write_text(f".DICTIONARY 1 {qxw_list}\n.RANDOM 0\n.UNIQUE 1\nr0c0 r0c1 r0c2\nr0c0 r1c0 r2c0\n")
            qxw_s, _, qxw_peak, _ = run_cmd([_qxw_command(), "-b", str(deck)])
        say(
            f"biglist {big.stat().st_size / 1e6:.0f} MB, {n_lines:,} lines, {int(n_words):,} entries: xwcp first load "
            f"{float(ours_s):.1f} s (command {wall:.1f} s), peak {peak:.0f} MiB; Qxw read {qxw_s:.1f} s, "
            f"peak {qxw_peak:.0f} MiB; ratio {wall / qxw_s:.2f}"
        )
        SUMMARY.append(
            f"| first load of a 50 MB list | xwcp {wall:.1f} s, {peak:.0f} MiB | Qxw {qxw_s:.1f} s, "
            f"{qxw_peak:.0f} MiB | ratio {wall / qxw_s:.2f} (target 5, < 500 MB) |"
        )


# ----- Herald no-regression ------------------------------------------------------------------------

HERALD_GRIDS = [f"15.{k:02d}" for k in range(1, 6)] + [f"21.{k:02d}" for k in range(6, 11)]


def section_herald(base: Path | None, names: list[str] = HERALD_GRIDS) -> None:
    """Whole `xwcp fill` on the van Beek grids `names` (default list), this checkout against `base`, interleaved."""
    if base is None:
        say("herald: skipped (no --base checkout)")
        return
    grids = [f"models/vanbeek/{name}.txt" for name in names]
    ratios = []
    for path in grids:
        runs = {}
        for label, tree in (("new", ROOT), ("base", base)):
            argv, env = xwcp_argv("fill", str(ROOT / path), "--format", "json", "--time-limit", "60", python_path=tree)
            wall, out, _, _ = run_cmd(argv, env, cwd=tree)
            runs[label] = (wall, json.loads(out)["status"])
        ratios.append(runs["new"][0] / runs["base"][0])
        say(
            f"herald {Path(path).stem}: new {runs['new'][1]} {runs['new'][0]:.3f} s, base {runs['base'][1]} "
            f"{runs['base'][0]:.3f} s, ratio {ratios[-1]:.2f}"
        )
    SUMMARY.append(
        f"| Herald {names[0]}-{names[-1]} ({len(names)} grids), whole command | new/base ratio median "
        f"{statistics.median(ratios):.2f}, max {max(ratios):.2f} | | |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", default="open,startup,verify,seeds,biglist,herald")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--base", type=Path, default=None, help="checkout of the code before issue 17 (built)")
    args = parser.parse_args()
    say(f"start: {uptime()}  peers: {', '.join(PEERS) or 'none'}")
    sections = args.sections.split(",")
    if "open" in sections:
        section_open(args.time_limit)
    if "startup" in sections:
        section_startup(args.base)
    if "verify" in sections:
        section_verify(args.time_limit, args.base)
    if "seeds" in sections:
        section_seeds(args.time_limit)
    if "biglist" in sections:
        section_biglist()
    if "herald" in sections:
        section_herald(args.base)
    say(f"end: {uptime()}")
    say("\n| case | xwcp | peers / reference | ratio (target) |\n|---|---|---|---|")
    for line in SUMMARY:
        say(line)


if __name__ == "__main__":
    main()
