"""The `clues` command: answers' help as text and JSON, --learn and --check, and its exit codes."""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import assert_one_line_error, write
from tests.helpers import run
from tests.library.test_clues import CLUED_XD
from tests.words.wordnet_fixture import write_wordnet


@pytest.fixture(autouse=True)
def wordnet(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("WNSEARCHDIR", str(write_wordnet(tmp_path / "wordnet")))


def test_text_shows_split_definitions_and_licence(capsys):
    code, out, err = run(["clues", "ICECREAMCONE", "geese"], capsys)
    assert code == 0 and not err
    assert out.splitlines()[0] == "ICECREAMCONE  (ICE CREAM CONE, from the dictionary)"
    assert "noun (form of goose): web-footed migratory aquatic bird" in out
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in out


def test_json(capsys):
    code, out, _ = run(["clues", "RAN", "--format", "json"], capsys)
    (answer,) = json.loads(out)["answers"]
    assert code == 0 and answer["answer"] == "RAN"
    assert {d["pos"] for d in answer["definitions"]} == {"verb"} and answer["definitions"][0]["form_of"] == "run"


def test_limit_cuts_the_definitions(capsys):
    code, out, _ = run(["clues", "RUN", "--limit", "1"], capsys)
    assert code == 0 and "... 2 more" in out


def test_learn_then_recall_and_check(tmp_path, capsys):
    puzzle = write(tmp_path, "old.xd", CLUED_XD)
    code, out, _ = run(["clues", "--learn", str(puzzle), "CAB", "--check", str(puzzle)], capsys)
    assert code == 0
    assert "6 new clues remembered" in out and "yours: Yellow cab" in out
    assert "1A: the clue's word 'cab' gives away the answer CAB" in out


def test_bad_input_exits_2_with_one_line(tmp_path, capsys):
    code, _, err = run(["clues", "12"], capsys)
    assert code == 2
    assert_one_line_error(err, "no letters")
    code, _, err = run(["clues"], capsys)
    assert code == 2 and "ANSWER" in err
    code, _, err = run(["clues", "--check", str(tmp_path / "missing.xd")], capsys)
    assert code == 2
    assert_one_line_error(err, "missing.xd")


def test_check_command_adds_clue_notes(tmp_path, capsys):
    puzzle = write(tmp_path, "new.xd", CLUED_XD)
    code, out, _ = run(["check", str(puzzle), "--format", "json"], capsys)
    assert code == 0
    assert json.loads(out)["clues"]["notes"][0]["slots"] == ["1A"]
