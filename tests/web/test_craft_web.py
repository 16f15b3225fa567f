"""The builder's share of the constructor's craft: the suggestion list's filter, autofill with distinct stems (and
the words it skipped), and unfair crossings marked on their cells; through the API and in a real browser."""

from __future__ import annotations

import os
from urllib.parse import urlencode

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

import re  # noqa: E402

import xwcp  # noqa: E402
from tests.helpers import entries_of  # noqa: E402
from tests.web.helpers import MINI, _fill  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402
from xwcp.model.alphabet import ENGLISH  # noqa: E402
from xwcp.words.build import find_hunspell  # noqa: E402

MAX_FILLS = 2
"""Fills the app under test may run at once (the `client` fixture of conftest.py reads it)."""


def test_the_filter_narrows_the_whole_slot_not_the_words_shown(client):
    plain = client.post("/api/suggest", json={"grid": MINI, "slot": "1D", "k": 40}).json()
    filtered = client.post("/api/suggest", json={"grid": MINI, "slot": "1D", "k": 40, "filter": "~.*S"}).json()
    words = [w["word"] for w in filtered["words"]]
    assert words and all(re.fullmatch(".*S", w) for w in words)
    assert {w["word"] for w in plain["words"]} != set(words)
    lacks = client.post("/api/suggest", json={"grid": MINI, "slot": "1D", "k": 40, "filter": "-E"}).json()
    assert lacks["words"] and all("E" not in w["word"] for w in lacks["words"])


def test_the_personal_filter_keeps_the_slot_to_the_personal_lists_words(client):
    assert client.post("/api/words", json={"word": "ALE", "score": 70}).status_code == 200
    assert client.post("/api/words", json={"word": "AHA", "score": 0}).status_code == 200  # a ban is not a word
    data = client.post("/api/suggest", json={"grid": MINI, "slot": "1D", "k": 40, "filter": "@personal"}).json()
    personal = {e["word"] for e in client.get("/api/words").json()["entries"] if e["score"] > 0}
    words = [w["word"] for w in data["words"]]
    assert "ALE" in words and set(words) <= personal


@pytest.mark.parametrize(
    ("value", "said"), [("~[", "not a regular expression"), ("?E", "expected ~REGEX"), (3, "filter")]
)
def test_a_bad_filter_is_400_naming_it(client, value, said):
    response = client.post("/api/suggest", json={"grid": MINI, "slot": "1D", "k": 4, "filter": value})
    assert response.status_code == 400 and said in response.json()["error"]


def test_autofill_with_distinct_stems_keeps_the_stem_rule(client, words):
    with client.websocket_connect("/ws/fill") as ws:
        _, result = _fill(ws, {"grid": MINI, "time_limit_s": 20, "distinct_stems": True})
    assert result["status"] == "filled"
    problem = xwcp.compile_problem(xwcp.parse_grid("\n".join(MINI)), words, controls=xwcp.Controls(distinct_stems=True))
    assert check_fill(problem, entries_of(problem, result["grid"])) == []


def test_the_fill_result_names_the_words_the_stem_rule_skipped():
    from xwcp.library.answers import FillAnswer
    from xwcp.web.fill_ws import _result_json

    words = xwcp.words_from_pairs([("TIES", 90), ("TIED", 80), ("NOTE", 40)])
    problem = xwcp.compile_problem(
        xwcp.parse_grid("....\n####\n....\n"), words, min_score=0, controls=xwcp.Controls(distinct_stems=True)
    )
    from xwcp.backends import fill

    result = fill(problem, "backtrack", 10)
    message = _result_json(FillAnswer.build(problem, result, 0.1), problem, 0, False)
    assert message["status"] == "filled"
    assert any("share the stem TIE" in why for why in message["skipped"])


def test_autofill_reads_phrases_by_the_word_list_alone(monkeypatch):
    """Neither wordfreq nor WordNet: the builder's autofill with distinct stems still reads ATECROW as ATE CROW
    (by the word list), so it skips EATERY and names it."""
    import warnings

    from tests.web.helpers import HOSTS
    from tests.words.phrase_sources import ATE_CROW_GRID, ATE_CROW_LIST, switch_off_phrase_sources
    from xwcp.web import app as web_app

    switch_off_phrase_sources(monkeypatch)
    words = xwcp.words_from_pairs([(w, int(s)) for w, s in (line.split(";") for line in ATE_CROW_LIST.splitlines())])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    rows = ATE_CROW_GRID.split()
    app = web_app.create_app(words=words, max_fills=1, hosts=HOSTS, personal=False)
    with TestClient(app, base_url="http://127.0.0.1") as client, client.websocket_connect("/ws/fill") as ws:
        _, result = _fill(ws, {"grid": rows, "time_limit_s": 20, "distinct_stems": True, "min_score": 0})
    assert result["status"] == "filled" and result["grid"][::2] == ["ATECROW", "SAILOR#"]
    problem = xwcp.compile_problem(xwcp.parse_grid(ATE_CROW_GRID), words, min_score=0)
    assert check_fill(problem, entries_of(problem, result["grid"])) == []
    assert any("EATERY" in why and "EAT" in why for why in result["skipped"])
    assert result["skipped_words"] == ["EATERY: shares EAT with ATECROW"]  # the builder's line, in plain terms


def test_the_builders_skipped_line_names_words_plainly_and_each_pair_once():
    """Two slots would both rather have TIED than NOTE/NOTA beside TIES: the sentences name each slot, the builder's
    plain line names the pair once, by its words and no slot (a chain's slot is named like ROWS.E+1)."""
    from xwcp.backends import fill
    from xwcp.library.answers import FillAnswer
    from xwcp.web.fill_ws import _result_json

    words = xwcp.words_from_pairs([("TIES", 90), ("TIED", 80), ("NOTE", 40), ("NOTA", 40)])
    problem = xwcp.compile_problem(
        xwcp.parse_grid("....\n####\n....\n####\n...."),
        words,
        min_score=0,
        controls=xwcp.Controls(distinct_stems=True),
    )
    message = _result_json(FillAnswer.build(problem, fill(problem, "backtrack", 10), 0.1), problem, 0, False)
    assert message["status"] == "filled"
    assert sum("TIED" in why for why in message["skipped"]) == 2  # one sentence a slot
    assert message["skipped_words"] == ["TIED: same stem as TIES"]


def test_crossings_of_two_tagged_entries_are_listed_with_the_reason(client):
    if find_hunspell(ENGLISH) is None:
        pytest.skip("no English Hunspell dictionary installed (names come from it)")
    answer = xwcp.fill("models/15x15-daily-01.txt")
    rows = answer.rows
    data = client.post("/api/crossings", json={"grid": rows}).json()
    from xwcp.services.crossings import unfair_crossings

    expected = unfair_crossings(xwcp.compile_problem("\n".join(rows)))
    assert data["crossings"] == expected and expected
    one = expected[0]
    assert rows[one["row"]][one["col"]] != "#" and "crosses" in one["reason"]
    assert client.post("/api/crossings", json={"grid": ["....", "...."]}).json() == {"crossings": []}


# ----- in a real browser ------------------------------------------------------------------------------------


def _open(browser, server, rows):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "#" + urlencode({"w": len(rows[0]), "h": len(rows), "t": "\n".join(rows)}))
    page.wait_for_function("window.xwcp && window.xwcp.ready")
    return page, errors


@pytest.mark.browser
def test_the_filter_box_narrows_the_suggestions_and_says_what_is_wrong(server, browser):
    page, errors = _open(browser, server, MINI)
    page.click('.cell[data-cell="4"]')  # 4A / 3D start: a slot with many words
    page.wait_for_function("document.querySelectorAll('#suggestions li[data-word]').length > 3")
    page.fill("#suggest-filter", "~.*S")
    page.wait_for_function(
        "(() => { const w = [...document.querySelectorAll('#suggestions li[data-word]')].map((li) => li.dataset.word);"
        " return w.length > 0 && w.every((x) => x.endsWith('S')); })()",
        timeout=30_000,
    )
    page.fill("#suggest-filter", "?S")
    page.wait_for_function("document.getElementById('suggest-filter-error').textContent.includes('start with')")
    assert page.get_attribute("#suggest-filter", "aria-invalid") == "true"
    assert not errors


@pytest.mark.browser
def test_the_skipped_words_come_before_the_question_on_the_autofill_line(server, browser):
    """A fill kept by distinct stems names its skipped words in plain terms, and the line's question follows them
    after a dash: "... SCATS: same stem as SCAT: accept or reroll" read as if SCAT were to be accepted."""
    from pathlib import Path

    grid = Path(__file__).parents[2] / "models" / "15x15-daily-01.txt"
    rows = [line for line in grid.read_text().splitlines() if line and not line.startswith(";")]
    page, errors = _open(browser, server, rows)
    assert page.is_checked("#distinct-stems")
    page.click("#fill-all")
    page.wait_for_function("document.getElementById('progress').textContent.includes('reroll')", timeout=60_000)
    line = page.inner_text("#progress")
    skipped = line.split(" · skipped by distinct stems: ")[1]
    assert skipped.endswith(" — accept or reroll") and ": accept" not in line, line
    assert "same stem as" in skipped and not re.search(r"\d+[AD] ", skipped), line  # words, never slot names
    page.click("#accept")
    page.wait_for_function("document.getElementById('progress').textContent.endsWith('— accepted (Ctrl+Z undoes)')")
    assert not errors


@pytest.mark.browser
def test_an_unfair_crossing_is_marked_with_its_reason_and_axe_finds_nothing_serious(server, browser):
    if find_hunspell(ENGLISH) is None:
        pytest.skip("no English Hunspell dictionary installed (names come from it)")
    rows = xwcp.fill("models/15x15-daily-01.txt").rows
    expected = __import__("xwcp.services.crossings", fromlist=["unfair_crossings"]).unfair_crossings(
        xwcp.compile_problem("\n".join(rows))
    )
    assert expected
    page, errors = _open(browser, server, rows)
    one = expected[0]
    cell = one["row"] * len(rows[0]) + one["col"]
    page.wait_for_selector(f'.cell.unfair[data-cell="{cell}"]', timeout=30_000)
    assert one["reason"] in page.get_attribute(f'.cell[data-cell="{cell}"]', "title")
    assert "unfair crossing" in page.get_attribute(f'.cell[data-cell="{cell}"]', "aria-label")
    axe = pytest.importorskip("axe_playwright_python", reason="axe-playwright-python carries axe-core")
    page.add_script_tag(path=os.path.join(os.path.dirname(axe.__file__), "axe.min.js"))
    page.fill("#suggest-filter", "+E")
    found = page.evaluate("""() => axe.run(document, { resultTypes: ['violations'] }).then((r) =>
        r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id))""")
    assert found == [] and not errors
