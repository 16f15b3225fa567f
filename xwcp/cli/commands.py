"""The `xwcp` command line: parse arguments, call the library, print. No fill logic lives here.

Exit codes: 0 done, 1 proven unfillable, 2 bad input or usage, 3 limit reached without an answer,
70 internal error (a bug: one line, the traceback with XWCP_DEBUG=1), 128 + N stopped by signal N
(130 Ctrl-C, 143 SIGTERM, 129 SIGHUP; see xwcp.runtime.signals).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from xwcp.runtime.argtypes import port_number, positive_float, positive_int
from xwcp.base.errors import InputError, front_end

EXIT_OK, EXIT_UNFILLABLE, EXIT_BAD_INPUT, EXIT_LIMIT = 0, 1, 2, 3
EXIT_INTERNAL = 70
"""An internal error (a bug), as in sysexits.h: never confused with an answer."""
EXIT_INTERRUPTED = 130
"""Ctrl-C; another stop signal N exits 128 + N."""
REPORT_HINT = "this is a bug in xwcp: please report it with the command and input files (XWCP_DEBUG=1 shows the traceback)"


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line and exit 2, like every other bad input
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see --help)\n")


MAX_SEED = 2**31 - 1
"""Largest seed: CP-SAT takes a 32-bit one, and every backend takes the same seeds."""


def seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_SEED}, got {text}")
    return value


def _count(text: str) -> int:
    if text == "all":
        return 0
    try:
        return positive_int(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (or 'all' to count every fill)") from None


def _add_problem_args(p: argparse.ArgumentParser, formats: tuple[str, ...] = ("text", "json")) -> None:
    p.add_argument("grid", help="grid file ('-' for standard input): .txt (one row per line, '#' block, '.' empty, "
                   "A-Z pre-filled, [STAR] a rebus cell, '|' a bar, (A) circled, ';' comments; see the README), "
                   ".puz, .ipuz, .xd, .jpz or xwcp's .json")
    p.add_argument("--words", metavar="FILE", action="append", help="word list (WORD;score lines or one word per "
                   "line); repeat to layer lists: later ones override scores, a score <= 0 removes the word; "
                   "default: the embedded Crossword Nexus Collaborative Word List (scores >= 50)")
    p.add_argument("--personal", action="store_true", help="layer your personal word list over the lists: the "
                   "bans, boosts and words added in the web builder (personal.dict in $XWCP_DATA_DIR, else "
                   "~/.local/share/xwcp)")
    p.add_argument("--min-score", type=int, default=50, metavar="N", help="ignore words scored below N (default 50)")
    p.add_argument("--allow-dupes", action="store_true", help="allow a word to fill more than one slot")
    p.add_argument("--strict", action="store_true",
                   help="refuse a grid whose completed entries are not all in the word list (exit 1, unfillable); "
                        "without it they are kept, with a warning")
    p.add_argument("--format", choices=list(formats), default="text",
                   help="output format (default text)" + ("; grid: the filled grid in the syntax xwcp reads"
                                                          if "grid" in formats else ""))
    g = p.add_argument_group("constructor's controls")
    g.add_argument("--lock", action="append", default=[], metavar="SLOT=WORD",
                   help="keep WORD in SLOT (a theme entry; may be a word the list lacks); repeatable")
    g.add_argument("--ban", action="append", default=[], metavar="WORD", help="never use WORD; repeatable")
    g.add_argument("--ban-file", action="append", default=[], metavar="FILE", help="never use the words in FILE")
    g.add_argument("--slot-min", action="append", default=[], metavar="SLOT=N",
                   help="minimum score for one slot (overrides --min-score there); repeatable")
    g.add_argument("--region", metavar="R1,C1:R2,C2",
                   help="fill only the empty cells of this rectangle (rows, columns from 1, inclusive); "
                        "letters outside stay, empty cells outside stay empty")
    g.add_argument("--max-shared-substring", type=positive_int, metavar="N",
                   help="no two entries share a substring longer than N letters")


def _add_solver_args(p: argparse.ArgumentParser, default_limit: float | None) -> None:
    from xwcp.backends import BACKENDS, DEFAULT_BACKEND

    p.add_argument("--backend", default=DEFAULT_BACKEND, metavar="NAME",
                   help=f"solver: {', '.join(BACKENDS)} (default {DEFAULT_BACKEND}: the fastest, racing two on the cores)")
    p.add_argument("--time-limit", type=positive_float, default=default_limit, metavar="S",
                   help="give up after S seconds" + (f" (default {default_limit:g})" if default_limit else ""))
    p.add_argument("--seed", type=seed, default=0, metavar="N", help=f"random seed, 0 to {MAX_SEED} (default 0)")


COMMANDS = ("fill", "domains", "suggest", "heatmap", "check", "serve", "convert", "bench", "batch")


class _Skipped:
    """Stands in for the parser of a command that is not being run: its options are never built."""

    def __getattr__(self, name: str):
        return self._ignore

    def _ignore(self, *args, **kwargs):
        return self


def build_parser(with_bench: bool = True, only: str | None = None) -> argparse.ArgumentParser:
    """The `xwcp` parser; `with_bench=False` leaves the bench command's own options out, and `only`
    (a command name) every other command's (faster start: argparse builds a small fill's options
    in a millisecond, all of them in about 15)."""
    parser = _Parser(prog="xwcp", description="Crossword fill engine: fill grids, see what fits, find where a grid is stuck.")
    parser.add_argument("--version", action="version", version="xwcp 0.1.0")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add_command(name: str, **kwargs):
        return subparsers.add_parser(name, **kwargs) if only in (None, name) else _Skipped()

    p = add_command("fill", help="fill a grid with words from the list",
                    description="Fill every slot of GRID with listed words (no word twice).",
                    epilog="Example: xwcp fill models/15x15-daily-01.txt --quality --lock 1A=ASHES --ban ESNE")
    _add_problem_args(p, ("text", "json", "grid"))
    _add_solver_args(p, None)
    p.add_argument("--count", type=_count, default=None, metavar="N",
                   help="return N distinct fills, or 'all' to count every fill (small grids)")
    p.add_argument("--min-diff", type=positive_int, default=None, metavar="K",
                   help="with --count N: every two fills differ in at least K entries")
    p.add_argument("--quality", action="store_true",
                   help="search for the highest minimum score (proven where possible), then the fewest "
                        "entries at it, then the highest mean, with a bound; anytime, default --time-limit 60")
    p.add_argument("--export-cnf", metavar="FILE", help="also write the SAT encoding of the grid as DIMACS CNF")
    p.add_argument("--out", metavar="FILE", help="write the filled puzzle to FILE (.puz, .ipuz, .xd, .jpz, .txt or .json; "
                   "numbered, with GRID's title, author and clues where it has them, else empty clues)")
    p.set_defaults(run=cmd_fill)

    p = add_command("domains", help="per slot: how many words still fit, and the best ones",
                    description="Arc-consistent domains: for each open slot the number of words that "
                                "still fit without an immediate dead end, and the top-k ranked by how many "
                                "options they leave their crossings, then by score.",
                    epilog="Example: xwcp domains models/15x15-daily-01.txt --slot 1A -k 10")
    _add_problem_args(p)
    p.add_argument("--slot", metavar="ID", help="only this slot, e.g. 12A")
    p.add_argument("-k", type=positive_int, default=20, metavar="K", help="words to show per slot (default 20)")
    p.add_argument("--by", choices=["score", "fit"], default="score",
                   help="rank by score, crossing fit breaking ties (default), or by crossing fit first")
    p.set_defaults(run=cmd_domains)

    p = add_command("suggest", help="ranked words for one slot, optionally verified by a solver",
                    description="Suggestions for one slot. With --verify the words are checked by a solver, "
                                "together, within --time-limit seconds in total: viable (a full fill with the "
                                "word exists), dead-end (proven that none does) or unknown (not settled in "
                                "time). A progress line shows on a terminal.",
                    epilog="Example: xwcp suggest models/15x15-daily-01.txt --slot 1A --verify --time-limit 5")
    _add_problem_args(p)
    p.add_argument("--slot", required=True, metavar="ID", help="the slot, e.g. 12A")
    p.add_argument("-k", type=positive_int, default=10, metavar="K", help="words to show (default 10)")
    p.add_argument("--by", choices=["score", "fit"], default="score",
                   help="rank by score, crossing fit breaking ties (default), or by crossing fit first")
    p.add_argument("--verify", action="store_true",
                   help="check the words with a solver, together, within --time-limit in total")
    p.add_argument("--show-fill", action="store_true", help="with --verify, show the fill that proves a word viable")
    _add_solver_args(p, 5.0)
    p.set_defaults(run=cmd_suggest)

    p = add_command("heatmap", help="letters still possible in each cell (26 free .. 1 forced .. 0 dead)",
                    description="Per white cell, the number of letters still possible after arc consistency.",
                    epilog="Example: xwcp heatmap models/15x15-daily-01.txt --png heat.png")
    _add_problem_args(p)
    p.add_argument("--png", metavar="FILE", help="also draw the heat map as a picture; the format follows the "
                   "extension (.png, .svg, .pdf, .jpg, ...; none: .png is added)")
    p.set_defaults(run=cmd_heatmap)

    p = add_command("check", help="is the grid fillable? the tightest slot and the forced letters",
                    description="The verdict: fillable (a fill is shown, exit 0), unfillable (proven by arc "
                                "consistency, the rules or a solver; exit 1) or unknown (no dead end found and "
                                "the solver hit --time-limit; exit 3). Also the most constrained open slot, the "
                                "letters forced so far and the completed entries not in the word list.",
                    epilog="Example: xwcp check models/15x15-daily-01.txt --time-limit 10")
    _add_problem_args(p)
    _add_solver_args(p, 10.0)
    p.set_defaults(run=cmd_check)

    p = add_command("serve", help="the web builder: edit a grid in the browser with live help and autofill",
                    description="Serve the web builder and its JSON API (needs the [web] extra: starlette, "
                                "uvicorn). The first line printed is the page's URL.",
                    epilog="Example: xwcp serve --port 8000 --max-fills 2")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8000, help="port, 1 to 65535 (default 8000)")
    p.add_argument("--words", metavar="FILE", action="append", help="word list (default: the embedded list); "
                   "repeat to layer lists as for fill; the personal list is layered over them")
    p.add_argument("--max-fills", type=positive_int, default=None, metavar="N",
                   help="autofills run at once, over all workers; more get HTTP 429 (default: the number of cores)")
    p.add_argument("--workers", type=positive_int, default=None, metavar="N",
                   help="server processes sharing the port (default: the number of cores); each request is "
                        "stateless, so any of them answers it")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="also answer requests for this host name (default: only 127.0.0.1, localhost, ::1 and "
                        "--host; others get 403, which stops DNS rebinding); repeatable")
    p.add_argument("--no-personal", action="store_true",
                   help="do not use or edit the personal word list (for a server shared by several people)")
    p.set_defaults(run=cmd_serve)

    p = add_command("convert", help="convert a puzzle between .txt, .puz, .ipuz, .xd, .jpz and .json",
                    description="Read IN and write OUT, each in the format of its file extension "
                                "(.txt, .puz, .ipuz, .xd, .jpz, .json); title, author, copyright, notes, clues, "
                                "bars, marks and rebus cells are kept where both formats have them (a format "
                                "that cannot hold something refuses it).",
                    epilog="Example: xwcp convert models/15x15-daily-01.txt daily.puz")
    p.add_argument("input", metavar="IN", help="puzzle file to read")
    p.add_argument("output", metavar="OUT", help="puzzle file to write")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")
    p.set_defaults(run=cmd_convert)

    p = add_command("bench", help="benchmark backends (and peer solvers) on grid sets",
                    description="Run every backend on every grid and seed; write rows (CSV/JSON) and plots, "
                                "print a summary.",
                    epilog="Example: xwcp bench --suite stock --backends backtrack,cpsat --time-limit 30")
    if with_bench:
        from xwcp.bench import add_bench_arguments

        add_bench_arguments(p)
    p.set_defaults(run=cmd_bench)

    p = add_command("batch", help="fill many grids as Dask tasks (this machine's cores, or a cluster)",
                    description="Fill every GRID (files, or folders of .txt grids), one task each, on a local "
                                "Dask cluster or the scheduler named by --cluster. Each result is written as it "
                                "arrives: OUT/NAME.json (status, fill, quality, timing) and OUT/NAME.txt (the "
                                "filled grid). Exit 0 all filled, 1 some proven unfillable, 3 some without an "
                                "answer (limit or error), 2 bad input or unreachable cluster.",
                    epilog="Example: xwcp batch models/ --out fills --time-limit 30 --resume")
    p.add_argument("grids", nargs="+", metavar="GRID", help="grid files, or folders of *.txt grid files")
    p.add_argument("--out", default="xwcp-batch", metavar="DIR",
                   help="folder for the result files (default xwcp-batch)")
    p.add_argument("--resume", action="store_true", help="skip grids whose result file is already in --out")
    p.add_argument("--quality", action="store_true", help="search each fill for quality, as fill --quality does")
    p.add_argument("--cluster", metavar="ADDRESS", help="Dask scheduler, e.g. tcp://HOST:8786 (default: a local "
                   "cluster of one-thread worker processes)")
    p.add_argument("--workers", type=positive_int, metavar="N", help="local workers (default: the cores); with "
                   "--cluster, wait for N workers")
    p.add_argument("--words", metavar="FILE", help="word list (default: the embedded list); with --cluster, a path "
                   "every worker can read")
    p.add_argument("--min-score", type=int, default=50, metavar="N", help="ignore words scored below N (default 50)")
    p.add_argument("--allow-dupes", action="store_true", help="allow a word to fill more than one slot")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")
    _add_solver_args(p, 60.0)
    p.set_defaults(run=cmd_batch)

    p = add_command("design", help="design grids around theme entries: symmetric block patterns, proven fillable, filled",
                    description="Place the theme entries in a symmetric block pattern that keeps the rules (white "
                                "cells connected, entries of 3+ letters, every letter checked, at most --max-words "
                                "entries and --max-blocks blocks), prove it fillable and fill it for quality. The "
                                "pattern comes from a CP-SAT model; a pattern no fill can complete is cut by its "
                                "minimal core and the model asked again. Progress shows on a terminal. Exit 0 "
                                "designs found, 1 proven that none exists under the rules, 3 time limit without a "
                                "design, 2 bad input.",
                    epilog="Example: xwcp design --size 15x15 --theme SPEAKOFTHEDEVIL --theme OBEDIENCESCHOOL "
                           "--theme SITONTHEFENCE --theme STAYTHECOURSE --count 2")
    p.add_argument("--size", default="15x15", metavar="WxH", help="grid size (default 15x15)")
    p.add_argument("--theme", action="append", default=[], metavar="WORD",
                   help="a theme entry (need not be in the word list); repeatable")
    p.add_argument("--at", action="append", default=[], metavar="WORD=ROW,COL,A|D",
                   help="put WORD there (rows and columns from 1; A across, D down); repeatable")
    p.add_argument("--symmetry", choices=["rotational", "mirror", "none"], default="rotational",
                   help="block symmetry (default rotational)")
    p.add_argument("--style", choices=["american", "british"], default="american",
                   help="american: every letter checked; british: unchecked letters allowed, never two in a row "
                        "(default american)")
    p.add_argument("--max-words", type=positive_int, metavar="N",
                   help="most entries (default 78 on a 15x15, 32 british; other sizes by area)")
    p.add_argument("--min-words", type=int, metavar="N", help="fewest entries (default --max-words minus 4)")
    p.add_argument("--max-blocks", type=int, metavar="N",
                   help="most blocks (default 38 on a 15x15, 67 british; other sizes by area)")
    p.add_argument("--max-length", type=positive_int, metavar="N",
                   help="longest entry that is not a theme entry (default 8 on a 15x15; british: none)")
    p.add_argument("--count", type=positive_int, default=1, metavar="N",
                   help="designs wanted, ranked by fill quality (default 1)")
    p.add_argument("--min-diff", type=positive_int, default=8, metavar="K",
                   help="cells (block or white) in which every two designs differ (default 8)")
    p.add_argument("--time-limit", type=positive_float, metavar="S",
                   help="stop after S seconds in all (default 120 per design asked)")
    p.add_argument("--quality-time", type=float, default=20.0, metavar="S",
                   help="seconds of quality search per design (default 20; 0 keeps the first fill)")
    p.add_argument("--seed", type=seed, default=0, metavar="N", help=f"random seed, 0 to {MAX_SEED} (default 0)")
    p.add_argument("--words", metavar="FILE", action="append", help="word list(s), as for fill (default: the "
                   "embedded list)")
    p.add_argument("--min-score", type=int, default=50, metavar="N", help="ignore words scored below N (default 50)")
    p.add_argument("--ban", action="append", default=[], metavar="WORD", help="never use WORD; repeatable")
    p.add_argument("--ban-file", action="append", default=[], metavar="FILE", help="never use the words in FILE")
    p.add_argument("--format", choices=["text", "json", "grid"], default="text",
                   help="output format (default text; grid: the designs in the syntax xwcp reads)")
    p.add_argument("--out", metavar="FILE", help="write the best design to FILE (.puz, .ipuz, .xd, .txt or .json)")
    p.set_defaults(run=cmd_design)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns its exit code (see the module docstring). Never shows a traceback
    unless XWCP_DEBUG=1."""
    from xwcp.runtime.signals import Interrupted, stop_on_signals

    args_in = sys.argv[1:] if argv is None else argv
    # The bench's options need xwcp.bench and its stdlib imports (csv, pickle, platform, ...):
    # only `xwcp bench ...` pays for them, not every fill (start-up, issue 17).
    command = args_in[0] if args_in and args_in[0] in COMMANDS else None
    parser = build_parser(with_bench=command == "bench", only=command)
    args = parser.parse_args(args_in)
    _WARNINGS.clear()
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        with stop_on_signals(), front_end("cli"):  # messages name flags (--lock), not keywords (locks=)
            return _run(parser, args)
    except InputError as exc:
        print(f"xwcp: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as exc:
        name, code = (exc.name, exc.exit_code) if isinstance(exc, Interrupted) else ("SIGINT", EXIT_INTERRUPTED)
        print(f"xwcp: interrupted ({name})", file=sys.stderr)
        if getattr(args, "format", None) == "json":
            _print_quietly(json.dumps({"status": "interrupted", "signal": name}))
        return code
    except BrokenPipeError:  # the reader went away (`| head`): nothing more to say
        _silence_stdout()
        return EXIT_OK
    except Exception as exc:  # a bug: one line and its own exit code, never read as an answer
        if os.environ.get("XWCP_DEBUG") == "1":
            raise
        where = _innermost_frame(exc)
        print(f"xwcp: internal error: {exc.__class__.__name__}: {_one_line(exc)}{where}; {REPORT_HINT}",
              file=sys.stderr)
        return EXIT_INTERNAL


def _run(parser, args) -> int:
    if getattr(args, "backend", None) is not None:  # a wrong name is bad usage even when no solver runs
        from xwcp.backends import get_backend

        get_backend(args.backend)
    if getattr(args, "show_fill", False) and not args.verify:
        parser.exit(EXIT_BAD_INPUT, "xwcp suggest: error: --show-fill needs --verify (see --help)\n")
    return args.run(args)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] + ("..." if len(text) > 300 else "")


def _innermost_frame(exc: BaseException) -> str:
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return ""
    return f" (at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno})"


def _print_quietly(text: str) -> None:
    try:
        print(text, flush=True)
    except OSError:
        pass


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's exit-time flush does not complain about the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


# ----- commands: each parses, calls the library, prints ------------------------------------

_WARNINGS: list[str] = []
"""This command's warnings so far: each is printed on stderr and listed in `--format json` output."""


def _warn(message: str) -> None:
    _WARNINGS.append(message)
    print(f"xwcp: warning: {message}", file=sys.stderr)


def _load(args):
    return _load_puzzle(args)[1]


def _controls(args):
    from xwcp.compile.controls import make_controls

    return make_controls(locks=args.lock, bans=args.ban, ban_files=args.ban_file, slot_mins=args.slot_min,
                         region=args.region, max_shared_substring=args.max_shared_substring)


def _word_paths(args):
    """The --words lists, with the personal list layered last under --personal (None: the default list)."""
    if not getattr(args, "personal", False):
        return args.words
    from xwcp.words.userwords import personal_path

    path = personal_path()
    if not path.exists():
        _warn(f"no personal word list yet ({path}): the web builder's bans and boosts are kept there")
        return args.words
    return (args.words or [None]) + [str(path)]


def _load_puzzle(args):
    """(puzzle, problem): the grid file read in its format, and the problem compiled with the options."""
    from xwcp.services.session import load_puzzle_problem

    return load_puzzle_problem(args.grid, _word_paths(args), min_score=args.min_score, allow_dupes=args.allow_dupes,
                               strict=args.strict, warn=_warn, controls=_controls(args))


def _emit(args, data: dict, text: str) -> None:
    if args.format == "json" and _WARNINGS:
        data = {**data, "warnings": list(_WARNINGS)}
    print(json.dumps(data) if args.format == "json" else text)


def cmd_fill(args) -> int:
    """Example: xwcp fill models/15x15-daily-01.txt --out daily.puz"""
    from xwcp.services import quick  # noqa: F401 - quick and auto: imported before the clock starts, as numpy was
    from xwcp.render import report
    from xwcp.backends import auto  # noqa: F401 - (the `seconds` field is load + compile + fill)
    from xwcp.services.quick import load_and_fill
    from xwcp.services.session import save_fill
    from xwcp.base.types import FillStatus

    start = time.perf_counter()
    if args.min_diff is not None and not (args.count and args.count > 1):
        raise InputError("--min-diff needs --count N with N of 2 or more")
    if args.out:
        from xwcp.formats import format_module

        format_module(args.out)  # a bad output name is bad usage: say so before filling (and what the output
        # format cannot hold, bars in a .puz, as soon as the grid is read: load_and_fill's `out`)
    puzzle, problem, result = load_and_fill(
        args.grid, _word_paths(args), min_score=args.min_score, allow_dupes=args.allow_dupes, strict=args.strict,
        controls=_controls(args), backend=args.backend, time_limit_s=args.time_limit, seed=args.seed,
        count=args.count, min_diff=args.min_diff, quality=args.quality, export_cnf=args.export_cnf,
        show_progress=sys.stderr.isatty(), warn=_warn,
        say=lambda line: print(f"xwcp: {line}", file=sys.stderr, flush=True), soft_stop=True, out=args.out)
    seconds = time.perf_counter() - start
    wrote = bool(args.out) and save_fill(puzzle, problem, result, args.out)
    if args.format == "grid":
        if result.fills:
            print(report.FillReport(problem, result, seconds).grids_text())
        else:
            print(f"xwcp: {report.verdict_text(result)}", file=sys.stderr)
        return _stopped_quality(result) or result.status.exit_code
    core = None
    if result.status is FillStatus.UNFILLABLE:  # the verdict first; the core follows (Ctrl-C keeps the verdict)
        from xwcp.services.session import explain_verdict

        if args.format == "text":
            print(report.verdict_text(result), flush=True)
        core = explain_verdict(problem, result, show_progress=sys.stderr.isatty())
    total = time.perf_counter() - start if result.status is FillStatus.UNFILLABLE else None
    # the answer worked out once (what xwcp.FillAnswer wraps; the CLI does not import the library's dataclasses:
    # they cost a small fill's start-up a few ms, issue 17); tests/test_library.py checks the two print the same
    answer = report.FillReport(problem, result, seconds, args.count, core, total)
    data = answer.as_dict()
    if wrote:
        data["out"] = args.out
    if result.stopped_by is not None:
        data["stopped"] = result.stopped_by
    note = "" if not args.out else f"\nwrote {args.out}" if wrote else f"\nnothing written to {args.out}: no fill"
    _emit(args, data, answer.text(verdict_shown=result.status is FillStatus.UNFILLABLE) + note)
    return _stopped_quality(result) or result.status.exit_code


def _stopped_quality(result) -> int:
    """128 + the signal's number when a stop signal ended the quality search (its best fill is printed), else 0."""
    if result.stopped_by is None:
        return 0
    from xwcp.runtime.signals import exit_code_for

    print(f"xwcp: quality search stopped ({result.stopped_by}); the fill above is the best found until then",
          file=sys.stderr)
    return exit_code_for(result.stopped_by)


def cmd_domains(args) -> int:
    """Example: xwcp domains models/15x15-daily-01.txt --slot 1A -k 10"""
    from xwcp.library.jobs import Session

    answer = Session(_load(args)).domains(args.slot, k=args.k, by=args.by)  # what xwcp.domains answers
    _emit(args, answer.as_dict(), answer.text())
    return EXIT_OK if answer.is_consistent else EXIT_UNFILLABLE


def cmd_suggest(args) -> int:
    """Example: xwcp suggest models/15x15-daily-01.txt --slot 1A --verify"""
    from xwcp.library.jobs import Session
    from xwcp.services.session import VerifyProgressLine

    session = Session(_load(args))
    progress = VerifyProgressLine() if args.verify and sys.stderr.isatty() else None
    try:
        answer = session.suggest(args.slot, k=args.k, verify=args.verify, backend=args.backend,  # xwcp.suggest's
                                 time_limit_s=args.time_limit, seed=args.seed, show_fill=args.show_fill,
                                 progress=progress, by=args.by)
    finally:
        if progress is not None:
            progress.close()
    _emit(args, answer.as_dict(), answer.text())
    return EXIT_OK if answer.is_consistent else EXIT_UNFILLABLE


def cmd_heatmap(args) -> int:
    """Example: xwcp heatmap models/15x15-daily-01.txt --png heat.png"""
    from xwcp.library.jobs import Session

    path = None
    if args.png:
        from xwcp.render.picture import picture_path

        path = picture_path(args.png)  # a bad name is refused before any work
    answer = Session(_load(args)).heatmap()  # what xwcp.heatmap answers
    data = answer.as_dict()
    if path is not None:
        data["png"] = str(answer.save_png(path))
    _emit(args, data, answer.text())
    return EXIT_OK if answer.is_consistent else EXIT_UNFILLABLE


def cmd_check(args) -> int:
    """Example: xwcp check models/15x15-daily-01.txt --time-limit 10"""
    from xwcp.analysis.questions import check_report
    from xwcp.library.answers import CheckAnswer
    from xwcp.services.session import explain_verdict

    start = time.perf_counter()
    problem = _load(args)
    shown = []

    def verdict_first(report: dict, problem, result):  # the verdict, then the core (Ctrl-C keeps the verdict)
        if args.format == "text":
            print(CheckAnswer.from_report(problem, report).text(), flush=True)
            shown.append(True)
        return explain_verdict(problem, result, show_progress=sys.stderr.isatty())

    # what xwcp.check answers (Session.check), with the verdict shown before the core search
    answer = CheckAnswer.from_report(problem, check_report(problem, backend=args.backend, time_limit_s=args.time_limit,
                                                           seed=args.seed, explain_core=verdict_first))
    data = answer.as_dict()
    if answer.verdict.value == "unfillable":
        data["total_seconds"] = round(time.perf_counter() - start, 4)
    if shown:
        from xwcp.search.core import core_text

        _emit(args, data, core_text(problem, data["core"]) if data.get("core") else "")
    else:
        _emit(args, data, answer.text())
    return {"fillable": EXIT_OK, "unknown": EXIT_LIMIT, "unfillable": EXIT_UNFILLABLE}[answer.verdict.value]


def cmd_convert(args) -> int:
    """Example: xwcp convert models/15x15-daily-01.txt daily.puz"""
    from xwcp.services.session import convert

    puzzle = convert(args.input, args.output)
    for warning in puzzle.warnings:
        _warn(f"{args.input}: {warning}")
    grid = puzzle.grid
    _emit(args, {"in": args.input, "out": args.output, "width": grid.width, "height": grid.height,
                 "slots": len(puzzle.slots()), "title": puzzle.title},
          f"wrote {args.output} ({grid.width}x{grid.height}, {len(puzzle.slots())} slots)")
    return EXIT_OK


def cmd_bench(args) -> int:
    """Example: xwcp bench --suite stock --time-limit 30"""
    from xwcp.bench import run_bench_command

    return run_bench_command(args)


def cmd_batch(args) -> int:
    """Example: xwcp batch models/ --out fills --time-limit 30 --resume"""
    from pathlib import Path

    from xwcp.dist import batch

    plan = batch.plan_batch(args.grids, out_dir=Path(args.out), words_path=args.words, min_score=args.min_score,
                            allow_dupes=args.allow_dupes, backend=args.backend, time_limit_s=args.time_limit,
                            seed=args.seed, quality=args.quality, resume=args.resume)
    for name, reason in plan.unreadable.items():
        print(f"xwcp batch: cannot read {name}: {reason}", file=sys.stderr)

    def show(name, record, path):
        if args.format == "text":
            print(batch.result_line(name, record), flush=True)

    outcome = batch.run_plan(plan, args.cluster, n_workers=args.workers, on_result=show)
    _emit(args, batch.summary_dict(plan, outcome), batch.summary_text(plan, outcome))
    return outcome.exit_code


def cmd_serve(args) -> int:
    """Example: xwcp serve --port 8000"""
    try:
        import uvicorn  # noqa: F401

        from xwcp.web.hosts import allowed_hosts
        from xwcp.web.serve import serve
    except ImportError as exc:
        raise InputError(f"the web builder needs the [web] extra ({exc.name} is missing): "
                         "pip install 'xwcp[web]'") from None
    from xwcp.engine.result import default_threads

    serve(host=args.host, port=args.port, words=args.words, workers=args.workers or default_threads(),
          max_fills=args.max_fills or default_threads(), hosts=allowed_hosts(args.host, args.allow_host),
          personal=not args.no_personal, announce=lambda url: print(f"xwcp builder: {url}", flush=True))
    return EXIT_OK


def cmd_design(args) -> int:
    """Example: xwcp design --theme SPEAKOFTHEDEVIL --theme OBEDIENCESCHOOL --count 2"""
    from xwcp.designer import session
    from xwcp.designer.request import make_request
    from xwcp.library.answers import DesignAnswer

    request = make_request(size=args.size, themes=args.theme, at=args.at, symmetry=args.symmetry, style=args.style,
                           max_words=args.max_words, min_words=args.min_words, max_blocks=args.max_blocks,
                           max_length=args.max_length, count=args.count, min_diff=args.min_diff,
                           time_limit_s=args.time_limit, quality_time_s=args.quality_time, seed=args.seed,
                           min_score=args.min_score, bans=args.ban, ban_files=args.ban_file)
    if args.out:
        from xwcp.formats import format_module

        format_module(args.out)  # a bad output name is bad usage: say so before designing
    result, stopped_by = session.load_and_design(
        request, args.words, warn=_warn, terminal=sys.stderr.isatty(),
        say=lambda line: print(f"xwcp: {line}", file=sys.stderr, flush=True))
    answer = DesignAnswer.build(result, request)  # what xwcp.design answers: printed as it is
    if args.out and answer.designs:
        answer.save(args.out)
    if args.format == "grid":
        print(answer.grids_text() if answer.designs else f"; no design: {answer.reason}")
    else:
        data = answer.as_dict()
        if args.out:
            data["out"] = args.out if answer.designs else None
        _emit(args, data, answer.text() + (f"\nwrote {args.out}" if args.out and answer.designs else ""))
    if stopped_by is not None:  # the designs found before the signal are printed (and saved) above
        from xwcp.runtime.signals import exit_code_for

        print(f"xwcp: design stopped ({stopped_by}) with {len(answer.designs)} design(s) found", file=sys.stderr)
        return exit_code_for(stopped_by)
    return answer.status.exit_code
