"""Arc consistency in numpy for alphabets the compiled kernels do not take: the answers of `Engine`, slower.

The compiled kernels (xwcp/engine/kernel.py) take at most `kernel.MAX_LETTERS` letters (64: a cell's live
letters are one 64-bit mask). A larger alphabet (an Indic akshara pack, kana) still fills on CP-SAT and SAT,
which need only an arc-consistent start and shortlists, and AC-3 answers for it (`ac3.make_engine`):
`WideEngine` gives them that, with the reading side of `Engine` (`slot_ids`, `kernel_index`, `domain`,
`letter_counts`, `propagate_all`, `wipeout_slot_id`, `cause_chain`), the incremental side (`clone`,
`restrict_letter`, `trail_len`, `undo`) and `BitSearch.probe`'s singleton consistency (`probe`: suggestions).
Its fixpoint is the kernel's: a word survives when every checked cell's crossing slot still has a live word
with the same letter there, and (without duplicates allowed) a slot down to one word takes it from the other
slots of its length.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from xwcp.base.types import SlotId
from xwcp.compile.problem import Domains, Problem
from xwcp.engine.kernel import MAX_LETTERS
from xwcp.runtime.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
else:
    np = lazy_import("numpy")  # kernel_takes is on the numpy-free start-up path (backtrack, a small fill)


def kernel_takes(problem: Problem) -> bool:
    """Whether the compiled kernels can run `problem`'s alphabet (else `WideEngine`, CP-SAT and SAT can)."""
    return 1 <= problem.alphabet.size <= MAX_LETTERS


def kernel_refusal(problem: Problem, backend: str) -> str:
    """One line: `backend` cannot take `problem`'s alphabet, and what can."""
    alphabet = problem.alphabet
    takes = f"alphabets of up to {MAX_LETTERS} letters"
    return (
        f"backend {backend!r} runs on the compiled search, which takes {takes}; {alphabet.name} has "
        f"{alphabet.size}: use --backend cpsat (or auto, which picks it)"
    )


class WideEngine:
    """Live domains of a problem's open slots, made arc-consistent in numpy (see the module docstring)."""

    def __init__(self, problem: Problem, domains: Domains | None = None):
        self.problem = problem
        self.n_letters = problem.alphabet.size
        self.slot_ids: list[SlotId] = problem.open_slot_ids
        self.kernel_index = [-1] * len(problem.slots)
        for k, slot_id in enumerate(self.slot_ids):
            self.kernel_index[slot_id] = k
        source = problem.domains if domains is None else domains
        self._alive = {slot_id: np.array(source[slot_id], bool) for slot_id in self.slot_ids}
        self._letters = {
            slot_id: np.asarray(problem.words.bucket(problem.slots[slot_id].length).letters)
            for slot_id in self.slot_ids
        }
        self._links = {slot_id: self._links_of(slot_id) for slot_id in self.slot_ids}
        self._cause: dict[SlotId, SlotId] = {}
        self._wipeout: SlotId | None = None
        self._trail: list[dict[SlotId, NDArray[np.bool_]]] = []
        """The live masks before each `restrict_letter`, for `undo` (the incremental AC-3 of `ac3.Propagator`)."""

    def _links_of(self, slot_id: SlotId) -> list[tuple[SlotId, int]]:
        """Each position's crossing as the kernels link it (`kernel.slot_layout`): the next slot of the cell's
        cycle, past slots that are not open (a complete one, or one a region fill skips) to the next open one,
        so that a cell in three slots or more (a Schrödinger entry's readings and their crossing, a listed
        diagonal) still ties its open slots together; (-1, -1) for none."""
        problem = self.problem
        out: list[tuple[SlotId, int]] = []
        for pos, (other, other_pos) in enumerate(zip(problem.cross_slot[slot_id], problem.cross_pos[slot_id])):
            if other >= 0 and self.kernel_index[other] < 0 and not problem.is_pairwise:
                while self.kernel_index[other] < 0 and (other, other_pos) != (slot_id, pos):
                    other, other_pos = problem.cross_slot[other][other_pos], problem.cross_pos[other][other_pos]
                if other == slot_id:
                    other = -1
            out.append((other, other_pos) if other >= 0 and self.kernel_index[other] >= 0 else (-1, -1))
        return out

    @property
    def trail_len(self) -> int:
        return len(self._trail)

    def undo(self, mark: int) -> None:
        """Back to the state when `trail_len` was `mark`."""
        if mark < len(self._trail):
            self._alive = self._trail[mark]
            del self._trail[mark:]
            self._wipeout = None

    def clone(self, problem: Problem | None = None) -> WideEngine:
        """An independent copy (for `problem` when given: the same open slots, more letters entered)."""
        other = object.__new__(WideEngine)
        other.__dict__.update(self.__dict__)
        if problem is not None:
            other.problem = problem
        other._alive = {slot_id: alive.copy() for slot_id, alive in self._alive.items()}
        other._cause = dict(self._cause)
        other._trail = []
        return other

    def restrict_letter(self, slot_id: SlotId, pos: int, letter: int) -> bool:
        """Keep the slot's words with letter code `letter` at `pos`, then propagate; False on a wipeout."""
        self._trail.append({key: alive.copy() for key, alive in self._alive.items()})
        alive = self._alive[slot_id] & (self._letters[slot_id][:, pos] == letter)
        self._alive[slot_id] = alive
        if not alive.any():
            self._wipeout = slot_id
            return False
        return self.propagate_all()

    def propagate_all(self, start_from: list[SlotId] | None = None) -> bool:
        """Propagate to the fixpoint; False on a wipeout (`wipeout_slot_id` names the slot). `start_from`: the only
        slots changed since the last fixpoint (the others' crossings are not looked at again), else every slot."""
        problem = self.problem
        start = self.slot_ids if start_from is None else start_from
        for slot_id in start:
            if not self._alive[slot_id].any():
                self._wipeout = slot_id
                return False
        queue = deque(start)
        queued = set(start)
        while queue:
            slot_id = queue.popleft()
            queued.discard(slot_id)
            alive, letters = self._alive[slot_id], self._letters[slot_id]
            changed: list[SlotId] = []
            for pos, (other, other_pos) in enumerate(self._links[slot_id]):
                if other < 0:
                    continue
                live = np.zeros(self.n_letters, bool)
                live[letters[alive, pos]] = True
                other_alive = self._alive[other]
                kept = other_alive & live[self._letters[other][:, other_pos]]
                if kept.sum() != other_alive.sum():
                    self._alive[other] = kept
                    self._cause[other] = slot_id
                    changed.append(other)
            if not problem.allow_dupes and alive.sum() == 1:
                word_id = int(np.flatnonzero(alive)[0])
                length = problem.slots[slot_id].length
                for other in self.slot_ids:
                    if other != slot_id and problem.slots[other].length == length and self._alive[other][word_id]:
                        self._alive[other][word_id] = False
                        self._cause[other] = slot_id
                        changed.append(other)
            for other in changed:
                if not self._alive[other].any():
                    self._wipeout = other
                    return False
                if other not in queued:
                    queued.add(other)
                    queue.append(other)
        return True

    def probe(
        self, slot_id: SlotId, word_ids: Sequence[int] | NDArray[np.integer[Any]], time_limit_s: float | None = None
    ) -> NDArray[np.int32]:
        """`BitSearch.probe` for an alphabet the kernels do not take: each word entered in `slot_id` alone,
        propagated and undone; per word PROBE_SURVIVES (-1), PROBE_NOT_LIVE (-2) or the kernel index of the slot
        it empties. Stops early (fewer outcomes) once `time_limit_s` has passed."""
        end = None if not time_limit_s else time.perf_counter() + time_limit_s
        out: list[int] = []
        for word_id in np.asarray(word_ids, np.int64).tolist():
            if end is not None and out and time.perf_counter() >= end:
                break
            if not self._alive[slot_id][word_id]:
                out.append(-2)
                continue
            saved, cause = self._alive, self._cause
            self._alive = {key: alive.copy() for key, alive in saved.items()}
            self._cause = dict(cause)
            self._alive[slot_id][:] = False
            self._alive[slot_id][word_id] = True
            survives = self.propagate_all([slot_id])  # from a fixpoint: only this slot changed
            out.append(-1 if survives else self.kernel_index[self._wipeout] if self._wipeout is not None else -2)
            self._alive, self._cause, self._wipeout = saved, cause, None
        return np.array(out, np.int32)

    @property
    def wipeout_slot_id(self) -> SlotId | None:
        return self._wipeout

    def cause_chain(self, slot_id: SlotId) -> list[SlotId]:
        """The slots whose dead letters last emptied `slot_id`, nearest first, without repeats."""
        chain = [slot_id]
        cause = self._cause.get(slot_id)
        while cause is not None and cause not in chain:
            chain.append(cause)
            cause = self._cause.get(cause)
        return chain

    def domain(self, slot_id: SlotId) -> NDArray[np.bool_]:
        """A bool copy of the slot's live mask over its length bucket."""
        return self._alive[slot_id].copy()

    def domain_size(self, slot_id: SlotId) -> int:
        return int(self._alive[slot_id].sum())

    def letter_counts(self, slot_id: SlotId) -> NDArray[np.int32]:
        """int32 [length, K]: live words of the slot with each letter at each position."""
        letters = self._letters[slot_id][self._alive[slot_id]]
        return np.stack(
            [np.bincount(letters[:, pos], minlength=self.n_letters) for pos in range(letters.shape[1])]
        ).astype(np.int32)
