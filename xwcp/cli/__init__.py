"""The `xwcp` command line: parse arguments, call the library, print.

The commands live in `xwcp.cli.commands`; `main` is the console script's entry point."""
from xwcp.cli.commands import build_parser, main

__all__ = ["build_parser", "main"]
