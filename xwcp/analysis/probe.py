"""Singleton consistency of one slot's candidate words: which of them survive being entered (issue 35).

A word can be arc-consistent in its slot (every letter has a partner in each crossing) and still
empty a slot the moment it is entered: on the issue's themed 15x15, 35 of the 40 words listed for a
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
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

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
    """The compiled search's root state for `problem`, started from its arc-consistent domains `prop`."""
    from xwcp.engine.kernel import BitSearch

    return BitSearch(replace(problem, domains=prop.domains))


def probe_words(engine: BitSearch | Callable[[], BitSearch], slot_id: SlotId, ranked: NDArray[np.int64], k: int, *, count: bool = True,
                time_limit_s: float | None = None, max_words: int | None = None,
                k_dropped: int | None = None, known_dead: Mapping[int, SlotId] | None = None,
                known_alive: AbstractSet[int] | None = None) -> ProbeScan:
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
    ids = np.ascontiguousarray(ranked if max_words is None else ranked[:max_words], np.int32)
    slot_by_kernel: NDArray[np.int64] | None = None
    first_chunk_done = False
    while scan.checked < len(ids):
        if end is not None and time.perf_counter() >= end:
            break
        if len(scan.shown) >= k and not count:
            break
        # while looking for the k words: as many as are still wanted (and a few more after the first chunk: most
        # survive on open grids, where a probe costs most), at most CHUNK; then larger chunks for the count
        size = min(CHUNK, k - len(scan.shown) + (MARGIN if first_chunk_done else 0)) if len(scan.shown) < k else COUNT_CHUNK
        first_chunk_done = True
        first = scan.checked
        chunk = ids[first:first + size]
        outcome = np.full(len(chunk), PROBE_SURVIVES, np.int64)  # a problem slot id, or PROBE_SURVIVES
        known = np.zeros(len(chunk), bool)
        if known_dead:
            emptied = np.fromiter((known_dead.get(w, -1) for w in chunk.tolist()), np.int64, len(chunk))
            known = emptied >= 0
            outcome[known] = emptied[known]
        if known_alive:
            known |= np.fromiter((w in known_alive for w in chunk.tolist()), bool, len(chunk))
        if not known.all():
            if callable(engine):
                engine = engine()
            if slot_by_kernel is None:
                slot_by_kernel = np.asarray(engine.slot_ids, np.int64)
            out = engine.probe(slot_id, chunk[~known])  # the budget is checked between chunks only
            outcome[~known] = np.where(out >= 0, slot_by_kernel[np.maximum(out, 0)], out)
            scan.probed += int((~known).sum())
        survives = outcome == PROBE_SURVIVES
        scan.checked += len(chunk)
        scan.survived += int(survives.sum())
        for i in np.flatnonzero(~survives & ~known & (outcome >= 0)).tolist():
            scan.dead[int(chunk[i])] = int(outcome[i])
        scan.alive.update(chunk[survives & ~known].tolist())
        for i in np.flatnonzero(survives)[:max(0, k - len(scan.shown))].tolist():
            scan.shown.append(first + i)
        last = scan.shown[-1] if scan.shown else scan.checked
        for i in np.flatnonzero(~survives).tolist():
            if first + i > last and len(scan.shown) >= k or len(scan.dropped) >= k_dropped:
                break
            if outcome[i] != PROBE_NOT_LIVE:  # every ranked word is live, but be safe
                scan.dropped.append((first + i, int(outcome[i])))
    scan.seconds = round(time.perf_counter() - start, 4)
    return scan
