"""`language=` in the library (xwcp.fill, Session, compile_problem, design) and `xwcp.languages()`: grids and lists
read in a pack's letters, fills checked cell by cell, a foreign .ipuz filled and saved, bad input refused."""

from __future__ import annotations

import json

import pytest

import xwcp
from tests.formats.test_language import SOLUTIONS, write_ipuz
from tests.helpers import check_written_fill
from xwcp.model.alphabet import load_alphabet, shipped_alphabets
from xwcp.words.wordlist import layer_word_lists, words_from_pairs

OPEN_3 = "...\n...\n...\n"
GERMAN = {"ÄS": 60, "RUM": 60, "TOT": 60, "ART": 60, "EUO": 60, "SMT": 60, "AS": 90}
GERMAN_WRITTEN = {"AES", "RUM", "TOT", "ART", "EUO", "SMT"}


def words_of_square(rows: list[str]) -> dict[str, int]:
    """The six words of a 3x3 square (rows and columns), each scored 60."""
    return {word: 60 for word in rows + ["".join(col) for col in zip(*rows)]}


def cells_of(answer: xwcp.FillAnswer) -> list[list[str]]:
    """The first fill's cells as written, from the answer's JSON (what the command line prints)."""
    return answer.as_dict()["cells"]


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))


def test_fill_with_language_reads_the_words_in_its_letters(tmp_path):
    path = tmp_path / "grid.txt"
    path.write_text(OPEN_3, encoding="utf-8")
    answer = xwcp.fill(str(path), language="de", words=GERMAN, time_limit_s=30)
    assert answer.status is xwcp.FillStatus.FILLED
    assert check_written_fill(cells_of(answer), GERMAN_WRITTEN, load_alphabet("de").letters) == []
    assert set(answer.entries_by_name.values()) <= GERMAN_WRITTEN
    assert xwcp.fill(str(path), words=GERMAN).status is xwcp.FillStatus.UNFILLABLE  # English folds ÄS to AS


def test_a_loaded_word_list_decides_the_language_when_none_is_named():
    german = words_from_pairs(list(GERMAN.items()), alphabet=load_alphabet("de"))
    answer = xwcp.fill(OPEN_3, words=german, time_limit_s=30)
    assert answer.status is xwcp.FillStatus.FILLED
    assert check_written_fill(cells_of(answer), GERMAN_WRITTEN, load_alphabet("de").letters) == []
    assert xwcp.Session(OPEN_3, words=german).problem.alphabet.code == "de"


def test_languages_lists_the_packs():
    packs = xwcp.languages()
    assert [p["code"] for p in packs] == [a.code for a in shipped_alphabets()]
    spanish = next(p for p in packs if p["code"] == "es")
    assert spanish["size"] == 27 and "Ñ" in spanish["letters"] and spanish["direction"] == "ltr"


def test_bad_language_input_is_refused():
    with pytest.raises(xwcp.InputError, match="unknown language 'xx'.*es"):
        xwcp.Session(OPEN_3, words=GERMAN, language="xx")
    with pytest.raises(xwcp.InputError, match="default word list is English.*language='es'.*words="):
        xwcp.Session(OPEN_3, language="es")
    with pytest.raises(xwcp.InputError, match="row 1, column 1: 'Ж' is not a letter of Spanish"):
        xwcp.Session("Ж..\n...\n...\n", words={"AÑO": 60}, language="es")
    with pytest.raises(xwcp.InputError, match="none of the 1 words given is a word of Spanish"):
        xwcp.Session(OPEN_3, words={"ДОМ": 60}, language="es")
    german = words_from_pairs(list(GERMAN.items()), alphabet=load_alphabet("de"))
    with pytest.raises(xwcp.InputError, match="is a German .* list .* but the puzzle is in Spanish"):
        xwcp.Session(OPEN_3, words=german, language="es")
    spanish = words_from_pairs([("AÑO", 60)], alphabet=load_alphabet("es"))
    with pytest.raises(xwcp.InputError, match="cannot layer"):
        layer_word_lists([german, spanish])
    with pytest.raises(TypeError, match="language must be a language code"):
        xwcp.Session(OPEN_3, words=GERMAN, language=5)


def test_compile_problem_takes_a_language():
    problem = xwcp.compile_problem("AÑ.\n...\n...\n", {"AÑO": 60, "OSO": 60}, language="es")
    assert problem.alphabet.code == "es" and problem.grid.cells[1] == "Ñ"


@pytest.mark.parametrize("code", sorted(SOLUTIONS))
def test_a_foreign_ipuz_compiles_in_its_language(tmp_path, code):
    """The file names its language (charset or tag): the grid, the list and the problem are in its letters."""
    path = write_ipuz(tmp_path, code, with_solution=False)
    session = xwcp.Session(str(path), words=words_of_square(SOLUTIONS[code]))
    assert session.problem.alphabet.code == code
    assert session.puzzle.alphabet.code == code and session.words.n_words == 6


@pytest.mark.parametrize("code", sorted(SOLUTIONS))
def test_a_foreign_ipuz_fills_and_saves(tmp_path, code):
    path = write_ipuz(tmp_path, code, with_solution=False)
    listed = words_of_square(SOLUTIONS[code])
    answer = xwcp.fill(str(path), words=listed, backend="cpsat", time_limit_s=30)
    alphabet = load_alphabet(code)
    assert check_written_fill(cells_of(answer), set(listed), alphabet.letters) == []
    for suffix in (".ipuz", ".jpz", ".xd", ".json"):
        saved = answer.save(tmp_path / f"filled{suffix}")
        back = xwcp.read_puzzle(saved, None if suffix != ".jpz" else alphabet)
        assert back.grid.cells == answer.report.grid(0).cells, suffix
        assert back.alphabet.code == code or suffix == ".jpz"  # .jpz has no place for the language


def test_the_json_answer_names_the_language(tmp_path):
    answer = xwcp.fill(OPEN_3, words=GERMAN, language="de", time_limit_s=30)
    data = answer.as_dict()
    assert data["language"] == "de" and json.loads(json.dumps(data))["cells"] == cells_of(answer)


def test_fill_in_spanish_with_the_default_backend(tmp_path):
    """The test contract as written: `xwcp.fill(path, language="es", words=...)`."""
    path = tmp_path / "grid.txt"
    path.write_text(OPEN_3, encoding="utf-8")
    listed = {"AÑO": 80, "SON": 80, "OSA": 70, "ASO": 60, "ÑOS": 50, "ONA": 50, "ANO": 90}
    answer = xwcp.fill(str(path), language="es", words=listed, time_limit_s=30)
    assert answer.status is xwcp.FillStatus.FILLED
    assert check_written_fill(cells_of(answer), set(listed), load_alphabet("es").letters) == []
    assert answer.rows in (["AÑO", "SON", "OSA"], ["ASO", "ÑOS", "ONA"])


def test_domains_give_dutch_ij_as_written(tmp_path) -> None:
    import xwcp

    grid = tmp_path / "nl.txt"
    grid.write_text("{IJ}...\n", "utf-8")
    words = tmp_path / "nl.dict"
    words.write_text("ijsje;60\nijzer;55\nijs;60\nlaat;50\nijl;50\n", "utf-8")
    answer = xwcp.domains(str(grid), language="nl", words=str(words), min_score=0)
    assert answer.is_consistent
    assert [word for word, _ in answer["1A"]] == ["IJSJE", "IJZER"]  # four cells each: IJ is one
    assert all(word.isascii() for slot in answer for word, _ in answer[slot])  # never a private-use code char


def test_an_unfillable_reason_writes_dutch_ij_as_written(tmp_path) -> None:
    import xwcp

    grid = tmp_path / "nl.txt"
    grid.write_text("{IJ}S..\n", "utf-8")
    words = tmp_path / "nl.dict"
    words.write_text("ijzer;60\nlaat;50\n", "utf-8")
    answer = xwcp.fill(str(grid), language="nl", words=str(words))
    assert answer.status is xwcp.FillStatus.UNFILLABLE
    assert "1A (IJS..)" in (answer.reason or "") and (answer.reason or "").isascii()  # never a private-use char
