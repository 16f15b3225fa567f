"""The one loader: a grid and a word list read and compiled into a problem, with what the user should be told.

Every front door loads through `load`: the command line (`xwcp.services.quick.load_and_fill`, and
`xwcp.services.load.load_puzzle_problem` for the other commands), the library (`xwcp.Session`, so every
one-call job), the web builder's fill and the batch tasks. It takes the grid as a file name, grid text, a
list of rows, a `Grid` or a `Puzzle`, and the word list as a file, layered files, a `WordList` or None (the
default list); it answers with the puzzle read, the problem compiled and the warnings, each said to `warn`
as it comes.

`plain=True` is the numpy-free start-up path of a small `xwcp fill` (`load_plain`; see
xwcp/services/quick.py): the problem's domains are bitsets over the memory-mapped cache of the list. It
applies when the grid and the list are files (or the default list) already cached; otherwise the
ordinary problem is compiled.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, cast

from xwcp.base.errors import InputError, option_text
from xwcp.base.lines import one_line
from xwcp.compile.controls import Controls
from xwcp.compile.problem import (
    Problem,
    check_letters,
    compile_problem,
    compile_structure,
    plain_problem,
    unlisted_text,
)
from xwcp.engine.plain_kernel import plain_search_supported
from xwcp.formats import Puzzle, check_writable, read_puzzle
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.words.cache import CacheDamaged
from xwcp.words.wordlist import describe_problems, layer_word_lists, load_word_list, read_mapped_word_list

if TYPE_CHECKING:
    from xwcp.services.inputs import LanguageLike
    from xwcp.words.wordlist import MappedWordList, WordList

Warn = Callable[[str], None]
"""Hears one line per thing the user should know (skipped list lines, a key that unlocked a file, ...)."""
WordPaths = str | Path | Sequence[str | Path | None] | None
"""Word lists as the command line names them: None (the default list), a file, or files layered in order
(None in the list is the default list)."""


@dataclass(frozen=True)
class LoadOptions:
    """How a grid and its word list are read and compiled: the options every front door gathers once and passes
    down (`xwcp.compile.problem.compile_problem`'s, and the language the puzzle is read in)."""

    min_score: int = 50
    """Words scored below this are never used."""
    allow_dupes: bool = False
    """Allow a word in more than one slot."""
    strict: bool = False
    """Refuse a grid whose completed entries are not all listed (it is then unfillable)."""
    controls: Controls | None = None
    """The constructor's controls (locks, bans, per-slot floors, region, shared substrings); None: none."""
    language: LanguageLike = None
    """A pack's code or .json file, or an `Alphabet`; None: the one the grid file names (or a loaded WordList's),
    else English (`xwcp.services.inputs.read_language`)."""


DEFAULT_OPTIONS = LoadOptions()


class Loaded(NamedTuple):
    """What `load` read and compiled (a NamedTuple: `puzzle, problem, warnings = load(...)`)."""

    puzzle: Puzzle
    """The puzzle read (its title, author and clues, for saving a fill)."""
    problem: Problem
    """The problem compiled with the options; plain (bitset domains) from `load(plain=True)` when it applied."""
    warnings: tuple[str, ...]
    """What `warn` was told, in order."""


def load(
    grid: object,
    words: object = None,
    options: LoadOptions = DEFAULT_OPTIONS,
    *,
    warn: Warn | None = None,
    out: str | Path | None = None,
    as_paths: bool = False,
    plain: bool = False,
    source: str = "<grid text>",
) -> Loaded:
    """Read the grid and the word list and compile them with `options` (`xwcp.compile.problem.compile_problem`'s,
    and the language).

    Args:
        grid: a puzzle file (any format, by extension), grid text (a str with a line break), a list of rows,
            a `Grid` or a `Puzzle` (`xwcp.services.inputs.read_grid_like`).
        words: None for the default list, a `WORD;score` file, a `WordList`, and the rest a library caller
            may give (`read_words`); with `as_paths`, a file or a list of files layered in order.
        warn: told each warning as it comes: what reading the puzzle file said, each list's skipped
            lines and notes, the problem's notes and the entries the list lacks (unless `strict`).
        out: the file a fill will be written to: what its format cannot hold of the puzzle (bars in a .puz)
            is refused as soon as the puzzle is read, before any work (`xwcp.formats.check_writable`).
        as_paths: the command line's reading: `grid` is a file name (`-` standard input) and `words` file names.
        plain: the numpy-free problem when it applies (`load_plain`), else the ordinary one.
        source: the name grid text is read under (error messages say it).

    The grid is read and the lists are loaded in `options.language`; the default list (English) is refused for
    another language.

    Raises:
        TypeError: a grid or list of none of the accepted kinds.
        InputError: an unreadable or malformed grid or list, or controls that do not fit the grid.
    """
    from xwcp.services.inputs import list_alphabet, read_grid_like, read_language, read_words  # a library
    # caller's kinds (the CLI's are paths)

    alphabet = read_language(options.language)
    if plain and (alphabet is None or alphabet.is_ascii):
        loaded = load_plain(grid, words, options, warn=warn, out=out)
        if loaded is not None:
            return loaded
    said: list[str] = []
    tell = _teller(said, warn)
    alphabet = alphabet or (None if as_paths else list_alphabet(words))
    puzzle = (
        read_puzzle(os.fspath(cast("str | os.PathLike[str]", grid)), alphabet)
        if as_paths
        else read_grid_like(grid, source=source, alphabet=alphabet)
    )
    if out is not None:
        check_writable(puzzle, out)
    if isinstance(grid, (str, os.PathLike)) and not _is_text(grid):
        warn_puzzle(puzzle, os.fspath(grid), tell)
    elif isinstance(grid, (str, list, tuple)):  # grid text or rows: their reader's notes (a letter read as a rebus)
        warn_puzzle(puzzle, source if isinstance(grid, str) else "<grid rows>", tell)
    word_list = (
        load_words(_word_paths(words), tell, puzzle.alphabet)
        if as_paths
        else read_words(words, alphabet=puzzle.alphabet)
    )
    if not as_paths:
        warn_list(word_list, tell)
    if not word_list.alphabet.is_ascii and isinstance(grid, (str, os.PathLike)) and not _is_text(grid):
        try:  # the compiler checks this too; here the message names the file
            check_letters(puzzle.grid, word_list.alphabet)
        except InputError as exc:
            raise InputError(exc.message, os.fspath(grid)) from None
    problem = compile_problem(
        puzzle.grid,
        word_list,
        min_score=options.min_score,
        allow_dupes=options.allow_dupes,
        strict=options.strict,
        controls=options.controls,
    )
    warn_problem(problem, options.strict, tell)
    return Loaded(puzzle, problem, tuple(said))


def load_plain(
    grid: object,
    words: object = None,
    options: LoadOptions = DEFAULT_OPTIONS,
    *,
    warn: Warn | None = None,
    out: str | Path | None = None,
) -> Loaded | None:
    """`load` without numpy, the command line's reading: the puzzle, and its problem compiled over the
    memory-mapped cache of the list, its domains bitsets (`xwcp.engine.kernel.is_plain`).

    Returns:
        None when this path does not apply (nothing was said to `warn` then): a grid that is not a file
        name, standard input, several lists, a list not cached yet or whose cache does not verify, the
        shared-substring control, or a C search state PlainBitSearch does not know.

    Raises:
        InputError: as `load` (unreadable grid or list, controls that do not fit).
    """
    controls = options.controls or Controls()
    paths = list(words) if isinstance(words, (list, tuple)) else [words]
    first = paths[0] if paths else None
    if (
        not isinstance(grid, (str, os.PathLike))
        or str(grid) == "-"
        or "\n" in str(grid)
        or len(paths) > 1
        or not (first is None or isinstance(first, (str, os.PathLike)))
        or controls.has_pair_rules
        or bool(controls.filters_by_slot)
        or not plain_search_supported()
    ):
        return None
    word_list = read_mapped_word_list(first if first is None or isinstance(first, str) else Path(first))
    if word_list is None:
        return None
    puzzle = read_puzzle(os.fspath(grid))
    if not puzzle.alphabet.is_ascii or puzzle.grid.has_chains:  # another language: the ordinary path loads its
        return None  # list; chains: their fill compiles a split at a time (`xwcp.services.chains`)
    if out is not None:
        check_writable(puzzle, out)
    try:
        problem = compile_structure(
            puzzle.grid,
            word_list,
            min_score=options.min_score,
            allow_dupes=options.allow_dupes,
            strict=options.strict,
            controls=controls,
        )
        for length in sorted({slot.length for slot in problem.slots}):  # letter cells, rebus included
            word_list.row(length)  # verifies the words of each length the grid uses
    except CacheDamaged:  # the ordinary path rebuilds the list and says so
        return None
    problem = plain_problem(problem)
    said: list[str] = []
    tell = _teller(said, warn)
    warn_puzzle(puzzle, os.fspath(grid), tell)
    warn_list(word_list, tell)
    warn_problem(problem, options.strict, tell)
    return Loaded(puzzle, problem, tuple(said))


def load_words(words_path: WordPaths = None, warn: Warn | None = None, alphabet: Alphabet = ENGLISH) -> WordList:
    """The word list: None for the default, a path, or a list of paths layered in order (later lists score
    over earlier ones), read in `alphabet`; `warn` hears one line per thing the user should know about each list.

    Raises:
        InputError: an unreadable list, one without a word of `alphabet`, or the default (English) list for
            another alphabet (the message says to give a list or build one).
    """
    paths = _word_paths(words_path)
    if not alphabet.is_ascii and None in paths:
        from xwcp.services.inputs import default_list_refusal

        raise default_list_refusal(alphabet)
    layers = [load_word_list(path, alphabet=alphabet) for path in paths]
    if warn is not None:
        for words in layers:
            warn_list(words, warn)
    if len(layers) == 1:
        return layers[0]
    layered = layer_word_lists(layers)
    if warn is not None:
        for note in layered.notes:  # its own cache rebuilt
            warn(note)
    return layered


def _is_text(grid: str | os.PathLike[str]) -> bool:
    """Grid text rather than a file name (a str with a line break)."""
    return isinstance(grid, str) and ("\n" in grid or "\r" in grid)


def _word_paths(words: object) -> list[str | Path | None]:
    """The lists the command line names (see `WordPaths`), one per layer; TypeError for anything else."""
    named = list(words) if isinstance(words, (list, tuple)) else [words]
    paths: list[str | Path | None] = []
    for path in named or [None]:
        if not (path is None or isinstance(path, (str, os.PathLike))):
            raise TypeError(f"a word list is a file name or None here, not {type(path).__name__}")
        paths.append(path if path is None or isinstance(path, str) else Path(path))
    return paths


def _teller(said: list[str], warn: Warn | None) -> Warn:
    def tell(message: str) -> None:
        message = one_line(message)  # what a file quotes stays one readable line, for every front door
        said.append(message)
        if warn is not None:
            warn(message)

    return tell


def warn_puzzle(puzzle: Puzzle, path: str | Path, warn: Warn) -> None:
    """Tell `warn` what reading the puzzle file had to say (a key that unlocked it, a checksum, ...)."""
    for warning in puzzle.warnings:
        warn(f"{path}: {warning}")


def warn_list(words: WordList | MappedWordList, warn: Warn) -> None:
    """Tell `warn` what the user should know about a loaded list: its skipped lines and its notes."""
    if words.n_problems:
        warn(f"{words.source}: skipped {describe_problems(words.problems, words.n_problems)}")
    for note in words.notes:
        warn(note)


def warn_problem(problem: Problem, strict: bool, warn: Warn) -> None:
    """Tell `warn` what the user should know about a compiled problem: its notes, entries not in the list."""
    for note in problem.notes:
        warn(note)
    if problem.unlisted and not strict:
        warn(unlisted_text(problem) + f" ({option_text('strict', True)} refuses such a grid)")


def load_problem(
    grid_path: str | Path,
    words_path: WordPaths = None,
    options: LoadOptions = DEFAULT_OPTIONS,
    *,
    warn: Callable[[str], None] | None = None,
) -> Problem:
    """Read the grid (any puzzle format, by extension) and word list(s) and compile them with `options`
    (`xwcp.services.load.load`, the command line's reading).

    Args:
        words_path: None for the default list, a path, or a list of paths layered in order
            (later lists override earlier scores; a score of 0 or below removes the word).

    `warn` gets one line per thing the user should know: skipped lines, notes about the list
    and its cache, entries the user completed that are not in the list (see `compile_problem`
    for `strict`).

    Raises:
        InputError: unreadable or malformed grid, missing or empty word list, controls that do not fit.
    """
    return load(grid_path, words_path, options, warn=warn, as_paths=True).problem


def load_puzzle_problem(
    grid_path: str | Path,
    words_path: WordPaths = None,
    options: LoadOptions = DEFAULT_OPTIONS,
    *,
    warn: Callable[[str], None] | None = None,
    out: str | Path | None = None,
) -> tuple[Puzzle, Problem]:
    """Like `load_problem`, also returning the puzzle read (its title, author and clues, for `--out`).

    `out`: the file a fill of it will be written to; what that format cannot hold of the puzzle (bars in a
    .puz) is refused as soon as the puzzle is read, before any work (`xwcp.formats.check_writable`)."""
    loaded = load(grid_path, words_path, options, warn=warn, out=out, as_paths=True)
    return loaded.puzzle, loaded.problem
