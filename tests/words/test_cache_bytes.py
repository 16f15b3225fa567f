"""The compiled-list cache is bounded by bytes (xwcp/words/cache.py): lists in several languages stay compiled
while they fit, the least recently used go first when they do not, and $XWCP_CACHE_MAX_MB sets the bound."""

from __future__ import annotations

import pytest

import xwcp.words.cache as cache_module
import xwcp.words.wordlist as wordlist
from xwcp.model.alphabet import load_alphabet
from xwcp.words.wordlist import cache_folder, load_word_list

WORDS_BY_CODE = {
    "en": "CAT;70\nDOG;60\nHORSE;50\nZEBRA;40\n",
    "es": "AÑO;70\nNIÑO;60\nCASA;50\nPERRO;40\n",
    "de": "HAUS;70\nMAUS;60\nBAUM;50\nGARTEN;40\n",
    "ru": "ДОМ;70\nКОТ;60\nЖУК;50\nСОБАКА;40\n",
    "pl": "ŁÓDŹ;70\nKOT;60\nDOM;50\nŻABA;40\n",
}


@pytest.fixture
def lists(tmp_path, cache, monkeypatch):
    """{code: (path, its cache folder)}, with the cache's bound from the environment removed."""
    monkeypatch.delenv(cache_module.CACHE_MAX_MB_ENV, raising=False)
    out = {}
    for code, text in WORDS_BY_CODE.items():
        path = tmp_path / f"{code}.dict"
        path.write_text(text, "utf-8")
        out[code] = (path, cache_folder(path.read_bytes(), load_alphabet(code)))
    return out


@pytest.fixture
def compiles(monkeypatch):
    """The codes' lists compiled (parsed) since the fixture started, in order."""
    seen: list[str] = []
    parse = wordlist._parse_in_chunks

    def counting(text, source, notes, alphabet):
        seen.append(alphabet.code)
        return parse(text, source, notes, alphabet)

    monkeypatch.setattr(wordlist, "_parse_in_chunks", counting)
    return seen


def load(lists, code):
    return load_word_list(lists[code][0], alphabet=load_alphabet(code))


def folder_bytes(folder):
    return sum(child.stat().st_size for child in folder.iterdir())


def test_switching_among_languages_that_fit_compiles_each_once(lists, compiles, monkeypatch):
    codes = list(WORDS_BY_CODE)
    for code in codes:
        load(lists, code)
    total = sum(folder_bytes(folder) for _, folder in lists.values())
    monkeypatch.setattr(cache_module, "CACHE_MAX_BYTES", total)  # exactly the five lists
    for _ in range(3):
        for code in codes:
            load(lists, code)
    cache_module.tidy()
    assert compiles == codes
    assert all(folder.is_dir() for _, folder in lists.values())


def test_the_least_recently_used_list_goes_first_when_bytes_run_out(lists, compiles, monkeypatch):
    for code in ("en", "es", "de"):
        load(lists, code)
    sizes = {code: folder_bytes(lists[code][1]) for code in ("en", "es", "de")}
    two = max(sizes["de"] + sizes["es"], sizes["de"] + sizes["en"], sizes["es"] + sizes["en"])
    monkeypatch.setattr(cache_module, "CACHE_MAX_BYTES", two + min(sizes.values()) - 1)  # three do not fit
    load(lists, "en")  # used again: es is now the least recently used
    load(lists, "ru")  # a new list: written, then the cache tidied
    kept = {code for code, (_, folder) in lists.items() if folder.is_dir()}
    assert "ru" in kept and "es" not in kept, kept
    assert compiles == ["en", "es", "de", "ru"]
    load(lists, "en")
    assert compiles == ["en", "es", "de", "ru"]  # still compiled


def test_the_environment_sets_the_bound_in_mebibytes(lists, monkeypatch):
    monkeypatch.setenv(cache_module.CACHE_MAX_MB_ENV, "3")
    assert cache_module.byte_bound() == 3 * 1024 * 1024
    monkeypatch.setenv(cache_module.CACHE_MAX_MB_ENV, "0")  # only the newest list stays
    load(lists, "en")
    load(lists, "es")
    assert not lists["en"][1].exists() and lists["es"][1].is_dir()


@pytest.mark.parametrize("value", ["", "lots", "-5", "1.5"])
def test_a_bound_that_is_not_a_whole_number_is_the_default(monkeypatch, value):
    monkeypatch.setenv(cache_module.CACHE_MAX_MB_ENV, value)
    assert cache_module.byte_bound() == cache_module.CACHE_MAX_BYTES


def test_the_default_bound_keeps_english_and_four_large_languages():
    # compiled sizes of the default lists, measured (MiB): en 22.2; wordfreq de 51.8, ru 52.6, pl 35.6, nl 22.3
    assert cache_module.CACHE_MAX_BYTES >= (22.2 + 51.8 + 52.6 + 35.6 + 22.3) * 1024 * 1024
    assert cache_module.CACHE_KEEP_LISTS >= 20
