"""`xwcp.words.build`: lists built from a fake Hunspell pair and plain lists made here (every line checked, and the
folding of each language: Ñ kept in Spanish, Ä -> AE in German, Ё -> Е in Russian, IJ one letter in Dutch, Welsh
cuts kept), and from the real wordfreq and system dictionaries where this machine has them."""

from __future__ import annotations

from pathlib import Path

import pytest

from xwcp.base.errors import InputError
from xwcp.model.alphabet import load_alphabet
from xwcp.words import build
from xwcp.words.build import (
    FLAT_SCORE,
    UNSEEN_SCORE,
    SourceKind,
    build_words,
    find_dict,
    find_hunspell,
    score_of_zipf,
    spelled,
)
from xwcp.words.wordlist import load_word_list, score_by_word_of

SPANISH_AFF = """SET UTF-8
NEEDAFFIX X
FORBIDDENWORD F
SFX S Y 2
SFX S 0 s [aeiou]
SFX S 0 es [^aeiou]
PFX R Y 1
PFX R 0 re .
SFX C N 1
SFX C o ito/S o
SFX G Y 2
SFX G 0 o .
SFX G 0 a .
"""
SPANISH_DIC = """7
año/S
niño/SC
cama/SR
raíz
compañer/XG
malo/F
ñu/S
"""
SPANISH_FORMS = {
    "AÑO": 50,
    "AÑOS": 50,
    "NIÑO": 50,
    "NIÑOS": 50,
    "NIÑITO": 50,
    "NIÑITOS": 50,
    "CAMA": 50,
    "CAMAS": 50,
    "RECAMA": 50,
    "RECAMAS": 50,
    "RAIZ": 50,
    "COMPAÑERO": 50,
    "COMPAÑERA": 50,
    "ÑU": 50,
    "ÑUS": 50,
}
"""Every form of the pair above, folded: NEEDAFFIX keeps COMPAÑER out, FORBIDDENWORD keeps MALO out, the two-fold
suffix makes NIÑITOS, the cross product RECAMAS; Ñ stays Ñ and RAÍZ loses its accent."""


def read_list(path: Path) -> tuple[list[str], dict[str, int]]:
    """(the comment lines, {word: score}) of a built list, checking each word line is WORD;score."""
    comments, score_by_word = [], {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            comments.append(line)
            continue
        word, sep, score = line.partition(";")
        assert sep and word and score.lstrip("-").isdigit(), line
        assert word not in score_by_word, f"{word} listed twice"
        score_by_word[word] = int(score)
    return comments, score_by_word


@pytest.fixture
def spanish_pair(tmp_path):
    (tmp_path / "es_FAKE.aff").write_text(SPANISH_AFF, encoding="utf-8")
    dic = tmp_path / "es_FAKE.dic"
    dic.write_text(SPANISH_DIC, encoding="utf-8")
    return dic


def test_a_hunspell_pair_expands_to_every_form_folded_into_the_spanish_alphabet(spanish_pair, tmp_path):
    pytest.importorskip("spylls", reason="the [languages] extra's spylls expands Hunspell dictionaries")
    out = tmp_path / "es.dict"
    report = build_words("es", str(spanish_pair), out, scores="flat")
    comments, score_by_word = read_list(out)
    assert score_by_word == SPANISH_FORMS
    assert report.origin.kind is SourceKind.HUNSPELL
    assert report.n_written == len(SPANISH_FORMS)
    assert report.n_outside == 0
    assert any(str(spanish_pair) in line for line in comments)
    assert any(line.startswith("# licence: ") for line in comments)
    assert list(score_by_word) == sorted(score_by_word, key=load_alphabet("es").encode)  # alphabet order: Ñ after N
    # the list reads back through the Spanish alphabet as the same words with the same scores
    spanish = load_alphabet("es")
    words = load_word_list(out, use_cache=False, alphabet=spanish)
    assert {spanish.written(word): score for word, score in score_by_word_of(words).items()} == SPANISH_FORMS


def test_spanish_keeps_n_tilde_apart_and_keeps_the_higher_score_of_words_that_fold_together(files, tmp_path):
    source = files(
        "es.txt",
        "año;80\nano;10\nánimo;40\nanimo;60\nniño\nx;90\nqué tal;30\n日本;70\nfoo bar baz qux "
        "quux corge grault;50\n# a comment\n",
    )
    out = tmp_path / "out.dict"
    report = build_words("es", str(source), out, scores="flat")
    _, score_by_word = read_list(out)
    assert score_by_word == {"AÑO": 80, "ANO": 10, "ANIMO": 60, "NIÑO": FLAT_SCORE, "QUETAL": 30}
    assert report.n_merged == 1  # ánimo and animo
    assert report.n_outside == 1 and report.outside_examples == ["日本"]
    assert report.n_bad_length == 2  # X (one letter) and the 29-letter phrase
    assert "日本" in report.summary() and "1 with letters outside the alphabet" in report.summary()


def test_german_writes_umlauts_and_sharp_s_as_two_letters(files, tmp_path):
    source = files("de.txt", "Ärger\nStraße;70\nMädchen\nüber\ngroß\nŒuvre\n")
    out = tmp_path / "de.dict"
    report = build_words("de", str(source), out, scores="flat")
    _, score_by_word = read_list(out)
    assert score_by_word == {"AERGER": 50, "STRASSE": 70, "MAEDCHEN": 50, "UEBER": 50, "GROSS": 50}
    assert report.n_outside == 1 and report.outside_examples == ["Œuvre"]


def test_russian_folds_yo_into_ye_and_keeps_short_i(files, tmp_path):
    source = files("ru.txt", "ёлка;70\nелка;40\nжук\nчай;55\nbonjour\n")
    out = tmp_path / "ru.dict"
    build_words("ru", str(source), out, scores="flat")
    _, score_by_word = read_list(out)
    assert score_by_word == {"ЕЛКА": 70, "ЖУК": 50, "ЧАЙ": 55}


def test_dutch_ij_is_written_as_one_letter_and_welsh_cuts_are_kept(files, tmp_path):
    out = tmp_path / "nl.dict"
    build_words("nl", str(files("nl.txt", "ijs;60\nbijl\n")), out, scores="flat")
    assert read_list(out)[1] == {"IJS": 60, "BIJL": 50}
    nl = load_alphabet("nl")
    assert len(nl.fold_word("IJS") or "") == 2  # two cells
    out = tmp_path / "cy.dict"
    build_words("cy", str(files("cy.txt", "BAN+GOR;50\nllan;50\n")), out, scores="flat")
    assert read_list(out)[1] == {"BAN+GOR": 50, "LLAN": 50}
    cy = load_alphabet("cy")
    assert len(cy.fold_word("BAN+GOR") or "") == 6 and len(cy.fold_word("BANGOR") or "") == 5
    assert spelled(cy, cy.fold_word("CAL+LOR") or "") == "CAL+LOR"


def test_an_open_pack_keeps_its_aksharas_and_reads_back(files, tmp_path):
    out = tmp_path / "hi.dict"
    build_words("hi", str(files("hi.txt", "नमस्ते;60\nभारत\nabc\n")), out, scores="flat")
    assert read_list(out)[1] == {"नमस्ते": 60, "भारत": 50}
    hindi = load_alphabet("hi")
    words = load_word_list(out, use_cache=False, alphabet=hindi)
    assert sorted(len(word) for word in score_by_word_of(words)) == [3, 3]  # न म स्ते, भा र त: three cells each


def test_an_open_pack_s_list_keeps_to_the_letters_a_list_can_have(files, tmp_path, monkeypatch):
    hindi = load_alphabet("hi")
    monkeypatch.setattr(build, "MAX_OPEN_LETTERS", hindi.size + 1)  # room for one akshara beyond the pack's letters
    out = tmp_path / "hi.dict"
    report = build_words("hi", str(files("hi.txt", "नमस्ते\nस्ते\nक्ष\n")), out, min_length=1, scores="flat")
    assert read_list(out)[1] == {"नमस्ते": 50, "स्ते": 50}  # स्ते is used twice, क्ष once
    assert report.n_rare_letters == 1 and "akshara" in report.summary()


def test_lengths_are_counted_in_cells(files, tmp_path):
    out = tmp_path / "nl.dict"
    report = build_words(
        "nl", str(files("nl.txt", "ijs\nbijl\nijzer\n")), out, min_length=3, max_length=3, scores="flat"
    )
    assert read_list(out)[1] == {"BIJL": 50}  # B IJ L: three cells
    assert report.n_bad_length == 2


def test_max_words_keeps_the_best_scored(files, tmp_path):
    out = tmp_path / "es.dict"
    report = build_words("es", str(files("es.txt", "uno;10\ndos;90\ntres;50\n")), out, max_words=2, scores="flat")
    assert read_list(out)[1] == {"DOS": 90, "TRES": 50}
    assert report.n_dropped_by_max == 1


def test_the_default_place_is_the_data_folder(files, tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_DATA_DIR", str(tmp_path / "data"))
    report = build_words("es", str(files("lista.txt", "año\n")), scores="flat")
    assert report.path == tmp_path / "data" / "words" / "es-lista.dict"
    assert read_list(report.path)[1] == {"AÑO": 50}
    report = build_words("es", str(files("page.txt", "año\n")), scores="flat")  # not the builder's upload's name
    assert report.path.name == "es-page-file.dict"


def test_bad_input_is_one_clear_error(files, tmp_path):
    with pytest.raises(InputError, match="no word of the Spanish"):
        build_words("es", str(files("x.txt", "日本\n東京\n")), tmp_path / "x.dict", scores="flat")
    assert not (tmp_path / "x.dict").exists()
    with pytest.raises(InputError, match="no such file"):
        build_words("es", str(tmp_path / "missing.txt"))
    with pytest.raises(InputError, match="unknown language"):
        build_words("xx", str(files("y.txt", "año\n")))
    with pytest.raises(InputError, match="min-length"):
        build_words("es", str(files("z.txt", "año\n")), min_length=5, max_length=3)
    with pytest.raises(InputError, match="needs both"):
        build_words("es", str(files("only.dic", "1\naño\n")))
    with pytest.raises(InputError, match="unknown encoding"):
        build_words("es", str(files("e.txt", "año\n")), encoding="no-such-codec")


def test_a_file_in_another_encoding(files, tmp_path):
    out = tmp_path / "ru.dict"
    build_words("ru", str(files("ru.txt", "ёж;60\n".encode("koi8-r"))), out, encoding="koi8-r", scores="flat")
    assert read_list(out)[1] == {"ЕЖ": 60}


def test_missing_sources_say_how_to_install_them(monkeypatch, tmp_path):
    monkeypatch.setattr(build, "HUNSPELL_DIRS", (tmp_path,))
    monkeypatch.setattr(build, "DICT_DIR", tmp_path)
    monkeypatch.setattr(build, "wordfreq_available", lambda: False)
    spanish = load_alphabet("es")
    assert find_hunspell(spanish, (tmp_path,)) is None and find_dict(spanish, tmp_path) is None
    with pytest.raises(InputError, match="install-languages.sh"):
        build_words("es", "auto")
    with pytest.raises(InputError, match="hunspell-es"):
        build_words("es", "hunspell")


def test_score_of_zipf():
    assert score_of_zipf(2.5) == 50
    assert score_of_zipf(3.5) == 60
    assert score_of_zipf(1.0) == 35
    assert score_of_zipf(9.0) == 100 and score_of_zipf(-5) == 1
    assert UNSEEN_SCORE < score_of_zipf(1.0)


# the real sources: each test runs where .ci/install-languages.sh (or the [languages] extra) installed it


def _all_letters(alphabet_code: str, score_by_word: dict[str, int]) -> None:
    alphabet = load_alphabet(alphabet_code)
    for word in score_by_word:
        code = alphabet.fold_word(word)
        assert code is not None and alphabet.written(code) == word, word


@pytest.mark.languages
def test_real_wordfreq_spanish(tmp_path):
    pytest.importorskip("wordfreq", reason="wordfreq is not installed (.ci/install-languages.sh installs it)")
    out = tmp_path / "es.dict"
    report = build_words("es", "wordfreq", out)
    comments, score_by_word = read_list(out)
    assert len(score_by_word) > 100_000
    assert score_by_word["AÑO"] > score_by_word["ANO"] >= 1  # two words, not one
    assert score_by_word["QUE"] >= 90  # among the commonest words
    assert any("CC BY-SA 4.0" in line for line in comments) and "CC BY-SA 4.0" in report.origin.licence
    _all_letters("es", score_by_word)


@pytest.mark.languages
def test_real_hunspell_german(tmp_path):
    pytest.importorskip("spylls", reason="spylls is not installed (.ci/install-languages.sh installs it)")
    files = find_hunspell(load_alphabet("de"))
    if files is None:
        pytest.skip("no German Hunspell dictionary (Debian's hunspell-de-de; .ci/install-languages.sh installs it)")
    out = tmp_path / "de.dict"
    report = build_words("de", "hunspell", out, scores="flat")
    _, score_by_word = read_list(out)
    assert len(score_by_word) > 100_000
    assert {"MAEDCHEN", "MAEDCHENS", "AERGER", "STRASSE"} <= set(score_by_word)
    assert not any(ch in word for word in score_by_word for ch in "ÄÖÜß")
    assert report.origin.licence != build.FILE_LICENCE and "unknown" not in report.origin.licence
    _all_letters("de", score_by_word)


@pytest.mark.languages
def test_real_wspanish(tmp_path):
    if not build.WSPANISH.is_file():
        pytest.skip("no /usr/share/dict/spanish (Debian's wspanish; .ci/install-languages.sh installs it)")
    out = tmp_path / "es.dict"
    report = build_words("es", "wspanish", out, scores="flat")
    _, score_by_word = read_list(out)
    assert {"AÑO", "NIÑO", "ANO"} <= set(score_by_word)
    assert "Public Domain" in report.origin.licence or "public domain" in report.origin.licence
    _all_letters("es", score_by_word)


@pytest.mark.slow
@pytest.mark.languages
def test_real_hunspell_russian(tmp_path):
    pytest.importorskip("spylls", reason="spylls is not installed (.ci/install-languages.sh installs it)")
    if find_hunspell(load_alphabet("ru")) is None:
        pytest.skip("no Russian Hunspell dictionary (Debian's hunspell-ru; .ci/install-languages.sh installs it)")
    out = tmp_path / "ru.dict"
    build_words("ru", "hunspell", out, scores="flat")
    _, score_by_word = read_list(out)
    assert {"ЕЛКА", "ЖУК", "ЧАЙ"} <= set(score_by_word)
    assert not any("Ё" in word for word in score_by_word)
    _all_letters("ru", score_by_word)
