"""The `xwcp` command line: exit codes, one-line errors, JSON output, and help for every command."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from xwcp.cli.commands import build_parser
from xwcp.engine.result import check_fill, fill_grid
from xwcp.services.load import load_problem
from xwcp.words.wordlist import load_word_list

from tests.helpers import entries_of, run

REPO = Path(__file__).resolve().parents[2]

# Rows CAB ORE WET and columns COW ARE BET (or the transpose) are the only fills of an open
# 3x3 from this list without repeating a word (CAT/ARE/TEN is a symmetric square, so it repeats).
TINY_LIST = "CAB;60\nORE;60\nWET;60\nCOW;60\nARE;60\nBET;60\nCAT;60\nTEN;60\n"
TINY_GRID = "; a tiny open grid\n...\n...\n...\n"
TINY_FILLS = (["CAB", "ORE", "WET"], ["COW", "ARE", "BET"])


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    return write(tmp_path, "grid.txt", TINY_GRID), write(tmp_path, "words.txt", TINY_LIST)


def assert_one_line_error(err: str, *needles: str):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


# ----- bad input: exit 2, one line on stderr naming the file (and line) --------------------

@pytest.mark.parametrize("name, text, line", [
    ("ragged.txt", "; comment\n...\n..\n...\n", 3),
    ("badchar.txt", "...\n.%.\n...\n", 2),
])
def test_bad_grid_lines(tmp_path, tiny, capsys, name, text, line):
    grid = write(tmp_path, name, text)
    code, out, err = run(["fill", grid, "--words", tiny[1]], capsys)
    assert code == 2
    assert out == ""
    assert_one_line_error(err, f"{grid}:{line}:")


@pytest.mark.parametrize("name, text, needle", [
    ("noslot.txt", "#.#\n###\n", "no slot"),
    ("wide.txt", ("." * 61 + "\n") * 3, "61x3"),
    ("empty.txt", "; nothing here\n\n", "no rows"),
])
def test_bad_grid_files(tmp_path, tiny, capsys, name, text, needle):
    grid = write(tmp_path, name, text)
    code, out, err = run(["fill", grid, "--words", tiny[1]], capsys)
    assert code == 2
    assert_one_line_error(err, str(grid), needle)


def test_missing_grid_file(tmp_path, tiny, capsys):
    grid = tmp_path / "nope.txt"
    code, out, err = run(["fill", grid, "--words", tiny[1]], capsys)
    assert code == 2
    assert_one_line_error(err, str(grid))


def test_word_list_without_usable_entries(tmp_path, tiny, capsys):
    words = write(tmp_path, "junk.txt", "R2D2;50\nC3PO;x\n")
    code, out, err = run(["fill", tiny[0], "--words", words], capsys)
    assert code == 2
    assert_one_line_error(err, str(words))


def test_missing_word_list(tmp_path, tiny, capsys):
    words = tmp_path / "missing.dict"
    code, out, err = run(["fill", tiny[0], "--words", words], capsys)
    assert code == 2
    assert_one_line_error(err, str(words))


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_bad_time_limit(tiny, capsys, value):
    code, out, err = run(["fill", tiny[0], "--words", tiny[1], "--time-limit", value], capsys)
    assert code == 2
    assert_one_line_error(err, "--time-limit", value)


def test_unknown_backend_lists_backends(tiny, capsys):
    from xwcp.backends import BACKENDS

    code, out, err = run(["fill", tiny[0], "--words", tiny[1], "--backend", "nosuch"], capsys)
    assert code == 2
    line = assert_one_line_error(err, "nosuch")
    assert "backtrack" in line
    for name in BACKENDS:
        assert name in line


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_bad_count(tiny, capsys, value):
    code, out, err = run(["fill", tiny[0], "--words", tiny[1], "--count", value], capsys)
    assert code == 2
    assert_one_line_error(err, "--count")


def test_no_command_is_a_usage_error(capsys):
    code, out, err = run([], capsys)
    assert code == 2


def test_malformed_lines_give_a_counted_warning(tmp_path, tiny, capsys):
    words = write(tmp_path, "some-bad.txt", TINY_LIST + "DOG;lots\nEMU;x\nR2D2\n")
    code, out, err = run(["fill", tiny[0], "--words", words, "--format", "json"], capsys)
    assert code == 0
    assert json.loads(out)["status"] == "filled"
    line = assert_one_line_error(err, str(words), "warning")
    assert re.search(r"\b3 malformed lines\b", line), line
    assert "line 9" in line  # the first bad one


# ----- fills -------------------------------------------------------------------------------

def check_fill_json(data, grid_path, words_path, min_score=50, allow_dupes=False):
    assert set(data) >= {"status", "grid", "entries", "backend", "seconds"}
    assert data["status"] == "filled"
    assert isinstance(data["backend"], str) and data["backend"]
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0
    problem = load_problem(grid_path, words_path, min_score=min_score, allow_dupes=allow_dupes)
    rows = data["grid"]
    assert len(rows) == problem.grid.height and all(len(r) == problem.grid.width for r in rows)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            assert (ch == "#") == (problem.grid.cell(r, c) == "#")
            assert ch == "#" or re.fullmatch("[A-Z]", ch)
    assert {e["id"] for e in data["entries"]} == {s.name for s in problem.slots}
    assert len(data["entries"]) == len(problem.slots)
    word_by_name = {}
    for entry in data["entries"]:
        assert set(entry) == {"id", "number", "direction", "row", "col", "length", "word", "score"}
        slot = problem.slot_by_name(entry["id"])
        assert entry["id"] == f"{entry['number']}{entry['direction'][0].upper()}"
        assert (entry["number"], entry["direction"], entry["row"], entry["col"], entry["length"]) == \
            (slot.number, slot.direction.value, slot.row, slot.col, slot.length)
        dr, dc = (0, 1) if entry["direction"] == "across" else (1, 0)
        read = "".join(rows[entry["row"] + k * dr][entry["col"] + k * dc] for k in range(entry["length"]))
        assert entry["word"] == read
        assert entry["score"] == problem.words.score(entry["word"])
        word_by_name[entry["id"]] = entry["word"]
    entries = tuple(word_by_name[s.name] for s in problem.slots)
    assert check_fill(problem, entries) == []
    assert fill_grid(problem, entries).rows == rows
    for other in data.get("fills", []):  # --count: every fill listed is valid too
        assert check_fill(problem, entries_of(problem, other["grid"])) == []
        assert fill_grid(problem, entries_of(problem, other["grid"])).rows == other["grid"]
    return problem


def test_fill_tiny_grid_json(tiny, capsys):
    code, out, err = run(["fill", tiny[0], "--words", tiny[1], "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    check_fill_json(data, *tiny)
    assert data["grid"] in TINY_FILLS
    across = data["grid"]
    down = ["".join(col) for col in zip(*across)]
    assert [(e["id"], e["word"]) for e in data["entries"]] == [
        ("1A", across[0]), ("4A", across[1]), ("5A", across[2]), ("1D", down[0]), ("2D", down[1]), ("3D", down[2])]
    assert err == ""


def test_fill_with_blocks_and_prefilled_letters(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid = write(tmp_path, "g.txt", "#..\n...\nR.#\n")
    # 1A AB, 3A ORE, 4A RE, 1D ARE, 2D BE, 3D OR; the other words are decoys that fit somewhere.
    words = write(tmp_path, "w.txt", "AB;10\nORE;10\nRE;10\nARE;10\nBE;10\nOR;10\nRA;10\nTEA;10\nAT;10\nZA;10\n")
    code, out, err = run(["fill", grid, "--words", words, "--min-score", "0", "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    problem = check_fill_json(data, grid, words, min_score=0)
    assert data["grid"] == ["#AB", "ORE", "RE#"]
    assert len(problem.slots) == 6
    # The same list with the default minimum score 50 has no candidates at all.
    code, out, err = run(["fill", grid, "--words", words, "--format", "json"], capsys)
    assert code == 1 and json.loads(out)["status"] == "unfillable"


def test_fill_text_output(tiny, capsys):
    code, out, err = run(["fill", tiny[0], "--words", tiny[1]], capsys)
    assert code == 0
    assert ("C A B\nO R E\nW E T" in out) or ("C O W\nA R E\nB E T" in out)
    assert "Across" in out and "Down" in out
    assert "filled" in out


def test_allow_dupes_finds_the_symmetric_square(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid = write(tmp_path, "g.txt", "...\n...\n...\n")
    words = write(tmp_path, "w.txt", "CAT\nARE\nTEN\n")
    code, out, err = run(["fill", grid, "--words", words, "--format", "json"], capsys)
    assert code == 1 and json.loads(out)["status"] == "unfillable"
    code, out, err = run(["fill", grid, "--words", words, "--format", "json", "--allow-dupes"], capsys)
    assert code == 0, err
    data = json.loads(out)
    check_fill_json(data, grid, words, allow_dupes=True)
    # each row is one of the three words and so is each column: only the square CAT/ARE/TEN fits
    assert data["grid"] == ["CAT", "ARE", "TEN"]


def test_count_two_fills(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid = write(tmp_path, "g.txt", "..\n..\n")
    words = write(tmp_path, "w.txt", "AB\nCD\nAC\nBD\nEF\nGH\nEG\nFH\n")
    code, out, err = run(["fill", grid, "--words", words, "--format", "json", "--count", "all"], capsys)
    assert code == 0, err
    data = json.loads(out)
    check_fill_json(data, grid, words)  # the first fill and every one in "fills"
    assert data["n_fills"] == 4  # each square, and each transposed
    assert sorted(tuple(f["grid"]) for f in data["fills"]) == [
        ("AB", "CD"), ("AC", "BD"), ("EF", "GH"), ("EG", "FH")]
    assert data["grid"] in [f["grid"] for f in data["fills"]]


def test_word_entered_twice_is_unfillable(tmp_path, tiny, capsys):
    grid = write(tmp_path, "dup.txt", "CAB\n...\nCAB\n")
    code, out, err = run(["fill", grid, "--words", tiny[1], "--format", "json"], capsys)
    assert code == 1, err
    data = json.loads(out)
    assert data["status"] == "unfillable"
    assert "CAB" in data["reason"] and "1A" in data["reason"] and "5A" in data["reason"]


def test_users_own_entry_is_kept_even_if_unlisted(tmp_path, tiny, capsys):
    grid = write(tmp_path, "own.txt", "QXZ\n###\n...\n")
    code, out, err = run(["fill", grid, "--words", tiny[1], "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    check_fill_json(data, grid, tiny[1])  # every entry listed (but the user's own), crossings agree
    assert data["grid"][0] == "QXZ"
    assert data["entries"][0] == {"id": "1A", "number": 1, "direction": "across", "row": 0, "col": 0,
                                  "length": 3, "word": "QXZ", "score": None}
    assert data["entries"][1]["word"] in {line.split(";")[0] for line in TINY_LIST.split()}


UNFILLABLE_GRID = "...Z\n...E\n...R\nWOR.\n"
# With WORD listed the only fill is rows ABCZ DEFE GHIR WORD, columns ADGW BEHO CFIR ZERD;
# without it 7A (WOR.) and 4D (ZER.) have no common last letter: WORK/ZERO/WORE, no WORO.
UNFILLABLE_LIST = "ABCZ\nDEFE\nGHIR\nADGW\nBEHO\nCFIR\nZERD\nZERO\nWORK\nWORE\nWORD\n"


def test_unfillable_grid(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid = write(tmp_path, "g.txt", UNFILLABLE_GRID)
    words = write(tmp_path, "w.txt", UNFILLABLE_LIST.replace("WORD\n", ""))
    code, out, err = run(["fill", grid, "--words", words, "--format", "json"], capsys)
    assert code == 1, err
    data = json.loads(out)
    assert data["status"] == "unfillable"
    assert "grid" not in data and data["entries"] == []  # JSON from fill always has entries
    problem = load_problem(grid, words)
    named = set(re.findall(r"\b\d+[AD]\b", data["reason"]))
    assert named and named <= {s.name for s in problem.slots}, data["reason"]
    if "slot" in data:
        assert data["slot"] in named
    code, out, err = run(["fill", grid, "--words", words], capsys)
    assert code == 1 and out.startswith("Unfillable")


def test_same_grid_fills_when_the_word_is_listed(tmp_path, monkeypatch, capsys):
    # Control for test_unfillable_grid: with WORE listed the grid fills, so exit 1 above is the list's doing.
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid = write(tmp_path, "g.txt", UNFILLABLE_GRID)
    words = write(tmp_path, "w.txt", UNFILLABLE_LIST)
    code, out, err = run(["fill", grid, "--words", words, "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    check_fill_json(data, grid, words)
    assert data["grid"] == ["ABCZ", "DEFE", "GHIR", "WORD"]


def test_time_limit_reached(tmp_path, capsys):
    grid = write(tmp_path, "open15.txt", ("." * 15 + "\n") * 15)
    load_word_list()  # build the list cache first: the bound below is about the search, not a cold compile
    code, out, err = run(["fill", grid, "--time-limit", "0.001", "--format", "json"], capsys)
    assert code == 3, out
    data = json.loads(out)
    assert data["status"] == "limit"
    assert "grid" not in data
    assert data["seconds"] < 5


# ----- help --------------------------------------------------------------------------------

def listed_commands(capsys) -> list[str]:
    code, out, err = run(["--help"], capsys)
    assert code == 0
    block = out.split("positional arguments:")[1].split("options:")[0]
    return re.findall(r"^    (\w+)\s", block, flags=re.M)


def test_help_lists_every_command(capsys):
    names = listed_commands(capsys)
    assert "fill" in names
    sub = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    assert names == list(sub.choices)


def test_every_command_has_help_with_an_example(capsys):
    for name in listed_commands(capsys):
        code, out, err = run([name, "--help"], capsys)
        assert code == 0, name
        assert out.startswith(f"usage: xwcp {name}"), name
        assert "Example:" in out, name
        assert err == ""


def test_fill_help_describes_its_options(capsys):
    code, out, err = run(["fill", "--help"], capsys)
    assert code == 0
    for option in ("--words", "--backend", "--time-limit", "--seed", "--min-score", "--format", "--count"):
        assert option in out
    assert "Example: xwcp fill" in out


# ----- the module entry point --------------------------------------------------------------

def python_m(*args, cwd):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "xwcp", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=60)


def test_module_entry_point_fills(tiny, tmp_path):
    proc = python_m("fill", tiny[0], "--words", tiny[1], "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["grid"] in TINY_FILLS
    assert "Traceback" not in proc.stderr


def test_module_entry_point_bad_input_has_no_traceback(tiny, tmp_path):
    grid = write(tmp_path, "ragged.txt", "...\n..\n")
    proc = python_m("fill", grid, "--words", tiny[1], cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert_one_line_error(proc.stderr, f"{grid}:2:")

    proc = python_m("fill", tmp_path / "absent.txt", "--time-limit", "-1", cwd=tmp_path)
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, "--time-limit")
