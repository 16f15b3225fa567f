"""Shared test setup: keep every test away from the user's word-list cache and data folder; a fixture writing input
files; the default word list."""
from __future__ import annotations

import pytest

from xwcp.words.wordlist import load_word_list


@pytest.fixture(scope="module")
def default_words():
    """The default list, compiled into the session's cache (the quick path reads only a cached list)."""
    return load_word_list()


@pytest.fixture(scope="session", autouse=True)
def _private_cache_dir(tmp_path_factory):
    """Point XWCP_CACHE_DIR at a per-session folder (subprocesses inherit it).

    Tests that look at the cache itself set their own folder with monkeypatch on top of this.
    """
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XWCP_CACHE_DIR", str(tmp_path_factory.mktemp("xwcp-cache")))
        mp.setenv("XWCP_DATA_DIR", str(tmp_path_factory.mktemp("xwcp-data-session")))
        yield


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Point XWCP_DATA_DIR (the personal word list's folder) at a fresh folder for every test, so no test
    reads or writes the user's own list (subprocesses inherit it)."""
    monkeypatch.setenv("XWCP_DATA_DIR", str(tmp_path_factory.mktemp("xwcp-data")))


@pytest.fixture
def files(tmp_path, monkeypatch):
    """`files(name, text_or_bytes) -> Path`: write a file in tmp_path (text as UTF-8), with a private cache."""
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))

    def write(name: str, content: str | bytes):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        return path

    return write
