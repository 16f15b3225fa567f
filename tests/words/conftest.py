"""The word-list tests' shared fixture: a private, empty cache folder for the test."""

from __future__ import annotations

import pytest


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("XWCP_CACHE_DIR", str(folder))
    return folder
