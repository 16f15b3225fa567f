"""Fills under the controls no backend posts itself: the rules on pairs of entries, and N fills pairwise K entries apart.

The pair rules (no long shared substrings, no two entries of one stem, no crossing of two
tagged entries the controls forbid: `xwcp.compile.pairs`) are checked lazily, on any backend:
fill, find a pair of entries that breaks one, and split the search on it (the first slot
takes another word; or it keeps its word and the second slot takes another), depth first.
Every fill of the problem without such pairs lies in exactly one branch, so "no branch has a
fill" is a proof.

Diverse fills (`--count N --min-diff K`) are found one after another: before fill i+1, each
earlier fill's word is taken out of K of its slots (chosen at random by the seed among the
open slots), so every new fill differs from each earlier one in at least those K entries.
This is sound, not complete: a failure to find the next fill says nothing about whether one
exists, so the result is then FILLED with fewer fills (or LIMIT) and a note.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from xwcp.base.errors import InputError, option_text
from xwcp.base.types import FillStatus, SlotId
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, FillStats, Limits

if TYPE_CHECKING:
    from xwcp.compile.pairs import Clash, Skip

DIVERSE_TRIES = 4
"""Random choices of the K slots tried for each new diverse fill before giving up."""
SKIPPED_SHOWN = 10
"""Words skipped by a pair rule named in a fill's statistics (the first ones, with the reason)."""


def with_domains(problem: Problem, changes: Mapping[SlotId, NDArray[np.bool_]]) -> Problem:
    """A copy of `problem` whose listed slots get new domain masks."""
    domains = list(problem.domains)
    for slot_id, mask in changes.items():
        mask = np.asarray(mask, bool)
        mask.flags.writeable = False
        domains[slot_id] = mask
    return replace(problem, domains=tuple(domains))


def without_word(problem: Problem, slot_id: SlotId, text: str) -> Problem:
    """`problem` with `text` taken out of `slot_id`'s domain."""
    word_id = problem.words.word_id(text)
    if word_id is None or not problem.domains[slot_id][word_id]:
        return problem
    mask = problem.domains[slot_id].copy()
    mask[word_id] = False
    return with_domains(problem, {slot_id: mask})


def only_word(problem: Problem, slot_id: SlotId, text: str) -> Problem:
    """`problem` with `slot_id`'s domain cut to `text` alone."""
    word_id = problem.words.word_id(text)
    mask = np.zeros_like(problem.domains[slot_id])
    if word_id is not None and problem.domains[slot_id][word_id]:
        mask[word_id] = True
    return with_domains(problem, {slot_id: mask})


def _remaining(limits: Limits, start: float) -> float | None:
    if limits.time_limit_s is None:
        return None
    return max(0.0, limits.time_limit_s - (time.perf_counter() - start))


def _skipped_extra(skipped: Sequence[Skip]) -> dict[str, object]:
    """A fill's `stats.extra` naming the words a pair rule skipped: "skipped", each reason as a sentence naming the
    slots, and "skipped_words", the same in plain terms once per pair of words (what the builder shows)."""
    if not skipped:
        return {}
    seen: set[frozenset[str]] = set()
    plain = []
    for skip in skipped:
        if skip.words not in seen:
            seen.add(skip.words)
            plain.append(skip.plain)
    return {"skipped": [skip.reason for skip in skipped], "skipped_words": plain}


def fill_pair_rules(problem: Problem, backend: str, limits: Limits) -> FillResult:
    """Fill `problem` so that no pair of entries breaks a pair rule of its controls (`xwcp.compile.pairs`): no
    shared substring longer than allowed, no two entries of one stem, no forbidden crossing of tagged entries.

    Runs `backend` on a depth-first tree of problems split on each breaking pair found. The result's
    `stats.extra` counts the splits (`pair_splits`) and names the first words skipped and why (`skipped`).
    """
    from xwcp.backends import get_backend
    from xwcp.compile.pairs import pair_clashes, skip_of, stem_skips

    if not problem.controls.has_pair_rules:
        raise ValueError("fill_pair_rules needs a problem with a pair rule among its controls")
    start = time.perf_counter()
    module = get_backend(backend)
    stack = [problem]
    is_complete = True
    n_splits = 0
    split_on: list[tuple[Clash, Mapping[SlotId, str]]] = []
    last: FillResult | None = None
    while stack:
        remaining = _remaining(limits, start)
        if remaining is not None and remaining <= 0:
            is_complete = False
            break
        node = stack.pop()
        result = module.fill(node, replace(limits, time_limit_s=remaining, count=None))
        last = result
        if result.status is FillStatus.UNFILLABLE:
            continue
        if result.status is not FillStatus.FILLED:
            is_complete = False
            if result.status is FillStatus.ABORTED:
                break
            continue
        entries = dict(enumerate(result.fills[0]))  # FILLED: at least one fill
        for gone in problem.skipped_slot_ids:
            entries.pop(gone, None)
        clashes = pair_clashes(problem, entries)
        if not clashes:
            extra = {**dict(result.stats.extra), "pair_splits": n_splits}
            skipped = [skip_of(problem, clash, found, entries) for clash, found in split_on]
            skipped.extend(stem_skips(problem, entries, SKIPPED_SHOWN - len(skipped)))
            extra.update(_skipped_extra(skipped))
            stats = replace(result.stats, wall_time_s=time.perf_counter() - start, extra=extra)
            return replace(result, stats=stats)
        clash = clashes[0]
        a, b = clash.a, clash.b
        if a in problem.fixed_text_by_slot:
            a, b = b, a
        n_splits += 1
        if len(split_on) < SKIPPED_SHOWN:
            split_on.append((replace(clash, a=a, b=b), entries))
        if b in problem.fixed_text_by_slot:
            stack.append(without_word(node, a, entries[a]))
        else:
            stack.append(without_word(only_word(node, a, entries[a]), b, entries[b]))
            stack.append(without_word(node, a, entries[a]))
    skips = [skip_of(problem, clash, found) for clash, found in split_on]
    done: dict[str, object] = {"pair_splits": n_splits, **_skipped_extra(skips)}
    stats = FillStats(time.perf_counter() - start, extra=done)
    name = last.backend if last is not None else backend
    if is_complete:
        return FillResult(FillStatus.UNFILLABLE, name, stats, reason=f"no fill keeps {_rules_text(problem)}")
    status = FillStatus.ABORTED if last is not None and last.status is FillStatus.ABORTED else FillStatus.LIMIT
    return FillResult(
        status,
        name,
        stats,
        reason=f"time limit of {limits.time_limit_s:g} s reached"
        if limits.time_limit_s is not None
        else "search limit reached",
    )


def _rules_text(problem: Problem) -> str:
    """The pair rules of `problem`'s controls in words: 'every shared substring within 4 letters'."""
    controls = problem.controls
    rules = []
    if controls.max_shared_substring is not None:
        rules.append(f"every shared substring within {controls.max_shared_substring} letters")
    if controls.distinct_stems:
        rules.append("every entry of a stem of its own")
    if controls.no_crossing:
        rules.append("every crossing clear of " + ", ".join(f"{a}:{b}" for a, b in sorted(controls.no_crossing)))
    return " and ".join(rules)


def check_min_diff(problem: Problem, count: int, min_diff: int) -> None:
    """Raise InputError when `min_diff` cannot be met: more than the open slots."""
    n_open = len(problem.open_slot_ids)
    if min_diff > n_open:
        raise InputError(f"{option_text('min_diff', min_diff)} is more than the {n_open} open slots of this grid")
    if min_diff < 1:
        raise InputError(f"{option_text('min_diff', min_diff)}: it must be at least 1")


def exclude_fill(problem: Problem, entries: Sequence[str], k: int, rng: random.Random) -> Problem:
    """`problem` with the fill's word taken out of `k` randomly chosen open slots."""
    open_ids = problem.open_slot_ids
    changes: dict[SlotId, NDArray[np.bool_]] = {}
    for slot_id in rng.sample(open_ids, k):
        word_id = problem.words.word_id(entries[slot_id])
        if word_id is not None:
            mask = problem.domains[slot_id].copy()
            mask[word_id] = False
            changes[slot_id] = mask
    return with_domains(problem, changes)


def fill_diverse(
    problem: Problem,
    backend: str,
    limits: Limits,
    count: int,
    min_diff: int,
    fill_one: Callable[[Problem, Limits], FillResult] | None = None,
) -> FillResult:
    """Up to `count` fills, every two of which differ in at least `min_diff` entries.

    Args:
        fill_one: `(problem, limits) -> FillResult` for one fill (default: `backends.fill`);
            the quality search passes its own.
    """
    from xwcp.backends import fill

    check_min_diff(problem, count, min_diff)
    fill_one = fill_one or (lambda p, lim: fill(p, backend, lim))
    start = time.perf_counter()
    rng = random.Random(limits.seed)
    fills: list[tuple[str, ...]] = []
    first: FillResult | None = None
    status = FillStatus.FILLED
    note = ""
    per_fill_s = None if limits.time_limit_s is None else limits.time_limit_s / count
    while len(fills) < count:
        remaining = _remaining(limits, start)
        if remaining is not None and remaining <= 0:
            status = FillStatus.LIMIT
            break
        if per_fill_s is None or remaining is None:  # (both None or neither: no time limit, or one)
            budget = remaining
        else:
            budget = min(remaining, per_fill_s * (len(fills) + 1) - (time.perf_counter() - start))
        result: FillResult  # set by the first attempt (there is at least one)
        for attempt in range(DIVERSE_TRIES if fills else 1):
            node = problem
            for earlier in fills:
                node = exclude_fill(node, earlier, min_diff, rng)
            result = fill_one(
                node, replace(limits, time_limit_s=budget, seed=limits.seed + len(fills) + attempt, count=None)
            )
            if result.status is FillStatus.FILLED:
                break
            if not fills:
                break
        if first is None:
            first = result
        if result.status is not FillStatus.FILLED:
            if not fills:
                return result
            note = f"found {len(fills)} fills at least {min_diff} entries apart ({count} asked for)"
            break
        fills.append(result.fills[0])  # FILLED: at least one fill
    if not fills or first is None:  # (first is the first fill's result when there are fills)
        return FillResult(
            status,
            first.backend if first else backend,
            FillStats(time.perf_counter() - start),
            reason="time limit reached",
        )
    extra: dict[str, object] = {"min_diff": min_diff}
    if note:
        extra["note"] = note
    return FillResult(
        FillStatus.FILLED,
        first.backend,
        replace(first.stats, wall_time_s=time.perf_counter() - start, extra={**dict(first.stats.extra), **extra}),
        tuple(fills),
        len(fills),
    )


def differing_entries(a: Sequence[str], b: Sequence[str]) -> int:
    """How many slots two fills fill differently."""
    return sum(1 for x, y in zip(a, b) if x != y)
