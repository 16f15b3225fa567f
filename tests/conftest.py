"""Shared test setup: keep every test away from the user's word-list cache."""
from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_cache_dir(tmp_path_factory):
    """Point XWCP_CACHE_DIR at a per-session folder (subprocesses inherit it).

    Tests that look at the cache itself set their own folder with monkeypatch on top of this.
    """
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XWCP_CACHE_DIR", str(tmp_path_factory.mktemp("xwcp-cache")))
        yield
