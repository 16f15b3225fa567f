"""The textbook bench entrants (cpsat-table, sat-plain) keep the backend contract on tiny grids.

Fills are checked with `check_fill` and against the independent brute force of
test_backends.py; unfillable grids must be proven, a stop must be LIMIT or ABORTED.
"""

from __future__ import annotations

import csv
import threading

import pytest

from tests.backends.test_backends import GRID_5X5, SMALL_PAIRS, WOR_ZERO, WORDS_5X5, brute_force_fills, small_words
from tests.helpers import run
from xwcp.base.types import FillStatus
from xwcp.bench.entrants import MODEL_ENTRANTS, get_fill_module
from xwcp.compile.problem import compile_problem
from xwcp.engine.result import Limits, check_fill, fill_grid
from xwcp.model import parse_grid
from xwcp.words.wordlist import words_from_pairs


@pytest.fixture(params=sorted(MODEL_ENTRANTS))
def model(request):
    return get_fill_module(request.param)


def assert_valid(problem, result):
    assert result.status is FillStatus.FILLED, result.reason
    assert result.fills and result.n_fills >= len(result.fills)
    for entries in result.fills:
        assert check_fill(problem, entries) == []


@pytest.mark.parametrize("grid_text", ["...\n...\n...\n", "#..\n...\n..#\n", "...\n.#.\n...\n"])
def test_3x3_matches_the_brute_force(model, grid_text):
    fills = brute_force_fills(grid_text.split(), [w for w, _ in SMALL_PAIRS])
    problem = compile_problem(parse_grid(grid_text), small_words(), min_score=0)
    result = model.fill(problem, Limits(time_limit_s=30))
    if fills:
        assert_valid(problem, result)
        assert tuple(result.grid(problem).rows) in fills
    else:
        assert result.status is FillStatus.UNFILLABLE and result.reason and result.fills == ()


def test_every_fill_of_a_5x5_with_a_prefilled_letter(model):
    expected = brute_force_fills(GRID_5X5, [w for w, _ in WORDS_5X5])
    problem = compile_problem(parse_grid("\n".join(GRID_5X5)), words_from_pairs(WORDS_5X5), min_score=0)
    every = model.fill(problem, Limits(count=0, time_limit_s=60))
    assert_valid(problem, every)
    assert every.n_fills == len(expected)
    assert {tuple(fill_grid(problem, entries).rows) for entries in every.fills} == expected


def test_unfillable_grids_are_proven(model):
    words = words_from_pairs(["WORD", "WORE", "WORK", "ZERO", "ABCZ", "DEFE", "GHIR", "ADGW", "BEHO", "CFIR"])
    problem = compile_problem(parse_grid(WOR_ZERO), words, min_score=0)
    result = model.fill(problem, Limits(time_limit_s=10))
    assert result.status is FillStatus.UNFILLABLE and result.fills == ()
    # only the no-word-twice rule stands in the way: AB/BA across forces AB/BA down
    problem = compile_problem(parse_grid("..\n..\n"), words_from_pairs(["AB", "BA"]), min_score=0)
    assert model.fill(problem, Limits(time_limit_s=10)).status is FillStatus.UNFILLABLE
    dupes = compile_problem(parse_grid("..\n..\n"), words_from_pairs(["AB", "BA"]), min_score=0, allow_dupes=True)
    assert_valid(dupes, model.fill(dupes, Limits(time_limit_s=10)))


def test_users_complete_entry_is_kept(model):
    words = words_from_pairs(["CAB", "ORE", "WET", "COW", "ARE", "BET"])
    problem = compile_problem(parse_grid("CAB\n...\n...\n"), words, min_score=0)
    result = model.fill(problem, Limits(time_limit_s=10))
    assert_valid(problem, result)
    assert tuple(result.grid(problem).rows) == ("CAB", "ORE", "WET")


def test_stops_give_limit_or_aborted(model):
    from xwcp.words.wordlist import load_word_list

    problem = compile_problem(parse_grid("\n".join(["." * 9] * 9)), load_word_list())
    result = model.fill(problem, Limits(time_limit_s=0.2))
    assert result.status is FillStatus.LIMIT and result.fills == ()
    abort = threading.Event()
    abort.set()
    assert model.fill(problem, Limits(time_limit_s=30, abort=abort)).status is FillStatus.ABORTED


def test_bench_runs_the_models_only_when_named(tmp_path, capsys):
    words = tmp_path / "words.txt"
    words.write_text("".join(f"{w};50\n" for w, _ in SMALL_PAIRS), encoding="utf-8")
    grid = tmp_path / "g.txt"
    grid.write_text("...\n...\n...\n", encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run(
        [
            "bench",
            grid,
            "--words",
            words,
            "--min-score",
            "0",
            "--peers",
            "none",
            "--time-limit",
            "10",
            "--backends",
            "backtrack,cpsat-table,sat-plain",
            "--out",
            out,
        ],
        capsys,
    )
    assert code == 0, err
    with open(out / "rows.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {(r["backend"], r["status"], r["valid"]) for r in rows} == {
        ("backtrack", "filled", "True"),
        ("cpsat-table", "filled", "True"),
        ("sat-plain", "filled", "True"),
    }
    code, _, err = run(["bench", grid, "--cli", "sat-plain", "--peers", "none"], capsys)
    assert code == 2 and "bench-only" in err
