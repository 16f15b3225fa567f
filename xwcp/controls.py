"""The constructor's controls on a fill (locks, bans, per-slot floors, a region, shared substrings), read and checked.

One `Controls` value travels from any front end (CLI, web, batch) into `compile_problem`,
which turns it into fixed entries and domain masks; `check_fill` then holds every fill to it.
Slot ids in controls are user-facing names (`17A`), resolved against the grid here, so a
wrong one is bad input that lists the nearest ids.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from xwcp.errors import InputError
from xwcp.grid import BLOCK, EMPTY, Grid, Slot
from xwcp.model.letters import SpelledGrid, write_letters
from xwcp.types import SlotId

NEAREST_SHOWN = 5
"""Slot ids listed when a control names a slot the grid does not have."""


@dataclass(frozen=True)
class Controls:
    """What the constructor asks of a fill beyond the grid and the list.

    Attributes:
        locks: slot name -> word (a theme entry; may be a word the list lacks).
        bans: words no open slot may take.
        min_score_by_slot: slot name -> that slot's own minimum score (overrides the global one).
        region: (row1, col1, row2, col2), counted from 1, inclusive: fill only the empty cells inside.
        max_shared_substring: no two entries share a substring longer than this many letters.
    """

    locks: Mapping[str, str] = field(default_factory=dict)
    bans: frozenset[str] = frozenset()
    min_score_by_slot: Mapping[str, int] = field(default_factory=dict)
    region: tuple[int, int, int, int] | None = None
    max_shared_substring: int | None = None

    @property
    def is_empty(self) -> bool:
        return not (self.locks or self.bans or self.min_score_by_slot or self.region
                    or self.max_shared_substring is not None)


def _clean_word(raw: str, what: str) -> str:
    from xwcp.wordlist import normalise_word

    word = normalise_word(raw.strip())
    if not word:
        raise InputError(f"{what}: {raw!r} is not a word of letters A-Z")
    return word


def parse_assignment(text: str, option: str) -> tuple[str, str]:
    """Split `17A=WORD` (or `17A=60`) into ('17A', 'WORD'). Raises InputError naming `option`."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise InputError(f"{option} {text!r}: expected SLOT=VALUE, e.g. 17A=...")
    return name.strip().upper(), value.strip()


def parse_locks(items: Iterable[str]) -> dict[str, str]:
    """`['17A=ICE CREAM', ...]` -> {'17A': 'ICECREAM'}. A slot locked twice is bad input."""
    locks: dict[str, str] = {}
    for item in items:
        name, value = parse_assignment(item, "--lock")
        word = _clean_word(value, f"--lock {item}")
        if name in locks and locks[name] != word:
            raise InputError(f"--lock: {name} is locked twice ({locks[name]} and {word})")
        locks[name] = word
    return locks


def parse_slot_mins(items: Iterable[str]) -> dict[str, int]:
    """`['17A=60']` -> {'17A': 60}."""
    floors: dict[str, int] = {}
    for item in items:
        name, value = parse_assignment(item, "--slot-min")
        try:
            floors[name] = int(value)
        except ValueError:
            raise InputError(f"--slot-min {item}: {value!r} is not a whole number") from None
    return floors


def parse_region(text: str) -> tuple[int, int, int, int]:
    """`'R1,C1:R2,C2'` (from 1, inclusive) -> (r1, c1, r2, c2). Raises InputError when malformed or empty."""
    try:
        a, b = text.split(":")
        r1, c1 = (int(x) for x in a.split(","))
        r2, c2 = (int(x) for x in b.split(","))
    except ValueError:
        raise InputError(f"--region {text!r}: expected R1,C1:R2,C2 (rows and columns from 1), e.g. 1,1:5,7") from None
    if r1 > r2 or c1 > c2:
        raise InputError(f"--region {text}: the region is empty (R1 <= R2 and C1 <= C2 are needed)")
    return r1, c1, r2, c2


def read_ban_file(path: str | Path) -> set[str]:
    """Words of a ban file (`WORD` or `WORD;score` lines, '#' comments). Raises InputError if unreadable."""
    from xwcp.wordlist import parse_word_lines

    try:
        text = Path(path).read_text(encoding="utf-8-sig", errors="replace")
    except OSError as exc:
        raise InputError(f"cannot read ban file ({exc.strerror or exc})", str(path)) from None
    score_by_word, problems, _ = parse_word_lines(text, str(path))
    if problems:
        line, what = problems[0]
        raise InputError(what, str(path), line)
    return set(score_by_word)


def make_controls(*, locks: Iterable[str] = (), bans: Iterable[str] = (), ban_files: Iterable[str | Path] = (),
                  slot_mins: Iterable[str] = (), region: str | None = None,
                  max_shared_substring: int | None = None) -> Controls:
    """Controls from the text a user typed (the CLI's and the web API's shared parser).

    Raises:
        InputError: a malformed value, or a word both banned and locked.
    """
    banned = {_clean_word(b, "--ban") for b in bans}
    for path in ban_files:
        banned |= read_ban_file(path)
    lock_by_name = parse_locks(locks)
    for name, word in lock_by_name.items():
        if word in banned:
            raise InputError(f"--lock {name}={word}: {word} is also banned")
    if max_shared_substring is not None and max_shared_substring < 1:
        raise InputError(f"--max-shared-substring must be at least 1, got {max_shared_substring}")
    return Controls(locks=lock_by_name, bans=frozenset(banned), min_score_by_slot=parse_slot_mins(slot_mins),
                    region=parse_region(region) if region else None, max_shared_substring=max_shared_substring)


def nearest_slot_names(slots: tuple[Slot, ...], name: str, n: int = NEAREST_SHOWN) -> list[str]:
    """The grid's slot ids closest to `name`: same direction and nearby number first."""
    digits = "".join(ch for ch in name if ch.isdigit())
    number = int(digits) if digits else 0
    direction = name[-1:].upper()

    def key(slot: Slot):
        return (abs(slot.number - number), slot.direction.letter != direction, slot.number)

    return [s.name for s in sorted(slots, key=key)[:n]]


def resolve_slot(slots: tuple[Slot, ...], name: str, option: str) -> Slot:
    """The slot called `name`, or InputError listing the nearest ids."""
    key = name.strip().upper()
    for slot in slots:
        if slot.name == key:
            return slot
    raise InputError(f"{option}: this grid has no slot {name!r}; nearest: {', '.join(nearest_slot_names(slots, key))}")


def apply_locks(grid: Grid, spelled: SpelledGrid, controls: Controls) -> tuple[Grid, dict[SlotId, str]]:
    """Write every lock into the grid's empty cells; returns the new grid and {slot_id: locked word}.

    `spelled` is the grid spelled out (`xwcp.model.letters.spell_out`): a locked word spells the
    slot's letters, a rebus cell's letters included, and must agree with them.

    Raises:
        InputError: unknown slot, wrong length, or a letter that clashes with the grid or another lock.
    """
    slots, letters = spelled.slots, spelled.letters
    letter_by_cell: dict[int, str] = {}
    source_by_cell: dict[int, str] = {}
    word_by_slot: dict[SlotId, str] = {}
    for name, word in controls.locks.items():
        slot = resolve_slot(slots, name, "--lock")
        if word in controls.bans:
            raise InputError(f"--lock {slot.name}={word}: {word} is also banned")
        if len(word) != slot.length:
            raise InputError(f"--lock {slot.name}={word}: {slot.name} has {slot.length} letters, "
                             f"{word} has {len(word)}")
        for pos, (cell, letter) in enumerate(zip(slot.cells, word)):
            at = spelled.cell_of(cell)
            row, col = at // grid.width + 1, at % grid.width + 1
            given = letters[cell]
            if given not in (EMPTY, BLOCK) and given != letter:
                held = grid.cells[at]
                given = given if held == given else f"{given} (of the rebus {held})"
                raise InputError(f"--lock {slot.name}={word}: letter {pos + 1} ({letter}) clashes with the "
                                 f"grid's {given} at row {row}, column {col}")
            other = letter_by_cell.get(cell)
            if other is not None and other != letter:
                raise InputError(f"--lock {slot.name}={word}: letter {pos + 1} ({letter}) clashes with "
                                 f"{source_by_cell[cell]} ({other}) at row {row}, column {col}")
            letter_by_cell[cell] = letter
            source_by_cell[cell] = f"--lock {slot.name}={word}"
        word_by_slot[slot.id] = word
    return (write_letters(grid, spelled, letter_by_cell) if letter_by_cell else grid), word_by_slot


def region_cells(grid: Grid, region: tuple[int, int, int, int]) -> frozenset[int]:
    """Flat cells of the rectangle. Raises InputError when it lies outside the grid."""
    r1, c1, r2, c2 = region
    if r1 < 1 or c1 < 1 or r2 > grid.height or c2 > grid.width:
        raise InputError(f"--region {r1},{c1}:{r2},{c2} is outside the {grid.height}-row, {grid.width}-column grid")
    return frozenset((r - 1) * grid.width + (c - 1) for r in range(r1, r2 + 1) for c in range(c1, c2 + 1))


def longest_shared_substring(a: str, b: str) -> int:
    """Length of the longest common substring of `a` and `b`."""
    best = 0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b, start=1):
            if x == y:
                cur[j] = prev[j - 1] + 1
                if cur[j] > best:
                    best = cur[j]
        prev = cur
    return best


def shared_substring_pairs(entries: Mapping[SlotId, str], limit: int,
                           only: Iterable[SlotId] | None = None) -> list[tuple[SlotId, SlotId, str]]:
    """Pairs of slots whose entries share a substring longer than `limit`, with one such substring.

    Args:
        entries: slot_id -> entry text.
        only: if given, report only pairs with at least one slot from this set.
    """
    n = limit + 1
    first_by_gram: dict[str, list[SlotId]] = {}
    for slot_id, text in entries.items():
        for gram in {text[i:i + n] for i in range(len(text) - n + 1)}:
            first_by_gram.setdefault(gram, []).append(slot_id)
    wanted = None if only is None else set(only)
    pairs: dict[tuple[SlotId, SlotId], str] = {}
    for gram, slot_ids in first_by_gram.items():
        for i, a in enumerate(slot_ids):
            for b in slot_ids[i + 1:]:
                key = (min(a, b), max(a, b))
                if key in pairs or (wanted is not None and a not in wanted and b not in wanted):
                    continue
                pairs[key] = gram
    return [(a, b, gram) for (a, b), gram in sorted(pairs.items())]
