"""The `fill` command (`xwcp.cli.fill`): its JSON answer checked entry by entry against the grid and list, its
text and grid output, exit 1 for an unfillable grid and 3 at the time limit, and --out refused before any work."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.cli.helpers import TINY_FILLS, TINY_LIST, write
from tests.helpers import entries_of, one_line, run
from xwcp.cli.commands import main
from xwcp.engine.result import check_fill, fill_grid
from xwcp.model import read_grid
from xwcp.services.load import LoadOptions, load_problem
from xwcp.words.wordlist import load_word_list

ROOT = Path(__file__).resolve().parents[2]


def check_fill_json(data, grid_path, words_path, min_score=50, allow_dupes=False):
    assert set(data) >= {"status", "grid", "entries", "backend", "seconds"}
    assert data["status"] == "filled"
    assert isinstance(data["backend"], str) and data["backend"]
    assert isinstance(data["seconds"], float) and data["seconds"] >= 0
    problem = load_problem(grid_path, words_path, LoadOptions(min_score=min_score, allow_dupes=allow_dupes))
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
        assert (entry["number"], entry["direction"], entry["row"], entry["col"], entry["length"]) == (
            slot.number,
            slot.direction.value,
            slot.row,
            slot.col,
            slot.length,
        )
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
        ("1A", across[0]),
        ("4A", across[1]),
        ("5A", across[2]),
        ("1D", down[0]),
        ("2D", down[1]),
        ("3D", down[2]),
    ]
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
    assert sorted(tuple(f["grid"]) for f in data["fills"]) == [("AB", "CD"), ("AC", "BD"), ("EF", "GH"), ("EG", "FH")]
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
    assert data["entries"][0] == {
        "id": "1A",
        "number": 1,
        "direction": "across",
        "row": 0,
        "col": 0,
        "length": 3,
        "word": "QXZ",
        "score": None,
    }
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


# ----- --format grid


def test_format_grid_reads_back(files, capsys):
    grid, words = files("g.txt", "; a comment\n#...#\n.....\n.....\n.....\n#...#\n"), None
    code, out, err = run(["fill", grid, "--format", "grid"], capsys)
    assert code == 0, err
    filled = files("filled.txt", out)
    assert read_grid(filled).rows == out.split()
    code, out2, err = run(["check", filled, "--format", "json"], capsys)
    assert code == 0 and json.loads(out2)["verdict"] == "fillable"
    problem = load_problem(filled, words)
    assert check_fill(problem, entries_of(problem, out.split())) == []


def test_format_grid_without_fill_prints_nothing(files, capsys):
    code, out, err = run(
        ["fill", files("g.txt", "..\n..\n"), "--words", files("w.txt", "AB\nCD\n"), "--format", "grid"], capsys
    )
    assert code == 1 and out == "" and one_line(err).startswith("xwcp: Unfillable")


def test_format_grid_with_several_fills_separates_them_by_comments(files, capsys):
    code, out, err = run(
        [
            "fill",
            files("g.txt", "..\n..\n"),
            "--words",
            files("w.txt", "AB\nCD\nAC\nBD\n"),
            "--count",
            "all",
            "--format",
            "grid",
        ],
        capsys,
    )
    assert code == 0
    assert [line for line in out.splitlines() if line] in (
        ["; fill 1 of 2", "AB", "CD", "; fill 2 of 2", "AC", "BD"],
        ["; fill 1 of 2", "AC", "BD", "; fill 2 of 2", "AB", "CD"],
    )


# ----- --out


def test_fill_out_with_unknown_extension_is_refused_before_filling(tmp_path, capsys):
    code = main(["fill", str(ROOT / "models" / "4x4-unfillable.txt"), "--out", str(tmp_path / "f.doc")])
    assert code == 2
    assert "f.doc: unknown puzzle file extension" in capsys.readouterr().err


# ----- another language (issue 36): --language, the list read in its letters, cells shown as written ----------

from tests.helpers import check_written_fill  # noqa: E402
from xwcp.model.alphabet import load_alphabet  # noqa: E402

OPEN_3 = "...\n...\n...\n"
# German writes Ä as AE across two cells: the only fill spells ÄS as AES (read as English, ÄS is AS, no fill).
GERMAN = ("ÄS;60\nRUM;60\nTOT;60\nART;60\nEUO;60\nSMT;60\nAS;90\n", {"AES", "RUM", "TOT", "ART", "EUO", "SMT"})
# Spanish keeps Ñ: AÑO is not ANO (also listed, a different word, scored higher); no listed word starts with N,
# so the square AÑO/SON/OSA (or its transpose) is the only fill, and folding Ñ into N would leave none.
SPANISH = (
    "AÑO;80\nSON;80\nOSA;70\nASO;60\nÑOS;50\nONA;50\nANO;90\n",
    {"AÑO", "SON", "OSA", "ASO", "ÑOS", "ONA", "ANO"},
)
RUSSIAN = (
    "дом;60\nара;60\nрот;60\nдар;60\nоро;60\nмат;60\nдым;50\n",
    {"ДОМ", "АРА", "РОТ", "ДАР", "ОРО", "МАТ", "ДЫМ"},
)


def _fill_language(tmp_path, monkeypatch, capsys, code, listed, *extra):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid, words = write(tmp_path, "grid.txt", OPEN_3), write(tmp_path, f"{code}.dict", listed[0])
    code_out, out, err = run(["fill", grid, "--language", code, "--words", words, "--format", "json", *extra], capsys)
    assert code_out == 0, err
    data = json.loads(out)
    assert data["status"] == "filled" and data["language"] == code
    alphabet = load_alphabet(code)
    assert check_written_fill(data["cells"], listed[1], alphabet.letters) == []
    for entry in data["entries"]:  # each entry's word as written, listed
        assert entry["word"] in listed[1]
    return data


def test_fill_in_german_reads_the_list_in_its_letters(tmp_path, monkeypatch, capsys):
    data = _fill_language(tmp_path, monkeypatch, capsys, "de", GERMAN)
    assert data["grid"] == ["AES", "RUM", "TOT"] or data["grid"] == ["ART", "EUO", "SMT"]
    grid, words = tmp_path / "grid.txt", tmp_path / "de.dict"
    code, out, _ = run(["fill", grid, "--words", words, "--format", "json"], capsys)  # the same list read as English
    assert code == 1 and json.loads(out)["status"] == "unfillable"
    code, out, _ = run(["fill", grid, "--language", "de", "--words", words, "--format", "grid"], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "; language: de" and lines[1:] in (["AES", "RUM", "TOT"], ["ART", "EUO", "SMT"])
    filled = write(tmp_path, "filled.txt", out)  # the grid output reads back in its language, with no --language
    code, out, err = run(["check", filled, "--words", words, "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["verdict"] == "fillable", err


def test_a_grid_file_names_its_language(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid = write(tmp_path, "grid.txt", "; Language: de\n" + OPEN_3)
    words = write(tmp_path, "de.dict", GERMAN[0])
    code, out, err = run(["fill", grid, "--words", words, "--format", "json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data["language"] == "de" and check_written_fill(data["cells"], GERMAN[1], load_alphabet("de").letters) == []
    code, _, err = run(["fill", grid, "--language", "en", "--words", words], capsys)  # --language overrides the file
    assert code == 1


def test_fill_in_spanish_keeps_n_tilde(tmp_path, monkeypatch, capsys):
    data = _fill_language(tmp_path, monkeypatch, capsys, "es", SPANISH, "--backend", "cpsat")
    assert data["grid"] in (["AÑO", "SON", "OSA"], ["ASO", "ÑOS", "ONA"])


def test_fill_in_russian(tmp_path, monkeypatch, capsys):
    """The test contract as written: `xwcp fill GRID --language ru --words LIST --format json`, default backend."""
    data = _fill_language(tmp_path, monkeypatch, capsys, "ru", RUSSIAN)
    assert data["grid"] in (["ДОМ", "АРА", "РОТ"], ["ДАР", "ОРО", "МАТ"])


def test_the_default_list_is_refused_for_another_language(tmp_path, capsys):
    grid = write(tmp_path, "grid.txt", OPEN_3)
    code, _, err = run(["fill", grid, "--language", "es"], capsys)
    line = one_line(err)
    assert code == 2 and "default word list is English" in line and "--words" in line
    assert "xwcp words build --language es" in line


def test_bad_language_input_is_one_line_and_exit_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    words = write(tmp_path, "es.dict", SPANISH[0])
    code, _, err = run(["fill", write(tmp_path, "g.txt", OPEN_3), "--language", "xx", "--words", words], capsys)
    assert code == 2 and "unknown language 'xx'" in one_line(err) and "es" in err and "ru" in err
    code, _, err = run(
        ["fill", write(tmp_path, "g2.txt", "AЖ.\n...\n...\n"), "--language", "es", "--words", words], capsys
    )  # a letter outside the puzzle's alphabet, named by its cell
    assert code == 2 and "row 1, column 2: 'Ж' is not a letter of Spanish" in one_line(err)
    cyrillic = write(tmp_path, "ru.dict", RUSSIAN[0])
    code, _, err = run(["fill", write(tmp_path, "g3.txt", OPEN_3), "--language", "es", "--words", cyrillic], capsys)
    assert code == 2 and "no usable entries in Spanish" in one_line(err)  # no word of the alphabet


def test_a_files_letter_outside_its_language_names_the_file_and_cell(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    ipuz = tmp_path / "bad.ipuz"
    ipuz.write_text(
        json.dumps(
            {
                "version": "http://ipuz.org/v2",
                "kind": ["http://ipuz.org/crossword#1"],
                "org.xwcp:language": "es",
                "dimensions": {"width": 3, "height": 3},
                "puzzle": [[1, 2, 3], [4, 0, 0], [5, 0, 0]],
                "solution": [["A", "Ж", None], [None] * 3, [None] * 3],
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    words = write(tmp_path, "es.dict", SPANISH[0])
    for command in (["fill"], ["check"], ["domains"]):
        code, _, err = run([*command, ipuz, "--words", words], capsys)
        line = one_line(err)
        assert code == 2 and str(ipuz) in line and "row 1, column 2 holds 'Ж'" in line and "Spanish" in line


# ----- typed letters fold as the language's lists fold them: ά is Α, ё is Е, ß the rebus cell [SS] ----------------

import pytest  # noqa: E402

from xwcp.services.load import load  # noqa: E402


@pytest.mark.parametrize(
    ("code", "grid", "listed", "rows"),
    [
        ("el", "ά.\nν.\n", "άν;50\nαβ;50\nνε;50\nβε;50\n", ["ΑΒ", "ΝΕ"]),
        ("ru", "ё.\nж.\n", "ёж;50\nел;50\nжа;50\nла;50\n", ["ЕЛ", "ЖА"]),
        ("de", "Maß\n...\n", "Maß;50\nME;50\nAN;50\nSSO;50\nENO;50\n", ["MA[SS]", "ENO"]),
    ],
)
def test_fill_folds_typed_letters_as_the_list_does(tmp_path, monkeypatch, capsys, code, grid, listed, rows):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    grid_path = write(tmp_path, "grid.txt", f"; language: {code}\n{grid}")
    words = write(tmp_path, f"{code}.dict", listed)
    status, out, err = run(["fill", grid_path, "--words", words, "--format", "json"], capsys)
    assert status == 0, err
    data = json.loads(out)
    assert data["status"] == "filled" and data["language"] == code and data["grid"] == rows
    warnings = [line for line in err.splitlines() if "warning" in line]
    if code == "de":  # ß is two letters in one cell: said once
        assert len(warnings) == 1 and "'ß' is SS in German word lists" in warnings[0] and "[SS]" in warnings[0]
    else:
        assert warnings == []
    alphabet = load_alphabet(code)
    problem = load(str(grid_path), str(words), as_paths=True).problem  # the grid's own language line
    word_by_id = {entry["id"]: alphabet.fold_word(entry["word"]) for entry in data["entries"]}
    assert check_fill(problem, tuple(word_by_id[slot.name] for slot in problem.slots)) == []


def test_processes_caps_the_auto_portfolio_and_refuses_zero(tiny, capsys, monkeypatch):
    from xwcp.backends import auto

    asked = []
    real = auto.search_processes
    monkeypatch.setattr(auto, "search_processes", lambda cap=None, least=1: asked.append(cap) or real(cap, least))
    code, out, err = run(["fill", tiny[0], "--words", tiny[1], "--processes", "3", "--format", "json"], capsys)
    assert code == 0, err
    check_fill_json(json.loads(out), *tiny)
    assert asked == [3]
    for bad in ("0", "-2", "many"):
        code, out, err = run(["fill", tiny[0], "--words", tiny[1], "--processes", bad], capsys)
        assert code == 2 and out == ""
        assert "--processes" in one_line(err)
