"""Check and convert what a library caller passes (grids, word lists, slots, limits, numbers), once, at the boundary.

Every public call of `xwcp.library` runs its arguments through these before any work, so a
wrong type or value is a `TypeError` or `xwcp.InputError` (a `ValueError`) whose message names
the argument and says what it takes, never an error from deep inside numpy or a solver.
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Union, cast

from xwcp.base.errors import InputError, is_cli, option_text
from xwcp.model import Grid, Slot
from xwcp.model.alphabet import ENGLISH, Alphabet, load_alphabet
from xwcp.model.puzzle import Puzzle

if TYPE_CHECKING:
    from xwcp.compile.controls import Controls
    from xwcp.compile.problem import Problem
    from xwcp.words.wordlist import WordList

GridLike = Union[str, "os.PathLike[str]", Grid, Puzzle, Sequence[str]]
"""A grid as the library takes it: a file path (any puzzle format, by extension), grid text (one row
per line: `#` block, `.` empty, letters pre-filled), a list of row strings, a `Grid` or a `Puzzle`."""

WordsLike = Union[
    None,
    str,
    "os.PathLike[str]",
    "WordList",
    Mapping[str, int],
    Iterable[Union[str, tuple[str, int], "os.PathLike[str]", "WordList"]],
]
"""A word list as the library takes it: None (the embedded default list), a `WORD;score` file path,
a loaded `WordList`, a dict {word: score}, an iterable of words or (word, score) pairs, or a list of
files / WordLists layered in order (later ones override scores; a score of 0 or below removes a word)."""

LanguageLike = Union[None, str, "os.PathLike[str]", Alphabet]
"""A puzzle's language: None (the one the grid file names, else English; a loaded WordList's when one is
given), a pack's code (`"es"`, see `xwcp.languages()`), a pack's .json file or an `Alphabet`."""

SizeLike = Union[str, int, tuple[int, int]]
"""A designed grid's size: `"15x15"` (or `"15"`), a side `15`, or `(width, height)`."""

ThemesLike = Union[None, str, Iterable[str]]
"""Theme entries: one word (a str) or a list of words, in any case (spaces and hyphens dropped)."""

AtLike = Union[None, str, Mapping[str, Union[str, tuple[int, int, str]]], Iterable[str]]
"""Where theme entries go: `{"WORD": (row, col, "A")}` (rows and columns from 1; "A" across, "D" down),
`{"WORD": "row,col,A"}`, or the command line's text: `"WORD=row,col,A"` or a list of such strings."""

SlotLike = Union[str, int, Slot]
"""A slot: its name (`"17A"`, any case), its id (index in `Problem.slots`) or the `Slot` itself."""

MAX_SEED = 2**31 - 1
"""Largest seed: CP-SAT takes a 32-bit one, and every backend takes the same seeds (as the CLI's --seed)."""


def type_name(value: object) -> str:
    return type(value).__name__


def read_language(language: object, name: str = "language") -> Alphabet | None:
    """The pack a caller names (see LanguageLike), None when `language` is None.

    Raises:
        TypeError: not a str, a path or an Alphabet.
        InputError: an unknown code (the message names the known ones) or a file that is not a pack.
    """
    if language is None or isinstance(language, Alphabet):
        return language
    if isinstance(language, os.PathLike):
        language = os.fspath(language)
    if not isinstance(language, str):
        raise TypeError(
            f"{name} must be a language code such as 'es' (see xwcp.languages()), a pack's .json file "
            f"or an xwcp Alphabet, not {type_name(language)}"
        )
    return load_alphabet(language)


def list_alphabet(words: object) -> Alphabet | None:
    """The alphabet of a loaded word list among `words` (a WordList, or the first of layered ones), else None."""
    items = [words] if hasattr(words, "word_id") else list(words) if isinstance(words, (list, tuple)) else []
    for item in items:
        alphabet = getattr(item, "alphabet", None) if hasattr(item, "word_id") else None
        if isinstance(alphabet, Alphabet):
            return alphabet
    return None


def read_grid_like(
    grid: object, name: str = "grid", source: str = "<grid text>", alphabet: Alphabet | None = None
) -> Puzzle:
    """The puzzle a caller means by `grid` (see GridLike); a bare grid becomes a Puzzle without metadata.

    A str with a line break is grid text (read under the name `source`); any other str (or a path object)
    is a file name. `alphabet`: the puzzle's language; None: the one the file or text names, else English
    (`Puzzle.alphabet` says which; the cells hold its code chars).

    Raises:
        TypeError: `grid` is none of the accepted kinds.
        InputError: an unreadable file or a malformed grid (the message names the file and line).
    """
    if isinstance(grid, Puzzle):
        if alphabet is None or alphabet == grid.alphabet:
            return grid
        from xwcp.formats._language import code_cells

        return code_cells(grid, alphabet)
    if isinstance(grid, Grid):
        if alphabet is None:
            return Puzzle(grid)
        from xwcp.formats._language import code_cells

        return code_cells(Puzzle(grid), alphabet)
    if isinstance(grid, str) and ("\n" in grid or "\r" in grid):
        from xwcp.model.text import parse_grid, text_alphabet

        alphabet = alphabet or text_alphabet(grid, source)
        notes: list[str] = []  # a letter read as a rebus cell (German ß as [SS])
        return Puzzle(parse_grid(grid, source, alphabet, notes), alphabet=alphabet, warnings=tuple(notes))
    if isinstance(grid, (str, os.PathLike)):
        from xwcp.formats import read_puzzle

        path = os.fspath(grid)
        if isinstance(path, bytes):
            raise TypeError(f"{name} must be a str path, not bytes")
        if isinstance(grid, str) and not grid.strip():
            raise InputError(f"{name} is an empty string: give a file path or grid text (one row per line)")
        if (
            isinstance(grid, str)
            and not Path(path).exists()
            and len(grid) <= 30
            and all(ch in "#.?_" or ch.isalpha() for ch in grid)
        ):
            raise InputError(
                f"no such grid file {grid!r} (grid text needs a line break after each row, e.g. '#...\\n....\\n')"
            )
        return read_puzzle(path, alphabet)
    if isinstance(grid, (list, tuple)) and grid and all(isinstance(row, str) for row in grid):
        from xwcp.model.text import grid_from_rows, text_alphabet

        alphabet = alphabet or text_alphabet("\n".join(grid), "<grid rows>")
        row_notes: list[str] = []
        return Puzzle(
            grid_from_rows(list(grid), "<grid rows>", alphabet, row_notes), alphabet=alphabet, warnings=tuple(row_notes)
        )
    raise TypeError(
        f"{name} must be a file path, grid text, a list of row strings, an xwcp.Grid or an "
        f"xwcp.Puzzle, not {type_name(grid)}"
    )


def same_pack(a: Alphabet, b: Alphabet) -> bool:
    """`a` and `b` read words alike: equal, or one open pack (Hindi) with the letters each list added."""
    return a == b or (a.code == b.code and a.is_open and b.is_open)


def default_list_refusal(alphabet: Alphabet) -> InputError:
    """The one line refusing the default list (English) for a puzzle in another language."""
    language, give = (
        (f"--language {alphabet.code}", "--words LIST") if is_cli() else (f"language={alphabet.code!r}", "words=LIST")
    )
    return InputError(
        f"the default word list is English; for {language} give {give} (a list in {alphabet.name}), "
        f"or build one with `xwcp words build --language {alphabet.code}`"
    )


def read_words(words: object, name: str = "words", alphabet: Alphabet | None = None) -> WordList:
    """The word list a caller means by `words` (see WordsLike), loaded and indexed in `alphabet` (None:
    English, or a loaded WordList's own).

    Raises:
        TypeError: `words` is none of the accepted kinds.
        InputError: a missing or unreadable file, a list with no usable word, the default (English) list or
            a loaded list of another alphabet for a puzzle in `alphabet`.
    """
    from xwcp.words.wordlist import WordList, layer_word_lists, load_word_list, words_from_pairs

    if words is None:
        if alphabet is not None and not alphabet.is_ascii:
            raise default_list_refusal(alphabet)
        return load_word_list()
    if isinstance(words, WordList) or hasattr(words, "word_id") and hasattr(words, "bucket"):
        # (the cache's MappedWordList stands in for a WordList)
        own = getattr(words, "alphabet", ENGLISH)
        if alphabet is not None and not same_pack(own, alphabet):
            raise InputError(
                f"{name} is a {own.name} list ({own.code}) but the puzzle is in {alphabet.name} "
                f"({alphabet.code}): load the list with alphabet=load_alphabet({alphabet.code!r})"
            )
        return cast("WordList", words)
    alphabet = alphabet or ENGLISH
    if isinstance(words, (str, os.PathLike)):
        if isinstance(words, str) and not words.strip():
            raise InputError(f"{name} is an empty string: give a word-list file path, or None for the default list")
        return load_word_list(os.fspath(words), alphabet=alphabet)
    if isinstance(words, Mapping):
        pairs = []
        for word, score in words.items():
            if not isinstance(word, str):
                raise TypeError(f"{name}: a dict of words maps each word (str) to its score, not {type_name(word)}")
            pairs.append((word, check_int(f"{name}[{word!r}]", score)))
        return _from_pairs(words_from_pairs, pairs, name, alphabet)
    if isinstance(words, bytes) or not isinstance(words, Iterable):
        raise TypeError(
            f"{name} must be None (the default list), a file path, a WordList, a dict of "
            f"word -> score or a list of words, not {type_name(words)}"
        )
    items = list(words)
    layers = [item for item in items if _is_list_source(item)]
    if layers:
        if len(layers) != len(items):
            raise TypeError(f"{name}: a list mixes word-list files (or WordLists) with words; give one or the other")
        loaded = [read_words(item, name, alphabet) for item in items]
        return loaded[0] if len(loaded) == 1 else layer_word_lists(loaded)
    pairs = []
    for item in items:
        if isinstance(item, str):
            pairs.append((item, 50))
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            pairs.append((item[0], check_int(f"{name}: the score of {item[0]!r}", item[1])))
        else:
            raise TypeError(f"{name}: a list of words holds words (str) or (word, score) pairs, not {item!r}")
    return _from_pairs(words_from_pairs, pairs, name, alphabet)


def _is_list_source(item: object) -> bool:
    """A word-list file (a path object, or a str naming an existing file) or a loaded list."""
    if isinstance(item, os.PathLike) or hasattr(item, "word_id"):
        return True
    return isinstance(item, str) and ("/" in item or os.sep in item or Path(item).suffix != "") and Path(item).is_file()


def _from_pairs(
    build: Callable[..., WordList], pairs: list[tuple[str, int]], name: str, alphabet: Alphabet = ENGLISH
) -> WordList:
    if not pairs:
        raise InputError(f"{name} is empty: give at least one word")
    words: WordList = build(pairs, f"<{name}>", alphabet=alphabet)
    if words.n_words == 0:
        letters = "letters A-Z" if alphabet.is_ascii else f"{alphabet.name} letters (language {alphabet.code!r})"
        raise InputError(f"{name}: none of the {len(pairs)} words given is a word of {letters}")
    return words


def resolve_slot(problem: Problem, slot: object) -> Slot:
    """The slot of `problem` a caller names (see SlotLike) as the `slot` argument.

    Raises:
        TypeError: not a str, int or Slot.
        InputError: no such slot (the message lists the nearest names).
    """
    from xwcp.compile.controls import nearest_slot_names

    if isinstance(slot, Slot):
        slot = slot.name
    if isinstance(slot, int) and not isinstance(slot, bool):
        if 0 <= slot < len(problem.slots):
            return problem.slots[slot]
        raise InputError(
            f"{option_text('slot', slot)}: this grid has no slot id {slot} (its ids are 0 to "
            f"{len(problem.slots) - 1}; names such as {problem.slots[0].name!r} work too)"
        )
    if not isinstance(slot, str):
        raise TypeError(f"slot must be a slot name such as '17A' (or a slot id), not {type_name(slot)}")
    found = problem.slot_by_name(slot)
    if found is None:
        key = slot.strip().upper()
        raise InputError(
            f"{option_text('slot', slot)}: unknown slot {key!r}; nearest: "
            f"{', '.join(nearest_slot_names(problem.slots, key))}"
        )
    return found


def check_int(name: str, value: object, minimum: int | None = None, maximum: int | None = None) -> int:
    """`value` as an int, or TypeError / InputError naming `name` and the range it takes."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number (int), not {type_name(value)} {value!r}")
    number = int(value)
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        if maximum is None:
            expected = f"at least {minimum}"
        elif minimum is None:
            expected = f"at most {maximum}"
        else:
            expected = f"from {minimum} to {maximum}"
        raise InputError(f"{name} must be {expected}, got {number}")
    return number


def check_optional_int(name: str, value: object, minimum: int | None = None) -> int | None:
    return None if value is None else check_int(name, value, minimum)


def check_seconds(name: str, value: object) -> float | None:
    """A time limit: None (no limit) or a positive number of seconds."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds (or None for no limit), not {type_name(value)} {value!r}")
    seconds = float(value)
    if not seconds > 0:
        raise InputError(f"{name} must be more than 0 seconds, got {value!r}")
    return seconds


def check_bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {type_name(value)} {value!r}")
    return value


def check_choice(name: str, value: object, choices: Sequence[str]) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {', '.join(map(repr, choices))}, not {type_name(value)}")
    if value not in choices:
        raise InputError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value


def check_backend(value: object, name: str = "backend") -> str:
    """A backend name that exists and is installed."""
    from xwcp.backends import get_backend

    if not isinstance(value, str):
        raise TypeError(f"{name} must be a backend name (str) such as 'auto', not {type_name(value)}")
    get_backend(value)
    return value


def check_number(name: str, value: object, minimum: float = 0.0) -> float:
    """A finite number of at least `minimum` (e.g. seconds that may be 0)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type_name(value)} {value!r}")
    number = float(value)
    if not number >= minimum or number == float("inf"):
        raise InputError(f"{name} must be a number of at least {minimum:g}, got {value!r}")
    return number


def read_size(size: object) -> str:
    """A designed grid's size (see SizeLike) as the text `WxH`; its sides are checked by the design's parser.

    Raises:
        TypeError: not a str, an int or a (width, height) pair of ints.
    """
    if isinstance(size, str):
        return size.strip()
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        return f"{int(size)}x{int(size)}"
    if (
        isinstance(size, (tuple, list))
        and len(size) == 2
        and all(isinstance(n, numbers.Integral) and not isinstance(n, bool) for n in size)
    ):
        return f"{int(size[0])}x{int(size[1])}"
    raise TypeError(
        f"size must be 'WIDTHxHEIGHT' (e.g. '15x15'), a side (15) or (width, height), not {type_name(size)} {size!r}"
    )


def read_theme_words(themes: object) -> list[str]:
    """The theme entries a caller means (see ThemesLike): a str is one word, a list holds words.

    Raises:
        TypeError: neither a str nor a list of str.
    """
    if themes is None:
        return []
    if isinstance(themes, str):
        return [themes]
    if isinstance(themes, (bytes, Mapping)) or not isinstance(themes, Iterable):
        raise TypeError(f"themes must be a word (str) or a list of words, not {type_name(themes)} {themes!r}")
    words = list(themes)
    for word in words:
        if not isinstance(word, str):
            raise TypeError(
                f"themes must be a word (str) or a list of words, not a list holding {type_name(word)} {word!r}"
            )
    return words


def read_at(at: object) -> list[str]:
    """Where theme entries go (see AtLike), as the command line's `WORD=ROW,COL,A|D` items (checked by the
    design's parser, whose messages name `at=`).

    Raises:
        TypeError: not one of the accepted shapes, or a position that is not (row, col, "A" or "D").
    """
    if at is None:
        return []
    if isinstance(at, str):
        return [at]
    if isinstance(at, Mapping):
        items = []
        for word, where in at.items():
            if not isinstance(word, str):
                raise TypeError(f"at maps theme words (str) to (row, col, 'A' or 'D'), not {type_name(word)} {word!r}")
            items.append(f"{word}={_position_text(word, where)}")
        return items
    if isinstance(at, bytes) or not isinstance(at, Iterable):
        raise TypeError(
            "at must be a dict such as {'WORD': (1, 1, 'A')} (rows and columns from 1), "
            f"or 'WORD=1,1,A' strings, not {type_name(at)} {at!r}"
        )
    items = list(at)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(
                "at must be a dict such as {'WORD': (1, 1, 'A')} (rows and columns from 1), "
                f"or a list of 'WORD=1,1,A' strings, not a list holding {type_name(item)} {item!r}"
            )
    return items


def _position_text(word: str, where: object) -> str:
    """A position (row, col, direction) of `at={word: where}` as `ROW,COL,A|D`."""
    from enum import Enum

    if isinstance(where, str):
        return where
    if isinstance(where, (tuple, list)) and len(where) == 3:
        row, col, direction = where
        if isinstance(direction, Enum):
            direction = direction.value
        if all(isinstance(n, numbers.Integral) and not isinstance(n, bool) for n in (row, col)) and isinstance(
            direction, str
        ):
            return f"{int(row)},{int(col)},{direction.strip()}"
    raise TypeError(
        f"at[{word!r}] must be (row, col, 'A' or 'D') with rows and columns from 1 (or the text "
        f"'row,col,A'), not {type_name(where)} {where!r}"
    )


def compile_problem(
    grid: object,
    words: object = None,
    *,
    min_score: int = 50,
    allow_dupes: bool = False,
    strict: bool = False,
    controls: Controls | None = None,
    language: object = None,
) -> Problem:
    """`xwcp.compile_problem`: read `grid` (anything `xwcp.fill` takes: a path, grid text, a Grid, a Puzzle) and
    `words` (a WordList, a path, layered paths or None for the default list) in `language` (see LanguageLike),
    then compile them (`xwcp.compile.problem.compile_problem`, whose arguments and errors these are)."""
    from xwcp.compile.problem import compile_problem as compile_grid

    puzzle = read_grid_like(grid, alphabet=read_language(language) or list_alphabet(words))
    return compile_grid(
        puzzle.grid,
        read_words(words, alphabet=puzzle.alphabet),
        min_score=min_score,
        allow_dupes=allow_dupes,
        strict=strict,
        controls=controls,
    )
