"""The on-disk cache of compiled word lists (xwcp/words/cache.py, through load_word_list): written under
XWCP_CACHE_DIR, read back identical without parsing, keyed by content, rebuilt when corrupt; a mapped list checks
each length on first use."""
from __future__ import annotations

import numpy as np
import pytest

from xwcp.words.wordlist import load_word_list, read_mapped_word_list

from tests.words.test_wordlist import ARRAYS, all_words, write


def test_cache_is_written_under_xwcp_cache_dir(tmp_path, cache):
    load_word_list(write(tmp_path, "CAT;70\nDOG\n"))
    folders = [p for p in cache.iterdir() if p.is_dir()]
    assert len(folders) == 1
    assert {p.name for p in folders[0].iterdir()} >= {f"{name}.npy" for name in ARRAYS}


def test_second_load_is_identical(tmp_path, cache):
    path = write(tmp_path, "CAT;70\nDOG;oops\nHORSE\nR2D2\nACT;20\n")
    first = load_word_list(path)
    second = load_word_list(path)
    for name in ARRAYS:
        a, b = getattr(first, name), getattr(second, name)
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b), name
    assert second.problems == first.problems
    assert second.n_problems == first.n_problems == 2
    assert [line for line, _ in second.problems] == [2, 4]
    assert second.source == str(path)
    # Same answers through the public lookups, too.
    assert all_words(second) == all_words(first) == {"CAT": 70, "HORSE": 50, "ACT": 20}


def test_second_load_comes_from_the_cache(tmp_path, cache, monkeypatch):
    import xwcp.words.wordlist as wordlist

    path = write(tmp_path, "CAT;70\nDOG;x\n")
    load_word_list(path)

    def no_parsing(*args, **kwargs):
        raise AssertionError("the list was parsed again instead of read from the cache")

    monkeypatch.setattr(wordlist, "parse_word_lines", no_parsing)
    again = load_word_list(path)
    assert all_words(again) == {"CAT": 70}
    assert again.n_problems == 1 and again.problems[0][0] == 2


def test_cache_is_keyed_by_content_not_path(tmp_path, cache):
    path = write(tmp_path, "CAT;70\nDOG;60\n")
    assert all_words(load_word_list(path)) == {"CAT": 70, "DOG": 60}
    path.write_text("CAT;10\nEMU;60\n")
    assert all_words(load_word_list(path)) == {"CAT": 10, "EMU": 60}
    path.write_text("CAT;70\nDOG;60\n")
    assert all_words(load_word_list(path)) == {"CAT": 70, "DOG": 60}


def test_without_cache_nothing_is_written(tmp_path, cache):
    words = load_word_list(write(tmp_path, "CAT;70\n"), use_cache=False)
    assert all_words(words) == {"CAT": 70}
    assert not cache.exists() or not any(cache.iterdir())


def test_corrupt_cache_is_rebuilt(tmp_path, cache):
    path = write(tmp_path, "CAT;70\nDOG;60\n")
    load_word_list(path)
    (folder,) = [p for p in cache.iterdir() if p.is_dir()]
    (folder / "meta.json").write_text("{not json")
    assert all_words(load_word_list(path)) == {"CAT": 70, "DOG": 60}


def test_words_of_a_length_are_verified_when_first_used(files):
    """The mapped list checks the words of each length the first time it is used (`cache.verify_bucket`)."""
    from xwcp.words import cache

    listed = files("words.txt", "ABC\nBCD\nCDE\nDEF\nAAAA\n")
    load_word_list(listed)
    words = read_mapped_word_list(listed)
    l_off = words.table_rows[-1][2]
    words.letters_flat[l_off] = 30  # the map is private: only this object sees the damage
    with pytest.raises(cache.CacheDamaged):
        words.row(4)
    assert read_mapped_word_list(listed).word_id("AAAA") == 0  # a fresh map of the file is sound
