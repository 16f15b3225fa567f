"""Listed entries and Schrödinger cells through the engine: every backend and AC-3 agree with plain enumeration.

Small random grids get listed entries (a diagonal, a run of scattered cells) and sometimes a Schrödinger cell,
with a small random list over a few letters, so a cell in three or four slots is common and so are unfillable
grids. `brute_fillable` (tests/engine/test_kernel.py: plain enumeration over the slots' letter cells, no kernel
code) decides each; every fill is checked by `check_fill` and again by `grid_violations`, which reads the
filled grid's cells and finds the entries itself (runs of white cells, the grid's listed entries, a reading per
letter of each Schrödinger cell), sharing nothing with the compiler.
"""

from __future__ import annotations

import random

import pytest

from tests.engine.test_kernel import brute_fillable
from xwcp import compile_problem, words_from_pairs
from xwcp.backends import fill
from xwcp.base.types import FillStatus
from xwcp.engine.ac3 import propagate
from xwcp.engine.result import Limits, check_fill
from xwcp.model import BLOCK, EMPTY, Entry, Grid, make_grid, parse_grid

SHAPES = ["....\n....\n....\n....", "....#\n.....\n.....\n#....", ".....\n.....\n..#..\n.....\n....."]


def grid_entries(grid: Grid) -> list[list[int | tuple[int, int]]]:
    """Every entry of `grid` as its cells, read from the cells and `grid.entries` alone: an entry through
    Schrödinger cells twice, its cells there written (cell, 0) and (cell, 1) for the letter it reads."""
    width, height = grid.width, grid.height
    runs: list[list[int]] = []
    if not grid.entries_only:
        for line in [[r * width + c for c in range(width)] for r in range(height)] + [
            [r * width + c for r in range(height)] for c in range(width)
        ]:
            run: list[int] = []
            for cell in [*line, -1]:
                if cell >= 0 and grid.cells[cell] != BLOCK:
                    run.append(cell)
                    continue
                if len(run) >= 2:
                    runs.append(run)
                run = []
    runs += [list(entry.cells) for entry in grid.entries]
    out: list[list[int | tuple[int, int]]] = []
    for run in runs:
        if grid.pairs.isdisjoint(run):
            out.append(list(run))
        else:
            out += [[(c, k) if c in grid.pairs else c for c in run] for k in (0, 1)]
    return out


def grid_violations(before: Grid, after: Grid, words: set[str]) -> list[str]:
    """What a filled grid breaks, read off its cells: an entry that is no listed word, a word twice, a pre-filled
    letter changed, an open cell or an open letter of a Schrödinger cell."""
    bad = []
    for cell, (was, now) in enumerate(zip(before.cells, after.cells)):
        if (was == BLOCK) != (now == BLOCK):
            bad.append(f"cell {cell}: block changed")
        if now != BLOCK and (EMPTY in now or len(now) != (2 if cell in after.pairs else 1)):
            bad.append(f"cell {cell}: {now!r} is not filled")
        if was not in (BLOCK, EMPTY) and any(w not in (EMPTY, n) for w, n in zip(was, now)):
            bad.append(f"cell {cell}: pre-filled {was!r} became {now!r}")
    seen: set[str] = set()
    for entry in grid_entries(after):
        text = "".join(after.cells[c[0]][c[1]] if isinstance(c, tuple) else after.cells[c] for c in entry)
        if text not in words:
            bad.append(f"{entry} reads {text!r}, not a listed word")
        if text in seen:
            bad.append(f"{text!r} is used twice")
        seen.add(text)
    return bad


def random_variety_problem(rng: random.Random, index: int):
    """A SHAPES grid with one or two listed entries and maybe a Schrödinger cell, and a small random list."""
    base = parse_grid(SHAPES[index % len(SHAPES)])
    width = base.width
    white = [c for c, content in enumerate(base.cells) if content != BLOCK]
    diagonal = tuple(c for c in range(0, width * base.height, width + 1) if base.cells[c] != BLOCK)
    entries = [Entry("DIAG", diagonal)] if rng.random() < 0.7 and len(diagonal) >= 2 else []
    entries.append(Entry("ODD", tuple(rng.sample(white, rng.choice([3, 4])))))
    pairs = [rng.choice(white)] if rng.random() < 0.4 else []
    grid = make_grid(width, base.height, base.cells, entries=entries, pairs=pairs)
    lengths = {len(e.cells) for e in entries} | {base.height, width, width - 1, base.height - 1}
    letters = "ABC"[: rng.choice([2, 3])]
    words = {"".join(rng.choice(letters) for _ in range(n)) for n in lengths for _ in range(rng.randint(10, 30))}
    return grid, compile_problem(grid, words_from_pairs(sorted(words)), min_score=0), words


@pytest.mark.parametrize(
    ("backend", "extra"),
    [("backtrack", {"branch": "word"}), ("backtrack", {"branch": "letter"}), ("cpsat", {}), ("sat", {})],
)
def test_backends_agree_with_enumeration_on_listed_entries_and_schrodinger_cells(backend, extra):
    rng = random.Random(47)
    statuses = []
    multi = 0
    for index in range(24):
        grid, problem, words = random_variety_problem(rng, index)
        multi += not problem.is_pairwise
        fillable = brute_fillable(problem, [s.id for s in problem.slots])
        result = fill(problem, backend, Limits(seed=index, time_limit_s=30, extra=extra))
        assert result.status is (FillStatus.FILLED if fillable else FillStatus.UNFILLABLE), (index, grid.render())
        if result.status is FillStatus.FILLED:
            assert check_fill(problem, result.entries) == []
            filled = problem.grid_with_letters(
                {c: ch for slot, text in zip(problem.slots, result.entries) for c, ch in zip(slot.cells, text)}
            )
            assert grid_violations(grid, filled, words) == []
        statuses.append(result.status)
    assert FillStatus.FILLED in statuses and FillStatus.UNFILLABLE in statuses
    assert multi >= 12


def test_arc_consistency_keeps_every_fill_and_agrees_on_the_letters_of_a_cell():
    rng = random.Random(7)
    kept = 0
    for index in range(30):
        grid, problem, _ = random_variety_problem(rng, index)
        prop = propagate(problem)
        fillable = brute_fillable(problem, [s.id for s in problem.slots])
        if not prop.is_consistent:
            assert not fillable
            continue
        result = fill(problem, "backtrack", Limits(seed=0, time_limit_s=30))
        if result.status is not FillStatus.FILLED:
            continue
        for slot, text in zip(problem.slots, result.entries):
            word_id = problem.words.word_id(text)
            assert word_id is not None and prop.domains[slot.id][word_id], (slot.name, text)
            kept += 1
        # at the fixpoint every slot through a letter cell allows the same letters there
        for slot in problem.slots:
            for pos, partners in enumerate(problem.partners[slot.id]):
                mine = prop.counts_by_slot[slot.id][pos] > 0
                for other, other_pos in partners:
                    assert (mine == (prop.counts_by_slot[other][other_pos] > 0)).all(), (index, slot.name)
    assert kept > 0


def test_ordinary_grids_compile_to_the_same_crossing_arrays():
    """At an ordinary crossing each slot's partner is the other: the arrays every kernel has always read."""
    grid = parse_grid("....#\n.....\n.....\n#....")
    problem = compile_problem(grid, words_from_pairs(["ABCD", "ABCDE"]), min_score=0)
    assert problem.is_pairwise
    for x in problem.crossings:
        assert problem.slots[x.a].direction.letter == "A" and problem.slots[x.b].direction.letter == "D"
        assert problem.cross_slot[x.a][x.a_pos] == x.b and problem.cross_pos[x.a][x.a_pos] == x.b_pos
        assert problem.cross_slot[x.b][x.b_pos] == x.a and problem.cross_pos[x.b][x.b_pos] == x.a_pos
    assert len(problem.crossings) == sum(1 for c in grid.cells if c != BLOCK)  # every white cell is checked


def test_a_cell_in_three_slots_links_them_in_a_cycle():
    grid = parse_grid("; entry: D = 1,1 2,2 3,3\n...\n...\n...\n")
    problem = compile_problem(grid, words_from_pairs(["ABC"]), min_score=0)
    assert not problem.is_pairwise
    diagonal = problem.slot_by_name("d")
    assert diagonal is not None and diagonal.name == "D"
    # the centre cell: 4A pos 1 -> 2D pos 1 -> D pos 1 -> 4A pos 1
    across, down = problem.slot_by_name("4A"), problem.slot_by_name("2D")
    assert across is not None and down is not None
    assert (problem.cross_slot[across.id][1], problem.cross_pos[across.id][1]) == (down.id, 1)
    assert (problem.cross_slot[down.id][1], problem.cross_pos[down.id][1]) == (diagonal.id, 1)
    assert (problem.cross_slot[diagonal.id][1], problem.cross_pos[diagonal.id][1]) == (across.id, 1)
    assert set(problem.neighbours[diagonal.id]) == {s.id for s in problem.slots if s.id != diagonal.id}
