"""The web builder in a real browser (Debian's chromium driven by playwright): edit, live help, autofill, share.

Needs chromium (`.ci/install-browser.sh`) and playwright's Python package; where either is
missing the test is skipped with a message that says so. Playwright's own browser download is
never used: the test points it at the system chromium.
"""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
uvicorn = pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

from helpers import entries_of  # noqa: E402

import xwcp  # noqa: E402
from xwcp.result import check_fill  # noqa: E402
from xwcp.web.app import create_app  # noqa: E402

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _chromium() -> str | None:
    for path in (os.environ.get("XWCP_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                 shutil.which("chromium-browser")):
        if path and os.path.exists(path):
            return path
    return None


@pytest.fixture(scope="module")
def server():
    """uvicorn serving the builder on a free loopback port, in a thread; stopped after the module."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium = _chromium()
    if chromium is None:
        pytest.skip("chromium is not installed (run .ci/install-browser.sh): the real-browser test of the web "
                    "builder did NOT run")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright's Python package is missing (pip install '.[test]'): the real-browser test of "
                    "the web builder did NOT run")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=chromium, headless=True,
            args=CHROMIUM_FLAGS, viewport={"width": 1280, "height": 860})
        yield context
        context.close()


def _open(context, url):
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
    typed_rows = [typed_rows[r * 15:(r + 1) * 15] for r in range(15)]
    assert typed_rows[1].startswith("WARE")

    # autofill runs to the end; the grid shown is a valid fill around the typed word
    page.click("#fill-all")
    page.wait_for_selector("#progress[data-status]", timeout=60_000)
    assert page.get_attribute("#progress", "data-status") == "filled", page.inner_text("#progress")
    shown = _shown_rows(page)
    problem = xwcp.compile_problem(xwcp.parse_grid("\n".join(typed_rows)), xwcp.load_word_list())
    assert check_fill(problem, entries_of(problem, shown)) == []
    page.click("#accept")
    assert _shown_rows(page) == shown
    page.click('.cell[data-cell="15"]')
    page.fill("#clue", "Goods for sale")

    # the print view: the grid's numbers and the clue lists, nothing of the editor
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert page.is_visible("#print-view") and not page.is_visible("#grid")
    assert "Goods for sale (4)" in page.inner_text("#print-view")
    page.emulate_media(media="screen")

    # the URL carries the state: a new page opened on it shows the same grid
    other, other_errors = _open(browser, page.url)
    assert _shown_rows(other) == shown
    assert other.evaluate("window.xwcp.state.clues['14A']") == "Goods for sale"
    assert errors == [] and other_errors == []
    print("keystroke to updated suggestions (ms):", [round(t) for t in page.evaluate("window.xwcp.helpTimes")])


def test_page_numbers_slots_as_the_library_does(server, browser):
    """The page names slots itself (for suggestions and clues): on every preset and an unchecked-cell grid
    its names and cells are the library's."""
    page, errors = _open(browser, server)
    grids = [p["rows"] for p in page.evaluate("fetch('/api/presets').then(r => r.json())")]
    grids.append(["#....", "..#..", ".....", "..#..", "....#"])
    for rows in grids:
        page_slots = page.evaluate("""async (rows) => {
            const { findSlots, fromRows } = await import('/static/grid.js');
            return findSlots(fromRows(rows)).slots.map((s) => [s.name, s.cells]);
        }""", rows)
        library_slots = [[s.name, list(s.cells)] for s in xwcp.find_slots(xwcp.parse_grid("\n".join(rows)))]
        assert page_slots == library_slots, rows
    assert errors == []


def test_an_unfillable_grid_shows_the_verdict_then_the_core(server, browser):
    """Issue 29: the streamed check and the fill socket say "unfillable" first, then outline the core."""
    page, errors = _open(browser, server + "#w=4&h=4&g=...Z...E...RWOR.")
    page.wait_for_function("document.getElementById('light').className.includes('unfillable')", timeout=30_000)
    page.wait_for_function("window.xwcp.state.check && window.xwcp.state.check.core", timeout=30_000)
    assert page.evaluate("window.xwcp.state.check.core.slots") == ["7A", "4D"]
    page.click("#fill-all")
    page.wait_for_function("document.getElementById('progress').textContent.includes('outlined: 7A, 4D')",
                           timeout=60_000)
    assert page.get_attribute("#progress", "data-status") == "unfillable"
    assert "core" in page.inner_text("#progress")
    assert errors == []
