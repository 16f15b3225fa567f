"""The `xwcp bench` command's options and its run: options in, files written, summary printed.

The CLI calls `add_bench_arguments` and `run_bench_command`; nothing here imports the CLI.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xwcp.bench.entrants import MODEL_ENTRANTS, Entrant, make_entrants
from xwcp.bench.plots import write_plots
from xwcp.bench.runner import DEFAULT_TIME_LIMIT_S, run_bench
from xwcp.bench.suites import SUITES, Instance, file_instances, suite_instances
from xwcp.bench.summary import per_grid_markdown, summarize, summary_text
from xwcp.runtime.argtypes import positive_float, positive_int
from xwcp.runtime.writes import write_output


def add_bench_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the `xwcp bench` options to `parser`."""
    suites = ", ".join(SUITES)
    parser.add_argument(
        "grids",
        nargs="*",
        metavar="GRID",
        help="grid files (or XCSP .xml/.xml.xz/.xml.lzma files) to run instead of a suite",
    )
    parser.add_argument(
        "--suite", choices=list(SUITES), metavar="NAME", help=f"a named grid set: {suites} (see bench/README.md)"
    )
    parser.add_argument(
        "--backends",
        default=None,
        metavar="A,B",
        help="xwcp backends to run, comma-separated (default: every available one); also "
        f"the textbook models {', '.join(MODEL_ENTRANTS)} (slow on big grids; only when named)",
    )
    parser.add_argument(
        "--peers",
        default="all",
        metavar="P,Q",
        help="peer solvers to run side by side: qxw, gecode, blacksquare, all, or none (default all: "
        "every peer; one that is not installed gives 'skipped' rows, see bench/peers/install.sh)",
    )
    parser.add_argument(
        "--cli",
        default="none",
        metavar="A,B",
        help="also time these backends as whole `xwcp fill` commands (interpreter start, "
        "list load, compile, fill), the way peers are timed (default none)",
    )
    parser.add_argument("--words", metavar="FILE", help="word list replacing the suite's (not for XCSP files)")
    parser.add_argument(
        "--min-score",
        type=int,
        default=None,
        metavar="N",
        help="minimum word score (default: the suite's: 0 for SCOWL/UKACD/XCSP, else 50)",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_float,
        default=DEFAULT_TIME_LIMIT_S,
        metavar="S",
        help=f"wall-clock limit per run in seconds (default {DEFAULT_TIME_LIMIT_S:g})",
    )
    parser.add_argument(
        "--seeds",
        type=positive_int,
        default=1,
        metavar="K",
        help="run each backend with seeds 0..K-1 (default 1; peers run once)",
    )
    parser.add_argument(
        "--threads",
        type=positive_int,
        default=None,
        metavar="N",
        help="threads for backends that use them (default: the backend's own)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="folder for rows.csv, rows.json, meta.json, summary.txt and plots "
        "(default xwcp-bench/<suite>-<date>-<time>)",
    )
    parser.add_argument(
        "--format", choices=["text", "json"], default="text", help="summary format on stdout (default text)"
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="run on this Dask scheduler (tcp://HOST:8786), one task per (grid, entrant, seed); "
        "grid and list paths must be readable by every worker",
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="run on a local Dask cluster of N one-thread workers (with --cluster: wait for N "
        "workers); default without either: one run at a time here, the fairest timing",
    )


def _split(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def run_bench_command(args: argparse.Namespace) -> int:
    """`xwcp bench`: build the run from the options, run it, write files, print the summary.

    Returns:
        0 when every run finished, 3 when interrupted (the rows so far are kept).

    Raises:
        InputError: no grids or suite, both, an unknown backend or peer (exit 2 in the CLI).
    """
    from xwcp.backends import BACKENDS, available_backends
    from xwcp.base.errors import InputError
    from xwcp.bench import peers

    if args.grids and args.suite:
        raise InputError("give grid files or --suite, not both")
    if not args.grids and not args.suite:
        raise InputError(f"give grid files or --suite NAME (suites: {', '.join(SUITES)})")
    backends = _split(args.backends) if args.backends is not None else available_backends()
    cli_backends = [] if args.cli.strip().lower() == "none" else _split(args.cli)
    for name in backends:
        if name not in BACKENDS and name not in MODEL_ENTRANTS:
            raise InputError(f"unknown backend {name!r}; choose from: {', '.join([*BACKENDS, *MODEL_ENTRANTS])}")
    for name in cli_backends:
        if name in MODEL_ENTRANTS:
            raise InputError(f"{name} is a bench-only model, not an `xwcp fill` backend: name it in --backends")
        if name not in BACKENDS:
            raise InputError(f"unknown backend {name!r}; choose from: {', '.join(BACKENDS)}")
    peer_choice = args.peers.strip().lower()
    peer_names = [] if peer_choice == "none" else list(peers.PEERS) if peer_choice == "all" else _split(args.peers)
    for name in peer_names:
        if name not in peers.PEERS:
            raise InputError(f"unknown peer {name!r}; choose from: {', '.join(peers.PEERS)}, or none")
    if not backends and not peer_names and not cli_backends:
        raise InputError("nothing to run: no backend and no peer")
    label = args.suite or "files"
    if args.suite:
        if args.suite == "xcsp" and args.words:
            print(
                "xwcp: warning: --words is ignored for the xcsp suite (each instance has its own words)",
                file=sys.stderr,
            )
        instances = suite_instances(args.suite, words_path=args.words, min_score=args.min_score)
    else:
        instances = file_instances(args.grids, words_path=args.words, min_score=args.min_score)
    entrants = make_entrants(backends, peer_names, cli_backends)
    if cli_backends:
        _compile_bytecode()
    out_dir = Path(args.out) if args.out else Path("xwcp-bench") / f"{label}-{time.strftime('%Y%m%d-%H%M%S')}"
    meta = _meta(args, label, instances, entrants)
    _make_out_dir(out_dir)

    def warn(line: str) -> None:
        print(f"xwcp bench: cannot read {line}", file=sys.stderr)

    with contextlib.ExitStack() as stack:
        client = None
        if args.cluster or args.workers:  # reach the cluster before writing anything more
            from xwcp.dist.cluster import open_client

            client = stack.enter_context(open_client(args.cluster, n_workers=args.workers))
        write_output(out_dir / "meta.json", json.dumps(meta, indent=1) + "\n", "bench result")
        print(
            f"xwcp bench: {label}, {len(instances)} grids, {len(entrants)} entrants, limit {args.time_limit:g} s, "
            f"writing {out_dir}/" + (" (on Dask)" if client is not None else ""),
            file=sys.stderr,
        )
        run = run_bench(
            instances,
            entrants,
            out_dir=out_dir,
            time_limit_s=args.time_limit,
            seeds=args.seeds,
            threads=args.threads,
            warn=warn,
            client=client,
        )
    if len(run.unreadable) == len(instances) and not run.interrupted:  # nothing to summarize
        print(
            f"xwcp bench: error: no grid could be read ({len(instances)} given; reasons above and in "
            f"{out_dir / 'rows.csv'})",
            file=sys.stderr,
        )
        return 2
    try:
        summary = summarize(run.rows, entrants, args.time_limit)
        text = summary_text(summary)
        plots = write_plots(run.rows, entrants, out_dir, args.time_limit)
        meta.update(
            finished=time.strftime("%Y-%m-%d %H:%M:%S"),
            interrupted=run.interrupted,
            load_average_end=_load_average(),
            rows=len(run.rows),
        )
        write_output(out_dir / "meta.json", json.dumps(meta, indent=1) + "\n", "bench result")
        write_output(out_dir / "summary.txt", text + "\n", "bench result")
        write_output(out_dir / "per-grid.md", per_grid_markdown(run.rows, entrants), "bench result")
        write_output(out_dir / "summary.json", json.dumps(summary, indent=1, default=list) + "\n", "bench result")
    except KeyboardInterrupt:  # a second Ctrl-C while finishing: the rows are already on disk
        print(f"xwcp bench: interrupted; rows so far in {out_dir}/", file=sys.stderr)
        return 3
    if args.format == "json":
        print(
            json.dumps(
                {
                    "out": str(out_dir),
                    "interrupted": run.interrupted,
                    "rows": len(run.rows),
                    "plots": [str(p) for p in plots],
                    **summary,
                },
                default=list,
            )
        )
    else:
        if run.interrupted:
            print(f"Interrupted after {len(run.rows)} run{'' if len(run.rows) == 1 else 's'}; summary of what ran:")
        print(text)
        print(
            f"rows: {out_dir / 'rows.csv'}, {out_dir / 'rows.json'}"
            + (f"; plots: {', '.join(str(p) for p in plots)}" if plots else "")
        )
    return 3 if run.interrupted else 0


def _make_out_dir(out_dir: Path) -> None:
    """Create the results folder; an existing folder is written into (its rows and summary are replaced).

    Raises:
        InputError: `out_dir` is an existing file, lies under a file, or cannot be created.
    """
    from xwcp.base.errors import InputError

    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(
            f"--out {out_dir} is a file; --out names a folder for rows.csv, rows.json, "
            "summary.txt and plots (give a new or existing folder)"
        )
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError(f"--out {out_dir}: a part of that path is a file, not a folder") from None
    except OSError as exc:
        raise InputError(f"--out {out_dir}: cannot create the folder ({exc.strerror or exc})") from None


def _compile_bytecode() -> None:
    """Compile the package's bytecode before `--cli` commands are timed, as `pip install` does: where
    PYTHONDONTWRITEBYTECODE is set (some sandboxes and containers) an editable install would otherwise
    compile every module from source in every timed command (about 40 ms of a 0.1 s fill here), which a
    user's installed xwcp never pays. A read-only install is left as it is."""
    import compileall

    with contextlib.suppress(OSError):
        compileall.compile_dir(str(Path(__file__).resolve().parent.parent), quiet=2)


def _load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _command_line(args: argparse.Namespace) -> str:
    """The options as an `xwcp bench` command that repeats this run."""
    import shlex

    parts = ["xwcp", "bench", *args.grids]
    for option, value in (
        ("--suite", args.suite),
        ("--backends", args.backends),
        ("--cli", args.cli),
        ("--peers", args.peers),
        ("--words", args.words),
        ("--min-score", args.min_score),
        ("--time-limit", f"{args.time_limit:g}"),
        ("--seeds", args.seeds),
        ("--threads", args.threads),
        ("--out", args.out),
        ("--cluster", getattr(args, "cluster", None)),
        ("--workers", getattr(args, "workers", None)),
    ):
        if value is not None:
            parts += [option, str(value)]
    return shlex.join(parts)


def _git_describe() -> str | None:
    """The checkout's commit (with "-dirty" when files differ), or None outside a git checkout."""
    import subprocess

    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() or None


def _meta(
    args: argparse.Namespace, label: str, instances: Sequence[Instance], entrants: Sequence[Entrant]
) -> dict[str, Any]:
    """Where and how the bench ran: enough to tell whose numbers these are."""
    cpu = ""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            cpu = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), "")
    except OSError:
        pass
    from xwcp import __version__

    return {
        "command": _command_line(args),
        "suite": label,
        "grids": len(instances),
        "time_limit_s": args.time_limit,
        "seeds": args.seeds,
        "threads": args.threads,
        "cluster": args.cluster,
        "workers": args.workers,
        "words": args.words,
        "min_score": args.min_score,
        "entrants": [{"name": e.name, "kind": e.kind, "missing": e.missing} for e in entrants],
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        "host": platform.node(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "xwcp": __version__,
        "git": _git_describe(),
        "load_average_start": _load_average(),
    }
