"""The personal word list's folder (xwcp/words/userwords.py) and a list overlaid with personal changes
(wordlist.overlay_word_list): the same as layering the two lists."""

from __future__ import annotations

import numpy as np
import pytest

import xwcp
from xwcp.words import userwords


@pytest.fixture(scope="module")
def words():
    return xwcp.load_word_list()


def test_data_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("XWCP_DATA_DIR", str(tmp_path / "a"))
    assert userwords.data_dir() == tmp_path / "a"
    monkeypatch.delenv("XWCP_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "b"))
    assert userwords.data_dir() == tmp_path / "b" / "xwcp"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "c"))
    assert userwords.data_dir() == tmp_path / "c" / ".local" / "share" / "xwcp"


def test_overlay_equals_layering(words):
    from xwcp.words.wordlist import build_word_list, layer_word_lists, overlay_word_list

    changes = {"AXQZ": 80, "ESNE": 0, words.bucket(5).text(7): 3, "Q" * 40: 60}
    a = overlay_word_list(words, changes, "x")
    b = layer_word_lists([words, build_word_list(changes, "p")], use_cache=False)
    for name in ("letters_flat", "scores_flat", "order_flat", "starts_flat", "table", "bits_flat"):
        assert np.array_equal(np.asarray(getattr(a, name)), np.asarray(getattr(b, name))), name
    assert overlay_word_list(words, {}, "x") is words


def test_personal_words_keep_the_edit_rules_in_uploads_and_in_the_file(tmp_path, monkeypatch):
    from xwcp.base.errors import InputError

    words, problems, n_problems = userwords.parse_upload("AXQZ;80\nesné\n12 34;5\nCWQZ;0\n", "mine.txt")
    assert words == {"AXQZ": 80, "ESNE": 50, "CWQZ": 0} and n_problems == 1  # a non-word line is skipped
    with pytest.raises(InputError) as long_word:
        userwords.parse_upload("AXQZ\n\n" + "x" * 65 + ";3\n", "mine.txt")
    assert str(long_word.value).startswith("mine.txt:3: a word of 65 letters (XXXXXXXXXXXX...); the most is 64")
    assert userwords.parse_upload("AB-CD " * 16 + "\n", "mine.txt")[0] == {"ABCD" * 16: 50}  # 64 letters: fine
    monkeypatch.setattr(userwords, "MAX_PERSONAL_WORDS", 2)
    with pytest.raises(InputError, match="3 words; a personal list holds at most 2"):
        userwords.parse_upload("AXQZ\nBXQZ\nCXQZ\n")
    path = tmp_path / "personal.dict"
    path.write_text("ESNE;0\n" + "Q" * 70 + "\n")
    with pytest.raises(InputError, match=r"personal.dict:2: a word of 70 letters"):
        userwords.read_personal(path)
    monkeypatch.setattr(userwords, "MAX_PERSONAL_BYTES", 10)
    with pytest.raises(InputError, match="the personal word-list file is larger than 10 bytes"):
        userwords.read_personal(path)
    with pytest.raises(InputError, match="64 at most"):
        userwords.clean_word("Z" * 65)
    assert len(str(pytest.raises(InputError, userwords.clean_word, "Z" * 100_000).value)) < 200


def test_each_language_has_its_own_personal_list_written_in_its_letters(tmp_path, monkeypatch):
    from xwcp.model.alphabet import load_alphabet

    monkeypatch.setenv("XWCP_DATA_DIR", str(tmp_path))
    dutch, spanish = load_alphabet("nl"), load_alphabet("es")
    assert userwords.personal_path().name == "personal.dict"  # English keeps its file
    assert userwords.personal_path(spanish).name == "personal.es.dict"
    ijs = userwords.clean_word("ijs", dutch)
    assert ijs == dutch.from_cell("IJ") + "S"
    userwords.update_personal({ijs: 70}, alphabet=dutch)
    text = userwords.personal_path(dutch).read_text(encoding="utf-8")
    assert text.splitlines()[-1] == "IJS;70"  # written, never a private-use code char
    assert userwords.read_personal(alphabet=dutch) == {ijs: 70}
    assert userwords.clean_word("año", spanish) == "AÑO"
    with pytest.raises(xwcp.InputError, match="not a word of Spanish"):
        userwords.clean_word("дом", spanish)
    words, problems, n = userwords.parse_upload("AÑO;60\nдом;50\n", "up", spanish)
    assert words == {"AÑO": 60} and n == 1


@pytest.mark.parametrize("typed", ["ﬁne", "dısk", "ſun", "ǅemal", "Ａbc", "Q\u0301", "\u0301abc"])
def test_an_edit_with_a_character_english_cannot_keep_is_refused_naming_it(typed):
    from xwcp.base.errors import InputError

    with pytest.raises(InputError) as caught:
        userwords.clean_word(typed)
    message = str(caught.value)
    assert message.startswith(f"{typed!r} is not a word of letters A-Z: it has ") and "U+" in message, message
    assert "\n" not in message and len(message) < 300


def test_an_edit_stores_what_the_languages_own_rules_write_and_says_so():
    from xwcp.model.alphabet import load_alphabet

    notes: list[str] = []
    assert userwords.clean_word("CAFE\u0301", notes=notes) == "CAFE"
    assert notes == ["'CAFÉ' is stored as CAFE (É -> E in English)"]
    assert userwords.clean_word("straße", notes=notes) == "STRASSE" and "ß -> SS" in notes[-1]
    notes.clear()
    assert userwords.clean_word("Esne", notes=notes) == "ESNE" and notes == []  # case is no change
    turkish, german = load_alphabet("tr"), load_alphabet("de")
    assert userwords.clean_word("dısk", turkish, notes) == "DISK" and notes == []  # ı is Turkish's own letter
    assert userwords.clean_word("istanbul", turkish, notes) == "İSTANBUL" and notes == []
    assert userwords.clean_word("Äpfel", german, notes) == "AEPFEL"
    assert notes == [f"'Äpfel' is stored as AEPFEL (Ä -> AE in {german.name})"]


def test_an_upload_reads_its_words_as_edits_are_read():
    notes: list[str] = []
    words, problems, n = userwords.parse_upload("CAFE\u0301;60\nﬁne;70\ndısk;0\nAXQZ\n", "mine.txt", notes=notes)
    assert words == {"CAFE": 60, "AXQZ": 50} and n == 2
    assert [line for line, _ in problems] == [2, 3] and "U+FB01" in problems[0][1] and "U+0131" in problems[1][1]
    assert notes == ["mine.txt: 1 word stored in the letters of English (line 1: CAFÉ -> CAFE)"]


def test_an_edit_from_the_grid_may_hold_a_letters_code_char():
    """The page's Ban entry sends a Dutch entry's cells: IJ is a code char there, read as the letter IJ."""
    from xwcp.model.alphabet import load_alphabet

    dutch = load_alphabet("nl")
    ij = dutch.from_cell("IJ")
    notes: list[str] = []
    assert userwords.clean_word(ij + "S", dutch, notes) == ij + "S" and notes == []
    assert userwords.clean_word("ijs", dutch) == ij + "S"
