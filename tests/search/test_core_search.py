"""Issue 29: slot provenance in the compiled search, the faster minimal core, and the verdict before the core.

Every claim is checked against an independent oracle: a plain Python enumeration of fills
(`brute_fillable`, no kernel code) on small random grids and lists, built inline.
"""
from __future__ import annotations

import json
import random
import signal

import pytest

from tests.engine.test_ac3 import SPIRAL, SPIRAL_WORDS
from xwcp import compile_problem, parse_grid, words_from_pairs
from xwcp.engine import kernel
from xwcp.backends import fill
from xwcp.cli.commands import main
from xwcp.search.core import find_core, sub_problem
from xwcp.engine.plain_kernel import bit_search
from xwcp.base.types import FillStatus

SHAPES = [
    "....\n....\n....\n....",
    ".....\n.....\n..#..\n.....\n.....",
    "#....\n.....\n.....\n.....\n....#",
    "...#\n....\n....\n#...",
    "....#\n.....\n.....\n#....",
]
"""Small grids whose slots all cross (every white cell checked), so dead ends travel."""


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
    order = sorted(range(len(sub.slots)), key=lambda s: len(words[s]))
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
    alphabet = "ABCDE"[:rng.choice([3, 4, 5])]
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
    engine.configure(seed=configure.pop("seed", 0), restart_base=configure.pop("restart_base", 100),
                     noise=0.2, score_weight=0.05, **configure)
    while True:
        code = engine.search(1.0)
        if code != kernel.RUNNING:
            return code, engine.used_slot_ids(), engine


def unfillable_instances(n: int, seed: int = 7):
    rng = random.Random(seed)
    found = []
    while len(found) < n:
        problem = random_problem(rng, rng.choice(SHAPES))
        if not brute_fillable(problem, [s.id for s in problem.slots]):
            found.append(problem)
    return found


INSTANCES = unfillable_instances(40)


@pytest.mark.parametrize("configure", [
    {}, {"restart_base": 1}, {"restart_base": 1, "branch": "letter"}, {"restart_base": 2, "learn": 1},
    {"restart_base": 1, "learn": 2, "seed": 3}, {"restart_base": 0},
], ids=["default", "restarts", "letters", "learn1", "learn2", "no-restarts"])
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


def test_every_core_is_minimal_by_enumeration():
    """find_core's cores: unfillable, and every slot needed (dropping any one leaves a fillable rest)."""
    for problem in INSTANCES:
        result = fill(problem, "backtrack")
        assert result.status is FillStatus.UNFILLABLE
        for weights in (result.weight_by_slot, None):
            core = find_core(problem, time_limit_s=60, is_proven=True, weight_by_slot=weights,
                             seed_slot_ids=[] if result.slot_id is None else [result.slot_id])
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
    import xwcp.services.session as session

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
    import xwcp.services.session as session

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
