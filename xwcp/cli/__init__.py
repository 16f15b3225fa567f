"""The `xwcp` command line: parse arguments, call the library, print.

`main` (in `xwcp.cli.commands`) is the console script's entry point; the options are built by
`xwcp.cli.parser.build_parser`; each command lives in its own module (`fill`, `analyse`, `convert`,
`design`, `serve`, `batch`, `bench`)."""

from xwcp.cli.commands import build_parser, main

__all__ = ["build_parser", "main"]
