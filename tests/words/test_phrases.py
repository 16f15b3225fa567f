"""Phrase splits: the list's spacing first, then WordNet's lemma, then the likeliest cut by word frequencies."""

from __future__ import annotations

from pathlib import Path

import pytest

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
