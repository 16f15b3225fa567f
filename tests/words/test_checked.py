"""Checked word lists (`xwcp.words.checked`, `xwcp words build --from checked`): each rule on tiny dictionaries
written here, through both ways of asking them (the hunspell command and spylls); the CLI's default choosing the
checked source and saying its counts; and, where this machine has the real sources, Spanish and German lists
whose 15x15 fills hold only words the dictionary accepts."""

from __future__ import annotations

import itertools
import json
import math
import shutil
from pathlib import Path

import pytest

from tests.helpers import run
from xwcp.model.alphabet import load_alphabet
from xwcp.words import build, checked
from xwcp.words.checked import (
    BANDS,
    Rule,
    band,
    capitalised,
    choose_words,
    find_checker,
    is_repeated,
    upper,
    verdict_by_code,
)
from xwcp.words.hunspell import HunspellFiles

AFF = "SET UTF-8\nTRY aeiouns\n\nSFX S Y 1\nSFX S 0 s .\n"
SPANISH_DIC = ["casa/S", "perro", "no", "la", "coat", "España", "Madrid", "NSA", "aaa", "head"]
"""coat and head are accepted here (the English rule must take coat); España and Madrid only capitalised (names);
NSA only in capitals (an abbreviation)."""

CHECKERS = [
    "spylls",
    pytest.param(
        "command",
        marks=pytest.mark.skipif(
            shutil.which("hunspell") is None, reason="Debian's hunspell command is not installed (install-languages.sh)"
        ),
    ),
]


def write_dictionary(folder: Path, name: str, stems: list[str], aff: str = AFF) -> HunspellFiles:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.aff").write_text(aff, encoding="utf-8")
    (folder / f"{name}.dic").write_text(f"{len(stems)}\n" + "\n".join(stems) + "\n", encoding="utf-8")
    return HunspellFiles(folder / f"{name}.dic", folder / f"{name}.aff")


def freq(zipf: float) -> float:
    """wordfreq's frequency (a fraction of all words) of a Zipf value."""
    return 10 ** (zipf - 9)


SPANISH_FREQ = {
    "casa": freq(5.0),
    "casas": freq(4.0),
    "perro": freq(3.0),
    "no": freq(7.2),
    "la": freq(7.5),
    "coat": freq(2.6),
    "españa": freq(5.5),
    "madrid": freq(5.0),
    "nsa": freq(3.0),
    "aaa": freq(3.5),
    "glos": freq(3.0),
    "ptdr": freq(3.0),
    "raro": freq(1.0),
    "1990": freq(3.0),
    "jusqu'à": freq(4.0),
}
ENGLISH_FREQ = {"no": freq(6.4), "la": freq(5.0), "coat": freq(4.4), "casa": freq(3.0)}


@pytest.mark.parametrize("how", CHECKERS)
def test_each_rule_leaves_out_its_words(tmp_path, how):
    checker = find_checker(write_dictionary(tmp_path, "es_ES", SPANISH_DIC), how)
    choice = choose_words(
        SPANISH_FREQ,
        load_alphabet("es"),
        checker,
        language="es",
        english_frequency_by_word=ENGLISH_FREQ,
        min_zipf=2.5,
        record=True,
    )
    assert dict(choice.kept) == {"casa": 70, "casas": 60, "perro": 50, "no": 70, "la": 70}
    assert choice.rule_by_word == {
        "raro": Rule.BELOW_FLOOR,
        "aaa": Rule.REPEATED,
        "españa": Rule.NAME,
        "madrid": Rule.NAME,
        "nsa": Rule.ABBREVIATION,
        "glos": Rule.NOT_IN_DICTIONARY,
        "ptdr": Rule.NOT_IN_DICTIONARY,
        "coat": Rule.ENGLISH,
        "jusqu'à": Rule.JOINED,
    }
    assert choice.passed_on == ["1990"]  # not a word of letters: the build counts it as outside the alphabet
    assert choice.n_by_rule[Rule.NAME] == 2 and sum(choice.n_by_rule.values()) == 9


@pytest.mark.parametrize("how", CHECKERS)
def test_german_keeps_words_accepted_only_capitalised_as_nouns(tmp_path, how):
    checker = find_checker(write_dictionary(tmp_path, "de_DE", ["Haus/S", "NSA", "heute"]), how)
    frequency = {"haus": freq(5.0), "häuser": freq(4.0), "nsa": freq(4.0), "heute": freq(5.0)}
    choice = choose_words(
        frequency, load_alphabet("de"), checker, language="de", english_frequency_by_word=None, record=True
    )
    assert sorted(word for word, _ in choice.kept) == ["haus", "heute"]
    assert choice.n_kept_capitalised == 1
    assert choice.rule_by_word == {"nsa": Rule.ABBREVIATION, "häuser": Rule.NOT_IN_DICTIONARY}
    spanish = choose_words(frequency, load_alphabet("es"), checker, language="es", english_frequency_by_word=None)
    assert spanish.n_by_rule[Rule.NAME] == 1  # the same word is a name where nouns are not capitalised


@pytest.mark.parametrize("how", CHECKERS)
def test_turkish_capitals_dot_the_i(tmp_path, how):
    checker = find_checker(
        write_dictionary(tmp_path, "tr_TR", ["İstanbul", "ılık", "için"], aff="SET UTF-8\nLANG tr_TR\n"), how
    )
    frequency = {"istanbul": freq(5.0), "ılık": freq(4.0), "için": freq(6.0), "their": freq(3.5)}
    choice = choose_words(
        frequency, load_alphabet("tr"), checker, language="tr", english_frequency_by_word=None, record=True
    )
    assert sorted(word for word, _ in choice.kept) == ["için", "ılık"]
    assert choice.rule_by_word == {"istanbul": Rule.NAME, "their": Rule.NOT_IN_DICTIONARY}
    assert capitalised("istanbul", "tr") == "İstanbul" and upper("ılık", "tr") == "ILIK"
    assert capitalised("istanbul", "es") == "Istanbul"


@pytest.mark.parametrize("how", CHECKERS)
def test_polish_and_hungarian_letters_survive_and_their_bare_spellings_go(tmp_path, how):
    checker = find_checker(write_dictionary(tmp_path, "pl_PL", ["głos", "túl"]), how)
    for code, word, bare in (("pl", "głos", "glos"), ("hu", "túl", "tul")):
        alphabet = load_alphabet(code)
        choice = choose_words(
            {word: freq(5.0), bare: freq(3.5)},
            alphabet,
            checker,
            language=code,
            english_frequency_by_word=None,
            record=True,
        )
        assert choice.kept == [(word, 70)]
        assert choice.rule_by_word == {bare: Rule.NOT_IN_DICTIONARY}
        assert alphabet.written(alphabet.fold_word(word) or "") == word.upper()  # GŁOS, TÚL: the letter is kept


@pytest.mark.parametrize("how", CHECKERS)
def test_an_apostrophe_joins_two_words_except_where_it_is_spelling(tmp_path, how):
    checker = find_checker(
        write_dictionary(tmp_path, "uk_UA", ["пам'ять", "l'eau"], aff="SET UTF-8\nWORDCHARS '\n"), how
    )
    ukrainian = choose_words(
        {"пам'ять": freq(4.0)}, load_alphabet("uk"), checker, language="uk", english_frequency_by_word=None
    )
    assert ukrainian.kept == [("пам'ять", 60)]
    french = choose_words(
        {"l'eau": freq(4.0)}, load_alphabet("fr"), checker, language="fr", english_frequency_by_word=None, record=True
    )
    assert french.kept == [] and french.rule_by_word == {"l'eau": Rule.JOINED}


def test_repeated_letters_bands_and_verdicts(tmp_path):
    greek = load_alphabet("el")
    assert is_repeated(greek.fold_word("σσσσ") or "") and is_repeated("AA")
    assert not is_repeated("A") and not is_repeated("ABA")
    assert [band(z) for z in (7.0, 4.5, 4.49, 3.5, 2.5, 2.49, 1.5, 1.0, -math.inf)] == [
        70,
        70,
        60,
        60,
        50,
        40,
        40,
        30,
        30,
    ]
    assert [score for _, score, _ in BANDS] == sorted((score for _, score, _ in BANDS), reverse=True)
    checker = find_checker(write_dictionary(tmp_path, "es_ES", SPANISH_DIC), "spylls")
    alphabet = load_alphabet("es")
    codes = [alphabet.fold_word(w) or "" for w in ("casa", "coat", "españa", "glos", "perro")] + ["XYZ"]
    verdicts = verdict_by_code(
        codes, alphabet, SPANISH_FREQ, checker, language="es", english_frequency_by_word=ENGLISH_FREQ
    )
    assert list(verdicts.values()) == [
        None,
        Rule.ENGLISH,
        Rule.NAME,
        Rule.NOT_IN_DICTIONARY,
        None,
        Rule.NOT_IN_DICTIONARY,
    ]


def test_cli_default_builds_the_checked_list_and_counts_each_rule(tmp_path, monkeypatch, capsys):
    wordfreq = pytest.importorskip("wordfreq", reason="wordfreq is not installed (.ci/install-languages.sh)")
    folder = tmp_path / "hunspell"
    write_dictionary(folder, "es_ES", SPANISH_DIC)
    monkeypatch.setattr(build, "HUNSPELL_DIRS", (folder,))
    lists = {"es": {**SPANISH_FREQ, "y": freq(7.0)}, "en": ENGLISH_FREQ}  # y: shorter than --min-length 2
    monkeypatch.setattr(wordfreq, "get_frequency_dict", lambda lang, wordlist="best": lists[lang])
    monkeypatch.setattr(wordfreq, "available_languages", lambda wordlist="best": {"es": "es", "en": "en"})
    out = tmp_path / "es.dict"
    code, stdout, err = run(["words", "build", "--language", "es", "--out", out, "--format", "json"], capsys)
    assert code == 0, err
    answer = json.loads(stdout)
    assert answer["source"] == "checked"
    assert answer["left_out_by_rule"] == {
        "below_floor": 1,
        "repeated": 1,
        "joined": 1,
        "name": 2,
        "abbreviation": 1,
        "not_in_dictionary": 2,
        "english": 1,
    }
    assert answer["written"] == 5 and answer["outside_alphabet"] == 1 and answer["bad_length"] == 1
    assert answer["read"] == len(SPANISH_FREQ) + 1
    assert "CC BY-SA 4.0" in answer["licence"] and "the dictionary's" in answer["licence"]
    text = out.read_text(encoding="utf-8")
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert any("names (accepted only capitalised) 2 (españa, madrid)" in line for line in header)
    assert any("70 everyday (zipf >= 4.5)" in line for line in header)
    assert [line for line in text.splitlines() if not line.startswith("#")] == [
        "CASA;70",
        "CASAS;60",
        "LA;70",
        "NO;70",
        "PERRO;50",
    ]
    clock = itertools.count(0, 100)  # a clock that jumps 100 s each look: the deadline is past at the first word
    monkeypatch.setattr(checked.time, "monotonic", lambda: float(next(clock)))
    code, _, err = run(
        [
            "words",
            "build",
            "--language",
            "es",
            "--out",
            tmp_path / "late.dict",
            "--checker",
            "spylls",
            "--time-limit",
            "5",
        ],
        capsys,
    )
    assert code == 3 and "checking the words took more than 5 s" in err and not (tmp_path / "late.dict").exists()
    monkeypatch.undo()
    monkeypatch.setattr(build, "HUNSPELL_DIRS", (folder,))
    monkeypatch.setattr(wordfreq, "get_frequency_dict", lambda lang, wordlist="best": lists[lang])
    monkeypatch.setattr(wordfreq, "available_languages", lambda wordlist="best": {"es": "es", "en": "en"})
    monkeypatch.setattr(build, "HUNSPELL_DIRS", (tmp_path / "none",))  # no dictionary: auto falls back
    code, stdout, _ = run(["words", "build", "--language", "es", "--out", out, "--format", "json"], capsys)
    assert code == 0 and json.loads(stdout)["source"] == "wordfreq"
    code, _, err = run(["words", "build", "--language", "es", "--from", "checked", "--out", out], capsys)
    assert code == 2 and "--from checked needs the Hunspell dictionary" in err


# ----- the real sources (CI installs them with .ci/install-languages.sh) ------------------------------------------


def _real_fill_is_all_dictionary_words(code, tmp_path):
    wordfreq = pytest.importorskip("wordfreq", reason="wordfreq is not installed (.ci/install-languages.sh)")
    from xwcp.backends import fill
    from xwcp.compile.problem import compile_problem
    from xwcp.engine.result import Limits, check_fill
    from xwcp.model import read_grid
    from xwcp.words.checked import english_frequencies
    from xwcp.words.wordlist import load_word_list

    alphabet = load_alphabet(code)
    files = build.find_hunspell(alphabet)
    if files is None:
        pytest.skip(f"no Hunspell dictionary for {code} here (.ci/install-languages.sh installs it)")
    out = tmp_path / f"{code}.dict"
    report = build.build_words(code, "auto", out)
    assert report.origin.kind is build.SourceKind.CHECKED
    assert report.left_out_by_rule["name"] + report.left_out_by_rule["not_in_dictionary"] > 0
    grid = read_grid(Path(__file__).resolve().parents[2] / "models" / "15x15-daily-01.txt")
    grid = grid.with_cells("#" if cell == "#" else "." for cell in grid.cells)
    problem = compile_problem(grid, load_word_list(out, alphabet=alphabet))
    result = fill(problem, "auto", Limits(time_limit_s=60, seed=0))
    assert result.status.value == "filled"
    entries = result.entries
    assert entries is not None and check_fill(problem, entries) == []
    verdicts = verdict_by_code(
        entries,
        alphabet,
        wordfreq.get_frequency_dict(code, wordlist="best"),
        find_checker(files),
        language=code,
        english_frequency_by_word=english_frequencies(code, "best"),
    )
    assert {alphabet.written(e): v for e, v in verdicts.items() if v is not None} == {}


DONE_WHEN_LANGUAGES = ("es", "de", "fr", "nl", "ru", "pl", "hu", "tr", "el", "he")
"""The languages whose default list must fill the stock 15x15 pattern with dictionary words only."""


@pytest.mark.languages
@pytest.mark.parametrize("code", DONE_WHEN_LANGUAGES)
def test_real_default_list_fills_the_stock_15x15_with_dictionary_words_only(code, tmp_path):
    _real_fill_is_all_dictionary_words(code, tmp_path)


def test_auto_does_not_check_an_open_pack(tmp_path, monkeypatch):
    wordfreq = pytest.importorskip("wordfreq", reason="wordfreq is not installed (.ci/install-languages.sh)")
    folder = tmp_path / "hunspell"
    write_dictionary(folder, "hi_IN", ["नमस्ते"])
    write_dictionary(folder, "es_ES", SPANISH_DIC)
    monkeypatch.setattr(build, "HUNSPELL_DIRS", (folder,))
    monkeypatch.setattr(wordfreq, "available_languages", lambda wordlist="best": {"es": "es", "hi": "hi"})
    assert build.resolve_origin(load_alphabet("hi")).kind is build.SourceKind.WORDFREQ
    assert build.resolve_origin(load_alphabet("hi"), "checked").kind is build.SourceKind.CHECKED
    assert build.resolve_origin(load_alphabet("es")).kind is build.SourceKind.CHECKED


ISSUE_WORDS = {
    "es": (["head", "coat", "ftp", "ctm"], ["no", "la", "casa", "año", "come", "once"]),
    "de": (["cken", "sweets", "nsa"], ["haus", "heute", "held", "still", "hotel"]),
    "fr": (["ptdr", "ahead"], ["an", "or", "maison"]),
    "pl": (["who", "glos"], ["głos", "żółw"]),
    "hu": (["little", "tul"], ["túl", "ház"]),
    "tr": (["their"], ["için", "ılık"]),
    "el": (["σσσσ", "τσσκα"], ["ψυχή", "άνθος"]),
    "ru": (["спб", "гаи", "ааа"], ["жук", "дом"]),
}
"""Words seen in fills from wordfreq's lists that a constructor would not publish, and words of each language that
must stay (some shared with English)."""


@pytest.fixture(scope="module")
def english():
    pytest.importorskip("wordfreq", reason="wordfreq is not installed (.ci/install-languages.sh)")
    from xwcp.words.checked import english_frequencies

    return english_frequencies("es", "best")


@pytest.mark.languages
@pytest.mark.parametrize("code", sorted(ISSUE_WORDS))
def test_real_dictionaries_leave_out_the_words_seen_in_fills(code, english):
    import wordfreq

    alphabet = load_alphabet(code)
    files = build.find_hunspell(alphabet)
    if files is None:
        pytest.skip(f"no Hunspell dictionary for {code} here (.ci/install-languages.sh installs it)")
    gone, kept = ISSUE_WORDS[code]
    frequency = {word: wordfreq.word_frequency(word, code) for word in gone + kept}
    assert all(frequency.values()), "every word is one wordfreq lists"
    choice = choose_words(
        frequency,
        alphabet,
        find_checker(files),
        language=code,
        english_frequency_by_word=english,
        min_zipf=-math.inf,
        record=True,
    )
    assert sorted(word for word, _ in choice.kept) == sorted(kept)
    assert sorted(choice.rule_by_word or {}) == sorted(gone)
