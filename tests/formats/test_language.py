"""A puzzle's language through the file formats: Spanish, Russian, Greek and Dutch puzzles open in their letters,
name their language, round-trip through .ipuz/.jpz/.xd/.json/.txt and .puz (2.0 for letters outside Windows-1252)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from xwcp.formats import read_puzzle, write_puzzle
from xwcp.formats._language import charset_alphabet, code_cells, named_alphabet, written_grid
from xwcp.model import parse_grid
from xwcp.model.alphabet import ENGLISH, load_alphabet
from xwcp.model.puzzle import Puzzle

# Each a 3x3 open square in the language's letters: rows and columns are six different words.
SOLUTIONS = {
    "es": ["AÑO", "SON", "OSA"],
    "ru": ["ДОМ", "АРА", "РОТ"],
    "el": ["ΑΛΣ", "ΕΩΝ", "ΡΟΔ"],
    "et": ["ÕUN", "DÄO", "ŠŽA"],
    "sl": ["NOŽ", "ČAS", "ŠIR"],
    "ro-diacritics": ["AȘA", "ĂȚÎ", "ÂPĂ"],
    "grc": ["ΤΩΙ", "ΟΛΣ", "ΙΝΑ"],
}
HEADER_BY_LANGUAGE = {  # how each test file says its language: a charset, a BCP-47 tag, our extension key
    "es": {"charset": "ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"},
    "ru": {"charset": "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"},
    "el": {"language": "el-GR"},
    "et": {"charset": "ABDEFGHIJKLMNOPRSŠZŽTUVÕÄÖÜ"},  # Õ is Estonian's alone
    "sl": {"language": "sl-SI"},
    "ro-diacritics": {"language": "ro-diacritics"},
    "grc": {"language": "grc"},
}


def ipuz_dict(code: str, with_solution: bool = True) -> dict[str, object]:
    """An .ipuz as another tool writes it: UTF-8 letters in the solution, the language said as in HEADER_BY_LANGUAGE."""
    rows = SOLUTIONS[code]
    return {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1"],
        "title": f"test {code}",
        "dimensions": {"width": 3, "height": 3},
        **HEADER_BY_LANGUAGE[code],
        "puzzle": [[1, 2, 3], [4, 0, 0], [5, 0, 0]],
        "solution": [list(row) for row in rows] if with_solution else [[None] * 3] * 3,
        "clues": {"Across": [[1, "a"], [4, "b"], [5, "c"]], "Down": [[1, "d"], [2, "e"], [3, "f"]]},
    }


def cell_rows(grid) -> list[str]:
    """The grid's cells joined row by row (code chars, which are the letters for these packs)."""
    return ["".join(grid.cells[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)]


def write_ipuz(tmp_path, code: str, **kw: bool):
    path = tmp_path / f"{code}.ipuz"
    path.write_text(json.dumps(ipuz_dict(code, **kw), ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("code", sorted(SOLUTIONS))
def test_a_foreign_ipuz_opens_in_its_language(tmp_path, code):
    puzzle = read_puzzle(write_ipuz(tmp_path, code))
    assert puzzle.alphabet.code == code
    assert cell_rows(puzzle.grid) == SOLUTIONS[code]
    assert all(puzzle.alphabet.index(ch) is not None for ch in puzzle.grid.cells)  # code chars of its pack


@pytest.mark.parametrize("code", sorted(SOLUTIONS))
@pytest.mark.parametrize("suffix", [".ipuz", ".jpz", ".xd", ".json", ".txt"])
def test_a_foreign_puzzle_round_trips(tmp_path, code, suffix):
    puzzle = read_puzzle(write_ipuz(tmp_path, code))
    out = tmp_path / f"again{suffix}"
    write_puzzle(puzzle, out)
    back = read_puzzle(out, load_alphabet(code))
    assert back.grid == puzzle.grid
    assert back.title == puzzle.title
    if suffix != ".jpz":  # .jpz has no place for a language: it is given (--language)
        again = read_puzzle(out)
        assert again.alphabet.code == code and again.grid == puzzle.grid
    text = out.read_text(encoding="utf-8")
    assert all(letter in text for letter in SOLUTIONS[code][0]) and "\\u" not in text  # UTF-8 letters, not escapes


@pytest.mark.parametrize("code", ["ru", "el"])
def test_puz_holds_cyrillic_and_greek_in_a_version_2_file(tmp_path, code):
    puzzle = read_puzzle(write_ipuz(tmp_path, code))
    write_puzzle(puzzle, tmp_path / f"{code}.puz")
    assert b"2.0\x00" in (tmp_path / f"{code}.puz").read_bytes()[:64]
    back = read_puzzle(tmp_path / f"{code}.puz")
    assert back.alphabet.code == code and cell_rows(back.grid) == SOLUTIONS[code]


def test_puz_keeps_windows_1252_letters(tmp_path):
    puzzle = read_puzzle(write_ipuz(tmp_path, "es"))
    write_puzzle(puzzle, tmp_path / "es.puz")
    back = read_puzzle(tmp_path / "es.puz", load_alphabet("es"))
    assert cell_rows(back.grid) == SOLUTIONS["es"]
    swedish, danish = load_alphabet("sv"), load_alphabet("da")
    for alphabet, row in ((swedish, "ÄÖ"), (danish, "ÆØ")):
        grid = parse_grid(f"{row}\n..\n", alphabet=alphabet)
        write_puzzle(Puzzle(grid, alphabet=alphabet), tmp_path / f"{alphabet.code}.puz")
        assert read_puzzle(tmp_path / f"{alphabet.code}.puz", alphabet).grid.cells[:2] == tuple(row)


def test_dutch_ij_is_one_cell_in_files_and_written_as_ij(tmp_path):
    nl = load_alphabet("nl")
    grid = parse_grid("{IJ}S\n..\n", alphabet=nl)
    puzzle = Puzzle(grid, alphabet=nl)
    for suffix in (".ipuz", ".xd", ".json", ".txt"):
        out = tmp_path / f"nl{suffix}"
        write_puzzle(puzzle, out)
        text = out.read_text(encoding="utf-8")
        assert "IJ" in text and "\ue000" not in text and not any(0xE000 <= ord(ch) <= 0xF8FF for ch in text)
        back = read_puzzle(out)
        assert back.alphabet.code == "nl" and back.grid == grid, suffix
    assert written_grid(grid, nl).cells[0] == "IJ"


def test_charset_picks_the_pack_that_holds_its_letters():
    warnings: list[str] = []
    assert charset_alphabet("ABCDEFGHIJKLMNÑOPQRSTUVWXYZ", warnings).code == "es"
    assert charset_alphabet("АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ", warnings).code == "ru"  # Ё folds into Е
    assert charset_alphabet("ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ", warnings).code == "el"
    assert len(warnings) == 3 and all("--language" in w for w in warnings)
    assert charset_alphabet("ABCDEFGHIJKLMNOPQRSTUVWXYZ", []) is None  # plain A-Z: English, as ever
    assert charset_alphabet(None, []) is None


def test_a_language_tag_names_its_pack_and_an_unknown_one_warns():
    warnings: list[str] = []
    assert named_alphabet("es-MX", warnings).code == "es"
    assert named_alphabet("nl_NL", warnings).code == "nl"
    assert named_alphabet("xx-YY", warnings) is None
    assert len(warnings) == 1 and "xx-YY" in warnings[0]
    assert named_alphabet(None, []) is None and named_alphabet(5, []) is None


def test_cells_as_written_become_code_chars():
    nl = load_alphabet("nl")
    puzzle = Puzzle(parse_grid("[IJ]S\n..\n"))  # read as English: the cell holds the letters I and J
    coded = code_cells(puzzle, nl)
    assert coded.alphabet is nl
    assert coded.grid.cells[0] == nl.from_cell("IJ") and coded.grid.cells[1] == "S"
    assert code_cells(puzzle, ENGLISH).grid == puzzle.grid  # English: nothing changes


def test_an_english_file_reads_as_it_always_has(tmp_path):
    path = tmp_path / "en.ipuz"
    data = ipuz_dict("es")
    del data["charset"]
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    puzzle = read_puzzle(path)
    assert puzzle.alphabet is ENGLISH and puzzle.grid.rows[0] == "A[Ñ]O"  # a symbol no English word fits


def test_a_file_folds_its_cells_as_its_language_lists_do(tmp_path):
    """A cell a file writes as its lists' readers would take it (Greek with tonos, Russian Ё, German ß) is read as
    those letters, not kept as a character no word fits; ß, two letters in German lists, becomes a rebus, said."""
    data = ipuz_dict("el")
    data["solution"] = [["ά", "Λ", "Σ"], ["Ε", "ώ", "Ν"], ["Ρ", "Ο", "Δ"]]
    path = tmp_path / "el.ipuz"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    puzzle = read_puzzle(path)
    assert cell_rows(puzzle.grid) == SOLUTIONS["el"] and not puzzle.warnings

    de = load_alphabet("de")
    grid = parse_grid("MA..\n....\n")
    coded = code_cells(Puzzle(dataclasses.replace(grid, cells=("M", "A", "ß", "ß") + grid.cells[4:])), de)
    assert coded.grid.cells[2] == coded.grid.cells[3] == "SS" == de.folded_cell("ß")
    assert len(coded.warnings) == 1 and "'ß' is SS in German word lists" in coded.warnings[0]
    assert "read as the rebus cell [SS] (row 1, column 3 and 1 more)" in coded.warnings[0]
