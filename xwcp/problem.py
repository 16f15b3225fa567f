"""Compile a grid and a word list into one solver-independent problem: slots, crossings, domains.

No solver code lives here. A domain is a bool mask over the slot's length bucket: the words
of the right length, at or above the minimum score, that agree with the pre-filled letters
and are not the entry of a slot the user filled completely (no word twice). A slot the user
filled completely is *fixed*: kept as given even when the list lacks it.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from xwcp.grid import BLOCK, EMPTY, Grid, Slot, find_slots
from xwcp.types import SlotId
from xwcp.wordlist import WordList

Domains = tuple[np.ndarray, ...]
"""One bool mask per slot over the words of its length bucket."""


@dataclass(frozen=True)
class Crossing:
    """One checked cell: position `a_pos` of across slot `a` is position `b_pos` of down slot `b`."""

    cell: int
    a: SlotId
    a_pos: int
    b: SlotId
    b_pos: int


@dataclass(frozen=True)
class Problem:
    """Everything a backend needs; read-only after `compile_problem`."""

    grid: Grid
    words: WordList
    slots: tuple[Slot, ...]
    crossings: tuple[Crossing, ...]
    domains: Domains
    min_score: int
    allow_dupes: bool = False
    fixed_text_by_slot: dict[SlotId, str] = field(default_factory=dict)
    """Slots the user filled completely, with their entries."""
    conflicts: tuple[str, ...] = ()
    """Reasons the pre-filled grid breaks the rules by itself (a repeated complete entry)."""
    cross_slot: tuple[tuple[int, ...], ...] = ()
    """cross_slot[slot_id][pos]: the slot crossing that cell, or -1 (unchecked)."""
    cross_pos: tuple[tuple[int, ...], ...] = ()
    unlisted: tuple[SlotId, ...] = ()
    """Slots the user filled completely with an entry the word list does not have."""

    @property
    def open_slot_ids(self) -> list[SlotId]:
        return [s.id for s in self.slots if s.id not in self.fixed_text_by_slot]

    def slot_by_name(self, name: str) -> Slot | None:
        key = name.strip().upper()
        for slot in self.slots:
            if slot.name == key:
                return slot
        return None

    def pattern(self, slot_id: SlotId) -> str:
        """The slot's cells as text: letters and '.' for empty cells."""
        return "".join(self.grid.cells[c] for c in self.slots[slot_id].cells)

    def entry_score(self, text: str) -> int | None:
        return self.words.score(text)


def keep_entered_letters(mask: np.ndarray, grid: Grid, slot: Slot, words: WordList) -> np.ndarray:
    """Clear, in `mask` (a bool mask over the slot's length bucket), every word that disagrees with a
    letter already entered in the slot's cells; returns `mask`."""
    bucket = words.bucket(slot.length)
    for pos, cell in enumerate(slot.cells):
        letter = grid.cells[cell]
        if letter != EMPTY:
            keep = np.zeros(bucket.n_words, bool)
            keep[bucket.ids_with_letter(pos, ord(letter) - 65)] = True
            mask &= keep
    return mask


def unlisted_text(problem: Problem) -> str:
    """'2 entries are not in the word list: 1A QZX, 1D QJW' for `problem.unlisted` ('' when none)."""
    n = len(problem.unlisted)
    if not n:
        return ""
    names = ", ".join(f"{problem.slots[s].name} {problem.fixed_text_by_slot[s]}" for s in problem.unlisted[:10])
    more = f" and {n - 10} more" if n > 10 else ""
    return f"{n} entr{'ies are' if n != 1 else 'y is'} not in the word list: {names}{more}"


def compile_problem(grid: Grid, words: WordList, *, min_score: int = 50,
                    allow_dupes: bool = False, strict: bool = False) -> Problem:
    """Compile `grid` with `words` into a Problem.

    Args:
        grid: the grid, possibly with pre-filled letters.
        words: the indexed word list.
        min_score: words scored below this are not candidates.
        allow_dupes: if True a word may fill several slots.
        strict: if True an entry the user completed must be a listed word too; one that is not
            makes the problem unfillable (a conflict naming it). Without it such entries are
            kept as given and listed in `Problem.unlisted`.

    Returns:
        The problem. A slot with no candidate is not an error here: it has an empty domain,
        and propagation or search reports it as unfillable.
    """
    slots = find_slots(grid)
    across_at: dict[int, tuple[int, int]] = {}
    down_at: dict[int, tuple[int, int]] = {}
    for slot in slots:
        target = across_at if slot.direction.letter == "A" else down_at
        for pos, cell in enumerate(slot.cells):
            target[cell] = (slot.id, pos)
    crossings = tuple(
        Crossing(cell, a, a_pos, *down_at[cell])
        for cell, (a, a_pos) in sorted(across_at.items()) if cell in down_at)
    cross_slot = [[-1] * slot.length for slot in slots]
    cross_pos = [[-1] * slot.length for slot in slots]
    for x in crossings:
        cross_slot[x.a][x.a_pos], cross_pos[x.a][x.a_pos] = x.b, x.b_pos
        cross_slot[x.b][x.b_pos], cross_pos[x.b][x.b_pos] = x.a, x.a_pos

    fixed_text_by_slot: dict[SlotId, str] = {}
    for slot in slots:
        text = "".join(grid.cells[c] for c in slot.cells)
        if EMPTY not in text and BLOCK not in text:
            fixed_text_by_slot[slot.id] = text
    conflicts: list[str] = []
    if not allow_dupes:
        first_by_text: dict[str, SlotId] = {}
        for slot_id, text in fixed_text_by_slot.items():
            if text in first_by_text:
                conflicts.append(f"{text} is entered twice, in {slots[first_by_text[text]].name} "
                                 f"and {slots[slot_id].name}")
            else:
                first_by_text[text] = slot_id

    unlisted = sorted(slot_id for slot_id, text in fixed_text_by_slot.items() if words.word_id(text) is None)
    if strict:
        conflicts.extend(f"{slots[slot_id].name} {fixed_text_by_slot[slot_id]} is not in the word list (--strict)"
                         for slot_id in unlisted)

    domains = []
    for slot in slots:
        bucket = words.bucket(slot.length)
        if slot.id in fixed_text_by_slot:
            mask = np.zeros(bucket.n_words, bool)
            word_id = words.word_id(fixed_text_by_slot[slot.id])
            if word_id is not None:
                mask[word_id] = True
        else:
            mask = keep_entered_letters(np.asarray(bucket.scores) >= min_score, grid, slot, words)
            if not allow_dupes:
                for text in fixed_text_by_slot.values():
                    if len(text) == slot.length:
                        word_id = words.word_id(text)
                        if word_id is not None:
                            mask[word_id] = False
        mask.flags.writeable = False
        domains.append(mask)

    return Problem(
        grid=grid, words=words, slots=slots, crossings=crossings, domains=tuple(domains),
        min_score=min_score, allow_dupes=allow_dupes, fixed_text_by_slot=fixed_text_by_slot,
        conflicts=tuple(conflicts), unlisted=tuple(unlisted),
        cross_slot=tuple(tuple(x) for x in cross_slot), cross_pos=tuple(tuple(x) for x in cross_pos))
