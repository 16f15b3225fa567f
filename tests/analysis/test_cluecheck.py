"""Clue checks: the answer in its own clue, a rare word two clues share, a clue too long for a .puz."""

from __future__ import annotations

from xwcp.analysis.cluecheck import (
    PUZ_MAX_CLUE_CHARS,
    ClueIssue,
    answer_echoes,
    check_clues,
    stem,
)
from xwcp.model import parse_grid
from xwcp.model.puzzle import Puzzle

COMMON = {"again": 5.5, "taxi": 4.5, "wager": 3.6, "exist": 4.6, "verse": 4.2, "sushi": 3.6}


def zipf(word: str) -> float:
    return COMMON.get(word, 2.0)


def puzzle(clues: dict[str, str]) -> Puzzle:
    return Puzzle(parse_grid("CAB\nARE\nBET"), clue_by_slot=clues)


def test_stems_meet():
    assert stem("runner") == stem("runs") == "run"
    assert stem("planes") == stem("plane") == stem("planed")
    assert stem("ring") == "ring"


def test_the_clue_checks_stem_as_the_stem_rule_does():
    """One stemmer for the fill's stem rule and the clue checks (`xwcp.words.stems`): NATIONAL meets NATION,
    which a light ending-stripper misses."""
    from xwcp.model.alphabet import ENGLISH
    from xwcp.words.stems import stems_for

    assert stem("national") == stem("nation") == stems_for(ENGLISH).stem("NATION")
    assert answer_echoes("NATION", "National park") == ["national"]
    assert answer_echoes("GENERAL", "Generally speaking") == ["generally"]


def test_answer_echoes():
    assert answer_echoes("RUNNER", "One who runs") == ["runs"]
    assert answer_echoes("CAB", "Taxi cab") == ["cab"]
    assert answer_echoes("ICECREAMCONE", "Cone of summer", ("ICE", "CREAM", "CONE")) == ["cone"]
    assert answer_echoes("ICECREAMCONE", "Ice cream cone") == ["ice cream cone"]
    assert answer_echoes("CAB", "Taxi") == []
    assert answer_echoes("ARE", "There are two") == []  # a stopword is no echo


def test_check_finds_each_kind():
    long_clue = "x" * (PUZ_MAX_CLUE_CHARS + 1)
    notes = check_clues(
        puzzle({"1A": "Yellow cab", "4A": "Exist", "5A": "Wager on a tapir", "1D": "Tapir's ride", "2D": long_clue}),
        zipf=zipf,
    )
    by_issue = {(n.issue, n.slots, n.word) for n in notes}
    assert by_issue == {
        (ClueIssue.ANSWER_IN_CLUE, ("1A",), "cab"),
        (ClueIssue.TOO_LONG_FOR_PUZ, ("2D",), ""),
        (ClueIssue.SHARED_RARE_WORD, ("1D", "5A"), "tapir"),  # in clue order
    }
    assert all(n.message.startswith(n.slots[0]) for n in notes)


def test_common_shared_words_and_clean_clues_pass():
    clean = {
        "1A": "Taxi",
        "4A": "Exist",
        "5A": "Wager",
        "1D": "Taxi, again",
        "2D": "Before, in verse",
        "3D": "Wager, again",
    }
    assert check_clues(puzzle(clean), zipf=zipf) == []


def test_open_entries_are_not_checked_for_the_answer():
    grid = Puzzle(parse_grid("CA.\nARE\nBET"), clue_by_slot={"1A": "Cab driver's cab"})
    assert check_clues(grid, zipf=zipf) == []
