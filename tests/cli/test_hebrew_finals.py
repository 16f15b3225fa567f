"""Hebrew's final letters: typed in a grid they are their letters; written where an entry ends, across or down, in
fills, JSON, grid text and files (`xwcp.model.grid.final_cells`), and every other pack writes as before."""

from __future__ import annotations

import json

import pytest

import xwcp
from tests.cli.helpers import TINY_FILLS, TINY_LIST, write
from tests.helpers import check_written_fill
from xwcp.cli.commands import main
from xwcp.engine.result import check_fill
from xwcp.formats import read_puzzle, write_puzzle
from xwcp.model import parse_grid, render_grid
from xwcp.model.alphabet import load_alphabet, shipped_alphabets

HEBREW = load_alphabet("he")
FINALS = {"כ": "ך", "מ": "ם", "נ": "ן", "פ": "ף", "צ": "ץ"}
WORDS = ["אבמ", "גפנ", "כוצ", "אגכ", "בפו", "מנצ"]
"""Rows אבמ גפנ כוצ, columns אגכ בפו מנצ: the right column ends the across words, the bottom row the down ones."""
GRID = "אבם\n...\n...\n"
"""The first row typed with its final mem, as a Hebrew writer types it: only the square, not its mirror, fits."""
WRITTEN = [["א", "ב", "ם"], ["ג", "פ", "ן"], ["ך", "ו", "ץ"]]


@pytest.fixture()
def hebrew(tmp_path):
    return write(tmp_path, "g.txt", GRID), write(tmp_path, "he.dict", "".join(f"{w};60\n" for w in WORDS))


def _run(capsys, *args):
    code = main(["fill", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_typed_final_letter_is_its_letter(hebrew, capsys) -> None:
    grid, words = hebrew
    code, _, err = _run(capsys, grid, "--language", "he", "--words", words, "--format", "json")
    assert code == 0, err
    in_file = write(grid.parent, "named.txt", "; language: he\n" + GRID)
    code, _, err = _run(capsys, in_file, "--words", words, "--format", "json")
    assert code == 0, err
    assert parse_grid(GRID, "g.txt", HEBREW).cells[2] == "מ"


def test_a_hebrew_fill_writes_final_forms_where_entries_end(hebrew, capsys) -> None:
    grid, words = hebrew
    code, out, err = _run(capsys, grid, "--language", "he", "--words", words, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert check_written_fill(data["cells"], set(WORDS), HEBREW.letters, finals=FINALS) == []
    assert data["cells"] == WRITTEN  # the mem ending 1A is final though 3D goes on through it; so is 1D's kaf
    assert data["grid"] == ["".join(row) for row in WRITTEN]
    by_id = {e["id"]: e["word"] for e in data["entries"]}
    assert by_id == {"1A": "אבם", "4A": "גפן", "5A": "כוץ", "1D": "אגך", "2D": "בפו", "3D": "מנץ"}
    answer = xwcp.fill(str(grid), language="he", words=str(words))
    assert answer.report is not None and answer.result is not None
    assert check_fill(answer.report.problem, answer.result.fills[0]) == []
    code, out, _ = _run(capsys, grid, "--language", "he", "--words", words)
    assert code == 0 and out.startswith("א ב ם\nג פ ן\nך ו ץ\n")
    assert "    5  כוץ  (60)" in out.splitlines() and "    1  אגך  (60)" in out.splitlines()


def test_hebrew_grid_text_and_files_read_back_as_the_fill(hebrew, capsys, tmp_path) -> None:
    grid, words = hebrew
    code, out, err = _run(capsys, grid, "--language", "he", "--words", words, "--format", "grid")
    assert code == 0, err
    assert out == "; language: he\n" + "".join("".join(row) + "\n" for row in WRITTEN)
    answer = xwcp.fill(str(grid), language="he", words=str(words))
    assert answer.report is not None
    filled = answer.report.grid(0)
    assert parse_grid(out, "out.txt") == filled
    again = write(tmp_path, "again.txt", out)
    code, out_again, err = _run(capsys, again, "--words", words, "--format", "grid")
    assert code == 0 and out_again == out, err
    puzzle = read_puzzle(str(again))
    for name in ("f.txt", "f.json", "f.ipuz", "f.xd", "f.jpz"):
        write_puzzle(puzzle, tmp_path / name)
        back = read_puzzle(str(tmp_path / name), HEBREW if name.endswith(".jpz") else None)  # .jpz names no language
        assert back.grid == filled and back.alphabet is HEBREW and back.warnings == (), name
    assert (tmp_path / "f.txt").read_text("utf-8").endswith("אבם\nגפן\nךוץ\n")
    xd = (tmp_path / "f.xd").read_text("utf-8")
    assert "\nאבם\nגפן\nךוץ\n" in xd and "~ מנץ" in xd and "~ כוץ" in xd  # an answer's own last letter is final
    solution = json.loads((tmp_path / "f.ipuz").read_text("utf-8"))["solution"]
    assert solution == WRITTEN
    assert 'solution="ם"' in (tmp_path / "f.jpz").read_text("utf-8")
    document = json.loads((tmp_path / "f.json").read_text("utf-8"))
    assert [e["word"] for e in document["entries"]] == ["אבם", "גפן", "כוץ", "אגך", "בפו", "מנץ"]


def test_every_other_pack_writes_cells_as_before(tmp_path, capsys) -> None:
    from xwcp.model import final_cells, written_cells

    grid = write(tmp_path, "g.txt", "...\n...\n...\n")
    words = write(tmp_path, "w.dict", TINY_LIST)
    code, out, err = _run(capsys, grid, "--words", words, "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["grid"] in [list(f) for f in TINY_FILLS] and "cells" not in data
    filled = parse_grid("\n".join(data["grid"]), "g.txt")
    for alphabet in shipped_alphabets():
        if alphabet.code == "he":
            continue
        assert not alphabet.final and final_cells(filled, alphabet) == frozenset()
        assert written_cells(filled, alphabet) == tuple(map(alphabet.written, filled.cells))
    assert render_grid(filled) == "".join(row + "\n" for row in data["grid"])


def test_check_names_an_unlisted_hebrew_word_as_written(hebrew, capsys) -> None:
    grid, words = hebrew
    words.write_text("".join(f"{w};60\n" for w in WORDS if w != "מנצ"), "utf-8")  # 3D is no longer listed
    full = write(grid.parent, "full.txt", "; language: he\nאבם\nגפן\nכוצ\n")
    code = main(["check", str(full), "--words", str(words)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "Not in the word list (1 entry): 3D מנץ" in out and "3D מנץ (--strict" in err
    assert "א ב ם\nג פ ן\nך ו ץ" in out


def test_an_unfillable_hebrew_grid_draws_its_core_with_final_letters(hebrew, capsys) -> None:
    grid, words = hebrew
    stuck = write(grid.parent, "stuck.txt", "; language: he\nאבמ\n...\n..ק\n")  # no listed word ends in ק
    code, out, err = _run(capsys, stuck, "--words", words)
    assert code == 1, err
    assert "\n א ב ם\n" in out and "5A  ..ק" in out


def test_domains_lists_hebrew_words_as_written(hebrew, capsys) -> None:
    grid, words = hebrew
    code = main(["domains", str(grid), "--language", "he", "--words", str(words)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.split("\n")[5].split()[-1] == "מנץ" and out.split("\n")[2].split()[-1] == "כוץ"


def test_suggest_writes_hebrew_words_with_their_final_letter(hebrew, capsys) -> None:
    grid, words = hebrew
    args = ["suggest", str(grid), "--slot", "4A", "--language", "he", "--words", str(words), "--verify", "--show-fill"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[1].split()[0] == "גפן", out  # not גפנ
    assert "א ב ם\n      ג פ ן\n      ך ו ץ" in out  # the proving fill as the grid shows it, not [א] [ב] [מ]
    assert main([*args, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr()[0])
    assert [w["word"] for w in data["words"]] == ["גפן"]
    assert data["words"][0]["fill"] == ["".join(row) for row in WRITTEN]
    session = xwcp.Session(
        xwcp.compile_problem(parse_grid(GRID, alphabet=HEBREW), xwcp.load_word_list(str(words), alphabet=HEBREW))
    )
    assert [s.word for s in session.suggest("4A")] == ["גפנ"]  # the library keeps the plain letters to match on


def test_check_json_names_unlisted_hebrew_words_and_its_fill_as_written(hebrew, capsys) -> None:
    grid, words = hebrew
    assert main(["domains", str(grid), "--language", "he", "--words", str(words), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr()[0])
    assert {slot["id"]: slot["words"][0]["word"] for slot in data["slots"]}["5A"] == "כוץ"
    words.write_text("".join(f"{w};60\n" for w in WORDS if w != "מנצ"), "utf-8")
    full = write(grid.parent, "full.txt", "; language: he\nאבם\nגפן\nכוצ\n")
    assert main(["check", str(full), "--words", str(words), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr()[0])
    assert data["unlisted"] == [{"id": "3D", "word": "מנץ"}]
    assert data["fill"] == ["".join(row) for row in WRITTEN]


def test_languages_json_lists_the_final_forms(capsys) -> None:
    assert main(["languages", "--format", "json"]) == 0
    packs = {p["code"]: p for p in json.loads(capsys.readouterr()[0])["languages"]}
    assert packs["he"]["final"] == FINALS
    assert all("final" not in p for code, p in packs.items() if code != "he")
    assert packs["he"]["sources"]["hunspell"] == "he_IL" and packs["ro"]["note"]


def test_heatmap_and_forced_letters_show_final_forms_where_entries_end(hebrew, capsys) -> None:
    grid, words = hebrew
    assert main(["heatmap", str(grid), "--language", "he", "--words", str(words), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr()[0])
    assert data["letters"][0] == ["א", "ב", "ם"]  # the typed mem ends 1A: shown as the grid shows it
    forced = {(f["row"], f["col"]): f["letter"] for f in data["forced"]}
    assert forced == {(r, c): WRITTEN[r][c] for r in (1, 2) for c in range(3)}  # ן ך ץ at the ends, ג פ ו inside
    partial = write(grid.parent, "part.txt", "; language: he\nאב.\n...\n...\n")
    assert main(["check", str(partial), "--words", str(words)]) == 0
    assert "Forced letters: r1c3=ם, r2c1=ג, r2c2=פ, r2c3=ן, r3c1=ך, r3c2=ו, r3c3=ץ" in capsys.readouterr()[0]


def test_a_hebrew_design_is_written_in_its_letters_with_final_forms(hebrew, capsys, tmp_path) -> None:
    _, words = hebrew
    args = [
        "design",
        "--size",
        "3x3",
        "--language",
        "he",
        "--words",
        str(words),
        "--theme",
        "גפנ",
        "--symmetry",
        "none",
        "--time-limit",
        "20",
    ]
    assert main([*args, "--format", "json"]) == 0
    design = json.loads(capsys.readouterr()[0])["designs"][0]
    assert design["grid"] == ["".join(row) for row in WRITTEN]  # not the rebus tokens [א][ב][מ]
    assert design["entries"] == {"1A": "אבם", "4A": "גפן", "5A": "כוץ", "1D": "אגך", "2D": "בפו", "3D": "מנץ"}
    assert design["themes"][0]["word"] == "גפן"
    assert main(args) == 0
    out = capsys.readouterr()[0]
    assert "  גפן at row 2" in out and "\nאבם\nגפן\nךוץ\n" in out
    assert main([*args, "--format", "grid"]) == 0
    grid_file = write(tmp_path, "design.txt", capsys.readouterr()[0])
    assert main(["check", str(grid_file), "--words", str(words), "--format", "json"]) == 0  # reads back in Hebrew
    assert json.loads(capsys.readouterr()[0])["fill"] == ["".join(row) for row in WRITTEN]
