"""Arc consistency for a problem: the domains left when every word has crossing support and no word repeats.

`propagate(problem)` computes the fixpoint from scratch; `Propagator` keeps it for an editor,
re-propagating after one letter is entered (a trail level) and undoing to the level before an
erased letter. Both run on the compiled kernel (support counts per cell and letter, see
xwcp/kernel.py): a word survives in a slot when, at every checked cell, the crossing slot still
has a live word with the same letter; when a slot is down to one word (or the user entered it
completely), that word leaves every other slot. The fixpoint is unique, so the order of work
does not change the result, only the time.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from xwcp.kernel import Engine
from xwcp.problem import Domains, Problem
from xwcp.types import SlotId


@dataclass(frozen=True)
class Propagation:
    """The arc-consistent state of a problem.

    `domains[slot_id]` is a bool mask over the slot's length bucket; a slot the user filled
    completely keeps its own mask (its word, or nothing when the list lacks it).
    `letter_counts[cell]` is int32 [26]: how many live words of the cell's slots put each
    letter there (the across slot's counts where there is one); all zero for blocks.
    When inconsistent, `wipeout_slot` is the slot that emptied and `chain` the crossings that
    emptied it, nearest first.
    """

    is_consistent: bool
    domains: Domains
    letter_counts: np.ndarray
    counts_by_slot: tuple[np.ndarray, ...] = ()
    """counts_by_slot[slot_id]: int32 [length, 26] live words with each letter at each position."""
    wipeout_slot: SlotId | None = None
    chain: tuple[SlotId, ...] = ()
    reason: str = ""

    def size(self, slot_id: SlotId) -> int:
        return int(self.domains[slot_id].sum())

    def letters_possible(self, cell: int) -> int:
        return int(np.count_nonzero(self.letter_counts[cell]))


def unfillable_reason(problem: Problem, slot_id: SlotId, chain=()) -> str:
    """One sentence naming the slot that cannot be filled and why."""
    slot = problem.slots[slot_id]
    pattern = problem.pattern(slot_id)
    if not problem.domains[slot_id].any():
        if slot_id in problem.fixed_text_by_slot:
            return f"{slot.name} ({pattern}) clashes with the rest of the grid"
        return f"{slot.name} ({pattern}): no {slot.length}-letter word in the list fits its letters"
    via = " <- ".join(problem.slots[s].name for s in chain[1:])
    tail = f" (emptied through {via})" if via else ""
    return f"{slot.name} ({pattern}): no word fits its crossings{tail}"


class Propagator:
    """An editable arc-consistent state: enter letters one at a time, undo them in any order."""

    def __init__(self, problem: Problem):
        self.problem = problem
        self.engine = Engine(problem)
        self.is_consistent = not problem.conflicts and self.engine.propagate_all()
        self._wipeout = self.engine.wipeout_slot_id
        self.entered: list[tuple[int, str, int, bool]] = []
        """(cell, letter, trail mark before it, consistent before it) per letter entered, oldest first."""

    def enter(self, cell: int, letter: str) -> bool:
        """Put `letter` in empty `cell` and re-propagate from the current state. False if that empties a slot."""
        self.entered.append((cell, letter, self.engine.trail_len, self.is_consistent))
        if self.is_consistent:
            self.is_consistent = self._restrict(cell, letter)
        return self.is_consistent

    def erase(self, cell: int) -> bool:
        """Take back the letter entered at `cell`: undo to before it and re-enter the later ones."""
        index = next(i for i, entry in enumerate(self.entered) if entry[0] == cell)
        later = self.entered[index + 1:]
        _, _, mark, self.is_consistent = self.entered[index]
        self.engine.undo(mark)
        del self.entered[index:]
        for c, letter, _, _ in later:
            self.enter(c, letter)
        return self.is_consistent

    def _restrict(self, cell: int, letter: str) -> bool:
        code = ord(letter) - 65
        for slot_id in self._open_slots_at(cell):
            pos = self.problem.slots[slot_id].cells.index(cell)
            if not self.engine.restrict_letter(slot_id, pos, code):
                self._wipeout = self.engine.wipeout_slot_id
                return False
        return True

    def _open_slots_at(self, cell: int) -> list[SlotId]:
        return [s.id for s in self.problem.slots
                if cell in s.cells and self.engine.kernel_index[s.id] >= 0]

    def snapshot(self) -> Propagation:
        """The current state as a Propagation (copies the domains)."""
        return _snapshot(self.problem, self.engine, self.is_consistent, self._wipeout)


def _snapshot(problem: Problem, engine: Engine, is_consistent: bool, wipeout: SlotId | None) -> Propagation:
    n_cells = problem.grid.width * problem.grid.height
    letter_counts = np.zeros((n_cells, 26), np.int32)
    if not is_consistent:
        # One empty slot means no fill: every slot crossing it loses its support in turn, so by
        # convention every domain is reported empty, with the slot and chain that emptied first.
        empty = tuple(np.zeros(d.shape, bool) for d in problem.domains)
        counts = tuple(np.zeros((s.length, 26), np.int32) for s in problem.slots)
        if wipeout is None:
            return Propagation(False, empty, letter_counts, counts, None, (), problem.conflicts[0])
        chain = tuple(engine.cause_chain(wipeout))
        return Propagation(False, empty, letter_counts, counts, wipeout, chain,
                           unfillable_reason(problem, wipeout, chain))
    domains = []
    counts_by_slot = []
    for slot in problem.slots:
        if engine.kernel_index[slot.id] < 0:
            domains.append(problem.domains[slot.id])
            counts = np.zeros((slot.length, 26), np.int32)
            for pos, cell in enumerate(slot.cells):
                counts[pos, ord(problem.grid.cells[cell]) - 65] = 1
        else:
            domains.append(engine.domain(slot.id))
            counts = engine.letter_counts(slot.id).copy()
        counts_by_slot.append(counts)
        for pos, cell in enumerate(slot.cells):
            if slot.direction.letter == "A" or not letter_counts[cell].any():
                letter_counts[cell] = counts[pos]
    return Propagation(True, tuple(domains), letter_counts, tuple(counts_by_slot))


def propagate(problem: Problem, domains: Domains | None = None) -> Propagation:
    """Arc-consistent domains of `problem` (starting from `domains` if given, else its initial ones).

    Returns:
        A Propagation; `is_consistent` is False when some slot has no word left, and then
        `wipeout_slot`, `chain` and `reason` say which and how.
    """
    engine = Engine(problem, domains)
    if problem.conflicts:
        return _snapshot(problem, engine, False, None)
    is_consistent = engine.propagate_all()
    return _snapshot(problem, engine, is_consistent, engine.wipeout_slot_id)

