"""The cache of compiled grids (xwcp/services/analysis_cache.py): answers from a hit, from the next keystroke and from a
miss equal compiling and propagating from scratch."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")

import xwcp  # noqa: E402
from tests.web.helpers import ROOT  # noqa: E402
from xwcp.analysis.questions import domains_report  # noqa: E402
from xwcp.engine.ac3 import propagate  # noqa: E402
from xwcp.render.questions_json import suggest_json  # noqa: E402
from xwcp.services.analysis_cache import AnalysisCache  # noqa: E402


def test_cached_and_incremental_answers_equal_fresh_ones(words):
    """A random session of typing, erasing and undoing on three grids: every answer from the cache (hits,
    next keystrokes from the last grid's engine, misses) equals compiling and propagating from scratch."""
    rng = random.Random(5)
    cache = AnalysisCache()
    n_steps = 0
    for name in ("15x15-daily-01", "11x11-01", "7x7-mini"):
        grid = xwcp.read_grid(ROOT / "models" / f"{name}.txt")
        cells, history = list(grid.cells), []
        for _ in range(30):
            empties = [c for c, x in enumerate(cells) if x == "."]
            if history and rng.random() < 0.25:
                cells = history.pop()
            elif empties:
                history.append(list(cells))
                cells[rng.choice(empties)] = rng.choice("AEIOUSTRNL" if rng.random() < 0.8 else "XQZJKW")
            now = type(grid)(grid.width, grid.height, tuple(cells))
            entry = cache.analysed(words, 1, tuple(now.rows), lambda: now, 50, False)  # noqa: B023 - called at once
            problem = xwcp.compile_problem(now, words)
            fresh = propagate(problem)
            assert entry.prop.is_consistent == fresh.is_consistent
            if fresh.is_consistent:
                assert all(np.array_equal(a, b) for a, b in zip(entry.prop.domains, fresh.domains))
                assert np.array_equal(entry.prop.letter_counts, fresh.letter_counts)
            assert all(np.array_equal(a, b) for a, b in zip(entry.problem.domains, problem.domains))
            got = domains_report(entry.problem, k=5, prop=entry.prop)
            want = domains_report(problem, k=5)
            assert replace(got, seconds=0.0) == replace(want, seconds=0.0)
            n_steps += 1
    assert cache.incremental >= 10 and cache.hits >= 5  # the three paths were all taken
    assert n_steps == 90


def test_words_found_dead_are_inherited_by_the_next_keystroke(client, words, monkeypatch):
    from xwcp.analysis.questions import suggest_report

    # the route's probing budget is 30 ms of wall time: on a loaded machine it can run out before the count is
    # complete, which this test needs; give it time (what is probed does not depend on the budget otherwise)
    monkeypatch.setattr("xwcp.web.app.PROBE_S", 30.0)

    from tests.analysis.test_probe import THEMED

    rows = THEMED.split()
    first = client.post("/api/suggest", json={"grid": rows, "slot": "1A", "k": 40}).json()
    assert first["counts"]["complete"] and first["counts"]["survive"] < first["counts"]["arc_consistent"]
    typed = list(rows)
    typed[0] = typed[0][:2] + first["words"][0]["word"][0] + typed[0][3:]  # the first letter of a survivor
    second = client.post("/api/suggest", json={"grid": typed, "slot": "1A", "k": 40}).json()
    fresh = suggest_json(
        suggest_report(
            xwcp.compile_problem(xwcp.parse_grid("\n".join(typed)), words),
            "1A",
            k=40,
            count=False,
            probe_max_words=None,
        )
    )

    # the dead words carried over change nothing in the answer but which slot a dropped word is said to empty:
    # the one it emptied first on the earlier grid (it empties that one here too: more letters only prune more)
    def without_empties(answer):
        return {**answer, "dropped": [{k: v for k, v in d.items() if k != "empties"} for d in answer["dropped"]]}

    assert without_empties(second) == without_empties(fresh)
    cache = client.app.state.xwcp.cache
    assert cache.incremental >= 1
    entries = {key[1]: entry for key, entry in cache._entries.items()}
    before, after = entries[tuple(rows)], entries[tuple(typed)]
    slot_id = after.problem.slot_by_name("1A").id
    dead_before = before.dead_by_slot[slot_id]
    assert len(dead_before) == first["counts"]["arc_consistent"] - first["counts"]["survive"]
    assert dead_before.items() <= after.dead_by_slot[slot_id].items()  # inherited, not probed again


def suggest_as_fresh(entry, slot_id, name, count):
    """The 40 suggestions of slot `name` as the server answers them (what the cache entry knows, probed in its
    kept engine, then kept), checked equal to probing every word afresh in the grid's own engine."""
    from xwcp.analysis.questions import suggest_report

    dead, alive = entry.known_words(slot_id)
    known_dead = len(dead)
    with entry.probing(slot_id) as make_engine:  # the first grid's engine, once typing has begun
        got = suggest_report(
            entry.problem,
            name,
            k=40,
            prop=entry.prop,
            count=count,
            probe_max_words=None,
            dead_words=dead,
            alive_words=alive,
            probe_engine=make_engine,
        )
    entry.keep_found(slot_id, dead, known_dead)
    fresh = suggest_report(entry.problem, name, k=40, prop=entry.prop, count=count, probe_max_words=None)
    assert replace(got, dropped=None) == replace(fresh, dropped=None)
    return suggest_json(got)


def test_survivors_are_inherited_only_by_the_slot_typed_into_and_change_no_answer(words, monkeypatch):
    """Typing a word into a slot letter by letter (as a constructor does, and bench/web_load.py's clients): the
    words found surviving in that slot are kept for the next keystroke (none for a slot the letters do not all lie
    in), its words are probed in the engine of the grid the typing started from, and every answer, counted over
    the whole slot, equals probing each word afresh in the grid's own engine."""

    grid = xwcp.read_grid(ROOT / "models" / "15x15-daily-01.txt")
    rows = ["".join(grid.cells[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)]
    cache = AnalysisCache()

    def ask(rows, name):
        entry = cache.analysed(words, 1, tuple(rows), lambda: xwcp.parse_grid("\n".join(rows)), 0, False)
        slot_id = entry.problem.slot_by_name(name).id
        known = set(entry.known_words(slot_id)[1])
        return entry, slot_id, known, suggest_as_fresh(entry, slot_id, name, count=True)

    entry, slot_id, _, first = ask(rows, "1A")
    first_entry = entry
    across = entry.problem.slots[slot_id]
    down = next(s for s in entry.problem.slots if s.id != slot_id and across.cells[0] in s.cells)
    ask(rows, down.name)  # its survivors too
    typed = list("".join(rows))
    inherited = []
    for cell, letter in zip(across.cells[:-1], first["words"][0]["word"]):  # all but the last: not complete
        typed[cell] = letter
        now = ["".join(typed[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)]
        entry, _, known, _ = ask(now, "1A")
        inherited.append(len(known))
        assert entry.probe_source_by_slot[slot_id] is first_entry and first_entry._probe_pool
        assert not entry._probe_pool  # no engine of its own
        # the first letter lies in the down slot through it too, the next ones do not
        assert bool(entry.known_words(down.id)[1]) == (cell == across.cells[0])
    assert cache.incremental >= 3 and all(inherited), inherited
    old_cache = cache
    # what typing found is kept with the first grid: typing the word again (after an undo, or another client)
    # probes nothing, and answers the same
    from xwcp.engine.kernel import BitSearch

    probed, probe = [], BitSearch.probe
    monkeypatch.setattr(BitSearch, "probe", lambda self, *a, **kw: probed.append(self) or probe(self, *a, **kw))
    first_key = next(key for key, e in cache._entries.items() if e is first_entry)
    cache = AnalysisCache()  # none of the typed grids kept: only the first one, with what was found
    cache._entries[first_key] = first_entry
    cache._engines[first_key] = old_cache._engines[first_key]
    typed = list("".join(rows))
    for cell, letter in zip(across.cells[:-1], first["words"][0]["word"]):
        typed[cell] = letter
        ask(["".join(typed[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)], "1A")
    assert first_entry._probe_pool and probed  # (ask's fresh answers probe in engines of their own)
    assert not any(engine in first_entry._probe_pool for engine in probed)


def test_a_grid_compiled_afresh_probes_where_the_kept_grid_it_extends_did(words):
    """With no kept engine to start from (evicted: here none is kept at all), a grid that extends a kept grid by
    letters in one slot's cells still probes that slot's words in the kept grid's engine, with what was found
    there, and answers as probing afresh does; a letter that completes an entry takes no such grid."""

    grid = xwcp.read_grid(ROOT / "models" / "15x15-daily-01.txt")
    rows = ["".join(grid.cells[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)]
    cache = AnalysisCache(engine_capacity=0)

    def ask(rows, name):
        entry = cache.analysed(words, 1, tuple(rows), lambda: xwcp.parse_grid("\n".join(rows)), 0, False)
        slot_id = entry.problem.slot_by_name(name).id
        if slot_id in entry.problem.fixed_text_by_slot:
            return entry, slot_id
        suggest_as_fresh(entry, slot_id, name, count=False)
        return entry, slot_id

    first_entry, slot_id = ask(rows, "1A")
    across = first_entry.problem.slots[slot_id]
    typed = list("".join(rows))
    for n, (cell, letter) in enumerate(zip(across.cells, "DYES"), 1):
        typed[cell] = letter
        entry, _ = ask(["".join(typed[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)], "1A")
        if n < across.length:
            assert entry.probe_source_by_slot[slot_id] is first_entry and not entry._probe_pool
        else:  # complete: 1A is the user's own entry now, and the down slot through the last letter is not
            assert entry.probe_source_by_slot == {}  # derived from the grid before (a slot to fill there)
    assert cache.incremental == 0 and len(first_entry._probe_pool) == 1  # one engine built, for the first grid


def test_dead_end_labels_go_where_their_proof_slots_kept_their_letters(words):
    """The rules by which a kept grid's dead ends (`("labels", slot)` reports, as /ws/suggest keeps them) reach a
    new grid of the same blocks: a grid adding letters keeps all of them (and no viable label); otherwise only a
    dead end whose proof slots kept their letters, none of them completed here, and no completed entry of one of
    their lengths changed (its word was no candidate there)."""
    from xwcp.backends import fill
    from xwcp.engine.result import Limits

    grid = xwcp.read_grid(ROOT / "models" / "15x15-daily-01.txt")
    problem = xwcp.compile_problem(grid, words)
    entries = fill(problem, "backtrack", Limits(time_limit_s=30)).entries
    assert entries is not None
    by_name = {slot.name: slot for slot in problem.slots}
    proof = ["5A", "5D", "6D", "7D"]  # a dead end of 5A whose proof used these
    lengths = {by_name[name].length for name in proof}
    taken = {cell for name in proof for cell in by_name[name].cells}

    def across_apart(ok) -> object:  # an across slot of no cell taken yet (then taken), `ok` by its length
        found = next(
            s for s in problem.slots if s.direction.letter == "A" and ok(s.length) and not set(s.cells) & taken
        )
        taken.update(found.cells)
        return found

    complete_other = across_apart(lambda n: n not in lengths)
    complete_same = across_apart(lambda n: n in lengths)
    far = across_apart(lambda n: True)

    def put(at: list[str], slot, positions) -> None:
        for q in positions:
            at[slot.cells[q]] = entries[slot.id][q]

    cells = list(grid.cells)
    put(cells, complete_other, range(complete_other.length))
    put(cells, complete_same, range(complete_same.length))
    put(cells, by_name["5A"], [0])
    put(cells, far, [0])
    labels = {
        "NOPROOF": {"word": "NOPROOF", "verdict": "dead-end", "how": "ac3", "seconds": 0.0},
        "PROVEN": {"word": "PROVEN", "verdict": "dead-end", "how": "proof", "seconds": 0.0, "proof_slots": proof},
        "VIABLE": {"word": "VIABLE", "verdict": "viable", "how": "search", "seconds": 0.0},
    }

    def carried(change) -> set[str]:
        cache = AnalysisCache()
        before = type(grid)(grid.width, grid.height, tuple(cells))
        kept = cache.analysed(words, 1, tuple(before.rows), lambda: before, 50, False)
        kept.report(("labels", "5A"), dict).update(labels)
        new_cells = list(cells)
        change(new_cells)
        now = type(grid)(grid.width, grid.height, tuple(new_cells))
        entry = cache.analysed(words, 1, tuple(now.rows), lambda: now, 50, False)
        assert entry is not kept and entry.prop.is_consistent
        return set(entry.reports.get(("labels", "5A"), {}))

    def erase(slot, q):
        return lambda at: at.__setitem__(slot.cells[q], ".")

    assert carried(lambda at: put(at, far, [1])) == {"NOPROOF", "PROVEN"}  # letters added: every dead end
    assert carried(erase(far, 0)) == {"PROVEN"}  # erased outside the proof's slots: the proven one only
    assert carried(erase(by_name["5A"], 0)) == set()  # erased in a slot of the proof
    assert carried(erase(complete_other, 0)) == {"PROVEN"}  # a completed entry of another length reopened
    assert carried(erase(complete_same, 0)) == set()  # ... of a proof slot's length: its word is a candidate again
    assert carried(lambda at: put(at, by_name["6D"], range(by_name["6D"].length))) == set()  # a proof slot completed


# ----- bounded by bytes ---------------------------------------------------------------------------


def _rows(name: str) -> list[str]:
    grid = xwcp.read_grid(ROOT / "models" / f"{name}.txt")
    return ["".join(grid.cells[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)]


def _ask(cache, words, rows):
    return cache.analysed(words, 1, tuple(rows), lambda: xwcp.parse_grid("\n".join(rows)), 50, False)


@pytest.mark.parametrize(
    "rows", [_rows("15x15-daily-01"), [row * 4 for row in _rows("15x15-daily-01")] * 4], ids=["15x15", "60x60"]
)
def test_a_grid_and_its_engine_are_charged_what_their_arrays_hold(words, rows):
    """The charge of a kept grid and of its engine is within a factor of what they allocated (tracemalloc, which
    sees numpy's and ctypes' buffers: their arrays' bytes) and of every array's nbytes reachable from them."""
    import tracemalloc

    from xwcp.services.analysis_cache import entry_bytes
    from xwcp.services.held_bytes import held_bytes

    cache = AnalysisCache()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        entry = _ask(cache, words, rows)
        allocated = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    (kept,) = cache._engines.values()
    charged = cache.held_bytes()
    assert charged == cache._bytes_by_key[next(iter(cache._entries))] + kept.bytes
    assert 0.67 < charged / allocated < 1.5, (charged, allocated)
    arrays = [*entry.problem.domains, *entry.prop.domains, entry.prop.letter_counts, *entry.prop.counts_by_slot]
    arrays_nbytes = sum(a.nbytes for a in {id(a): a for a in arrays}.values())
    assert arrays_nbytes <= entry_bytes(entry) < 1.5 * arrays_nbytes
    engine_arrays = sum(value.nbytes for value in vars(kept.engine).values() if isinstance(value, np.ndarray))
    assert engine_arrays <= kept.bytes < 1.5 * engine_arrays + 2**20
    walked = held_bytes((entry.problem, entry.prop, entry.cells), (type(words), AnalysisCache))
    assert 0.8 < entry_bytes(entry) / walked < 1.25


def test_what_the_cache_keeps_stays_under_its_bytes_least_recently_used_first(words):
    """Past `max_bytes` the least recently used grids go first (a grid asked again stays), the total stays under
    the bound after every request, and a kept grid that probed in an evicted one no longer holds it (and answers
    as probing afresh does)."""
    rows = _rows("15x15-daily-01")
    one = AnalysisCache()
    _ask(one, words, rows)
    cache = AnalysisCache(max_bytes=int(3.5 * one.held_bytes()))  # room for three grids like it and their engines
    first = _ask(cache, words, rows)
    slot = first.problem.slot_by_name("1A")
    typed = list("".join(rows))

    def type_letter(index: int):
        typed[slot.cells[index]] = "ABC"[index]
        entry = _ask(cache, words, ["".join(typed[r * 15 : (r + 1) * 15]) for r in range(15)])
        assert cache.held_bytes() <= cache.max_bytes
        return entry

    t1, t2 = type_letter(0), type_letter(1)
    assert t1.probe_source_by_slot[slot.id] is first and t2.probe_source_by_slot[slot.id] is first
    assert _ask(cache, words, rows) is first  # asked again: the most recently used now
    t3 = type_letter(2)
    kept = list(cache._entries.values())
    assert first in kept and t3 in kept and t1 not in kept  # t1 was the least recently used
    small = _rows("11x11-01")
    empties = [cell for cell, letter in enumerate("".join(small)) if letter == "."]
    for cell in empties:  # other grids, small ones, until the first grid goes
        cells = list("".join(small))
        cells[cell] = "E"
        _ask(cache, words, ["".join(cells[r * 11 : (r + 1) * 11]) for r in range(11)])
        assert cache.held_bytes() <= cache.max_bytes
        if first not in cache._entries.values():
            break
    kept = list(cache._entries.values())
    assert first not in kept and t3 in kept, "the first grid goes before the newer t3"
    assert all(source is not first for entry in kept for source in entry.probe_source_by_slot.values())
    suggest_as_fresh(t3, slot.id, "1A", count=False)  # probed in its own engine now: the same answer
    assert cache.evicted >= 2


def test_the_app_and_serve_pass_the_bound_on(words):
    from xwcp.web.app import create_app
    from xwcp.web.serve import CACHE_MB

    assert create_app(words=words, personal=False, cache_bytes=123_456).state.xwcp.cache.max_bytes == 123_456
    assert create_app(words=words, personal=False).state.xwcp.cache.max_bytes == CACHE_MB * 2**20
