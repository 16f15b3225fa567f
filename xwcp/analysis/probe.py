"""Singleton consistency of one slot's candidate words: which of them survive being entered.

A word can be arc-consistent in its slot (every letter has a partner in each crossing) and still
empty a slot the moment it is entered: on a themed 15x15 of bench/suggest_labels.py, 35 of the 40 words listed for a
7-letter slot did. `probe_words` enters each word in turn in the compiled search's root state
(`BitSearch.probe`, xwcp/engine/_bitsearch.c: the slot down to the word, propagation over the
crossings and the no-word-twice rule, then undone) and keeps the words that leave every slot a
word, in rank order, until it has `k` of them; with `count`, it goes on through the rest of the
slot's words to count the survivors, all within one time budget. Words the budget left unchecked
are never shown. Measured on the themed 15x15s of bench/suggest_labels.py: 5-220 us a word
(`python3 bench/suggest_labels.py --probe`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, cast

import numpy as np
from numpy.typing import NDArray

from xwcp.base.types import SlotId
from xwcp.compile.problem import Problem
from xwcp.engine.ac3 import Propagation

if TYPE_CHECKING:
    from xwcp.engine.kernel import BitSearch

CHUNK = 64
"""Most words probed per kernel call while looking for the k shown words (the budget is checked between
calls, so the answer does not depend on the machine's speed unless a slot needs more than one chunk)."""
MARGIN = 4
"""Words probed beyond those still wanted, per chunk while looking for the k words, once a chunk fell short (the
first has none: on an open grid every word survives, and the margin was a tenth of a keystroke's probing)."""
COUNT_CHUNK = 512
"""Words probed per kernel call while counting the rest."""


@dataclass
class ProbeScan:
    """What probing a slot's ranked words found.

    `shown` are the first `k` survivors in rank order (indexes into the ranked arrays); `dropped`
    the words ranked above the last shown one that empty a slot, with that slot. `checked` words
    of `total` were probed, `survived` of them survive; `complete` when every one was checked.
    """

    total: int
    shown: list[int] = field(default_factory=list)
    dropped: list[tuple[int, SlotId]] = field(default_factory=list)
    checked: int = 0
    survived: int = 0
    seconds: float = 0.0
    dead: dict[int, SlotId] = field(default_factory=dict)
    """The words this scan found to empty a slot (word id -> that slot), known ones not included."""
    alive: set[int] = field(default_factory=set)
    """The words this scan found to survive, known ones not included."""
    probed: int = 0
    """Words entered in the kernel (checked less those known before)."""

    @property
    def complete(self) -> bool:
        return self.checked == self.total


def probe_engine(problem: Problem, prop: Propagation) -> BitSearch:
    """The compiled search's root state for `problem`, started from its arc-consistent domains `prop`; for an
    alphabet the kernels do not take (over 64 letters: Hindi aksharas), numpy's `WideEngine`, which probes alike."""
    from xwcp.engine.kernel import BitSearch
    from xwcp.engine.wide import WideEngine, kernel_takes

    if not kernel_takes(problem):
        return cast("BitSearch", WideEngine(problem, prop.domains))
    return BitSearch(replace(problem, domains=prop.domains))


def probe_words(
    engine: BitSearch | Callable[[], BitSearch],
    slot_id: SlotId,
    ranked: NDArray[np.int64],
    k: int,
    *,
    count: bool = True,
    time_limit_s: float | None = None,
    max_words: int | None = None,
    k_dropped: int | None = None,
    known_dead: Mapping[int, SlotId] | None = None,
    known_alive: AbstractSet[int] | None = None,
) -> ProbeScan:
    """Probe `ranked` (word ids of `slot_id`, best first) until `k` survive; with `count`, on through the rest.

    Args:
        engine: `probe_engine`'s root state (probing leaves it as it was).
        time_limit_s: the budget for all of it (None: none); the words it leaves unchecked count as neither.
        max_words: the most words probed (None: all); unlike the time limit, the answer is the same every time.
        k_dropped: most dropped words kept (default k).
        known_dead: words known to empty a slot when entered (word id -> that slot), not probed again: those
            a grid this one extends by letters found (more letters only shrink domains, so a word that
            empties a slot there empties one here). The answer is the same as without them.
        known_alive: words known to survive, not probed again: those a grid this one extends by letters in
            cells of `slot_id` only found surviving (entering the word enters those letters too, so the probe
            starts from the same state there and here). The answer is the same as without them.
        `engine` may be a callable making the engine: it is called only if some word must be probed.
    """
    from xwcp.engine.kernel import PROBE_NOT_LIVE, PROBE_SURVIVES

    start = time.perf_counter()
    end = None if time_limit_s is None else start + time_limit_s
    scan = ProbeScan(len(ranked))
    k_dropped = k if k_dropped is None else k_dropped
    ids = ranked if max_words is None else ranked[:max_words]
    slot_by_kernel: list[SlotId] | None = None
    first_chunk_done = False
    # plain lists per chunk: a keystroke's chunk is about 40 words, where a dozen numpy calls cost more than the loop
    while scan.checked < len(ids):
        if end is not None and time.perf_counter() >= end:
            break
        if len(scan.shown) >= k and not count:
            break
        # while looking for the k words: as many as are still wanted (and a few more after the first chunk: most
        # survive on open grids, where a probe costs most), at most CHUNK; then larger chunks for the count
        size = (
            min(CHUNK, k - len(scan.shown) + (MARGIN if first_chunk_done else 0))
            if len(scan.shown) < k
            else COUNT_CHUNK
        )
        first_chunk_done = True
        first = scan.checked
        chunk: list[int] = ids[first : first + size].tolist()
        outcome = [PROBE_SURVIVES] * len(chunk)  # a problem slot id, or PROBE_SURVIVES
        known = [True] * len(chunk)
        todo = []  # positions in the chunk of the words to probe
        for i, w in enumerate(chunk):
            emptied = known_dead.get(w) if known_dead else None
            if emptied is not None:
                outcome[i] = emptied
            elif not (known_alive and w in known_alive):
                todo.append(i)
                known[i] = False
        if todo:
            if callable(engine):
                engine = engine()
            if slot_by_kernel is None:
                slot_by_kernel = engine.slot_ids
            out = engine.probe(slot_id, np.array([chunk[i] for i in todo], np.int32))  # budget: between chunks
            for i, o in zip(todo, out.tolist()):
                outcome[i] = slot_by_kernel[o] if o >= 0 else o
            scan.probed += len(todo)
        scan.checked += len(chunk)
        failed = []
        for i, (w, o) in enumerate(zip(chunk, outcome)):
            if o == PROBE_SURVIVES:
                scan.survived += 1
                if not known[i]:
                    scan.alive.add(w)
                if len(scan.shown) < k:
                    scan.shown.append(first + i)
            else:
                failed.append(i)
                if not known[i] and o >= 0:
                    scan.dead[w] = o
        last = scan.shown[-1] if scan.shown else scan.checked
        for i in failed:
            if first + i > last and len(scan.shown) >= k or len(scan.dropped) >= k_dropped:
                break
            if outcome[i] != PROBE_NOT_LIVE:  # every ranked word is live, but be safe
                scan.dropped.append((first + i, outcome[i]))
    scan.seconds = round(time.perf_counter() - start, 4)
    return scan
