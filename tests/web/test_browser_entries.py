"""Listed entries and Schrödinger squares in the builder, in Debian's chromium: a free entry drawn by clicking its
cells (and by keys), clued, saved to .json and .ipuz and opened again as the same grid text and clue; an entry
highlighted in its order, typed along, deleted and brought back; a Schrödinger square marked, its two letters typed
and shown stacked, its suggestions listing their pairs, and an autofill around it checked by the project's checker.

Needs chromium and playwright, as tests/web/test_browser.py. Small 5x5 grids keep each test to a few seconds.
"""

from __future__ import annotations

import json
import urllib.parse

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

from tests.engine.test_entries_fill import grid_violations  # noqa: E402
from tests.web.test_browser import _open  # noqa: E402
from xwcp.compile.problem import compile_problem  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402
from xwcp.model import grid_from_rows  # noqa: E402
from xwcp.words.wordlist import load_word_list, score_by_word_of  # noqa: E402

pytestmark = pytest.mark.browser

BLANK_5 = ["....."] * 5


@pytest.fixture(scope="module")
def browser(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True)
    yield context
    context.close()


def _open_grid(browser, server, lines, clues=None):
    """The builder on the 5x5 grid of `lines` (a share link's text syntax, as the page writes it)."""
    fragment = {"w": 5, "h": 5, "t": "\n".join(lines)}
    if clues:
        fragment["c"] = json.dumps(clues)
    return _open(browser, f"{server}#{urllib.parse.urlencode(fragment)}")


def _rows(page) -> list[str]:
    return page.evaluate("window.xwcp.rows()")


def _click(page, cell: int) -> None:
    page.click(f'.cell[data-cell="{cell}"]')


def test_draw_an_entry_clue_it_save_and_open_it_again(server, browser, tmp_path):
    page, errors = _open_grid(browser, server, BLANK_5)
    _click(page, 0)
    page.get_by_role("button", name="Draw entry").click()
    for cell in (0, 6, 12, 18, 24, 24):  # the diagonal; the second click on 24 is refused, not added twice
        _click(page, cell)
    assert "already" in page.inner_text("#message")
    assert page.locator(".cell.drawn").count() == 5
    assert page.locator('.cell[data-cell="18"] .order').inner_text() == "4"
    page.keyboard.press("Backspace")  # the last cell removed, then added again by keys: arrows and Space
    assert page.locator(".cell.drawn").count() == 4
    page.keyboard.press("ArrowRight")
    page.keyboard.press(" ")
    assert page.evaluate("window.xwcp.state.grid.entries") == []  # nothing committed while drawing
    page.fill("#entry-name", "diag")
    page.press("#entry-name", "Enter")
    assert page.evaluate("window.xwcp.state.grid.entries") == [{"name": "DIAG", "cells": [0, 6, 12, 18, 24]}]
    assert _rows(page) == ["; entry: DIAG = 1,1 2,2 3,3 4,4 5,5", *BLANK_5]
    assert page.evaluate("window.xwcp.state.dir") == "=DIAG"

    # the Entries list holds it with its name; typing goes along its cells
    entry = page.locator("#clues-entries li")
    assert entry.count() == 1 and entry.locator(".n").inner_text() == "DIAG"
    entry.locator("input").fill("Corner to corner")
    page.focus("#grid")
    _click(page, 0)
    if page.evaluate("window.xwcp.state.dir") != "=DIAG":
        page.keyboard.press("Enter")
        page.keyboard.press("Enter")
    assert page.evaluate("window.xwcp.state.dir") == "=DIAG"
    assert page.inner_text("#current-clue .id") == "DIAG"
    page.keyboard.type("SHEAF", delay=10)
    cells = page.evaluate("window.xwcp.state.grid.cells")
    assert [cells[c] for c in (0, 6, 12, 18, 24)] == list("SHEAF")
    assert page.locator(".cell.in-slot, .cell.current").count() == 5

    # printed with its clue under Entries
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert "EntriesDIAG Corner to corner (5)" in page.locator(".clue-lists").text_content()

    # saved as .json and .ipuz, each opened again: the same grid text and clue
    text = _rows(page)
    for fmt in ("json", "ipuz"):
        with page.expect_download() as download:
            page.click(f"#download-{fmt}")
        path = tmp_path / f"diag.{fmt}"
        download.value.save_as(path)
        fresh, fresh_errors = _open(browser, server)  # the 15x15 preset, then the file
        fresh.get_by_label("Open puzzle file").set_input_files(str(path))
        fresh.wait_for_function("window.xwcp.state.grid.width === 5")
        assert _rows(fresh) == text, fmt
        assert fresh.locator("#clues-entries li input").input_value() == "Corner to corner", fmt
        assert fresh_errors == []
        fresh.close()

    # deleted (Alt+X on its cell), then brought back with its clue by Ctrl+Z
    _click(page, 6)
    page.keyboard.press("Alt+x")
    assert page.evaluate("window.xwcp.state.grid.entries") == [] and page.locator("#entries-list").is_hidden()
    page.keyboard.press("Control+z")
    assert _rows(page) == text
    assert page.locator("#clues-entries li input").input_value() == "Corner to corner"
    assert errors == []


def test_a_ring_entry_is_highlighted_in_order_and_escape_cancels_drawing(server, browser):
    lines = ["; entry: RING = 1,2 1,3 2,3 3,3 3,2 3,1 2,1 1,1", *BLANK_5]  # round the centre of the top left 3x3
    page, errors = _open_grid(browser, server, lines, {"RING": "Round and round"})
    _click(page, 1)
    for _ in range(3):
        if page.evaluate("window.xwcp.state.dir") == "=RING":
            break
        page.keyboard.press("Enter")  # across, down, then the listed entry through the cell
    assert page.evaluate("window.xwcp.state.dir") == "=RING"
    order = {
        cell: page.locator(f'.cell[data-cell="{cell}"] .order').inner_text() for cell in (1, 2, 7, 12, 11, 10, 5, 0)
    }
    assert order == {1: "1", 2: "2", 7: "3", 12: "4", 11: "5", 10: "6", 5: "7", 0: "8"}
    assert page.inner_text("#current-clue .text") == "Round and round"
    page.keyboard.type("ABCDEFGH", delay=10)
    cells = page.evaluate("window.xwcp.state.grid.cells")
    assert "".join(cells[c] for c in (1, 2, 7, 12, 11, 10, 5, 0)) == "ABCDEFGH"
    page.keyboard.press("Alt+e")
    _click(page, 6)
    page.keyboard.press("Escape")
    assert page.locator("#draw-bar").is_hidden() and len(page.evaluate("window.xwcp.state.grid.entries")) == 1

    # the listed entry as the grid's only entry: the across and down lists empty, the grid text says so
    page.get_by_label("listed only").check()
    assert _rows(page)[0] == "; entries: listed" and page.locator("#clues-across li").count() == 0
    assert page.locator("#clues-entries li").count() == 1
    page.focus("#grid")
    page.keyboard.press("Control+z")
    assert page.get_by_label("listed only").is_checked() is False and page.locator("#clues-across li").count() == 5
    assert errors == []


def test_a_schrodinger_square_typed_suggested_and_autofilled(server, browser):
    page, errors = _open_grid(browser, server, BLANK_5)
    _click(page, 12)
    page.keyboard.press("Alt+2")
    assert page.get_by_role("button", name="Two letters").get_attribute("aria-pressed") == "true"
    assert _rows(page) == [".....", ".....", "..<..>..", ".....", "....."]
    page.keyboard.type("NK", delay=10)  # the first letter, then the second; the cursor moves on after it
    assert page.evaluate("window.xwcp.state.grid.cells[12]") == "NK"
    assert page.evaluate("window.xwcp.state.cell") == 13
    assert page.locator('.cell[data-cell="12"] .letter').inner_text() == "N\nK"
    assert "N and K" in page.locator('.cell[data-cell="12"]').get_attribute("aria-label")
    lines = _rows(page)
    assert lines == [".....", ".....", "..<NK>..", ".....", "....."]

    # the suggestions of 7A ask for its first reading and list each word's second readings
    page.wait_for_function("document.querySelectorAll('#suggestions li[data-word] .pairs').length > 0")
    assert page.evaluate("document.getElementById('suggestions').dataset.slot") == "7A"
    first = page.locator("#suggestions li[data-word]").first
    word, pairs = first.get_attribute("data-word"), first.locator(".pairs").inner_text()
    assert word[2] == "N" and all(w[2] == "K" and w[:2] + w[3:] == word[:2] + word[3:] for w in pairs[2:].split())

    # autofill: both letters of the square kept, the fill checked by the checker and read off the grid
    page.click("#fill-all")
    page.wait_for_function("document.getElementById('progress').dataset.status === 'filled'", timeout=20000)
    page.get_by_role("button", name="Accept").click()
    filled = _rows(page)
    assert "<NK>" in filled[2] and "." not in "".join(filled).replace("<NK>", "")
    before, after = grid_from_rows(lines), grid_from_rows(filled)
    words = load_word_list()
    problem = compile_problem(before, words)
    done = compile_problem(after, words)
    assert [s.name for s in done.slots] == [s.name for s in problem.slots]
    assert check_fill(problem, tuple(done.pattern(s.id) for s in done.slots)) == []
    assert grid_violations(before, after, set(score_by_word_of(words))) == []

    # test-solving: the square takes both letters as typed, and Check finds it right
    page.click("#solve-toggle")
    _click(page, 12)
    page.keyboard.type("NK", delay=10)
    assert page.evaluate("window.xwcp.state.solve.cells[12]") == "NK"
    assert page.locator('.cell[data-cell="12"] .letter').inner_text() == "N\nK"
    page.click("#solve-check")
    assert page.evaluate("window.xwcp.state.solve.wrong.has(12)") is False
    page.click("#solve-toggle")

    # Backspace takes the second letter, then the first; unmarking keeps one letter
    _click(page, 12)
    page.keyboard.press("Backspace")
    assert page.evaluate("window.xwcp.state.grid.cells[12]") == "N."
    page.keyboard.press("Alt+2")
    assert (
        page.evaluate("window.xwcp.state.grid.cells[12]") == "N" and page.evaluate("window.xwcp.state.grid.pairs") == []
    )
    assert errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_with_entries_squares_and_drawing(server, browser, scheme):
    """The Entries list, a Schrödinger square's stacked letters, the drawn cells' order numbers and the drawing bar:
    no serious or critical axe violation in either theme; every new control has a name and its key."""
    axe = pytest.importorskip(
        "axe_playwright_python",
        reason="axe-playwright-python (the [test] extra) carries axe-core: the accessibility audit did NOT run",
    )
    from tests.web.test_browser_a11y import _axe_violations

    lines = ["; entry: DIAG = 1,1 2,2 3,3", ".....", ".....", "..<NK>..", ".....", "....."]
    page, errors = _open_grid(browser, server, lines, {"DIAG": "Slanted"})
    page.emulate_media(color_scheme=scheme)
    page.add_script_tag(path=f"{axe.__file__.rsplit('/', 1)[0]}/axe.min.js")
    _click(page, 0)
    while page.evaluate("window.xwcp.state.dir") != "=DIAG":
        page.keyboard.press("Enter")
    page.check("#heat")
    page.wait_for_function(
        "document.querySelector('#grid .cell[data-cell=\"12\"] .count').textContent.includes('/') "
        "|| window.xwcp.state.grid.cells[12] === 'NK'"
    )
    found = {"entries": _axe_violations(page)}
    page.focus("#grid")
    page.keyboard.press("Alt+e")
    for cell in (4, 8):
        _click(page, cell)
    found["drawing"] = _axe_violations(page)
    assert all(not v for v in found.values()), found
    for name, key in (("Draw entry", "Alt+E"), ("Delete entry", "Alt+X"), ("Two letters", "Alt+2")):
        assert page.get_by_role("button", name=name).get_attribute("aria-keyshortcuts") == key
    for name in ("Finish", "Remove last", "Cancel"):
        assert page.locator("#draw-bar").get_by_role("button", name=name).is_visible()
    assert page.get_by_label("entry name").is_visible()
    assert errors == []
