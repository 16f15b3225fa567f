"""A Rows Garden in the builder, in Debian's chromium: Autofill chooses where each row's two words end (the same
chain fill as `xwcp fill`), the rows' clues show their words ("WORD / WORD"), Accept keeps the fill, and a row's
suggestions say that a chain is filled word by word by Autofill rather than list whole-row words.

Needs chromium and playwright, as tests/web/test_browser.py. kotwords' 15x7 mini: the fill takes a second.
"""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

from tests.web.test_browser_variety import SHOTS, VARIETY, _open_file, browser  # noqa: E402, F401
from xwcp.formats import read_puzzle, write_puzzle  # noqa: E402
from xwcp.model.grid import BLOCK, EMPTY  # noqa: E402
from xwcp.model.puzzle import puzzle_from_fill  # noqa: E402

pytestmark = pytest.mark.browser


def test_autofill_fills_a_rows_garden_word_by_word_and_accept_keeps_it(server, browser, tmp_path):  # noqa: F811
    puzzle = read_puzzle(VARIETY / "rows-garden-mini.jpz")
    empty = puzzle.grid.with_cells(cell if cell == BLOCK else EMPTY for cell in puzzle.grid.cells)
    path = tmp_path / "empty-rows-garden-mini.jpz"
    write_puzzle(puzzle_from_fill(puzzle, empty), path)
    chains = {entry.name: entry for entry in empty.entries if entry.words > 1}
    assert chains
    page, errors = _open_file(browser, server, path)

    first = next(iter(chains))
    page.locator(f'li[data-name="{first}"] input').click()  # the row's clue: the row is the current entry
    note = page.locator("#suggestions li.chain-note")
    note.wait_for(timeout=10_000)
    assert "chain of 2 words" in note.inner_text() and "Autofill" in note.inner_text()
    assert not page.locator("#suggestions li[data-word]").count()  # no whole-row words offered

    page.click("#fill-all")
    page.wait_for_selector("#progress[data-status]", timeout=60_000)
    assert page.get_attribute("#progress", "data-status") == "filled", page.inner_text("#progress")
    assert "chains split on try" in page.inner_text("#progress")
    shown_words = {}
    for name in chains:
        text = page.locator(f'li[data-name="{name}"] .entry').inner_text()
        words, _, count = text.rpartition(" (")
        assert count.endswith(", 2 words)") and words.count(" / ") == 1, text
        shown_words[name] = words.split(" / ")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/rows-garden-autofill.png", full_page=True)
    page.click("#accept")
    cells = page.evaluate("window.xwcp.state.grid.cells")
    for name, entry in chains.items():
        letters = "".join(cells[cell] for cell in entry.cells)
        assert letters.isalpha() and letters.isupper(), (name, letters)  # every chain cell filled
        assert "".join(shown_words[name]) == letters
        text = page.locator(f'li[data-name="{name}"] .entry').inner_text()
        assert text.startswith(" / ".join(shown_words[name])), text  # accepted: the clue keeps the words
    assert all(cell == BLOCK or cell.isalpha() for cell in cells)
    assert errors == []
