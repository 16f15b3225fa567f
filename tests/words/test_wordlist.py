"""Word-list parsing, normalisation, compressed and odd files, the length index and the default list (the cache:
tests/words/test_cache.py)."""

from __future__ import annotations

import gzip
import lzma
import re
from importlib import resources

import numpy as np
import pytest

from xwcp.base.errors import InputError
from xwcp.words.wordlist import DEFAULT_SCORE, load_word_list, normalise_word, words_from_pairs

ARRAYS = ("letters_flat", "scores_flat", "order_flat", "starts_flat", "table")


def write(tmp_path, text: str, name: str = "words.txt"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def all_words(words) -> dict[str, int]:
    out = {}
    for length in words.lengths:
        bucket = words.bucket(length)
        for word_id in range(bucket.n_words):
            out[bucket.text(word_id)] = int(bucket.scores[word_id])
    return out


# ----- parsing -----------------------------------------------------------------------------


def test_scored_lines(tmp_path, cache):
    words = load_word_list(write(tmp_path, "CAT;70\nDOG;40\nHORSE;100\nemu;0\n"))
    assert all_words(words) == {"CAT": 70, "DOG": 40, "HORSE": 100, "EMU": 0}
    assert words.n_words == 4
    assert words.lengths == [3, 5]
    assert words.problems == [] and words.n_problems == 0


def test_missing_score_is_default(tmp_path, cache):
    assert DEFAULT_SCORE == 50
    words = load_word_list(write(tmp_path, "CAT;\nDOG\nEEL; \nOWL;60\n"))
    assert all_words(words) == {"CAT": 50, "DOG": 50, "EEL": 50, "OWL": 60}


def test_plain_word_per_line(tmp_path, cache):
    words = load_word_list(write(tmp_path, "apple\nbanana\ncherry\n\n"))
    assert all_words(words) == {"APPLE": 50, "BANANA": 50, "CHERRY": 50}


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("Café au lait", "CAFEAULAIT"),
        ("crème brûlée", "CREMEBRULEE"),
        ("rock-'n'-roll", "ROCKNROLL"),
        ("don't", "DONT"),
        ("St. Louis", "STLOUIS"),
        ("naïve", "NAIVE"),
        ("hello", "HELLO"),
        ("R2D2", None),
        ("a_b", None),
        ("", None),
    ],
)
def test_normalise_word(raw, expected):
    assert normalise_word(raw) == expected


def test_normalisation_in_files(tmp_path, cache):
    words = load_word_list(write(tmp_path, "Café au lait;60\nrock-n-roll;55\ndon't\n"))
    assert all_words(words) == {"CAFEAULAIT": 60, "ROCKNROLL": 55, "DONT": 50}


def test_duplicates_keep_highest_score(tmp_path, cache):
    words = load_word_list(write(tmp_path, "cat;40\nCAT;70\nc-a-t;60\nDOG;20\ndog\n"))
    assert all_words(words) == {"CAT": 70, "DOG": 50}


def test_malformed_lines_are_reported_not_raised(tmp_path, cache):
    text = "CAT;70\nDOG;lots\nR2D2;50\nEMU;12.5\nOWL\n"
    words = load_word_list(write(tmp_path, text))
    assert all_words(words) == {"CAT": 70, "OWL": 50}
    assert words.n_problems == 3
    assert [line for line, _ in words.problems] == [2, 3, 4]
    assert "lots" in words.problems[0][1]
    assert "R2D2" in words.problems[1][1]


def test_no_usable_entries(tmp_path, cache):
    path = write(tmp_path, "R2D2;50\nCAT;x\n\n")
    with pytest.raises(InputError) as info:
        load_word_list(path)
    assert str(path) in str(info.value)
    assert "no usable" in str(info.value)


def test_empty_file(tmp_path, cache):
    with pytest.raises(InputError):
        load_word_list(write(tmp_path, ""))


def test_missing_file(tmp_path, cache):
    path = tmp_path / "nope.dict"
    with pytest.raises(InputError) as info:
        load_word_list(path)
    assert str(path) in str(info.value)


def test_directory(tmp_path, cache):
    with pytest.raises(InputError) as info:
        load_word_list(tmp_path)
    assert str(tmp_path) in str(info.value)


# ----- the index ---------------------------------------------------------------------------

SMALL = {"CAT": 70, "ACT": 50, "TAB": 30, "BAT": 60, "CAB": 55, "ABBA": 40, "BACH": 80, "EGG": 10}


def check_index(words, expected: dict[str, int]):
    assert sorted(words.lengths) == sorted({len(w) for w in expected})
    assert words.n_words == len(expected)
    for length in words.lengths:
        bucket = words.bucket(length)
        texts = sorted(w for w in expected if len(w) == length)
        assert bucket.n_words == len(texts)
        assert bucket.letters.shape == (len(texts), length)
        assert bucket.letters.dtype == np.uint8
        assert [bucket.text(k) for k in range(bucket.n_words)] == texts  # sorted alphabetically
        assert [int(s) for s in bucket.scores] == [expected[t] for t in texts]
        assert bucket.order.shape == (length, len(texts))
        assert bucket.starts.shape == (length, 27)
        for pos in range(length):
            assert sorted(bucket.order[pos].tolist()) == list(range(len(texts)))
            assert bucket.starts[pos, 0] == 0 and bucket.starts[pos, 26] == len(texts)
            for code in range(26):
                got = sorted(bucket.ids_with_letter(pos, code).tolist())
                want = [k for k, t in enumerate(texts) if ord(t[pos]) - 65 == code]
                assert got == want, (length, pos, chr(65 + code))
        for k, text in enumerate(texts):
            assert words.word_id(text) == k
            assert words.score(text) == expected[text]


def test_index_invariants_from_pairs():
    words = words_from_pairs(SMALL.items())
    check_index(words, SMALL)
    assert words.word_id("DOG") is None and words.score("DOG") is None
    assert words.word_id("CATS") is None
    assert words.bucket(7).n_words == 0
    assert words.bucket(7).ids_with_letter(0, 0).size == 0


def test_index_invariants_from_file_and_cache(tmp_path, cache):
    path = write(tmp_path, "".join(f"{w};{s}\n" for w, s in SMALL.items()))
    check_index(load_word_list(path), SMALL)
    check_index(load_word_list(path), SMALL)  # the cached copy


def test_words_from_pairs_normalises_and_keeps_best():
    words = words_from_pairs([("cat", 20), "Cat", ("c-a-t", 10), ("Café", 70)])
    assert all_words(words) == {"CAT": 50, "CAFE": 70}


# ----- compressed and odd files ------------------------------------------------------------


@pytest.mark.parametrize("suffix, compress", [(".gz", gzip.compress), (".xz", lzma.compress)])
def test_compressed_lists_load_like_plain(tmp_path, cache, suffix, compress):
    text = "Café;60\nCAT;70\nDOG;x\nhorse\n"
    plain = load_word_list(write(tmp_path, text))
    packed_path = tmp_path / f"words.txt{suffix}"
    packed_path.write_bytes(compress(text.encode("utf-8")))
    packed = load_word_list(packed_path, use_cache=False)
    for name in ARRAYS:
        assert np.array_equal(getattr(plain, name), getattr(packed, name)), name
    assert packed.problems == plain.problems and packed.n_problems == 1
    assert all_words(packed) == {"CAFE": 60, "CAT": 70, "HORSE": 50}
    assert all_words(load_word_list(packed_path)) == all_words(plain)  # cached path too


def test_byte_order_mark_is_not_part_of_the_first_word(tmp_path, cache):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfCAB;60\r\nORE\r\n")
    words = load_word_list(path)
    assert all_words(words) == {"CAB": 60, "ORE": 50}
    assert words.n_problems == 0


def test_latin1_file_is_read(tmp_path, cache):
    path = tmp_path / "latin1.txt"
    path.write_bytes("Café;60\n".encode("latin-1"))
    assert all_words(load_word_list(path)) == {"CAFE": 60}


# ----- the default list --------------------------------------------------------------------


@pytest.fixture(scope="module")
def default_list():
    return load_word_list()


def test_default_list_is_large_and_clean(default_list):
    assert default_list.n_words > 250_000
    assert default_list.letters_flat.size > 0
    assert int(default_list.letters_flat.max()) < 26
    assert default_list.problems == [] and default_list.n_problems == 0
    for length in (3, 7, 15):
        bucket = default_list.bucket(length)
        assert bucket.n_words > 1000
        sample = [bucket.text(k) for k in range(0, bucket.n_words, max(1, bucket.n_words // 50))]
        assert all(re.fullmatch(f"[A-Z]{{{length}}}", w) for w in sample)


def test_default_list_contains_common_words(default_list):
    for word in ("HOUSE", "WATER", "APPLE"):
        assert default_list.score(word) is not None and default_list.score(word) >= 50, word
    assert default_list.score("XQZVW") is None


def test_default_list_licence_ships_in_package():
    licence = resources.files("xwcp.words") / "data" / "CWL-LICENSE"
    assert licence.is_file()
    text = licence.read_text(encoding="utf-8")
    assert "MIT License" in text and "Crossword-Nexus" in text


def test_letters_folded_into_others_are_read_and_said_in_a_note():
    from xwcp.words.wordlist import parse_word_lines

    notes: list[str] = []
    words, problems, _ = parse_word_lines("STRAßE;60\nCAFÉ\nkapı\nPLAIN\n", "w.txt", notes)
    assert words == {"STRASSE": 60, "CAFE": 50, "KAPI": 50, "PLAIN": 50} and problems == []
    assert notes == [
        "w.txt: 2 words spelled with letters that upper case changes into others, read that way "
        "(line 1: ß -> SS; line 3: ı -> I)"
    ]
    notes.clear()
    parse_word_lines("CAFÉ\nPLAIN\n", "w.txt", notes)
    assert notes == []
