"""The `xwcp` argument parser: one small function per command's options; `build_parser` calls them.

Only the command being run has its options built (`only`), and the bench's options only for `xwcp bench`
(`with_bench`): argparse builds a small fill's options in a millisecond, all of them in about 15.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn, TypeAlias

from xwcp import __version__
from xwcp.cli.exits import EXIT_BAD_INPUT
from xwcp.runtime.argtypes import non_negative_int, port_number, positive_float, positive_int


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line and exit 2, like every other bad input
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see --help)\n")


Subparsers: TypeAlias = "argparse._SubParsersAction[_Parser]"
"""What `add_subparsers` returns: its `add_parser` adds one command."""


MAX_SEED = 2**31 - 1
"""Largest seed: CP-SAT takes a 32-bit one, and every backend takes the same seeds."""


def seed(text: str) -> int:
    """A --seed value: a whole number from 0 to MAX_SEED."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= MAX_SEED:
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_SEED}, got {text}")
    return value


def _count(text: str) -> int:
    """A --count value: a positive whole number, or 'all' (0: count every fill)."""
    if text == "all":
        return 0
    try:
        return positive_int(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc} (or 'all' to count every fill)") from None


def _add_language_arg(p: argparse.ArgumentParser) -> None:
    """`--language`: the puzzle's language pack, for every command that reads a grid or a word list."""
    p.add_argument(
        "--language",
        metavar="CODE|PACK.json",
        help="the puzzle's language: a pack's code (es, de, nl, ru, el, ...; `xwcp languages` lists them) "
        "or a pack's .json file; grid and lists are read in its letters (default: the language the "
        "grid file names, else English)",
    )


def _add_problem_args(p: argparse.ArgumentParser, formats: tuple[str, ...] = ("text", "json")) -> None:
    """The grid, its word lists and the constructor's controls: the options of every command that reads a grid."""
    p.add_argument(
        "grid",
        help="grid file ('-' for standard input): .txt (one row per line, '#' block, '.' empty, "
        "A-Z pre-filled, [STAR] a rebus cell, '|' a bar, (A) circled, ';' comments; see docs/grids.md), "
        ".puz, .ipuz, .xd, .jpz or xwcp's .json",
    )
    p.add_argument(
        "--words",
        metavar="FILE",
        action="append",
        help="word list (WORD;score lines or one word per "
        "line); repeat to layer lists: later ones override scores, a score <= 0 removes the word; "
        "default: the embedded Crossword Nexus Collaborative Word List (scores >= 50)",
    )
    _add_language_arg(p)
    p.add_argument(
        "--personal",
        action="store_true",
        help="layer your personal word list over the lists: the "
        "bans, boosts and words added in the web builder (personal.dict in $XWCP_DATA_DIR, else "
        "~/.local/share/xwcp)",
    )
    p.add_argument("--min-score", type=int, default=50, metavar="N", help="ignore words scored below N (default 50)")
    p.add_argument("--allow-dupes", action="store_true", help="allow a word to fill more than one slot")
    p.add_argument(
        "--strict",
        action="store_true",
        help="refuse a grid whose completed entries are not all in the word list (exit 1, unfillable); "
        "without it they are kept, with a warning",
    )
    p.add_argument(
        "--format",
        choices=list(formats),
        default="text",
        help="output format (default text)"
        + ("; grid: the filled grid in the syntax xwcp reads" if "grid" in formats else ""),
    )
    g = p.add_argument_group("constructor's controls")
    g.add_argument(
        "--lock",
        action="append",
        default=[],
        metavar="SLOT=WORD",
        help="keep WORD in SLOT (a theme entry; may be a word the list lacks); repeatable",
    )
    g.add_argument("--ban", action="append", default=[], metavar="WORD", help="never use WORD; repeatable")
    g.add_argument("--ban-file", action="append", default=[], metavar="FILE", help="never use the words in FILE")
    g.add_argument(
        "--slot-min",
        action="append",
        default=[],
        metavar="SLOT=N",
        help="minimum score for one slot (overrides --min-score there); repeatable",
    )
    g.add_argument(
        "--region",
        metavar="R1,C1:R2,C2",
        help="fill only the empty cells of this rectangle (rows, columns from 1, inclusive); "
        "letters outside stay, empty cells outside stay empty",
    )
    g.add_argument(
        "--max-shared-substring",
        type=positive_int,
        metavar="N",
        help="no two entries share a substring longer than N letters",
    )
    g.add_argument(
        "--filter",
        action="append",
        default=[],
        metavar="SLOT=SPEC",
        help="what one slot's entry must be: ~REGEX (the whole entry matches, e.g. 17A=~.*ING), +TEXT (contains), "
        "-TEXT (does not contain), !WORD (not WORD here), @FILE (only FILE's words), @personal (only your personal "
        "list's); repeatable, all must hold",
    )
    g.add_argument(
        "--distinct-stems",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="no two entries of one stem (RUNS, RUNNER) and none a compound of another (CONE, ICECREAMCONE: "
        "4+ letters joined to another listed word); the words skipped are named; on by default with --quality, "
        "off otherwise",
    )
    g.add_argument(
        "--no-crossing",
        action="append",
        default=[],
        metavar="TAG:TAG",
        help="no entry tagged TAG crosses one tagged the other TAG (tags: name, abbr, foreign, obscure: scored "
        "below 50); tags come from a list's third column (WORD;score;tags), --tag and --names-from; repeatable",
    )
    g.add_argument(
        "--tag",
        action="append",
        default=[],
        metavar="WORD=TAGS",
        help="tag WORD for --no-crossing, e.g. ENO=name or NCAA=abbr,name; repeatable",
    )
    g.add_argument(
        "--names-from",
        metavar="DIC",
        help="tag as names the capitalised entries of this Hunspell .dic (e.g. /usr/share/hunspell/en_US.dic)",
    )


def _add_solver_args(p: argparse.ArgumentParser, default_limit: float | None) -> None:
    """--backend, --time-limit (default `default_limit`) and --seed."""
    from xwcp.services.backends import BACKENDS, DEFAULT_BACKEND

    p.add_argument(
        "--backend",
        default=DEFAULT_BACKEND,
        metavar="NAME",
        help=f"solver: {', '.join(BACKENDS)} (default {DEFAULT_BACKEND}: the fastest, racing a portfolio on the cores)",
    )
    p.add_argument(
        "--time-limit",
        type=positive_float,
        default=default_limit,
        metavar="S",
        help="give up after S seconds" + (f" (default {default_limit:g})" if default_limit else ""),
    )
    p.add_argument("--seed", type=seed, default=0, metavar="N", help=f"random seed, 0 to {MAX_SEED} (default 0)")


def _add_fill(sub: Subparsers) -> None:
    p = sub.add_parser(
        "fill",
        help="fill a grid with words from the list",
        description="Fill every slot of GRID with listed words (no word twice).",
        epilog="Example: xwcp fill models/15x15-daily-01.txt --quality --lock 1A=ASHES --ban ESNE",
    )
    _add_problem_args(p, ("text", "json", "grid"))
    _add_solver_args(p, None)
    p.add_argument(
        "--count",
        type=_count,
        default=None,
        metavar="N",
        help="return N distinct fills, or 'all' to count every fill (small grids)",
    )
    p.add_argument(
        "--min-diff",
        type=positive_int,
        default=None,
        metavar="K",
        help="with --count N: every two fills differ in at least K entries",
    )
    p.add_argument(
        "--quality",
        action="store_true",
        help="search for the highest minimum score (proven where possible), then the fewest "
        "entries at it, then the highest mean, with a bound; anytime, default --time-limit 60",
    )
    p.add_argument(
        "--processes",
        type=positive_int,
        default=None,
        metavar="N",
        help="run at most N search processes at once (the auto backend's portfolio; default: the cores this "
        "process may use, capped by XWCP_MAX_PROCESSES; 1: one search, no race)",
    )
    p.add_argument("--export-cnf", metavar="FILE", help="also write the SAT encoding of the grid as DIMACS CNF")
    p.add_argument(
        "--out",
        metavar="FILE",
        help="write the filled puzzle to FILE (.puz, .ipuz, .xd, .jpz, .txt or .json; "
        "numbered, with GRID's title, author and clues where it has them, else empty clues)",
    )


def _add_domains(sub: Subparsers) -> None:
    p = sub.add_parser(
        "domains",
        help="per slot: how many words still fit, and the best ones",
        description="Arc-consistent domains: for each open slot the number of words that "
        "still fit without an immediate dead end, and the top-k ranked by how many "
        "options they leave their crossings, then by score.",
        epilog="Example: xwcp domains models/15x15-daily-01.txt --slot 1A -k 10",
    )
    _add_problem_args(p)
    p.add_argument("--slot", metavar="ID", help="only this slot, e.g. 12A")
    p.add_argument("-k", type=positive_int, default=20, metavar="K", help="words to show per slot (default 20)")
    _add_by_arg(p)


def _add_by_arg(p: argparse.ArgumentParser) -> None:
    """`--by`, how domains and suggest rank a slot's words."""
    p.add_argument(
        "--by",
        choices=["score", "fit"],
        default="score",
        help="rank by score, crossing fit breaking ties (default), or by crossing fit first",
    )


def _add_suggest(sub: Subparsers) -> None:
    p = sub.add_parser(
        "suggest",
        help="ranked words for one slot, optionally verified by a solver",
        description="Suggestions for one slot. With --verify the words are checked by a solver, "
        "together, within --time-limit seconds in total: viable (a full fill with the "
        "word exists), dead-end (proven that none does) or unknown (not settled in "
        "time). A progress line shows on a terminal.",
        epilog="Example: xwcp suggest models/15x15-daily-01.txt --slot 1A --verify --time-limit 5",
    )
    _add_problem_args(p)
    p.add_argument("--slot", required=True, metavar="ID", help="the slot, e.g. 12A")
    p.add_argument("-k", type=positive_int, default=10, metavar="K", help="words to show (default 10)")
    _add_by_arg(p)
    p.add_argument(
        "--verify", action="store_true", help="check the words with a solver, together, within --time-limit in total"
    )
    p.add_argument("--show-fill", action="store_true", help="with --verify, show the fill that proves a word viable")
    _add_solver_args(p, 5.0)
    p.add_argument(
        "--processes",
        type=positive_int,
        default=None,
        metavar="N",
        help="with --verify, label in at most N processes at once (default: the cores this process may use, "
        "capped by XWCP_MAX_PROCESSES; 1: this one only)",
    )


def _add_heatmap(sub: Subparsers) -> None:
    p = sub.add_parser(
        "heatmap",
        help="letters still possible in each cell (the alphabet's size free .. 1 forced .. 0 dead)",
        description="Per white cell, the number of letters still possible after arc consistency.",
        epilog="Example: xwcp heatmap models/15x15-daily-01.txt --png heat.png",
    )
    _add_problem_args(p)
    p.add_argument(
        "--png",
        metavar="FILE",
        help="also draw the heat map as a picture; the format follows the "
        "extension (.png, .svg, .pdf, .jpg, ...; none: .png is added)",
    )


def _add_check(sub: Subparsers) -> None:
    p = sub.add_parser(
        "check",
        help="is the grid fillable? the tightest slot and the forced letters",
        description="The verdict: fillable (a fill is shown, exit 0), unfillable (proven by arc "
        "consistency, the rules or a solver; exit 1) or unknown (no dead end found and "
        "the solver hit --time-limit; exit 3). Also the most constrained open slot, the "
        "letters forced so far and the completed entries not in the word list.",
        epilog="Example: xwcp check models/15x15-daily-01.txt --time-limit 10",
    )
    _add_problem_args(p)
    _add_solver_args(p, 10.0)


def _add_serve(sub: Subparsers) -> None:
    p = sub.add_parser(
        "serve",
        help="the web builder: edit a grid in the browser with live help and autofill",
        description="Serve the web builder and its JSON API (needs the [web] extra: starlette, "
        "uvicorn). The first line printed is the page's URL.",
        epilog="Example: xwcp serve --port 8000 --max-fills 2",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_number, default=8000, help="port, 1 to 65535 (default 8000)")
    p.add_argument(
        "--words",
        metavar="FILE",
        action="append",
        help="word list (default: the embedded list); "
        "repeat to layer lists as for fill; the personal list is layered over them",
    )
    _add_language_arg(p)
    p.add_argument(
        "--max-fills",
        type=positive_int,
        default=None,
        metavar="N",
        help="autofills run at once, over all workers; more get HTTP 429 (default: the number of cores)",
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="server processes sharing the port (default: the number of cores); each request is "
        "stateless, so any of them answers it",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer requests for this host name (default: only 127.0.0.1, localhost, ::1 and "
        "--host; others get 403, which stops DNS rebinding); repeatable",
    )
    p.add_argument(
        "--no-personal",
        action="store_true",
        help="do not use or edit the personal word list (for a server shared by several people)",
    )
    p.add_argument(
        "--cache-mb",
        type=positive_int,
        default=512,
        metavar="MB",
        help="memory for the grids the server keeps between requests, over all workers, in MB "
        "(default 512; a 60x60 with its engine takes about 130, a 15x15 about 7)",
    )


def _add_convert(sub: Subparsers) -> None:
    p = sub.add_parser(
        "convert",
        help="convert a puzzle between .txt, .puz, .ipuz, .xd, .jpz and .json",
        description="Read IN and write OUT, each in the format of its file extension "
        "(.txt, .puz, .ipuz, .xd, .jpz, .json); title, author, copyright, notes, clues, "
        "bars, marks and rebus cells are kept where both formats have them (a format "
        "that cannot hold something refuses it).",
        epilog="Example: xwcp convert models/15x15-daily-01.txt daily.puz",
    )
    p.add_argument("input", metavar="IN", help="puzzle file to read")
    p.add_argument("output", metavar="OUT", help="puzzle file to write")
    _add_language_arg(p)
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")


def _add_languages(sub: Subparsers) -> None:
    p = sub.add_parser(
        "languages",
        help="the language packs: one per line, its code first",
        description="Every language pack xwcp ships, one per line: code, name, number of letters, "
        "direction (ltr/rtl) and the letters in order. Give the code to --language.",
        epilog="Example: xwcp languages --format json",
    )
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")


def _add_clues(sub: Subparsers) -> None:
    p = sub.add_parser(
        "clues",
        help="clue help: your earlier clues, definitions and the phrase an answer spells; clue checks",
        description="For each ANSWER: the clues you wrote for it before (the clue memory, clues.json in "
        "$XWCP_DATA_DIR, filled by --learn and shared with nothing else), its definitions from WordNet (Debian's "
        "wordnet-base; its licence is shown) and the words it spells (ICECREAMCONE: ICE CREAM CONE, from the "
        "list's spacing, WordNet or word frequencies). --check notes clues that give their answer away, an "
        "uncommon word two clues share and clues too long for a .puz.",
        epilog="Example: xwcp clues ICECREAMCONE GEESE --format json; xwcp clues --learn old.puz --check new.puz",
    )
    p.add_argument("answers", nargs="*", metavar="ANSWER", help="answers to help with, any spelling")
    p.add_argument(
        "--words",
        metavar="FILE",
        action="append",
        help="word list whose lines written with spaces (ICE CREAM CONE;60) give the phrase; repeatable",
    )
    p.add_argument(
        "--limit",
        type=non_negative_int,
        default=8,
        metavar="N",
        help="definitions shown per answer (0: all; default 8)",
    )
    p.add_argument(
        "--learn", metavar="PUZZLE", action="append", help="remember the clues of a puzzle file's complete entries"
    )
    p.add_argument("--check", metavar="PUZZLE", help="check the clues of a puzzle file")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")


def _add_bench(sub: Subparsers, with_bench: bool) -> None:
    p = sub.add_parser(
        "bench",
        help="benchmark backends (and peer solvers) on grid sets",
        description="Run every backend on every grid and seed; write rows (CSV/JSON) and plots, print a summary.",
        epilog="Example: xwcp bench --suite stock --backends backtrack,cpsat --time-limit 30",
    )
    if with_bench:
        from xwcp.bench import add_bench_arguments

        add_bench_arguments(p)


def _add_batch(sub: Subparsers) -> None:
    p = sub.add_parser(
        "batch",
        help="fill many grids as Dask tasks (this machine's cores, or a cluster)",
        description="Fill every GRID (files, or folders of .txt grids), one task each, on a local "
        "Dask cluster or the scheduler named by --cluster. Each result is written as it "
        "arrives: OUT/NAME.json (status, fill, quality, timing) and OUT/NAME.txt (the "
        "filled grid). Exit 0 all filled, 1 some proven unfillable, 3 some without an "
        "answer (limit or error), 2 bad input or unreachable cluster.",
        epilog="Example: xwcp batch models/ --out fills --time-limit 30 --resume",
    )
    p.add_argument("grids", nargs="+", metavar="GRID", help="grid files, or folders of *.txt grid files")
    p.add_argument(
        "--out", default="xwcp-batch", metavar="DIR", help="folder for the result files (default xwcp-batch)"
    )
    p.add_argument("--resume", action="store_true", help="skip grids whose result file is already in --out")
    p.add_argument("--quality", action="store_true", help="search each fill for quality, as fill --quality does")
    p.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="Dask scheduler, e.g. tcp://HOST:8786 (default: a local cluster of one-thread worker processes)",
    )
    p.add_argument(
        "--workers",
        type=positive_int,
        metavar="N",
        help="local workers (default: the cores); with --cluster, wait for N workers",
    )
    p.add_argument(
        "--words",
        metavar="FILE",
        help="word list (default: the embedded list); with --cluster, a path every worker can read",
    )
    _add_language_arg(p)
    p.add_argument("--min-score", type=int, default=50, metavar="N", help="ignore words scored below N (default 50)")
    p.add_argument("--allow-dupes", action="store_true", help="allow a word to fill more than one slot")
    p.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")
    _add_solver_args(p, 60.0)


def _add_design(sub: Subparsers) -> None:
    p = sub.add_parser(
        "design",
        help="design grids around theme entries: symmetric block patterns, proven fillable, filled",
        description="Place the theme entries in a symmetric block pattern that keeps the rules (white "
        "cells connected, entries of 3+ letters, every letter checked, at most --max-words "
        "entries and --max-blocks blocks), prove it fillable and fill it for quality. The "
        "pattern comes from a CP-SAT model; a pattern no fill can complete is cut by its "
        "minimal core and the model asked again. Progress shows on a terminal. Exit 0 "
        "designs found, 1 proven that none exists under the rules, 3 time limit without a "
        "design, 2 bad input.",
        epilog="Example: xwcp design --size 15x15 --theme SPEAKOFTHEDEVIL --theme OBEDIENCESCHOOL "
        "--theme SITONTHEFENCE --theme STAYTHECOURSE --count 2",
    )
    p.add_argument("--size", default="15x15", metavar="WxH", help="grid size (default 15x15)")
    p.add_argument(
        "--theme",
        action="append",
        default=[],
        metavar="WORD",
        help="a theme entry (need not be in the word list); repeatable",
    )
    p.add_argument(
        "--at",
        action="append",
        default=[],
        metavar="WORD=ROW,COL,A|D",
        help="put WORD there (rows and columns from 1; A across, D down); repeatable",
    )
    p.add_argument(
        "--symmetry",
        choices=["rotational", "mirror", "none"],
        default="rotational",
        help="block symmetry (default rotational)",
    )
    p.add_argument(
        "--style",
        choices=["american", "british"],
        default="american",
        help="american: every letter checked; british: unchecked letters allowed, never two in a row "
        "(default american)",
    )
    p.add_argument(
        "--max-words",
        type=positive_int,
        metavar="N",
        help="most entries (default 78 on a 15x15, 32 british; other sizes by area)",
    )
    p.add_argument("--min-words", type=int, metavar="N", help="fewest entries (default --max-words minus 4)")
    p.add_argument(
        "--max-blocks",
        type=int,
        metavar="N",
        help="most blocks (default 38 on a 15x15, 67 british; other sizes by area)",
    )
    p.add_argument(
        "--max-length",
        type=positive_int,
        metavar="N",
        help="longest entry that is not a theme entry (default 8 on a 15x15; british: none)",
    )
    p.add_argument(
        "--count", type=positive_int, default=1, metavar="N", help="designs wanted, ranked by fill quality (default 1)"
    )
    p.add_argument(
        "--min-diff",
        type=positive_int,
        default=8,
        metavar="K",
        help="cells (block or white) in which every two designs differ (default 8)",
    )
    p.add_argument(
        "--time-limit",
        type=positive_float,
        metavar="S",
        help="stop after S seconds in all (default 120 per design asked)",
    )
    p.add_argument(
        "--quality-time",
        type=float,
        default=20.0,
        metavar="S",
        help="seconds of quality search per design (default 20; 0 keeps the first fill)",
    )
    p.add_argument("--seed", type=seed, default=0, metavar="N", help=f"random seed, 0 to {MAX_SEED} (default 0)")
    p.add_argument(
        "--words", metavar="FILE", action="append", help="word list(s), as for fill (default: the embedded list)"
    )
    _add_language_arg(p)
    p.add_argument("--min-score", type=int, default=50, metavar="N", help="ignore words scored below N (default 50)")
    p.add_argument("--ban", action="append", default=[], metavar="WORD", help="never use WORD; repeatable")
    p.add_argument("--ban-file", action="append", default=[], metavar="FILE", help="never use the words in FILE")
    p.add_argument(
        "--format",
        choices=["text", "json", "grid"],
        default="text",
        help="output format (default text; grid: the designs in the syntax xwcp reads)",
    )
    p.add_argument("--out", metavar="FILE", help="write the best design to FILE (.puz, .ipuz, .xd, .txt or .json)")


def _add_words(sub: Subparsers) -> None:
    p = sub.add_parser(
        "words",
        help="word lists: build a scored list for a language from wordfreq, Hunspell or a system list",
        description="Jobs on word lists. `build` makes a scored WORD;score list for a "
        "language on this machine and says where it came from and under what licence.",
        epilog="Example: xwcp words build --language es --from hunspell",
    )
    jobs = p.add_subparsers(dest="words_command", metavar="JOB", parser_class=_Parser, required=True)
    b = jobs.add_parser(
        "build",
        help="build a scored list for a language (wordfreq, Hunspell, /usr/share/dict, a file)",
        description="Read the words of SOURCE, fold each into the language's alphabet "
        "(words with other letters are counted and named, never changed into other words) and "
        "write WORD;score lines in the alphabet's letters (AÑO, ЖУК, IJS) to --out, by default "
        "<data folder>/words/CODE-SOURCE.dict ($XWCP_DATA_DIR, else $XDG_DATA_HOME/xwcp, else "
        "~/.local/share/xwcp). Prints where the words came from and their licence. The sources "
        "come from .ci/install-languages.sh or pip install 'xwcp[languages]'.",
        epilog="Example: xwcp words build --language es; then "
        "xwcp fill GRID --language es --words ~/.local/share/xwcp/words/es-checked.dict",
    )
    b.add_argument(
        "--language",
        required=True,
        metavar="CODE",
        help="the language pack (see `xwcp languages`), or a pack's .json file",
    )
    b.add_argument(
        "--from",
        dest="source",
        default="auto",
        metavar="SOURCE",
        help="checked (wordfreq's words in use that the Hunspell dictionary accepts; names, "
        "abbreviations, joined and English words, one-letter runs left out; scored in bands), wordfreq "
        "(PyPI's frequency lists, data CC BY-SA 4.0), hunspell (the system's Hunspell "
        "dictionary, affixes expanded), dict (/usr/share/dict), wspanish (/usr/share/dict/spanish), "
        "or a FILE (a .dic with its .aff, or a WORD;score or word-a-line list); default auto: "
        "checked if wordfreq and the dictionary are installed, else wordfreq, else hunspell, else "
        "dict",
    )
    b.add_argument("--out", metavar="PATH", help="where to write the list (default in the data folder, see above)")
    b.add_argument(
        "--min-length",
        type=positive_int,
        default=2,
        metavar="N",
        help="fewest letters (cells) a word may have (default 2)",
    )
    b.add_argument(
        "--max-length",
        type=positive_int,
        default=21,
        metavar="N",
        help="most letters (cells) a word may have (default 21)",
    )
    b.add_argument(
        "--scores",
        choices=["auto", "flat", "wordfreq"],
        default="auto",
        help="scores of a source without frequencies: flat 50, or by wordfreq (words it has not seen "
        "30); default auto: wordfreq when installed",
    )
    b.add_argument("--max-words", type=positive_int, metavar="N", help="keep only the N best-scored words")
    b.add_argument(
        "--min-zipf",
        type=float,
        metavar="Z",
        help="checked: leave out words rarer than Z (wordfreq's zipf: log10 uses a billion words; "
        "default 2.5, every word then scores 50 or more; 1.5 adds the rare band, 40)",
    )
    b.add_argument(
        "--checker",
        choices=["auto", "command", "spylls"],
        default="auto",
        help="checked: ask the dictionary through the hunspell command or PyPI's spylls (default auto: "
        "the command if installed)",
    )
    b.add_argument(
        "--max-read",
        type=positive_int,
        metavar="N",
        help="stop (exit 3, nothing written) past N words read from the source (default 5,000,000, and "
        "for a Hunspell pair at most 25 forms a byte of its files, 200,000 at least)",
    )
    b.add_argument(
        "--time-limit",
        type=positive_float,
        default=600.0,
        metavar="S",
        help="stop (exit 3, nothing written) when reading the source takes over S seconds (default 600)",
    )
    b.add_argument("--encoding", metavar="NAME", help="a FILE's text encoding (default UTF-8, else Latin-1)")
    b.add_argument("--format", choices=["text", "json"], default="text", help="output format (default text)")


COMMANDS = ("fill", "domains", "suggest", "heatmap", "check", "serve", "convert", "bench", "batch", "words", "clues")
"""The commands whose parser `main` builds alone (`xwcp design ...` builds them all, as it always has)."""


def build_parser(with_bench: bool = True, only: str | None = None) -> argparse.ArgumentParser:
    """The `xwcp` parser; `with_bench=False` leaves the bench command's own options out, and `only`
    (a command name) every other command's (faster start: argparse builds a small fill's options
    in a millisecond, all of them in about 15)."""
    parser = _Parser(
        prog="xwcp", description="Crossword fill engine: fill grids, see what fits, find where a grid is stuck."
    )
    parser.add_argument("--version", action="version", version=f"xwcp {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    add_by_command: dict[str, Callable[[Subparsers], None]] = {
        "fill": _add_fill,
        "domains": _add_domains,
        "suggest": _add_suggest,
        "heatmap": _add_heatmap,
        "languages": _add_languages,
        "check": _add_check,
        "clues": _add_clues,
        "serve": _add_serve,
        "convert": _add_convert,
        "bench": lambda action: _add_bench(action, with_bench),
        "batch": _add_batch,
        "design": _add_design,
        "words": _add_words,
    }
    for name, add in add_by_command.items():  # in this order in --help
        if only in (None, name):
            add(sub)
    return parser
