"""The `languages` command: the shipped language packs, one per line, code first."""

from __future__ import annotations

import argparse

from xwcp.cli.exits import EXIT_OK
from xwcp.cli.output import emit


def cmd_languages(args: argparse.Namespace) -> int:
    """Example: xwcp languages --format json"""
    from xwcp.library.languages import languages, languages_text

    packs = languages()
    emit(args.format, {"languages": packs}, languages_text(packs))
    return EXIT_OK
