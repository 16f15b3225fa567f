"""Why a grid cannot be filled: the smallest set of slots that cannot be filled together (a minimal core).

A core is a set of slots whose entries cannot all be chosen at once (each from the list, the
crossings agreeing, no word twice), such that dropping any one of them leaves the rest
fillable: a minimal unsatisfiable subset (MUS) over slots. Dropping a slot removes its
constraint: its word is no longer needed, and its cells are then constrained only by the
crossing slots that are kept. Letters the user entered stay in every cell.

It is found in two steps, each asking a fill backend (the oracle) about a sub-problem that
keeps only some slots (`sub_problem`):
1. grow: from a seed slot (the one AC-3 emptied, or the one the search found hardest), take
   rings of crossing slots until the slots taken cannot be filled; without a seed, all slots;
2. shrink (deletion-based): try dropping slots, farthest from the seed first, in chunks that
   double while drops succeed and halve when they fail; keep a drop when the rest is still
   unfillable. Every slot kept was tried alone against a superset of the final core, and
   dropping slots only removes constraints, so one pass leaves a minimal core. A fill found
   when a slot is needed is reused (model rotation): if that slot can take a word agreeing with
   the fill at every crossing but one, the slot across that crossing is needed too, without
   asking the oracle.
When the time limit cuts the shrinking short, or the oracle reaches its limit on a step, the
core is still unfillable but perhaps not minimal (`is_minimal` False).

Any backend can be the oracle (`find_core(..., backend=...)`); `check`, `fill` and `heatmap`
use the compiled search (`explain`'s default) whichever backend proved the grid unfillable:
it decides each small sub-problem in milliseconds, where CP-SAT and SAT spend most of a call
building the model (the 7x7 spiral's 12 calls: backtrack 0.03 s, sat 0.8 s, cpsat 2.1 s).

Measured with bench/core_speed.py (bench/results/2026-11-23/core_speed.txt, machine load 6.8):
on the 10 unfillable grids of the bench suites the core is minimal within the 5 s budget on 9,
from 0.02 s (4x4, 5 calls) to 2.6 s (open 7x7 with a 25k list, 18 calls); the blocked 15x15
with the 25k list needs more than 5 s at that load and about 3.2 s at load 2.2 (core_speed_low_load.txt).
"""
from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from xwcp.grid import BELOW, RIGHT, Slot
from xwcp.model.grid import content_token
from xwcp.kernel import is_plain
from xwcp.lazy import lazy_import
from xwcp.problem import Crossing, Problem
from xwcp.result import Limits
from xwcp.types import FillStatus, SlotId

np = lazy_import("numpy")  # a plain problem's core is found without it (start-up, issue 17)

CORE_TIME_LIMIT_S = 5.0
"""Default budget for growing and shrinking a core: the target is a minimal core within 5 s."""

ORACLE_FOR_BACKEND = {"auto": "backtrack"}
"""`auto` races two searches on the cores; one compiled search is the faster oracle for many small calls."""


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


def sub_problem(problem: Problem, slot_ids: Iterable[SlotId]) -> Problem:
    """`problem` keeping only the slots `slot_ids` (renumbered 0.. in the given order, names kept).

    Crossings with a dropped slot become unchecked positions; the kept slots keep their domains
    (their entered letters, minimum score and the user's complete entries stay excluded) and
    their per-slot fields (own minimum score, skipped, unlisted), and the no-word-twice rule
    holds among the kept slots. The grid, and so every entered letter,
    is unchanged.
    """
    kept = list(dict.fromkeys(slot_ids))
    new_id = {old: new for new, old in enumerate(kept)}
    slots = tuple(Slot(new, s.number, s.direction, s.row, s.col, s.cells)
                  for new, s in enumerate(problem.slots[old] for old in kept))
    crossings = tuple(Crossing(x.cell, new_id[x.a], x.a_pos, new_id[x.b], x.b_pos) for x in problem.crossings
                      if x.a in new_id and x.b in new_id)
    cross_slot, cross_pos = [], []
    for old in kept:
        cross_slot.append(tuple(new_id.get(t, -1) if t >= 0 else -1 for t in problem.cross_slot[old]))
        cross_pos.append(tuple(q if t in new_id else -1 for t, q in zip(problem.cross_slot[old], problem.cross_pos[old])))
    fixed = {new_id[old]: text for old, text in problem.fixed_text_by_slot.items() if old in new_id}
    conflicts: list[str] = []
    if not problem.allow_dupes:
        first_by_text: dict[str, SlotId] = {}
        for slot_id, text in sorted(fixed.items()):
            if text in first_by_text:
                conflicts.append(f"{text} is entered twice, in {slots[first_by_text[text]].name} "
                                 f"and {slots[slot_id].name}")
            else:
                first_by_text[text] = slot_id
    return replace(problem, slots=slots, crossings=crossings, domains=tuple(problem.domains[old] for old in kept),
                   fixed_text_by_slot=fixed, conflicts=tuple(conflicts),
                   cross_slot=tuple(cross_slot), cross_pos=tuple(cross_pos),
                   min_score_by_slot={new_id[old]: v for old, v in problem.min_score_by_slot.items() if old in new_id},
                   skipped_slot_ids=frozenset(new_id[old] for old in problem.skipped_slot_ids if old in new_id),
                   unlisted=tuple(new_id[old] for old in problem.unlisted if old in new_id))


def fill_slots(problem: Problem, slot_ids: Sequence[SlotId], backend: str = "backtrack",
               time_limit_s: float | None = None, seed: int = 0) -> tuple[FillStatus, dict[SlotId, str]]:
    """Whether the slots `slot_ids` of `problem` can be filled together, asked of `backend`.

    Returns:
        The status, and when FILLED the entry of each of those slots (checked by `check_fill`).
    """
    if not slot_ids:
        return FillStatus.FILLED, {}
    from xwcp.backends import fill

    kept = list(dict.fromkeys(slot_ids))
    result = fill(sub_problem(problem, kept), ORACLE_FOR_BACKEND.get(backend, backend),
                  Limits(time_limit_s=time_limit_s, seed=seed, threads=1))
    return result.status, dict(zip(kept, result.entries)) if result.entries is not None else {}


def fill_status(problem: Problem, slot_ids: Sequence[SlotId], backend: str = "backtrack",
                time_limit_s: float | None = None, seed: int = 0) -> FillStatus:
    """Whether the slots `slot_ids` of `problem` can be filled together, asked of `backend` (any fill is checked)."""
    return fill_slots(problem, slot_ids, backend, time_limit_s, seed)[0]


def _word_for(problem: Problem, slot_id: SlotId, entry_by_slot: dict[SlotId, str], ignored: SlotId) -> str | None:
    """A word for `slot_id` that agrees with `entry_by_slot` at every crossing but the one with `ignored`
    and repeats none of its entries (except `ignored`'s), or None."""
    slot = problem.slots[slot_id]
    used = {text for other, text in entry_by_slot.items() if other != ignored} if not problem.allow_dupes else set()
    fixed = problem.fixed_text_by_slot.get(slot_id)
    bucket = problem.words.bucket(slot.length)
    if fixed is None and is_plain(problem):
        return _plain_word_for(problem, slot, entry_by_slot, ignored, used)
    mask = np.array(problem.domains[slot_id], bool) if fixed is None else None
    letters = np.asarray(bucket.letters) if fixed is None else None
    for pos, other in enumerate(problem.cross_slot[slot_id]):
        if other < 0 or other == ignored or other not in entry_by_slot:
            continue
        letter = entry_by_slot[other][problem.cross_pos[slot_id][pos]]
        if fixed is not None:
            if fixed[pos] != letter:
                return None
        else:
            mask &= letters[:, pos] == ord(letter) - 65
    if fixed is not None:
        return None if fixed in used else fixed
    for word_id in np.flatnonzero(mask):
        text = bucket.text(int(word_id))
        if text not in used:
            return text
    return None


def _plain_word_for(problem: Problem, slot: Slot, entry_by_slot: dict[SlotId, str], ignored: SlotId,
                    used: set[str]) -> str | None:
    """`_word_for` an open slot of a plain problem (`xwcp.kernel.is_plain`): the same word, from bitsets."""
    bits = problem.domains[slot.id]
    for pos, other in enumerate(problem.cross_slot[slot.id]):
        if other >= 0 and other != ignored and other in entry_by_slot:
            letter = entry_by_slot[other][problem.cross_pos[slot.id][pos]]
            bits &= problem.words.letter_bits(slot.length, pos, ord(letter) - 65)
    bucket = problem.words.bucket(slot.length)
    while bits:  # lowest word id first, as np.flatnonzero
        low = bits & -bits
        text = bucket.text(low.bit_length() - 1)
        if text not in used:
            return text
        bits ^= low
    return None


def _distances(problem: Problem, seed_ids: Sequence[SlotId]) -> dict[SlotId, int]:
    """Crossing steps from the nearest seed slot to every slot reachable through crossings."""
    distance = {s: 0 for s in seed_ids}
    queue = deque(seed_ids)
    while queue:
        slot_id = queue.popleft()
        for other in problem.cross_slot[slot_id]:
            if other >= 0 and other not in distance:
                distance[other] = distance[slot_id] + 1
                queue.append(other)
    return distance


def find_core(problem: Problem, *, backend: str = "backtrack", time_limit_s: float | None = CORE_TIME_LIMIT_S,
              seed_slot_ids: Sequence[SlotId] = (), seed: int = 0, is_proven: bool = False) -> Core | None:
    """A minimal set of slots of `problem` that cannot be filled together.

    Args:
        problem: a problem believed unfillable.
        backend: the oracle that decides each sub-problem: backtrack (default, fastest), cpsat or sat
            (`auto` means backtrack).
        time_limit_s: budget for the whole search; when it runs out the core found so far is
            returned with `is_minimal` False. None for no limit.
        seed_slot_ids: slots to grow the core from (e.g. AC-3's wipeout slot); empty to start from all.
        seed: the oracle's random seed.
        is_proven: the caller has already proven the whole problem unfillable, so it is not asked again
            (that proof is the most expensive call on grids that only search can settle).

    Returns:
        The core, or None when the oracle fills the whole problem (it was not unfillable) or
        cannot decide it within the time.
    """
    start = time.perf_counter()
    n_calls = 0
    is_minimal = True

    def remaining() -> float | None:
        return None if time_limit_s is None else max(0.0, time_limit_s - (time.perf_counter() - start))

    def ask(slot_ids: Sequence[SlotId]) -> FillStatus:
        return ask_fill(slot_ids)[0]

    def ask_fill(slot_ids: Sequence[SlotId]) -> tuple[FillStatus, dict[SlotId, str]]:
        nonlocal n_calls
        n_calls += 1
        return fill_slots(problem, slot_ids, backend, remaining(), seed)

    all_ids = [s.id for s in problem.slots]
    distance = _distances(problem, list(seed_slot_ids))
    candidate: list[SlotId] | None = None
    if seed_slot_ids:
        for radius in range(max(distance.values()) + 1):
            ring = [s for s in all_ids if distance.get(s, radius + 1) <= radius]
            if is_proven and len(ring) == len(all_ids):
                break
            if ask(ring) is FillStatus.UNFILLABLE:
                candidate = ring
                break
            if remaining() == 0.0:
                break
    if candidate is None:
        status = FillStatus.UNFILLABLE if is_proven else ask(all_ids)
        if status is FillStatus.FILLED:
            return None
        if status is not FillStatus.UNFILLABLE:
            if not problem.slots or remaining() == 0.0:
                return None
            is_minimal = False  # not proven here; the caller's proof stands, the shrinking below may stop early
        candidate = all_ids
    # Deletion in growing chunks: a run of droppable slots (common far from the seed) costs a
    # few calls instead of one each; a chunk that leaves the rest fillable is halved down to
    # one slot, and a single slot whose drop leaves the rest fillable is needed.
    far = max(distance.values(), default=0) + 1
    order = sorted(candidate, key=lambda s: (-distance.get(s, far), -s))
    core = list(candidate)
    needed: set[SlotId] = set()

    def rotate(slot_id: SlotId, entry_by_slot: dict[SlotId, str]) -> None:
        """Model rotation: `entry_by_slot` fills the core without `slot_id`. If a word for `slot_id` fits
        every crossing but the one with a neighbour, the core without that neighbour is fillable too:
        the neighbour is needed, no oracle call asked. Repeated from each neighbour so found."""
        stack = [(slot_id, entry_by_slot)]
        while stack:
            dropped, entries = stack.pop()
            for other in set(problem.cross_slot[dropped]):
                if other < 0 or other in needed or other not in entries:
                    continue
                word = _word_for(problem, dropped, entries, ignored=other)
                if word is not None:
                    needed.add(other)
                    rotated = {s: text for s, text in entries.items() if s != other}
                    rotated[dropped] = word
                    stack.append((other, rotated))

    index, chunk = 0, 1
    while index < len(order):
        if order[index] in needed:
            index += 1
            continue
        if remaining() == 0.0:
            is_minimal = False
            break
        group = {s for s in order[index:index + chunk] if s not in needed}
        trial = [s for s in core if s not in group]
        status, entry_by_slot = ask_fill(trial)
        if status is FillStatus.UNFILLABLE:
            core = trial
            index += chunk
            chunk *= 2
        elif chunk > 1:
            chunk //= 2
        else:
            if status is FillStatus.FILLED:
                needed.add(order[index])
                rotate(order[index], entry_by_slot)
            else:
                is_minimal = False
            index += 1
    core.sort()
    return Core(tuple(core), is_minimal, _kind(problem, core), ORACLE_FOR_BACKEND.get(backend, backend),
                n_calls, time.perf_counter() - start)


def _kind(problem: Problem, core: Sequence[SlotId]) -> CoreKind:
    if len(core) == 1:
        return CoreKind.NO_WORD
    if len(core) == 2 and core[1] in problem.cross_slot[core[0]]:
        return CoreKind.NO_COMMON_LETTER
    return CoreKind.GROUP


def core_cells(problem: Problem, core: Core) -> list[int]:
    """The grid cells of the core's slots, row-major, each once."""
    return sorted({cell for slot_id in core.slot_ids for cell in problem.slot_cells(slot_id)})


def core_message(problem: Problem, core: Core) -> str:
    """One sentence saying what the core is, in a constructor's words."""
    names = [problem.slots[s].name for s in _clue_sorted(problem, core.slot_ids)]
    patterns = [f"{n} ({problem.pattern(s)})" for n, s in zip(names, _clue_sorted(problem, core.slot_ids))]
    if core.kind is CoreKind.NO_WORD:
        return f"{patterns[0]} has no word at all that fits"
    if core.kind is CoreKind.NO_COMMON_LETTER:
        return (f"{patterns[0]} and {patterns[1]} cross, and no word of one shares the crossing letter "
                "with any word of the other")
    qualifier = "" if core.is_minimal else " (perhaps not minimal: the time limit cut the search short)"
    return (f"these {len(names)} slots cannot be filled together, though any {len(names) - 1} of them can: "
            f"{', '.join(names)}{qualifier}")


def _clue_sorted(problem: Problem, slot_ids: Iterable[SlotId]) -> list[SlotId]:
    return sorted(slot_ids, key=lambda s: (problem.slots[s].direction.letter != "A", problem.slots[s].number))


def core_dict(problem: Problem, core: Core) -> dict:
    """The JSON `core` object: slots (names), cells ([row, col]), minimal, kind, message and the search's cost."""
    width = problem.grid.width
    return {"slots": [problem.slots[s].name for s in _clue_sorted(problem, core.slot_ids)],
            "cells": [[cell // width, cell % width] for cell in core_cells(problem, core)],
            "minimal": core.is_minimal, "kind": core.kind.value, "message": core_message(problem, core),
            "patterns": {problem.slots[s].name: problem.pattern(s) for s in core.slot_ids},
            "backend": core.backend, "oracle_calls": core.n_oracle_calls, "seconds": round(core.wall_time_s, 4)}


def core_text(problem: Problem, data: dict) -> str:
    """The core as text: its message, the grid with the core's cells marked '*', one line per slot with its pattern.

    A rebus cell shows as `[STAR]`; a bar as '|' between cells, or '-' under a cell on a line of its own.
    """
    grid = problem.grid
    marked = {(r, c) for r, c in data["cells"]}
    lines = [f"Why: {data['message']}."]
    for r in range(grid.height):
        row, under, length = [], [], 0
        for c in range(grid.width):
            cell = r * grid.width + c
            edge = ("|" if c and (cell - 1, RIGHT) in grid.bars else " ") if grid.bars else ""
            prefix = edge + ("*" if (r, c) in marked else " ")
            row.append(prefix + content_token(grid.cells[cell]))
            if (cell, BELOW) in grid.bars:
                under.append(length + len(prefix))
            length += len(row[-1])
        lines.append("".join(row).rstrip())
        if under:
            lines.append("".join("-" if i in under else " " for i in range(max(under) + 1)))
    lines.append("key: * marks the cells of the slots that cannot be filled together")
    for name in data["slots"]:
        lines.append(f"  {name:>4}  {data['patterns'][name]}")
    return "\n".join(lines)


def explain(problem: Problem, *, backend: str = "backtrack", seed_slot_id: SlotId | None = None,
            time_limit_s: float | None = CORE_TIME_LIMIT_S) -> dict | None:
    """The `core` JSON object for a problem proven unfillable (seeded by AC-3's wipeout slot, else `seed_slot_id`).

    Returns None when no core is found within the time (or the problem is fillable after all).
    """
    from xwcp.plain_kernel import engine_for

    seeds: list[SlotId] = []
    if not problem.conflicts:
        engine = engine_for(problem)  # AC-3 (as xwcp.ac3.propagate), for the slot it empties
        if not engine.propagate_all() and engine.wipeout_slot_id is not None:
            seeds = [engine.wipeout_slot_id]
    if not seeds and seed_slot_id is not None:
        seeds = [seed_slot_id]
    core = find_core(problem, backend=backend, time_limit_s=time_limit_s, seed_slot_ids=seeds, is_proven=True)
    return None if core is None else core_dict(problem, core)
