"""Keep the compiled problems and arc-consistent domains of the grids a server process saw last, keyed by content.

After one keystroke the page asks three questions of the same grid (suggestions, then the heat
map, then the fillability check), an undo asks again about a grid it had before, and every
client of a shared grid asks about the same one: each of those reuses the compiled problem and
its propagation instead of rebuilding them. A grid is found again by what it is (the word
list's version, the cells, the options), never by who sent it, so every request stays
stateless: any process behind a load balancer answers it the same way, only slower on a miss.

Answers made from a kept grid (a slot's suggestions, all domains, the heat map) are kept with it,
so asking again costs a lookup.

A miss whose grid is a kept grid plus letters typed into empty cells (the next keystroke of the
same user) starts from the kept grid's engine: `problem.add_letters` derives the problem and
`ac3.propagate_letters` enters the letters into a copy of the engine, which skips compiling and
the counting pass over every live word (most of a one-slot answer's time). Both give exactly
what compiling and propagating from scratch gives; where they cannot (a letter completes an
entry, or empties a slot), the grid is compiled and propagated from scratch.

Such a grid also inherits what probing found (`xwcp.analysis.probe`): a slot's words found to empty a slot stay dead
(more letters only prune more), and, for a slot holding every letter added (the slot being typed into), the
engine its words are probed in and what was found there: entering one of its words enters those letters
too, so the probe there ends as it would here. Typing into a slot thus probes only the words no keystroke
typed into it from that grid has met yet (nor an undo, nor another client typing there), in the engine of
the grid the typing started from (bench/web_load.py, "own edits"). The solver's dead-end labels stay too
(`/ws/suggest`'s, by slot): a word no fill had there has none with more letters, so the next keystroke's
list shows them at once instead of proving them again; and on any grid of the same blocks, a dead end whose
proof's slots (`proof_slots`) kept their letters (an erased or changed letter elsewhere) holds as well.

What is kept is bounded by bytes (`max_bytes`, MAX_BYTES by default: `xwcp serve --cache-mb`), beside the
counts: each grid is charged its arrays and structures (`held_bytes`: the domains, the propagation's counts;
a 15x15 about 1.3 MB, a 60x60 about 24 MB) and the probe engines in its pool, each kept engine its kernel
state (a 15x15's 5 MB, a 60x60's 100 MB), and past the bound the least recently used grid or engine goes
first. The word list every grid points at is the server's, not charged; nor are the answers and the words
probing found kept with a grid (kilobytes), nor what a grid derived from another shares with it (its slots
and crossings: charged to that one). A grid evicted is also forgotten as the grid others probe in, so no
kept grid holds it alive.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from xwcp.analysis.probe import probe_engine
from xwcp.analysis.verify import Viability
from xwcp.base.types import SlotId
from xwcp.compile.problem import Problem, add_letters, compile_problem
from xwcp.engine.ac3 import Propagation, propagate_engine, propagate_letters
from xwcp.model import BLOCK, EMPTY, Grid
from xwcp.services.held_bytes import held_bytes
from xwcp.words.wordlist import MappedWordList, WordList

if TYPE_CHECKING:
    from xwcp.engine.kernel import BitSearch, Engine

CacheKey = tuple[object, object, int, bool]
"""What makes two requests the same question (`AnalysisCache.key`): list version, grid source, options."""
CheckKey = tuple[CacheKey, float, int]
"""A fillability answer's key: the grid's `CacheKey`, the check's time limit and seed."""
Question = tuple[object, ...]
"""What was asked of a grid, e.g. ("suggest", slot id, k): hashable."""
Report = dict[str, Any]
"""A JSON-ready answer."""

CAPACITY = 96
"""Grids kept per process (a 15x15's problem and propagation hold about 1.2 MB): the last keystrokes of
about 50 users typing at once."""
ENGINE_CAPACITY = 48
"""Of those, how many keep their engine (another 0.6 MB) for the next keystroke to start from: one per
user typing, for about 50 at once."""
PROBE_POOL = 2
"""Idle probe engines kept per grid (0.6 MB each on a 15x15): one per core probing at once."""
CHECK_CAPACITY = 256
"""Fillability answers kept per process (small JSON objects)."""
STRUCTURE_BYTES = 200
"""A grid's Python structures per slot and per cell, beside its arrays (a slot, its crossings and their tuples;
a cell's letter): `held_bytes` measures 130-200 on the stock grids and a 60x60."""
MAX_BYTES = 512 * 2**20
"""Bytes of grids and engines kept per process (`held_bytes`'s estimate): a 60x60 with its engine is about
130 MB, a 15x15 with its engine about 7 MB; the least recently used go first past it."""
_EMPTY, _BLOCK = ord(EMPTY), ord(BLOCK)


@dataclass(frozen=True)
class Analysed:
    """A grid compiled and propagated: what every analysis endpoint starts from."""

    problem: Problem
    prop: Propagation
    reports: dict[Question, Report] = field(default_factory=dict, compare=False, repr=False)
    """Answers already computed from this grid, by what was asked (read-only once made)."""
    dead_by_slot: dict[SlotId, dict[int, SlotId]] = field(default_factory=dict, compare=False, repr=False)
    """Per slot, its words known to empty a slot when entered (word id -> that slot; `suggest_report`'s
    `dead_words`): found on this grid, or inherited from the grid it extends by letters (the previous
    keystroke, or when that one's engine is gone a kept grid it extends), where they empty a slot too, so the
    next keystroke's list does not probe them again."""
    alive_by_slot: dict[SlotId, set[int]] = field(default_factory=dict, compare=False, repr=False)
    """Per slot, its words found to survive being entered in this grid's probe engine: by every grid whose
    `probe_source_by_slot` for that slot is this one (see `known_words`), so a word is probed once however
    many keystrokes, undos and clients show it."""
    probe_source_by_slot: dict[SlotId, Analysed] = field(default_factory=dict, compare=False, repr=False)
    """Per slot, the grid whose probe engine probes its words when not this one: the earliest grid this one
    extends by letters in that slot's cells only (typing into the slot whose list is shown). Entering one of the
    slot's words here enters those letters too, so propagation starts from the same state on both grids and
    ends the same (the probe's fixpoint does not depend on the order): probing there answers for here, typing
    into a slot builds no engine per keystroke, and what was found there holds here."""
    shape: tuple[object, ...] | None = field(default=None, compare=False, repr=False)
    """What a later grid must share to start from this one (`_Kept.shape`); None unless plain."""
    cells: NDArray[np.uint8] | None = field(default=None, compare=False, repr=False)
    """uint8 per cell (plain grids only)."""
    _probe_pool: list[BitSearch] = field(default_factory=list, compare=False, repr=False)
    """Probe engines of this grid not in use (`probing`), at most PROBE_POOL."""
    _pool_bytes: list[int] = field(default_factory=lambda: [0], compare=False, repr=False)
    """The bytes of the engines in `_probe_pool` (one number, in a list: the dataclass is frozen)."""
    _probe_lock: threading.Lock = field(default_factory=threading.Lock, compare=False, repr=False)

    @contextmanager
    def probing(self, slot_id: SlotId) -> Iterator[Callable[[], BitSearch]]:
        """A maker of the engine to probe `slot_id`'s words in (`suggest_report`'s `probe_engine`), for the
        `with` block: one of `probe_source_by_slot`'s grid, taken from its pool (or built, on first use) and
        given back after (every client typing into a slot of the same grid shares that grid's engines)."""
        source = self.probe_source_by_slot.get(slot_id, self)
        taken: list[BitSearch] = []

        def engine() -> BitSearch:
            if not taken:
                with source._probe_lock:
                    found = source._probe_pool.pop() if source._probe_pool else None
                    if found is not None:
                        source._pool_bytes[0] -= getattr(found, "_held_bytes", 0)
                taken.append(found if found is not None else probe_engine(source.problem, source.prop))
            return taken[0]

        yield engine
        if taken:  # given back only after a normal exit (a probe that raised may have left it half way)
            size = _engine_bytes(taken[0])  # its kernel's stacks grow with the probes
            with source._probe_lock:
                if len(source._probe_pool) < PROBE_POOL:
                    taken[0]._held_bytes = size  # type: ignore[attr-defined]
                    source._probe_pool.append(taken[0])
                    source._pool_bytes[0] += size

    def known_words(self, slot_id: SlotId) -> tuple[dict[int, SlotId], set[int]]:
        """`suggest_report`'s `dead_words` and `alive_words` for `slot_id` here (it adds what it finds to both):
        the words known to empty a slot (this grid's, with those found in the engine `probing` lends), and those
        found to survive in that engine (its grid's set, shared). Call `keep_found` after probing."""
        source = self.probe_source_by_slot.get(slot_id, self)
        dead = self.dead_by_slot.setdefault(slot_id, {})
        if source is not self:
            found = source.dead_by_slot.get(slot_id)
            if found:
                dead.update(found)
        return dead, source.alive_by_slot.setdefault(slot_id, set())

    def keep_found(self, slot_id: SlotId, dead: dict[int, SlotId], known_before: int) -> None:
        """After `known_words` gave `dead` (then `known_before` long) and probing added to it: the dead words go
        to the probe engine's grid too, for every grid probing there. Each holds there: it was found live here,
        so it holds the letters this grid adds to that one (all in the slot's cells), and entering it there
        enters them (the same fixpoint); one inherited from a grid before that one holds there already."""
        source = self.probe_source_by_slot.get(slot_id, self)
        if source is not self and len(dead) > known_before:
            source.dead_by_slot.setdefault(slot_id, {}).update(dead)

    def report(self, question: Question, make: Callable[[], Report]) -> Report:
        """The answer to `question` about this grid: made once, then reused (a slot's suggestions when the
        cursor comes back, the same grid asked by several users). Callers must not change it."""
        found = self.reports.get(question)
        if found is None:
            found = self.reports[question] = make()
        return found


_SHARED = (WordList, MappedWordList, Analysed, Problem)
"""What a grid's or an engine's charge does not enter: the word list (the server's), other grids (charged on
their own) and, for an engine, its grid's problem (charged with the grid)."""


def entry_bytes(entry: Analysed, *, derived: bool = False) -> int:
    """What `entry` holds, without its pool of probe engines (`Analysed._pool_bytes`): its arrays (the problem's
    and the propagation's domains, the letter counts, the cells) and its structures at STRUCTURE_BYTES a slot and
    a cell, which a grid `derived` from another by letters shares with it (charged there). Within a factor of
    1.2 of `held_bytes` over the same objects (tests/web/test_analysis_cache.py), at a fraction of its time: a
    keystroke's grid is charged in microseconds."""
    problem, prop = entry.problem, entry.prop
    arrays = [*problem.domains, *prop.domains, prop.letter_counts, *prop.counts_by_slot]
    total = sum(_array_bytes(array) for array in {id(array): array for array in arrays}.values())
    if entry.cells is not None:
        total += entry.cells.nbytes
    if not derived:
        total += STRUCTURE_BYTES * (len(problem.slots) + problem.grid.width * problem.grid.height)
    return total


def _array_bytes(array: object) -> int:
    """An array's buffer (when it owns it), else what `held_bytes` says of it."""
    if isinstance(array, np.ndarray) and array.flags.owndata:
        return int(array.nbytes)
    return held_bytes(array, _SHARED)


def _engine_bytes(engine: object) -> int:
    return held_bytes(engine, _SHARED)


@dataclass
class _Kept:
    """A kept engine with what a later grid must share to start from it."""

    shape: tuple[object, ...]
    """(list version, width, height, bars, numbering, options): must be equal."""
    cells: NDArray[np.uint8]
    """uint8 per cell (plain grids only: one character a cell)."""
    entry: Analysed
    engine: Engine
    bytes: int = 0
    """The engine's charge (`held_bytes`)."""


def _most_letters_extended(cells: NDArray[np.uint8], candidates: list[NDArray[np.uint8]]) -> int | None:
    """Which of `candidates` (cells of grids of the same shape) `cells` extends by letters in empty cells, the one
    with the most letters; None when none does. One numpy pass over all."""
    if not candidates:
        return None
    others = np.stack(candidates)
    same = others == cells
    extends = np.all(same | ((others == _EMPTY) & (cells != _BLOCK)), axis=1) & ~np.all(same, axis=1)
    if not extends.any():
        return None
    letters = np.where(extends, np.sum((others != _EMPTY) & (others != _BLOCK), axis=1), -1)
    return int(np.argmax(letters))


def _dead_ends_holding(entry: Analysed, kept: list[Analysed]) -> dict[Question, Report]:
    """The solver's dead-end labels of `kept` grids that hold on `entry`'s grid (the same shape and blocks; plain
    grids), as `("labels", slot)` reports (`/ws/suggest` keeps its labels so).

    A dead end's proof used some slots (`proof_slots`): those slots alone, with the word in its slot, have no
    fill, given the letters in their cells and the entries completed anywhere (a completed entry's word is no
    candidate elsewhere). So the label holds here when none of those slots lost or changed a letter, none was
    completed here (a completed entry may be the user's own word, no longer bound to the list), and no entry
    completed there of one of their lengths changed. A grid that only adds letters to a kept one (the next
    keystroke) keeps every dead end of it, with a proof's slots or not."""
    assert entry.cells is not None
    cells = entry.cells
    labelled = [
        (other, reports)
        for other in kept
        if other is not entry and other.shape == entry.shape
        for reports in [[(q, labels) for q, labels in list(other.reports.items()) if q[0] == "labels"]]
        if reports and other.cells is not None and np.array_equal(other.cells == _BLOCK, cells == _BLOCK)
    ]
    if not labelled:  # the usual miss: nothing labelled on a grid like this one
        return {}
    names = [slot.name for slot in entry.problem.slots]
    lengths = np.array([slot.length for slot in entry.problem.slots])
    length_by_name = dict(zip(names, lengths.tolist()))
    cell_at = np.full((len(names), int(lengths.max(initial=1))), len(cells))  # per slot its cells, then a pad cell
    for k, slot in enumerate(entry.problem.slots):
        cell_at[k, : slot.length] = slot.cells
    here = np.append(cells, _BLOCK)[cell_at]
    complete_here = ~(here == _EMPTY).any(axis=1)
    carried: dict[Question, Report] = {}
    for other, reports in labelled:
        assert other.cells is not None
        there = np.append(other.cells, _BLOCK)[cell_at]
        complete_there = ~(there == _EMPTY).any(axis=1)
        lost = ((there != _EMPTY) & (there != here)).any(axis=1)  # a letter there, another or none here
        bad_slots = {names[k] for k in np.flatnonzero(lost | (complete_here & ~complete_there))}
        bad_lengths = set(lengths[complete_there & (there != here).any(axis=1)].tolist())
        extends = not bad_slots and not bad_lengths
        for question, labels in reports:
            for word, label in list(labels.items()):  # list(): a labelling thread may add to them meanwhile
                if Viability(label["verdict"]) is not Viability.DEAD_END:
                    continue
                proof = label.get("proof_slots")
                if extends or (
                    proof is not None
                    and bad_slots.isdisjoint(proof)
                    and bad_lengths.isdisjoint(length_by_name[name] for name in proof)
                ):
                    carried.setdefault(question, {})[word] = label
    return carried


class AnalysisCache:
    """A thread-safe LRU of `Analysed` grids, their engines and check answers, keyed by content, bounded by count
    and by bytes (`max_bytes`: the grids' and engines' charges, see the module docstring)."""

    def __init__(
        self, capacity: int = CAPACITY, engine_capacity: int = ENGINE_CAPACITY, max_bytes: int = MAX_BYTES
    ) -> None:
        self.capacity = capacity
        self.engine_capacity = engine_capacity
        self.max_bytes = max_bytes
        self._entries: OrderedDict[CacheKey, Analysed] = OrderedDict()
        self._engines: OrderedDict[CacheKey, _Kept] = OrderedDict()
        self._checks: OrderedDict[CheckKey, Report] = OrderedDict()
        self._bytes_by_key: dict[CacheKey, int] = {}
        """Each kept grid's charge (`entry_bytes`) when it was kept."""
        self._used: dict[CacheKey, int] = {}
        """When each kept grid or engine was last used (a count of uses): which goes first past `max_bytes`."""
        self._uses = 0
        self._lock = threading.Lock()
        self.hits = self.misses = self.incremental = self.evicted = 0

    def held_bytes(self) -> int:
        """The bytes kept now: every grid's charge, its probe engines' and every kept engine's."""
        with self._lock:
            return self._held()

    def _held(self) -> int:
        return sum(self._bytes_by_key.get(key, 0) + entry._pool_bytes[0] for key, entry in self._entries.items()) + sum(
            kept.bytes for kept in self._engines.values()
        )

    def _touch(self, key: CacheKey) -> None:
        self._uses += 1
        self._used[key] = self._uses

    @staticmethod
    def key(words_token: object, source: object, min_score: int, allow_dupes: bool) -> CacheKey:
        """What makes two requests the same question: the list's version, the grid as the request wrote it
        (rows; hashable) and the options. A hit costs no parsing at all."""
        return (words_token, source, min_score, allow_dupes)

    def analysed(
        self,
        words: WordList,
        words_token: object,
        source: object,
        parse: Callable[[], Grid],
        min_score: int,
        allow_dupes: bool,
    ) -> Analysed:
        """The grid `parse()` gives (written `source` in the request), compiled with `words` and propagated,
        from the cache when it was seen.

        Raises:
            InputError: as `parse` and `compile_problem`.
        """
        key = self.key(words_token, source, min_score, allow_dupes)
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                self._touch(key)
                self.hits += 1
                return found
        grid = parse()
        plain = all(len(cell) == 1 for cell in grid.cells)
        shape = (
            words_token,
            grid.width,
            grid.height,
            getattr(grid, "bars", None),
            getattr(grid, "numbers", None),
            getattr(grid, "marks", None),
            min_score,
            allow_dupes,
        )  # marks too: the answers give the grid back
        cells = np.frombuffer("".join(grid.cells).encode("ascii", "replace"), np.uint8) if plain else None
        result = None
        parent = self._parent_of(shape, cells) if cells is not None else None  # cells: when plain
        if parent is not None:
            letter_by_cell = {int(cell): grid.cells[cell] for cell in np.flatnonzero(cells != parent.cells)}
            derived = add_letters(parent.entry.problem, letter_by_cell)
            if derived is not None:
                result = propagate_letters(derived, parent.engine, letter_by_cell)
                problem = derived
        incremental = result is not None
        if result is None:
            problem = compile_problem(grid, words, min_score=min_score, allow_dupes=allow_dupes)
            result = propagate_engine(problem)
        prop, engine = result
        entry = Analysed(problem, prop, shape=shape if cells is not None else None, cells=cells)
        base = parent.entry if incremental and parent is not None else None
        if base is None and cells is not None and prop.is_consistent:
            # no kept engine to derive this grid from (evicted, or a letter completed an entry): what was found on a
            # kept grid it extends by letters still holds here, where the problem is that grid's plus the letters
            base = self._base_of(shape, cells, problem)
            if base is not None and base.cells is not None:
                letter_by_cell = {int(cell): grid.cells[cell] for cell in np.flatnonzero(cells != base.cells)}
        if base is not None:  # the same slots and words, more letters: dead words stay dead
            # (list(): another thread may add a slot to the base's dict meanwhile)
            entry.dead_by_slot.update({slot_id: dict(dead) for slot_id, dead in list(base.dead_by_slot.items())})
            changed = set(letter_by_cell)
            one = next(iter(changed))
            for slot in problem.slots:  # the engine too (the earliest grid's, so no chain of grids is kept)
                if one in slot.cells and slot.id not in problem.fixed_text_by_slot and changed <= set(slot.cells):
                    entry.probe_source_by_slot[slot.id] = base.probe_source_by_slot.get(slot.id, base)
        if cells is not None and prop.is_consistent:
            with self._lock:
                kept_grids = [e for e in self._entries.values() if e.shape == shape]
            if parent is not None and all(e is not parent.entry for e in kept_grids):  # its engine outlived it
                kept_grids.append(parent.entry)
            entry.reports.update(_dead_ends_holding(entry, kept_grids))
        # charged before the lock: what it shares with the grid it extends is that one's
        size = entry_bytes(entry, derived=base is not None)
        keep_engine = prop.is_consistent and cells is not None  # cells: when plain
        engine_size = _engine_bytes(engine) if keep_engine else 0
        with self._lock:
            self.misses += 1
            self.incremental += incremental
            kept_ids = {id(kept) for kept in self._entries.values()}
            for slot_id, source in list(entry.probe_source_by_slot.items()):
                if id(source) not in kept_ids:  # evicted meanwhile: not held alive by this grid either
                    del entry.probe_source_by_slot[slot_id]
            self._entries[key] = entry
            self._entries.move_to_end(key)
            self._bytes_by_key[key] = size
            self._touch(key)
            if keep_engine:
                assert cells is not None
                self._engines[key] = _Kept(shape, cells, entry, engine, engine_size)
                self._engines.move_to_end(key)
            self._evict(key)
        return entry

    def _evict(self, newest: CacheKey) -> None:
        """Past a count or `max_bytes`: drop the least recently used grids and engines (under the lock), never the
        grid just kept (its engine may go)."""
        while len(self._entries) > self.capacity:
            self._drop_entry(next(iter(self._entries)))
        while len(self._engines) > self.engine_capacity:
            self._engines.popitem(last=False)
        held = self._held()
        while held > self.max_bytes:
            oldest_entry = next((key for key in self._entries if key != newest), None)
            oldest_engine = next(iter(self._engines), None)
            if oldest_entry is None and oldest_engine is None:
                return
            if oldest_engine is not None and (
                oldest_entry is None or self._used.get(oldest_engine, 0) <= self._used.get(oldest_entry, 0)
            ):
                held -= self._engines.pop(oldest_engine).bytes
            else:
                assert oldest_entry is not None
                held -= self._drop_entry(oldest_entry)
            self.evicted += 1

    def _drop_entry(self, key: CacheKey) -> int:
        """Forget a grid (and its engine, which holds it): its charge. Kept grids that probe in it stop doing so
        (they probe in their own engine, as a grid with no such source does), so none holds it alive."""
        entry = self._entries.pop(key)
        freed = self._bytes_by_key.pop(key, 0) + entry._pool_bytes[0]
        kept = self._engines.pop(key, None)
        if kept is not None:
            freed += kept.bytes
        self._used.pop(key, None)
        for other in self._entries.values():
            for slot_id in [s for s, source in list(other.probe_source_by_slot.items()) if source is entry]:
                other.probe_source_by_slot.pop(slot_id, None)
        return freed

    def _parent_of(self, shape: tuple[object, ...], cells: NDArray[np.uint8]) -> _Kept | None:
        """A kept engine of the same shape whose grid the new one extends by letters in empty cells, the one
        with the most letters (the previous keystroke); None when there is none. One numpy pass over all."""
        with self._lock:
            kept = [(key, k) for key, k in self._engines.items() if k.shape == shape]
        found = _most_letters_extended(cells, [k.cells for _, k in kept])
        if found is None:
            return None
        with self._lock:
            self._touch(kept[found][0])
        return kept[found][1]

    def _base_of(self, shape: tuple[object, ...], cells: NDArray[np.uint8], problem: Problem) -> Analysed | None:
        """A kept grid (engine or not) of the same shape that `problem`'s grid (`cells`) extends by letters A-Z in
        empty cells completing no entry, the one with the most letters; None when there is none. Then `problem`
        is what `add_letters` derives from that grid's (the same slots, words and complete entries)."""
        if not problem.controls.is_empty:
            return None
        with self._lock:
            kept = [e for e in self._entries.values() if e.shape == shape and e.cells is not None]
        found = _most_letters_extended(cells, [e.cells for e in kept if e.cells is not None])
        if found is None:
            return None
        base = kept[found]
        assert base.cells is not None
        changed = np.flatnonzero(cells != base.cells)
        if not all(65 <= int(cells[cell]) <= 90 for cell in changed):
            return None
        if len(problem.fixed_text_by_slot) != len(base.problem.fixed_text_by_slot):
            return None  # a letter completed an entry: it is the user's own here, a slot to fill there
        return base

    def check(self, key: CheckKey) -> Report | None:
        with self._lock:
            found = self._checks.get(key)
            if found is not None:
                self._checks.move_to_end(key)
            return found

    def keep_check(self, key: CheckKey, answer: Report) -> None:
        with self._lock:
            self._checks[key] = answer
            while len(self._checks) > CHECK_CAPACITY:
                self._checks.popitem(last=False)
