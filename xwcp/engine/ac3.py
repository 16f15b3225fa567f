"""Arc consistency for a problem: the domains left when every word has crossing support and no word repeats.

`propagate(problem)` computes the fixpoint from scratch; `Propagator` keeps it for an editor,
re-propagating after one letter is entered (a trail level) and undoing to the level before an
erased letter. Both run on the compiled kernel (support counts per cell and letter, see
xwcp/engine/kernel.py): a word survives in a slot when, at every checked cell, the crossing slot still
has a live word with the same letter; when a slot is down to one word (or the user entered it
completely), that word leaves every other slot. The fixpoint is unique, so the order of work
does not change the result, only the time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from xwcp.base.errors import option_name
from xwcp.base.types import SlotId
from xwcp.compile.problem import Domains, Problem, compile_problem, fitting_bits, keep_entered_letters
from xwcp.engine.kernel import Engine, is_plain, letter_chars
from xwcp.engine.wide import WideEngine, kernel_takes
from xwcp.runtime.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
else:
    np = lazy_import(
        "numpy"
    )  # `unfillable_reason` names a plain problem's dead slot without it (a small fill's start-up)


@dataclass(frozen=True)
class Propagation:
    """The arc-consistent state of a problem.

    `domains[slot_id]` is a bool mask over the slot's length bucket; a slot the user filled
    completely keeps its own mask (its word, or nothing when the list lacks it).
    `letter_counts[cell]` is int32 [K] (K letters in the alphabet, 26 for English): how many live words of the cell's slots put each
    letter there (the across slot's counts where there is one); all zero for blocks. It is
    indexed by letter cell (`Problem.slots`): the grid's cells first, where a rebus cell has
    the counts of its first letter.
    When inconsistent, `wipeout_slot` is the slot that emptied and `chain` the crossings that
    emptied it, nearest first.
    """

    is_consistent: bool
    domains: Domains
    letter_counts: NDArray[np.int32]
    counts_by_slot: tuple[NDArray[np.int32], ...] = ()
    """counts_by_slot[slot_id]: int32 [length, K] live words with each letter at each position."""
    wipeout_slot: SlotId | None = None
    chain: tuple[SlotId, ...] = ()
    reason: str = ""

    def size(self, slot_id: SlotId) -> int:
        return int(self.domains[slot_id].sum())

    def letters_possible(self, cell: int) -> int:
        return int(np.count_nonzero(self.letter_counts[cell]))


def unfillable_reason(problem: Problem, slot_id: SlotId, chain: Sequence[SlotId] = ()) -> str:
    """One sentence naming the slot that cannot be filled and why."""
    slot = problem.slots[slot_id]
    pattern = problem.written_pattern(slot_id)
    domain = problem.domains[slot_id]
    if not (domain if is_plain(problem) else domain.any()):
        if slot_id in problem.fixed_text_by_slot:
            return f"{slot.name} ({pattern}) clashes with the rest of the grid"
        n_lower = _n_fitting_below_min_score(problem, slot_id)
        if n_lower:
            return (
                f"{slot.name} ({pattern}): no {slot.length}-letter word scored {problem.min_score} or more "
                f"fits its letters ({n_lower} scored lower do: lower {option_name('min_score')})"
            )
        return f"{slot.name} ({pattern}): no {slot.length}-letter word in the list fits its letters"
    via = " <- ".join(problem.slots[s].name for s in chain[1:])
    tail = f" (emptied through {via})" if via else ""
    return f"{slot.name} ({pattern}): no word fits its crossings{tail}"


def _n_fitting_below_min_score(problem: Problem, slot_id: SlotId) -> int:
    """How many listed words scored under the minimum fit the slot's entered letters."""
    slot = problem.slots[slot_id]
    if is_plain(problem):
        return fitting_bits(problem, slot, problem.min_score, below=True).bit_count()
    below = np.asarray(problem.words.bucket(slot.length).scores) < problem.min_score
    return int(keep_entered_letters(below, problem.letters, slot, problem.words).sum())


class Propagator:
    """An editable arc-consistent state: enter letters one at a time, erase them in any order.

    Entering a letter restricts the slots through its cell and propagates from the current
    state; erasing undoes the trail to just before that letter and re-enters the later ones.
    A letter that completes a slot with a word the list lacks (or scores below the minimum)
    makes that slot the user's own entry, which the kernel does not model as a variable, so
    that edit (and erasing it later) rebuilds the state from scratch instead.
    """

    def __init__(self, problem: Problem):
        self.base = problem
        self._code_by_char = _code_by_char(problem)
        self.letters: dict[int, str] = {}
        """Letters entered since construction, by cell, oldest first."""
        self._rebuild()

    def _rebuild(self) -> None:
        self.problem = (
            self.base
            if not self.letters
            else compile_problem(
                self.base.grid_with_letters(self.letters),
                self.base.words,
                min_score=self.base.min_score,
                allow_dupes=self.base.allow_dupes,
            )
        )
        self.engine = make_engine(self.problem)
        self.is_consistent = not self.problem.conflicts and self.engine.propagate_all()
        self._wipeout = self.engine.wipeout_slot_id
        self._marks: list[tuple[int, int, bool]] = []
        """(cell, trail mark before it, consistent before it) per letter entered since the rebuild."""

    def enter(self, cell: int, letter: str) -> bool:
        """Put `letter` in empty `cell` and re-propagate. Returns False if the grid became unfillable.

        Raises:
            ValueError: `cell` is not an empty cell of the grid.
        """
        if cell >= len(self.base.grid.cells) or self.base.letters[cell] != ".":
            raise ValueError(f"cell {cell} is not an empty cell of the grid")
        self.letters[cell] = letter
        if self._completes_own_entry(cell):
            self._rebuild()
        else:
            self._apply(cell, letter)
        return self.is_consistent

    def erase(self, cell: int) -> bool:
        """Take back the letter entered at `cell`. Returns the new consistency."""
        del self.letters[cell]
        index = next((i for i, m in enumerate(self._marks) if m[0] == cell), None)
        if index is None:
            self._rebuild()
            return self.is_consistent
        later = self._marks[index + 1 :]
        _, mark, self.is_consistent = self._marks[index]
        self.engine.undo(mark)
        del self._marks[index:]
        for c, _, _ in later:
            self._apply(c, self.letters[c])
        return self.is_consistent

    def _apply(self, cell: int, letter: str) -> None:
        self._marks.append((cell, self.engine.trail_len, self.is_consistent))
        if not self.is_consistent:
            return
        for slot in self.problem.slots:
            if cell in slot.cells and self.engine.kernel_index[slot.id] >= 0:
                if not self.engine.restrict_letter(slot.id, slot.cells.index(cell), self._code_by_char[letter]):
                    self.is_consistent = False
                    self._wipeout = self.engine.wipeout_slot_id
                    return

    def _completes_own_entry(self, cell: int) -> bool:
        given = self.base.letters
        for slot in self.base.slots:
            if cell not in slot.cells:
                continue
            text = "".join(self.letters.get(c, given[c]) for c in slot.cells)
            if "." in text:
                continue
            score = self.base.words.score(text)
            if score is None or score < self.base.min_score:
                return True
        return False

    def snapshot(self) -> Propagation:
        """The current state as a Propagation (copies the domains)."""
        problem = self.problem
        if not self.is_consistent and self._marks:
            # name the slot with the letters as they are now
            problem = compile_problem(
                self.base.grid_with_letters(self.letters),
                self.base.words,
                min_score=self.base.min_score,
                allow_dupes=self.base.allow_dupes,
            )
        return _snapshot(self.problem, self.engine, self.is_consistent, self._wipeout, problem)


def _snapshot(
    problem: Problem, engine: Engine, is_consistent: bool, wipeout: SlotId | None, named: Problem | None = None
) -> Propagation:
    n_letters = engine.n_letters
    letter_counts = np.zeros((problem.n_letter_cells, n_letters), np.int32)
    if not is_consistent:
        # One empty slot means no fill: every slot crossing it loses its support in turn, so by
        # convention every domain is reported empty, with the slot and chain that emptied first.
        empty = tuple(np.zeros(d.shape, bool) for d in problem.domains)
        no_counts = tuple(np.zeros((s.length, n_letters), np.int32) for s in problem.slots)
        if wipeout is None:
            return Propagation(False, empty, letter_counts, no_counts, None, (), problem.conflicts[0])
        chain = tuple(engine.cause_chain(wipeout))
        return Propagation(
            False, empty, letter_counts, no_counts, wipeout, chain, unfillable_reason(named or problem, wipeout, chain)
        )
    domains = []
    counts_by_slot = []
    across_cells: set[int] = set()  # cells whose counts an across slot set (never all zero when consistent)
    code_by_char = _code_by_char(problem)
    for slot in problem.slots:
        if engine.kernel_index[slot.id] < 0:
            domains.append(problem.domains[slot.id])
            counts = np.zeros((slot.length, n_letters), np.int32)
            for pos, cell in enumerate(slot.cells):
                letter = problem.letters[cell]
                code = code_by_char.get(letter)
                if code is not None:
                    counts[pos, code] = 1
                elif letter == ".":  # an empty cell of a slot a region fill leaves out: any letter, it is not filled
                    counts[pos, :] = 1
        else:
            domains.append(engine.domain(slot.id))
            counts = engine.letter_counts(slot.id).copy()
        counts_by_slot.append(counts)
        if slot.direction.letter == "A":
            letter_counts[list(slot.cells)] = counts
            across_cells.update(slot.cells)
        else:
            for pos, cell in enumerate(slot.cells):
                if cell not in across_cells:
                    letter_counts[cell] = counts[pos]
    return Propagation(True, tuple(domains), letter_counts, tuple(counts_by_slot))


def propagate(problem: Problem, domains: Domains | None = None) -> Propagation:
    """Arc-consistent domains of `problem` (starting from `domains` if given, else its initial ones).

    Returns:
        A Propagation; `is_consistent` is False when some slot has no word left, and then
        `wipeout_slot`, `chain` and `reason` say which and how.
    """
    return propagate_engine(problem, domains)[0]


def propagate_engine(problem: Problem, domains: Domains | None = None) -> tuple[Propagation, Engine]:
    """`propagate`, also returning the engine at the fixpoint (for `propagate_letters` on a later grid)."""
    engine = make_engine(problem, domains)
    if problem.conflicts:
        return _snapshot(problem, engine, False, None), engine
    is_consistent = engine.propagate_all()
    return _snapshot(problem, engine, is_consistent, engine.wipeout_slot_id), engine


def make_engine(problem: Problem, domains: Domains | None = None) -> Engine:
    """The compiled AC engine, or for an alphabet of more than 64 letters (Hindi aksharas) numpy's `WideEngine`,
    which answers what AC-3's callers read of an engine (domains, counts, chains, letters entered and undone)."""
    if not kernel_takes(problem):
        return cast(Engine, WideEngine(problem, domains))
    return Engine(problem, domains)


def propagate_letters(
    problem: Problem, engine: Engine, letter_by_cell: dict[int, str]
) -> tuple[Propagation, Engine] | None:
    """`propagate(problem)` reached from `engine`, the consistent fixpoint of a grid that `problem`'s grid
    extends by `letter_by_cell` (letters in cells that were empty) with the same open slots: a copy of the
    engine enters the letters, so no counting pass runs. The fixpoint is unique, so the domains and counts
    are `propagate`'s.

    Returns:
        (propagation, engine), or None when the letters empty a slot (then `propagate` names the dead slot
        and its chain as a fresh propagation does).
    """
    engine = engine.clone(problem)
    code_by_char = _code_by_char(problem)
    for cell, letter in letter_by_cell.items():
        for slot in problem.slots:
            if cell in slot.cells and engine.kernel_index[slot.id] >= 0:
                if not engine.restrict_letter(slot.id, slot.cells.index(cell), code_by_char[letter]):
                    return None
    return _snapshot(problem, engine, True, None), engine


def _code_by_char(problem: Problem) -> dict[str, int]:
    """Letter code (0..K-1) by code char of `problem`'s alphabet: what the kernels call a letter."""
    return {ch: code for code, ch in enumerate(letter_chars(problem))}
