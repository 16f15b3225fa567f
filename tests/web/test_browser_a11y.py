"""The builder by keyboard and screen reader, on a phone and in the dark (issue 35 items 2 and 6), in Debian's chromium:
Tab through every control without a trap, Space and Enter on a control doing its job and never editing the grid, the
tabs as WAI-ARIA tabs, named grid cells, the suggestions by keys, an axe-core audit of the page and each panel in the
light and the dark theme, also while test-solving and with a banned word listed (no serious or critical violation),
letters typed on a touch page 390 px wide, and the dark theme.

Needs chromium and playwright, as tests/web/test_browser.py; the audit needs axe-core, which the `[test]` extra's
axe-playwright-python carries (axe.min.js): where it is missing that test is skipped with a message.
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

from tests.web.test_browser import _open  # noqa: E402

TAB_BY_PANEL = {
    "Fill": "tab-fill",
    "Stats": "tab-stats",
    "Word list": "tab-words",
    "Puzzle": "tab-puzzle",
    "Saved": "tab-saved",
    "Design": "tab-design",
}
PANELS = list(TAB_BY_PANEL)


@pytest.fixture(scope="module")
def browser(chromium):
    """A desktop context (this module's own `browser`, in place of conftest's)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 860})
    yield context
    context.close()


@pytest.fixture()
def phone(chromium):
    """A touch context 390 px wide: a phone."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    yield context
    context.close()


def _focused(page) -> str:
    """The focused element, named: its id, else its tag with its accessible text."""
    return page.evaluate("""() => {
        const el = document.activeElement;
        if (!el || el === document.body) return 'body';
        if (el.id) return '#' + el.id;
        const li = el.closest('li[data-key]');
        return el.tagName.toLowerCase() + ':' + (li ? li.dataset.key + ':' : '')
            + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
    }""")


def _cells(page) -> str:
    return page.evaluate("window.xwcp.state.grid.cells.join('')")


def _tab_walk(page, limit: int = 400) -> list[str]:
    """Tab from the top of the page until the focus comes round to where it started; the stops in order."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    stops: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        here = _focused(page)
        if stops and here == stops[0]:
            return stops
        stops.append(here)
    raise AssertionError(f"Tab never came round in {limit} presses (a keyboard trap?): last stops {stops[-8:]}")


def test_tab_goes_through_every_control_without_a_trap(server, browser):
    page, errors = _open(browser, server)
    page.click('.cell[data-cell="15"]')
    page.keyboard.type("WA")
    page.wait_for_function("document.querySelectorAll('#suggestions li[data-word]').length > 0")
    cells = _cells(page)
    for panel in PANELS:
        page.get_by_role("tab", name=panel).click()
        stops = [s for s in _tab_walk(page) if s != "body"]
        assert len(stops) == len(set(stops)), f"{panel}: a control is reached twice in one round: {stops}"
        for control in ("#open-file", "#download-puz", "#share", "#print", "#grid", f"#{TAB_BY_PANEL[panel]}"):
            assert control in stops or any(s.startswith(control) for s in stops), (panel, control, " ".join(stops))
        # the .puz button and the grid are left by the next Tab (the trap: the grid cursor moved instead)
        for control in ("#download-puz", "#grid"):
            i = next(i for i, s in enumerate(stops) if s.startswith(control))
            assert i + 1 < len(stops) and not stops[i + 1].startswith(control)
        # only the selected tab is a Tab stop (WAI-ARIA tabs: the others by arrow keys)
        assert sum(s.startswith("#tab-") for s in stops) == 1
        panel_id = page.evaluate(f"document.getElementById('{TAB_BY_PANEL[panel]}').getAttribute('aria-controls')")
        assert f"#{panel_id}" in stops  # the panel itself, then its controls
        if panel == "Fill":  # the suggestion list: one stop, its ban buttons none
            assert "#suggestions" in stops and not any(s.startswith("button:Ban") for s in stops)
    assert _cells(page) == cells, "tabbing edited the grid"
    assert errors == []


def test_space_and_enter_do_the_controls_job_and_never_edit_the_grid(server, browser):
    page, errors = _open(browser, server)
    page.click('.cell[data-cell="15"]')
    cells = _cells(page)
    page.focus("#circle")
    page.keyboard.press(" ")  # the Circle button's own job: a circle on the cursor's cell, no block
    assert page.evaluate("!!(window.xwcp.state.grid.marks[15] && window.xwcp.state.grid.marks[15].circle)")
    page.keyboard.press("Enter")  # and off again
    assert not page.evaluate("!!(window.xwcp.state.grid.marks[15] && window.xwcp.state.grid.marks[15].circle)")
    page.focus("#heat")
    page.keyboard.press(" ")
    assert page.is_checked("#heat")
    for control in ("#share", "button:has-text('.puz')", "#jump"):
        page.focus(control) if control.startswith("#") else page.locator(control).focus()
        page.keyboard.press("Tab")
        page.keyboard.press("Shift+Tab")
        page.keyboard.press(" ")
        if control != "#jump":  # "Most constrained slot" moves the cursor: that is its job
            assert page.evaluate("window.xwcp.state.cell") == 15, f"Space on {control} moved the cursor"
    assert _cells(page) == cells, "a key on a focused control edited the grid"

    # the tabs: Enter and Space open the focused tab, arrows (wrapping), Home and End move and open
    page.evaluate("document.getElementById('tab-words').focus()")
    page.keyboard.press("Enter")
    assert page.get_attribute("#tab-words", "aria-selected") == "true" and page.is_visible("#panel-words")
    page.keyboard.press("ArrowRight")
    assert _focused(page) == "#tab-puzzle" and page.is_visible("#panel-puzzle") and not page.is_visible("#panel-words")
    page.keyboard.press("End")
    assert _focused(page) == "#tab-design" and page.get_attribute("#tab-design", "aria-selected") == "true"
    page.keyboard.press("ArrowRight")  # wraps to the first
    assert _focused(page) == "#tab-fill" and page.is_visible("#panel-fill")
    page.keyboard.press("ArrowLeft")
    assert _focused(page) == "#tab-design"
    page.keyboard.press("Home")
    page.evaluate("document.getElementById('tab-stats').focus()")
    page.keyboard.press(" ")
    assert page.get_attribute("#tab-stats", "aria-selected") == "true"
    assert page.get_attribute("#tab-fill", "tabindex") == "-1" and page.get_attribute("#tab-stats", "tabindex") == "0"
    assert _cells(page) == cells
    assert errors == []


def test_grid_cells_have_names_and_suggestions_work_by_keys(server, browser):
    page, errors = _open(browser, server)
    page.click('.cell[data-cell="15"]')  # 14A, four letters, crossing 1D at its second letter
    label = page.get_attribute('.cell[data-cell="15"]', "aria-label")
    assert label.startswith("14 Across, letter 1 of 4") and label.endswith("blank"), label
    assert page.get_attribute("#grid", "aria-activedescendant") == "cell-15"
    page.keyboard.type("W")
    assert page.get_attribute('.cell[data-cell="15"]', "aria-label").endswith(", W")
    label = page.get_attribute('.cell[data-cell="16"]', "aria-label")
    assert label.startswith("14 Across, letter 2 of 4") and "Down, letter 2 of" in label
    assert page.get_attribute("#grid", "aria-activedescendant") == "cell-16"
    assert page.get_attribute('.cell[data-cell="4"]', "aria-label") == "block, row 1 column 5"
    assert page.locator('#grid [role="row"]').count() == 15
    assert page.locator('#grid [role="gridcell"]').count() == 225

    # the suggestion list: one Tab stop, arrows choose, Enter enters the word into the slot
    page.wait_for_function("document.querySelectorAll('#suggestions li[data-word]').length > 1")
    page.wait_for_timeout(300)
    words = page.eval_on_selector_all("#suggestions li[data-word]", "items => items.map(li => li.dataset.word)")
    page.focus("#suggestions")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    chosen = page.evaluate("document.activeElement.dataset.word")
    assert chosen in words  # labels arriving may re-sort the list: the word chosen is the one focused
    page.keyboard.press("Enter")
    assert page.evaluate("window.xwcp.state.grid.cells.slice(15, 19).join('')") == chosen
    assert errors == []


def _axe_violations(page) -> list[tuple[str, str, list[str]]]:
    return [
        tuple(v)
        for v in page.evaluate("""() => axe.run(document, { resultTypes: ['violations'] }).then((r) =>
        r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => [v.id, v.impact, v.nodes.slice(0, 4).map((n) => n.target.join(' '))]))""")
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_the_page_or_any_panel(server, browser, scheme):
    axe = pytest.importorskip(
        "axe_playwright_python",
        reason="axe-playwright-python (the [test] extra) carries axe-core: the accessibility audit did NOT run",
    )
    page, errors = _open(browser, server)
    page.emulate_media(color_scheme=scheme)
    page.add_script_tag(path=os.path.join(os.path.dirname(axe.__file__), "axe.min.js"))
    page.click('.cell[data-cell="15"]')
    page.keyboard.type("WA")
    page.wait_for_function("document.querySelectorAll('#suggestions li[data-word]').length > 0")
    page.locator('#clues li[data-name="1A"] input').fill("A clue")
    found = {}
    for panel in PANELS:
        page.get_by_role("tab", name=panel).click()
        page.wait_for_timeout(300)  # the panel's own requests (statistics, word list) drawn
        found[panel] = _axe_violations(page)
    assert all(not v for v in found.values()), found
    assert errors == []


BANNED = "QXQZQ"  # a word no list has: banned, it shows in the Word list panel as a banned entry


def _words_edit(page, edit: dict) -> None:
    page.evaluate(
        """(edit) => fetch('/api/words', { method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ edits: [edit] }) }).then((r) => r.json())""",
        edit,
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_while_test_solving_or_with_a_banned_word(server, browser, scheme):
    axe = pytest.importorskip(
        "axe_playwright_python",
        reason="axe-playwright-python (the [test] extra) carries axe-core: the accessibility audit did NOT run",
    )
    page, errors = _open(browser, server)
    page.emulate_media(color_scheme=scheme)
    page.add_script_tag(path=os.path.join(os.path.dirname(axe.__file__), "axe.min.js"))
    _words_edit(page, {"word": BANNED, "score": 0})
    try:
        page.reload()
        page.wait_for_function("window.xwcp && window.xwcp.ready")
        page.add_script_tag(path=os.path.join(os.path.dirname(axe.__file__), "axe.min.js"))
        page.get_by_role("tab", name="Word list").click()
        page.wait_for_selector("#words-list li.banned")
        found = {"Word list": _axe_violations(page)}
        page.get_by_role("tab", name="Fill").click()
        page.click('.cell[data-cell="15"]')
        page.keyboard.type("WA")
        page.click("#solve-toggle")  # test-solve: its toolbar, its status line, its letters
        page.click('.cell[data-cell="30"]')
        page.keyboard.type("AB")
        page.click("#solve-check")
        assert page.evaluate("document.body.classList.contains('solving')")
        for panel in PANELS:
            page.get_by_role("tab", name=panel).click()
            page.wait_for_timeout(300)
            found[f"test-solve {panel}"] = _axe_violations(page)
        assert all(not v for v in found.values()), found
    finally:
        _words_edit(page, {"word": BANNED, "remove": True})
    assert errors == []


def test_typing_on_a_phone_sized_touch_page(server, phone):
    page, errors = _open(phone, server)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page is wider than the phone"
    box = page.locator("#grid").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    page.tap('.cell[data-cell="15"]')  # a tap: the cursor there, the hidden text box focused (the system keyboard)
    assert page.evaluate("window.xwcp.state.cell") == 15
    assert _focused(page) == "#grid-input"
    page.keyboard.insert_text("wa")  # what a phone's keyboard sends: text input, no key events
    page.keyboard.type("R")  # or keys, where it sends them
    page.keyboard.press("Backspace")
    page.keyboard.insert_text("re")
    assert page.evaluate("window.xwcp.state.grid.cells.slice(15, 19).join('')") == "WARE"
    page.tap('.cell[data-cell="75"]')
    page.keyboard.insert_text("x")
    assert page.evaluate("window.xwcp.state.grid.cells[75]") == "X"
    # a phone keyboard's Backspace that sends no key: the box's kept space deleted, seen as an input event
    page.evaluate("""() => { const box = document.getElementById('grid-input'); box.value = '';
        box.dispatchEvent(new InputEvent('input', { inputType: 'deleteContentBackward' })); }""")
    assert page.evaluate("window.xwcp.state.grid.cells[75]") == "."
    assert page.input_value("#grid-input") == " "
    page.screenshot(path=str(_shots() / "phone.png")) if _shots() else None
    assert errors == []


def _shots():
    from pathlib import Path

    folder = os.environ.get("XWCP_SHOTS")
    return Path(folder) if folder else None


def test_dark_theme_follows_the_system(server, browser):
    page, errors = _open(browser, server)
    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    plain = ".cell:not(.block):not(.current):not(.in-slot)"
    cell_light = page.evaluate(f"getComputedStyle(document.querySelector('{plain}')).backgroundColor")
    page.emulate_media(color_scheme="dark")
    dark = page.evaluate("getComputedStyle(document.body).backgroundColor")
    cell_dark = page.evaluate(f"getComputedStyle(document.querySelector('{plain}')).backgroundColor")
    ink = page.evaluate("getComputedStyle(document.body).color")

    def luminance(css: str) -> float:
        r, g, b = (int(x) for x in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255

    assert luminance(light) > 0.9 and luminance(cell_light) > 0.9
    assert luminance(dark) < 0.15 and luminance(cell_dark) < 0.25, (dark, cell_dark)
    assert luminance(ink) > 0.8  # light text on the dark page
    page.emulate_media(color_scheme="light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == light
    assert errors == []
