"""The compiled search's slot provenance (xwcp/engine/kernel.py, issue 29): a proof names slots that alone cannot
be filled, and tracking them does not change the search.

Every claim is checked against an independent oracle: a plain Python enumeration of fills
(`brute_fillable`, no kernel code) on small random grids and lists, built inline; tests/search/test_core_search.py
checks the minimal core against the same oracle.
"""

from __future__ import annotations

import random

import pytest

from tests.engine.alphabets import ENGLISH_LETTERS, SHAPES, alphabet_of, random_words, shape, shifted
from xwcp import compile_problem, parse_grid, words_from_pairs
from xwcp.backends.core_oracle import sub_problem
from xwcp.engine import kernel
from xwcp.engine.plain_kernel import bit_search
from xwcp.words.wordlist import build_word_list


def _connected_order(cells_by_slot: list[tuple[int, ...]], n_words_by_slot: list[int]) -> list[int]:
    """The order `brute_fillable` places the slots in: the fewest words first, then always the slot with the most
    cells already placed (its crossings prune early), fewer words breaking ties. Any order enumerates the same."""
    left = set(range(len(cells_by_slot)))
    placed: set[int] = set()
    order: list[int] = []
    while left:
        slot = min(left, key=lambda s: (-len(placed.intersection(cells_by_slot[s])), n_words_by_slot[s], s))
        order.append(slot)
        left.discard(slot)
        placed.update(cells_by_slot[slot])
    return order


def brute_fillable(problem, slot_ids) -> bool:
    """Whether the slots `slot_ids` of `problem` can be filled together, by plain enumeration:
    each slot a word of its domain, crossing cells agreeing among the kept slots, no word twice."""
    sub = sub_problem(problem, slot_ids)
    words = []
    for slot in sub.slots:
        fixed = sub.fixed_text_by_slot.get(slot.id)
        if fixed is not None:
            words.append([fixed])
            continue
        bucket = sub.words.bucket(slot.length)
        words.append([bucket.text(w) for w in range(bucket.n_words) if sub.domains[slot.id][w]])
    order = _connected_order([slot.cells for slot in sub.slots], [len(w) for w in words])
    letter_by_cell: dict[int, str] = {}
    used: set[str] = set()

    def place(index: int) -> bool:
        if index == len(order):
            return True
        slot = sub.slots[order[index]]
        for word in words[slot.id]:
            if not sub.allow_dupes and word in used:
                continue
            if any(letter_by_cell.get(cell, letter) != letter for cell, letter in zip(slot.cells, word)):
                continue
            added = [cell for cell in slot.cells if cell not in letter_by_cell]
            letter_by_cell.update((cell, letter) for cell, letter in zip(slot.cells, word) if cell in added)
            used.add(word)
            if place(index + 1):
                return True
            used.discard(word)
            for cell in added:
                del letter_by_cell[cell]
        return False

    # cells shared with a dropped slot are constrained only by the kept slot: sub.slots keep all
    # their cells, and only kept slots write letters, so agreement is checked among kept slots only
    return place(0)


def random_problem(rng: random.Random, shape: str):
    """A grid from SHAPES with a small random list over a few letters: often unfillable, rarely by AC-3 alone."""
    grid = parse_grid(shape)
    problem = compile_problem(grid, words_from_pairs(["AB"]), min_score=0)
    lengths = {slot.length for slot in problem.slots}
    alphabet = "ABCDE"[: rng.choice([3, 4, 5])]
    words = set()
    for length in lengths:
        for _ in range(rng.randint(4, 14)):
            words.add("".join(rng.choice(alphabet) for _ in range(length)))
    return compile_problem(grid, words_from_pairs(sorted(words)), min_score=0)


def tracked_proof(problem, **configure):
    """The compiled search with slot provenance on the whole problem: (status code, used slot ids, engine)."""
    engine = bit_search(problem, track_slots=True)
    if not engine.is_consistent:
        return kernel.EXHAUSTED, engine.used_slot_ids(), engine
    engine.configure(
        seed=configure.pop("seed", 0),
        restart_base=configure.pop("restart_base", 100),
        noise=0.2,
        score_weight=0.05,
        **configure,
    )
    while True:
        code = engine.search(1.0)
        if code != kernel.RUNNING:
            return code, engine.used_slot_ids(), engine


def unfillable_instances(n: int, seed: int = 7):
    rng = random.Random(seed)
    found: list = []
    while len(found) < n:
        problem = random_problem(rng, rng.choice(SHAPES))
        if not brute_fillable(problem, [s.id for s in problem.slots]):
            found.append(problem)
    return found


INSTANCES = unfillable_instances(40)


@pytest.mark.parametrize(
    "configure",
    [
        {},
        {"restart_base": 1},
        {"restart_base": 1, "branch": "letter"},
        {"restart_base": 2, "learn": 1},
        {"restart_base": 1, "learn": 2, "seed": 3},
        {"restart_base": 0},
    ],
    ids=["default", "restarts", "letters", "learn1", "learn2", "no-restarts"],
)
def test_a_proof_names_slots_that_alone_cannot_be_filled(configure):
    """Slot provenance is sound: the slots a proof says it used have no fill (independent enumeration),
    with restarts and their nogoods, letter branching and learning at every failure."""
    smaller = 0
    for problem in INSTANCES:
        code, used, _ = tracked_proof(problem, **dict(configure))
        assert code == kernel.EXHAUSTED
        assert used and not brute_fillable(problem, used), [problem.slots[s].name for s in used]
        smaller += len(used) < len(problem.slots)
    assert smaller > 0  # the proofs do name fewer slots than they were given on some of these


def test_tracking_does_not_change_the_search():
    for problem in INSTANCES[:10]:
        runs = []
        for track in (False, True):
            engine = bit_search(problem, track_slots=track)
            if engine.is_consistent:
                engine.configure(seed=1, restart_base=2, noise=0.2, score_weight=0.05)
                while engine.search(1.0) == kernel.RUNNING:
                    pass
            runs.append(engine.stats)
        assert runs[0] == runs[1]
        assert bit_search(problem).used_slot_ids() is None  # no provenance unless asked


# ---- alphabets of more than 26 letters (issue 36) ------------------------------------------------------------


def run_search(problem, **configure):
    """The compiled search to its end: (status code, stats, solution word ids) (code None: inconsistent root)."""
    engine = bit_search(problem)
    if not engine.is_consistent:
        return None, engine.stats, None
    engine.configure(
        seed=configure.pop("seed", 0),
        restart_base=configure.pop("restart_base", 20),
        noise=0.2,
        score_weight=0.05,
        **configure,
    )
    code = engine.search(5.0)
    while code == kernel.RUNNING:
        code = engine.search(5.0)
    return code, engine.stats, engine.solution_word_ids() if code == kernel.SOLVED else None


def english_problems(n: int):
    """Small grids with random lists over A-Z whose searches branch a good deal (some fill, some cannot)."""
    rng = random.Random(36)
    for index in range(n):
        grid = shape(index)
        lengths = tuple({slot.length for slot in compile_problem(grid, words_from_pairs(["AB"])).slots})
        chars = "".join(rng.sample(ENGLISH_LETTERS, 5))
        yield grid, random_words(rng, chars, lengths, rng.choice([80, 120, 200]))


@pytest.mark.parametrize("n_letters", [33, 64])
@pytest.mark.parametrize(
    "configure", [{}, {"branch": "letter"}, {"restart_base": 2, "learn": 1}], ids=["words", "letters", "learn"]
)
def test_english_moved_beyond_26_letters_is_searched_the_same(n_letters, configure):
    """English lists moved onto the last 26 letters of a 33- or 64-letter alphabet, order kept: the generic
    build (letter codes 7..32 or 38..63, live sets over 64 bits) makes the choices the 26-letter build makes,
    so the same status, node count and fill (the same word ids), with word and letter branching."""
    alphabet = alphabet_of(n_letters)
    moved = shifted(alphabet)
    outcomes = set()
    for grid, score_by_word in english_problems(10):
        english = compile_problem(grid, build_word_list(score_by_word, "<en>"), min_score=0)
        other = compile_problem(
            grid,
            build_word_list({w.translate(moved): s for w, s in score_by_word.items()}, "<moved>", alphabet=alphabet),
            min_score=0,
        )
        assert other.alphabet.size == n_letters
        runs = [run_search(problem, **dict(configure)) for problem in (english, other)]
        assert runs[0] == runs[1]
        code, stats, _ = runs[0]
        outcomes.add(code)
        assert stats["nodes"] > 0 or code is None
    assert {kernel.SOLVED, kernel.EXHAUSTED} <= outcomes  # both kinds of search were compared


def test_the_generic_build_searches_english_as_the_26_letter_build(monkeypatch):
    """The 26-letter build (_bitsearch_en.c) is _bitsearch.c with a constant stride: same searches."""
    problems = [
        compile_problem(grid, build_word_list(words, "<en>"), min_score=0) for grid, words in english_problems(6)
    ]
    specialised = [run_search(problem, branch=branch) for problem in problems for branch in ("word", "letter")]
    generic = kernel._bs_library(27)
    assert kernel._bs_library(26) is not generic
    monkeypatch.setattr(kernel, "_bs_library", lambda n_letters: generic)
    assert [run_search(problem, branch=branch) for problem in problems for branch in ("word", "letter")] == specialised


@pytest.mark.parametrize("n_letters", [33, 64])
def test_fills_in_letters_beyond_26_are_valid_and_proofs_sound(n_letters):
    """Random lists mostly over the letters beyond Z: every fill passes check_fill, every 'no fill' agrees with
    plain enumeration, and the fills do use letters beyond index 25."""
    from xwcp.backends import fill
    from xwcp.base.types import FillStatus
    from xwcp.engine.result import Limits, check_fill

    alphabet = alphabet_of(n_letters)
    rng = random.Random(n_letters)
    statuses, high_letters = [], set()
    for index in range(20):
        grid = shape(index)
        lengths = tuple({slot.length for slot in compile_problem(grid, words_from_pairs(["AB"])).slots})
        chars = "".join(rng.sample(alphabet.chars[26:], 2) + rng.sample(ENGLISH_LETTERS, rng.choice([0, 1])))
        words = {
            "".join(rng.choice(chars) for _ in range(length)): 50
            for length in lengths
            for _ in range(rng.randint(6, 14))
        }
        problem = compile_problem(grid, build_word_list(words, "<test>", alphabet=alphabet), min_score=0)
        fillable = brute_fillable(problem, [s.id for s in problem.slots])
        for branch in ("word", "letter"):
            result = fill(problem, "backtrack", Limits(seed=index, time_limit_s=20, extra={"branch": branch}))
            assert result.status is (FillStatus.FILLED if fillable else FillStatus.UNFILLABLE)
            if result.status is FillStatus.FILLED:
                assert check_fill(problem, result.entries) == []
                high_letters.update(ch for entry in result.entries for ch in entry if alphabet.index(ch) >= 26)
            statuses.append(result.status)
    assert FillStatus.FILLED in statuses and FillStatus.UNFILLABLE in statuses
    assert len(high_letters) >= 3, high_letters


def test_an_alphabet_over_64_letters_is_refused_by_the_kernels():
    letters = tuple(chr(0x4E00 + i) for i in range(65))
    from xwcp.model.alphabet import Alphabet

    big = Alphabet("x65", "Test 65", letters)
    problem = compile_problem(
        shape(0), build_word_list({letters[64] * 4: 50, letters[0] * 4: 50}, "<big>", alphabet=big), min_score=0
    )
    with pytest.raises(ValueError, match="1 to 64 letters, not 65"):
        bit_search(problem)
    with pytest.raises(ValueError, match="1 to 64 letters, not 65"):
        kernel.Engine(problem)
