"""Phrase splits: the list's spacing first, then WordNet's lemma, then the likeliest cut by word frequencies."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.words.phrase_sources import switch_off_phrase_sources
from tests.words.wordnet_fixture import write_wordnet
from xwcp.words.dictionary import find_wordnet, open_dictionary
from xwcp.words.phrases import SplitSource, spacing_from_lines, split_answer, wordfreq_zipf

ZIPF = {
    "ice": 5.0,
    "cream": 4.6,
    "cone": 4.0,
    "car": 5.0,
    "pet": 4.4,
    "carpet": 4.2,
    "a": 7.4,
    "lie": 4.8,
    "alie": 2.5,
    "told": 5.0,
    "at": 6.5,
    "one": 6.4,
    "atone": 2.9,
    "of": 7.4,
}


def zipf(word: str) -> float:
    return ZIPF.get(word, 0.0)


def test_the_lists_spacing_wins():
    spacing = spacing_from_lines(["ICECREAM CONE;50", "CARPET;60", "ice-cream cone", "A LIE"])
    assert spacing == {"ICECREAMCONE": "ICECREAM CONE", "ALIE": "A LIE"}
    split = split_answer("icecreamcone", spacing=spacing, zipf=zipf)
    assert split is not None and split.words == ("ICECREAM", "CONE") and split.source is SplitSource.LIST


def test_wordnets_multiword_lemma(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    wordnet = open_dictionary(write_wordnet(tmp_path / "wn"))
    split = split_answer("ICECREAMCONE", dictionary=wordnet, zipf=lambda w: 0.0)
    assert split is not None and split.text() == "ICE CREAM CONE" and split.source is SplitSource.DICTIONARY


def test_the_likeliest_cut_by_frequency():
    split = split_answer("ICECREAMCONE", zipf=zipf)
    assert split is not None and split.words == ("ICE", "CREAM", "CONE") and split.source is SplitSource.FREQUENCY
    assert split_answer("TOLDALIE", zipf=zipf).words == ("TOLD", "A", "LIE")  # two common words beat one rare


def test_a_word_stays_whole():
    assert split_answer("CARPET", zipf=zipf) is None  # no CAR PET
    assert split_answer("ZQX", zipf=zipf) is None  # nothing known: no split
    assert split_answer("", zipf=zipf) is None


def test_a_dictionary_word_is_not_cut(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    wordnet = open_dictionary(write_wordnet(tmp_path / "wn"))
    assert split_answer("ATONE", zipf=zipf).words == ("AT", "ONE")  # without the dictionary: two words
    ZIPF_TALLY = {**ZIPF, "tal": 3.1, "ly": 4.6}
    assert split_answer("TALLY", dictionary=wordnet, zipf=lambda w: ZIPF_TALLY.get(w, 0.0)) is None


SAMPLE = Path(__file__).parents[2] / "bench" / "clues" / "phrase_sample.txt"


@pytest.mark.skipif(wordfreq_zipf() is None or find_wordnet() is None, reason="needs wordfreq and WordNet installed")
def test_the_hand_made_sample_is_split_right():
    phrases = [line.strip() for line in SAMPLE.read_text().splitlines() if line.strip() and not line.startswith("#")]
    assert len(phrases) == 30
    wordnet = open_dictionary()
    right = [p for p in phrases if (s := split_answer(p.replace(" ", ""), dictionary=wordnet)) and s.text() == p]
    assert len(right) >= 28, sorted(set(phrases) - set(right))


# --- the cut by the word list itself (every machine has it) ---

CWL_LIKE = {
    "ATECROW": 80,
    "ATE": 80,
    "CROW": 90,
    "CARPET": 90,
    "CAR": 80,
    "PET": 90,
    "ATONE": 90,
    "ONE": 73,
    "SOLOPRENEUR": 70,
    "SOLO": 90,
    "PRE": 50,
    "EUR": 50,
    "RENE": 80,
    "ICECREAMCONE": 90,
    "ICECREAM": 90,
    "ICE": 90,
    "CREAM": 90,
    "CONE": 90,
    "CALLTHESHOTS": 90,
    "CALL": 80,
    "THE": 90,
    "SHOTS": 90,
}
"""Scores as the default list (cwl50) gives them."""


def test_the_list_cut_splits_a_phrase_into_listed_entries(monkeypatch):
    switch_off_phrase_sources(monkeypatch)
    split = split_answer("ATECROW", score_of=CWL_LIKE.get)
    assert split is not None and split.words == ("ATE", "CROW") and split.source is SplitSource.WORD_LIST
    assert split_answer("ICECREAMCONE", score_of=CWL_LIKE.get).words == ("ICECREAM", "CONE")
    assert split_answer("CALLTHESHOTS", score_of=CWL_LIKE.get).words == ("CALL", "THE", "SHOTS")
    assert split_answer("ATECROW") is None  # no list, no frequencies: nothing to cut by


def test_the_list_cut_keeps_a_good_entry_whole():
    from xwcp.words.phrases import list_cut

    assert list_cut("CARPET", CWL_LIKE.get) is None  # CAR 80 PET 90 are no better than CARPET 90
    assert list_cut("ATONE", CWL_LIKE.get) is None  # AT is a little word, ONE 73: ATONE 90 stays
    assert list_cut("SOLOPRENEUR", CWL_LIKE.get) is None  # no SOLO PR EN EUR: PR, EN are no pieces
    assert list_cut("ZQXWVY", CWL_LIKE.get) is None
    assert list_cut("CROWATE", CWL_LIKE.get) == ("CROW", "ATE")  # an answer the list lacks is never kept whole


def test_frequencies_come_before_the_list_cut():
    split = split_answer("CARPET", zipf=zipf, score_of=lambda text: 90)  # the list would cut anything
    assert split is None
