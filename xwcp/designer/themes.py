"""Theme entries and where they may go: read the user's words and `--at` positions, pair them for symmetry.

A `Placement` is a run of cells (row, column, direction, length). `read_themes` turns what
the user typed into `Theme`s, refusing bad input in one line (a word too long for the grid,
an `--at` outside it or clashing with another). `plan_themes` decides the default layout
rule the pattern model enforces: theme entries of equal length form symmetric pairs (each
the other's image), one left over of odd length sits on the centre line as its own image,
and any others go where they fit. `candidate_placements` lists where one theme may go.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xwcp.base.errors import InputError, is_cli, option_name, option_text
from xwcp.base.types import Direction
from xwcp.designer.rules import Rules, Symmetry
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.words.wordlist import normalise_word

MAX_THEMES = 12
"""Most theme entries one design takes (a 15x15 with five theme entries is already a dense theme)."""


@dataclass(frozen=True)
class Placement:
    """Where an entry sits: its first cell (row, col, from 0), direction and length."""

    row: int
    col: int
    direction: Direction
    length: int

    def cells(self, width: int) -> tuple[int, ...]:
        dr, dc = (0, 1) if self.direction is Direction.ACROSS else (1, 0)
        return tuple((self.row + dr * k) * width + self.col + dc * k for k in range(self.length))

    def ends(self, rules: Rules) -> tuple[int | None, int | None]:
        """The cells just before and just after the entry (None at the grid's edge): they must be blocks."""
        dr, dc = (0, 1) if self.direction is Direction.ACROSS else (1, 0)
        before = (self.row - dr, self.col - dc)
        after = (self.row + dr * self.length, self.col + dc * self.length)

        def cell(rc: tuple[int, int]) -> int | None:
            r, c = rc
            return r * rules.width + c if 0 <= r < rules.height and 0 <= c < rules.width else None

        return cell(before), cell(after)

    def image(self, rules: Rules) -> Placement:
        """The placement of this run's image under the rules' symmetry (same direction and length)."""
        first, last = self.cells(rules.width)[0], self.cells(rules.width)[-1]
        a, b = rules.image(first), rules.image(last)
        start = min(a, b)
        return Placement(start // rules.width, start % rules.width, self.direction, self.length)

    def fits(self, rules: Rules) -> bool:
        if self.direction is Direction.ACROSS:
            return 0 <= self.row < rules.height and 0 <= self.col and self.col + self.length <= rules.width
        return 0 <= self.col < rules.width and 0 <= self.row and self.row + self.length <= rules.height

    def text(self) -> str:
        """`r3c1 across`, counted from 1 as the user types it."""
        return f"row {self.row + 1}, column {self.col + 1}, {self.direction.value}"


@dataclass(frozen=True)
class Theme:
    """One theme entry: the word, and the placement the user fixed for it (None: the design chooses)."""

    word: str
    at: Placement | None = None


@dataclass(frozen=True)
class ThemePlan:
    """How the themes are laid out by default: index pairs that mirror each other, the one on the centre
    line (its own image), and the ones placed freely."""

    pairs: tuple[tuple[int, int], ...]
    central: int | None
    free: tuple[int, ...]


def _word(raw: str, where: str, alphabet: Alphabet = ENGLISH) -> str:
    word = normalise_word(raw.strip(), alphabet)
    if not word:
        letters = "letters A-Z" if alphabet.is_ascii else f"{alphabet.name} letters"
        raise InputError(f"{where}: a theme entry is a word of {letters} (spaces and hyphens are dropped)")
    return word


def _at_text(text: str) -> str:
    """An `--at` item as its user spelt it: `--at WORD=1,2,A` on the command line, `at={'WORD': '1,2,A'}` in Python."""
    word, sep, where = text.partition("=")
    return option_text("at", where, key=word.strip()) if sep else option_text("at", text)


def _at_word(word: str) -> str:
    """The `--at` of one theme entry: `--at WORD` on the command line, `at['WORD']` in Python."""
    return f"--at {word}" if is_cli() else f"at[{word!r}]"


def parse_at(text: str, alphabet: Alphabet = ENGLISH) -> tuple[str, Placement]:
    """`WORD=ROW,COL,A|D` (rows and columns from 1) -> (WORD, its placement, counted from 0).

    Raises:
        InputError: malformed text.
    """
    word_text, sep, where = text.partition("=")
    parts = [p.strip() for p in where.split(",")]
    if not sep or len(parts) != 3 or parts[2].upper() not in ("A", "D", "ACROSS", "DOWN"):
        expected = (
            "WORD=ROW,COL,A or WORD=ROW,COL,D"
            if is_cli()
            else "{'WORD': (ROW, COL, 'A')}, 'D' for down, or 'WORD=ROW,COL,A'"
        )
        raise InputError(f"{_at_text(text)}: expected {expected} (rows and columns from 1)")
    try:
        row, col = int(parts[0]), int(parts[1])
    except ValueError:
        raise InputError(f"{_at_text(text)}: ROW and COL must be whole numbers (from 1)") from None
    word = _word(word_text, _at_text(text), alphabet)
    direction = Direction.ACROSS if parts[2].upper().startswith("A") else Direction.DOWN
    return word, Placement(row - 1, col - 1, direction, len(word))


def read_themes(
    words: Iterable[str], at: Iterable[str], rules: Rules, alphabet: Alphabet = ENGLISH
) -> tuple[Theme, ...]:
    """The theme entries from `--theme WORD` and `--at WORD=ROW,COL,A|D` (an `--at` word need not be repeated
    as a `--theme`).

    Raises:
        InputError: no theme, a word that is not A-Z, a word longer than the grid (or shorter than 3), a word
            given twice, an `--at` outside the grid, two `--at` for one word, or `--at` positions that clash
            (cells with different letters, one entry running into another, or a symmetric image that does).
    """
    order: list[str] = []
    for raw in words:
        word = _word(raw, option_text("theme", raw), alphabet)
        if word in order:
            raise InputError(f"{option_text('theme', word)} is given twice")
        order.append(word)
    at_by_word: dict[str, Placement] = {}
    for item in at:
        word, placement = parse_at(item, alphabet)
        if word in at_by_word:
            raise InputError(f"{_at_word(word)}: given twice")
        if not placement.fits(rules):
            raise InputError(
                f"{_at_text(item)}: {word} ({len(word)} letters) at {placement.text()} does not fit in "
                f"the {rules.width}x{rules.height} grid"
            )
        at_by_word[word] = placement
        if word not in order:
            order.append(word)
    if not order:
        raise InputError(
            "no theme entry: give at least one "
            + ("--theme WORD" if is_cli() else f"word in {option_name('theme')}=['WORD', ...]")
        )
    if len(order) > MAX_THEMES:
        raise InputError(f"{len(order)} theme entries; at most {MAX_THEMES} are taken")
    longest = max(rules.width, rules.height)
    for word in order:
        if len(word) > longest:
            raise InputError(
                f"{option_text('theme', word)} has {len(word)} letters; the {rules.width}x{rules.height} "
                f"grid's longest entry has {longest}"
            )
        if len(word) < 3:
            raise InputError(f"{option_text('theme', word)} has {len(word)} letters; entries need 3 or more")
    themes = tuple(Theme(word, at_by_word.get(word)) for word in order)
    check_fixed(themes, rules)
    return themes


def check_fixed(themes: tuple[Theme, ...], rules: Rules) -> None:
    """Refuse `--at` positions that clash with each other (also through their symmetric images, which the
    pattern turns into entries too).

    Raises:
        InputError: one line naming both entries and the cell.
    """
    letter_by_cell: dict[int, tuple[str, str]] = {}
    white: dict[int, str] = {}
    block: dict[int, str] = {}
    for theme in themes:
        if theme.at is None:
            continue
        for cell, letter in zip(theme.at.cells(rules.width), theme.word):
            seen = letter_by_cell.get(cell)
            if seen is not None and seen[1] != letter:
                raise InputError(
                    f"{_at_word(theme.word)} and {_at_word(seen[0])} put different letters ({letter}, "
                    f"{seen[1]}) at row {cell // rules.width + 1}, column {cell % rules.width + 1}"
                )
            letter_by_cell[cell] = (theme.word, letter)
    for theme in themes:
        if theme.at is None:
            continue
        images = [theme.at] if rules.symmetry is Symmetry.NONE else [theme.at, theme.at.image(rules)]
        for placement in images:
            for cell in placement.cells(rules.width):
                white.setdefault(cell, theme.word)
            for end in placement.ends(rules):
                if end is not None:
                    block.setdefault(end, theme.word)
    for cell, word in block.items():
        if cell in white:
            where = f"row {cell // rules.width + 1}, column {cell % rules.width + 1}"
            what = (
                f"{_at_word(word)} runs into its own symmetric image"
                if white[cell] == word
                else f"{_at_word(word)} and {_at_word(white[cell])} run into each other"
            )
            raise InputError(
                f"{what} at {where} (an entry must end in a block or the grid's edge, counting symmetric images)"
            )


def plan_themes(themes: tuple[Theme, ...], rules: Rules) -> ThemePlan:
    """Pair equal-length themes as symmetric images, put one leftover of odd length on the centre line,
    place the rest freely. A theme the user fixed with `--at` is not paired or centred."""
    if rules.symmetry is Symmetry.NONE:
        return ThemePlan((), None, tuple(range(len(themes))))
    loose = [i for i, t in enumerate(themes) if t.at is None]
    pairs: list[tuple[int, int]] = []
    left: list[int] = []
    by_length: dict[int, list[int]] = {}
    for i in loose:
        by_length.setdefault(len(themes[i].word), []).append(i)
    for length in sorted(by_length, reverse=True):
        group = by_length[length]
        while len(group) >= 2:
            pairs.append((group.pop(0), group.pop(0)))
        left.extend(group)
    central = None
    odd = [i for i in left if _can_be_central(len(themes[i].word), rules)]
    if odd:
        central = max(odd, key=lambda i: len(themes[i].word))
        left.remove(central)
    return ThemePlan(tuple(pairs), central, tuple(sorted(left)))


def _can_be_central(length: int, rules: Rules) -> bool:
    """Whether an entry of `length` can be its own image (across on the middle row, or down the middle column)."""
    if rules.symmetry is Symmetry.MIRROR:
        return length % 2 == rules.width % 2
    return (rules.height % 2 == 1 and length % 2 == rules.width % 2) or (
        rules.width % 2 == 1 and length % 2 == rules.height % 2
    )


def candidate_placements(length: int, rules: Rules, directions: tuple[Direction, ...]) -> list[Placement]:
    """Every placement of an entry of `length` in the grid, in the given directions."""
    out: list[Placement] = []
    for direction in directions:
        rows = range(rules.height) if direction is Direction.ACROSS else range(rules.height - length + 1)
        cols = range(rules.width - length + 1) if direction is Direction.ACROSS else range(rules.width)
        out.extend(Placement(r, c, direction, length) for r in rows for c in cols)
    return out
