"""The builder's "Design grid" panel in a real browser (Debian's chromium driven by playwright): type theme entries,
watch the progress stream, take a design into the editor. Skipped, saying so, where chromium or playwright is missing."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

import xwcp  # noqa: E402
from tests.web.test_browser import _open, _shown_rows  # noqa: E402  (the fixtures server and browser: conftest.py)
from xwcp.designer.check import check_design  # noqa: E402
from xwcp.designer.request import make_request  # noqa: E402


def test_design_panel_designs_and_opens_a_grid(server, browser):
    page, errors = _open(browser, server)
    assert not page.is_visible("#design-panel")  # its own tab
    page.click("#tab-design")
    assert page.is_visible("#design-panel")
    page.fill("#design-themes", "astronomer\ntelescopes")
    page.select_option("#design-size", "11x11")
    page.fill("#design-count", "2")
    page.click("#design-start")
    assert page.is_disabled("#design-start") and page.is_enabled("#design-stop")
    page.wait_for_function(
        "document.getElementById('design-progress').textContent.includes('patterns')", timeout=60_000
    )  # progress streamed while it runs
    page.wait_for_selector("#design-progress[data-status]", timeout=120_000)
    assert page.get_attribute("#design-progress", "data-status") == "filled", page.inner_text("#design-progress")
    assert page.locator("#design-results li").count() == 2
    designs = page.evaluate("window.xwcp.design.designs")
    assert len(designs) == 2
    rules = replace(make_request(size="11x11", themes=["ASTRONOMER"]).rules, min_words=0)
    words = xwcp.load_word_list()
    for d in designs:
        grid = xwcp.parse_grid("\n".join(d["grid"]))
        assert check_design(grid, rules, ["ASTRONOMER", "TELESCOPES"], words) == []

    # take the first (best) design into the editor: the page now edits that grid, its theme entries marked
    page.click("#design-results li[data-index='1'] button.take")
    page.wait_for_function("window.xwcp.state.grid.width === 11")
    assert _shown_rows(page) == designs[0]["grid"]
    assert page.evaluate("window.xwcp.state.grid.cells.join('')") == "".join(designs[0]["grid"])
    keys = sorted(f"{(t['row'] - 1) * 11 + t['col'] - 1}{t['direction'][0].upper()}" for t in designs[0]["themes"])
    assert sorted(page.evaluate("window.xwcp.state.theme")) == keys

    # "Pattern only": the blocks and the theme entries, the rest empty
    page.click("#design-results li[data-index='2'] button.take-pattern")
    page.wait_for_function(f"window.xwcp.state.grid.cells.join('') !== {''.join(designs[0]['grid'])!r}")
    cells = page.evaluate("window.xwcp.state.grid.cells.join('')")
    second = "".join(designs[1]["grid"])
    assert [c == "#" for c in cells] == [c == "#" for c in second]
    rows = [cells[r * 11 : (r + 1) * 11] for r in range(11)]
    columns = ["".join(rows[r][c] for r in range(11)) for c in range(11)]
    assert any("ASTRONOMER" in line for line in rows + columns)
    assert sum(ch.isalpha() for ch in cells) == 20  # only the two theme entries' letters
    assert errors == []
