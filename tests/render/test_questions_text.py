"""xwcp/render/questions_text.py: the terminal text of the check, domains, suggest and heat-map answers, from
their typed reports (built by hand here, as xwcp.analysis.questions answers with them)."""

from __future__ import annotations

from xwcp.analysis.reports import (
    CheckReport,
    Consistency,
    DomainsReport,
    ForcedLetter,
    HeatmapReport,
    Label,
    RankedWord,
    SlotInfo,
    SlotWords,
    SuggestCounts,
    SuggestedWord,
    SuggestReport,
    UnlistedEntry,
    Verdict,
)
from xwcp.analysis.verify import How, Viability
from xwcp.model import grid_lines, parse_grid
from xwcp.render.questions_text import check_text, domains_text, heatmap_text, suggest_text
from xwcp.search.core import CoreReport


def heat(counts, letters, forced=(), *, status=Consistency.CONSISTENT, reason="", core=None, n_letters=26, grid=()):
    """A heat-map report of `counts` and `letters` (rows), `forced` as (row, col, letter)."""
    return HeatmapReport(
        status,
        reason,
        None,
        None,
        core,
        len(counts[0]),
        len(counts),
        n_letters,
        counts,
        letters,
        tuple(ForcedLetter(*f) for f in forced),
        list(grid),
    )


def check(verdict, *, reason="", unlisted=(), most=None, forced=(), fill=None):
    return CheckReport(
        verdict,
        Consistency.CONSISTENT,
        reason,
        tuple(UnlistedEntry(*u) for u in unlisted),
        None if most is None else SlotInfo(*most),
        tuple(ForcedLetter(*f) for f in forced),
        None,
        None,
        None,
        fill,
        0.0,
    )


KEY = "key: number = letters still possible, . = any (26), X = dead, =L entered, l (lower case) forced"


def test_domains_one_line_per_slot():
    slots = (
        SlotWords(SlotInfo("1A", "A..", 1234), (RankedWord("ABC", 50, 0.0), RankedWord("ACE", 50, 0.0))),
        SlotWords(SlotInfo("12D", "...", 0), ()),
    )
    data = DomainsReport(Consistency.CONSISTENT, "", None, slots, [], 0.0)
    assert domains_text(None, data).splitlines() == [
        "   1A A..               1,234  ABC ACE",
        "  12D ...                   0  ",
    ]
    data = DomainsReport(Consistency.UNFILLABLE, "12D has no word", None, slots, [], 0.0)
    assert domains_text(None, data).splitlines()[:2] == ["Unfillable: 12D has no word", ""]


def test_heatmap_cells_of_a_plain_grid():
    data = heat([[None, 26, 3], [0, 12, 1]], [[None, None, None], [None, None, "Q"]], [(0, 2, "E")])
    assert heatmap_text(data).splitlines() == [" ##  .  e", "  X 12 =Q", KEY]


def test_heatmap_of_another_alphabet_counts_its_own_letters_as_free():
    # Russian (32 letters): 32 is "any letter", 26 is just a number; the key says 32; a forced letter is lower-cased
    data = heat([[None, 32, 1], [26, 12, 1]], [[None, None, None], [None, None, "Ё"]], [(0, 2, "Ж")], n_letters=32)
    lines = heatmap_text(data).splitlines()
    assert lines[:2] == [" ##  .  ж", " 26 12 =Ё"]
    assert lines[2] == KEY.replace("(26)", "(32)")


def test_picture_legend_names_the_alphabets_free_count():
    from xwcp.render.picture import legend_lines

    assert "(32)" in legend_lines(heat([[None]], [[None]], n_letters=32))[0]
    assert "(26)" in legend_lines(heat([[None]], [[None]]))[0]


def test_heatmap_of_an_unfillable_grid_says_why_and_names_its_picture():
    data = heat(
        [[0]],
        [[None]],
        status=Consistency.UNFILLABLE,
        reason="1A has no word",
        core=CoreReport(("1A", "1D"), ((0, 0),), True, message="1A and 1D cannot both fit"),
    )
    assert heatmap_text(data, "heat.png").splitlines() == [
        "Unfillable: 1A has no word",
        "Why: 1A and 1D cannot both fit.",
        "  X",
        KEY,
        "picture: heat.png",
    ]


def test_heatmap_draws_bars_marks_and_rebus_cells_from_the_grid_lines():
    grid = parse_grid("(.)|.\n -\n[AB].\n")
    data = heat([[5, 7], [26, 26]], [[None, None], ["AB", None]], grid=grid_lines(grid))
    assert heatmap_text(data).splitlines() == [
        " (5)| 7",  # circled count; a bar between the two cells; columns 3 and 2 wide
        " ---",  # the bar under the circled cell: as wide as its column
        " =AB  .",  # the rebus shows all its letters
        KEY,
        "     | and - = bars, (n) circled, {n} shaded, =LETTERS a rebus cell",
    ]


def test_check_verdicts():
    assert check_text(check(Verdict.FILLABLE)) == "Fillable: a full fill exists (shown below)."
    assert check_text(check(Verdict.UNFILLABLE, reason="2D has no word")) == "Unfillable: 2D has no word"
    assert check_text(check(Verdict.UNFILLABLE)) == "Unfillable"
    assert check_text(check(Verdict.UNKNOWN)).startswith("Unknown: no dead end found by arc consistency")


def test_check_lists_unlisted_tightest_forced_and_the_fill():
    unlisted = [("1A", "ZZZ"), ("4A", "QQQ")]
    options = dict(most=("1D", "Z..", 12345), forced=[(0, 1, "E"), (2, 0, "S")], fill=["ZZZ", "QQQ"])
    assert check_text(check(Verdict.FILLABLE, unlisted=unlisted, **options)).splitlines() == [
        "Fillable: a full fill exists (shown below).",
        "Not in the word list (2 entries): 1A ZZZ, 4A QQQ",
        "Most constrained open slot: 1D Z.. (12,345 words)",
        "Forced letters: r1c2=E, r3c1=S",  # rows and columns from 1
        "",
        "Z Z Z",
        "Q Q Q",
    ]
    one = check(Verdict.FILLABLE, unlisted=unlisted[:1], **options)
    assert "Not in the word list (1 entry): 1A ZZZ" in check_text(one).splitlines()


def test_suggest_lists_words_with_score_fit_verdict_and_fill():
    words = (
        SuggestedWord("CAT", 60, 0.5, Label(Viability.VIABLE, How.SEARCH, 0.1, None, ["CAT", "ORE"])),
        SuggestedWord("CXQ", None, 0.0),
    )
    counts = SuggestCounts(3, 1, 1, 1, True, 1, 0, 0)
    data = SuggestReport(Consistency.CONSISTENT, "", False, SlotInfo("1A", "C..", 1), None, counts, words)
    assert suggest_text(data).splitlines() == [
        "1A C..: 3 match the pattern, 1 arc consistent, 1 survives propagation, 1 proven to fill, 0 dead ends",
        "  CAT              score  60  fit 0.50  viable",
        "      C A T",
        "      O R E",
        "  CXQ              score   -  fit 0.00",
    ]  # a word the user typed, not in the list
    data = SuggestReport(
        Consistency.UNFILLABLE,
        "4A has no word",
        False,
        SlotInfo("1A", "CAT", 2500),
        None,
        SuggestCounts(1, 0, 0, 0),
        (),
    )
    assert suggest_text(data).splitlines()[:2] == ["Unfillable: 4A has no word", "1A CAT: 2,500 words fit"]
