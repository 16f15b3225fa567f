"""The web builder in a real browser (Debian's chromium driven by playwright): edit, live help, autofill, share;
files, clues, statistics, the personal word list, saved work, theme entries, test-solve and print (issue 24).

Needs chromium (`.ci/install-browser.sh`) and playwright's Python package; where either is
missing the test is skipped with a message that says so. Playwright's own browser download is
never used: the test points it at the system chromium.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

import xwcp  # noqa: E402
from tests.helpers import entries_of  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402


def _open(context, url):
    """A page on `url`; a bare server URL gets `#new` (the default preset, not the puzzle an earlier test left)."""
    if "#" not in url:
        url += "#new"
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_function("window.xwcp && window.xwcp.ready")
    return page, errors


def _shown_rows(page) -> list[str]:
    """The grid as the page shows it: '#' for a block, the letter drawn in the cell (entered or pencil), else '.'."""
    return page.evaluate("""() => {
        const s = window.xwcp.state, rows = [];
        const cells = [...document.querySelectorAll('#grid .cell')].map((div) =>
            div.classList.contains('block') ? '#' : (div.querySelector('.letter').textContent || '.'));
        const w = s.grid.width;
        for (let r = 0; r < s.grid.height; r++) rows.push(cells.slice(r * w, (r + 1) * w).join(''));
        return rows;
    }""")


def _suggestions(page) -> list[str]:
    return page.eval_on_selector_all("#suggestions li[data-word]", "items => items.map(li => li.dataset.word)")


def _wait_suggestions_after(page, version: int) -> None:
    page.wait_for_function(f"Number(document.getElementById('suggestions').dataset.version) > {version}")


def test_builder_in_a_real_browser(server, browser):
    page, errors = _open(browser, server)
    width = page.evaluate("window.xwcp.state.grid.width")
    assert width == 15  # the default preset: 15x15-daily-01

    # a block toggled by a click gets its rotational partner
    page.check("input[name=mode][value=blocks]")
    cell, partner = 1 * 15 + 1, 13 * 15 + 13
    page.click(f'.cell[data-cell="{cell}"]')
    assert "block" in page.get_attribute(f'.cell[data-cell="{partner}"]', "class")
    page.click("#undo")
    assert "block" not in page.get_attribute(f'.cell[data-cell="{partner}"]', "class")
    page.select_option("#symmetry", "mirror")  # left-right partner: row 1, column 13
    page.click(f'.cell[data-cell="{cell}"]')
    assert "block" in page.get_attribute(f'.cell[data-cell="{1 * 15 + 13}"]', "class")
    assert "block" not in page.get_attribute(f'.cell[data-cell="{partner}"]', "class")
    page.click("#undo")
    page.select_option("#symmetry", "rotational")
    page.check("input[name=mode][value=letters]")

    # typing a word changes the live suggestions, which keep fitting the pattern
    page.click('.cell[data-cell="15"]')  # 14A, row 2
    page.wait_for_function("document.querySelectorAll('#suggestions li[data-word]').length > 0")
    page.wait_for_timeout(300)
    before = _suggestions(page)
    version = int(page.get_attribute("#suggestions", "data-version"))
    page.keyboard.type("WARE", delay=30)
    page.wait_for_function("document.getElementById('slot-title').textContent.includes('WARE')")
    _wait_suggestions_after(page, version)
    page.wait_for_timeout(300)  # the last keystroke's answer
    after = _suggestions(page)
    assert after and after != before
    assert after == ["WARE"] or all(w.endswith("ARE") for w in after)
    typed_rows = page.evaluate("window.xwcp.state.grid.cells.join('')")
    typed_rows = [typed_rows[r * 15 : (r + 1) * 15] for r in range(15)]
    assert typed_rows[1].startswith("WARE")

    # autofill runs to the end; the grid shown is a valid fill around the typed word
    page.click("#fill-all")
    page.wait_for_selector("#progress[data-status]", timeout=60_000)
    assert page.get_attribute("#progress", "data-status") == "filled", page.inner_text("#progress")
    shown = _shown_rows(page)
    problem = xwcp.compile_problem(xwcp.parse_grid("\n".join(typed_rows)), xwcp.load_word_list())
    assert check_fill(problem, entries_of(problem, shown)) == []
    assert page.inner_text("#progress").endswith("accept or reroll")
    page.click("#accept")
    assert _shown_rows(page) == shown
    assert page.inner_text("#progress").endswith("accepted (Ctrl+Z undoes)")  # the line no longer asks
    page.click('.cell[data-cell="15"]')
    _clue_box(page, 14, "Across").fill("Goods for sale")

    # the print view: the grid's numbers and the clue lists, nothing of the editor
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert page.is_visible("#print-view") and not page.is_visible("#grid")
    assert "Goods for sale (4)" in page.inner_text("#print-view")
    page.emulate_media(media="screen")

    # the URL carries the state (Share writes it at once; the autosave keeps it current): a new page opened on
    # it shows the same grid
    page.click("#share")
    other, other_errors = _open(browser, page.url)
    assert _shown_rows(other) == shown
    assert other.evaluate("window.xwcp.cluesByName()['14A']") == "Goods for sale"
    assert errors == [] and other_errors == []
    print("keystroke to updated suggestions (ms):", [round(t) for t in page.evaluate("window.xwcp.helpTimes")])


def test_page_numbers_slots_as_the_library_does(server, browser):
    """The page names slots itself (for suggestions and clues): on every preset and an unchecked-cell grid
    its names and cells are the library's."""
    page, errors = _open(browser, server)
    grids = [p["rows"] for p in page.evaluate("fetch('/api/presets').then(r => r.json())")]
    grids.append(["#....", "..#..", ".....", "..#..", "....#"])
    for rows in grids:
        page_slots = page.evaluate(
            """async (rows) => {
            const { findSlots, fromRows } = await import('/static/grid.js');
            return findSlots(fromRows(rows)).slots.map((s) => [s.name, s.cells]);
        }""",
            rows,
        )
        library_slots = [[s.name, list(s.cells)] for s in xwcp.find_slots(xwcp.parse_grid("\n".join(rows)))]
        assert page_slots == library_slots, rows
    assert errors == []


# ----- the constructor's workbench (issue 24) ---------------------------------------------------------

PUZ = Path(__file__).resolve().parents[1] / "data" / "formats" / "xwcp-15x15-clued.puz"


def _clue_box(page, number: int, direction: str):
    clues = page.get_by_role("region", name="Clues")
    return clues.get_by_role("textbox", name=f"{number} {direction} clue", exact=True)


def _stat(page, name: str) -> str:
    page.get_by_role("tab", name="Stats").click()
    return page.get_by_role("region", name="Statistics").locator(f'[data-stat="{name}"]').inner_text()


def _wait_stats(page, name: str, value: str) -> None:
    page.get_by_role("tab", name="Stats").click()
    page.wait_for_function(f"""document.querySelector('#stats [data-stat="{name}"]').textContent === '{value}'""")


def test_open_edit_reload_download_and_ban(server, browser, tmp_path):
    """The issue's "done when": a real .puz opened through the page, its clues and statistics, a clue edited,
    a reload that keeps the edit, the .puz downloaded and read back with puzpy, a suggested word banned."""
    import puz
    from playwright.sync_api import expect

    page, errors = _open(browser, server)
    page.get_by_label("Open puzzle file").set_input_files(str(PUZ))
    clues = page.get_by_role("region", name="Clues").get_by_role("textbox")
    page.wait_for_function("document.querySelectorAll('#clues input').length === 76")
    assert clues.count() == 76
    original = puz.read(str(PUZ))
    assert original.clues[0] == "Stereo of old, for short"
    # waited for, not read at once: the boxes can exist a moment before the file's clues are in them
    expect(_clue_box(page, 1, "Across")).to_have_value(original.clues[0], timeout=20_000)
    expect(_clue_box(page, 47, "Down")).to_have_value("Actor Dennis of 'Easy Rider'", timeout=20_000)
    _wait_stats(page, "words", "76")
    assert _stat(page, "blocks") == "38" and _stat(page, "unchecked") == "0"
    page.get_by_role("tab", name="Puzzle").click()
    assert page.get_by_role("textbox", name="Title", exact=True).input_value() == "Workbench Test 15"

    # edit a clue in place: the cursor follows it into the grid
    box = _clue_box(page, 14, "Across")
    box.fill("Duty, so to speak")
    assert page.evaluate("window.xwcp.state.cell") == 15 and "current" in page.get_attribute(
        '#clues li[data-name="14A"]', "class"
    )
    page.wait_for_timeout(400)  # the autosave's pause

    # a reload brings back everything, from this browser's storage
    grid_before = page.evaluate("window.xwcp.state.grid.cells.join('')")
    page.reload()
    page.wait_for_function("window.xwcp && window.xwcp.ready")
    page.wait_for_function("document.querySelectorAll('#clues input').length === 76")
    expect(_clue_box(page, 14, "Across")).to_have_value("Duty, so to speak", timeout=20_000)
    assert page.evaluate("window.xwcp.state.grid.cells.join('')") == grid_before
    assert page.evaluate("window.xwcp.state.meta.title") == "Workbench Test 15"

    # download the .puz and read it back with puzpy: the edited clue, the same grid
    with page.expect_download() as download_info:
        page.get_by_role("button", name=".puz", exact=True).click()
    saved = tmp_path / download_info.value.suggested_filename
    download_info.value.save_as(saved)
    assert saved.name == "workbench-test-15.puz"
    back = puz.read(str(saved))
    assert back.solution == original.solution and back.width == 15
    assert (
        back.clues[[i for i, c in enumerate(original.clues) if c == "Burden of responsibility"][0]]
        == "Duty, so to speak"
    )
    assert sum(a != b for a, b in zip(back.clues, original.clues)) == 1 and back.title == original.title

    # ban a suggested word: gone from the suggestions, kept in the personal list on the server
    page.get_by_role("tab", name="Fill").click()
    page.select_option("#preset", "15x15-daily-01")
    page.wait_for_function(
        "document.querySelectorAll('#clues input').length === 76 && !document.querySelector('#clues input').value"
    )
    page.click('.cell[data-cell="15"]')  # 14A, empty
    page.wait_for_function("document.querySelectorAll('#suggestions li[data-word]').length > 10")
    page.wait_for_timeout(300)
    word = _suggestions(page)[0]
    version = int(page.get_attribute("#suggestions", "data-version"))
    page.get_by_role("button", name=f"Ban {word}").click()
    _wait_suggestions_after(page, version)
    page.wait_for_function(f"!document.querySelector('#suggestions li[data-word=\"{word}\"]')")
    page.wait_for_timeout(300)
    assert word not in _suggestions(page) and len(_suggestions(page)) > 10
    personal = page.evaluate("fetch('/api/words').then(r => r.json())")
    assert {"word": word, "score": 0} == {k: v for k, v in personal["entries"][0].items() if k != "listed"}
    page.get_by_role("tab", name="Word list").click()
    page.get_by_role("button", name=f"Unban {word}").click()
    page.get_by_role("tab", name="Fill").click()
    page.wait_for_function(f"!!document.querySelector('#suggestions li[data-word=\"{word}\"]')")
    assert errors == []


def test_theme_entries_saved_puzzles_solve_and_print(server, browser):
    page, errors = _open(browser, server)
    page.click('.cell[data-cell="15"]')
    page.keyboard.type("WARE", delay=20)
    page.click('.cell[data-cell="15"]')
    page.get_by_role("button", name="Theme entry").click()
    assert page.get_attribute("#theme-toggle", "aria-pressed") == "true"
    assert "theme" in page.get_attribute('.cell[data-cell="16"]', "class")
    # locked: typing over it and blocks on it are refused, with a message
    page.click('.cell[data-cell="16"]')
    page.keyboard.press("X")
    assert page.evaluate("window.xwcp.state.grid.cells[16]") == "A" and "theme entry" in page.inner_text("#message")
    page.keyboard.press("Backspace")
    assert page.evaluate("window.xwcp.state.grid.cells[16]") == "A"
    # Backspace in the empty cell below steps back over the theme entry's letter (issue 35) to the cell above it,
    # and the cursor is drawn on the cell it stepped to (the next key goes where the page shows)
    page.click('.cell[data-cell="31"]')
    if page.evaluate("window.xwcp.state.dir") != "D":
        page.keyboard.press("Enter")
    assert page.evaluate("window.xwcp.state.grid.cells[31]") == "."
    page.keyboard.press("Backspace")
    assert page.evaluate("window.xwcp.state.cell") == 1 and page.evaluate("window.xwcp.state.grid.cells[16]") == "A"
    assert "current" in page.get_attribute('.cell[data-cell="1"]', "class")
    assert "current" not in page.get_attribute('.cell[data-cell="31"]', "class")
    page.click('.cell[data-cell="16"]')
    page.keyboard.press("Enter")  # back to across, as the rest of the test types
    page.keyboard.press(" ")
    assert page.evaluate("window.xwcp.state.grid.cells[16]") == "A"
    _wait_stats(page, "complete", "1")
    theme_list = page.get_by_role("region", name="Statistics").locator("#stat-theme").inner_text()
    assert "14A WARE (4)" in theme_list
    page.get_by_role("tab", name="Fill").click()

    # undo history and the theme come back after a reload
    page.wait_for_timeout(400)
    page.reload()
    page.wait_for_function("window.xwcp && window.xwcp.ready")
    assert page.evaluate("window.xwcp.state.theme") == ["15A"]
    assert page.evaluate("window.xwcp.state.history.length") == 5  # four letters and the theme mark
    page.locator("#grid").focus()
    page.keyboard.press("Control+z")  # the theme mark
    assert page.evaluate("window.xwcp.state.theme") == []
    page.keyboard.press("Control+y")

    # a second puzzle, then the first one reopened from the Saved list and the second deleted
    page.select_option("#preset", "7x7-mini")
    page.wait_for_function("window.xwcp.state.grid.width === 7")
    page.get_by_role("tab", name="Saved").click()
    saved = page.locator("#saved-list li")
    assert saved.count() >= 2
    page.locator("#saved-list li").filter(has_text="15x15").first.get_by_role("button", name="Open").click()
    page.wait_for_function("window.xwcp.state.grid.width === 15")
    assert page.evaluate("window.xwcp.state.grid.cells.slice(15, 19).join('')") == "WARE"
    mini = page.locator("#saved-list li").filter(has_text="7x7").first
    n_before = saved.count()
    mini.get_by_role("button", name="Delete").click()
    mini.get_by_role("button", name="Really delete").click()
    page.wait_for_function(f"document.querySelectorAll('#saved-list li').length === {n_before - 1}")

    # test-solve: the grid blanked, a wrong answer marked by Check, back to building unchanged
    page.get_by_role("button", name="Test-solve").click()
    assert _shown_rows(page)[1][:4] == "...."
    page.click('.cell[data-cell="15"]')
    if page.evaluate("window.xwcp.state.dir") != "A":  # a click on the cursor's own cell turns it
        page.keyboard.press("Enter")
    page.keyboard.type("WAXE", delay=20)
    page.get_by_role("button", name="Check").click()
    assert "wrong" in page.get_attribute('.cell[data-cell="17"]', "class")
    assert "1 wrong" in page.inner_text("#solve-status")
    page.get_by_role("button", name="Back to building").click()
    assert _shown_rows(page)[1][:4] == "WARE"

    # print: the clues and an answer key with the letters
    _clue_box(page, 14, "Across").fill("Goods")
    page.check("#print-answers")  # the answer key is a choice (issue 35), off by default
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    text = page.inner_text("#print-view")
    assert "Goods (4)" in text and "Answers" in text
    assert page.locator(".answer-key .print-grid .l").count() == 4  # WARE, the letters entered
    page.emulate_media(media="screen")
    assert errors == []


def test_a_file_dropped_on_the_page_opens(server, browser):
    page, errors = _open(browser, server)
    text = (Path(__file__).resolve().parents[1] / "data" / "formats" / "spec-example.xd").read_text()
    page.evaluate(
        """(text) => {
        const data = new DataTransfer();
        data.items.add(new File([text], 'dropped.xd', { type: 'text/plain' }));
        for (const type of ['dragenter', 'dragover', 'drop']) {
            document.body.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: data }));
        }
    }""",
        text,
    )
    page.wait_for_function("document.getElementById('message').textContent.startsWith('opened dropped.xd')")
    from xwcp.formats import read_puzzle

    expected = read_puzzle(Path(__file__).resolve().parents[1] / "data" / "formats" / "spec-example.xd")
    assert page.evaluate("window.xwcp.state.grid.width") == expected.grid.width
    assert page.evaluate("window.xwcp.cluesByName()") == expected.clue_by_slot
    # a file the readers refuse is a message, the puzzle stays
    page.evaluate("""() => {
        const data = new DataTransfer();
        data.items.add(new File(['not a puzzle'], 'broken.puz'));
        document.body.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: data }));
    }""")
    page.wait_for_function("document.getElementById('message').textContent.startsWith('cannot open broken.puz')")
    assert page.inner_text("#message").count("broken.puz") == 1  # the server's line names it already
    assert page.evaluate("window.xwcp.state.grid.width") == expected.grid.width
    assert errors == []


def test_a_failed_server_answer_is_a_message_not_a_frozen_page(server, browser):
    page, errors = _open(browser, server)
    overloaded = '{"error": "the server is overloaded", "status": 503}'
    page.route(
        "**/api/suggest", lambda route: route.fulfill(status=503, content_type="application/json", body=overloaded)
    )
    page.click('.cell[data-cell="17"]')
    page.wait_for_function("document.getElementById('message').textContent.includes('overloaded')")
    page.unroute("**/api/suggest")
    page.route("**/api/suggest", lambda route: route.abort())
    page.click('.cell[data-cell="75"]')  # 26A, another slot
    page.wait_for_function("document.getElementById('message').textContent.includes('does not answer')")
    page.unroute("**/api/suggest")
    page.click('.cell[data-cell="15"]')  # and it still works
    page.keyboard.type("A")
    page.wait_for_function("document.querySelectorAll('#suggestions li[data-word]').length > 0")
    assert errors == []


def test_a_share_link_cut_short_says_so(server, browser):
    """A link whose grid cannot be read (cut short when pasted) is not swapped silently for another puzzle: the
    message line says what is wrong with it and what is shown instead; a whole link opens its puzzle, unsaid."""
    page, errors = _open(browser, server + "#w=4&h=4&g=...Z...E...R")  # 12 of 16 cells
    page.wait_for_function("document.getElementById('message').textContent.includes('could not be read')")
    message = page.inner_text("#message")
    assert "12 cells, not 4x4" in message and "instead" in message
    assert page.evaluate("window.xwcp.state.grid.width") >= 2  # a puzzle is shown all the same
    page, more_errors = _open(browser, server + "#w=4&h=4&g=...Z...E...RWOR.")
    assert _shown_rows(page) == ["...Z", "...E", "...R", "WOR."]
    assert "could not be read" not in page.inner_text("#message")
    assert errors == more_errors == []


def test_an_unfillable_grid_shows_the_verdict_then_the_core(server, browser):
    """Issue 29: the streamed check and the fill socket say "unfillable" first, then outline the core."""
    page, errors = _open(browser, server + "#w=4&h=4&g=...Z...E...RWOR.")
    page.wait_for_function("document.getElementById('light').className.includes('unfillable')", timeout=30_000)
    page.wait_for_function("document.querySelectorAll('#grid .cell.core').length === 7", timeout=30_000)  # 7A, 4D
    page.click("#fill-all")
    page.wait_for_function(
        "document.getElementById('progress').textContent.includes('outlined: 7A, 4D')", timeout=60_000
    )
    assert page.get_attribute("#progress", "data-status") == "unfillable"
    assert "core" in page.inner_text("#progress")
