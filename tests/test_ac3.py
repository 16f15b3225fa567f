"""AC-3: the compiled fixpoint equals a plain set-based AC-3, proofs name the slot, edits are incremental."""
from __future__ import annotations

import random

import numpy as np
import pytest

from xwcp.ac3 import Propagator, propagate
from xwcp.analysis import heatmap_report
from xwcp.grid import EMPTY, parse_grid
from xwcp.problem import compile_problem
from xwcp.wordlist import words_from_pairs


def reference_ac3(problem):
    """Straightforward set-based AC-3 with the no-word-twice rule: {slot_id: set(words)} or None on wipeout."""
    domains = domains_as_sets(problem, problem.domains)
    if problem.conflicts:
        return None
    changed = True
    while changed:
        changed = False
        for x in problem.crossings:
            for a, ap, b, bp in ((x.a, x.a_pos, x.b, x.b_pos), (x.b, x.b_pos, x.a, x.a_pos)):
                letters = {w[bp] for w in domains[b]}
                keep = {w for w in domains[a] if w[ap] in letters}
                if keep != domains[a]:
                    domains[a] = keep
                    changed = True
        if not problem.allow_dupes:
            for slot in problem.slots:
                if len(domains[slot.id]) == 1:
                    (word,) = domains[slot.id]
                    for other in problem.slots:
                        if other.id != slot.id and word in domains[other.id]:
                            domains[other.id].discard(word)
                            changed = True
        if any(not d for d in domains.values()):
            return None
    return domains


def domains_as_sets(problem, masks):
    """{slot_id: set of words} from per-slot bool masks; a slot the user filled is its own entry."""
    out = {}
    for slot in problem.slots:
        if slot.id in problem.fixed_text_by_slot:
            out[slot.id] = {problem.fixed_text_by_slot[slot.id]}
        else:
            bucket = problem.words.bucket(slot.length)
            out[slot.id] = {bucket.text(int(w)) for w in np.nonzero(masks[slot.id])[0]}
    return out


def random_problem(rng: random.Random):
    width, height = rng.randint(3, 6), rng.randint(3, 6)
    while True:
        cells = ["#" if rng.random() < 0.2 else "." for _ in range(width * height)]
        for i in range(len(cells)):
            if cells[i] == "." and rng.random() < 0.12:
                cells[i] = rng.choice("ABCDE")
        text = "\n".join("".join(cells[r * width:(r + 1) * width]) for r in range(height))
        try:
            grid = parse_grid(text)
        except Exception:
            continue
        break
    alphabet = "ABCDE"[: rng.randint(2, 5)]
    words = {"".join(rng.choice(alphabet) for _ in range(rng.randint(2, 6))) for _ in range(rng.randint(20, 300))}
    return compile_problem(grid, words_from_pairs(sorted(words)), min_score=0, allow_dupes=rng.random() < 0.2)


@pytest.mark.parametrize("seed", range(300))
def test_fixpoint_equals_set_based_reference(seed):
    problem = random_problem(random.Random(seed))
    expected = reference_ac3(problem)
    prop = propagate(problem)
    if expected is None:
        assert not prop.is_consistent
        assert all(not d.any() for d in prop.domains)
        if prop.wipeout_slot is not None:
            assert_chain_is_causal(problem, prop)
        else:
            assert problem.conflicts and prop.reason == problem.conflicts[0]
    else:
        assert prop.is_consistent
        assert domains_as_sets(problem, prop.domains) == expected


def test_reference_agreement_is_not_vacuous():
    outcomes = [reference_ac3(random_problem(random.Random(seed))) is None for seed in range(300)]
    assert 30 < sum(outcomes) < 270  # both consistent and wiped-out cases are exercised


WOR_ZERO = "...Z\n...E\n...R\nWOR.\n"
FOUR_LETTER = ["WORD", "WORE", "WORK", "ZERO", "ABCZ", "DEFE", "GHIR", "ADGW", "BEHO", "CFIR"]


def test_wor_crossing_zer_empties_both_slots():
    problem = compile_problem(parse_grid(WOR_ZERO), words_from_pairs(FOUR_LETTER), min_score=0)
    prop = propagate(problem)
    row = problem.slot_by_name("7A")
    column = problem.slot_by_name("4D")
    assert problem.pattern(row.id) == "WOR." and problem.pattern(column.id) == "ZER."
    assert not prop.is_consistent
    assert prop.size(row.id) == 0 and prop.size(column.id) == 0
    assert prop.wipeout_slot in (row.id, column.id)
    assert "7A" in prop.reason or "4D" in prop.reason


def test_arc_consistency_is_not_one_step_lookahead():
    # QUI? crosses the down slot, whose foot crosses WES?. One step of look-ahead keeps WEST
    # (NEXT ends in T) and NEXT (it fits WES?), but no down word starts with T/P/Z, so AC-3
    # empties everything and offers neither.
    grid = parse_grid("QUI.\n###.\n###.\nWES.\n")
    problem = compile_problem(grid, words_from_pairs(["QUIT", "QUIP", "QUIZ", "NEXT", "WEST", "WEPT"]), min_score=0)
    bottom = problem.slot_by_name("3A")
    down = problem.slot_by_name("2D")
    bucket = problem.words.bucket(4)
    initial_bottom = {bucket.text(int(w)) for w in np.nonzero(problem.domains[bottom.id])[0]}
    assert "WEST" in initial_bottom
    # one step: WEST's crossing letter T is offered by NEXT in the down slot
    assert any(bucket.text(int(w))[3] == "T" for w in np.nonzero(problem.domains[down.id])[0])
    prop = propagate(problem)
    assert not prop.is_consistent
    assert prop.size(bottom.id) == 0 and prop.size(down.id) == 0


def test_spiral_of_crossings_reaches_every_slot():
    # A 7x7 spiral of seven slots, each crossing the next. The 7-letter top row can only be
    # ABCDEFG, which forces the next slot, and so on around the spiral, until the innermost
    # slot needs the word its neighbour already took: every slot ends up unfillable.
    grid_text = "\n".join([
        ".......",
        "######.",
        ".....#.",
        ".###.#.",
        ".#...#.",
        ".#####.",
        ".......",
    ])
    words = ["ABCDEFG", "GHIJKLM", "NOPQRSM", "XYZWN", "XVUTS", "SRQ"]
    problem = compile_problem(parse_grid(grid_text), words_from_pairs(words), min_score=0)
    assert len(problem.slots) == 7 and len(problem.crossings) == 6
    assert reference_ac3(problem) is None
    prop = propagate(problem)
    assert not prop.is_consistent
    assert all(prop.size(s.id) == 0 for s in problem.slots)
    assert_chain_is_causal(problem, prop)
    heat = heatmap_report(problem)
    assert heat["status"] == "unfillable"
    assert all(n == 0 for row in heat["cells"] for n in row if n is not None)
    # one word fewer in the chain's way and the spiral fills: AC-3 alone leaves one word per slot
    open_problem = compile_problem(parse_grid(grid_text), words_from_pairs(words + ["TUQ"]), min_score=0)
    solved = propagate(open_problem)
    assert solved.is_consistent
    assert [solved.size(s.id) for s in open_problem.slots] == [1] * 7


def assert_chain_is_causal(problem, prop):
    """The chain starts at the emptied slot, has no repeats, and each link crosses (or shares a length with) the next."""
    chain = prop.chain
    assert chain and chain[0] == prop.wipeout_slot
    assert problem.slots[chain[0]].name in prop.reason
    assert len(set(chain)) == len(chain)
    for a, b in zip(chain, chain[1:]):
        assert b in problem.cross_slot[a] or problem.slots[a].length == problem.slots[b].length


def test_heatmap_values_on_a_hand_checked_grid():
    # 2x2 open grid. Words: AB, CD (across candidates), AC, BD (down). All four are 2-letter,
    # so every slot may take any of them; AC-3 keeps only those fitting crossings.
    # Fills: rows AB/CD with columns AC/BD. Rows AC/BD with columns AB/CD. So each cell can
    # hold exactly one letter per fill; cell (0,0) is A in both fills -> forced.
    grid = parse_grid("..\n..\n")
    problem = compile_problem(grid, words_from_pairs(["AB", "CD", "AC", "BD"]), min_score=0)
    heat = heatmap_report(problem)
    assert heat["status"] == "consistent"
    # (0,0): A only; (0,1): B or C; (1,0): C or B; (1,1): D only
    assert heat["cells"] == [[1, 2], [2, 1]]
    assert {(f["row"], f["col"], f["letter"]) for f in heat["forced"]} == {(0, 0, "A"), (1, 1, "D")}


def test_heatmap_of_open_cells_is_26_with_a_rich_list():
    words = ["".join(p) for p in __import__("itertools").product("ABCDEFGHIJKLMNOPQRSTUVWXYZ", repeat=2)]
    problem = compile_problem(parse_grid("..\n..\n"), words_from_pairs(words), min_score=0)
    assert heatmap_report(problem)["cells"] == [[26, 26], [26, 26]]


@pytest.mark.parametrize("seed", range(40))
def test_incremental_edits_match_propagating_from_scratch(seed):
    rng = random.Random(1000 + seed)
    problem = random_problem(rng)
    editor = Propagator(problem)
    empty_cells = [c for c, ch in enumerate(problem.grid.cells) if ch == EMPTY
                   and any(c in s.cells for s in problem.slots)]
    letters: dict[int, str] = {}
    for _ in range(8):
        if letters and rng.random() < 0.35:
            cell = rng.choice(sorted(letters))
            del letters[cell]
            editor.erase(cell)
        else:
            free = [c for c in empty_cells if c not in letters]
            if not free:
                break
            cell = rng.choice(free)
            letters[cell] = rng.choice("ABCDE")
            editor.enter(cell, letters[cell])
        fresh = propagate(compile_problem(problem.grid.with_letters(letters), problem.words,
                                          min_score=problem.min_score, allow_dupes=problem.allow_dupes))
        snap = editor.snapshot()
        assert snap.is_consistent == fresh.is_consistent
        if fresh.is_consistent:
            for slot in problem.slots:
                assert np.array_equal(snap.domains[slot.id], fresh.domains[slot.id]), slot.name
