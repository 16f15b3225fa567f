"""Issue 29: the faster minimal core and the verdict before the core (slot provenance in the compiled search:
tests/engine/test_kernel.py).

Every claim is checked against an independent oracle: a plain Python enumeration of fills
(`brute_fillable` in tests/engine/test_kernel.py, no kernel code) on small random grids and lists, built inline.
"""

from __future__ import annotations

import json
import signal

import pytest

from tests.engine.test_ac3 import SPIRAL, SPIRAL_WORDS
from tests.engine.test_kernel import INSTANCES, brute_fillable
from xwcp import compile_problem, parse_grid, words_from_pairs
from xwcp.backends import fill
from xwcp.base.types import FillStatus
from xwcp.cli.commands import main
from xwcp.search.core import find_core


def test_every_core_is_minimal_by_enumeration():
    """find_core's cores: unfillable, and every slot needed (dropping any one leaves a fillable rest)."""
    for problem in INSTANCES:
        result = fill(problem, "backtrack")
        assert result.status is FillStatus.UNFILLABLE
        for weights in (result.weight_by_slot, None):
            core = find_core(
                problem,
                time_limit_s=60,
                is_proven=True,
                weight_by_slot=weights,
                seed_slot_ids=[] if result.slot_id is None else [result.slot_id],
            )
            assert core is not None and core.is_minimal and not core.is_stopped
            assert not brute_fillable(problem, core.slot_ids)
            for dropped in core.slot_ids:
                assert brute_fillable(problem, [s for s in core.slot_ids if s != dropped])


def test_a_search_proof_carries_its_dead_end_weights():
    with_weights = 0
    for problem in INSTANCES:
        result = fill(problem, "backtrack")
        assert result.status is FillStatus.UNFILLABLE
        if result.weight_by_slot:
            with_weights += 1
            assert result.slot_id == max(result.weight_by_slot, key=result.weight_by_slot.get)  # the hardest slot
            raced = fill(problem, "auto")  # auto branches on letters on these open grids: its own weights
            assert raced.weight_by_slot and raced.slot_id == max(raced.weight_by_slot, key=raced.weight_by_slot.get)
    assert with_weights >= 10  # proofs by search, not by AC-3 at the root


def test_stopping_the_core_search_keeps_an_unfillable_set():
    import threading

    problem = compile_problem(parse_grid(SPIRAL), words_from_pairs(SPIRAL_WORDS), min_score=0)
    stop = threading.Event()
    stop.set()
    core = find_core(problem, is_proven=True, abort=stop, seed_slot_ids=[problem.slot_by_name("4D").id])
    assert core is not None and core.is_stopped and not core.is_minimal
    assert not brute_fillable(problem, core.slot_ids)


# ----- the verdict first -------------------------------------------------------------------------


@pytest.fixture
def search_proven(tmp_path):
    """A grid only search proves unfillable (AC-3 sees nothing wrong): three crossing-free slots, two words."""
    grid = tmp_path / "g.txt"
    grid.write_text("...\n###\n...\n###\n...\n")
    words = tmp_path / "w.txt"
    words.write_text("CAT\nDOG\n")
    return [str(grid), "--words", str(words), "--min-score", "0"]


@pytest.mark.parametrize("command", ["fill", "check"])
def test_the_verdict_is_printed_before_the_core(command, search_proven, capsys, monkeypatch):
    seen_at_core: list[str] = []
    import xwcp.services.run as session

    real = session.explain_verdict

    def spy(*args, **kwargs):
        seen_at_core.append(capsys.readouterr().out)  # what was printed when the core search began
        return real(*args, **kwargs)

    monkeypatch.setattr(session, "explain_verdict", spy)
    assert main([command, *search_proven]) == 1
    assert seen_at_core and seen_at_core[0].startswith("Unfillable:") and "Why:" not in seen_at_core[0]
    rest = capsys.readouterr().out
    assert "Why: these 3 slots cannot be filled together" in rest


@pytest.mark.parametrize("command", ["fill", "check"])
def test_json_has_the_verdict_and_core_timings(command, search_proven, capsys):
    assert main([command, *search_proven, "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["core"]["minimal"] is True and data["core"]["stopped"] is False
    assert data["seconds"] >= 0 and data["core"]["seconds"] >= 0
    assert data["total_seconds"] >= data["seconds"]


@pytest.mark.parametrize("command", ["fill", "check"])
def test_ctrl_c_during_the_core_keeps_the_verdict(command, search_proven, capsys, monkeypatch):
    """A Ctrl-C once the core search runs stops it: exit 1 (the verdict stands), the core marked stopped."""
    import xwcp.services.run as session

    class CtrlC(session.CoreProgressLine):
        def __call__(self, p) -> None:
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(session, "CoreProgressLine", CtrlC)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    # the search-proven grid with weights needs no second proof: drop them so the core runs several searches
    real_fill = fill

    def without_weights(problem, backend="auto", limits=None):
        from dataclasses import replace

        result = real_fill(problem, backend, limits)
        return replace(result, weight_by_slot=None)

    monkeypatch.setattr("xwcp.backends.fill", without_weights)
    assert main([command, *search_proven, "--format", "json"]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert (data["status"] if command == "fill" else data["verdict"]) == "unfillable"
    assert data["core"]["stopped"] is True and data["core"]["minimal"] is False
    assert "(perhaps not minimal: stopped before the search finished)" in data["core"]["message"]
    assert "though any" not in data["core"]["message"]  # no claim that every slot is needed
    assert "core search stopped (SIGINT); the verdict stands" in captured.err
