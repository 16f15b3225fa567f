"""The clue help panel in Debian's chromium: the entry under the cursor gets its definitions, phrase and licence, a
remembered clue is one click from its clue box, a clue that gives its answer away gets a note under it, and axe finds
nothing serious in the light or the dark theme with the panel and a note shown.

Needs chromium and playwright, as tests/web/test_browser.py; the audit needs axe-playwright-python (the [test] extra).
"""

from __future__ import annotations

import json
import os
from urllib.parse import urlencode

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

from tests.web.test_browser import _open  # noqa: E402
from tests.web.test_browser_a11y import _axe_violations  # noqa: E402
from tests.words.wordnet_fixture import write_wordnet  # noqa: E402
from xwcp.words import cluememory  # noqa: E402


@pytest.fixture(autouse=True)
def wordnet(tmp_path, monkeypatch):
    """The tiny WordNet for the server (it runs in this process: it reads the variables at each request)."""
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("WNSEARCHDIR", str(write_wordnet(tmp_path / "wordnet")))


def _link(clues: dict[str, str]) -> str:
    return "#" + urlencode({"w": 3, "h": 3, "g": "RUNICEBEG", "c": json.dumps(clues)})


def test_the_panel_shows_help_for_the_entry_under_the_cursor(server, browser):
    cluememory.remember([("RUN", "Score in baseball")])  # the server's memory (xwcp clues --learn)
    page, errors = _open(browser, server + _link({"1A": "Dash"}))
    page.click('.cell[data-cell="1"]')  # 1A RUN (its first cell has the cursor: a click there turns it down)
    page.wait_for_selector("#clue-help .senses li")
    panel = page.locator("#clue-help")
    assert panel.locator(".clue-help-head b").text_content() == "RUN"
    assert "a score in baseball" in panel.locator(".senses").text_content()
    assert "WordNet 3.0 licence" in panel.locator(".licence").text_content()
    panel.get_by_role("button", name="Score in baseball").click()
    assert page.locator('#clues li[data-name="1A"] input').input_value() == "Score in baseball"
    page.click('.cell[data-cell="4"]')  # 4A ICE: no sense in the tiny WordNet, nothing to offer
    page.wait_for_function("document.querySelector('#clue-help .clue-help-head b')?.textContent === 'ICE'")
    assert "Nothing remembered or defined" in panel.text_content()
    assert errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_clue_giving_its_answer_away_gets_a_note_and_axe_is_clean(server, browser, scheme):
    page, errors = _open(browser, server + _link({"4A": "Cold cubes"}))
    page.emulate_media(color_scheme=scheme)
    page.locator('#clues li[data-name="1A"] input').fill("Runs fast")
    note = page.locator('#clues li[data-name="1A"] .clue-note')
    note.wait_for()
    assert "runs" in note.text_content() and "RUN" in note.text_content()
    assert "1 clue with notes" in page.locator("#clue-notes-count").text_content()
    page.locator('#clues li[data-name="1A"] input').fill("Dash")
    note.wait_for(state="detached")
    page.locator('#clues li[data-name="1A"] input').fill("Runs fast")
    note.wait_for()
    page.click('.cell[data-cell="1"]')
    page.wait_for_selector("#clue-help .senses li")
    axe = pytest.importorskip(
        "axe_playwright_python",
        reason="axe-playwright-python (the [test] extra) carries axe-core: the accessibility audit did NOT run",
    )
    page.add_script_tag(path=os.path.join(os.path.dirname(axe.__file__), "axe.min.js"))
    assert _axe_violations(page) == []
    assert errors == []
