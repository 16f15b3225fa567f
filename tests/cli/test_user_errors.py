"""What a constructor sees when a command is misused or the answer is partial: exit codes, messages, JSON keys."""

from __future__ import annotations

import json

import pytest

from tests.helpers import one_line, run
from xwcp.backends import fill
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill
from xwcp.model import parse_grid
from xwcp.render.report import TEXT_MAX_FILLS
from xwcp.words.wordlist import words_from_pairs

# An open 2x2 with these four words has exactly two fills: AB/CD (downs AC, BD) and its transpose.
TWO_FILL_WORDS = "AB\nCD\nAC\nBD\n"
OPEN_2X2 = "..\n..\n"


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["domains", "{grid}", "--words", "{words}", "-k", "0"], "-k: must be at least 1"),
        (["suggest", "{grid}", "--words", "{words}", "--slot", "1A", "-k", "-3"], "-k: must be at least 1"),
        (
            ["suggest", "{grid}", "--words", "{words}", "--slot", "1A", "--backend", "nosuch"],
            "unknown backend 'nosuch'",
        ),
        (["check", "{grid}", "--words", "{words}", "--backend", "nosuch"], "unknown backend 'nosuch'"),
        (["suggest", "{grid}", "--words", "{words}", "--slot", "1A", "--show-fill"], "--show-fill needs --verify"),
        (["heatmap", "{grid}", "--words", "{words}", "--png", "{tmp}/heat.notapicture"], "use a .png file name"),
    ],
)
def test_misuse_is_one_line_and_exit_2(files, capsys, argv, needle):
    grid, words = files("g.txt", OPEN_2X2), files("w.txt", TWO_FILL_WORDS)
    values = {"grid": grid, "words": words, "tmp": grid.parent}
    code, _, err = run([a.format(**values) for a in argv], capsys)
    assert code == 2
    assert needle in one_line(err)


def test_unknown_backend_lists_the_available_ones(files, capsys):
    from xwcp.backends import available_backends

    code, _, err = run(
        ["fill", files("g.txt", OPEN_2X2), "--words", files("w.txt", TWO_FILL_WORDS), "--backend", "nosuch"], capsys
    )
    assert code == 2
    assert f"available: {', '.join(available_backends())}" in one_line(err)


def test_word_list_without_usable_lines_says_which_lines_are_wrong(files, capsys):
    code, _, err = run(["fill", files("g.txt", OPEN_2X2), "--words", files("w.csv", "word,60\nother,70\n")], capsys)
    assert code == 2
    line = one_line(err)
    assert "no usable entries" in line and "line 1: 'word,60'" in line and "line 2: 'other,70'" in line


def test_malformed_lines_warning_names_the_first_three(files, capsys):
    words = files("w.txt", "XX;x\nAB\nYY;5q\nCD\nXY;1;2\nAC\nZZ;z\nBD\n")
    code, _, err = run(["fill", files("g.txt", OPEN_2X2), "--words", words, "--min-score", "0"], capsys)
    assert code == 0
    warning = one_line(err)
    assert "4 malformed lines" in warning
    assert "line 1:" in warning and "line 3:" in warning and "line 5:" in warning and "and 1 more" in warning


def test_json_has_entries_always_and_grid_only_when_filled(files, capsys):
    # The last column must read ZER? and the last row WOR?: no letter makes both words.
    unfillable = files("u.txt", "ZAPS\nEMIT\nROTE\nWOR.\n")
    words = files("w.txt", "ZAPS\nEMIT\nROTE\nZERO\nAERO\nPITS\nSTEW\n")
    code, out, _ = run(["fill", unfillable, "--words", words, "--min-score", "0", "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 1 and data["status"] == "unfillable"
    assert data["entries"] == [] and "grid" not in data

    open_5x5 = files("o.txt", ".....\n" * 5)
    code, out, _ = run(
        ["fill", open_5x5, "--count", "all", "--time-limit", "0.3", "--backend", "backtrack", "--format", "json"],
        capsys,
    )
    data = json.loads(out)
    assert code == 3 and data["status"] == "limit"  # counting every 5x5 fill takes far longer
    assert "grid" not in data and data["entries"] == []
    assert data["n_fills"] >= len(data["fills"]) > 0


def test_asking_for_more_fills_than_exist_says_so(files, capsys):
    grid, words = files("g.txt", OPEN_2X2), files("w.txt", TWO_FILL_WORDS)
    code, out, _ = run(["fill", grid, "--words", words, "--min-score", "0", "--count", "5", "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["n_fills"] == 2
    assert data["note"] == "only 2 fills exist (5 asked for)"
    code, out, _ = run(["fill", grid, "--words", words, "--min-score", "0", "--count", "5"], capsys)
    assert "Only 2 fills exist (5 asked for)" in out


def test_text_output_draws_at_most_ten_fills(files, capsys):
    words = files("w.txt", "".join(f"{a}{b}\n" for a in "ABCDEF" for b in "ABCDEF"))
    code, out, _ = run(
        ["fill", files("g.txt", OPEN_2X2), "--words", words, "--min-score", "0", "--count", "all"], capsys
    )
    assert code == 0
    assert out.count("Fill ") == TEXT_MAX_FILLS
    assert f"(the first {TEXT_MAX_FILLS} fills are shown" in out


def test_min_score_that_filters_every_fitting_word_is_named(files, capsys):
    code, out, _ = run(
        ["fill", files("g.txt", OPEN_2X2), "--words", files("w.txt", TWO_FILL_WORDS), "--min-score", "60"], capsys
    )
    assert code == 1
    assert "no 2-letter word scored 60 or more fits its letters (4 scored lower do: lower --min-score)" in out


def test_min_score_message_counts_only_the_words_scored_lower(files, capsys):
    # 3A "A." fits AB (90, but entered in 1A: no word twice) and AC (10, under the minimum)
    code, out, _ = run(["fill", files("g.txt", "AB\n##\nA.\n"), "--words", files("w.txt", "AB;90\nAC;10\n")], capsys)
    assert code == 1
    assert "(1 scored lower do: lower --min-score)" in out


def test_unfillability_proven_by_search_names_the_slot_with_most_dead_ends():
    # Arc-consistent (every word has support) but no fill without repeating a word.
    problem = compile_problem(
        parse_grid("...\n...\n...\n"), words_from_pairs(["AAA", "ABB", "BBB", "CAA"]), min_score=0
    )
    result = fill(problem, "backtrack", Limits(time_limit_s=10))
    assert result.status is FillStatus.UNFILLABLE
    assert result.stats.nodes > 0  # the search, not arc consistency, proved it
    assert result.slot_id is not None
    slot = problem.slots[result.slot_id]
    assert f"most dead ends were at {slot.name}" in result.reason
    # and an exhaustive count agrees that there is no fill
    assert fill(problem, "backtrack", Limits(count=0, time_limit_s=10)).n_fills == 0


def test_two_fill_list_really_has_two_valid_fills():
    problem = compile_problem(parse_grid(OPEN_2X2), words_from_pairs(TWO_FILL_WORDS.split()), min_score=0)
    result = fill(problem, "backtrack", Limits(count=0, time_limit_s=10))
    assert result.n_fills == 2
    assert all(check_fill(problem, entries) == [] for entries in result.fills)


def test_bench_runs_every_peer_by_default_and_skips_the_missing_ones(files, capsys, monkeypatch):
    import csv

    from xwcp.bench.peers import PEERS

    monkeypatch.setattr("xwcp.bench.peers.peer_available", lambda name: False)
    grid, words = files("g.txt", OPEN_2X2), files("w.txt", TWO_FILL_WORDS)
    out_dir = grid.parent / "out"
    code, _, _ = run(
        [
            "bench",
            grid,
            "--words",
            words,
            "--min-score",
            "0",
            "--backends",
            "backtrack",
            "--time-limit",
            "5",
            "--out",
            out_dir,
        ],
        capsys,
    )
    assert code == 0
    with open(out_dir / "rows.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {row["backend"]: row["status"] for row in rows} == {"backtrack": "filled", **{p: "skipped" for p in PEERS}}


@pytest.mark.parametrize(
    "option, typed, char",
    [
        ("--ban", "ﬁne", "U+FB01"),
        ("--ban", "dısk", "U+0131"),
        ("--lock", "1A=ﬁne", "U+FB01"),
        ("--lock", "1A=dısk", "U+0131"),
    ],
)
def test_a_word_option_never_reads_a_character_english_cannot_keep_as_another_word(files, capsys, option, typed, char):
    """`--ban dısk` banned DISK and `--lock 1A=ﬁne` locked FINE: the same reading as a personal-list edit refuses
    them, naming the character."""
    grid = files("g.txt", "....\n....\n")
    words = files("w.txt", "FINE\nDISK\nABCD\nEFGH\nAE\nBF\nCG\nDH\nFA\nIB\nNC\nED\nDA\nIB\nSC\nKD\n")
    code, _, err = run(["fill", grid, "--words", words, option, typed], capsys)
    line = one_line(err)
    assert code == 2 and char in line and "not a letter of English" in line, err


def test_a_word_option_with_an_accent_still_names_the_word_english_writes(files, capsys):
    grid = files("g.txt", "....\n")
    words = files("w.txt", "CAFE;90\nCAKE;50\n")
    code, out, err = run(["fill", grid, "--words", words, "--ban", "café"], capsys)
    assert code == 0 and "CAKE" in out and "CAFE" not in out, (out, err)
