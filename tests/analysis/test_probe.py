"""Singleton consistency of a slot's words (xwcp/analysis/probe.py, BitSearch.probe): checked against entering
each word by hand (the AC-3 engine with the slot cut to that word), and suggest_report's use of it."""

from __future__ import annotations

import numpy as np
import pytest

from xwcp.analysis.probe import probe_engine, probe_words
from xwcp.analysis.questions import ranked_ids, suggest_report
from xwcp.engine.ac3 import propagate_engine
from xwcp.engine.kernel import PROBE_NOT_LIVE, PROBE_SURVIVES
from xwcp.render.questions_json import suggest_json
from xwcp.services.load import load_problem

# A themed 15x15 as bench/suggest_labels.py makes them: a pattern from the Design tab around three published
# 15-letter theme entries (rows 3, 8, 13) and one down entry typed; the rest open.
THEMED = """\
##....C..#.....
##....O..#.....
PROGNOSTICATION
......M.#......
.....#O.....###
...#..S#...#...
###...#...#....
MISTERPRESIDENT
....#.I.#...###
...#..N#...#...
###...G..#.....
......#........
SPEAKOFTHEDEVIL
.....#E......##
.....#W......##
"""


@pytest.fixture(scope="module")
def themed(tmp_path_factory):
    path = tmp_path_factory.mktemp("probe") / "themed.txt"
    path.write_text(THEMED)
    return load_problem(path)


def _survives_by_hand(engine, slot_id, ids, word_id):
    """Enter `word_id` in the AC-3 engine (every other word of the slot removed), propagate, undo."""
    mark = engine.trail_len
    ok = engine.remove_words(slot_id, ids[ids != word_id])
    engine.undo(mark)
    return ok


@pytest.mark.parametrize("name", ["1A", "1D", "13A", "19A", "43D", "50D"])
def test_probe_agrees_with_entering_each_word(themed, name):
    prop, engine = propagate_engine(themed)
    slot = themed.slot_by_name(name)
    ids = np.flatnonzero(prop.domains[slot.id]).astype(np.int32)
    probe = probe_engine(themed, prop)
    out = probe.probe(slot.id, ids)
    assert len(out) == len(ids)
    by_hand = [_survives_by_hand(engine, slot.id, ids, w) for w in ids]
    assert list(out == PROBE_SURVIVES) == by_hand
    assert 0 < sum(by_hand) < len(ids)  # the grid is chosen so some words fail and some survive: both sides tested
    # the root is unchanged: probing again answers the same
    assert list(probe.probe(slot.id, ids)) == list(out)


def test_probe_names_the_slot_a_word_empties_and_refuses_dead_words(themed):
    prop, engine = propagate_engine(themed)
    slot = themed.slot_by_name("1A")
    ids = np.flatnonzero(prop.domains[slot.id]).astype(np.int32)
    probe = probe_engine(themed, prop)
    out = probe.probe(slot.id, ids)
    for word_id, outcome in zip(ids, out):
        if outcome >= 0:  # entered, the word leaves the named slot no word
            mark = engine.trail_len
            assert not engine.remove_words(slot.id, ids[ids != word_id])
            engine.undo(mark)
            assert probe.slot_ids[outcome] in {s.id for s in themed.slots}
    dead = np.flatnonzero(~prop.domains[slot.id])[:3].astype(np.int32)
    assert list(probe.probe(slot.id, dead)) == [PROBE_NOT_LIVE] * 3


def test_probing_a_batch_answers_as_probing_each_word_alone(themed):
    """bs_probe enters a letter many of the words hold once and probes those words from there: the answers (the
    slot a word empties included, as a slot it does empty) equal one call per word, on every open slot, and a
    batch cut short by the time limit answers a prefix of the words, each as the whole batch does."""
    prop, engine = propagate_engine(themed)
    probe = probe_engine(themed, prop)
    grouped_failures = 0
    for slot in themed.slots:
        ids = np.flatnonzero(prop.domains[slot.id]).astype(np.int32)
        if slot.id in themed.fixed_text_by_slot or len(ids) < 2:
            continue
        batch = probe.probe(slot.id, ids)
        # every word of a slot of up to 64, an even spread of 64 of a bigger one (48,000 words in all)
        sample = np.arange(0, len(ids), max(1, len(ids) // 64))
        alone = np.array([probe.probe(slot.id, ids[i : i + 1])[0] for i in sample])
        assert list(batch[sample] == PROBE_SURVIVES) == list(alone == PROBE_SURVIVES), slot.name
        for word_id in ids[sample][batch[sample] != alone][:5]:  # another emptied slot than alone: emptied too
            mark = engine.trail_len
            assert not engine.remove_words(slot.id, ids[ids != word_id])
            engine.undo(mark)
        grouped_failures += int(((batch[sample] >= 0) & (batch[sample] != alone)).sum())
        cut = probe.probe(slot.id, ids, time_limit_s=1e-9)  # checked every 16 words probed
        assert 0 < len(cut) < len(ids) or len(ids) <= 16, slot.name
        assert list(cut) == list(batch[: len(cut)])
    assert grouped_failures >= 0


def test_probe_words_stops_at_k_survivors_unless_counting(themed):
    prop, _ = propagate_engine(themed)
    slot = themed.slot_by_name("19A")
    ids, _, _ = ranked_ids(themed, prop, slot.id)
    probe = probe_engine(themed, prop)
    full = probe_words(probe, slot.id, ids, 5)
    assert full.complete and full.checked == len(ids) and len(full.shown) == 5
    quick = probe_words(probe, slot.id, ids, 5, count=False)
    assert quick.shown == full.shown and quick.checked < len(ids) and not quick.complete
    capped = probe_words(probe, slot.id, ids, 5, max_words=100)
    assert capped.checked == 100 and not capped.complete
    assert capped.survived == int((probe.probe(slot.id, ids[:100]) == PROBE_SURVIVES).sum())
    # the dropped words are ranked above the last shown one, each naming the slot it empties
    last = full.shown[-1]
    assert all(i < last and i not in full.shown for i, _ in full.dropped)


@pytest.mark.parametrize("name", ["1A", "1D", "8A", "21A"])
def test_suggest_never_lists_a_word_that_empties_a_slot(themed, name):
    prop, engine = propagate_engine(themed)
    slot = themed.slot_by_name(name)
    ids = np.flatnonzero(prop.domains[slot.id]).astype(np.int32)
    data = suggest_json(suggest_report(themed, name, k=40, prop=prop, probe_max_words=None))
    words = themed.words
    survives_by_id = {int(w): _survives_by_hand(engine, slot.id, ids, w) for w in ids}
    assert data["words"], "every slot of this grid has words that survive"
    for w in data["words"]:
        assert survives_by_id.get(words.word_id(w["word"]), False)  # a word left out of `ids` does not survive
    for d in data["dropped"]:
        assert not survives_by_id.get(words.word_id(d["word"]), False)
    c = data["counts"]
    assert c["complete"] and c["arc_consistent"] == len(ids) <= c["pattern"]
    assert c["survive"] == sum(survives_by_id.values())
    assert len(data["words"]) == min(40, c["survive"])


@pytest.mark.parametrize("k", [5, 40])
def test_ranking_the_first_words_only_changes_no_list(themed, monkeypatch, k):
    """Without `count`, `suggest_report` ranks only the first words first (and the whole slot when too few of them
    survive): every slot's list, dropped words and counts equal those from ranking the whole slot at once."""
    import xwcp.analysis.questions as questions

    prop, _ = propagate_engine(themed)
    fell_back = 0
    for slot in themed.slots:
        if slot.id in themed.fixed_text_by_slot:
            continue
        monkeypatch.setattr(questions, "RANK_FIRST_FACTOR", 2)
        got = suggest_report(themed, slot.name, k=k, prop=prop, count=False, probe_max_words=None)
        monkeypatch.setattr(questions, "RANK_FIRST_FACTOR", 10**6)  # never fewer than the whole slot
        whole = suggest_report(themed, slot.name, k=k, prop=prop, count=False, probe_max_words=None)
        assert got == whole, slot.name
        fell_back += got.counts.checked > 2 * k + questions.MARGIN_RANKED
    assert fell_back, "some slot of this grid needs more than the first words (the whole ranking path)"
