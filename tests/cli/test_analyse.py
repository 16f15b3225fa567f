"""The questions about a grid (`xwcp.cli.analyse`): `check`, `domains`, `suggest` and `heatmap` on a tiny open 3x3
(fillable, two fills) and a 4x4 whose slots 7A and 4D cannot agree (unfillable); the exit code follows the verdict
(0 fillable or consistent, 1 unfillable) and the JSON fields say the same as the grid and the list."""

from __future__ import annotations

import json
import re

import pytest

from tests.cli.helpers import TINY_FILLS, TINY_LIST, write
from tests.helpers import run

# 7A reads WOR. and 4D ZER.: WORK/WORE against ZERO, no common last letter (as tests/cli/test_fill.py).
STUCK_GRID = "...Z\n...E\n...R\nWOR.\n"
STUCK_LIST = "ABCZ\nDEFE\nGHIR\nADGW\nBEHO\nCFIR\nZERD\nZERO\nWORK\nWORE\n"


@pytest.fixture
def open3(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    return [write(tmp_path, "g.txt", "...\n...\n...\n"), "--words", write(tmp_path, "w.txt", TINY_LIST)]


@pytest.fixture
def stuck(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    return [write(tmp_path, "u.txt", STUCK_GRID), "--words", write(tmp_path, "uw.txt", STUCK_LIST)]


def _json(argv, capsys):
    code, out, err = run([*argv, "--format", "json"], capsys)
    return code, json.loads(out)


def test_check_fillable_shows_a_fill_and_exits_0(open3, capsys):
    code, data = _json(["check", *open3], capsys)
    assert code == 0 and data["verdict"] == "fillable" and data["fill"] in TINY_FILLS
    # every fill has C in the corner and R in the middle: both are forced
    assert {(f["row"], f["col"], f["letter"]) for f in data["forced"]} >= {(0, 0, "C"), (1, 1, "R")}


def test_check_unfillable_names_the_core_and_exits_1(stuck, capsys):
    code, data = _json(["check", *stuck], capsys)
    assert code == 1 and data["verdict"] == "unfillable" and "fill" not in data
    assert set(data["core"]["slots"]) == {"7A", "4D"} and data["total_seconds"] >= 0


def test_check_text_prints_the_verdict_before_the_core(stuck, capsys):
    code, out, _ = run(["check", *stuck], capsys)
    lines = out.splitlines()
    assert code == 1 and lines[0].startswith("Unfillable: 7A")
    assert out.count("Unfillable") == 1  # printed once, before the core search, not again after it
    assert "4D" in out[out.index("\n") :] and "ZER." in out


def test_domains_lists_fitting_words_and_exits_by_consistency(open3, stuck, capsys):
    code, data = _json(["domains", *open3, "--slot", "1A", "-k", "2"], capsys)
    assert code == 0 and data["status"] == "consistent"
    [slot] = data["slots"]
    listed = {line.split(";")[0] for line in TINY_LIST.split()}
    assert slot["id"] == "1A" and len(slot["words"]) == 2 and {w["word"] for w in slot["words"]} <= listed
    code, data = _json(["domains", *stuck], capsys)
    assert code == 1 and data["status"] == "unfillable" and data["slot"] in {"7A", "4D"}


def test_suggest_words_fit_the_slots_pattern(open3, stuck, capsys):
    open3[0].write_text("C..\n...\n...\n")
    code, data = _json(["suggest", *open3, "--slot", "1D", "-k", "5"], capsys)
    assert code == 0 and data["slot"]["pattern"] == "C.."
    words = [w["word"] for w in data["words"]]
    assert words and all(re.fullmatch("C..", w) for w in words) and len(words) == data["counts"]["survive"] <= 5
    # the arc-consistent words are the shown ones and those that empty a slot when entered (issue 35)
    dropped = [d["word"] for d in data["dropped"]]
    assert len(words) + len(dropped) == data["slot"]["size"] == data["counts"]["arc_consistent"]
    assert all(re.fullmatch("C..", w) for w in dropped) and not set(words) & set(dropped)
    code, data = _json(["suggest", *stuck, "--slot", "7A"], capsys)
    assert code == 1 and data["status"] == "unfillable" and data["words"] == []


def test_heatmap_counts_at_least_the_letters_of_every_fill(open3, stuck, capsys):
    code, data = _json(["heatmap", *open3], capsys)
    assert code == 0 and (data["width"], data["height"]) == (3, 3)
    for r in range(3):
        for c in range(3):
            letters = {fill[r][c] for fill in TINY_FILLS}
            assert data["cells"][r][c] >= len(letters)  # arc consistency never removes a letter of a real fill
    # 4A and 2D cross 1D and 1A in their first letter, which 1A/1D's words (C?? only: CAB CAT COW) give as A or O:
    # ARE or ORE, so R in the middle; 1A's second letter starts 2D (A or O): CAB, CAT or COW, so C in the corner
    assert data["cells"][0][0] == 1 and data["cells"][1][1] == 1
    code, data = _json(["heatmap", *stuck], capsys)
    assert code == 1 and data["status"] != "consistent"


def test_a_dutch_ij_is_written_as_ij_in_every_answer(tmp_path, monkeypatch, capsys):
    """IJ is one cell and one letter; answers write it IJ, never the private-use character xwcp uses inside."""
    from tests.helpers import run

    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid = tmp_path / "nl.txt"
    grid.write_text("{IJ}..\n...\n", encoding="utf-8")
    words = tmp_path / "nl.dict"
    words.write_text("IJST;60\nSIJT;50\n", encoding="utf-8")
    for command in (["domains"], ["suggest", "--slot", "1A"], ["heatmap"], ["check"]):
        for output in ("json", "text"):
            code, out, err = run([*command, grid, "--language", "nl", "--words", words, "--format", output], capsys)
            assert code in (0, 1), err
            assert "IJ" in out and not any(0xE000 <= ord(ch) <= 0xF8FF for ch in out), (command, output, out)
