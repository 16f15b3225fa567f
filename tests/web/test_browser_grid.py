"""Bars, circles, shading and rebus cells in the web builder, in a real browser (issue 23, item 5): the page's grid
syntax and slots agree with the library's; a click on an edge toggles a bar; a rebus typed with the rebus key gets
suggestions through it; marks, undo, reload and the share link keep everything; barred, rebus and circled files
open, save and read back; autofill fills a barred grid; the print view draws it all.

Runs Debian's chromium through playwright as tests/web/test_browser.py does (skipped with a message when either
is missing). Every wait is for a condition, never a fixed sleep, so the tests hold on a loaded machine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

from tests.web.test_browser import _open  # noqa: E402  (the fixtures server and browser: conftest.py)
from xwcp.compile.problem import compile_problem  # noqa: E402
from xwcp.engine.result import check_fill, grid_entries  # noqa: E402
from xwcp.formats import read_puzzle  # noqa: E402
from xwcp.model import find_slots, grid_from_rows, grid_lines, read_grid  # noqa: E402
from xwcp.words.wordlist import load_word_list, score_by_word_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "tests" / "data" / "puzzles"
WAIT_MS = 60_000
"""Longest wait for the server on a loaded machine (answers take milliseconds when it is quiet)."""


def _lines(page) -> list[str]:
    """The page's grid in xwcp's text syntax: what it sends to the server."""
    return page.evaluate("import('/static/grid.js').then((m) => m.toRows(window.xwcp.state.grid))")


def _grid(page):
    return grid_from_rows(_lines(page))


def _page_slots(page) -> list[list]:
    return page.evaluate("window.xwcp.state.slots.map((s) => [s.name, s.cells])")


def _library_slots(grid) -> list[list]:
    return [[s.name, list(s.cells)] for s in find_slots(grid)]


def _preset(page, name: str) -> None:
    page.select_option("#preset", name)
    page.wait_for_function(
        f"document.querySelectorAll('#clues li').length === {len(find_slots(read_grid(ROOT / 'models' / f'{name}.txt')))}"
    )


def _suggestions_for(page, slot_name: str) -> list[str]:
    """The suggestion list once it shows `slot_name`'s answer (the list's count line names its pattern)."""
    page.wait_for_function(
        f"""document.getElementById('slot-title').textContent.startsWith('{slot_name} ')
        && document.getElementById('suggestions').dataset.slot === '{slot_name}'
        && document.getElementById('suggest-count').textContent.includes('the pattern')""",
        timeout=WAIT_MS,
    )
    return page.eval_on_selector_all("#suggestions li[data-word]", "items => items.map(li => li.dataset.word)")


def _click_edge(page, cell: int, side: str) -> None:
    """A click just inside `cell`'s right ('R') or bottom ('B') edge."""
    box = page.locator(f'.cell[data-cell="{cell}"]').bounding_box()
    if side == "R":
        page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    else:
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] - 2)


def _type_rebus(page, cell: int, letters: str) -> None:
    page.click(f'.cell[data-cell="{cell}"]')
    page.keyboard.press("Insert")
    page.wait_for_selector("#rebus-input")
    page.keyboard.type(letters)
    page.keyboard.press("Enter")
    page.wait_for_function(f"window.xwcp.state.grid.cells[{cell}] === '{letters.upper()}'")


def _grids_with_their_lines() -> list[tuple[str, object]]:
    grids: list[tuple[str, object]] = [(path.name, read_grid(path)) for path in sorted((ROOT / "models").glob("*.txt"))]
    for path in sorted(PUZZLES.iterdir()):
        try:
            grid = read_puzzle(path).grid
        except ValueError:  # the damaged and non-crossword files the readers refuse
            continue
        if not grid.has_variety:  # the page refuses listed entries and Schrödinger squares (tests/js/gridtext.test.mjs)
            grids.append((path.name, grid))
    return grids


def test_page_reads_writes_and_numbers_grids_as_the_library_does(server, browser):
    """Every stock grid and every test puzzle (bars, circles, shading, colours, rebus and symbol cells, a published
    numbering): the page's lines read back equal and its slots are the library's, names and cells."""
    page, errors = _open(browser, server)
    cases = [
        {"name": name, "lines": grid_lines(grid), "slots": _library_slots(grid)}
        for name, grid in _grids_with_their_lines()
    ]
    assert any(grid.bars for _, grid in _grids_with_their_lines())
    assert any(grid.numbers for _, grid in _grids_with_their_lines())
    results = page.evaluate(
        """async (cases) => {
        const { findSlots, fromRows, toRows } = await import('/static/grid.js');
        return cases.map((c) => {
            const grid = fromRows(c.lines);
            return { name: c.name, lines: toRows(grid), slots: findSlots(grid).slots.map((s) => [s.name, s.cells]) };
        });
    }""",
        cases,
    )
    for case, result in zip(cases, results):
        assert result["lines"] == case["lines"], case["name"]
        assert result["slots"] == case["slots"], case["name"]
    assert errors == []


def test_a_click_on_an_edge_toggles_a_bar_and_the_slots_split(server, browser):
    page, errors = _open(browser, server)
    _preset(page, "7x7-mini")
    assert page.locator("#clues li").count() == 22
    page.check("input[name=mode][value=bars]")
    _click_edge(page, 16, "R")  # row 3 runs 7 white cells: cut after its third; the half-turn partner cuts row 5
    page.wait_for_function("document.querySelectorAll('#clues li').length === 24")
    assert page.evaluate("window.xwcp.state.grid.bars") == ["16R", "31R"]
    assert "bar-right" in page.get_attribute('.cell[data-cell="16"]', "class")
    assert _page_slots(page) == _library_slots(_grid(page))
    starts = page.evaluate("window.xwcp.state.slots.filter((s) => s.dir === 'A').map((s) => s.cells[0])")
    assert 17 in starts and 32 in starts  # new across entries start after the bars
    assert page.evaluate("window.xwcp.state.numberByCell.has(17)")
    # the same edge clicked from the cell on its right takes the bar (and its partner) away
    box = page.locator('.cell[data-cell="17"]').bounding_box()
    page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
    page.wait_for_function("document.querySelectorAll('#clues li').length === 22")
    assert page.evaluate("window.xwcp.state.grid.bars") == []
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#clues li').length === 24")
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#clues li').length === 22")
    page.click("#redo")
    page.wait_for_function("window.xwcp.state.grid.bars.length === 2")
    # the keyboard: | toggles the bar after the cursor in the direction of entry
    page.check("input[name=mode][value=letters]")
    page.click('.cell[data-cell="29"]')  # row 5, an across entry
    page.keyboard.press("|")
    page.wait_for_function("window.xwcp.state.grid.bars.includes('29R')")
    assert page.evaluate("window.xwcp.state.grid.bars.includes('18R')")  # its partner in row 3
    # a bar beside a block means nothing: refused with a message
    page.check("input[name=mode][value=bars]")
    _click_edge(page, 2, "R")  # the block is cell 3
    page.wait_for_function("document.getElementById('message').textContent.includes('between two white cells')")
    assert not page.evaluate("window.xwcp.state.grid.bars.includes('2R')")
    assert errors == []


def test_a_rebus_typed_with_its_key_gets_suggestions_through_it(server, browser):
    page, errors = _open(browser, server)
    _preset(page, "15x15-daily-01")
    _type_rebus(page, 15, "star")  # the first cell of 14A (four cells): entries of STAR and three letters
    letter = page.locator('.cell[data-cell="15"] .letter')
    assert letter.inner_text() == "STAR" and "rebus" in letter.get_attribute("class")
    assert _lines(page)[1].startswith("[STAR]")
    assert page.evaluate("[window.xwcp.state.cell, window.xwcp.state.dir]") == [16, "A"]  # moved on, as typing does
    page.click('.cell[data-cell="17"]')
    words = _suggestions_for(page, "14A")
    assert words and all(w.startswith("STAR") and len(w) == 7 for w in words), words
    # a suggestion clicked fills the plain cells; the rebus cell keeps its letters
    word = words[0]
    page.click(f'#suggestions li[data-word="{word}"]')
    page.wait_for_function(f"window.xwcp.state.grid.cells.slice(15, 19).join('') === '{word}'")
    assert page.evaluate("window.xwcp.state.grid.cells[15]") == "STAR"
    # the down entry through it shows whole words with STAR inside
    page.click('.cell[data-cell="15"]')
    page.click('.cell[data-cell="15"]')  # a second click turns to 1D
    assert all("STAR" in w for w in _suggestions_for(page, "1D"))
    # the heat map shows no count in the rebus cell, counts in the empty ones
    page.check("#heat")
    page.wait_for_function(
        "document.querySelector('.cell[data-cell=\"30\"] .count').textContent !== ''", timeout=WAIT_MS
    )
    assert page.locator('.cell[data-cell="15"] .count').inner_text() == ""
    # Escape opens the box too; Escape in it leaves the cell as it was; an empty entry erases
    page.click('.cell[data-cell="20"]')
    page.keyboard.press("Escape")
    page.wait_for_selector("#rebus-input")
    page.keyboard.type("XY")
    page.keyboard.press("Escape")
    page.wait_for_selector("#rebus-input", state="detached")
    assert page.evaluate("window.xwcp.state.grid.cells[20]") == "."
    page.get_by_role("button", name="Rebus").click()
    page.keyboard.type("1&")
    page.keyboard.press("Enter")
    page.wait_for_function("document.getElementById('message').textContent.includes('letters A-Z')")
    assert page.evaluate("window.xwcp.state.grid.cells[20]") == "."
    assert errors == []


def test_marks_bars_and_rebus_survive_undo_reload_and_the_share_link(server, browser):
    page, errors = _open(browser, server)
    _preset(page, "15x15-daily-01")
    page.click('.cell[data-cell="20"]')
    page.get_by_role("button", name="Circle").click()
    page.wait_for_function("document.querySelector('.cell[data-cell=\"20\"]').classList.contains('circled')")
    page.click('.cell[data-cell="21"]')
    page.keyboard.press("Alt+s")
    page.wait_for_function("document.querySelector('.cell[data-cell=\"21\"]').classList.contains('shaded')")
    _type_rebus(page, 22, "one")
    page.check("input[name=mode][value=bars]")
    _click_edge(page, 31, "R")  # row 3: a bar between columns 2 and 3, and its partner in row 13
    page.wait_for_function("window.xwcp.state.grid.bars.includes('31R')")
    page.check("input[name=mode][value=letters]")
    # a dragged region is shaded at once (its white cells; row 4's block at column 4 is left alone)
    page.locator('.cell[data-cell="45"]').hover()
    page.mouse.down()
    page.locator('.cell[data-cell="50"]').hover()
    page.mouse.up()
    page.get_by_role("button", name="Shade").click()
    page.wait_for_function("document.querySelectorAll('#grid .cell.shaded').length > 2")
    grid = _grid(page)
    assert {cell for cell, mark in grid.marks if mark.shaded} == {21} | {
        c for c in range(45, 51) if grid.cells[c] != "#"
    }
    assert grid.mark(20).circle and grid.mark(21).shaded and grid.cells[22] == "ONE" and (31, "R") in grid.bars
    assert _page_slots(page) == _library_slots(grid)
    lines = _lines(page)

    for _ in range(5):
        page.click("#undo")
    page.wait_for_function("!window.xwcp.state.grid.bars.length && !Object.keys(window.xwcp.state.grid.marks).length")
    assert page.evaluate("window.xwcp.state.grid.cells[22]") == "."
    for _ in range(5):
        page.click("#redo")
    page.wait_for_function("window.xwcp.state.grid.bars.length === 2")
    assert _lines(page) == lines

    # kept in this browser: a reload brings all of it back (and its undo steps), even the edit made just before it
    page.click('.cell[data-cell="23"]')
    page.get_by_role("button", name="Circle").click()
    page.click("#undo")  # (saved as the page goes away, not by the autosave's timer)
    page.reload()
    page.wait_for_function("window.xwcp && window.xwcp.ready")
    assert _lines(page) == lines
    assert "circled" in page.get_attribute('.cell[data-cell="20"]', "class")
    assert "shaded" in page.get_attribute('.cell[data-cell="21"]', "class")
    assert "bar-right" in page.get_attribute('.cell[data-cell="31"]', "class")
    assert page.locator('.cell[data-cell="22"] .letter').inner_text() == "ONE"
    page.click("#redo")  # the undone circle: the redo steps came back too
    page.wait_for_function("document.querySelector('.cell[data-cell=\"23\"]').classList.contains('circled')")
    page.click("#undo")
    page.wait_for_function("!document.querySelector('.cell[data-cell=\"23\"]').classList.contains('circled')")

    # the share link carries them to a browser that has never seen the puzzle
    page.click("#share")
    page.wait_for_function("location.hash.includes('t=')")
    url = page.url
    page.evaluate("localStorage.clear()")
    other, other_errors = _open(browser, url)
    assert _lines(other) == lines
    assert errors == [] and other_errors == []


def test_barred_rebus_and_circled_files_open_with_their_warnings(server, browser):
    page, errors = _open(browser, server)
    opener = page.get_by_label("Open puzzle file")
    for name in ["ccw-barred-demo.ipuz", "nyt_rebus_with_notes_and_shape.puz", "kotwords-test.jpz", "first.ipuz"]:
        expected = read_puzzle(PUZZLES / name)
        opener.set_input_files(str(PUZZLES / name))
        page.wait_for_function(f"document.getElementById('message').textContent.startsWith('opened {name}')")
        assert _grid(page) == expected.grid, name
        assert _page_slots(page) == _library_slots(expected.grid), name  # first.ipuz: its own numbering
        assert page.evaluate("window.xwcp.cluesByName()") == expected.clue_by_slot, name
        n_bars = page.locator("#grid .cell.bar-right, #grid .cell.bar-below").count()
        assert n_bars == len({cell for cell, _ in expected.grid.bars}), name
        circles = sum(1 for _, mark in expected.grid.marks if mark.circle)
        assert page.locator("#grid .cell.circled").count() == circles, name
        rebus = [cell for cell, text in enumerate(expected.grid.cells) if len(text) > 1]
        for cell in rebus:
            assert page.locator(f'.cell[data-cell="{cell}"] .letter').inner_text() == expected.grid.cells[cell]
    # what reading a file said stays in view until another puzzle comes
    assert page.is_visible("#file-warnings")  # first.ipuz: omitted cells read as blocks
    opener.set_input_files(str(PUZZLES / "nyt_sun_rebus.puz"))
    page.wait_for_function("document.getElementById('file-warnings').textContent.includes('unlocked with key 2173')")
    assert "12 rebus cells" in page.inner_text("#message")
    opener.set_input_files(str(PUZZLES / "washpost.puz"))
    page.wait_for_function("document.getElementById('message').textContent.startsWith('opened washpost.puz')")
    assert not page.is_visible("#file-warnings")
    assert errors == []


def test_save_keeps_bars_marks_and_rebus_or_says_why_not(server, browser, tmp_path):
    page, errors = _open(browser, server)
    _preset(page, "7x7-mini")
    page.check("input[name=mode][value=bars]")
    _click_edge(page, 16, "R")
    page.wait_for_function("window.xwcp.state.grid.bars.length === 2")
    page.check("input[name=mode][value=letters]")
    page.click('.cell[data-cell="0"]')
    page.keyboard.press("Alt+o")
    _type_rebus(page, 8, "ST")
    page.get_by_role("tab", name="Puzzle").click()
    page.get_by_role("textbox", name="Title", exact=True).fill("Barred Mini")
    page.get_by_role("tab", name="Fill").click()
    grid = _grid(page)
    for fmt in ["ipuz", "jpz", "xd", "json"]:
        with page.expect_download() as download:
            page.get_by_role("button", name=f".{fmt}", exact=True).click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        assert saved.name == f"barred-mini.{fmt}"
        back = read_puzzle(saved)
        assert back.grid == grid and back.title == "Barred Mini", fmt
    # .puz cannot hold bars: the server's one line, as a message
    page.get_by_role("button", name=".puz", exact=True).click()
    page.wait_for_function("document.getElementById('message').textContent.startsWith('cannot save as .puz')")
    message = page.inner_text("#message")
    assert "bars" in message and ".ipuz" in message and "/tmp" not in message
    assert errors == []


def test_autofill_fills_a_barred_grid_and_keeps_a_rebus(server, browser):
    words = load_word_list()
    listed = set(score_by_word_of(words))
    page, errors = _open(browser, server)
    _preset(page, "7x7-mini")
    page.check("input[name=mode][value=bars]")
    _click_edge(page, 16, "R")
    page.wait_for_function("window.xwcp.state.grid.bars.length === 2")
    page.check("input[name=mode][value=letters]")
    before = _grid(page)
    page.click("#fill-all")
    page.wait_for_selector("#progress[data-status]", timeout=WAIT_MS)
    assert page.get_attribute("#progress", "data-status") == "filled", page.inner_text("#progress")
    page.click("#accept")
    page.wait_for_function("!window.xwcp.state.grid.cells.includes('.')")
    filled = _grid(page)
    problem = compile_problem(before, words)
    assert check_fill(problem, grid_entries(problem, filled)) == []
    assert filled.bars == before.bars

    # a rebus grid opened from a link: the fill's pencil shows whole cells; accepted, the rebus and marks stay
    lines = ["#....#", "[STAR]....|.", "(.).{.}...", "...|..."]
    from urllib.parse import urlencode

    other, other_errors = _open(browser, server + "#" + urlencode({"w": 6, "h": 4, "t": "\n".join(lines)}))
    assert _lines(other) == lines
    other.click("#fill-all")
    other.wait_for_selector("#progress[data-status]", timeout=WAIT_MS)
    assert other.get_attribute("#progress", "data-status") == "filled", other.inner_text("#progress")
    assert other.locator('.cell[data-cell="6"] .letter').inner_text() == "STAR"
    assert "pencil" in other.get_attribute('.cell[data-cell="7"] .letter', "class")
    other.click("#accept")
    other.wait_for_function("!window.xwcp.state.grid.cells.includes('.')")
    given, filled = grid_from_rows(lines), _grid(other)
    problem = compile_problem(given, words)
    entries = grid_entries(problem, filled)
    assert check_fill(problem, entries) == [] and all(e in listed for e in entries)
    assert filled.cells[6] == "STAR" and filled.marks == given.marks and filled.bars == given.bars
    assert errors == [] and other_errors == []


def test_print_view_draws_bars_circles_shading_and_rebus(server, browser):
    lines = ["#....#", "[STAR]....|.", "(.).{.}...", "...|..."]
    from urllib.parse import urlencode

    page, errors = _open(browser, server + "#" + urlencode({"w": 6, "h": 4, "t": "\n".join(lines)}))
    page.check("#print-answers")  # the answer key is a choice (issue 35)
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    blank, key = page.locator("#print-view > .print-top > .print-grid"), page.locator(".answer-key .print-grid")
    assert blank.locator(".br").count() == 2 and key.locator(".br").count() == 2  # the two bars
    assert blank.locator(".o").count() == 1 and blank.locator(".s").count() == 1  # circle, shading
    assert blank.locator(".l").count() == 0  # the solver's grid shows no letters
    rebus = key.locator(".l.r")
    assert rebus.count() == 1 and rebus.inner_text() == "STAR"
    box = rebus.bounding_box()
    cell = key.locator("div").nth(6).bounding_box()
    assert box["width"] <= cell["width"] + 1  # shrunk to fit its cell
    page.emulate_media(media="screen")
    assert errors == []
