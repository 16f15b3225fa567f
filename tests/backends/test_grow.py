"""Fill region by region (`xwcp.backends.grow`): rings of crossings from a start slot, and answers that agree with brute force."""

from __future__ import annotations

import random
import threading

from tests.backends.test_backends import SMALL_PAIRS, brute_force_fills
from tests.backends.tiny import has_fill
from xwcp.backends import grow
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.model import parse_grid
from xwcp.words.wordlist import words_from_pairs

# one failure of the whole-grid probe, then one slot more per step: tiny grids take the region-by-region path
GROW_NOW = {"probe_fails": 1, "grow_step": 1}


def small_problem(text, pairs=SMALL_PAIRS):
    return compile_problem(parse_grid(text), words_from_pairs(pairs), min_score=0)


def test_ring_order_walks_crossings_breadth_first_then_adds_the_rest():
    # 1A is crossed by 2D and 3D, which cross 4A and 5A; 6A (bottom row) crosses nothing
    problem = small_problem("...\n#..\n#..\n##.\n..#\n")
    order = ring_order_names(problem, problem.slot_by_name("1A").id)
    assert sorted(order) == sorted(slot.name for slot in problem.slots)  # every slot once
    assert order[0] == "1A" and set(order[1:3]) == {"2D", "3D"} and set(order[3:5]) == {"4A", "5A"}
    assert order[-1] == unreachable_name(problem, "1A") == "6A"
    assert ring_order_names(problem, problem.slot_by_name("6A").id)[0] == "6A"


def ring_order_names(problem, start_id):
    return [problem.slots[s].name for s in grow.ring_order(problem, start_id)]


def crossing_names(problem, name):
    slot_id = problem.slot_by_name(name).id
    return {problem.slots[o].name for o in problem.cross_slot[slot_id] if o >= 0}


def unreachable_name(problem, name):
    reached, todo = {name}, [name]
    while todo:
        for other in crossing_names(problem, todo.pop()):
            if other not in reached:
                reached.add(other)
                todo.append(other)
    (alone,) = {slot.name for slot in problem.slots} - reached
    return alone


def test_region_by_region_fills_a_small_grid():
    problem = small_problem("...\n...\n...\n")
    result = grow.fill(problem, Limits(time_limit_s=10, extra=GROW_NOW))
    assert result.status is FillStatus.FILLED and result.backend == "grow"
    assert check_fill(problem, result.entries) == []
    assert result.stats.extra["grow_asks"] == len(problem.slots)  # one slot more per ask, all filled
    assert result.stats.extra["grow_attempts"] == 1


def test_grow_agrees_with_brute_force_on_tiny_grids():
    n_by_outcome = {}
    for seed in range(30):
        rng = random.Random(300 + seed)
        grid = parse_grid(
            rng.choice(["...\n.#.\n...\n", "....\n....\n", "..#\n...\n#..\n", "...\n...\n", "...\n...\n...\n"])
        )
        words = sorted(
            {"".join(rng.choice("ABC") for _ in range(rng.randint(2, 4))) for _ in range(rng.randint(20, 40))}
        )
        problem = compile_problem(grid, words_from_pairs(words), min_score=0)
        result = grow.fill(problem, Limits(time_limit_s=10, seed=seed, extra=GROW_NOW))
        assert result.status is (FillStatus.FILLED if has_fill(problem) else FillStatus.UNFILLABLE), seed
        if result.status is FillStatus.FILLED:
            assert check_fill(problem, result.entries) == []
        outcome = (result.status, "grow_asks" in result.stats.extra)
        n_by_outcome[outcome] = n_by_outcome.get(outcome, 0) + 1
    # region by region both ways (not only the probe or the root's arc consistency)
    assert n_by_outcome.get((FillStatus.FILLED, True), 0) >= 3, n_by_outcome
    assert n_by_outcome.get((FillStatus.UNFILLABLE, True), 0) >= 3, n_by_outcome


def test_an_abort_before_the_regions_gives_aborted():
    abort = threading.Event()
    abort.set()
    result = grow.fill(small_problem("...\n...\n...\n"), Limits(abort=abort, extra=GROW_NOW))
    assert result.status is FillStatus.ABORTED and result.reason == "aborted by the caller"


def test_counting_hands_over_to_backtrack_under_its_own_name():
    result = grow.fill(small_problem("...\n.#.\n...\n"), Limits(count=0))
    assert result.backend == "grow"
    assert result.n_fills == len(brute_force_fills(("...", ".#.", "..."), [w for w, _ in SMALL_PAIRS]))
