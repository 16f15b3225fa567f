"""Why a grid cannot be filled: the smallest set of slots that cannot be filled together (a minimal core).

A core is a set of slots whose entries cannot all be chosen at once (each from the list, the
crossings agreeing, no word twice), such that dropping any one of them leaves the rest
fillable: a minimal unsatisfiable subset (MUS) over slots. Dropping a slot removes its
constraint: its word is no longer needed, and its cells are then constrained only by the
crossing slots that are kept. Letters the user entered stay in every cell.

It is found by asking an oracle (`xwcp.backends.core_oracle.CoreOracle`: the compiled search with slot
provenance, remembering every fill and proof) whether sub-problems that keep only some slots
(`sub_problem`) can be filled:
1. a first unfillable set: the seed slots alone when they are one (AC-3's emptied slot with no
   word at all); the whole grid when the caller proved it; else one search of it, whose proof
   names the slots it used (at the root, AC-3's own core at once);
2. grow: add slots, those the proof's dead ends gathered at first (`weight_by_slot`, the
   verdict's failure weights; then nearest the seed slots), until they cannot be filled
   together; a slot that can take a word fitting the fill found so far needs no search. The
   slot that tips it is needed, and that proof's own slots are the new candidate. When the
   weights are spread over most slots (GROW_WHEN_CONCENTRATED) the core is most of the grid:
   it grows by rings of crossings around the seed slot instead;
3. shrink (deletion-based): try dropping slots, least likely first (farthest from the seed
   first after rings), in chunks that double
   while drops succeed and halve when they fail; a proof that the rest is unfillable keeps
   only the slots it used. Every slot kept was tried alone against a superset of the final
   core, and dropping slots only removes constraints, so one pass leaves a minimal core. A
   fill found when a slot is needed is reused (model rotation): if that slot can take a word
   agreeing with the fill at every crossing but one, the slot across that crossing is needed
   too, without asking the oracle.
`is_minimal` is True only when every slot of the core was proven needed; when the time limit
or the caller's abort (`is_stopped`) cuts the search short, the core is still unfillable.

Why grow by weights: on the seeded themeless (bench/seeded/sticky-fingers.txt,
64 slots, 16-slot cores) the 13 slots with the most dead ends in the verdict's proof are all
in the core, while each proof's own slots keep 46 of the 64 (its refutations do lean on the
corners). Searches that find a fill take milliseconds there and proofs 0.2-0.5 s, so growing
costs one proof where rings of crossings and chunked deletion cost about twenty.

Any backend can be the oracle (`find_core(..., backend=...)`, without provenance); `check`,
`fill` and `heatmap` use the compiled search (`explain`'s default) whichever backend proved
the grid unfillable: it decides each small sub-problem in milliseconds, where CP-SAT and SAT
spend most of a call building the model (the 7x7 spiral's 12 calls: backtrack 0.03 s, sat
0.8 s, cpsat 2.1 s).

Measured with bench/core_speed.py against growing by rings, side by side
(bench/results/2026-11-25/core_speed_ab.txt; docs/design-notes.md, "Minimal cores").
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from xwcp.backends.core_oracle import (  # noqa: F401 - re-exported
    ORACLE_FOR_BACKEND,
    Answer,
    CoreOracle,
    _word_for,
    fill_slots,
    fill_status,
    sub_problem,
)
from xwcp.base.types import FillStatus, SlotId
from xwcp.compile.problem import Problem, crossing_distances  # noqa: F401 - crossing_distances: its older home

GROW_WHEN_CONCENTRATED = 0.6
"""Grow by the proof's weights only when 90% of the weight sits on at most this share of the weighted slots.

Concentrated weights name the core (seeded themeless 0.35, blocked 11x11 and 15x15 with the
25k list 0.42 and 0.30, blocked 9x9 0.54); spread ones do not (open 5x5-7x7 0.86-0.92, blocked
7x7 0.71, XCSP lex 15-04 0.68: cores of most of the grid), and growing slot by slot there
searches for nearly every slot twice, once to grow and once to shrink. Then the core grows by
rings of crossings around the seed slot and shrinks farthest first.
Measured side by side (bench/core_speed.py): on the spread ones rings took 0.38 s against
0.54 s (lex 15-04), on the 9x9 growing took 0.43 s against 0.63 s."""

CORE_TIME_LIMIT_S = 5.0
"""Default budget for growing and shrinking a core: the target is a minimal core within 5 s."""


class CoreKind(Enum):
    """How a core reads to a constructor."""

    NO_WORD = "no-word"
    """One slot with no word at all."""
    NO_COMMON_LETTER = "no-common-letter"
    """Two crossing slots whose words never share the letter of their common cell."""
    GROUP = "group"
    """A larger group (or two slots that do not cross), fillable only when any one of them is dropped."""


@dataclass(frozen=True)
class Core:
    """A set of slots that cannot all be filled together; minimal unless the time limit cut the shrinking."""

    slot_ids: tuple[SlotId, ...]
    is_minimal: bool
    kind: CoreKind
    backend: str
    n_oracle_calls: int
    wall_time_s: float
    is_stopped: bool = False
    """The user stopped the search (`find_core`'s `abort`) before it could prove the core minimal."""


@dataclass(frozen=True)
class CoreProgress:
    """A snapshot of a running core search, passed to `find_core`'s `progress` after each search it runs."""

    elapsed_s: float
    n_calls: int
    """Searches run so far."""
    n_slots: int
    """Slots in the smallest set known to be unfillable so far (the core is among them)."""
    n_needed: int
    """Of those, the slots proven needed."""
    stage: str
    """"proof" (searching the whole grid), "grow" (adding the likeliest slots until they cannot be
    filled together) or "shrink" (dropping slots while the rest stays unfillable)."""


def find_core(
    problem: Problem,
    *,
    backend: str = "backtrack",
    time_limit_s: float | None = CORE_TIME_LIMIT_S,
    seed_slot_ids: Sequence[SlotId] = (),
    seed: int = 0,
    is_proven: bool = False,
    weight_by_slot: Mapping[SlotId, float] | None = None,
    progress: Callable[[CoreProgress], None] | None = None,
    abort: threading.Event | None = None,
) -> Core | None:
    """A minimal set of slots of `problem` that cannot be filled together.

    Args:
        problem: a problem believed unfillable.
        backend: the oracle that decides each sub-problem: backtrack (default, fastest: the compiled
            search with slot provenance, `xwcp.backends.core_oracle`), cpsat or sat (`auto` means backtrack).
        time_limit_s: budget for the whole search; when it runs out the core found so far is
            returned with `is_minimal` False. None for no limit.
        seed_slot_ids: slots to grow the core from first (e.g. AC-3's wipeout slot, or the slot the
            proof's dead ends gathered at); empty to rely on `weight_by_slot` alone.
        seed: the oracle's random seed.
        is_proven: the caller has already proven the whole problem unfillable, so it is not asked again
            (that proof is the most expensive call on grids that only search can settle).
        weight_by_slot: each slot's share of the dead ends of the proof (`FillResult.weight_by_slot`): the
            likeliest slots of the core. Without it (and with the compiled oracle) the whole problem is
            searched once more to get them, which also gives a first, smaller unfillable set.
        progress: called after each search with a `CoreProgress`.
        abort: an event that stops the search; the unfillable set found so far is returned, marked
            `is_stopped` (and minimal only if it happens to be proven so).

    Returns:
        The core, or None when the oracle fills the whole problem (it was not unfillable) or
        cannot decide it within the time.
    """
    start = time.perf_counter()
    oracle = CoreOracle(
        problem,
        backend=backend,
        seed=seed,
        abort=abort,
        deadline=None if time_limit_s is None else start + time_limit_s,
    )
    all_ids = [s.id for s in problem.slots]
    if not all_ids:
        return None
    search = _CoreSearch(problem, oracle, start, progress, list(all_ids), dict(weight_by_slot or {}))
    outcome = search.first_set(list(seed_slot_ids), is_proven)
    if outcome is _Step.GO_ON:
        outcome = search.grow(list(seed_slot_ids))
    if outcome is _Step.GO_ON:
        search.shrink()
    return None if outcome is _Step.NOT_UNFILLABLE else search.finish()


class _Step(Enum):
    """How a step of `find_core` ended."""

    GO_ON = "go on"
    """The next step follows."""
    CUT_SHORT = "cut short"
    """Out of time or stopped: the unfillable set found so far is the answer."""
    NOT_UNFILLABLE = "not unfillable"
    """The set believed unfillable was filled, or could not be decided: no core."""


def _used(answer: Answer) -> list[SlotId]:
    """The slots an UNFILLABLE answer's proof used, sorted (the oracle names them on every such answer)."""
    return sorted(answer.used_slot_ids or ())


def _entries(answer: Answer) -> Mapping[SlotId, str]:
    """The entries of a FILLED answer (the oracle gives them on every such answer)."""
    return answer.entry_by_slot or {}


@dataclass
class _CoreSearch:
    """The running state of `find_core`: the oracle, the smallest set known to be unfillable (`core`),
    the slots proven needed, and the weights and distances that order the slots."""

    problem: Problem
    oracle: CoreOracle
    start: float
    progress: Callable[[CoreProgress], None] | None
    core: list[SlotId]
    weights: dict[SlotId, float]
    needed: set[SlotId] = field(default_factory=set)
    stopped: bool = False
    distance: dict[SlotId, int] = field(default_factory=dict)
    """Crossings from the seed slots (`crossing_distances`)."""
    far: int = 1
    """Farther than every slot with a distance."""
    everywhere: bool = False
    """The dead ends were spread out (see GROW_WHEN_CONCENTRATED): the core grew by rings of crossings."""

    def report(self, stage: str) -> None:
        if self.progress is not None:
            self.progress(
                CoreProgress(
                    time.perf_counter() - self.start, self.oracle.n_calls, len(self.core), len(self.needed), stage
                )
            )

    def ask(self, slot_ids: Sequence[SlotId], stage: str) -> Answer:
        answer = self.oracle.ask(slot_ids)
        if answer.is_new:
            self.report(stage)
        if answer.status is FillStatus.ABORTED:
            self.stopped = True
        return answer

    def finish(self) -> Core:
        self.core.sort()
        return Core(
            tuple(self.core),
            set(self.core) <= self.needed,
            _kind(self.problem, self.core),
            self.oracle.backend,
            self.oracle.n_calls,
            time.perf_counter() - self.start,
            is_stopped=self.stopped,
        )

    def first_set(self, seed_slot_ids: list[SlotId], is_proven: bool) -> _Step:
        """1. A first unfillable set: the seed slots alone when they are one (AC-3's emptied slot often has
        no word at all), the whole problem when the caller proved it, else what a search of it used."""
        oracle = self.oracle
        if oracle.is_tracked and not self.weights and seed_slot_ids:
            answer = self.ask(seed_slot_ids, "proof")
            if answer.status is FillStatus.UNFILLABLE:
                self.core = _used(answer)
                return _Step.GO_ON
        all_ids = list(self.core)
        if oracle.is_tracked and not (self.weights and is_proven):
            self.report("proof")
            answer, found = oracle.proof()
            self.weights = self.weights or found
            if answer.status is FillStatus.FILLED:
                return _Step.NOT_UNFILLABLE
            if answer.status is not FillStatus.UNFILLABLE:
                self.stopped = answer.status is FillStatus.ABORTED
                return _Step.CUT_SHORT if is_proven else _Step.NOT_UNFILLABLE
            self.core = _used(answer)
            self.report("proof")
        elif not is_proven:
            answer = self.ask(all_ids, "proof")
            if answer.status is not FillStatus.UNFILLABLE:
                return _Step.NOT_UNFILLABLE
            self.core = _used(answer)
        else:
            oracle.unfillable.append(frozenset(all_ids))  # proven by the caller: never searched whole again
        return _Step.GO_ON

    def rotate(self, slot_id: SlotId, entries: dict[SlotId, str]) -> None:
        """Model rotation: `slot_id` is needed and `entries` fills the rest; if `slot_id` can take a word
        agreeing with it at every crossing but one, the slot across that crossing is needed too (and so on)."""
        stack = [(slot_id, entries)]
        while stack:
            dropped, fill = stack.pop()
            for other in set(self.problem.neighbours[dropped]):
                if other in self.needed or other not in fill:
                    continue
                word = _word_for(self.problem, dropped, fill, ignored=other)
                if word is not None:
                    self.needed.add(other)
                    rotated = {s: text for s, text in fill.items() if s != other}
                    rotated[dropped] = word
                    stack.append((other, rotated))

    def grow(self, seed_slot_ids: list[SlotId]) -> _Step:
        """2. Grow: add the likeliest slots one at a time until they cannot be filled together (a fill that
        takes a word for the new slot as it stands needs no search); the slot that tips it is needed."""
        self.distance = crossing_distances(self.problem, seed_slot_ids)
        self.far = max(self.distance.values(), default=0) + 1
        weights, distance, far = self.weights, self.distance, self.far
        order = sorted(self.core, key=lambda s: (-weights.get(s, 0.0), distance.get(s, far), s))
        self.everywhere = bool(weights) and not _concentrated(
            [weights[s] for s in self.core if weights.get(s, 0.0) > 0]
        )
        if self.everywhere:  # rings of crossings around the seed instead
            order = []
            step = self.grow_rings()
            if step is not _Step.GO_ON:
                return step
        grown: list[SlotId] = []
        entry_by_slot: dict[SlotId, str] = {}
        for slot_id in order:
            grown.append(slot_id)
            if len(grown) > 1 or slot_id in self.problem.fixed_text_by_slot:
                word = self.oracle.extend(entry_by_slot, slot_id)
                if word is not None:
                    entry_by_slot[slot_id] = word
                    continue
            answer = self.ask(grown, "grow")
            if answer.status is FillStatus.FILLED:
                entry_by_slot = {s: _entries(answer)[s] for s in grown}
            elif answer.status is FillStatus.UNFILLABLE:
                self.core = _used(answer)
                self.needed.add(slot_id)
                # the last fill, as in a shrink
                self.rotate(slot_id, {s: entry_by_slot[s] for s in self.core if s != slot_id})
                return _Step.GO_ON
            else:
                return _Step.CUT_SHORT
        # every slot of a set believed unfillable was filled together: it was not unfillable
        return _Step.NOT_UNFILLABLE if order else _Step.GO_ON

    def grow_rings(self) -> _Step:
        """Grow by rings of crossings around the seed slots until a ring cannot be filled (its proof's slots
        are the new core) or the ring holds the whole core."""
        for radius in range(max(self.distance.values(), default=-1) + 1):
            ring = [s for s in self.core if self.distance.get(s, self.far) <= radius]
            if len(ring) == len(self.core):
                break
            answer = self.ask(ring, "grow")
            if answer.status is FillStatus.UNFILLABLE:
                self.core = _used(answer)
                break
            if answer.status is not FillStatus.FILLED:
                return _Step.CUT_SHORT
        return _Step.GO_ON

    def shrink(self) -> None:
        """3. Shrink (deletion-based): try dropping slots, least likely first, in chunks that double while
        drops succeed and halve when they fail; a proof that the rest is unfillable keeps only the slots
        it used. Every slot kept was tried alone against a superset of the final core, and dropping
        slots only removes constraints, so one pass leaves a minimal core. A fill found when a slot is
        needed is reused (`rotate`)."""
        distance, far, weights = self.distance, self.far, self.weights
        if self.everywhere:  # farthest from the seed first, as the rings grew
            order = sorted(self.core, key=lambda s: (-distance.get(s, far), -s))
        else:
            order = sorted(self.core, key=lambda s: (weights.get(s, 0.0), -distance.get(s, far), -s))
        index, chunk = 0, 1
        while index < len(order):
            if order[index] in self.needed or order[index] not in self.core:
                index += 1
                continue
            group = {s for s in order[index : index + chunk] if s not in self.needed}
            trial = [s for s in self.core if s not in group]
            answer = self.ask(trial, "shrink")
            if answer.status is FillStatus.UNFILLABLE:
                self.core = _used(answer)
                index += chunk
                chunk *= 2
            elif answer.status is not FillStatus.FILLED:
                break  # out of time, or stopped: the core so far is unfillable, not proven minimal
            elif chunk > 1:
                chunk //= 2
            else:
                self.needed.add(order[index])
                self.rotate(order[index], {s: _entries(answer)[s] for s in trial})
                index += 1


def _concentrated(weights: list[float]) -> bool:
    """Whether 90% of the total weight sits on at most GROW_WHEN_CONCENTRATED of the weighted slots."""
    total, running = sum(weights), 0.0
    for k, weight in enumerate(sorted(weights, reverse=True), 1):
        running += weight
        if running >= 0.9 * total:
            return k <= GROW_WHEN_CONCENTRATED * len(weights)
    return False


def _kind(problem: Problem, core: Sequence[SlotId]) -> CoreKind:
    if len(core) == 1:
        return CoreKind.NO_WORD
    if len(core) == 2 and core[1] in problem.neighbours[core[0]]:
        return CoreKind.NO_COMMON_LETTER
    return CoreKind.GROUP


def core_message(problem: Problem, core: Core) -> str:
    """One sentence saying what the core is, in a constructor's words."""
    names = [problem.slots[s].name for s in _clue_sorted(problem, core.slot_ids)]
    patterns = [f"{n} ({problem.written_pattern(s)})" for n, s in zip(names, _clue_sorted(problem, core.slot_ids))]
    if core.kind is CoreKind.NO_WORD:
        return f"{patterns[0]} has no word at all that fits"
    if core.kind is CoreKind.NO_COMMON_LETTER:
        return (
            f"{patterns[0]} and {patterns[1]} cross, and no word of one shares the crossing letter "
            "with any word of the other"
        )
    if core.is_minimal:
        return (
            f"these {len(names)} slots cannot be filled together, though any {len(names) - 1} of them can: "
            f"{', '.join(names)}"
        )
    why = "stopped before the search finished" if core.is_stopped else "the time limit cut the search short"
    return f"these {len(names)} slots cannot be filled together: {', '.join(names)} (perhaps not minimal: {why})"


def _clue_sorted(problem: Problem, slot_ids: Iterable[SlotId]) -> list[SlotId]:
    return sorted(slot_ids, key=lambda s: (problem.slots[s].direction.letter != "A", problem.slots[s].number))


@dataclass(frozen=True)
class CoreReport:
    """The slots an answer outlines on an unfillable grid, named for a user: a core the search found (`search`
    set, from `explain`), or the one slot a proof named (`search` None, from `slot_report`).

    `xwcp.render.core` writes it as the JSON `core` object and as text."""

    slots: tuple[str, ...]
    """The slots' names (a found core's across then down)."""
    cells: tuple[tuple[int, int], ...]
    """Their cells as (row, col), row-major, each once."""
    is_minimal: bool
    """Every slot was proven needed: dropping any one leaves the rest fillable."""
    search: Core | None = None
    """The core search's answer (kind, backend, searches, time, stopped); None for a slot a proof named."""
    message: str = ""
    """One sentence saying what the core is, in a constructor's words (`core_message`); '' without `search`."""
    patterns: tuple[tuple[str, str], ...] = ()
    """(slot name, its pattern), in slot order; () without `search`."""


def _cells(problem: Problem, slot_ids: Iterable[SlotId]) -> tuple[tuple[int, int], ...]:
    width = problem.grid.width
    return tuple(
        (cell // width, cell % width) for cell in sorted({cell for s in slot_ids for cell in problem.slot_cells(s)})
    )


def core_report(problem: Problem, core: Core) -> CoreReport:
    """The core named for a user: its slots across then down, their cells, its message and patterns."""
    return CoreReport(
        tuple(problem.slots[s].name for s in _clue_sorted(problem, core.slot_ids)),
        _cells(problem, core.slot_ids),
        core.is_minimal,
        core,
        core_message(problem, core),
        tuple((problem.slots[s].name, problem.pattern(s)) for s in core.slot_ids),
    )


def slot_report(problem: Problem, slot_ids: Sequence[SlotId], is_minimal: bool = False) -> CoreReport:
    """Slots to outline without a core search (the slot a proof named): their names and cells, in the order given."""
    return CoreReport(tuple(problem.slots[s].name for s in slot_ids), _cells(problem, slot_ids), is_minimal)


def explain(
    problem: Problem,
    *,
    backend: str = "backtrack",
    seed_slot_id: SlotId | None = None,
    time_limit_s: float | None = CORE_TIME_LIMIT_S,
    weight_by_slot: Mapping[SlotId, float] | None = None,
    progress: Callable[[CoreProgress], None] | None = None,
    abort: threading.Event | None = None,
) -> CoreReport | None:
    """The core of a problem proven unfillable, named for a user (seeded by AC-3's wipeout slot, else `seed_slot_id`).

    `weight_by_slot` is the proof's `FillResult.weight_by_slot` when a search proved it (the core search
    then starts from it instead of proving the grid again); `progress` and `abort` are `find_core`'s.

    Returns None when no core is found within the time (or the problem is fillable after all).
    """
    from xwcp.backends._common import ac_engine

    seeds: list[SlotId] = []
    if not problem.conflicts:
        engine = ac_engine(problem)  # AC-3 (as xwcp.engine.ac3.propagate), for the slot it empties
        if not engine.propagate_all() and engine.wipeout_slot_id is not None:
            seeds = [engine.wipeout_slot_id]
    if not seeds and seed_slot_id is not None:
        seeds = [seed_slot_id]
    core = find_core(
        problem,
        backend=backend,
        time_limit_s=time_limit_s,
        seed_slot_ids=seeds,
        is_proven=True,
        weight_by_slot=weight_by_slot,
        progress=progress,
        abort=abort,
    )
    return None if core is None else core_report(problem, core)
