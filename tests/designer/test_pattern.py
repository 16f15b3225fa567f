"""The block pattern as a CP-SAT model (xwcp/designer/pattern.py): the legal lines, every pattern keeps the rules
and places the themes; cuts, exclusions and differences hold; disconnected patterns are cut.
"""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

from tests.designer.designs import A, D  # noqa: E402
from xwcp.base.types import FillStatus  # noqa: E402
from xwcp.designer.pattern import Pattern, PatternModel, line_patterns, white_components  # noqa: E402
from xwcp.designer.rules import Rules, Style, Symmetry, check_pattern  # noqa: E402
from xwcp.designer.themes import Placement, Theme, plan_themes, read_themes  # noqa: E402
from xwcp.model import BLOCK, Grid, find_slots  # noqa: E402


def brute_line_patterns(n: int, style: Style, max_block_run: int | None) -> set[tuple[int, ...]]:
    out = set()
    for bits in itertools.product((0, 1), repeat=n):
        text = "".join("#" if b else "." for b in bits)
        runs = [len(r) for r in text.split("#") if r]
        if any(not (r >= 3 or (style is Style.BRITISH and r == 1)) for r in runs):
            continue
        if max_block_run is not None and "#" * (max_block_run + 1) in text:
            continue
        out.add(bits + (sum(r >= 3 for r in runs),))
    return out


@pytest.mark.parametrize("n", [3, 4, 7, 10])
@pytest.mark.parametrize("style, max_block_run", [(Style.AMERICAN, None), (Style.AMERICAN, 3), (Style.BRITISH, None)])
def test_line_patterns_are_exactly_the_legal_lines(n, style, max_block_run):
    patterns = line_patterns(n, style, max_block_run)
    assert len(patterns) == len(set(patterns))
    assert set(patterns) == brute_line_patterns(n, style, max_block_run)


@pytest.mark.parametrize("n", [3, 8, 15, 21])
@pytest.mark.parametrize("style, max_block_run", [(Style.AMERICAN, None), (Style.AMERICAN, 3), (Style.BRITISH, None)])
def test_line_patterns_are_counted_without_listing(n, style, max_block_run):
    from xwcp.designer.pattern import n_line_patterns

    assert n_line_patterns(n, style, max_block_run) == len(line_patterns(n, style, max_block_run))


@pytest.mark.parametrize("connectivity", ["lazy", "flow"])
def test_clause_model_for_long_lines_and_flow_connectivity(monkeypatch, connectivity):
    """Lines too long for a table are modelled by clauses (forced here on an 11x11): the patterns keep the
    same rules, block runs and entry counts included; the flow keeps them connected as the lazy cuts do."""
    from xwcp.designer import pattern as pattern_module

    monkeypatch.setattr(pattern_module, "LINE_TABLE_MAX", 0)
    rules = Rules(11, 11, max_words=48, min_words=36, max_blocks=30, max_fill_length=7, max_block_run=3)
    themes = read_themes(["STARGAZER"], [], rules)
    model = PatternModel(rules, themes, plan_themes(themes, rules), connectivity=connectivity)
    for seed in range(3):
        status, pattern = model.next_pattern(60, seed)
        assert status is FillStatus.FILLED
        assert check_pattern(pattern.grid(rules, themes), rules, ["STARGAZER"]) == []
        model.exclude(pattern)


def test_line_patterns_of_a_15x15():
    assert len(line_patterns(15, Style.AMERICAN)) == 798
    assert len(line_patterns(15, Style.AMERICAN, 3)) == 451


def model_for(rules: Rules, words_: list[str], at=()) -> tuple[PatternModel, tuple[Theme, ...]]:
    themes = read_themes(words_, at, rules)
    return PatternModel(rules, themes, plan_themes(themes, rules)), themes


@pytest.mark.parametrize("symmetry", list(Symmetry))
def test_every_pattern_keeps_the_rules_and_places_the_themes(symmetry):
    rules = Rules(11, 11, symmetry, max_words=48, min_words=36, max_blocks=30, max_fill_length=7, max_block_run=3)
    model, themes = model_for(rules, ["STARGAZER", "ORBIT", "COMET"])
    for seed in range(4):
        status, pattern = model.next_pattern(30, seed)
        assert status is FillStatus.FILLED
        grid = pattern.grid(rules, themes)
        assert check_pattern(grid, rules, [t.word for t in themes]) == []
        model.exclude(pattern)


def test_theme_pairs_are_images_and_parallel_themes_keep_apart():
    rules = Rules(15, 15, max_words=78, min_words=74, max_fill_length=8, max_block_run=3)
    model, themes = model_for(rules, ["SPEAKOFTHEDEVIL", "SITONTHEFENCE", "STAYTHECOURSE", "OBEDIENCESCHOOL"])
    for seed in range(3):
        status, pattern = model.next_pattern(60, seed)
        assert status is FillStatus.FILLED
        p = pattern.placements
        assert p[0].image(rules) == p[3] and p[1].image(rules) == p[2]
        rows = sorted(x.row for x in p)
        assert all(b - a >= 3 for a, b in zip(rows, rows[1:]))  # all four overlap in columns
        model.exclude(pattern)


def test_a_free_theme_s_image_may_be_longer_than_the_cap():
    # a 10-letter theme has no partner: its symmetric image is an ordinary 10-letter entry, allowed past the cap
    rules = Rules(11, 11, max_words=60, max_blocks=40, max_fill_length=5)
    model, themes = model_for(rules, ["STARGAZERS", "ASTEROIDS"])
    assert model.plan.central == 1 and model.plan.free == (0,)
    status, pattern = model.next_pattern(30, 0)
    assert status is FillStatus.FILLED
    grid = pattern.grid(rules, themes)
    assert check_pattern(grid, rules, ["STARGAZERS", "ASTEROIDS"]) == []
    image = frozenset(rules.image(c) for c in pattern.placements[0].cells(11))
    assert image in {frozenset(s.cells) for s in find_slots(grid)}


def test_at_fixes_a_placement():
    rules = Rules(11, 11, max_words=44, max_blocks=24)
    model, themes = model_for(rules, ["STARGAZER"], at=["LENS=1,1,D"])
    status, pattern = model.next_pattern(30, 0)
    assert status is FillStatus.FILLED and pattern.placements[1] == Placement(0, 0, D, 4)
    assert "".join(pattern.grid(rules, themes).cells[c] for c in (0, 11, 22, 33)) == "LENS"


def test_cut_excludes_the_runs_with_those_letters_at_every_translation():
    rules = Rules(11, 11, max_words=44, max_blocks=24, max_fill_length=7)
    model, themes = model_for(rules, ["STARGAZER"])
    status, pattern = model.next_pattern(30, 0)
    grid = pattern.grid(rules, themes)
    slots = find_slots(grid)
    crossing = [s for s in slots if s.direction is D and any(grid.cells[c].isalpha() for c in s.cells)][:2]
    runs = [s.cells for s in crossing]
    letters = {c: grid.cells[c] for run in runs for c in run if grid.cells[c].isalpha()}
    assert model.cut_runs(runs, letters) >= 1

    def has_core(blocks: frozenset[int], letter_by_cell: dict[int, str], dr: int, dc: int) -> bool:
        def moved(c):
            return (c // 11 + dr) * 11 + c % 11 + dc

        rows_ = [c // 11 + dr for run in runs for c in run]
        cols_ = [c % 11 + dc for run in runs for c in run]
        if min(rows_) < 0 or max(rows_) > 10 or min(cols_) < 0 or max(cols_) > 10:
            return False
        for cells_ in runs:
            cells = [moved(c) for c in cells_]
            if any(c in blocks for c in cells):
                return False
            before, after = cells[0] - 11, cells[-1] + 11
            if (before >= 0 and before not in blocks) or (after < 121 and after not in blocks):
                return False
        return all(letter_by_cell.get(moved(c)) == x for c, x in letters.items())

    for seed in range(1, 6):
        status, found = model.next_pattern(30, seed)
        assert status is FillStatus.FILLED
        g = found.grid(rules, themes)
        letter_by_cell = {c: x for c, x in enumerate(g.cells) if x.isalpha()}
        assert not any(has_core(found.blocks, letter_by_cell, dr, dc) for dr in range(-10, 11) for dc in range(-10, 11))
        model.exclude(found)


def test_differ_keeps_later_patterns_apart():
    rules = Rules(11, 11, max_words=44, max_blocks=24, max_fill_length=7)
    model, themes = model_for(rules, ["STARGAZER"])
    _, first = model.next_pattern(30, 0)
    model.differ(first, 10)
    for seed in range(1, 4):
        _, later = model.next_pattern(30, seed)
        assert len(first.blocks ^ later.blocks) >= 10


def test_no_pattern_is_proven():
    # three 11-letter themes cannot keep 3 rows apart in a 6-row grid
    rules = Rules(11, 6, max_words=40, max_blocks=30)
    model, _ = model_for(rules, ["ABCDEFGHIJK", "BCDEFGHIJKL", "CDEFGHIJKLM"])
    assert model.next_pattern(30, 0) == (FillStatus.UNFILLABLE, None)


def test_disconnected_patterns_are_cut_lazily():
    rules = Rules(7, 7, Symmetry.NONE, max_words=30, max_blocks=20)
    model, themes = model_for(rules, ["ABC"], at=["ABC=1,1,A"])
    # a wall of blocks down column 4, but for row 4, whose cell then has a 1-letter down run: it must be a
    # block too, so every pattern is split in two (the right side cannot be all blocks: 21 cells > 20)
    for row in (0, 1, 2, 4, 5, 6):
        model.model.add(model.B(row * 7 + 3) == 1)
    split = Grid(7, 7, tuple("#" if c % 7 == 3 else "." for c in range(49)))
    assert len(white_components(frozenset(c for c in range(49) if split.cells[c] == BLOCK), rules)) == 2
    assert model.next_pattern(60, 0) == (FillStatus.UNFILLABLE, None)
    assert model.stats.n_connect_cuts >= 1


def test_pattern_grid_writes_the_theme_letters():
    rules = Rules(5, 5)
    pattern = Pattern(frozenset({0, 24}), (Placement(2, 0, A, 5),))
    assert pattern.grid(rules, (Theme("HEART"),)).rows == ["#....", ".....", "HEART", ".....", "....#"]
