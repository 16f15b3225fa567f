"""Language packs: each shipped pack loads, and folds words by its own conventions (issue 36)."""

from __future__ import annotations

import json

import pytest

from xwcp.base.errors import InputError
from xwcp.model.alphabet import ENGLISH, FAST_LETTERS, alphabet_from_data, load_alphabet, shipped_alphabets

PACKS = [
    "en",
    "es",
    "ca",
    "fr",
    "it",
    "pt",
    "de",
    "de-umlaut",
    "nl",
    "da",
    "no",
    "sv",
    "fi",
    "pl",
    "cs",
    "hu",
    "tr",
    "ru",
    "uk",
    "el",
    "cy",
    "he",
    "hi",
    "et",
    "sl",
    "ro",
    "ro-diacritics",
    "grc",
]


def cells(code: str, raw: str) -> list[str] | None:
    alphabet = load_alphabet(code)
    word = alphabet.fold_word(raw)
    return None if word is None else [alphabet.cell_text(ch) for ch in word]


def test_every_pack_the_issue_names_ships_and_fits_the_fast_engine() -> None:
    codes = [a.code for a in shipped_alphabets()]
    assert codes[0] == "en"
    assert set(PACKS) <= set(codes)
    for alphabet in shipped_alphabets():
        assert 20 <= alphabet.size <= FAST_LETTERS, alphabet.code
        assert len(alphabet.chars) == alphabet.size == len(set(alphabet.chars))
        assert load_alphabet(alphabet.code) is alphabet


@pytest.mark.parametrize(
    "code, raw, expected",
    [
        ("es", "año", ["A", "Ñ", "O"]),  # Ñ is its own letter
        ("es", "ano", ["A", "N", "O"]),
        ("es", "Canción", list("CANCION")),  # other accents drop
        ("es", "pingüino", list("PINGUINO")),
        ("de", "Grüße", list("GRUESSE")),  # the word-game convention
        ("de-umlaut", "Grüße", ["G", "R", "Ü", "S", "S", "E"]),
        ("nl", "ijsje", ["IJ", "S", "J", "E"]),  # IJ takes one cell
        ("nl", "Ĳs", ["IJ", "S"]),  # the ligature is the same letter
        ("ru", "ёлка", list("ЕЛКА")),  # Ё is written Е
        ("ru", "йод", list("ЙОД")),  # Й is not И
        ("el", "λόγος", list("ΛΟΓΟΣ")),  # final ς is Σ, accents drop
        ("cy", "llongau", ["LL", "O", "NG", "A", "U"]),
        ("cy", "Bangor", ["B", "A", "NG", "O", "R"]),
        ("cy", "Ban+gor", list("BANGOR")),  # the list says how the word is cut
        ("tr", "istanbul", list("İSTANBUL")),  # dotted and dotless i differ
        ("tr", "ılık", list("ILIK")),
        ("pl", "źdźbło", ["Ź", "D", "Ź", "B", "Ł", "O"]),
        ("sv", "Åsa", ["Å", "S", "A"]),
        ("he", "שלום", list("שלומ")),  # final forms are their letters
        ("ca", "col·lecció", list("COLLECCIO")),
        ("cs", "chata", ["CH", "A", "T", "A"]),
        ("en", "café", list("CAFE")),
        ("en", "Straße", list("STRASSE")),
        ("et", "õun", ["Õ", "U", "N"]),  # Õ Ä Ö Ü Š Ž are Estonian letters
        ("et", "šokolaad", ["Š", *"OKOLAAD"]),
        ("et", "müüa", ["M", "Ü", "Ü", "A"]),
        ("sl", "čaša", ["Č", "A", "Š", "A"]),
        ("sl", "Ćevapčići", ["C", "E", "V", "A", "P", "Č", "I", "C", "I"]),  # Ć is no Slovenian letter
        ("ro", "şcoală", list("SCOALA")),  # the rebus convention: no diacritics
        ("ro", "întâi", list("INTAI")),
        ("ro-diacritics", "şcoală", ["Ș", "C", "O", "A", "L", "Ă"]),  # cedilla ş is comma-below ș
        ("ro-diacritics", "ŢARĂ", ["Ț", "A", "R", "Ă"]),
        ("ro-diacritics", "întâi", ["Î", "N", "T", "Â", "I"]),
        ("grc", "ᾆδης", ["Α", "Ι", *"ΔΗΣ"]),  # iota subscript: the adscript Ι in its own cell
        ("grc", "ᾼ", ["Α", "Ι"]),
        ("grc", "ἄνθρωπος", list("ΑΝΘΡΩΠΟΣ")),  # breathings and accents drop
        ("grc", "ῥήτωρ", list("ΡΗΤΩΡ")),
        ("grc", "ϲοφία", list("ΣΟΦΙΑ")),  # lunate sigma
        ("grc", "ἀπ᾽", list("ΑΠ")),  # the elision mark goes
    ],
)
def test_fold_follows_the_pack(code: str, raw: str, expected: list[str]) -> None:
    assert cells(code, raw) == expected


@pytest.mark.parametrize(
    "code, raw",
    [
        ("es", "жук"),
        ("ru", "cat"),
        ("en", "жук"),
        ("el", "año"),
        ("de", "ÿø"),
        ("grc", "ϝάναξ"),
        ("et", "жук"),
        ("sl", "Đoković"),
    ],
)
def test_a_word_outside_the_alphabet_is_no_word_and_says_why(code: str, raw: str) -> None:
    alphabet = load_alphabet(code)
    word, why = alphabet.fold_report(raw)
    assert word is None and why


def test_code_chars_round_trip_through_indices_and_writing() -> None:
    nl = load_alphabet("nl")
    word = nl.fold_word("bijna")
    assert word is not None and len(word) == 4
    assert nl.written(word) == "BIJNA"
    assert nl.decode(nl.encode(word)) == word
    assert [nl.index(ch) for ch in word] == [1, 9, 14, 0]
    assert nl.from_cell("ij") == nl.from_cell("IJ") == word[1]
    assert nl.split_cell("IJS") == word[1] + "S"
    assert ENGLISH.encode("ABZ") == bytes([0, 1, 25])


def test_a_users_pack_file_loads_and_a_bad_one_names_its_field(tmp_path) -> None:
    path = tmp_path / "mini.json"
    path.write_text(json.dumps({"code": "mini", "name": "Mini", "letters": "A B Ç", "fold": {"C": "Ç"}}), "utf-8")
    mini = load_alphabet(str(path))
    assert mini.size == 3 and mini.fold_word("çab") == "ÇAB" and mini.fold_word("cab") == "ÇAB"
    with pytest.raises(InputError, match="letters"):
        alphabet_from_data({"code": "x", "name": "X", "letters": []}, "x.json")
    with pytest.raises(InputError, match="twice"):
        alphabet_from_data({"code": "x", "name": "X", "letters": "A B A"}, "x.json")
    with pytest.raises(InputError, match="fold"):
        alphabet_from_data({"code": "x", "name": "X", "letters": "A B", "fold": {"C": "Q"}}, "x.json")
    with pytest.raises(InputError, match="unknown language 'xx'"):
        load_alphabet("xx")


def test_hindi_cuts_aksharas_and_an_open_pack_takes_a_lists_letters() -> None:
    from xwcp.words.wordlist import words_from_pairs

    assert cells("hi", "नमस्ते") == ["न", "म", "स्ते"]  # a conjunct with its vowel sign is one cell
    assert cells("hi", "क्षमा") == ["क्ष", "मा"]
    assert cells("hi", "संगीत") == ["सं", "गी", "त"]  # anusvara rides with its akshara
    assert cells("hi", "cat") is None
    hi = load_alphabet("hi")
    words = words_from_pairs(["नमस्ते", "किताब", "हिन्दी"], alphabet=hi)
    assert words.alphabet.size > hi.size and words.alphabet.code == "hi"
    assert sorted(hi.written(words.bucket(3).text(i)) for i in range(2)) == sorted(["नमस्ते", "किताब"])
    assert words.alphabet.from_cell("स्ते") == words.alphabet.chars[words.alphabet.letters.index("स्ते")]


def test_a_pack_names_final_forms_that_its_fold_reads_back():
    hebrew = load_alphabet("he")
    assert hebrew.written_at_end("שלומ") == "שלום" and hebrew.written_at_end("שלומה") == "שלומה"
    assert hebrew.from_cell("ם") == "מ" and hebrew.index("ם") is None  # the same letter, never a 23rd
    pack = {"code": "x", "name": "X", "letters": "A B", "fold": {"Ⓑ": "B"}, "final": {"B": "Ⓑ"}}
    assert alphabet_from_data(pack, "x.json").written_at_end("AB") == "AⒷ"
    with pytest.raises(InputError, match="which the pack's \"fold\" does not read as 'A'"):
        alphabet_from_data({**pack, "final": {"A": "Ⓑ"}}, "x.json")
    with pytest.raises(InputError, match="'C', which is not a letter of the pack"):
        alphabet_from_data({**pack, "final": {"C": "Ⓑ"}}, "x.json")
    assert all(not a.final for a in shipped_alphabets() if a.code != "he")


@pytest.mark.parametrize(
    "code, typed, written",
    [
        ("ro-diacritics", "ş", ["Ș"]),
        ("ro-diacritics", "ţ", ["Ț"]),
        ("ro", "ș", ["S"]),
        ("et", "õ", ["Õ"]),
        ("sl", "ž", ["Ž"]),
        ("grc", "ᾆ", ["Α", "Ι"]),
        ("grc", "ἵ", ["Ι"]),
    ],
)
def test_a_typed_letter_folds_as_the_list_does(code: str, typed: str, written: list[str]) -> None:
    alphabet = load_alphabet(code)
    assert [alphabet.cell_text(ch) for ch in alphabet.typed_word(typed).word or ""] == written
    assert [alphabet.cell_text(ch) for ch in alphabet.folded_cell(typed) or ""] == written
