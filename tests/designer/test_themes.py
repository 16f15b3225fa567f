"""Theme entries and where they may go (xwcp/designer/themes.py): one-line errors, `--at` positions, symmetric images,
the plan that pairs them."""

from __future__ import annotations

import pytest

pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

from tests.designer.designs import A, D  # noqa: E402
from xwcp.base.errors import InputError  # noqa: E402
from xwcp.designer.rules import Rules, Symmetry  # noqa: E402
from xwcp.designer.themes import Placement, Theme, plan_themes, read_themes  # noqa: E402

RULES_15 = Rules(15, 15)


@pytest.mark.parametrize(
    "themes, at, needle",
    [
        ([], [], "no theme entry"),
        (["ABCDEFGHIJKLMNOP"], [], "has 16 letters"),
        (["AB"], [], "3 or more"),
        (["HELLO", "hello"], [], "given twice"),
        (["H3LLO"], [], "letters A-Z"),
        ([], ["HELLO=1,12,A"], "does not fit"),
        ([], ["HELLO=1,1"], "'WORD=ROW,COL,A' (rows and columns from 1)"),  # the library's spelling, as at="..."
        ([], ["HELLO=x,1,A"], "whole numbers"),
        ([], ["HELLO=1,1,A", "HELLO=2,1,A"], "given twice"),
        ([], ["HELLO=1,1,A", "WORLD=1,1,D"], "different letters"),
        ([], ["HELLO=1,1,A", "WORLD=1,6,A"], "run into each other"),
        ([], ["HELLO=8,1,A", "WORLD=8,10,A"], "run into each other"),  # HELLO's image is row 8, columns 11-15
        ([], ["HELLOWORLD=8,1,A"], "runs into its own symmetric image"),
    ],
)
def test_bad_themes_are_one_line_errors(themes, at, needle):
    with pytest.raises(InputError) as info:
        read_themes(themes, at, RULES_15)
    assert needle in str(info.value)
    assert "\n" not in str(info.value)


def test_at_positions_count_from_one_and_add_their_word():
    themes = read_themes(["SPEAKOFTHEDEVIL"], ["HELLO=3,2,D", "HEAR=1,1,A"], RULES_15)
    assert [t.word for t in themes] == ["SPEAKOFTHEDEVIL", "HELLO", "HEAR"]
    assert themes[1].at == Placement(2, 1, D, 5)
    assert themes[1].at.cells(15) == (31, 46, 61, 76, 91)
    # crossing --at entries that agree on the shared letter are fine
    read_themes([], ["HEAR=1,1,A", "HELLO=1,1,D"], RULES_15)


def test_placement_images():
    rules = Rules(15, 15)
    assert Placement(2, 0, A, 12).image(rules) == Placement(12, 3, A, 12)
    assert Placement(7, 2, A, 11).image(rules) == Placement(7, 2, A, 11)  # its own image: central
    assert Placement(0, 3, D, 9).image(rules) == Placement(6, 11, D, 9)
    mirror = Rules(15, 15, Symmetry.MIRROR)
    assert Placement(0, 3, D, 9).image(mirror) == Placement(0, 11, D, 9)


def test_plan_pairs_equal_lengths_and_centres_an_odd_one():
    themes = tuple(Theme(w) for w in ["ESCAPEHAT", "THEWICKEDWIT", "HELLSKITTEN", "PITTINGCOACH", "BITPLEASE"])
    plan = plan_themes(themes, RULES_15)
    assert set(plan.pairs) == {(1, 3), (0, 4)} and plan.central == 2 and plan.free == ()
    plan = plan_themes(tuple(Theme(w) for w in ["ABCDEFGHIJ", "ABCDEFGHIJKL"]), RULES_15)
    assert plan.pairs == () and plan.central is None and plan.free == (0, 1)  # even lengths cannot be central
    assert plan_themes(themes, Rules(15, 15, Symmetry.NONE)).free == (0, 1, 2, 3, 4)


def test_themes_are_read_in_the_puzzles_language():
    from xwcp.model.alphabet import load_alphabet

    german, spanish = load_alphabet("de"), load_alphabet("es")
    assert [t.word for t in read_themes(["Ärger"], ["Öl=1,1,D"], RULES_15, german)] == ["AERGER", "OEL"]
    assert [t.word for t in read_themes(["año"], [], RULES_15, spanish)] == ["AÑO"]
    assert [t.word for t in read_themes(["año"], [], RULES_15)] == ["ANO"]  # English folds the tilde, as ever
    with pytest.raises(InputError, match="a word of Spanish .*letters"):
        read_themes(["дом"], [], RULES_15, spanish)
