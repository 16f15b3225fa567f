"""The backend contract: every available backend fills, proves, stops and counts the same way."""
from __future__ import annotations

import threading
from pathlib import Path

import pytest

from xwcp.backends import BACKENDS, available_backends, fill, get_backend
from xwcp.backends._common import MAX_KEPT_FILLS
from xwcp.errors import InputError
from xwcp.grid import parse_grid
from xwcp.problem import compile_problem
from xwcp.result import Limits, check_fill
from xwcp.types import FillStatus
from xwcp.wordlist import load_word_list, words_from_pairs
from xwcp.xcsp import read_xcsp

DATA = Path(__file__).parent / "data"
BACKEND_NAMES = available_backends()


@pytest.fixture(params=BACKEND_NAMES)
def backend(request):
    return request.param


@pytest.fixture(scope="module")
def default_words():
    return load_word_list()


def small_words():
    return words_from_pairs([
        "CAT", "ARE", "TEN", "CAN", "ART", "TEE", "ACE", "ERA", "ETA", "NET", "TAN", "ANT", "EAT",
        "TEA", "ATE", "RAT", "TAR", "CAR", "ARC", "NEE", "ERE", "RET", "ENE", "TEAR", "RATE",
    ])


def assert_valid(problem, result):
    assert result.status is FillStatus.FILLED, result.reason
    assert result.fills
    for entries in result.fills:
        assert check_fill(problem, entries) == []


def test_every_registered_backend_is_available_here():
    assert set(BACKEND_NAMES) == set(BACKENDS), "ortools and python-sat are core dependencies"


@pytest.mark.parametrize("grid_text", ["...\n...\n...\n", "#..\n...\n..#\n", "...\n.#.\n...\n"])
def test_fills_3x3_with_a_small_list(backend, grid_text):
    problem = compile_problem(parse_grid(grid_text), small_words(), min_score=0)
    result = fill(problem, backend, Limits(time_limit_s=30))
    if result.status is FillStatus.UNFILLABLE:
        # the small list may not fill every shape; then every backend must agree
        assert fill(problem, "backtrack", Limits(time_limit_s=30)).status is FillStatus.UNFILLABLE
    else:
        assert_valid(problem, result)


@pytest.mark.parametrize("grid_text", ["....\n....\n....\n....\n", "#....\n.....\n.....\n.....\n....#\n",
                                       ".....\n.....\n.....\n.....\n....."])
def test_fills_4x4_and_5x5_with_the_default_list(backend, grid_text, default_words):
    problem = compile_problem(parse_grid(grid_text), default_words)
    assert_valid(problem, fill(problem, backend, Limits(time_limit_s=60, seed=1)))


def test_prefilled_letters_and_entries_are_kept(backend, default_words):
    grid = parse_grid("QUIZ#\n.....\n.....\n.....\n#....\n")
    problem = compile_problem(grid, default_words)
    result = fill(problem, backend, Limits(time_limit_s=60))
    assert_valid(problem, result)
    assert result.grid(problem).rows[0] == "QUIZ#"


def test_users_own_entry_is_kept_even_if_unlisted(backend, default_words):
    grid = parse_grid("XQZVW\n.....\n.....\n.....\n.....\n")
    problem = compile_problem(grid, default_words)
    result = fill(problem, backend, Limits(time_limit_s=30))
    # no 5-letter word starts with the X, Q, Z... of each column: proven unfillable, naming a slot
    assert result.status is FillStatus.UNFILLABLE
    grid = parse_grid("ZZYQX\n#....\n#....\n#....\n#....\n")
    problem = compile_problem(grid, default_words)
    assert problem.fixed_text_by_slot  # the top row is the user's own entry
    result = fill(problem, backend, Limits(time_limit_s=30))
    if result.status is FillStatus.FILLED:
        assert_valid(problem, result)
        assert result.entries[problem.slot_by_name("1A").id] == "ZZYQX"


WOR_ZERO = "...Z\n...E\n...R\nWOR.\n"


def test_wor_zero_is_proven_unfillable(backend):
    words = words_from_pairs(["WORD", "WORE", "WORK", "ZERO", "ABCZ", "DEFE", "GHIR", "ADGW", "BEHO", "CFIR"])
    problem = compile_problem(parse_grid(WOR_ZERO), words, min_score=0)
    result = fill(problem, backend, Limits(time_limit_s=10))
    assert result.status is FillStatus.UNFILLABLE
    assert result.reason
    assert result.fills == ()


def test_search_proof_of_unfillability(backend):
    # AC-3 keeps every word here (each letter has support), but no full fill exists: the
    # two rows need different words and only one row word fits the columns.
    words = words_from_pairs(["AB", "AC", "BD", "CD", "BC"], )
    problem = compile_problem(parse_grid("..\n..\n"), words, min_score=0)
    expected = fill(problem, "backtrack", Limits(count=0)).n_fills
    result = fill(problem, backend, Limits(time_limit_s=10))
    assert (result.status is FillStatus.FILLED) == (expected > 0)


def test_tiny_time_limit_gives_limit(backend, default_words):
    problem = compile_problem(parse_grid("\n".join(["." * 15] * 15)), default_words)
    result = fill(problem, backend, Limits(time_limit_s=0.01))
    assert result.status is FillStatus.LIMIT
    assert result.fills == ()


def test_abort_gives_aborted(backend, default_words):
    problem = compile_problem(parse_grid("\n".join(["." * 15] * 15)), default_words)
    abort = threading.Event()
    abort.set()
    result = fill(problem, backend, Limits(time_limit_s=30, abort=abort))
    assert result.status is FillStatus.ABORTED


def test_abort_from_another_thread_stops_a_running_search(backend, default_words):
    problem = compile_problem(parse_grid("\n".join(["." * 15] * 15)), default_words)
    abort = threading.Event()
    timer = threading.Timer(0.3, abort.set)
    timer.start()
    try:
        result = fill(problem, backend, Limits(time_limit_s=60, abort=abort))
    finally:
        timer.cancel()
    assert result.status is FillStatus.ABORTED
    assert result.stats.wall_time_s < 20


def test_no_word_twice(backend):
    # Open 2x2 over all 9 two-letter words of A, B, C: symmetric fills (rows = columns) and
    # fills repeating a row word repeat words; the rest are valid.
    words = words_from_pairs([a + b for a in "ABC" for b in "ABC"])
    problem = compile_problem(parse_grid("..\n..\n"), words, min_score=0)
    result = fill(problem, backend, Limits(count=0, time_limit_s=30))
    assert_valid(problem, result)
    for entries in result.fills:
        assert len(set(entries)) == len(entries)
    dupes = compile_problem(parse_grid("..\n..\n"), words, min_score=0, allow_dupes=True)
    assert fill(dupes, backend, Limits(count=0, time_limit_s=30)).n_fills > result.n_fills


def test_count_n_returns_distinct_valid_fills(backend, default_words):
    problem = compile_problem(parse_grid("#...\n....\n....\n...#\n"), default_words)
    result = fill(problem, backend, Limits(count=5, time_limit_s=60))
    assert_valid(problem, result)
    assert len(result.fills) == 5 == result.n_fills
    assert len(set(result.fills)) == 5


@pytest.mark.parametrize("name,expected", [
    pytest.param("Crossword-lex-vg-4-8.xml.xz", 1, marks=pytest.mark.slow),
    pytest.param("Crossword-lex-vg-4-7.xml.xz", 125, marks=pytest.mark.slow),
    ("crossword-m1-debug-05-01.xml.xz", 48),
])
def test_counts_match_published_xcsp_counts(backend, name, expected):
    instance = read_xcsp(DATA / name)
    problem = compile_problem(parse_grid("\n".join(instance.rows)), words_from_pairs(instance.words),
                              min_score=0, allow_dupes=not instance.distinct_words)
    result = fill(problem, backend, Limits(count=0, time_limit_s=120))
    assert result.status is FillStatus.FILLED
    assert result.n_fills == expected
    for entries in result.fills[:50]:
        assert check_fill(problem, entries) == []


@pytest.mark.slow
def test_count_4749_fills_of_lex_4x6():
    instance = read_xcsp(DATA / "Crossword-lex-vg-4-6.xml.xz")
    problem = compile_problem(parse_grid("\n".join(instance.rows)), words_from_pairs(instance.words),
                              min_score=0, allow_dupes=not instance.distinct_words)
    result = fill(problem, "backtrack", Limits(count=0, time_limit_s=120))
    assert result.n_fills == 4749
    assert len(set(result.fills)) == len(result.fills)


def random_grid(rng, widths, heights, block_rate, fallback):
    """A random grid of blocks and empty cells, or `fallback` when the draw has no slot."""
    width, height = rng.randint(*widths), rng.randint(*heights)
    cells = ["#" if rng.random() < block_rate else "." for _ in range(width * height)]
    try:
        return parse_grid("\n".join("".join(cells[r * width:(r + 1) * width]) for r in range(height)))
    except InputError:
        return parse_grid(fallback)


@pytest.mark.parametrize("seed", range(25))
def test_counts_agree_across_backends_on_random_small_grids(backend, seed):
    import random

    rng = random.Random(seed)
    grid = random_grid(rng, (2, 4), (2, 3), 0.15, "...\n...\n")
    alphabet = "ABC"[: rng.randint(2, 3)]
    words = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(2, 4))) for _ in range(60)})
    problem = compile_problem(grid, words_from_pairs(words), min_score=0, allow_dupes=rng.random() < 0.3)
    expected = fill(problem, "backtrack", Limits(count=0, time_limit_s=60))
    result = fill(problem, backend, Limits(count=0, time_limit_s=60))
    assert result.n_fills == expected.n_fills
    assert result.status is (FillStatus.FILLED if expected.n_fills else FillStatus.UNFILLABLE)
    assert len(set(result.fills)) == len(result.fills)
    if expected.n_fills <= MAX_KEPT_FILLS:  # every fill kept: the very same fills
        # compare as one bool: pytest's diff of two sets of a thousand tuples takes minutes
        same = set(result.fills) == set(expected.fills)
        assert same, f"{len(set(result.fills) ^ set(expected.fills))} fills differ"
    else:  # each backend keeps its first MAX_KEPT_FILLS: check them instead of comparing
        assert len(result.fills) == MAX_KEPT_FILLS
        assert all(check_fill(problem, entries) == [] for entries in result.fills)


@pytest.mark.parametrize("seed", range(60))
def test_restarts_and_nogoods_keep_proofs_exact(seed):
    """Restarting after every failure (so nogoods are recorded and used constantly) never
    changes whether a fill exists, and every fill found is valid."""
    import random

    rng = random.Random(500 + seed)
    grid = random_grid(rng, (4, 6), (4, 5), 0.1, ".....\n.....\n.....\n.....\n")
    alphabet = "ABCDEFG"[: rng.randint(5, 7)]
    # sparse lists over a larger alphabet: about a third of these grids have no fill
    words = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(2, 6)))
                    for _ in range(rng.randint(100, 300))})
    problem = compile_problem(grid, words_from_pairs(words), min_score=0)
    exhaustive = fill(problem, "backtrack", Limits(count=0, time_limit_s=60))
    for restart_base in (1, 3):
        result = fill(problem, "backtrack", Limits(time_limit_s=60, seed=seed,
                                                    extra={"restart_base": restart_base, "noise": 1.0}))
        assert result.status is (FillStatus.FILLED if exhaustive.n_fills else FillStatus.UNFILLABLE)
        if result.entries:
            assert check_fill(problem, result.entries) == []
        RESTART_STATS.append((result.stats.restarts, result.status))


RESTART_STATS: list = []


def test_restart_test_is_not_vacuous():
    if len(RESTART_STATS) < 100:
        pytest.skip("runs after test_restarts_and_nogoods_keep_proofs_exact")
    assert sum(r for r, _ in RESTART_STATS) > 200
    statuses = [s for _, s in RESTART_STATS]
    assert statuses.count(FillStatus.UNFILLABLE) > 10 and statuses.count(FillStatus.FILLED) > 10


def brute_force_count(problem):
    """Count fills by trying every word in every slot (tiny problems only)."""
    import itertools

    options = []
    for slot in problem.slots:
        bucket = problem.words.bucket(slot.length)
        options.append([bucket.text(int(w)) for w in range(bucket.n_words) if problem.domains[slot.id][w]]
                       if slot.id not in problem.fixed_text_by_slot else [problem.fixed_text_by_slot[slot.id]])
    return sum(1 for combo in itertools.product(*options) if not check_fill(problem, combo))


@pytest.mark.parametrize("seed", range(15))
def test_backtrack_count_equals_brute_force(seed):
    import random

    rng = random.Random(100 + seed)
    grid = parse_grid(rng.choice(["..\n..\n", "...\n.#.\n", "..#\n...\n", "...\n..."]))
    words = sorted({"".join(rng.choice("AB") for _ in range(rng.randint(2, 3))) for _ in range(12)})
    problem = compile_problem(grid, words_from_pairs(words), min_score=0, allow_dupes=rng.random() < 0.3)
    assert fill(problem, "backtrack", Limits(count=0)).n_fills == brute_force_count(problem)


def test_backtrack_is_deterministic_for_a_seed(default_words):
    problem = compile_problem(parse_grid("\n".join(["....#......", "....#......", "...........",
                                                    "...#...#...", "......#....", "###.....###",
                                                    "....#......", "...#...#...", "...........",
                                                    "......#....", "......#...."])), default_words)
    first = fill(problem, "backtrack", Limits(seed=3, time_limit_s=30))
    again = fill(problem, "backtrack", Limits(seed=3, time_limit_s=30))
    assert_valid(problem, first)
    assert first.entries == again.entries
    assert first.stats.nodes == again.stats.nodes


def test_unknown_backend_lists_the_known_ones():
    with pytest.raises(InputError) as info:
        get_backend("nosuch")
    for name in BACKENDS:
        assert name in str(info.value)
