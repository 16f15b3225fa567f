"""The aim of the quality search: the lexicographic key of a fill, the score levels of a problem, a problem at a floor."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from xwcp.compile.problem import Problem, compile_problem

MAJOR_LEVEL_SHARE = 0.01
"""A score level holding at least this share of the words is bisected first; the levels in between
(e.g. 81-89 in the default list, 0.1-0.2% each) are about as hard as the next populous one, so
bisecting over them wasted the floor's time (Herald 21.01, 21.04, 21.05 ended at 75 instead of 80)."""
RAISE_PENALTY = 10_000
"""Objective cost of an entry at the floor (or below the raise target): more than any total score a
neighbourhood can gain (LNS_MAX_SIZE slots of at most 100 each), so fewer such entries always comes first."""


def lex_key(scores: Iterable[int]) -> tuple[int, int, int]:
    """(lowest score, -how many entries have it, total) of a fill's entry scores: comparing keys compares
    fills the way constructors do, highest floor first, then fewest entries at the floor, then the mean."""
    listed = list(scores)
    if not listed:
        return (0, 0, 0)
    low = min(listed)
    return (low, -listed.count(low), sum(listed))


def score_levels(problem: Problem) -> list[int]:
    """Distinct scores >= the problem's minimum among words of the open slots' lengths, ascending."""
    lengths = {problem.slots[s].length for s in problem.open_slot_ids}
    levels: set[int] = set()
    for length in lengths:
        scores = np.asarray(problem.words.bucket(length).scores)
        levels.update(int(x) for x in np.unique(scores[scores >= problem.min_score]))
    return sorted(levels)


def populous_levels(problem: Problem) -> list[int]:
    """Score levels >= the problem's minimum holding at least MAJOR_LEVEL_SHARE of its open slots' words."""
    lengths = {problem.slots[s].length for s in problem.open_slot_ids}
    scores = (
        np.concatenate([np.asarray(problem.words.bucket(length).scores) for length in lengths])
        if lengths
        else np.zeros(0, np.int16)
    )
    values, counts = np.unique(scores[scores >= problem.min_score], return_counts=True)
    return [int(v) for v, n in zip(values, counts) if n >= MAJOR_LEVEL_SHARE * max(1, len(scores))]


def at_floor(problem: Problem, floor: int) -> Problem:
    """`problem` recompiled with minimum score `floor` (same grid, list and controls, and no word its
    domains had dropped)."""
    if floor == problem.min_score:
        return problem
    compiled = compile_problem(
        problem.grid, problem.words, min_score=floor, allow_dupes=problem.allow_dupes, controls=problem.controls
    )
    # keep words a caller took out of `problem` (diverse fills, shared-substring branches) out at the floor too
    domains: list[NDArray[np.bool_]] = []
    for new, old in zip(compiled.domains, problem.domains):
        mask = new & old
        mask.flags.writeable = False
        domains.append(mask)
    return replace(compiled, domains=tuple(domains))
