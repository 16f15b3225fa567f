"""Decide sub-problems for the core search (xwcp/search/core.py): which sets of slots can be filled together.

The minimal-core search asks many questions of one kind: "can these slots be filled
together?" (`sub_problem` keeps only them). `CoreOracle.ask` answers each with
the compiled search (xwcp/engine/_bitsearch.c) run with *slot provenance*: a proof that no fill
exists also names the slots it used (`BitSearch.used_slot_ids`), often fewer than it was
given, so one proof can drop many slots at once. What it learns is kept for the run:
- every fill found (a fill of a set of slots fills every subset of it),
- every set proven unfillable (so is every superset of it),
and the latest fill guides the next search (tried first where its words are still live):
the questions come in long runs of near neighbours, one slot more or one fewer.

Other backends (`cpsat`, `sat`) can be the oracle too, through `fill_slots`: the
same answers without provenance or guidance. A problem with the shared-substring control
takes that path as well (the compiled search does not know the control).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from xwcp.base.types import FillStatus, SlotId
from xwcp.compile.problem import Crossing, Problem, cross_links, plain_domains, plain_words
from xwcp.engine import kernel
from xwcp.engine.kernel import is_plain
from xwcp.engine.result import Limits, check_fill
from xwcp.model.grid import Slot
from xwcp.runtime.lazy import lazy_import

if TYPE_CHECKING:
    import numpy as np
else:
    np = lazy_import("numpy")  # a plain problem's core is found without it (a small fill's start-up)

ORACLE_BRANCH = "word"
"""The oracle's searches choose words, as `backtrack` does by default.

Letter branching (auto's choice on open grids) proved the seeded themeless's core 3x faster
(753 nodes against 3,207), but made the core search 2-2.6x slower on the blocked 15x15 and
XCSP lex 15-04, and on the open 6x6 a proof took 125-140 ms against 40-65 ms (same run)."""

ORACLE_FOR_BACKEND = {"auto": "backtrack"}
"""`auto` races two searches on the cores; one compiled search is the faster oracle for many small calls."""

SLICE_S = 0.05
"""Seconds the compiled search runs between checks of the deadline and the abort event."""


@dataclass(frozen=True)
class Answer:
    """The oracle's answer about one set of slots."""

    status: FillStatus
    entry_by_slot: Mapping[SlotId, str] | None = None
    """FILLED: the entry of every slot asked about (and perhaps of more)."""
    used_slot_ids: frozenset[SlotId] | None = None
    """UNFILLABLE: slots among those asked about that cannot be filled together (the proof's own
    core, from slot provenance); None when the oracle cannot tell which (then all of them)."""
    is_new: bool = True
    """False when the answer came from what the oracle already knew (no search ran)."""

    @property
    def fill(self) -> Mapping[SlotId, str]:
        """`entry_by_slot` of a FILLED answer.

        Raises:
            ValueError: the answer is not FILLED (it has no entries).
        """
        if self.entry_by_slot is None:
            raise ValueError(f"a {self.status.value} answer has no entries")
        return self.entry_by_slot


class CoreOracle:
    """Answers "can these slots be filled together?" for one problem, remembering every answer.

    Args:
        problem: the whole problem (any slots of it can be asked about).
        backend: "backtrack" (the compiled search with provenance; `auto` means it too), or any
            backend name (asked through `fill_slots`).
        seed: the searches' random seed.
        deadline: `time.perf_counter()` value after which a search stops with LIMIT; None: no limit.
        abort: an event that stops a search with ABORTED.
    """

    def __init__(
        self,
        problem: Problem,
        *,
        backend: str = "backtrack",
        seed: int = 0,
        deadline: float | None = None,
        abort: threading.Event | None = None,
    ):
        self.problem = problem
        self.backend = "backtrack" if backend == "auto" else backend
        from xwcp.engine.wide import kernel_takes

        if self.backend in ("backtrack", "letters", "grow") and not kernel_takes(problem):
            self.backend = "cpsat"  # the compiled search does not take this alphabet (more letters than its tables)
        self.seed = seed
        self.deadline = deadline
        self.abort = abort
        self.is_tracked = self.backend == "backtrack" and not problem.controls.has_pair_rules and _kernel_available()
        self.n_calls = 0
        self.fills: list[Mapping[SlotId, str]] = []
        self.unfillable: list[frozenset[SlotId]] = []
        self.branch = ORACLE_BRANCH

    def remaining_s(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.perf_counter())

    def is_stopped(self) -> bool:
        return (self.abort is not None and self.abort.is_set()) or self.remaining_s() == 0.0

    def known(self, slot_ids: Sequence[SlotId]) -> Answer | None:
        """The answer for `slot_ids` from what was learnt so far, or None."""
        wanted = set(slot_ids)
        for entry_by_slot in reversed(self.fills):
            if wanted <= entry_by_slot.keys():
                return Answer(FillStatus.FILLED, entry_by_slot, is_new=False)
        for proven in self.unfillable:
            if proven <= wanted:
                return Answer(FillStatus.UNFILLABLE, used_slot_ids=proven, is_new=False)
        return None

    def ask(self, slot_ids: Sequence[SlotId]) -> Answer:
        """Whether the slots `slot_ids` can be filled together (each fill is checked with `check_fill`).

        Returns:
            FILLED with the entries, UNFILLABLE with the slots the proof used, or LIMIT / ABORTED
            when the deadline passed or the abort event was set first.
        """
        kept = sorted(set(slot_ids))
        answer = self.known(kept)
        if answer is not None:
            return answer
        if self.is_stopped():
            return Answer(FillStatus.ABORTED if self.abort is not None and self.abort.is_set() else FillStatus.LIMIT)
        self.n_calls += 1
        if self.is_tracked:
            answer = self._ask_compiled(kept)
        else:
            answer = self._ask_backend(kept)
        if answer.status is FillStatus.FILLED:
            self.fills.append(answer.fill)
        elif answer.status is FillStatus.UNFILLABLE:
            used = answer.used_slot_ids if answer.used_slot_ids is not None else frozenset(kept)
            answer = Answer(FillStatus.UNFILLABLE, used_slot_ids=used)
            self.unfillable.append(used)
        return answer

    def extend(self, entry_by_slot: Mapping[SlotId, str], slot_id: SlotId) -> str | None:
        """A word for `slot_id` that fits the fill `entry_by_slot` (every crossing, no word twice), or None.

        When there is one, the fill's slots and `slot_id` can be filled together: no search needed.
        """
        if slot_id in self.problem.fixed_text_by_slot:
            return None
        return _word_for(self.problem, slot_id, dict(entry_by_slot), ignored=-2)

    def proof(self) -> tuple[Answer, dict[SlotId, float]]:
        """Search the whole problem once with provenance: its answer, and each slot's share of the
        dead ends (the search's failure weights: the core's likely slots come first)."""
        all_ids = [slot.id for slot in self.problem.slots]
        if not self.is_tracked:
            return self.ask(all_ids), {}
        weights: dict[SlotId, float] = {}
        answer = self._ask_compiled(all_ids, weights)
        self.n_calls += 1
        if answer.status is FillStatus.FILLED:
            self.fills.append(answer.fill)
        elif answer.status is FillStatus.UNFILLABLE:
            self.unfillable.append(answer.used_slot_ids if answer.used_slot_ids is not None else frozenset(all_ids))
        return answer, weights

    def _ask_backend(self, kept: list[SlotId]) -> Answer:
        status, entry_by_slot = fill_slots(self.problem, kept, self.backend, self.remaining_s(), self.seed)
        if status is FillStatus.LIMIT and self.abort is not None and self.abort.is_set():
            status = FillStatus.ABORTED
        return Answer(status, entry_by_slot if status is FillStatus.FILLED else None)

    def _ask_compiled(self, kept: list[SlotId], weights: dict[SlotId, float] | None = None) -> Answer:
        from xwcp.backends import backtrack
        from xwcp.engine.plain_kernel import bit_search

        problem = self.problem if len(kept) == len(self.problem.slots) else sub_problem(self.problem, kept)
        if problem.conflicts:  # the user's own entries repeat a word: no search can help
            return Answer(FillStatus.UNFILLABLE, used_slot_ids=frozenset(kept))
        engine = bit_search(problem, track_slots=True)
        if not engine.is_consistent:
            return Answer(FillStatus.UNFILLABLE, used_slot_ids=self._used(engine, kept))
        engine.configure(
            seed=self.seed,
            restart_base=backtrack.RESTART_BASE_FAILS,
            noise=backtrack.NOISE,
            score_weight=backtrack.SCORE_WEIGHT,
            branch=self.branch,
        )
        guide = self._guide(problem, kept)
        if guide:
            engine.set_guide(guide)
        answer = None
        while answer is None:
            remaining = self.remaining_s()
            code = engine.search(SLICE_S if remaining is None else min(SLICE_S, remaining))
            if code == kernel.SOLVED:
                entries = _entries(problem, engine.solution_word_ids())
                violations = check_fill(problem, entries)
                if violations:
                    raise RuntimeError(f"the core's search produced an invalid fill: {'; '.join(violations[:3])}")
                answer = Answer(FillStatus.FILLED, dict(zip(kept, entries)))
            elif code == kernel.EXHAUSTED:
                answer = Answer(FillStatus.UNFILLABLE, used_slot_ids=self._used(engine, kept))
            elif code == kernel.NOMEM:
                raise MemoryError("the search's save stack could not grow")
            elif self.abort is not None and self.abort.is_set():
                answer = Answer(FillStatus.ABORTED)
            elif self.remaining_s() == 0.0:
                answer = Answer(FillStatus.LIMIT)
        if weights is not None:
            weights.update({kept[s]: w for s, w in engine.slot_weights().items()})
        return answer

    def _used(self, engine: kernel.BitSearch, kept: list[SlotId]) -> frozenset[SlotId]:
        used = engine.used_slot_ids()
        if used is None:  # no memory for provenance: the proof used them all, as far as we know
            return frozenset(kept)
        return frozenset(kept[s] for s in used)

    def _guide(self, problem: Problem, kept: list[SlotId]) -> dict[SlotId, int]:
        """The latest fill's words by slot of `problem` (kept's order), where they are listed."""
        if not self.fills:
            return {}
        latest = self.fills[-1]
        words = self.problem.words
        guide: dict[SlotId, int] = {}
        for new_id, old_id in enumerate(kept):
            text = latest.get(old_id)
            if text is not None and old_id not in self.problem.fixed_text_by_slot:
                word_id = words.word_id(text)
                if word_id is not None:
                    guide[new_id] = word_id
        return guide


def sub_problem(problem: Problem, slot_ids: Iterable[SlotId]) -> Problem:
    """`problem` keeping only the slots `slot_ids` (renumbered 0.. in the given order, names kept).

    Crossings with a dropped slot become unchecked positions; the kept slots keep their domains
    (their entered letters, minimum score and the user's complete entries stay excluded) and
    their per-slot fields (own minimum score, filters, skipped, unlisted), and the no-word-twice rule
    holds among the kept slots. The grid, and so every entered letter,
    is unchanged.
    """
    kept = list(dict.fromkeys(slot_ids))
    new_id = {old: new for new, old in enumerate(kept)}
    slots = tuple(_renumbered(problem.slots[old], new) for new, old in enumerate(kept))
    is_pairwise = problem.is_pairwise
    if is_pairwise:
        crossings = tuple(
            Crossing(x.cell, new_id[x.a], x.a_pos, new_id[x.b], x.b_pos)
            for x in problem.crossings
            if x.a in new_id and x.b in new_id
        )
        cross_slot, cross_pos = [], []
        for old in kept:
            cross_slot.append(tuple(new_id.get(t, -1) if t >= 0 else -1 for t in problem.cross_slot[old]))
            cross_pos.append(
                tuple(q if t in new_id else -1 for t, q in zip(problem.cross_slot[old], problem.cross_pos[old]))
            )
    else:  # cells in three or more slots: the kept slots of each cell make a cycle of their own
        crossings, linked_slot, linked_pos, is_pairwise = cross_links(slots)
        cross_slot, cross_pos = list(linked_slot), list(linked_pos)
    fixed = {new_id[old]: text for old, text in problem.fixed_text_by_slot.items() if old in new_id}
    conflicts: list[str] = []
    if not problem.allow_dupes:
        first_by_text: dict[str, SlotId] = {}
        for slot_id, text in sorted(fixed.items()):
            if text in first_by_text:
                conflicts.append(
                    f"{text} is entered twice, in {slots[first_by_text[text]].name} and {slots[slot_id].name}"
                )
            else:
                first_by_text[text] = slot_id
    return replace(
        problem,
        slots=slots,
        crossings=crossings,
        domains=tuple(problem.domains[old] for old in kept),
        fixed_text_by_slot=fixed,
        conflicts=tuple(conflicts),
        cross_slot=tuple(cross_slot),
        cross_pos=tuple(cross_pos),
        is_pairwise=is_pairwise,
        is_part=True,
        min_score_by_slot={new_id[old]: v for old, v in problem.min_score_by_slot.items() if old in new_id},
        filters_by_slot={new_id[old]: v for old, v in problem.filters_by_slot.items() if old in new_id},
        skipped_slot_ids=frozenset(new_id[old] for old in problem.skipped_slot_ids if old in new_id),
        unlisted=tuple(new_id[old] for old in problem.unlisted if old in new_id),
    )


def _renumbered(slot: Slot, slot_id: SlotId) -> Slot:
    """`slot` with the id `slot_id`, every other field kept (as `dataclasses.replace`, which was a tenth of a
    small core's time: a core search makes thousands): the slot itself when its id already is `slot_id`, else
    the constructor called directly (0.9 us a slot, against 2 us for `copy.copy` + `object.__setattr__`)."""
    if slot.id == slot_id:
        return slot
    return Slot(slot_id, slot.number, slot.direction, slot.row, slot.col, slot.cells, slot.label, slot.reading)


def fill_slots(
    problem: Problem,
    slot_ids: Sequence[SlotId],
    backend: str = "backtrack",
    time_limit_s: float | None = None,
    seed: int = 0,
) -> tuple[FillStatus, dict[SlotId, str]]:
    """Whether the slots `slot_ids` of `problem` can be filled together, asked of `backend`.

    Returns:
        The status, and when FILLED the entry of each of those slots (checked by `check_fill`).
    """
    if not slot_ids:
        return FillStatus.FILLED, {}
    from xwcp.backends import fill

    kept = list(dict.fromkeys(slot_ids))
    result = fill(
        sub_problem(problem, kept),
        ORACLE_FOR_BACKEND.get(backend, backend),
        Limits(time_limit_s=time_limit_s, seed=seed, threads=1),
    )
    return result.status, dict(zip(kept, result.entries)) if result.entries is not None else {}


def fill_status(
    problem: Problem,
    slot_ids: Sequence[SlotId],
    backend: str = "backtrack",
    time_limit_s: float | None = None,
    seed: int = 0,
) -> FillStatus:
    """Whether the slots `slot_ids` of `problem` can be filled together, asked of `backend` (any fill is checked)."""
    return fill_slots(problem, slot_ids, backend, time_limit_s, seed)[0]


def _word_for(problem: Problem, slot_id: SlotId, entry_by_slot: dict[SlotId, str], ignored: SlotId) -> str | None:
    """A word for `slot_id` that agrees with `entry_by_slot` at every crossing but the one with `ignored`
    and repeats none of its entries (except `ignored`'s), or None."""
    slot = problem.slots[slot_id]
    used = {text for other, text in entry_by_slot.items() if other != ignored} if not problem.allow_dupes else set()
    fixed = problem.fixed_text_by_slot.get(slot_id)
    if fixed is not None:
        for pos, at_pos in enumerate(problem.partners[slot_id]):
            for other, other_pos in at_pos:
                if other != ignored and other in entry_by_slot and fixed[pos] != entry_by_slot[other][other_pos]:
                    return None
        return None if fixed in used else fixed
    if is_plain(problem):
        return _plain_word_for(problem, slot, entry_by_slot, ignored, used)
    bucket = problem.words.bucket(slot.length)
    mask = np.array(problem.domains[slot_id], bool)
    letters = np.asarray(bucket.letters)
    for pos, at_pos in enumerate(problem.partners[slot_id]):
        for other, other_pos in at_pos:
            if other != ignored and other in entry_by_slot:
                code = problem.alphabet.index(entry_by_slot[other][other_pos])
                if code is None:  # a symbol of the user's own entry: no listed word has it
                    return None
                mask &= letters[:, pos] == code
    for word_id in np.flatnonzero(mask):
        text = bucket.text(int(word_id))
        if text not in used:
            return text
    return None


def _plain_word_for(
    problem: Problem, slot: Slot, entry_by_slot: dict[SlotId, str], ignored: SlotId, used: set[str]
) -> str | None:
    """`_word_for` an open slot of a plain problem (`xwcp.engine.kernel.is_plain`): the same word, from bitsets."""
    words = plain_words(problem)
    bits = plain_domains(problem)[slot.id]
    for pos, at_pos in enumerate(problem.partners[slot.id]):
        for other, other_pos in at_pos:
            if other != ignored and other in entry_by_slot:
                code = problem.alphabet.index(entry_by_slot[other][other_pos])
                if code is None:  # a symbol of the user's own entry: no listed word has it
                    return None
                bits &= words.letter_bits(slot.length, pos, code)
    bucket = words.bucket(slot.length)
    while bits:  # lowest word id first, as np.flatnonzero
        low = bits & -bits
        text = bucket.text(low.bit_length() - 1)
        if text not in used:
            return text
        bits ^= low
    return None


def _entries(problem: Problem, word_id_by_slot: Mapping[SlotId, int]) -> tuple[str, ...]:
    from xwcp.backends._common import entries_from_word_ids

    return entries_from_word_ids(problem, word_id_by_slot)


def _kernel_available() -> bool:
    from xwcp.backends import backtrack

    return backtrack.available()
