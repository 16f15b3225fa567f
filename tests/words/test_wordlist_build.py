"""Compiling big lists in chunks (issue 17): the same index as compiling the whole list at once."""

from __future__ import annotations

import random

import numpy as np
import pytest

import xwcp.words.wordlist as wordlist
from xwcp.words.wordlist import load_word_list, parse_word_lines

ARRAYS = ("letters_flat", "scores_flat", "order_flat", "starts_flat", "table", "bits_flat")


def reference_index(score_by_word):
    """The index built the plain way: sorted words per length, a bool matrix packed per (pos, letter)."""
    out = {}
    for length in sorted({len(w) for w in score_by_word}):
        words = sorted(w for w in score_by_word if len(w) == length)
        letters = np.array([[ord(ch) - 65 for ch in w] for w in words], np.uint8)
        has = np.zeros((length * 26, ((len(words) + 63) // 64) * 64), bool)
        for pos in range(length):
            has[pos * 26 + letters[:, pos].astype(int), np.arange(len(words))] = True
        out[length] = (
            words,
            [score_by_word[w] for w in words],
            np.packbits(has, axis=1, bitorder="little").view("<u8"),
        )
    return out


@pytest.mark.parametrize("seed", range(8))
def test_chunked_compile_equals_whole_compile(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    lines = []
    for _ in range(3000):
        word = "".join(rng.choice("ABCDEZ") for _ in range(rng.randint(1, 8)))
        lines.append(rng.choice([f"{word};{rng.randint(0, 99)}", word.lower(), f" {word} ; {rng.randint(0, 9)}"]))
    if seed % 2:  # some chunks take the per-line path: a bad score, an accent, a comment
        lines[rng.randrange(3000)] = "CAT;x"
        lines[rng.randrange(3000)] = "CAFÉ;60"
        lines[rng.randrange(3000)] = "# comment"
    text = "\n".join(lines) + "\n"
    path = tmp_path / "w.txt"
    path.write_text(text)
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    whole = load_word_list(path, use_cache=False)
    monkeypatch.setattr(wordlist, "PARSE_CHUNK_CHARS", 97)
    chunked = load_word_list(path, use_cache=False)
    for name in ARRAYS:
        a, b = getattr(whole, name), getattr(chunked, name)
        assert a.dtype == b.dtype and a.shape == b.shape and (a == b).all(), name
    assert whole.problems == chunked.problems and whole.n_problems == chunked.n_problems
    score_by_word, problems, n_problems = parse_word_lines(text, str(path))
    assert chunked.n_problems == n_problems and chunked.problems == problems
    for length, (words, scores, bits) in reference_index(score_by_word).items():
        bucket = chunked.bucket(length)
        assert [bucket.text(i) for i in range(bucket.n_words)] == words
        assert bucket.scores.tolist() == scores
        row = chunked.table[chunked.table[:, 0] == length][0]
        got = chunked.bits_flat[row[6] : row[6] + bits.size].reshape(bits.shape)
        assert (got == bits).all()


@pytest.mark.parametrize(
    "text",
    [
        "CAT;50\ndog;70\n\n# c\n  EMU ; 3 \r\nCAT;99\nX;\nY\nBIG;99999\n",
        "\tCAT\t;\t7\t\n",
        "CAT;50\nNº;50\n",
        "A B;5\n",
        "CAT;-5\n",
        "CAT\x0bDOG\n",
        "CAT;5;6\n",
        "CAT;50\n\x0bDOG;7\n",
    ],
)
def test_fast_parse_agrees_with_line_parse_or_declines(text):
    fast = wordlist._parse_clean(text)
    score_by_word, _, n_problems = parse_word_lines(text, "t")
    if fast is not None:
        assert fast == score_by_word and n_problems == 0
    else:  # declined: only texts the plain-word pattern cannot vouch for
        assert n_problems or any(ch in text for ch in "\x0b;") or not text.isascii()
