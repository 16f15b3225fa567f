"""Random small quality cases and their brute-force answers, read independently of xwcp's search (shared by the quality tests)."""

from __future__ import annotations

import functools
import itertools
import random

from tests.backends.test_backends import brute_force_fills
from xwcp.compile.problem import compile_problem
from xwcp.model import parse_grid
from xwcp.search.quality import lex_key
from xwcp.words.wordlist import words_from_pairs


def fill_scores(rows, score_by_word):
    """Scores of every slot's entry of a filled grid (rows), read independently of xwcp."""
    height, width = len(rows), len(rows[0])
    words = []
    for r in range(height):
        words += [w for w in rows[r].split("#") if len(w) >= 2]
    for c in range(width):
        column = "".join(row[c] for row in rows)
        words += [w for w in column.split("#") if len(w) >= 2]
    return [score_by_word[w] for w in words]


@functools.lru_cache(maxsize=None)
def all_fills(rows, words):
    return brute_force_fills(rows, list(words))


def brute_force_quality(rows, score_by_word):
    """(best floor, best total at that floor) over every fill by the lexicographic aim (highest floor, then
    fewest entries at it, then the highest total), or None when there is no fill."""
    best = brute_force_key(rows, score_by_word)
    return None if best is None else (best[0], best[2])


def brute_force_key(rows, score_by_word):
    """The best (floor, -entries at it, total) over every fill, or None when there is no fill."""
    fills = all_fills(rows, tuple(score_by_word))
    if not fills:
        return None
    return max(lex_key(fill_scores(f, score_by_word)) for f in fills)


def random_case(seed):
    """(rows, {word: score}, the compiled problem, brute-force (floor, best total) or None) for a seed."""
    rng = random.Random(seed)
    letters = "AEINRST"[: rng.choice([3, 4])]
    words = ["".join(t) for t in itertools.product(letters, repeat=3)]
    chosen = rng.sample(words, k=min(len(words), rng.randint(10, 22)))
    score_by_word = {w: rng.choice([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]) for w in chosen}
    rows = rng.choice([("...", "...", "..."), ("...", ".#.", "..."), ("#..", "...", "..#")])
    problem = compile_problem(parse_grid("\n".join(rows) + "\n"), words_from_pairs(score_by_word.items()), min_score=0)
    return rows, score_by_word, problem, brute_force_quality(rows, score_by_word)


def fill_grid_rows(problem, entries):
    from xwcp.engine.result import fill_grid

    return fill_grid(problem, entries).rows
