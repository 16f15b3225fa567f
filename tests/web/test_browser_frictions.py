"""A constructor's frictions with the builder, in Debian's chromium: keys from the grid to the suggestions and the clue
(Tab through the clues keeps the cursor), a ban by Delete keeping the focus in the list, test-solve hiding the answers,
the phone's and a wide screen's layouts, theme entries and locks in .ipuz (and said lost in .puz), the pattern search,
the symmetries, the solve-only link, and the lines the page says.

Needs chromium and playwright, as tests/web/test_browser.py. XWCP_SHOTS=<folder> keeps the layouts' screenshots.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

from tests.web.helpers import FILLED  # noqa: E402
from tests.web.test_browser import _open  # noqa: E402


@pytest.fixture(scope="module")
def browser(chromium):
    """A desktop context (this module's own `browser`, in place of conftest's)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 860})
    yield context
    context.close()


def _shot(page, name: str) -> None:
    folder = os.environ.get("XWCP_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / name))


def _filled_link(clues: dict[str, str] | None = None) -> str:
    """A share link's fragment for the filled 7x7 (helpers.FILLED), with `clues` by slot name."""
    params = {"w": 7, "h": 7, "g": "".join(FILLED).replace("#", "_")}
    if clues:
        params["c"] = json.dumps(clues)
    return "#" + urlencode(params)


def _words(page) -> list[str]:
    return page.eval_on_selector_all("#suggestions li[data-word]", "items => items.map(li => li.dataset.word)")


def _active(page) -> dict:
    return page.evaluate("""() => { const el = document.activeElement; const li = el && el.closest('li');
        return { tag: el ? el.tagName.toLowerCase() : '', id: el ? el.id : '', word: el && el.dataset ? el.dataset.word || '' : '',
                 inList: !!el && !!el.closest('#suggestions'), clue: li && li.dataset.name || '' }; }""")


def _cells(page, first: int, last: int) -> str:
    return page.evaluate(f"window.xwcp.state.grid.cells.slice({first}, {last}).join('')")


def _list_ready(page, slot: str) -> None:
    page.wait_for_function(
        f"document.getElementById('suggestions').dataset.slot === '{slot}'"
        " && document.querySelectorAll('#suggestions li[data-word]').length > 3"
    )
    page.wait_for_timeout(300)


def test_keys_reach_the_suggestions_and_the_clue_and_tab_keeps_the_cursor(server, browser):
    page, errors = _open(browser, server)
    assert "Alt+W" in page.inner_text("#panel-fill .keys") and "Alt+C" in page.inner_text("#panel-fill .keys")
    assert "Alt+W" in page.text_content("#grid-keys") and "Alt+C" in page.text_content("#grid-keys")
    page.click('.cell[data-cell="15"]')  # 14A, four letters
    _list_ready(page, "14A")
    page.keyboard.press("Alt+w")  # from the grid to the list's first word (the list may reorder as labels come)
    here = _active(page)
    assert here["inList"] and here["word"] in _words(page), here
    page.keyboard.press("Escape")
    assert _active(page)["id"] == "grid"
    page.keyboard.press("Alt+w")
    first = _active(page)["word"]
    page.keyboard.press("Enter")
    assert len(first) == 4 and _cells(page, 15, 19) == first

    page.click('.cell[data-cell="20"]')  # 15A, six letters
    _list_ready(page, "15A")
    page.keyboard.press("Alt+c")  # to the entry's clue box
    assert _active(page)["clue"] == "15A" and _active(page)["tag"] == "input"
    for _ in range(12):  # Tab through the clue boxes: the cursor stays in 15A
        page.keyboard.press("Tab")
    assert _active(page)["clue"] not in ("", "15A")
    assert page.evaluate("window.xwcp.state.cell") == 20
    assert page.inner_text("#slot-title").startswith("15A")
    # then on to the list: its word goes into 15A, not into the entry of the clue passed last
    page.focus("#suggestions")
    page.keyboard.press("ArrowDown")
    word = _active(page)["word"]
    page.keyboard.press("Enter")
    assert len(word) == 6 and _cells(page, 20, 26) == word
    # a clue typed (or clicked) still brings the cursor to its entry
    page.locator('#clues li[data-name="17A"] input').fill("A clue")
    assert page.inner_text("#slot-title").startswith("17A")
    page.keyboard.press("Escape")
    assert _active(page)["id"] == "grid"
    assert errors == []


def test_delete_bans_a_word_and_the_focus_stays_in_the_list(server, browser):
    page, errors = _open(browser, server)
    page.click('.cell[data-cell="15"]')
    _list_ready(page, "14A")
    page.keyboard.press("Alt+w")
    page.keyboard.press("ArrowDown")
    words = _words(page)
    banned = _active(page)["word"]
    assert banned == words[1]
    version = int(page.get_attribute("#suggestions", "data-version"))
    try:
        page.keyboard.press("Delete")
        assert _active(page) == {**_active(page), "inList": True, "word": words[2]}  # the next word
        page.wait_for_function(f"Number(document.getElementById('suggestions').dataset.version) > {version + 1}")
        page.wait_for_timeout(500)  # the list asked again (the ban changed the word list) and its labels drawn
        assert banned not in _words(page)
        here = _active(page)
        assert here["inList"] and here["word"], here  # still in the list, on a word, never on the page's body
        page.keyboard.press("ArrowDown")
        assert _active(page)["inList"]
    finally:
        page.evaluate(
            f"fetch('/api/words', {{ method: 'POST', headers: {{ 'Content-Type': 'application/json' }},"
            f" body: JSON.stringify({{ edits: [{{ word: '{banned}', remove: true }}] }}) }})"
        )
    assert errors == []


def test_test_solve_hides_the_answers(server, browser):
    page, errors = _open(browser, server + _filled_link({"1A": "Promotions"}))
    page.click('.cell[data-cell="14"]')  # 9A SWEATER
    assert "SWEATER" in page.inner_text("#slot-title")
    page.click("#solve-toggle")
    assert page.inner_text("#slot-title").strip() == "9A"
    fill_panel = page.inner_text("#panel-fill")
    for answer in ("SWEATER", "ADS", "HAIRNET"):
        assert answer not in fill_panel, fill_panel
    page.click('.cell[data-cell="0"]')
    assert page.inner_text("#slot-title").strip() in ("1A", "1D")
    page.get_by_role("tab", name="Stats").click()
    assert not page.is_visible("#stats") and page.is_visible("#stats-hidden")
    assert "Test-solve: the answers are hidden" in page.inner_text("#message")
    page.get_by_role("tab", name="Fill").click()
    assert not page.is_visible("#fill-all")  # autofill would type the answers in
    assert not page.is_visible("#suggest-filter")  # the constructor's filter can hint at an answer
    page.click("#solve-toggle")  # back to building: all of it again, and the solving hint gone
    assert page.is_visible("#fill-all")
    page.get_by_role("tab", name="Stats").click()
    assert page.is_visible("#stats")
    assert "Test-solve" not in page.inner_text("#message")
    page.get_by_role("tab", name="Fill").click()
    assert re.match(r"1[AD]\s+(ADS|ALS)$", page.inner_text("#slot-title").strip())
    assert errors == []


def _visible_words(page) -> int:
    return page.evaluate("""() => { const list = document.getElementById('suggestions'), box = list.getBoundingClientRect();
        return [...list.querySelectorAll('li[data-word]')].filter((li) => { const b = li.getBoundingClientRect();
            return b.top >= Math.max(0, box.top) - 1 && b.bottom <= Math.min(innerHeight, box.bottom) + 1; }).length; }""")


def test_a_wide_screen_shows_the_40_words_and_a_phone_the_grid_with_them(server, chromium):
    wide = chromium.new_context(viewport={"width": 1500, "height": 900})
    try:
        page, errors = _open(wide, server)
        page.click('.cell[data-cell="15"]')
        page.wait_for_function("document.querySelectorAll('#suggestions li[data-word]').length === 40")
        page.wait_for_timeout(300)
        _shot(page, "wide-1500.png")
        assert _visible_words(page) == 40
        assert page.evaluate("document.documentElement.scrollWidth") <= 1500
        assert errors == []
    finally:
        wide.close()
    phone = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page, errors = _open(phone, server)
        page.tap('.cell[data-cell="15"]')
        page.wait_for_function("document.querySelectorAll('#suggestions li[data-word]').length > 5")
        page.evaluate("window.scrollTo(0, document.getElementById('grid').getBoundingClientRect().top + scrollY - 4)")
        page.wait_for_timeout(200)
        _shot(page, "phone-390.png")
        grid_top, third_bottom = page.evaluate("""() => [document.getElementById('grid').getBoundingClientRect().top,
            document.querySelectorAll('#suggestions li[data-word]')[2].getBoundingClientRect().bottom]""")
        assert grid_top >= 0 and third_bottom <= 844, (grid_top, third_bottom)  # both on one screen
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert errors == []
    finally:
        phone.close()


def test_ipuz_keeps_theme_and_locks_and_puz_says_it_drops_them(server, browser, tmp_path):
    page, errors = _open(browser, server + _filled_link())
    page.click('.cell[data-cell="14"]')  # 9A SWEATER: a theme entry
    page.click("#theme-toggle")
    page.click('.cell[data-cell="0"]')  # 1A ADS: locked
    page.click("#lock-entry")
    locks = page.evaluate("window.xwcp.state.locks")
    assert locks == [0, 1, 2]
    with page.expect_download() as download:
        page.get_by_role("button", name=".ipuz", exact=True).click()
    saved = tmp_path / "theme.ipuz"
    download.value.save_as(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["org.xwcp:theme"] == ["9A"] and data["org.xwcp:locks"] == [[1, 1], [2, 1], [3, 1]]
    assert "warning" not in page.inner_text("#message")

    with page.expect_download():
        page.get_by_role("button", name=".puz", exact=True).click()
    page.wait_for_function("document.getElementById('message').textContent.includes('warning')")
    assert ".puz has no place for the 1 theme entry and 3 locked cells" in page.inner_text("#message")

    page.goto(server + "#new")
    page.wait_for_function("window.xwcp && window.xwcp.ready")
    page.get_by_label("Open puzzle file").set_input_files(str(saved))
    page.wait_for_function("window.xwcp.state.grid.width === 7")
    page.wait_for_function("window.xwcp.state.theme.length === 1")
    assert page.evaluate("window.xwcp.state.theme") == ["14A"]  # 9A's key: its first cell and direction
    assert page.evaluate("window.xwcp.state.locks") == [0, 1, 2]
    assert errors == []


def test_pattern_search_lists_matches_with_scores_and_enters_one(server, browser):
    page, errors = _open(browser, server)
    page.fill("#find-pattern", "a?c??")
    page.press("#find-pattern", "Enter")
    page.wait_for_function("document.querySelectorAll('#find-results li[data-word]').length > 0")
    found = page.eval_on_selector_all(
        "#find-results li[data-word]",
        "items => items.map(li => [li.dataset.word, li.querySelector('.score').textContent])",
    )
    assert len(found) > 5 and all(re.fullmatch("A.C..", word) for word, _ in found), found[:10]
    scores = [int(score) for _, score in found]
    assert scores == sorted(scores, reverse=True)  # the list's scores, best first
    assert re.search(r"\d+ words match A\?C\?\?", page.inner_text("#find-count"))
    assert len(found) == len({word for word, _ in found})
    # a match entered into a five-letter entry
    start = page.evaluate("window.xwcp.state.slots.find((s) => s.dir === 'A' && s.cells.length === 5).cells[0]")
    page.click(f'.cell[data-cell="{start}"]')
    page.locator("#find-results li[data-word]").nth(1).click()
    assert _cells(page, start, start + 5) == found[1][0]
    # by keys, and a pattern of no letter is said
    page.focus("#find-results")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.word") == found[0][0]
    page.fill("#find-pattern", "a?1")
    page.press("#find-pattern", "Enter")
    assert "1 is not a letter" in page.inner_text("#find-count")
    page.fill("#find-pattern", "abc")
    page.press("#find-pattern", "Enter")
    assert "needs a ?" in page.inner_text("#find-count")
    # Find with the box empty: the current entry's pattern (its letters, ? for its empty cells)
    page.click(f'.cell[data-cell="{start}"]')
    if page.evaluate("window.xwcp.state.dir") != "A":  # a click on the cursor's cell turns it
        page.keyboard.press("Enter")
    page.keyboard.press("Backspace")  # the entry's first letter erased: ?xxxx
    word = found[1][0]
    page.fill("#find-pattern", "")
    page.click("#find")
    assert page.input_value("#find-pattern") == "?" + word[1:]
    page.wait_for_function("document.getElementById('find-count').textContent.includes('match')")
    assert word in page.eval_on_selector_all("#find-results li[data-word]", "items => items.map(li => li.dataset.word)")
    assert errors == []


def test_top_bottom_and_diagonal_symmetry(server, browser):
    page, errors = _open(browser, server)
    got = page.evaluate("""async () => {
        const g = await import('/static/grid.js');
        const square = g.blankGrid(5, 5), wide = g.blankGrid(6, 4);
        return {
            tb: g.partners(square, 1, 'top-bottom'), diag: g.partners(square, 1, 'diagonal'),
            anti: g.partners(square, 1, 'anti-diagonal'), wideDiag: g.partners(wide, 1, 'diagonal'),
            wideTb: g.partners(wide, 7, 'top-bottom'),
            tbBars: [g.barPartners(square, '1R', 'top-bottom'), g.barPartners(square, '1B', 'top-bottom')],
            diagBars: [g.barPartners(square, '1R', 'diagonal'), g.barPartners(square, '5B', 'diagonal')],
            antiBars: [g.barPartners(square, '1R', 'anti-diagonal'), g.barPartners(square, '14B', 'anti-diagonal')],
            fits: [g.symmetryFits(square, 'diagonal'), g.symmetryFits(wide, 'anti-diagonal'), g.symmetryFits(wide, 'top-bottom')],
        };
    }""")
    assert got["tb"] == [21] and got["diag"] == [5] and got["anti"] == [19]  # (0,1) -> (4,1), (1,0), (3,4)
    assert got["wideDiag"] == [] and got["wideTb"] == [13]
    assert got["tbBars"] == [["21R"], ["16B"]]
    assert got["diagBars"] == [["5B"], ["1R"]] and got["antiBars"] == [["14B"], ["1R"]]
    assert got["fits"] == [True, False, True]

    page.check("input[name=mode][value=blocks]")
    page.select_option("#symmetry", "top-bottom")
    page.click('.cell[data-cell="16"]')  # row 1, column 1 -> row 13, column 1
    assert "block" in page.get_attribute(f'.cell[data-cell="{13 * 15 + 1}"]', "class")
    page.click("#undo")
    page.select_option("#symmetry", "diagonal")
    page.click('.cell[data-cell="18"]')  # row 1, column 3 -> row 3, column 1
    assert "block" in page.get_attribute(f'.cell[data-cell="{3 * 15 + 1}"]', "class")
    page.click("#undo")
    page.select_option("#symmetry", "rotational")
    page.check("input[name=mode][value=letters]")
    assert errors == []


def test_a_solve_link_opens_test_solve_without_the_answers(server, browser):
    page, errors = _open(browser, server + _filled_link({"9A": "Knitted top", "1A": "Promotions"}))
    fragment = page.evaluate("import('/static/solve.js').then((s) => s.solveLinkState().fragment)")
    for answer in ("SWEATER", "HAIRNET", "ADS"):
        assert answer not in fragment
    solver, solver_errors = _open(browser, server + "#" + fragment)
    assert solver.evaluate("window.xwcp.state.mode") == "solve"
    assert set(solver.evaluate("window.xwcp.state.grid.cells")) <= {"#", "."}  # the page holds no answer
    html = solver.content()
    assert "SWEATER" not in html and "HAIRNET" not in html
    assert solver.is_hidden("#solve-toggle") and solver.is_visible("#solve-check")
    solver.wait_for_function("window.xwcp.cluesByName()['9A'] !== undefined")  # the link's clues come after ready
    assert solver.evaluate("window.xwcp.cluesByName()['9A']") == "Knitted top"
    saved = solver.evaluate("localStorage.getItem('xwcp:index')") or "[]"
    solver.click('.cell[data-cell="14"]')
    solver.keyboard.type("SWEATER")
    solver.click('.cell[data-cell="0"]')
    if solver.evaluate("window.xwcp.state.dir") != "A":
        solver.keyboard.press("Enter")
    solver.keyboard.type("ADX")
    solver.click("#solve-check")
    status = solver.inner_text("#solve-status")
    assert status.startswith("1 entry right, 1 wrong (marked)"), status
    assert solver.evaluate("[...window.xwcp.state.solve.wrong].sort((a, b) => a - b)") == [0, 1, 2]
    assert (solver.evaluate("localStorage.getItem('xwcp:index')") or "[]") == saved  # not saved in this browser
    solver.click('.cell[data-cell="2"]')  # the X put right
    solver.keyboard.press("Backspace")
    solver.keyboard.type("S")
    solver.click("#solve-check")
    assert solver.inner_text("#solve-status").startswith("2 entries right, 0 wrong")
    assert errors == [] and solver_errors == []


def test_the_count_line_and_the_stale_warning_say_it_right(server, browser):
    page, errors = _open(browser, server + _filled_link({"1A": "Promotions"}))
    lines = page.evaluate("""async () => {
        const { countText } = await import('/static/help.js');
        const words = ['ABCDE', 'ABIDE', 'ADORE', 'AMPLE', 'ANGLE'].map((word) => ({ word, score: 50 }));
        const data = { slot: { pattern: 'A....', size: 5 }, words,
                       counts: { pattern: 5, survive: 5, checked: 5, complete: true } };
        const labels = (n) => new Map(words.slice(0, n).map((w) => [w.word, { verdict: 'viable' }]));
        return [3, 5].map((n) => countText({ data, counts: null, labels: labels(n), done: false, error: '' }));
    }""")
    assert "labelling 3/5…" in lines[0] and "so far" in lines[0]
    assert "labelling" not in lines[1] and "so far" not in lines[1], lines[1]  # all five labelled
    page.click('.cell[data-cell="0"]')
    page.keyboard.type("Q")  # 1A's letters changed: its clue is stale
    with page.expect_download():
        page.get_by_role("button", name=".puz", exact=True).click()
    page.wait_for_function("document.getElementById('message').textContent.includes('warning')")
    assert "1 clue no longer matches its entry (1A)" in page.inner_text("#message")
    assert errors == []
