"""The analysis jobs on other alphabets (issue 36): heat map, domains and suggestions on a Russian grid, the core
of a Spanish grid, `--quality` on cpsat, each checked against an arc consistency computed here."""

from __future__ import annotations

import itertools

from tests.backends.alphabets import pack, planted
from tests.backends.test_backends import SPANISH_CORNER, brute_force_fills, spanish_corner
from tests.helpers import _white_runs, fill_violations
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits
from xwcp.library import jobs
from xwcp.model import make_grid
from xwcp.search.quality.run import fill_quality
from xwcp.words.wordlist import words_from_pairs


def slots_of(cells, width):
    """Every slot as its cell indices: runs of two or more white cells, across then down (found here)."""
    height = len(cells) // width
    out = []
    for r in range(height):
        out += [[r * width + c for c in range(a, b)] for a, b in _white_runs(cells[r * width : (r + 1) * width])]
    for c in range(width):
        out += [[r * width + c for r in range(a, b)] for a, b in _white_runs(cells[c::width])]
    return out


def arc_consistent(cells, width, words, allow_dupes=False):
    """{slot cells (tuple): live words}: plain AC-3 over the slots (pattern, crossing letters, and a slot down
    to one word taking it from the others), independent of xwcp's kernels."""
    live = {}
    for slot in slots_of(cells, width):
        live[tuple(slot)] = {
            w
            for w in words
            if len(w) == len(slot) and all(cells[c] in ".#" or cells[c] == ch for c, ch in zip(slot, w))
        }
    changed = True
    while changed:
        changed = False
        for slot, other in itertools.permutations(live, 2):
            shared = set(slot) & set(other)
            for cell in shared:
                letters = {w[other.index(cell)] for w in live[other]}
                kept = {w for w in live[slot] if w[slot.index(cell)] in letters}
                if kept != live[slot]:
                    live[slot], changed = kept, True
            if not allow_dupes and len(live[other]) == 1 and len(slot) == len(other) and live[other] <= live[slot]:
                live[slot] = live[slot] - live[other]
                changed = True
    return live


def test_heat_map_domains_and_suggestions_on_a_russian_grid():
    ru = pack("ru")
    problem, before, _, listed = planted(ru, ("....", "....", "....", "...."), seed=5, n_decoys=60)
    live = arc_consistent(before, 4, listed)
    assert all(live.values())
    heat = jobs.heatmap(problem)
    assert heat.is_consistent and heat.json["n_letters"] == 32
    forced = {(f.row, f.col): f.letter for f in heat.forced}
    for cell in range(16):
        slot = next(s for s in live if cell in s)  # the across slot: every cell of this grid has one
        letters = {w[slot.index(cell)] for w in live[slot]}
        assert heat.counts[cell // 4][cell % 4] == len(letters), cell
        if before[cell] == "." and len(letters) == 1:
            assert forced[(cell // 4, cell % 4)] == letters.pop()
    domains = jobs.domains(problem)
    for slot in problem.slots:
        assert {word for word, _ in domains[slot.name]} == live[tuple(slot.cells)], slot.name
    from xwcp.analysis.questions import domains_report
    from xwcp.render.questions_json import domains_json

    report = domains_json(domains_report(problem, k=5))
    for cell in range(16):
        slot = next(s for s in live if cell in s)
        letters = {w[slot.index(cell)] for w in live[slot]}
        assert report["cells"][cell // 4][cell % 4] == "".join(ch for ch in ru.chars if ch in letters), cell
    assert all(
        w["word"] in live[tuple(problem.slot_by_name(s["id"]).cells)] for s in report["slots"] for w in s["words"]
    )
    suggestions = jobs.suggest(problem, "1A", k=5)
    assert suggestions and all(s.word in live[tuple(problem.slot_by_name("1A").cells)] for s in suggestions)
    assert all(not ch.isascii() for s in suggestions for ch in s.word)


def test_the_core_of_a_spanish_grid_is_the_corner_that_clashes():
    es, problem = spanish_corner()
    assert brute_force_fills(SPANISH_CORNER, [w for w in ["ABCÑ", "DEFO", "GHIÑ", "CAÑA", "CAÑE", "ÑOÑO"]]) == set()
    bottom = next(s.name for s in problem.slots if s.cells == (12, 13, 14, 15))
    right = next(s.name for s in problem.slots if s.cells == (3, 7, 11, 15))
    for backend in ("backtrack", "cpsat"):
        core = jobs.find_core(problem, backend=backend)
        assert core is not None and set(core.slots) == {bottom, right}, backend
    heat = jobs.heatmap(problem)
    assert not heat.is_consistent and set(heat.core.slots) == {bottom, right}


def test_quality_on_cpsat_fills_a_spanish_grid_at_the_best_floor():
    # every fill of this 3x3 by brute force, then the best floor (lowest entry score) any of them has: the
    # quality search on cpsat must reach it, with a fill checked cell by cell
    es = pack("es")
    _, before, planted_cells, listed = planted(es, ("...", "...", "..."), seed=11, n_decoys=10)
    scored = [(w, 30 + (7 * i) % 70) for i, w in enumerate(listed)]
    score_by_word = dict(scored)
    problem = compile_problem(make_grid(3, 3, before), words_from_pairs(scored, alphabet=es), min_score=0)
    rows = tuple("".join(before[r * 3 : (r + 1) * 3]) for r in range(3))
    fills = brute_force_fills(rows, listed)
    assert fills
    best_floor = max(min(score_by_word[w] for w in _entries(f)) for f in fills)
    result, quality = fill_quality(problem, "cpsat", Limits(time_limit_s=30))
    assert result.status is FillStatus.FILLED and quality is not None
    cells = list(result.grid(problem).cells)
    assert fill_violations(es, before, cells, 3, listed) == []
    assert quality.min_score == best_floor == min(score_by_word[w] for w in result.entries)


def _entries(rows):
    return list(rows) + ["".join(row[c] for row in rows) for c in range(len(rows[0]))]
