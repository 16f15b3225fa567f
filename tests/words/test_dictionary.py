"""WordNet definitions: the index built from WordNet's files, look-ups, inflections, the licence, absence."""

from __future__ import annotations

import os

import pytest

from tests.words.wordnet_fixture import write_wordnet
from xwcp.words import dictionary as dictionary_module
from xwcp.words.dictionary import COPYRIGHT, DictionaryMissing, answer_key, find_wordnet, open_dictionary


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    return open_dictionary(write_wordnet(tmp_path / "wordnet"))


def test_answer_key_keeps_letters_only():
    assert answer_key("ice-cream_cone") == "ICECREAMCONE"
    assert answer_key("Café au lait") == "CAFEAULAIT"


def test_definitions_of_a_lemma_in_any_spelling(tiny):
    for spelling in ("ICECREAMCONE", "ice cream cone", "ice-cream_cone"):
        (sense,) = tiny.definitions(spelling)
        assert (sense.lemma, sense.pos, sense.text) == ("ice-cream cone", "noun", "ice cream in a crisp conical wafer")
        assert sense.form_of is None


def test_senses_are_ordered_first_sense_of_each_part_of_speech_first(tiny):
    senses = tiny.definitions("RUN")
    assert [(s.pos, s.text) for s in senses] == [
        ("noun", "a score in baseball"),
        ("verb", "move fast by using one's feet"),
        ("verb", "stretch out over a distance"),
    ]
    assert senses[0].examples == ("three runs in the ninth",)


def test_proper_names_keep_their_capital_and_adjective_markers_go(tiny):
    assert tiny.definitions("ELI")[0].lemma == "Eli"
    assert tiny.definitions("BIG")[0].lemma == "big"


def test_inflections_reach_their_lemma_in_its_part_of_speech(tiny):
    geese = tiny.definitions("GEESE")
    assert [(s.lemma, s.form_of, s.pos) for s in geese] == [("goose", "goose", "noun")]
    ran = tiny.definitions("RAN")
    assert {s.pos for s in ran} == {"verb"}  # RAN is no noun: the noun "run" is not offered
    assert tiny.definitions("RUNS")[0].form_of == "run"  # a detachment rule, not an exception
    assert tiny.definitions("BIGGER")[0].form_of == "big"


def test_unknown_answers_have_no_definitions(tiny):
    assert tiny.definitions("ZZYZX") == []
    assert tiny.definitions("A") == []


def test_the_index_is_built_once_and_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    source = write_wordnet(tmp_path / "wordnet")
    first = open_dictionary(source)
    assert open_dictionary(source) is first
    dictionary_module._OPENED.clear()
    built = sorted(p.name for p in first.folder.iterdir())
    again = open_dictionary(source)
    assert again.folder == first.folder and sorted(p.name for p in again.folder.iterdir()) == built
    assert again.n_keys == 9  # eli, goose, icecreamcone, run, tally, go, big, large, fast


def test_licence_is_wordnets(tiny):
    assert tiny.licence.notice == COPYRIGHT
    assert "Princeton" in tiny.licence.source


def test_absent_wordnet_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setenv("WNSEARCHDIR", str(tmp_path / "none"))
    monkeypatch.setattr(dictionary_module, "SEARCH_DIRS", ())
    assert find_wordnet() is None
    with pytest.raises(DictionaryMissing, match="wordnet-base"):
        open_dictionary()


needs_wordnet = pytest.mark.skipif(
    find_wordnet() is None, reason="WordNet is not installed (apt-get install wordnet-base)"
)


@needs_wordnet
def test_installed_wordnet_defines_crossword_answers():
    wordnet = open_dictionary()
    assert "cookie" in wordnet.definitions("OREO")[0].text
    assert wordnet.definitions("ICECREAMCONE")[0].lemma == "ice-cream cone"
    assert wordnet.definitions("GEESE")[0].form_of == "goose"
    assert wordnet.n_keys > 140_000


def test_a_changed_database_or_version_replaces_its_old_index(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    source = write_wordnet(tmp_path / "wordnet")
    old = open_dictionary(source).folder
    stale_version = old.with_name("wordnet-v0-0123456789abcdef")
    stale_version.mkdir()
    other = open_dictionary(write_wordnet(tmp_path / "another")).folder  # another database: both kept
    assert old.is_dir() and other.is_dir() and not stale_version.exists()
    with open(source / "data.noun", "a") as f:
        f.write("00000099 00 n 01 tapir 0 000 | a large ungulate  \n")
    new = open_dictionary(source).folder
    assert new != old and not old.exists() and other.is_dir()


def test_a_damaged_index_is_built_again(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    source = write_wordnet(tmp_path / "wordnet")
    folder = open_dictionary(source).folder
    dictionary_module._OPENED.clear()
    senses = folder / "senses.txt"
    size, stamp = senses.stat().st_size, senses.stat().st_mtime_ns
    damaged = bytearray(senses.read_bytes())
    damaged[10] ^= 0x20  # one letter's case flipped, the size and time kept
    senses.write_bytes(bytes(damaged))
    os.utime(senses, ns=(stamp, stamp))
    assert senses.stat().st_size == size
    with pytest.raises(dictionary_module.IndexDamaged, match="senses.txt"):
        dictionary_module.Dictionary(folder, source)
    again = open_dictionary(source)
    assert again.definitions("GOOSE")[0].lemma == "goose"
    assert senses.read_bytes() != bytes(damaged)


def test_threads_opening_at_once_share_one_index(tmp_path, monkeypatch):
    import time
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    source = write_wordnet(tmp_path / "wordnet")
    build = dictionary_module.build_index

    def slow_build(*args):  # as long as the real database's build takes, in proportion: the threads overlap
        time.sleep(0.2)
        build(*args)

    monkeypatch.setattr(dictionary_module, "build_index", slow_build)
    with ThreadPoolExecutor(8) as pool:
        opened = list(pool.map(lambda _: open_dictionary(source), range(8)))
    assert all(d is opened[0] for d in opened)
    assert opened[0].definitions("GEESE")[0].form_of == "goose"
