"""The clue memory on disk: newest first, bounded per answer and in answers, a bad file named in one line."""

from __future__ import annotations

import json

import pytest

from xwcp.base.errors import InputError
from xwcp.words import cluememory


def test_newest_first_and_no_repeats(tmp_path):
    path = tmp_path / "clues.json"
    assert cluememory.remember([("cab", "Taxi"), ("CAB", "Yellow  ride"), ("cab", "Taxi")], path) == 2
    assert cluememory.recall("Cab", path) == ["Taxi", "Yellow ride"]  # spaces folded; a repeat moves to the front
    assert cluememory.recall("COW", path) == []


def test_bounds(tmp_path, monkeypatch):
    path = tmp_path / "clues.json"
    cluememory.remember([("ERA", f"clue {n}") for n in range(cluememory.PER_ANSWER + 3)], path)
    assert len(cluememory.recall("ERA", path)) == cluememory.PER_ANSWER
    monkeypatch.setattr(cluememory, "MAX_ANSWERS", 3)
    cluememory.remember([(word, "x") for word in ("ONE", "TWO", "THREE", "FOUR")], path)
    assert list(cluememory.read_memory(path)) == ["TWO", "THREE", "FOUR"]  # the least recently written went


def test_empty_answers_and_clues_are_skipped(tmp_path):
    path = tmp_path / "clues.json"
    assert cluememory.remember([("123", "Numbers"), ("ERA", "  ")], path) == 0
    assert cluememory.read_memory(path) == {}


def test_default_file_is_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_DATA_DIR", str(tmp_path / "data"))
    cluememory.remember([("ERA", "Age")])
    assert json.loads((tmp_path / "data" / "clues.json").read_text()) == {"ERA": ["Age"]}


@pytest.mark.parametrize("text", ["{not json", "[1, 2]"])
def test_a_bad_file_is_named(tmp_path, text):
    path = tmp_path / "clues.json"
    path.write_text(text)
    with pytest.raises(InputError, match="clues.json"):
        cluememory.recall("ERA", path)
