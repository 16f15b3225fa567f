"""`xwcp.clues`, `xwcp.check_clues`, `xwcp.remember_clues`: typed answers built from the memory, WordNet and lists."""

from __future__ import annotations

import pytest

import xwcp
from tests.words.wordnet_fixture import write_wordnet
from xwcp.words import dictionary as dictionary_module
from xwcp.words.phrases import SplitSource

CLUED_XD = """Title: Clued


CAB
ORE
WET


A1. Yellow cab ~ CAB
A4. Mineral source ~ ORE
A5. Damp ~ WET

D1. Dairy animal ~ COW
D2. Exist ~ ARE
D3. Place a stake ~ BET
"""


@pytest.fixture
def wordnet(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("WNSEARCHDIR", str(write_wordnet(tmp_path / "wordnet")))


def test_clues_answer_with_definitions_split_and_licence(wordnet):
    help_ = xwcp.clues("ice cream cone")
    assert isinstance(help_, xwcp.ClueHelp)
    assert help_.answer == "ICECREAMCONE" and help_.memory == ()
    assert [d.text for d in help_.definitions] == ["ice cream in a crisp conical wafer"]
    assert help_.split is not None and help_.split.words == ("ICE", "CREAM", "CONE")
    assert help_.licence is not None and "Princeton University" in help_.licence.notice
    data = help_.as_dict()
    assert data["split"] == {"words": ["ICE", "CREAM", "CONE"], "source": "dictionary"}
    assert data["licence"]["name"] == "WordNet 3.0 licence"
    assert "WordNet 3.0 Copyright" in help_.text()


def test_the_lists_spacing_gives_the_split(wordnet, tmp_path):
    listed = tmp_path / "mine.dict"
    listed.write_text("TOLD A LIE;60\nCARPET;50\n")
    split = xwcp.clues("TOLDALIE", words=listed).split
    assert split is not None and split.words == ("TOLD", "A", "LIE") and split.source is SplitSource.LIST


def test_remembered_clues_come_back_newest_first(wordnet, tmp_path):
    puzzle = tmp_path / "old.xd"
    puzzle.write_text(CLUED_XD)
    assert xwcp.remember_clues(puzzle) == 6
    assert xwcp.remember_clues(puzzle) == 0  # the same clues again are nothing new
    assert xwcp.clues("cab").memory == ("Yellow cab",)
    assert xwcp.clues("COW").memory == ("Dairy animal",)


def test_without_wordnet_one_note_and_the_rest_still_answers(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("WNSEARCHDIR", str(tmp_path / "none"))
    monkeypatch.setattr(dictionary_module, "SEARCH_DIRS", ())
    help_ = xwcp.clues("GEESE")
    assert help_.definitions == () and help_.licence is None
    assert len(help_.notes) == 1 and "wordnet-base" in help_.notes[0]


def test_bad_answers_are_input_errors(wordnet):
    with pytest.raises(xwcp.InputError, match="no letters"):
        xwcp.clues("123")
    with pytest.raises(xwcp.InputError, match="letters"):
        xwcp.clues("A" * 100)


def test_check_clues_of_a_puzzle_file(wordnet, tmp_path):
    puzzle = tmp_path / "new.xd"
    puzzle.write_text(CLUED_XD)
    checks = xwcp.check_clues(puzzle)
    assert checks.n_clues == 6
    assert [(n.issue.value, n.slots, n.word) for n in checks.notes] == [("answer-in-clue", ("1A",), "cab")]
    assert "1A" in checks.text()
