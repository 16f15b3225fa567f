"""The suggestion WebSocket (xwcp/web/suggest_ws.py): the words at once, each label as it is settled, kept per grid,
cancelled by the next request, a bad request answered without closing the socket."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")

import xwcp  # noqa: E402
from tests.analysis.test_probe import THEMED  # noqa: E402
from tests.helpers import entries_of  # noqa: E402
from tests.web.helpers import MINI, ROOT, _fill  # noqa: E402
from xwcp.backends import fill  # noqa: E402
from xwcp.base.types import FillStatus  # noqa: E402
from xwcp.compile.problem import with_word  # noqa: E402
from xwcp.engine.result import Limits, check_fill  # noqa: E402
from xwcp.library.answers import Viability  # noqa: E402
from xwcp.library.jobs import Session  # noqa: E402
from xwcp.web import suggest_ws  # noqa: E402

ROWS = THEMED.split()


def _until_done(ws, request_id):
    """The messages of request `request_id` up to its "done" (or an error), skipping an earlier request's."""
    messages = []
    while True:
        message = ws.receive_json()
        if message.get("id") != request_id:
            continue
        messages.append(message)
        if message["type"] in ("done", "error"):
            return messages


@pytest.mark.timing
def test_words_then_labels_streamed_and_kept_for_the_grid(client, words):
    with client.websocket_connect("/ws/suggest") as ws:
        ws.send_json({"id": 1, "grid": ROWS, "slot": "1D", "k": 40, "time_limit_s": 60})
        messages = _until_done(ws, 1)
    first, *between, done = messages
    assert first["type"] == "words" and done["type"] == "done" and not done["cancelled"]
    labels = [m for m in between if m["type"] == "label"]
    # the rest: at most one count of the survivors over the whole slot, after the labels
    assert [m["type"] for m in between[len(labels) :]] in ([], ["counts"])
    if between[len(labels) :]:
        counts = between[-1]["counts"]
        assert counts["complete"] and counts["survive"] == len(first["words"]) == 17  # fewer than k survive here
    # the words are /api/suggest's answer (the same cached object), or when that answer's probing budget ran out
    # short of k words (a loaded machine), the whole slot's
    answer = client.post("/api/suggest", json={"grid": ROWS, "slot": "1D", "k": 40}).json()
    sent = {key: value for key, value in first.items() if key not in ("type", "id")}
    assert sent == answer or (
        not answer["counts"]["complete"]
        and sent["counts"]["complete"]
        and sent["counts"]["survive"] == len(sent["words"]) == 17
    )
    shown = [w["word"] for w in sent["words"]]
    by_word = {m["word"]: m for m in labels}
    assert set(by_word) == set(shown) and len(labels) == len(shown)  # each once, all settled in the budget
    assert {m["verdict"] for m in labels} == {"viable", "dead-end"}
    # the streamed labels are true: a viable word has a fill (found here again), a dead end none
    problem = xwcp.compile_problem(xwcp.parse_grid(THEMED), words)
    slot = problem.slot_by_name("1D")
    for word, message in by_word.items():
        result = fill(with_word(problem, slot.id, word), "backtrack", Limits(time_limit_s=30))
        assert result.status is (FillStatus.FILLED if message["verdict"] == "viable" else FillStatus.UNFILLABLE), word
        for entries in result.fills:
            assert entries[slot.id] == word and check_fill(problem, entries) == []
    # asked again about the same grid: the kept labels come at once, no search
    with client.websocket_connect("/ws/suggest") as ws:
        start = time.perf_counter()
        ws.send_json({"id": 2, "grid": ROWS, "slot": "1D", "k": 40})
        again = _until_done(ws, 2)
        assert time.perf_counter() - start < 5
    kept = [m for m in again if m["type"] == "label"]
    assert {m["word"]: m["verdict"] for m in kept} == {w: m["verdict"] for w, m in by_word.items()}
    assert {m["how"] for m in kept} == {"kept"}


def test_dead_ends_proven_before_a_keystroke_come_at_once_after_it(client, words):
    """A letter typed elsewhere only takes fills away: 1D's dead ends proven on the grid before it are sent at once
    ("kept") on the grid after it, not proven again; its viable words are labelled again (by search or a kept
    fill checked on the new grid)."""
    with client.websocket_connect("/ws/suggest") as ws:
        ws.send_json({"id": 1, "grid": ROWS, "slot": "1D", "k": 40, "time_limit_s": 60})
        before = {m["word"]: m["verdict"] for m in _until_done(ws, 1) if m["type"] == "label"}
    dead = {word for word, verdict in before.items() if verdict == "dead-end"}
    assert dead and "viable" in before.values()
    # the next keystroke: a letter of a fill of this grid, in a cell of no slot through 1D's cells, in slots that
    # stay open (so the grid is the same problem plus a letter, as typing makes it)
    problem = xwcp.compile_problem(xwcp.parse_grid(THEMED), words)
    entries = fill(problem, "backtrack", Limits(time_limit_s=30)).entries
    assert entries is not None
    near = {
        cell for slot in problem.slots if set(slot.cells) & set(problem.slot_by_name("1D").cells) for cell in slot.cells
    }
    cell, letter = next(
        (cell, entries[slot.id][slot.cells.index(cell)])
        for slot in problem.slots
        for cell in slot.cells
        if cell not in near
        and problem.grid.cells[cell] == "."
        and all(
            sum(problem.grid.cells[c] == "." for c in other.cells) > 1 for other in problem.slots if cell in other.cells
        )
    )
    rows = [list(row) for row in ROWS]
    rows[cell // problem.grid.width][cell % problem.grid.width] = letter
    after_rows = ["".join(row) for row in rows]
    with client.websocket_connect("/ws/suggest") as ws:
        ws.send_json({"id": 2, "grid": after_rows, "slot": "1D", "k": 40, "time_limit_s": 60})
        after = _until_done(ws, 2)
    labels = [m for m in after if m["type"] == "label"]
    shown = [w["word"] for w in after[0]["words"]]
    carried = [m for m in labels if m["how"] == "kept"]
    assert {m["word"] for m in carried} == dead & set(shown) and dead & set(shown)
    assert all(m["verdict"] == "dead-end" for m in carried)
    assert labels[: len(carried)] == carried  # first, before any search
    assert {m["word"] for m in labels} == set(shown)  # the rest labelled as usual
    # and they are true on the new grid: no fill with the word there
    after_problem = xwcp.compile_problem(xwcp.parse_grid("\n".join(after_rows)), words)
    for m in carried:
        result = fill(
            with_word(after_problem, after_problem.slot_by_name("1D").id, m["word"]),
            "backtrack",
            Limits(time_limit_s=30),
        )
        assert result.status is FillStatus.UNFILLABLE, m["word"]


def _labels_of(client, request_id, rows):
    """1D's shown words and their labels on `rows` (no word twice or not: allow_dupes, so the regions of the grid
    below meet only through crossings)."""
    with client.websocket_connect("/ws/suggest") as ws:
        ws.send_json({"id": request_id, "grid": rows, "slot": "1D", "k": 40, "time_limit_s": 60, "allow_dupes": True})
        messages = _until_done(ws, request_id)
    return [w["word"] for w in messages[0]["words"]], [m for m in messages if m["type"] == "label"]


# THEMED with a 3x3 corner of its own below it, which no slot of THEMED crosses
APART = ROWS + ["###############", "...############", "...############", "...############"]


@pytest.mark.parametrize("where", ["apart", "in 1D"])
def test_a_dead_end_holds_after_a_letter_is_erased_outside_its_proof(client, words, where):
    """Each dead end names the slots its proof used; when a letter is erased (the grid before it: fewer letters,
    more fills) a dead end whose proof slots do not hold that cell comes at once ("kept"), the others are proven
    again. Every proof of a dead end of 1D uses 1D (the grid has fills) and none uses the corner apart: erased
    there every dead end holds (each checked there), erased in 1D none does."""
    problem = xwcp.compile_problem(xwcp.parse_grid("\n".join(APART)), words, allow_dupes=True)
    entries = fill(problem, "backtrack", Limits(time_limit_s=30)).entries
    assert entries is not None
    corner = len(ROWS) * problem.grid.width + problem.grid.width  # the top left cell of the corner apart
    slot = problem.slot_by_name("1D") if where == "in 1D" else next(s for s in problem.slots if s.cells[0] == corner)
    pos = max(q for q, cell in enumerate(slot.cells) if problem.grid.cells[cell] == ".")
    letter = entries[slot.id][pos]
    if where == "in 1D":  # a letter of one of its dead ends, so that dead ends stay shown
        session = Session(problem)
        labels = session.label("1D", [w.word for w in session.suggest("1D", k=40, count=False)], time_limit_s=60)
        letter = next(label.word for label in labels if label.verdict is Viability.DEAD_END)[pos]
    cell, width = slot.cells[pos], problem.grid.width
    rows = [list(row) for row in APART]
    rows[cell // width][cell % width] = letter
    _, before = _labels_of(client, 1, ["".join(row) for row in rows])
    proof_by_word = {m["word"]: m["proof_slots"] for m in before if m["verdict"] == "dead-end"}
    assert proof_by_word and all("1D" in proof for proof in proof_by_word.values())
    shown, after = _labels_of(client, 2, APART)  # the letter erased
    carried = {m["word"] for m in after if m["how"] == "kept"}
    erased = {s.name for s in problem.slots if cell in s.cells}
    expected = {word for word, proof in proof_by_word.items() if word in shown and erased.isdisjoint(proof)}
    assert carried == expected and {m["word"] for m in after} == set(shown)
    if where == "apart":
        assert carried == set(proof_by_word) & set(shown) and carried
    else:  # not vacuous: dead ends of before were shown again, and proven again
        assert not carried and set(proof_by_word) & set(shown)
    for word in carried:  # true where the letter was erased: no fill with the word there
        result = fill(with_word(problem, problem.slot_by_name("1D").id, word), "backtrack", Limits(time_limit_s=30))
        assert result.status is FillStatus.UNFILLABLE, word


def test_a_new_request_cancels_the_labelling_running(client):
    open_rows = list(xwcp.read_grid(ROOT / "models" / "15x15-themeless-01.txt").rows)
    with client.websocket_connect("/ws/suggest") as ws:
        ws.send_json({"id": 1, "grid": open_rows, "slot": "1A", "k": 40, "time_limit_s": 100})
        assert ws.receive_json()["type"] == "words"
        start = time.perf_counter()
        ws.send_json({"id": 2, "grid": MINI, "slot": "1D", "k": 5})
        ended = None
        while True:
            message = ws.receive_json()
            if message.get("id") == 1 and message["type"] == "done":
                ended = message
            if message.get("id") == 2:
                break
        assert ended is not None and ended["cancelled"] and time.perf_counter() - start < 10
        assert message["type"] == "words"
        rest = _until_done(ws, 2)
        assert rest[-1]["type"] == "done" and not rest[-1]["cancelled"]
    assert not client.app.state.xwcp.fill_threads and client.app.state.xwcp.active_fills == 0


def test_a_bad_request_gets_an_error_and_the_socket_stays(client):
    with client.websocket_connect("/ws/suggest") as ws:
        ws.send_json({"id": 1, "grid": MINI})
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == 400 and "slot" in error["error"]
        ws.send_text("not json")
        assert ws.receive_json()["type"] == "error"
        ws.send_json({"id": 2, "grid": MINI, "slot": "1D", "k": 3, "time_limit_s": 5})
        messages = _until_done(ws, 2)
        assert messages[0]["type"] == "words" and len(messages[0]["words"]) <= 3
        assert messages[-1]["type"] == "done"


def test_an_autofill_asked_for_stops_the_labelling_that_takes_the_last_slot(client, words):
    """Labels are background work: with every fill slot taken by labellings (this server runs one at once), an
    autofill is not refused as busy; the labelling stops (its "done" says cancelled) and the fill runs."""
    open_rows = list(xwcp.read_grid(ROOT / "models" / "15x15-themeless-01.txt").rows)
    state = client.app.state.xwcp
    assert state.max_fills == 1
    with client.websocket_connect("/ws/suggest") as labels:
        labels.send_json({"id": 1, "grid": open_rows, "slot": "1A", "k": 40, "time_limit_s": 100})
        assert labels.receive_json()["type"] == "words"
        deadline = time.perf_counter() + 10
        while state.active_fills < 1 and time.perf_counter() < deadline:  # the labelling holds the slot
            time.sleep(0.01)
        assert state.active_fills == 1 and state.label_aborts
        with client.websocket_connect("/ws/fill") as ws:
            _, end = _fill(ws, {"grid": MINI, "time_limit_s": 20})
        assert end["type"] == "result" and end["status"] == "filled", end
        problem = xwcp.compile_problem(xwcp.parse_grid("\n".join(MINI)), words)
        assert check_fill(problem, entries_of(problem, end["grid"])) == []
        done = _until_done(labels, 1)[-1]
        assert done["type"] == "done" and done["cancelled"]
    assert state.active_fills == 0 and not state.label_aborts


def test_labels_wait_for_no_one_when_the_server_is_busy(client):
    state = client.app.state.xwcp
    state.active_fills = state.max_fills  # every fill slot taken (as by running autofills)
    try:
        with client.websocket_connect("/ws/suggest") as ws:
            ws.send_json({"id": 1, "grid": ROWS, "slot": "21A", "k": 5})
            kinds = [m["type"] for m in _until_done_or_busy(ws)]
    finally:
        state.active_fills = 0
    assert kinds == ["words", "error", "done"]


def _until_done_or_busy(ws):
    messages = []
    while not messages or messages[-1]["type"] != "done":
        messages.append(ws.receive_json())
    return messages


def test_every_shown_word_gets_a_label_and_the_visible_ones_come_first(client, monkeypatch):
    """An open themeless under a budget too short for all 40 words: each word still gets one label (those the
    budget left unsettled "unknown", so the page never waits on them), and the `visible` words are settled first."""
    monkeypatch.setattr(suggest_ws, "COUNT_S", 0.1)  # the count of 1A's survivors after the labels: not checked here
    open_rows = list(xwcp.read_grid(ROOT / "models" / "15x15-themeless-01.txt").rows)
    with client.websocket_connect("/ws/suggest") as ws:
        ws.send_json({"id": 1, "grid": open_rows, "slot": "1A", "k": 40, "time_limit_s": 1.5, "visible": 5})
        messages = _until_done(ws, 1)
    first, done = messages[0], messages[-1]
    assert first["type"] == "words" and done["type"] == "done" and not done["cancelled"]
    shown = [w["word"] for w in first["words"]]
    labels = [m for m in messages if m["type"] == "label"]
    assert sorted(m["word"] for m in labels) == sorted(shown)  # every word once
    assert {m["verdict"] for m in labels} <= {"viable", "dead-end", "unknown"}
    assert any(m["verdict"] == "unknown" for m in labels)  # 1.5 s does not settle 40 words of an open 15x15
    # the visible words are labelled first, under the whole budget: a word beyond them is settled only once
    # every visible one is, and after them
    order = [m["word"] for m in labels if m["verdict"] != "unknown"]
    visible = set(shown[:5])
    beyond = [i for i, w in enumerate(order) if w not in visible]
    if beyond:
        assert visible <= set(order[: beyond[0]])


def test_visible_must_be_a_count(client):
    with client.websocket_connect("/ws/suggest") as ws:
        ws.send_json({"id": 1, "grid": MINI, "slot": "1D", "k": 5, "visible": "all"})
        message = ws.receive_json()
    assert message["type"] == "error" and message["status"] == 400 and "visible" in message["error"]
