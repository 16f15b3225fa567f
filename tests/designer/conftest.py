"""The designer tests' shared fixture: the default word list, loaded once per test module."""

from __future__ import annotations

import pytest

import xwcp


@pytest.fixture(scope="module")
def words():
    return xwcp.load_word_list()
