"""Batch verification (xwcp/analysis/verify.py): the same labels as verifying word by word, one total budget."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from tests.helpers import child_pids, child_processes
from xwcp.analysis import questions as analysis, verify
from xwcp.backends import fill
from xwcp.backends.core_oracle import sub_problem
from xwcp.base.types import FillStatus
from xwcp.compile.problem import compile_problem
from xwcp.engine.ac3 import propagate
from xwcp.engine.result import Limits, check_fill
from xwcp.model import parse_grid, read_grid
from xwcp.words.wordlist import load_word_list, words_from_pairs

ROOT = Path(__file__).resolve().parents[2]


def one_by_one(problem, slot_id, word):
    """The reference label: the word entered in the grid, then an exhaustive fill (no limit)."""
    result = fill(analysis.with_word(problem, slot_id, word), "backtrack", Limits())
    return {FillStatus.FILLED: "viable", FillStatus.UNFILLABLE: "dead-end"}[result.status]


def random_case(seed):
    rng = random.Random(900 + seed)
    width, height = rng.randint(3, 5), rng.randint(3, 4)
    cells = ["#" if rng.random() < 0.1 else "." for _ in range(width * height)]
    text = "\n".join("".join(cells[r * width : (r + 1) * width]) for r in range(height))
    try:
        grid = parse_grid(text)
    except Exception:
        grid = parse_grid("...\n...\n...\n")
    alphabet = "ABCDE"[: rng.randint(3, 5)]
    words = sorted(
        {"".join(rng.choice(alphabet) for _ in range(rng.randint(2, 5))) for _ in range(rng.randint(60, 200))}
    )
    return compile_problem(grid, words_from_pairs(words), min_score=0, allow_dupes=rng.random() < 0.2)


def verify_random_case(seed, processes=None):
    """Verify the top 12 words of the widest slot of random_case(seed) in at most `processes` processes:
    (problem, slot, words, verdicts). No process it forked is left behind, not even a zombie."""
    problem = random_case(seed)
    prop = propagate(problem)
    if not prop.is_consistent:
        pytest.skip("AC-3 already refutes this grid: no candidates to verify")
    slot = max(problem.slots, key=lambda s: prop.size(s.id))
    words = [w.word for w in analysis.rank_words(problem, prop, slot.id, 12)]
    before = child_pids()  # a fork server or a cluster an earlier test started: not ours
    verdicts = verify.verify_words(problem, slot.id, words, backend="backtrack", seed=seed, max_processes=processes)
    assert child_processes(before) == []
    return problem, slot, words, verdicts


def assert_agree_with_one_by_one(problem, slot, verdicts):
    """Each label equals one-by-one verification's; a viable word comes with its checked fill, a dead end with none."""
    for v in verdicts:
        assert v.verdict.value == one_by_one(problem, slot.id, v.word), v.word
        if v.verdict is verify.Viability.VIABLE:  # the fill shown proves it: valid, with the word in the slot
            assert check_fill(problem, v.entries) == [] and v.entries[slot.id] == v.word
        else:
            assert v.entries is None and v.how in (verify.How.AC3, verify.How.PROOF)
            # the slots its proof used (kept with the label, xwcp/services/analysis_cache.py): alone, with the word in
            # its slot, they have no fill; only a grid AC-3 refutes before any search names none
            if v.proof_slot_ids is None:
                assert problem.conflicts, v.word
            else:
                only = sub_problem(analysis.with_word(problem, slot.id, v.word), v.proof_slot_ids)
                assert fill(only, "backtrack", Limits()).status is FillStatus.UNFILLABLE, (v.word, v.proof_slot_ids)


@pytest.mark.parametrize("seed", range(30))
def test_batch_labels_agree_with_one_by_one_on_small_grids(seed):
    problem, slot, words, verdicts = verify_random_case(seed)
    assert [v.word for v in verdicts] == words
    assert_agree_with_one_by_one(problem, slot, verdicts)


@pytest.mark.parametrize("workers", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", range(0, 30, 3))
def test_word_by_word_labels_agree_with_one_by_one(seed, workers, monkeypatch):
    """The word-by-word phase alone (no joint search), in one process or several sharing a board (on two
    cores, three and four processes oversubscribe: the labels must not change)."""
    monkeypatch.setattr(verify, "JOINT_MAX_S", 0.0)
    monkeypatch.setattr(verify, "ENUMERATE", False)
    problem, slot, _words, verdicts = verify_random_case(seed, workers)
    assert_agree_with_one_by_one(problem, slot, verdicts)


@pytest.mark.parametrize("seed", range(30))
def test_the_enumeration_alone_labels_every_word_as_one_by_one_does(seed):
    """One search over the slot's words, going on after each fill, settles every word (none skipped) with the
    label a search per word gives; each viable word's fill is checked and each dead end's proof replayed."""
    problem, slot, words, _verdicts = verify_random_case(seed)
    verify._recent_by_layout.clear()
    run = verify._Run(problem, slot.id, seed, time.perf_counter(), None, None, None)
    ids = [problem.words.word_id(w) for w in words]
    run.verdict_by_id = {w: verify.WordVerdict(text) for w, text in zip(ids, words)}
    guide, engine = verify._enumerate(run, ids, None)
    assert engine is None  # finished: nothing left to search
    verdicts = [run.verdict_by_id[w] for w in ids]
    assert all(v.verdict is not verify.Viability.UNKNOWN for v in verdicts)
    assert_agree_with_one_by_one(problem, slot, verdicts)
    viable = [v for v in verdicts if v.verdict is verify.Viability.VIABLE]
    assert all(v.how is verify.How.SEARCH for v in viable)  # each from a fill of this one search
    if viable:
        assert guide is not None and problem.words.bucket(slot.length).text(guide[slot.id]) in {v.word for v in viable}


def test_the_enumeration_goes_on_after_its_fills_and_proves_the_rest():
    """The cases above hold several viable words and dead ends in one enumeration: not a first-fill search."""
    several = 0
    for seed in range(30):
        problem = random_case(seed)
        prop = propagate(problem)
        if not prop.is_consistent:
            continue
        slot = max(problem.slots, key=lambda s: prop.size(s.id))
        words = [w.word for w in analysis.rank_words(problem, prop, slot.id, 12)]
        run = verify._Run(problem, slot.id, seed, time.perf_counter(), None, None, None)
        ids = [problem.words.word_id(w) for w in words]
        run.verdict_by_id = {w: verify.WordVerdict(text) for w, text in zip(ids, words)}
        verify._enumerate(run, ids, None)
        labels = [v.verdict for v in run.verdict_by_id.values()]
        several += labels.count(verify.Viability.VIABLE) >= 3 and verify.Viability.DEAD_END in labels
    assert several >= 5


@pytest.mark.parametrize(
    ("workers", "child_enumerates"), [(1, False), (2, False), (2, True), (3, False), (4, False), (4, True)]
)
@pytest.mark.parametrize("seed", range(0, 30, 3))
def test_enumeration_and_word_by_word_together_agree_with_one_by_one(seed, workers, child_enumerates, monkeypatch):
    """verify_words as it runs: the enumeration (and on several cores the word-by-word children beside it, or
    more enumerations)."""
    monkeypatch.setattr(verify, "ENUMERATE", True)
    monkeypatch.setattr(verify, "CHILD_ENUMERATES", child_enumerates)
    monkeypatch.setattr(verify, "CHILD_DELAY_S", 0.0)
    verify._recent_by_layout.clear()
    problem, slot, _words, verdicts = verify_random_case(seed, workers)
    assert_agree_with_one_by_one(problem, slot, verdicts)


@pytest.mark.parametrize("n_processes", [2, 4])
def test_the_board_carries_labels_and_fills_between_processes(n_processes):
    """What a child posts (label, how, fill), in its own row, is what the parent adopts."""
    listed = ["AB", "CD", "AC", "BD", "AX", "XQ"]
    problem = compile_problem(parse_grid("..\n..\n"), words_from_pairs(listed), min_score=0)
    ids = [problem.words.word_id(w) for w in ("AB", "AC", "AX")]
    poster = verify._Run(problem, 0, 0, time.perf_counter(), None, None, None)
    poster.verdict_by_id = {w: verify.WordVerdict(t) for w, t in zip(ids, ("AB", "AC", "AX"))}
    poster.rank = n_processes - 1
    board = verify._Board(ids, len(problem.slots), n_processes)
    poster.settle(ids[0], verify.Viability.VIABLE, verify.How.SEARCH, ("AB", "CD", "AC", "BD"))
    poster.settle(ids[2], verify.Viability.DEAD_END, verify.How.PROOF, proof_slot_ids=[0, 2])
    for w in ids:
        board.publish(poster, w)
    reader = verify._Run(problem, 0, 0, time.perf_counter(), None, None, None)
    reader.verdict_by_id = {w: verify.WordVerdict(t) for w, t in zip(ids, ("AB", "AC", "AX"))}
    board.adopt(reader)
    got = [reader.verdict_by_id[w] for w in ids]
    assert [v.verdict.value for v in got] == ["viable", "unknown", "dead-end"]
    assert (
        got[0].entries == ("AB", "CD", "AC", "BD")
        and got[0].how is verify.How.SEARCH
        and got[2].how is verify.How.PROOF
    )
    assert got[2].proof_slot_ids == (0, 2) and got[0].proof_slot_ids is None
    assert board.is_settled(ids[0]) and not board.is_settled(ids[1])
    assert board.status[0].tolist() == [0, 0, 0]  # the parent's row untouched: no two writers share memory


def test_each_process_takes_its_own_share_of_the_words_first():
    ids = list(range(7))
    assert verify._shares(ids, 1) == [ids]
    assert verify._shares(ids, 2) == [[0, 2, 4, 6, 1, 3, 5], [1, 3, 5, 0, 2, 4, 6]]
    shares = verify._shares(ids, 3)
    assert [share[:3] for share in shares] == [[0, 3, 6], [1, 4, 0], [2, 5, 0]]
    assert all(sorted(share) == ids for share in shares)  # then every other word: none is dropped


def test_fills_found_for_one_slot_label_the_words_they_use_in_another():
    listed = ["AB", "CD", "AC", "BD", "AX", "XQ"]
    problem = compile_problem(parse_grid("..\n..\n"), words_from_pairs(listed), min_score=0)
    verify._recent_by_layout.clear()
    first = verify.verify_words(problem, 0, ["AB", "AC"], backend="backtrack")
    fills = [v.entries for v in first]
    assert all(check_fill(problem, f) == [] for f in fills)
    down = problem.slot_by_name("1D").id
    used = fills[0][down]  # the word the fill for AB put in 1D
    again = verify.verify_words(problem, down, [used], backend="backtrack")
    assert again[0].verdict is verify.Viability.VIABLE and again[0].how is verify.How.RECENT
    assert again[0].entries in fills and check_fill(problem, again[0].entries) == []


def test_a_recent_fill_that_no_longer_fits_the_grid_is_not_used():
    listed = ["AB", "CD", "AC", "BD", "AX", "XQ"]
    problem = compile_problem(parse_grid("..\n..\n"), words_from_pairs(listed), min_score=0)
    verify._recent_by_layout.clear()
    [ab] = verify.verify_words(problem, 0, ["AB"], backend="backtrack")  # AB/CD across, AC/BD down
    typed = compile_problem(parse_grid("..\n.Q\n"), words_from_pairs(listed), min_score=0)
    [v] = verify.verify_words(typed, 0, ["AB"], backend="backtrack")
    assert (
        v.how is not verify.How.RECENT and v.verdict is verify.Viability.DEAD_END
    )  # no 2-letter word ends in Q but XQ
    assert check_fill(typed, ab.entries) != []


def test_the_agreement_test_sees_both_labels():
    """Not vacuous: across the random cases above both viable and dead-end words occur."""
    labels = []
    for seed in range(30):
        problem = random_case(seed)
        prop = propagate(problem)
        if not prop.is_consistent:
            continue
        slot = max(problem.slots, key=lambda s: prop.size(s.id))
        words = [w.word for w in analysis.rank_words(problem, prop, slot.id, 12)]
        labels += [v.verdict for v in verify.verify_words(problem, slot.id, words, backend="backtrack")]
    assert labels.count(verify.Viability.VIABLE) > 20 and labels.count(verify.Viability.DEAD_END) > 20


def test_a_joint_proof_labels_every_word_dead_end():
    # 2x2 over AB CD AC BD AX XQ (see test_analysis): AX is a dead end; with AB and AC settled,
    # the batch proves it by exhausting the search restricted to the words left.
    listed = ["AB", "CD", "AC", "BD", "AX", "XQ"]
    problem = compile_problem(parse_grid("..\n..\n"), words_from_pairs(listed), min_score=0)
    verdicts = verify.verify_words(problem, 0, ["AX", "AB", "AC"], backend="auto")
    assert {v.word: v.verdict.value for v in verdicts} == {"AX": "dead-end", "AB": "viable", "AC": "viable"}
    verdicts = verify.verify_words(problem, 0, ["AX"], backend="backtrack")
    assert verdicts[0].verdict is verify.Viability.DEAD_END and verdicts[0].how in (verify.How.AC3, verify.How.PROOF)


def test_other_backends_verify_word_by_word_with_the_same_labels():
    listed = ["AB", "CD", "AC", "BD", "AX", "XQ"]
    problem = compile_problem(parse_grid("..\n..\n"), words_from_pairs(listed), min_score=0)
    for backend in ("cpsat", "sat"):
        verdicts = verify.verify_words(problem, 0, ["AX", "AB", "AC"], backend=backend, time_limit_s=30)
        assert {v.word: v.verdict.value for v in verdicts} == {"AX": "dead-end", "AB": "viable", "AC": "viable"}


@pytest.mark.timing
def test_time_limit_is_the_total_for_all_words():
    """Issue 13 item 13: `suggest --time-limit` bounds the whole verification, not each word.

    The stock themeless' 1A words each take about 1-5 s to settle, so four words verified one
    at a time with 1 s each took about 4 s; the total must now stay near 1 s."""
    problem = compile_problem(read_grid(ROOT / "models" / "15x15-themeless-01.txt"), load_word_list(), min_score=50)
    slot = problem.slot_by_name("1A")
    words = [w.word for w in analysis.rank_words(problem, propagate(problem), slot.id, 4)]
    progress = []
    start = time.perf_counter()
    verdicts = verify.verify_words(problem, slot.id, words, time_limit_s=1.0, progress=progress.append)
    assert time.perf_counter() - start < 1.75
    assert len(verdicts) == 4 and progress and progress[-1].total == 4
    for v in verdicts:
        if v.entries is not None:
            assert check_fill(problem, v.entries) == [] and v.entries[slot.id] == v.word


@pytest.mark.timing
def test_suggest_cli_budget_is_total(tmp_path, capsys):
    from xwcp.cli.commands import main

    grid = ROOT / "models" / "15x15-themeless-01.txt"
    start = time.perf_counter()
    assert (
        main(["suggest", str(grid), "--slot", "1A", "-k", "4", "--verify", "--time-limit", "1", "--format", "json"])
        == 0
    )
    assert time.perf_counter() - start < 2.5  # was 4 x 1 s and more
    out = capsys.readouterr().out
    assert out.count('"verdict"') == 4


@pytest.mark.parametrize("enumerate_words", [True, False])
@pytest.mark.parametrize("processes", [1, 2, 3, 4])
def test_labelling_runs_in_as_many_processes_as_allowed_and_leaves_none(processes, enumerate_words, monkeypatch):
    """With the cap at n (oversubscribed past two on this machine), n processes label the words: the
    labels are the one-by-one labels, every fill is checked, and no child is left after the call."""
    monkeypatch.setattr(verify, "ENUMERATE", enumerate_words)
    monkeypatch.setattr(verify, "CHILD_DELAY_S", 0.0)
    monkeypatch.setattr(verify, "JOINT_MAX_S", 0.0)
    verify._recent_by_layout.clear()
    problem = compile_problem(parse_grid("#....\n.....\n.....\n.....\n....#\n"), load_word_list())
    slot = problem.slot_by_name("1A")
    words = [w.word for w in analysis.rank_words(problem, propagate(problem), slot.id, 12)]
    work = verify.SearchWork()
    children_seen = []
    before = child_pids()  # a fork server or a cluster an earlier test started: not ours
    verdicts = verify.verify_words(
        problem,
        slot.id,
        words,
        seed=1,
        max_processes=processes,
        work=work,
        progress=lambda p: children_seen.append(len(child_processes(before))),
    )
    assert child_processes(before) == []
    assert work.processes == processes
    # never more children than the cap allows, and none with a cap of one (a child that finished early may be
    # reaped by the next one's start, so the count seen can be lower; `work.processes` counts the starts)
    assert children_seen and max(children_seen) <= processes - 1
    assert_agree_with_one_by_one(problem, slot, verdicts)
