"""Fill a grid whose listed entries include chains: choose where each chain's words end, fill, check.

A chain (`xwcp.model.entries.Entry.words` of 2 or more: a Marching Bands row or band, a Rows Garden row)
is filled by that many consecutive listed words whose boundaries the fill chooses. The engine fills
fixed slots, so a chain is filled as a *split*: its cells cut into `words` parts, each a listed entry
of its own (`NAME+1`, `NAME+2`, ...: `chain_part_name`), the rest of the grid as it is. A split is
filled by the ordinary engine (`xwcp.backends.fill`) under a short time limit; on failure another
split is tried, chosen from what the failure says:

- **unfillable**: the minimal-core search (`xwcp.search.core.find_core`) names a set of slots that
  cannot be filled together. Every split holding the same parts (same cells) holds that core too,
  so the core's parts become a *nogood*: no later split contains them all. The next split moves
  one boundary of a chain the core names (a cut beside one of its parts), the other chains kept.
  A core with no chain part at all names slots every split has: the grid is proven unfillable.
- **limit**: the try's limit grows (by TRY_GROWTH) and a boundary of any chain may move.

The next split is chosen among LOOKAHEAD candidates (nearest moves of those chains' cuts, then redraws) by
AC-3: each is compiled and propagated, those it empties are dropped unsearched (tabu), and the one with the
largest live domains is searched.

Every split tried is kept (a tabu list): none is tried twice. The job's time limit covers the whole
search; when it ends (or no untried split is left) the answer is LIMIT, never UNFILLABLE: a search
over splits that gave up proves nothing. Moving boundaries where the core points replaces drawing
whole splits at random (bench/chain_fill.py), which re-tries the parts that failed.

`check_chains` is the checker of such a fill: `check_fill` on the split (each part a listed word,
crossings agree, no word twice across the puzzle, pre-filled letters kept) and, for each chain, that
its words are its number of parts and spell its cells in order.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.compile.controls import Controls
from xwcp.compile.problem import Problem, compile_problem
from xwcp.engine.result import FillResult, FillStats, Limits, Progress, check_fill, default_threads, fill_grid
from xwcp.model.entries import CHAIN_PART_MARK, Entry, chain_of_part, chain_part_name
from xwcp.model.grid import BLOCK, EMPTY, Grid, make_grid
from xwcp.words.wordlist import WordList

FIRST_TRY_S = 1.0
"""The first split's time limit: the published 7x7-15x7 layouts fill or fail within 0.5 s when they can."""

TRY_GROWTH = 1.5
"""Each try that ends at its limit lets the next one search this much longer: a layout whose splits need
long searches gets them, one that fails fast keeps moving."""

CORE_TIME_S = 2.0
"""The core search's most time after an unfillable split (a core cut short is still unfillable, only larger)."""

CORE_PER_PROOF = 2.0
"""The core search's time as a multiple of the proof's: a split proven unfillable in 0.1 s (the 7x7 spiral's)
has a core of nearly every slot, which 2 s of search does not shrink; its next split is worth more."""

MIN_CORE_S = 0.25
"""The core search's least time: AC-3's proofs take milliseconds, and their wipeout slot seeds a quick core."""

MAX_MOVE = 3
"""How far a boundary moves in one step (letters): near moves keep most of a split that nearly filled."""

LOOKAHEAD = 8
"""Next splits weighed before one is searched: each is compiled and propagated (AC-3, about 15 ms on a 13x13
Marching Bands), those AC-3 empties are dropped, and the one whose live domains are largest (the sum of their
logarithms) is searched."""

MOVES_PER_CHAIN = 2
"""Moves of each chain the core names among the LOOKAHEAD splits: the nearest ones, so that several chains
are weighed."""

MIN_WORDS_OF_LENGTH = 2
"""A part's length needs at least this many listed words: a length with one word cannot take two parts."""

Cuts = tuple[int, ...]
"""A chain's split: offsets into its cells, 0 first and its length last, one part between each two."""

Split = tuple[Cuts, ...]
"""The cuts of every chain, in the grid's order of chains."""

Part = tuple[int, int, int]
"""(chain index, first offset, end offset): one part of a split, the same slot in every split holding it."""


@dataclass(frozen=True)
class ChainFill:
    """What a chain fill found.

    Attributes:
        problem: the compiled split the result belongs to (its slots: each chain's parts, `NAME+1`...,
            and the grid's other entries).
        result: the engine's result on it; FILLED with the fill, UNFILLABLE only when a core named no
            chain part (no split can fill), else LIMIT (or ABORTED), its reason saying how many splits
            were tried.
        n_tries: splits filled or tried.
    """

    problem: Problem
    result: FillResult
    n_tries: int


def chains_of(grid: Grid) -> tuple[Entry, ...]:
    """The grid's chains (listed entries of several words), in the grid's order."""
    return tuple(entry for entry in grid.entries if entry.is_chain)


def split_grid(grid: Grid, split: Split) -> Grid:
    """`grid` with each chain replaced by its parts under `split` (listed entries `NAME+1`, ...)."""
    chains = iter(split)
    entries: list[Entry] = []
    for entry in grid.entries:
        if not entry.is_chain:
            entries.append(entry)
            continue
        cuts = next(chains)
        entries.extend(
            Entry(chain_part_name(entry.name, n), entry.cells[a:b]) for n, (a, b) in enumerate(zip(cuts, cuts[1:]), 1)
        )
    return make_grid(
        grid.width,
        grid.height,
        grid.cells,
        bars=grid.bars,
        marks=dict(grid.marks),
        numbers=None if grid.numbers is None else dict(grid.numbers),
        entries=entries,
        entries_only=grid.entries_only,
        pairs=grid.pairs,
    )


def part_lengths(words: WordList) -> frozenset[int]:
    """The lengths a chain's part may have: those of which the list has MIN_WORDS_OF_LENGTH words or more."""
    return frozenset(n for n in words.lengths if n >= 2 and words.bucket(n).n_words >= MIN_WORDS_OF_LENGTH)


class _Splits:
    """The splits of a grid's chains: the lengths a part may take, drawing and moving cuts, the tabu and nogoods."""

    def __init__(self, chains: Sequence[Entry], lengths: frozenset[int], rng: random.Random):
        self.chains = chains
        self.lengths = lengths
        self.rng = rng
        self.tried: set[Split] = set()
        self.nogoods: list[frozenset[Part]] = []
        self._fits: dict[tuple[int, int], bool] = {}
        for entry in chains:
            if not self.fits(len(entry.cells), entry.words):
                shown = f"{min(lengths)}-{max(lengths)}" if lengths else "none"
                raise InputError(
                    f"chain {entry.name} has {len(entry.cells)} cells: no {entry.words} words of the list's "
                    f"lengths ({shown} letters) fill it exactly"
                )

    def fits(self, n_cells: int, n_words: int) -> bool:
        """Can `n_cells` be cut into `n_words` parts of listed lengths?"""
        key = (n_cells, n_words)
        known = self._fits.get(key)
        if known is None:
            if n_words == 1:
                known = n_cells in self.lengths
            else:
                known = any(self.fits(n_cells - n, n_words - 1) for n in self.lengths if n < n_cells)
            self._fits[key] = known
        return known

    def even(self, entry: Entry) -> Cuts:
        """A split of `entry` into parts as equal as the listed lengths allow (the middle lengths have the most
        words), ties broken at random."""
        n_cells, n_words = len(entry.cells), entry.words
        cuts = [0]
        for left in range(n_words, 0, -1):
            rest = n_cells - cuts[-1]
            target = rest / left
            choices = [n for n in self.lengths if n <= rest and self.fits(rest - n, left - 1)] if left > 1 else [rest]
            best = min(abs(n - target) for n in choices)
            cuts.append(cuts[-1] + self.rng.choice([n for n in choices if abs(n - target) == best]))
        return tuple(cuts)

    def first(self) -> Split:
        return tuple(self.even(entry) for entry in self.chains)

    def parts(self, split: Split) -> frozenset[Part]:
        return frozenset((c, a, b) for c, cuts in enumerate(split) for a, b in zip(cuts, cuts[1:]))

    def allowed(self, split: Split) -> bool:
        if split in self.tried:
            return False
        parts = self.parts(split)
        return not any(nogood <= parts for nogood in self.nogoods)

    def moves(self, split: Split, chain: int, near: Sequence[int] = ()) -> list[Split]:
        """Splits that move one cut of `chain` by up to MAX_MOVE letters, cuts in `near` (cut indices) first,
        nearest moves first, in random order among equals; only allowed ones."""
        cuts = split[chain]
        options: list[tuple[int, float, Split]] = []
        for index in range(1, len(cuts) - 1):
            for delta in range(-MAX_MOVE, MAX_MOVE + 1):
                moved = cuts[index] + delta
                if not delta or not (cuts[index - 1] < moved < cuts[index + 1]):
                    continue
                if moved - cuts[index - 1] not in self.lengths or cuts[index + 1] - moved not in self.lengths:
                    continue
                new = split[:chain] + (cuts[:index] + (moved,) + cuts[index + 1 :],) + split[chain + 1 :]
                if self.allowed(new):
                    rank = abs(delta) + (0 if index in near or not near else MAX_MOVE)
                    options.append((rank, self.rng.random(), new))
        options.sort()
        return [new for _, _, new in options]

    def redraw(self, split: Split, chain: int) -> Split | None:
        """`split` with `chain` cut anew at random (lengths drawn among those that leave the rest a split)."""
        entry = self.chains[chain]
        for _ in range(50):
            cuts = [0]
            for left in range(entry.words, 0, -1):
                rest = len(entry.cells) - cuts[-1]
                choices = (
                    [n for n in self.lengths if n <= rest and self.fits(rest - n, left - 1)] if left > 1 else [rest]
                )
                cuts.append(cuts[-1] + self.rng.choice(choices))
            new = split[:chain] + (tuple(cuts),) + split[chain + 1 :]
            if self.allowed(new):
                return new
        return None

    def candidates(
        self, split: Split, chains: Sequence[int], near_by_chain: Mapping[int, Sequence[int]], n: int
    ) -> list[Split]:
        """Up to `n` allowed next splits: the best MOVES_PER_CHAIN moves of each of `chains` (in random order),
        then redraws of them; distinct."""
        order = list(chains)
        self.rng.shuffle(order)
        out: list[Split] = []
        for chain in order:
            out += [m for m in self.moves(split, chain, near_by_chain.get(chain, ()))[:MOVES_PER_CHAIN] if m not in out]
            if len(out) >= n:
                return out[:n]
        for chain in order:
            new = self.redraw(split, chain)
            if new is not None and new not in out:
                out.append(new)
        return out[:n]

    def next(self, split: Split, chains: Sequence[int], near_by_chain: Mapping[int, Sequence[int]]) -> Split | None:
        """The next split to try: a move of a cut of one of `chains` (in random order), else a redraw of one of
        them, else of any chain; None when none is allowed."""
        order = list(chains)
        self.rng.shuffle(order)
        for chain in order:
            moves = self.moves(split, chain, near_by_chain.get(chain, ()))
            if moves:
                return moves[0]
        others = [c for c in range(len(self.chains)) if c not in order]
        self.rng.shuffle(others)
        for chain in order + others:
            new = self.redraw(split, chain)
            if new is not None:
                return new
        return None


def fill_chains(
    grid: Grid,
    words: WordList,
    *,
    min_score: int = 50,
    allow_dupes: bool = False,
    strict: bool = False,
    controls: Controls | None = None,
    backend: str = "auto",
    time_limit_s: float | None = None,
    seed: int = 0,
    say: Callable[[str], None] | None = None,
    abort: threading.Event | None = None,
    threads: int | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> ChainFill:
    """Fill `grid`, whose chains' boundaries the fill chooses (the module docstring says how).

    Args:
        grid: a grid with at least one chain (`chains_of`).
        words, min_score, allow_dupes, strict, controls: as `compile_problem` takes them, for every split.
        backend: the engine's backend for each split.
        time_limit_s: the whole search's limit (None: until a fill, a proof, or no untried split).
        seed: the random choices' seed (ties among moves, redraws).
        say: receives one line per split tried (its outcome and what moves next).
        abort: set it to stop (the answer is then ABORTED).
        threads: the solver threads each try may use.
        progress: receives the engine's progress on the split being searched (its `partial` letters are by
            letter cell; every split has the grid's cells, so its letter cells are those of the grid's own problem).

    Returns:
        The split filled (its problem and checked result), or the last one tried with the status that ends it.

    Raises:
        InputError: a chain no split of the list's lengths fits.
    """
    from xwcp.backends import fill
    from xwcp.search.core import find_core

    start = time.perf_counter()
    deadline = None if time_limit_s is None else start + time_limit_s
    grid, controls = _locked_chains(grid, controls)
    chains = chains_of(grid)
    index_by_name = {entry.name: c for c, entry in enumerate(chains)}
    splits = _Splits(chains, part_lengths(words), random.Random(seed))
    split: Split | None = splits.first()
    ready: Problem | None = None

    def compiled(split: Split) -> Problem:
        return compile_problem(
            split_grid(grid, split),
            words,
            min_score=min_score,
            allow_dupes=allow_dupes,
            strict=strict,
            controls=controls,
        )

    try_s = FIRST_TRY_S
    n_tries = n_unfillable = n_limit = 0
    problem: Problem | None = None
    result: FillResult | None = None
    while split is not None:
        left_s = None if deadline is None else deadline - time.perf_counter()
        if (left_s is not None and left_s <= 0) or (abort is not None and abort.is_set()):
            break
        splits.tried.add(split)
        n_tries += 1
        problem = ready if ready is not None else compiled(split)
        limit_s = try_s if left_s is None else max(0.05, min(try_s, left_s))
        limits = Limits(
            time_limit_s=limit_s,
            seed=seed + n_tries,
            abort=abort,
            threads=threads or default_threads(),
            progress=progress,
        )
        result = fill(problem, backend, limits)
        if result.status is FillStatus.FILLED:
            if say is not None:
                say(f"chains: split {n_tries} filled ({time.perf_counter() - start:.1f} s)")
            return ChainFill(problem, _summed(result, start, n_tries), n_tries)
        if result.status is FillStatus.ABORTED:
            break
        moving: list[int] = []
        near_by_chain: dict[int, list[int]] = {}
        core = None
        core_s_used = 0.0
        if result.status is FillStatus.UNFILLABLE:
            n_unfillable += 1
            core_s = min(CORE_TIME_S, max(MIN_CORE_S, CORE_PER_PROOF * result.stats.wall_time_s))
            if deadline is not None:
                core_s = min(core_s, max(0.0, deadline - time.perf_counter()))
            core_start = time.perf_counter()
            core = find_core(
                problem,
                time_limit_s=core_s,
                seed_slot_ids=() if result.slot_id is None else (result.slot_id,),
                is_proven=True,
                weight_by_slot=result.weight_by_slot,
                abort=abort,
            )
            core_s_used = time.perf_counter() - core_start
            if core is not None:
                core_parts: set[Part] = set()
                for slot_id in core.slot_ids:
                    name = chain_of_part(problem.slots[slot_id].entry_name)
                    if name not in index_by_name:
                        continue
                    chain = index_by_name[name]
                    part = int(problem.slots[slot_id].entry_name.rpartition(CHAIN_PART_MARK)[2]) - 1
                    cuts = split[chain]
                    core_parts.add((chain, cuts[part], cuts[part + 1]))
                    near_by_chain.setdefault(chain, []).extend((part, part + 1))
                if not core_parts:  # slots every split has: no split fills
                    if say is not None:
                        say(f"chains: split {n_tries}: a core of slots outside the chains: unfillable")
                    return ChainFill(problem, _summed(result, start, n_tries), n_tries)
                splits.nogoods.append(frozenset(core_parts))
                moving = sorted(near_by_chain)
        else:
            n_limit += 1
            try_s *= TRY_GROWTH
        if not moving:  # a limit (or no core): every chain may move, AC-3 weighs the candidates
            moving = list(range(len(chains)))
        if say is not None:
            named = ", ".join(chains[c].name for c in moving)
            say(
                f"chains: split {n_tries} {result.status.value} in {result.stats.wall_time_s:.1f} s"
                + (f" (core of {len(core.slot_ids)} slots in {core_s_used:.1f} s)" if core is not None else "")
                + "; "
                f"moving {named} ({time.perf_counter() - start:.1f} s in all)"
            )
        split, ready = _steered(splits, split, moving, near_by_chain, compiled)
    if problem is None or result is None:  # no time for a single try: the first split, unsearched
        problem = compiled(splits.first())
        result = FillResult(FillStatus.LIMIT, backend)
    aborted = abort is not None and abort.is_set()
    status = FillStatus.ABORTED if aborted else FillStatus.LIMIT
    why = "stopped" if aborted else "time limit" if split is not None else "no untried split of the chains left"
    reason = (
        f"{why}: {n_tries} splits of the chains tried ({n_unfillable} unfillable, {n_limit} reached their own "
        "limit); a search over splits proves nothing"
    )
    ended = replace(result, status=status, fills=(), n_fills=0, reason=reason, slot_id=None, weight_by_slot=None)
    return ChainFill(problem, _summed(ended, start, n_tries), n_tries)


def fill_chains_of(problem: Problem, **options: Any) -> ChainFill:
    """`fill_chains` of a compiled problem's grid and list, under its min score, duplicates rule and controls;
    `options` as `fill_chains` takes them (backend, time_limit_s, seed, say, abort)."""
    return fill_chains(
        problem.grid,
        problem.words,
        min_score=problem.min_score,
        allow_dupes=problem.allow_dupes,
        controls=problem.controls,
        **options,
    )


def _steered(
    splits: _Splits,
    split: Split,
    chains: Sequence[int],
    near_by_chain: Mapping[int, Sequence[int]],
    compiled: Callable[[Split], Problem],
) -> tuple[Split | None, Problem | None]:
    """The next split to search and its compiled problem: of LOOKAHEAD candidates (`_Splits.candidates`), the
    one AC-3 leaves the largest domains (sum of their logarithms); a candidate AC-3 empties is tried (tabu)
    without a search. Without candidates, `_Splits.next` (its problem not compiled yet)."""
    from xwcp.engine.ac3 import make_engine

    best: tuple[float, Split, Problem] | None = None
    for candidate in splits.candidates(split, chains, near_by_chain, LOOKAHEAD):
        problem = compiled(candidate)
        engine = make_engine(problem)
        if problem.conflicts or not engine.propagate_all():
            splits.tried.add(candidate)
            continue
        score = sum(math.log(max(1, engine.domain_size(slot_id))) for slot_id in engine.slot_ids)
        if best is None or score > best[0]:
            best = (score, candidate, problem)
    if best is not None:
        return best[1], best[2]
    return splits.next(split, chains, near_by_chain), None


def _locked_chains(grid: Grid, controls: Controls | None) -> tuple[Grid, Controls | None]:
    """`grid` with the letters of every lock on a chain entered (a chain's slot is not in a split: its letters
    are given, its boundaries still chosen), and the controls without those locks.

    Raises:
        InputError: a lock whose word is not as long as its chain.
    """
    if controls is None or not controls.locks:
        return grid, controls
    by_name = {entry.name: entry for entry in chains_of(grid)}
    letter_by_cell: dict[int, str] = {}
    kept: dict[str | int, str] = {}
    for key, word in controls.locks.items():
        entry = by_name.get(key) if isinstance(key, str) else None
        if entry is None:
            kept[key] = word
            continue
        if len(word) != len(entry.cells):
            raise InputError(
                f"--lock {entry.name}={word}: the chain has {len(entry.cells)} cells, the word {len(word)}"
            )
        letter_by_cell.update(zip(entry.cells, word))
    if not letter_by_cell:
        return grid, controls
    rest = Controls(
        locks=kept,
        bans=controls.bans,
        min_score_by_slot=controls.min_score_by_slot,
        region=controls.region,
        max_shared_substring=controls.max_shared_substring,
        filters_by_slot=controls.filters_by_slot,
        distinct_stems=controls.distinct_stems,
        no_crossing=controls.no_crossing,
        tags_by_word=controls.tags_by_word,
    )
    return grid.with_letters(letter_by_cell), rest


def _summed(result: FillResult, start: float, n_tries: int) -> FillResult:
    """`result` with the whole chain search's time and its count of splits tried (`extra["chain_splits"]`)."""
    stats = result.stats
    extra = {**stats.extra, "chain_splits": n_tries}
    return replace(
        result, stats=FillStats(time.perf_counter() - start, stats.nodes, stats.backtracks, stats.restarts, extra)
    )


def has_open_chain(grid: Grid) -> bool:
    """True when a chain of the grid still has an empty cell (its boundaries are still to be chosen)."""
    return any(grid.cells[cell] == EMPTY for entry in chains_of(grid) for cell in entry.cells)


def settled_split(
    problem: Problem, *, backend: str = "auto", time_limit_s: float | None = None, seed: int = 0
) -> tuple[Problem | None, str]:
    """For `xwcp check` on a grid with open chains: the split whose answer is the grid's (one that fills, or one
    whose core lies outside the chains: no split fills), found by `fill_chains` within the time; (None, why)
    when the search over splits ended without either (the verdict is then unknown)."""
    found = fill_chains_of(problem, backend=backend, time_limit_s=time_limit_s, seed=seed)
    if found.result.status in (FillStatus.FILLED, FillStatus.UNFILLABLE):
        return found.problem, ""
    return None, found.result.reason


def filled_grid(grid: Grid, problem: Problem, entries: Sequence[str]) -> Grid:
    """`grid` (with its chains) holding the letters of a fill of its split (`problem`, `entries` in slot order):
    each chain's answer is its words run together, as a file or the text syntax keeps it."""
    return grid.with_cells(fill_grid(problem, tuple(entries)).cells)


def chain_words(grid: Grid, problem: Problem, entries: Sequence[str]) -> dict[str, list[str]]:
    """Each chain's words in a fill of its split (`problem`'s slots, `entries` in slot order), by chain name."""
    words_by_chain: dict[str, list[str]] = {entry.name: [] for entry in chains_of(grid)}
    for slot, text in zip(problem.slots, entries):
        name = chain_of_part(slot.entry_name)
        if name in words_by_chain:
            words_by_chain[name].append(text)
    return words_by_chain


def check_chains(grid: Grid, problem: Problem, entries: Sequence[str] | None) -> list[str]:
    """Every way a fill of a split of `grid` (`problem`, `entries` in its slot order) breaks the rules; empty when
    valid: `check_fill` on the split (each part a listed word, crossings agree, no word twice across the puzzle,
    pre-filled letters kept), the split's grid the grid's own cells with every chain replaced by parts over its
    cells in order, and each chain filled by its number of words, which spell its cells."""
    violations = check_fill(problem, entries)
    if entries is None:
        return violations
    chains = chains_of(grid)
    by_name: dict[str, list[tuple[int, tuple[int, ...], str]]] = {entry.name: [] for entry in chains}
    for slot, text in zip(problem.slots, entries):
        name = chain_of_part(slot.entry_name)
        if name in by_name:
            number = int(slot.entry_name.rpartition(CHAIN_PART_MARK)[2])
            by_name[name].append((number, tuple(problem.slot_cells(slot.id)), text))
    if any((a == BLOCK) != (b == BLOCK) or b not in (EMPTY, a) for a, b in zip(problem.grid.cells, grid.cells)):
        violations.append("the split's grid has other blocks or letters than the puzzle's")
    kept = [entry for entry in problem.grid.entries if not chain_of_part(entry.name)]
    if kept != [entry for entry in grid.entries if not entry.is_chain]:
        violations.append("the split's grid lacks or changes an entry of the puzzle's")
    for entry in chains:
        parts = sorted(by_name[entry.name])
        if [n for n, _, _ in parts] != list(range(1, entry.words + 1)):
            violations.append(f"{entry.name}: {len(parts)} words fill a chain of {entry.words}")
            continue
        cells = tuple(cell for _, part_cells, _ in parts for cell in part_cells)
        if cells != entry.cells:
            violations.append(f"{entry.name}: its words do not run over its cells in order")
        if any(len(text) != len(part_cells) for _, part_cells, text in parts):
            violations.append(f"{entry.name}: a word's length is not its part's")
    return violations
