"""The grid and word lists a command names, read and compiled with its options through the one loader."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from xwcp.cli.output import warn

if TYPE_CHECKING:  # the loader and the controls pull in the compiler: imported when a command runs
    from xwcp.formats import Puzzle
    from xwcp.services.load import LoadOptions
    from xwcp.services.types import Controls, Problem


def controls(args: argparse.Namespace) -> Controls:
    """The constructor's controls (--lock, --ban, --ban-file, --slot-min, --region, --max-shared-substring,
    --filter, --distinct-stems (on by default with --quality), --no-crossing, --tag, --names-from)."""
    from xwcp.services.types import make_controls

    distinct = args.distinct_stems if args.distinct_stems is not None else bool(getattr(args, "quality", False))
    tags = list(args.tag)
    if args.no_crossing and args.names_from:
        from xwcp.words.hunspell import tagged_stems

        tags.extend(f"{word}={tag}" for word, tag in tagged_stems(args.names_from).items())
    return make_controls(
        locks=args.lock,
        bans=args.ban,
        ban_files=args.ban_file,
        slot_mins=args.slot_min,
        region=args.region,
        max_shared_substring=args.max_shared_substring,
        filters=args.filter,
        personal_list=_personal_path(args) if any("@" in f for f in args.filter) else None,
        distinct_stems=distinct,
        no_crossing=args.no_crossing,
        tags=tags,
        tag_files=[path for path in (args.words or []) if path and path != "-"],
    )


def _personal_path(args: argparse.Namespace) -> str:
    from xwcp.model.alphabet import load_alphabet
    from xwcp.words.userwords import personal_path

    return str(personal_path(load_alphabet(getattr(args, "language", None))))


def load_options(args: argparse.Namespace) -> LoadOptions:
    """How the grid and the lists are read and compiled (--min-score, --allow-dupes, --strict, the controls,
    --language)."""
    from xwcp.services.load import LoadOptions

    return LoadOptions(
        min_score=args.min_score,
        allow_dupes=args.allow_dupes,
        strict=args.strict,
        controls=controls(args),
        language=getattr(args, "language", None),
    )


def word_paths(args: argparse.Namespace) -> list[str | None] | None:
    """The --words lists, with the personal list layered last under --personal (None: the default list)."""
    words: list[str | None] | None = args.words
    if not getattr(args, "personal", False):
        return words
    from xwcp.model.alphabet import load_alphabet
    from xwcp.words.userwords import personal_path

    path = personal_path(load_alphabet(getattr(args, "language", None)))  # each language has its own
    if not path.exists():
        warn(f"no personal word list yet ({path}): the web builder's bans and boosts are kept there")
        return words
    return (words or [None]) + [str(path)]


def load_puzzle(args: argparse.Namespace) -> tuple[Puzzle, Problem]:
    """(puzzle, problem): the grid file read in its format, and the problem compiled with the options."""
    from xwcp.services.load import load_puzzle_problem

    return load_puzzle_problem(args.grid, word_paths(args), load_options(args), warn=warn)


def load_problem(args: argparse.Namespace) -> Problem:
    """The problem compiled from the grid file and lists with the options."""
    return load_puzzle(args)[1]
