"""The builder's editing rough edges of issue 35 (items 3, 4, 5 and 7) in Debian's chromium: clear a region or the
whole fill, locks apart from theme entries, clues that follow their answers (stale after a refill, the save's
warning, undo, the clue memory), one-page print with and without answers (two for a 21x21), quality autofill drawing
each better fill, and a share link that keeps the title, author, theme entries, locks and clues.

Needs chromium and playwright, as tests/web/test_browser.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

import xwcp  # noqa: E402
from tests.helpers import entries_of  # noqa: E402
from tests.web.test_browser import _open, _shown_rows  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402

PUZ = Path(__file__).resolve().parents[1] / "data" / "formats" / "xwcp-15x15-clued.puz"


@pytest.fixture(scope="module")
def browser(chromium):
    """This module's desktop context (a fresh one per module, from conftest's `chromium`)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True)
    yield context
    context.close()


def _cells(page) -> list[str]:
    return page.evaluate("window.xwcp.state.grid.cells")


def _drag(page, first: int, last: int) -> None:
    """Select the region from cell `first` to cell `last` with the mouse."""
    a = page.locator(f'.cell[data-cell="{first}"]').bounding_box()
    b = page.locator(f'.cell[data-cell="{last}"]').bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=4)
    page.mouse.up()


def _type_at(page, cell: int, text: str, direction: str = "A") -> None:
    page.click(f'.cell[data-cell="{cell}"]')
    if page.evaluate("window.xwcp.state.dir") != direction:
        page.keyboard.press("Enter")
    page.keyboard.type(text, delay=10)


def test_clear_region_and_whole_fill_keep_blocks_theme_and_locks(server, browser):
    page, errors = _open(browser, server)
    _type_at(page, 15, "WARE")  # 14A, made a theme entry
    page.click('.cell[data-cell="15"]')
    page.get_by_role("button", name="Theme entry").click()
    _type_at(page, 30, "ELL")  # row 2 (17A starts at cell 30): E L L, the middle one locked below
    _type_at(page, 5, "ABCDE")  # 5A, row 0 from column 5
    # lock cells 31 and 32: a region dragged over them, then Lock
    _drag(page, 31, 32)
    page.get_by_role("button", name="Lock").click()
    assert page.evaluate("window.xwcp.state.locks") == [31, 32]
    assert "locked" in page.get_attribute('.cell[data-cell="31"]', "class")
    blocks = [i for i, x in enumerate(_cells(page)) if x == "#"]

    # the region over rows 0-2, columns 0-3: the theme letters and the lock stay, the rest of it goes
    _drag(page, 0, 33)
    page.get_by_role("button", name="Clear selection").click()
    cells = _cells(page)
    assert "".join(cells[15:19]) == "WARE" and cells[31] == "L" and cells[32] == "L"
    assert cells[30] == "."
    assert "".join(cells[5:10]) == "ABCDE"  # outside the region
    assert "kept" in page.inner_text("#message")

    # the whole fill: every letter but the theme entry's and the lock's; blocks as they were
    page.get_by_role("button", name="Clear fill").click()
    cells = _cells(page)
    letters = {i: x for i, x in enumerate(cells) if x not in ("#", ".")}
    assert letters == {15: "W", 16: "A", 17: "R", 18: "E", 31: "L", 32: "L"}
    assert [i for i, x in enumerate(cells) if x == "#"] == blocks
    page.keyboard.press("Control+z")
    assert "".join(_cells(page)[5:10]) == "ABCDE"  # one undo brings the whole fill back
    assert errors == []


def test_lock_is_not_theme_and_autofill_keeps_both(server, browser):
    page, errors = _open(browser, server)
    _type_at(page, 15, "WARE")
    page.click('.cell[data-cell="15"]')
    page.get_by_role("button", name="Theme entry").click()
    _type_at(page, 0, "STAB")  # 1A, locked (the whole entry: no region selected)
    page.click('.cell[data-cell="0"]')
    page.get_by_role("button", name="Lock").click()
    assert page.get_attribute("#lock-entry", "aria-pressed") == "true"
    assert page.evaluate("window.xwcp.state.locks") == [0, 1, 2, 3]
    assert page.evaluate("window.xwcp.state.theme") == ["15A"]

    # Backspace steps over the locked letters: from 1D's third cell (30) up past 15 (theme) and 0 (lock): nothing
    # before them, so nothing is erased; from 2A's... typed over a lock, a letter goes to the next free cell
    page.click('.cell[data-cell="45"]')
    if page.evaluate("window.xwcp.state.dir") != "D":
        page.keyboard.press("Enter")
    page.keyboard.type("Q")  # 45 in 1D (0, 15, 30, 45): Q
    page.keyboard.press("Backspace")  # erases Q
    page.keyboard.press("Backspace")  # 45 empty: back to 30 (empty, free): erased there, cursor on 30
    assert page.evaluate("window.xwcp.state.cell") == 30
    page.keyboard.press("Backspace")  # 30 empty: back over 15 (theme W) and 0 (lock S): none free, stays
    assert page.evaluate("window.xwcp.state.cell") == 30
    assert "".join(_cells(page)[0:4]) == "STAB" and _cells(page)[15] == "W"
    page.click('.cell[data-cell="1"]')
    if page.evaluate("window.xwcp.state.dir") != "A":
        page.keyboard.press("Enter")
    page.keyboard.press("Backspace")  # on a locked letter: stepped over to 0, locked too: nothing erased
    assert "".join(_cells(page)[0:4]) == "STAB"

    # statistics: the theme entry alone is theme; the lock is counted as locked
    page.get_by_role("tab", name="Stats").click()
    page.wait_for_function("document.getElementById('stat-theme').textContent.includes('WARE')")
    theme = page.inner_text("#stat-theme")
    assert "14A WARE" in theme and "STAB" not in theme
    assert page.inner_text("#stat-locks") == "4"
    page.get_by_role("tab", name="Fill").click()

    # autofill and reroll keep both: the letters go to the server as given letters
    for button in ("Autofill", "Reroll"):
        page.get_by_role("button", name=button, exact=True).click()
        page.wait_for_selector("#progress[data-status]", timeout=60_000)
        assert page.get_attribute("#progress", "data-status") == "filled", page.inner_text("#progress")
        shown = _shown_rows(page)
        assert shown[0][:4] == "STAB" and shown[1][:4] == "WARE"
        rows = page.evaluate("window.xwcp.state.grid.cells.join('')")
        problem = xwcp.compile_problem(
            xwcp.parse_grid("\n".join(rows[r * 15 : (r + 1) * 15] for r in range(15))), xwcp.load_word_list()
        )
        assert check_fill(problem, entries_of(problem, shown)) == []
    page.get_by_role("button", name="Accept").click()
    assert "".join(_cells(page)[0:4]) == "STAB" and "".join(_cells(page)[15:19]) == "WARE"

    # the printed key shades theme cells only
    page.check("#print-answers")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert page.locator(".answer-key .print-grid .t").count() == 4
    assert errors == []


def _stale_names(page) -> set[str]:
    return set(page.eval_on_selector_all("#clues li.stale", "items => items.map(li => li.dataset.name)"))


def _open_puz(page) -> None:
    page.get_by_label("Open puzzle file").set_input_files(str(PUZ))
    page.wait_for_function("document.querySelectorAll('#clues input').length === 76")
    page.wait_for_function("Object.keys(window.xwcp.cluesByName()).length === 76")


def test_a_clue_goes_stale_when_its_answer_changes(server, browser, tmp_path):
    page, errors = _open(browser, server)
    _open_puz(page)
    assert _stale_names(page) == set()
    before = _cells(page)

    # erase a corner and refill it: every clue whose entry's letters changed is flagged, the others not
    _drag(page, 0, 2 * 15 + 3)
    page.get_by_role("button", name="Clear selection").click()
    erased = _stale_names(page)
    assert {"1A", "1D"} <= erased
    page.get_by_role("button", name="Fill selection").click()
    page.wait_for_selector("#progress[data-status]", timeout=60_000)
    assert page.get_attribute("#progress", "data-status") == "filled", page.inner_text("#progress")
    page.get_by_role("button", name="Accept").click()
    after = _cells(page)
    slots = page.evaluate("window.xwcp.state.slots.map(s => [s.name, s.cells])")
    changed = {name for name, cells in slots if any(before[c] != after[c] for c in cells)}
    assert _stale_names(page) == changed

    # typed over: 1A's first letter replaced flags 1A and 1D; the statistics count them; the save warns; undo clears
    page.keyboard.press("Control+z")  # the refill's Accept
    page.keyboard.press("Control+z")  # the clear
    assert _stale_names(page) == set() and _cells(page) == before
    first = before[0]
    _type_at(page, 0, "Q" if first != "Q" else "Z")
    assert _stale_names(page) == {"1A", "1D"}
    assert "changed" in page.inner_text('#clues li[data-name="1A"]')
    assert "2 stale" in page.inner_text("#clue-count")
    page.get_by_role("tab", name="Stats").click()
    assert page.inner_text("#stat-stale") == "2"
    page.get_by_role("tab", name="Fill").click()
    with page.expect_download():
        page.get_by_role("button", name=".puz", exact=True).click()
    page.wait_for_function("document.getElementById('message').textContent.includes('warning')")
    assert "2 clues no longer match their entries (1A, 1D" in page.inner_text("#message")
    page.locator("#grid").focus()
    page.keyboard.press("Control+z")
    assert _stale_names(page) == set()
    # rewriting the clue binds it to the new letters
    _type_at(page, 0, "Q" if first != "Q" else "Z")
    page.locator('#clues li[data-name="1A"] input').fill("A new clue")
    assert _stale_names(page) == {"1D"}
    assert errors == []


def test_clue_memory_offers_a_clue_written_before(server, browser):
    page, errors = _open(browser, server)
    _open_puz(page)  # a file opened: its clues are remembered by answer
    cells = _cells(page)
    one_across = "".join(cells[0:4]) if cells[4] == "#" else None
    clue = page.evaluate("window.xwcp.cluesByName()['1A']")
    answer = page.evaluate(
        "window.xwcp.state.slots.find(s => s.name === '1A').cells.map(c => window.xwcp.state.grid.cells[c]).join('')"
    )
    assert one_across is None or one_across == answer
    page.goto(server + "#new")
    page.wait_for_function("window.xwcp && window.xwcp.ready")
    page.select_option("#preset", "15x15-daily-01")
    slot = page.evaluate(f"window.xwcp.state.slots.find(s => s.cells.length === {len(answer)} && s.dir === 'A').name")
    start = page.evaluate(f"window.xwcp.state.slots.find(s => s.name === '{slot}').cells[0]")
    _type_at(page, start, answer)
    offer = page.locator(f'#clues li[data-name="{slot}"] button.memory')
    assert offer.is_visible() and clue in offer.inner_text()
    offer.click()
    assert page.evaluate(f"window.xwcp.cluesByName()['{slot}']") == clue
    assert not offer.is_visible()
    assert errors == []


def _print_answers(page, on: bool) -> None:
    """The "with answers" switch (set directly: the toolbar is hidden in print media)."""
    page.evaluate(f"document.getElementById('print-answers').checked = {'true' if on else 'false'}")


def _pdf_pages(page, paper: str) -> int:
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    pdf = page.pdf(format=paper)
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_print_fits_one_page_with_or_without_answers_and_a_21x21_two(server, browser):
    page, errors = _open(browser, server)
    _open_puz(page)
    page.emulate_media(media="print")
    for answers in (False, True):
        _print_answers(page, answers)
        for paper in ("Letter", "A4"):
            assert _pdf_pages(page, paper) == 1, (paper, answers)
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        assert (page.locator(".answer-key").count() == 1) == answers
        assert page.locator("#print-view .clue-lists li").count() == 76
    page.emulate_media(media="screen")

    # a 21x21 with a clue for every entry: two pages
    page.select_option("#preset", "21x21-sunday-01")
    page.wait_for_function("window.xwcp.state.grid.width === 21")
    page.evaluate("""async () => {
        const { setClue, state } = await import('/static/state.js');
        for (const slot of state.slots) setClue(slot, 'A clue of about the usual length here');
    }""")
    page.emulate_media(media="print")
    _print_answers(page, False)
    for paper in ("Letter", "A4"):
        assert _pdf_pages(page, paper) == 2, paper
    page.emulate_media(media="screen")
    assert errors == []


def test_share_link_keeps_title_author_theme_locks_and_clues(server, browser, chromium):
    page, errors = _open(browser, server)
    _type_at(page, 15, "WARE")
    page.click('.cell[data-cell="15"]')
    page.get_by_role("button", name="Theme entry").click()
    _type_at(page, 0, "STAB")
    page.click('.cell[data-cell="0"]')
    page.get_by_role("button", name="Lock").click()
    page.locator('#clues li[data-name="14A"] input').fill("Goods for sale")
    page.get_by_role("tab", name="Puzzle").click()
    page.get_by_role("textbox", name="Title").fill("Shared & sound #1")
    page.get_by_role("textbox", name="Author").fill("A. Constructor")
    page.click("#share")
    assert "not the undo history" in page.inner_text("#message")
    link = page.url
    fresh = chromium.new_context(viewport={"width": 1280, "height": 860})  # nothing saved: the link alone
    try:
        other, other_errors = _open(fresh, link)
        got = other.evaluate("""() => ({ meta: window.xwcp.state.meta, theme: window.xwcp.state.theme,
            locks: window.xwcp.state.locks, clues: window.xwcp.cluesByName(),
            cells: window.xwcp.state.grid.cells.join('') })""")
        assert got["meta"]["title"] == "Shared & sound #1" and got["meta"]["author"] == "A. Constructor"
        assert got["theme"] == ["15A"] and got["locks"] == [0, 1, 2, 3]
        assert got["clues"] == {"14A": "Goods for sale"}
        assert got["cells"] == page.evaluate("window.xwcp.state.grid.cells.join('')")
        assert other_errors == []
    finally:
        fresh.close()
    assert errors == []


def test_quality_autofill_drops_the_old_pencil_and_draws_each_better_fill(server, browser):
    page, errors = _open(browser, server)
    frames: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: frames.append(json.loads(data))))
    page.get_by_role("button", name="Autofill", exact=True).click()
    page.wait_for_selector("#progress[data-status]", timeout=60_000)
    assert "pencil" in (page.get_attribute('.cell[data-cell="0"] .letter', "class") or "")
    page.check("#quality")
    page.fill("#time-limit", "4")
    frames.clear()
    # the old pencil goes the moment the new fill starts, not when it ends
    pencils = page.evaluate("""() => { document.getElementById('fill-all').click();
        return document.querySelectorAll('#grid .letter.pencil').length; }""")
    assert pencils == 0
    seen = []
    page.wait_for_function(
        "document.querySelector('#progress').textContent.includes('best fill so far')", timeout=30_000
    )
    seen.append(_shown_rows(page))
    page.wait_for_selector("#progress[data-status]", timeout=60_000)
    assert page.get_attribute("#progress", "data-status") == "filled", page.inner_text("#progress")
    best = [f for f in frames if f.get("type") == "progress" and f.get("best")]
    assert best, "no better fill was streamed"
    rows = page.evaluate("window.xwcp.state.grid.cells.join('')")
    grid_rows = ["".join(rows[r * 15 : (r + 1) * 15]) for r in range(15)]
    problem = xwcp.compile_problem(xwcp.parse_grid("\n".join(grid_rows)), xwcp.load_word_list())
    for frame in best:
        assert check_fill(problem, entries_of(problem, frame["grid"])) == []
    assert seen[0] in [f["grid"] for f in best]  # what the page drew was one of the streamed fills
    assert errors == []


def test_an_edit_just_before_another_puzzle_opens_is_saved(server, browser):
    """The autosave waits for a pause (250 ms); a puzzle opened inside that pause saved the old one first."""
    page, errors = _open(browser, server)
    page.click('.cell[data-cell="15"]')
    page.evaluate("""() => { const grid = document.getElementById('grid');
        grid.dispatchEvent(new KeyboardEvent('keydown', { key: 'Q', bubbles: true }));
        const preset = document.getElementById('preset');
        preset.value = '7x7-mini';
        preset.dispatchEvent(new Event('change', { bubbles: true })); }""")
    page.wait_for_function("window.xwcp.state.grid.width === 7")
    page.get_by_role("tab", name="Saved").click()
    page.locator("#saved-list li").filter(has_text="15x15").first.get_by_role("button", name="Open").click()
    page.wait_for_function("window.xwcp.state.grid.width === 15")
    assert page.evaluate("window.xwcp.state.grid.cells[15]") == "Q"
    assert errors == []


def test_clue_memory_starts_from_the_puzzles_saved_in_this_browser(server, chromium):
    fresh = chromium.new_context(viewport={"width": 1280, "height": 860})
    try:
        page, errors = _open(fresh, server)
        # a puzzle saved here before the memory existed: 1A CAT clued, 1D CUP clued for other letters (stale)
        page.evaluate("""() => {
            localStorage.removeItem('xwcp:clue-memory');
            const grid = { width: 3, height: 3, cells: ['C', 'A', 'T', 'U', '#', '#', 'B', '#', '#'], bars: [], marks: {},
                           numbers: null };
            localStorage.setItem('xwcp:puzzle:pold', JSON.stringify({ version: 1, id: 'pold', grid,
                clues: { '0A': 'Feline', '0D': 'Mug' }, clueAnswers: { '0A': ['C', 'A', 'T'], '0D': ['C', 'U', 'P'] },
                theme: [], meta: {}, history: [], future: [] }));
        }""")
        page.reload()
        page.wait_for_function("window.xwcp && window.xwcp.ready")
        _type_at(page, 12, "CAT")  # 11A of the default 15x15 (cells 12-14)
        offer = page.locator('#clues li[data-name="11A"] button.memory')
        assert offer.is_visible() and "Feline" in offer.inner_text()
        assert page.evaluate("JSON.parse(localStorage.getItem('xwcp:clue-memory')).CUB") is None  # the stale one
        assert errors == []
    finally:
        fresh.close()
