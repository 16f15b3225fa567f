"""The command line's per-slot filters, distinct stems and forbidden crossings: options, answers, exit codes."""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import TINY_GRID, TINY_LIST, assert_one_line_error, write
from tests.helpers import run
from xwcp.cli import inputs
from xwcp.cli.parser import build_parser

TWO_ROWS = "....\n####\n....\n"
STEM_LIST = "TIES;90\nTIED;80\nNOTE;40\n"


def _tiny(tmp_path):
    return write(tmp_path, "g.txt", TINY_GRID), write(tmp_path, "w.txt", TINY_LIST)


def test_filters_choose_the_fill(tmp_path, capsys):
    grid, words = _tiny(tmp_path)
    code, out, _ = run(["fill", grid, "--words", words, "--filter", "1A=+O", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["grid"][0] == "COW"
    code, out, _ = run(["fill", grid, "--words", words, "--filter", "1A=-O", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["grid"][0] == "CAB"
    code, out, _ = run(["fill", grid, "--words", words, "--filter", "1A=!CAB", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["grid"][0] == "COW"
    # 1A COW leaves 1D CAB (banned there) or COW (taken): unfillable, and the core search keeps the filters
    code, out, _ = run(["fill", grid, "--words", words, "--filter", "1A=~C.W", "--filter", "1D=!CAB"], capsys)
    assert code == 1 and out.startswith("Unfillable") and "1D" in out


def test_a_filter_no_word_passes_is_unfillable_naming_the_slot(tmp_path, capsys):
    grid, words = _tiny(tmp_path)
    code, out, _ = run(["fill", grid, "--words", words, "--filter", "1A=+Z"], capsys)
    assert code == 1 and "1A" in out


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("1A=~[", "not a regular expression"),
        ("1A=?O", "expected ~REGEX"),
        ("9A=+O", "no slot '9A'"),
        ("1A=@missing.txt", "no such filter word-list file"),
    ],
)
def test_a_bad_filter_is_exit_2_with_one_line(tmp_path, capsys, spec, needle):
    grid, words = _tiny(tmp_path)
    code, _, err = run(["fill", grid, "--words", words, "--filter", spec], capsys)
    assert code == 2
    assert_one_line_error(err, needle)


def test_the_filter_file_and_suggest(tmp_path, capsys):
    grid, words = _tiny(tmp_path)
    mine = write(tmp_path, "mine.txt", "cow\nbet\n")
    code, out, _ = run(["fill", grid, "--words", words, "--filter", f"1A=@{mine}", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["grid"][0] == "COW"
    code, out, _ = run(
        ["suggest", grid, "--words", words, "--slot", "1A", "--filter", "1A=+A", "--format", "json"], capsys
    )
    assert code == 0 and [w["word"] for w in json.loads(out)["words"]] == ["CAB"]


def test_distinct_stems_skips_a_word_of_the_same_stem_and_says_why(tmp_path, capsys):
    grid, words = write(tmp_path, "g.txt", TWO_ROWS), write(tmp_path, "w.txt", STEM_LIST)
    code, out, _ = run(["fill", grid, "--words", words, "--min-score", "0", "--format", "json"], capsys)
    assert code == 0 and sorted(json.loads(out)["grid"][::2]) == ["TIED", "TIES"]
    code, out, _ = run(["fill", grid, "--words", words, "--min-score", "0", "--distinct-stems"], capsys)
    assert code == 0 and "NOTE" in out.replace(" ", "")
    assert "Words skipped by the rules on pairs of entries" in out and "share the stem TIE" in out
    code, out, _ = run(
        ["fill", grid, "--words", words, "--min-score", "0", "--distinct-stems", "--format", "json"], capsys
    )
    data = json.loads(out)
    # the kernel keeps the stems apart itself (no split); the fill still names the word it skipped
    assert data["stats"]["pair_splits"] == 0 and any("TIE" in why for why in data["skipped"])
    no_note = write(tmp_path, "w2.txt", "TIES;90\nTIED;80\n")
    code, out, _ = run(["fill", grid, "--words", no_note, "--min-score", "0", "--distinct-stems"], capsys)
    assert code == 1 and "every entry of a stem of its own" in out


def test_quality_turns_distinct_stems_on_unless_told_not_to():
    parser = build_parser()
    assert inputs.controls(parser.parse_args(["fill", "g.txt", "--quality"])).distinct_stems is True
    assert (
        inputs.controls(parser.parse_args(["fill", "g.txt", "--quality", "--no-distinct-stems"])).distinct_stems
        is False
    )
    assert inputs.controls(parser.parse_args(["fill", "g.txt"])).distinct_stems is False
    assert inputs.controls(parser.parse_args(["fill", "g.txt", "--distinct-stems"])).distinct_stems is True


def test_no_crossing_reads_the_lists_tags_and_the_users(tmp_path, capsys):
    grid = write(tmp_path, "g.txt", TINY_GRID)
    tagged = write(tmp_path, "w.txt", TINY_LIST.replace("CAB;60", "CAB;60;name").replace("COW;60", "COW;60;name"))
    code, _, _ = run(["fill", grid, "--words", tagged], capsys)
    assert code == 0  # tags alone change nothing
    # every fill of the open 3x3 crosses CAB with COW (one across, one down): no fill is left
    code, out, _ = run(["fill", grid, "--words", tagged, "--no-crossing", "name:name"], capsys)
    assert code == 1 and "every crossing clear of name:name" in out
    # ORE and WET never cross (both across or both down in either fill): every fill is fair
    argv = ["fill", grid, "--words", tagged, "--no-crossing", "abbr:abbr", "--tag", "ORE=abbr", "--tag", "WET=abbr"]
    assert run(argv, capsys)[0] == 0
    # ORE and ARE always cross (one across, one down): none is
    argv = ["fill", grid, "--words", tagged, "--no-crossing", "abbr:abbr", "--tag", "ORE=abbr", "--tag", "ARE=abbr"]
    code, out, _ = run(argv, capsys)
    assert code == 1 and "ORE (abbr) crosses" in out


def test_bad_tags_and_crossings_are_exit_2(tmp_path, capsys):
    grid, words = _tiny(tmp_path)
    for argv, needle in [
        (["--no-crossing", "name"], "expected TAG:TAG"),
        (["--no-crossing", "name:place"], "'place' is not a tag"),
        (["--tag", "CAB"], "expected WORD=TAGS"),
        (["--no-crossing", "name:name", "--names-from", tmp_path / "none.dic"], "none.aff"),
    ]:
        code, _, err = run(["fill", grid, "--words", words, *argv], capsys)
        assert code == 2, argv
        assert_one_line_error(err, needle)


def test_suggest_verify_keeps_the_pair_rules(tmp_path, capsys):
    """The labels come from fills that keep distinct stems: with TIES in 1A only NOTE is left for 2A."""
    grid, words = write(tmp_path, "g.txt", TWO_ROWS), write(tmp_path, "w.txt", "TIES;90\nTIED;80\nNOTE;40\nTIER;30\n")
    argv = ["suggest", grid, "--words", words, "--min-score", "0", "--slot", "1A", "--verify", "--distinct-stems"]
    code, out, _ = run([*argv, "--format", "json", "--time-limit", "20"], capsys)
    assert code == 0
    verdicts = {w["word"]: w["verdict"] for w in json.loads(out)["words"]}
    assert verdicts == {"TIES": "viable", "TIED": "viable", "NOTE": "viable", "TIER": "viable"}
    no_note = write(tmp_path, "w2.txt", "TIES;90\nTIED;80\n")
    argv = ["suggest", grid, "--words", no_note, "--min-score", "0", "--slot", "1A", "--verify", "--distinct-stems"]
    code, out, _ = run([*argv, "--time-limit", "20"], capsys)
    # the kernel's propagation keeps the stem rule: either word in 1A takes the other out of 2A
    assert code == 1 and "TIES (empties 2A)" in out and "TIED (empties 2A)" in out


def test_distinct_stems_reads_phrases_by_the_word_list_alone(tmp_path, capsys, monkeypatch):
    """Neither wordfreq nor WordNet (the README's first install): ATECROW is still ATE CROW, so the fill skips
    EATERY and says why, and the check fills around a given ATECROW without it."""
    from tests.words.phrase_sources import ATE_CROW_GRID, ATE_CROW_LIST, switch_off_phrase_sources

    switch_off_phrase_sources(monkeypatch)
    grid, words = write(tmp_path, "g.txt", ATE_CROW_GRID), write(tmp_path, "w.txt", ATE_CROW_LIST)
    argv = ["fill", grid, "--words", words, "--min-score", "0", "--distinct-stems", "--format", "json"]
    code, out, _ = run(argv, capsys)
    data = json.loads(out)
    assert code == 0 and data["grid"][::2] == ["ATECROW", "SAILOR#"]
    assert any("ATECROW" in why and "EATERY" in why and "share the word EAT" in why for why in data["skipped"])
    given = write(tmp_path, "given.txt", ATE_CROW_GRID.replace(".......", "ATECROW", 1))
    code, out, _ = run(["check", given, "--words", words, "--min-score", "0", "--distinct-stems"], capsys)
    assert code == 0 and "S A I L O R" in out and "E A T E R Y" not in out
