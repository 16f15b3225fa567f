"""The compiled search's slot provenance (xwcp/engine/kernel.py, issue 29): a proof names slots that alone cannot
be filled, and tracking them does not change the search.

Every claim is checked against an independent oracle: a plain Python enumeration of fills
(`brute_fillable`, no kernel code) on small random grids and lists, built inline; tests/search/test_core_search.py
checks the minimal core against the same oracle.
"""
from __future__ import annotations

import random

import pytest

from xwcp import compile_problem, parse_grid, words_from_pairs
from xwcp.engine import kernel
from xwcp.search.core import sub_problem
from xwcp.engine.plain_kernel import bit_search


SHAPES = [
    "....\n....\n....\n....",
    ".....\n.....\n..#..\n.....\n.....",
    "#....\n.....\n.....\n.....\n....#",
    "...#\n....\n....\n#...",
    "....#\n.....\n.....\n#....",
]
"""Small grids whose slots all cross (every white cell checked), so dead ends travel."""


def brute_fillable(problem, slot_ids) -> bool:
    """Whether the slots `slot_ids` of `problem` can be filled together, by plain enumeration:
    each slot a word of its domain, crossing cells agreeing among the kept slots, no word twice."""
    sub = sub_problem(problem, slot_ids)
    words = []
    for slot in sub.slots:
        fixed = sub.fixed_text_by_slot.get(slot.id)
        if fixed is not None:
            words.append([fixed])
            continue
        bucket = sub.words.bucket(slot.length)
        words.append([bucket.text(w) for w in range(bucket.n_words) if sub.domains[slot.id][w]])
    order = sorted(range(len(sub.slots)), key=lambda s: len(words[s]))
    letter_by_cell: dict[int, str] = {}
    used: set[str] = set()

    def place(index: int) -> bool:
        if index == len(order):
            return True
        slot = sub.slots[order[index]]
        for word in words[slot.id]:
            if not sub.allow_dupes and word in used:
                continue
            if any(letter_by_cell.get(cell, letter) != letter for cell, letter in zip(slot.cells, word)):
                continue
            added = [cell for cell in slot.cells if cell not in letter_by_cell]
            letter_by_cell.update((cell, letter) for cell, letter in zip(slot.cells, word) if cell in added)
            used.add(word)
            if place(index + 1):
                return True
            used.discard(word)
            for cell in added:
                del letter_by_cell[cell]
        return False

    # cells shared with a dropped slot are constrained only by the kept slot: sub.slots keep all
    # their cells, and only kept slots write letters, so agreement is checked among kept slots only
    return place(0)


def random_problem(rng: random.Random, shape: str):
    """A grid from SHAPES with a small random list over a few letters: often unfillable, rarely by AC-3 alone."""
    grid = parse_grid(shape)
    problem = compile_problem(grid, words_from_pairs(["AB"]), min_score=0)
    lengths = {slot.length for slot in problem.slots}
    alphabet = "ABCDE"[:rng.choice([3, 4, 5])]
    words = set()
    for length in lengths:
        for _ in range(rng.randint(4, 14)):
            words.add("".join(rng.choice(alphabet) for _ in range(length)))
    return compile_problem(grid, words_from_pairs(sorted(words)), min_score=0)


def tracked_proof(problem, **configure):
    """The compiled search with slot provenance on the whole problem: (status code, used slot ids, engine)."""
    engine = bit_search(problem, track_slots=True)
    if not engine.is_consistent:
        return kernel.EXHAUSTED, engine.used_slot_ids(), engine
    engine.configure(seed=configure.pop("seed", 0), restart_base=configure.pop("restart_base", 100),
                     noise=0.2, score_weight=0.05, **configure)
    while True:
        code = engine.search(1.0)
        if code != kernel.RUNNING:
            return code, engine.used_slot_ids(), engine


def unfillable_instances(n: int, seed: int = 7):
    rng = random.Random(seed)
    found = []
    while len(found) < n:
        problem = random_problem(rng, rng.choice(SHAPES))
        if not brute_fillable(problem, [s.id for s in problem.slots]):
            found.append(problem)
    return found


INSTANCES = unfillable_instances(40)


@pytest.mark.parametrize("configure", [
    {}, {"restart_base": 1}, {"restart_base": 1, "branch": "letter"}, {"restart_base": 2, "learn": 1},
    {"restart_base": 1, "learn": 2, "seed": 3}, {"restart_base": 0},
], ids=["default", "restarts", "letters", "learn1", "learn2", "no-restarts"])
def test_a_proof_names_slots_that_alone_cannot_be_filled(configure):
    """Slot provenance is sound: the slots a proof says it used have no fill (independent enumeration),
    with restarts and their nogoods, letter branching and learning at every failure."""
    smaller = 0
    for problem in INSTANCES:
        code, used, _ = tracked_proof(problem, **dict(configure))
        assert code == kernel.EXHAUSTED
        assert used and not brute_fillable(problem, used), [problem.slots[s].name for s in used]
        smaller += len(used) < len(problem.slots)
    assert smaller > 0  # the proofs do name fewer slots than they were given on some of these


def test_tracking_does_not_change_the_search():
    for problem in INSTANCES[:10]:
        runs = []
        for track in (False, True):
            engine = bit_search(problem, track_slots=track)
            if engine.is_consistent:
                engine.configure(seed=1, restart_base=2, noise=0.2, score_weight=0.05)
                while engine.search(1.0) == kernel.RUNNING:
                    pass
            runs.append(engine.stats)
        assert runs[0] == runs[1]
        assert bit_search(problem).used_slot_ids() is None  # no provenance unless asked
