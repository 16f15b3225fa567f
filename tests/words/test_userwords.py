"""The personal word list's folder (xwcp/words/userwords.py) and a list overlaid with personal changes
(wordlist.overlay_word_list): the same as layering the two lists."""
from __future__ import annotations

import numpy as np
import pytest

import xwcp
from xwcp.words import userwords


@pytest.fixture(scope="module")
def words():
    return xwcp.load_word_list()


def test_data_dir_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("XWCP_DATA_DIR", str(tmp_path / "a"))
    assert userwords.data_dir() == tmp_path / "a"
    monkeypatch.delenv("XWCP_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "b"))
    assert userwords.data_dir() == tmp_path / "b" / "xwcp"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "c"))
    assert userwords.data_dir() == tmp_path / "c" / ".local" / "share" / "xwcp"


def test_overlay_equals_layering(words):
    from xwcp.words.wordlist import build_word_list, layer_word_lists, overlay_word_list

    changes = {"AXQZ": 80, "ESNE": 0, words.bucket(5).text(7): 3, "Q" * 40: 60}
    a = overlay_word_list(words, changes, "x")
    b = layer_word_lists([words, build_word_list(changes, "p")], use_cache=False)
    for name in ("letters_flat", "scores_flat", "order_flat", "starts_flat", "table", "bits_flat"):
        assert np.array_equal(np.asarray(getattr(a, name)), np.asarray(getattr(b, name))), name
    assert overlay_word_list(words, {}, "x") is words
