"""One checked bench run (xwcp/bench/runs.py): a backend's fill is timed and validated, an unfillable grid says so,
a missing entrant is "skipped" and a failing one an "error" row, never a crash of the bench. Runs in process here
(`isolate=False`); the forked worker is xwcp.runtime.isolation's and is tested through tests/bench/test_command.py."""

from __future__ import annotations

import dataclasses
import types

from xwcp.bench.entrants import Entrant
from xwcp.bench.inputs import Loaded
from xwcp.bench.runs import run_one
from xwcp.model import parse_grid
from xwcp.words.wordlist import words_from_pairs

# The open 3x3 has two fills from these words (CAB/ORE/WET and its transpose); in the 4x4, 7A (WOR.) and 4D (ZER.)
# have no common last letter.
WORDS = words_from_pairs(
    [
        "CAB",
        "ORE",
        "WET",
        "COW",
        "ARE",
        "BET",
        "CAT",
        "TEN",
        "ABCZ",
        "DEFE",
        "GHIR",
        "ADGW",
        "BEHO",
        "CFIR",
        "ZERD",
        "ZERO",
        "WORK",
        "WORE",
    ]
)


def _loaded(rows: str) -> Loaded:
    """The grid with the 18 words above, as the bench loads an instance."""
    return Loaded(parse_grid(rows), WORDS, n_words=18, min_score=0, allow_dupes=False, word_key="test")


def test_a_fill_is_timed_and_validated():
    row = run_one(_loaded("...\n...\n...\n"), Entrant("backtrack", "xwcp"), 0, 10.0, None, isolate=False)
    assert row["status"] == "filled" and row["valid"] is True
    assert isinstance(row["seconds"], float) and 0 <= row["seconds"] < 10
    assert row["nodes"] >= 1 and set(row) >= {"backtracks", "note", "peak_rss_mb", "start_rss_mb"}


def test_an_unfillable_grid_is_unfillable_with_no_fill_to_validate():
    row = run_one(_loaded("...Z\n...E\n...R\nWOR.\n"), Entrant("backtrack", "xwcp"), 0, 10.0, None, isolate=False)
    assert row["status"] == "unfillable" and row["valid"] is None and row["note"]


def test_a_missing_entrant_is_skipped_without_running():
    row = run_one(
        _loaded("...\n...\n...\n"), Entrant("qxw", "peer", "not installed: qxw"), 0, 10.0, None, isolate=False
    )
    assert row == {"status": "skipped", "note": "not installed: qxw"}


def test_a_failing_fill_is_an_error_row(monkeypatch):
    def fill(problem, limits):
        raise RuntimeError("the solver fell over")

    monkeypatch.setattr("xwcp.bench.entrants.get_fill_module", lambda name: types.SimpleNamespace(fill=fill))
    row = run_one(_loaded("...\n...\n...\n"), Entrant("backtrack", "xwcp"), 0, 10.0, None, isolate=False)
    assert row == {"status": "error", "note": "the solver fell over"}


def test_a_fill_that_breaks_the_rules_is_an_error_row(monkeypatch):
    from xwcp.backends import get_backend

    real = get_backend("backtrack")

    def fill(problem, limits):
        result = real.fill(problem, limits)
        return dataclasses.replace(result, fills=[("CAB",) * len(problem.slots)])  # CAB in every slot

    monkeypatch.setattr("xwcp.bench.entrants.get_fill_module", lambda name: types.SimpleNamespace(fill=fill))
    row = run_one(_loaded("...\n...\n...\n"), Entrant("backtrack", "xwcp"), 0, 10.0, None, isolate=False)
    assert row["status"] == "error" and row["valid"] is False and row["note"].startswith("invalid fill: ")
