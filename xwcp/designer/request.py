"""What a design asks for (`DesignRequest`), built and checked from what a user typed (CLI or web).

`make_request` is the one parser every front end calls (the CLI, the web builder, `xwcp.design`):
grid size, theme entries and `--at` positions, symmetry and checking style, the caps on words and
blocks (with defaults for the size), the fill's floor and bans, count, time limits and seed. Bad
input raises `InputError` with one line naming the option as its user spells it (`--max-words` on
the command line, `max_words` in Python: `xwcp.base.errors.option_text`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

from xwcp.base.errors import InputError, option_name, option_text
from xwcp.designer.rules import WORD_SLACK, Rules, Style, Symmetry, default_max_blocks, default_max_words
from xwcp.designer.themes import Theme, read_themes
from xwcp.model import MAX_SIDE
from xwcp.model.alphabet import ENGLISH, Alphabet

MIN_SIDE = 3
"""Smallest grid side a design takes (a 3-letter entry needs 3 cells)."""
DEFAULT_TIME_PER_DESIGN_S = 120.0
"""Time limit per design asked for when the caller gives none (the target: 120 s a design)."""
DEFAULT_QUALITY_S = 20.0
"""Time the quality search gets per design, within the time limit."""
DEFAULT_MIN_DIFF_CELLS = 8
"""Cells whose block/white state must differ between two designs: two symmetric block moves."""
MAX_BLOCK_RUN = 3
"""Most blocks in a row across or down (American style): published themed 15x15s have at most 3 (corner
'cheaters' and short dividers); without it the model stacked 6-12 blocks in a row."""
FILL_LENGTH_SHARE = 8 / 15
"""Default longest non-theme entry as a share of the grid's side (8 on a 15x15; American style): longer
ones crossing several theme entries were the commonest reason a pattern could not be filled."""
BRITISH_BLOCK_SHARE = 0.3
"""Default block cap as a share of the cells for British grids (67 of 225; models/15x15-british-01.txt has
59: the lattice blocks about a quarter). At 0.4 the patterns used all 90, in clumps along the edges."""
BRITISH_WORDS_15 = 32
"""Default entry cap of a British 15x15 (daily cryptics have 28-32 entries; models/15x15-british-01.txt 28):
without it the model's patterns were American grids, every letter checked."""


@dataclass(frozen=True)
class DesignRequest:
    """What the user asks: the rules, the theme entries, how many designs, and the fill's options.

    Attributes:
        rules: the pattern's rules.
        themes: the theme entries (with `--at` placements where given).
        count: designs wanted.
        min_diff_cells: cells (block or white) in which every two designs differ.
        time_limit_s: the whole search's time limit (None: DEFAULT_TIME_PER_DESIGN_S per design).
        quality_time_s: the quality search's time per design (0: keep the first fill).
        seed: random seed (patterns and fills).
        min_score: the fill's floor.
        bans: words no entry may take.
        threads: CP-SAT workers for the pattern solves.
        soft: see the attribute.
    """

    rules: Rules
    themes: tuple[Theme, ...]
    count: int = 1
    min_diff_cells: int = DEFAULT_MIN_DIFF_CELLS
    time_limit_s: float | None = None
    quality_time_s: float = DEFAULT_QUALITY_S
    seed: int = 0
    min_score: int = 50
    bans: frozenset[str] = frozenset()
    threads: int = 1
    soft: frozenset[str] = frozenset()
    """Rules left at their defaults ("min_words", "max_fill_length"): relaxed when no pattern keeps them."""

    @property
    def total_time_s(self) -> float:
        return self.time_limit_s if self.time_limit_s is not None else DEFAULT_TIME_PER_DESIGN_S * self.count


def parse_size(text: str) -> tuple[int, int]:
    """`15x15` or `15` -> (width, height).

    Raises:
        InputError: malformed, or a side outside MIN_SIDE..MAX_SIDE.
    """
    parts = str(text).lower().replace("×", "x").split("x")
    try:
        width, height = (int(parts[0]), int(parts[0])) if len(parts) == 1 else (int(parts[0]), int(parts[1]))
        if len(parts) > 2:
            raise ValueError
    except ValueError:
        raise InputError(f"{option_text('size', text)}: expected WIDTHxHEIGHT, e.g. 15x15") from None
    for side in (width, height):
        if not MIN_SIDE <= side <= MAX_SIDE:
            raise InputError(f"{option_text('size', text)}: sides must be from {MIN_SIDE} to {MAX_SIDE}")
    return width, height


_E = TypeVar("_E", bound=Enum)


def _choice(enum: type[_E], text: str, option: str) -> _E:
    try:
        return enum(str(text).lower())
    except ValueError:
        raise InputError(f"{option_text(option, text)}: expected one of {', '.join(e.value for e in enum)}") from None


def make_request(
    *,
    size: str = "15x15",
    themes: Iterable[str] = (),
    at: Iterable[str] = (),
    symmetry: str = "rotational",
    style: str = "american",
    max_words: int | None = None,
    min_words: int | None = None,
    max_blocks: int | None = None,
    max_length: int | None = None,
    count: int = 1,
    min_diff: int = DEFAULT_MIN_DIFF_CELLS,
    time_limit_s: float | None = None,
    quality_time_s: float = DEFAULT_QUALITY_S,
    seed: int = 0,
    min_score: int = 50,
    bans: Iterable[str] = (),
    ban_files: Iterable[str] = (),
    threads: int = 1,
    alphabet: Alphabet = ENGLISH,
) -> DesignRequest:
    """A checked request from a user's options (None picks the default for the size and style); theme entries
    are read in `alphabet` (the language of the list the design fills from).

    Raises:
        InputError: one line naming the option that cannot be used.
    """
    from xwcp.compile.controls import make_controls

    width, height = parse_size(size)
    symmetry_ = _choice(Symmetry, symmetry, "symmetry")
    style_ = _choice(Style, style, "style")
    is_american = style_ is Style.AMERICAN
    soft = {name for name, value in (("min_words", min_words), ("max_fill_length", max_length)) if value is None}
    if max_words is None:
        max_words = default_max_words(width, height) if is_american else round(BRITISH_WORDS_15 * width * height / 225)
    if min_words is None:
        min_words = max(0, max_words - WORD_SLACK)
    if max_blocks is None:
        max_blocks = default_max_blocks(width, height) if is_american else int(width * height * BRITISH_BLOCK_SHARE)
    if max_length is None and is_american:
        max_length = max(5, round(max(width, height) * FILL_LENGTH_SHARE))
    for name, value, low in (
        ("max_words", max_words, 1),
        ("max_blocks", max_blocks, 0),
        ("min_words", min_words, 0),
        ("max_length", max_length, 3),
        ("count", count, 1),
        ("min_diff", min_diff, 1),
    ):
        if value is not None and value < low:
            raise InputError(f"{option_name(name)} must be at least {low}, got {value}")
    if min_words > max_words:
        raise InputError(f"{option_text('min_words', min_words)} is more than {option_text('max_words', max_words)}")
    if time_limit_s is not None and time_limit_s <= 0:
        raise InputError(f"{option_name('time_limit')} must be greater than 0, got {time_limit_s:g}")
    if quality_time_s < 0:
        raise InputError(f"{option_name('quality_time')} must be 0 or more, got {quality_time_s:g}")
    rules = Rules(
        width,
        height,
        symmetry_,
        style_,
        max_words=max_words,
        max_blocks=max_blocks,
        min_words=min_words,
        max_fill_length=max_length,
        max_block_run=MAX_BLOCK_RUN if is_american else None,
    )
    theme_list = read_themes(themes, at, rules, alphabet)
    controls = make_controls(bans=bans, ban_files=ban_files)
    for theme in theme_list:
        if theme.word in controls.bans:
            raise InputError(f"{option_text('theme', theme.word)} is also banned")
    return DesignRequest(
        rules,
        theme_list,
        count=count,
        min_diff_cells=min_diff,
        time_limit_s=time_limit_s,
        quality_time_s=quality_time_s,
        seed=seed,
        min_score=min_score,
        bans=controls.bans,
        threads=threads,
        soft=frozenset(soft),
    )
