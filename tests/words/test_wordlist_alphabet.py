"""Word lists read through a language pack: letters kept, others counted and named, never turned into other words."""

from __future__ import annotations

import numpy as np
import pytest

from xwcp.base.errors import InputError
from xwcp.model.alphabet import load_alphabet
from xwcp.words.wordlist import layer_word_lists, load_word_list, overlay_word_list, score_by_word_of, words_from_pairs

ES = load_alphabet("es")


def spelled(words, length: int) -> list[str]:
    bucket = words.bucket(length)
    return [bucket.text(i) for i in range(bucket.n_words)]


def test_spanish_keeps_n_tilde_apart_from_n() -> None:
    words = words_from_pairs([("AÑO", 90), ("ANO", 10), ("NOS", 80)], alphabet=ES)
    assert spelled(words, 3) == ["ANO", "AÑO", "NOS"]  # alphabet order: N before Ñ before O
    assert words.score("AÑO") == 90 and words.score("ANO") == 10
    assert words.bucket(3).starts.shape == (3, ES.size + 1)


def test_a_list_file_names_words_outside_the_alphabet_and_caches_per_alphabet(tmp_path) -> None:
    path = tmp_path / "es.txt"
    path.write_text("año;80\nniño;70\nжук;60\n", "utf-8")
    for _ in range(2):  # compiled, then from the cache
        words = load_word_list(path, alphabet=ES)
        assert words.alphabet is ES and words.n_words == 2
        assert spelled(words, 4) == ["NIÑO"]
        assert words.problems == [(3, "'жук' has 'Ж', not a letter of Spanish (español)")]
    english = load_word_list(path)  # the same file read as English is another list
    assert spelled(english, 3) == ["ANO"] and english.score("ANO") == 80


def test_a_list_with_no_word_of_the_alphabet_is_refused_in_one_line(tmp_path) -> None:
    path = tmp_path / "ru.txt"
    path.write_text("cat\ndog\n", "utf-8")
    with pytest.raises(InputError, match="no usable entries in Russian") as caught:
        load_word_list(path, alphabet=load_alphabet("ru"), use_cache=False)
    assert "\n" not in str(caught.value)


def test_dutch_ij_is_one_letter_in_the_index() -> None:
    nl = load_alphabet("nl")
    words = words_from_pairs(["ijs", "bijna", "ijzer"], alphabet=nl)
    assert [nl.written(w) for w in spelled(words, 2)] == ["IJS"]
    assert [nl.written(w) for w in spelled(words, 4)] == ["BIJNA", "IJZER"]


def test_overlay_and_layers_keep_the_alphabet_and_refuse_mixing() -> None:
    base = words_from_pairs([("AÑO", 90), ("NOS", 80)], alphabet=ES)
    over = overlay_word_list(base, {"ÑUS": 60, "NOS": 0}, "ban")
    assert spelled(over, 3) == ["AÑO", "ÑUS"] and over.alphabet is ES
    ru = words_from_pairs(["жук"], alphabet=load_alphabet("ru"))
    with pytest.raises(InputError, match="share one alphabet"):
        layer_word_lists([base, ru], use_cache=False)
    both = layer_word_lists([base, words_from_pairs([("ÑUS", 70)], alphabet=ES)], use_cache=False)
    assert spelled(both, 3) == ["AÑO", "NOS", "ÑUS"]


def _many_aksharas() -> tuple[list[str], list[tuple[str, int]]]:
    """20 everyday aksharas and 535 rare ones (555 in all: more than one byte holds), and words of two of them."""
    consonants = [chr(c) for c in range(0x0915, 0x093A)]  # क .. ह
    signs = [chr(c) for c in range(0x093E, 0x094D)]  # ा .. ौ
    aksharas = [c + s for c in consonants for s in signs]
    common = aksharas[:20]
    pairs = [(a + b, 60) for a in common for b in common if a != b]  # the list's everyday letters
    pairs += [
        (aksharas[k] + aksharas[k + 1], 40) for k in range(20, len(aksharas) - 1)
    ]  # each rare letter once or twice
    return aksharas, pairs


def test_an_open_pack_keeps_every_word_past_one_byte_of_letters() -> None:
    from xwcp.model.alphabet import MAX_LETTERS

    hi = load_alphabet("hi")
    aksharas, pairs = _many_aksharas()
    words = words_from_pairs(pairs, alphabet=hi)
    assert len(aksharas) > MAX_LETTERS and words.alphabet.is_wide
    assert words.n_words == len(pairs)  # no word left out for a rare letter
    assert words.letters_flat.dtype == np.uint16
    for raw, score in pairs[::37]:  # each reads back, by its id and as text
        code = hi.fold_word(raw) or ""
        word_id = words.word_id(code)
        assert word_id is not None and words.score(code) == score
        assert words.alphabet.written(words.bucket(len(code)).text(word_id)) == raw
    assert score_by_word_of(words) == {hi.fold_word(raw): score for raw, score in pairs}
    rare = aksharas[-2] + aksharas[-1]
    over = overlay_word_list(
        words, {hi.fold_word(rare) or "": 0, hi.fold_word(aksharas[0] + aksharas[-1]) or "": 70}, "edits"
    )  # a ban and a boost re-index the wide list
    assert over.word_id(hi.fold_word(rare) or "") is None
    assert over.score(hi.fold_word(aksharas[0] + aksharas[-1]) or "") == 70 and over.n_words == len(pairs)


def test_an_open_pack_keeps_the_commonest_letters_when_a_list_uses_too_many(monkeypatch) -> None:
    from xwcp.words import wordlist

    hi = load_alphabet("hi")
    monkeypatch.setattr(wordlist, "MAX_OPEN_LETTERS", 250)
    aksharas, pairs = _many_aksharas()
    words = words_from_pairs(pairs, alphabet=hi)
    assert words.alphabet.size == 250 and not words.alphabet.is_wide
    for a in aksharas[:20]:
        assert words.alphabet.from_cell(a) is not None
    assert words.n_words < len(pairs)  # words with the rarest letters left out
    assert words.score(hi.fold_word(aksharas[0] + aksharas[1]) or "") == 60


def test_hindi_lists_layer_and_an_overlay_may_bring_new_aksharas() -> None:
    hi = load_alphabet("hi")
    base = words_from_pairs([("नहीं", 90), ("भारत", 80), ("दिल्ली", 70)], alphabet=hi)
    over = words_from_pairs([("भारत", 55), ("झिलमिल", 60)], alphabet=hi)  # झि is no letter of `base`
    both = layer_word_lists([base, over], use_cache=False)
    assert {both.alphabet.written(word): score for word, score in score_by_word_of(both).items()} == {
        "नहीं": 90,
        "भारत": 55,
        "दिल्ली": 70,
        "झिलमिल": 60,
    }
    removed = layer_word_lists([base, words_from_pairs([("नहीं", 0)], alphabet=hi)], use_cache=False)
    assert removed.word_id(hi.fold_word("नहीं") or "") is None and removed.n_words == 2
    edited = overlay_word_list(base, {hi.fold_word("झिलमिल") or "": 65, hi.fold_word("दिल्ली") or "": 0}, "edits")
    assert {edited.alphabet.written(word): score for word, score in score_by_word_of(edited).items()} == {
        "नहीं": 90,
        "भारत": 80,
        "झिलमिल": 65,
    }
