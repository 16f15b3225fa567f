"""Switch the phrase sources a machine may lack (wordfreq, WordNet) off for one test, as on a machine set up by the
README's first command: the stem rule then reads phrases by the word list alone."""

from __future__ import annotations

from functools import lru_cache

import pytest

import xwcp.words.dictionary
import xwcp.words.phrases
import xwcp.words.stems

ATE_CROW_GRID = ".......\n#######\n......#\n"
"""A 7-letter and a 6-letter slot, uncrossed: ATECROW and EATERY fit, or SAILOR."""
ATE_CROW_LIST = "ATECROW;90\nEATERY;90\nSAILOR;40\nATE;90\nCROW;90\nEATER;80\n"
"""ATECROW is ATE CROW by the list's own entries; EATERY is EATER + Y, so EAT; SAILOR is the word left."""


def switch_off_phrase_sources(monkeypatch: pytest.MonkeyPatch) -> None:
    """Neither wordfreq nor WordNet for the rest of the test (the sources are looked for again, and again after)."""
    monkeypatch.setattr(xwcp.words.phrases, "wordfreq_zipf", lambda: None)
    monkeypatch.setattr(xwcp.words.dictionary, "find_wordnet", lambda *args, **kwargs: None)
    fresh = lru_cache(maxsize=1)(xwcp.words.stems._phrase_sources.__wrapped__)
    monkeypatch.setattr(xwcp.words.stems, "_phrase_sources", fresh)
    assert xwcp.words.stems._phrase_sources() is None
