"""Fixtures shared by the backend tests: the default word list."""
from __future__ import annotations

import pytest

from xwcp.words.wordlist import load_word_list


@pytest.fixture(scope="module")
def default_words():
    return load_word_list()
