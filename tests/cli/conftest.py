"""Fixtures shared by the command line's test modules."""

from __future__ import annotations

import pytest

from tests.cli.helpers import TINY_GRID, TINY_LIST, write


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    return write(tmp_path, "grid.txt", TINY_GRID), write(tmp_path, "words.txt", TINY_LIST)
