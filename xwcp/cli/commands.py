"""The `xwcp` command line's entry point: parse, run the command, turn every outcome into its exit code.

The commands live one module per command or group (`fill`, `analyse`, `convert`, `design`, `serve`,
`batch`, `bench`), their options in `parser`, the exit codes in `exits`. Each command parses, calls the
library or the services, prints; no fill logic lives here.

Exit codes: 0 done, 1 proven unfillable, 2 bad input or usage, 3 limit reached without an answer,
70 internal error (a bug: one line, the traceback with XWCP_DEBUG=1), 128 + N stopped by signal N
(130 Ctrl-C, 143 SIGTERM, 129 SIGHUP; see xwcp.runtime.signals).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable

from xwcp.base.errors import InputError, front_end
from xwcp.cli.exits import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK
from xwcp.cli.output import StdoutFailed, clear_warnings, guarded_stdout, print_quietly, silence_stdout
from xwcp.cli.parser import COMMANDS, build_parser

__all__ = ["build_parser", "main"]

REPORT_HINT = (
    "this is a bug in xwcp: please report it with the command and input files (XWCP_DEBUG=1 shows the traceback)"
)

MODULE_BY_COMMAND = {
    "fill": "fill",
    "languages": "languages",
    "domains": "analyse",
    "suggest": "analyse",
    "heatmap": "analyse",
    "check": "analyse",
    "serve": "serve",
    "convert": "convert",
    "bench": "bench",
    "batch": "batch",
    "design": "design",
    "words": "words",
    "clues": "clues",
}
"""The module of `xwcp.cli` that holds each command's function `cmd_<command>`: only the command being run
is imported (start-up: a small fill imports no other command's module)."""


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns its exit code (see the module docstring). Never shows a traceback
    unless XWCP_DEBUG=1."""
    from xwcp.runtime.signals import Interrupted, stop_on_signals

    args_in = sys.argv[1:] if argv is None else argv
    # The bench's options need xwcp.bench and its stdlib imports (csv, pickle, platform, ...):
    # only `xwcp bench ...` pays for them, not every fill's start-up.
    command = args_in[0] if args_in and args_in[0] in COMMANDS else None
    parser = build_parser(with_bench=command == "bench", only=command)
    args = parser.parse_args(args_in)
    clear_warnings()
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        with stop_on_signals(), front_end("cli"), guarded_stdout():  # messages name flags (--lock), not keywords
            return _run(parser, args)
    except StdoutFailed as exc:  # a full device, a disk error: the user's environment, not a bug
        silence_stdout()  # what is left in the buffer must not fail again in Python's flush at exit
        print(f"xwcp: error: cannot write to standard output ({exc.strerror})", file=sys.stderr)
        return EXIT_BAD_INPUT
    except InputError as exc:
        print(f"xwcp: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as exc:
        name, code = (exc.name, exc.exit_code) if isinstance(exc, Interrupted) else ("SIGINT", EXIT_INTERRUPTED)
        print(f"xwcp: interrupted ({name})", file=sys.stderr)
        if getattr(args, "format", None) == "json":
            print_quietly(json.dumps({"status": "interrupted", "signal": name}))
        return code
    except BrokenPipeError:  # the reader went away (`| head`): nothing more to say
        silence_stdout()
        return EXIT_OK
    except Exception as exc:  # a bug: one line and its own exit code, never read as an answer
        if os.environ.get("XWCP_DEBUG") == "1":
            raise
        where = _innermost_frame(exc)
        print(
            f"xwcp: internal error: {exc.__class__.__name__}: {_one_line(exc)}{where}; {REPORT_HINT}", file=sys.stderr
        )
        return EXIT_INTERNAL


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Refuse the usage errors the parser cannot see, then run the command."""
    if getattr(args, "backend", None) is not None:  # a wrong name is bad usage even when no solver runs
        from xwcp.services.backends import get_backend

        get_backend(args.backend)
    if getattr(args, "show_fill", False) and not args.verify:
        parser.exit(EXIT_BAD_INPUT, "xwcp suggest: error: --show-fill needs --verify (see --help)\n")
    return command_function(args.command)(args)


def command_function(command: str) -> Callable[[argparse.Namespace], int]:
    """The function that runs `command`: the parsed options in, the exit code out."""
    module = importlib.import_module(f"xwcp.cli.{MODULE_BY_COMMAND[command]}")
    run: Callable[[argparse.Namespace], int] = getattr(module, f"cmd_{command}")
    return run


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
