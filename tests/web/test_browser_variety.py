"""Published variety files in the builder, in Debian's chromium: a Two-Tone and a crossword with a diagonal clue
open with their own clue lists under their own headings and their printed cell labels, an entry of any list is
highlighted from its clue, a clue is edited, and the file saved as .ipuz, .jpz and .json gives, read again by
xwcp, the original's grid, clues, lists and labels (the edited clue changed, nothing else); axe finds nothing
serious with such a file open in either theme.

Needs chromium and playwright, as tests/web/test_browser.py. The files are 3x3 and 5x5: a few seconds each.
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

from tests.web.helpers import ROOT  # noqa: E402
from tests.web.test_browser import _open  # noqa: E402
from xwcp.formats import read_puzzle  # noqa: E402
from xwcp.model import grid_lines  # noqa: E402

pytestmark = pytest.mark.browser

VARIETY = ROOT / "tests" / "data" / "puzzles" / "variety"
SHOTS = os.environ.get("XWCP_SCREENSHOTS")  # a folder: the tests leave their screenshots there to look at


@pytest.fixture(scope="module")
def browser(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True)
    yield context
    context.close()


def _open_file(browser, server, path):
    page, errors = _open(browser, server)  # the 15x15 preset, then the file
    page.get_by_label("Open puzzle file").set_input_files(str(path))
    width = read_puzzle(path).grid.width
    page.wait_for_function(f"window.xwcp.state.grid.width === {width} && window.xwcp.state.lists.length > 0")
    return page, errors


def _headings(page) -> list[str]:
    return page.locator("#clues .clue-list:visible h3").all_inner_texts()


def _saved_and_read(page, tmp_path, fmt, stem):
    with page.expect_download() as download:
        page.click(f"#download-{fmt}")
    path = tmp_path / f"{stem}.{fmt}"
    download.value.save_as(path)
    return read_puzzle(path)


def _same_but(back, original, clue_by_slot):
    assert back.grid.rows == original.grid.rows and back.grid.entries == original.grid.entries
    assert back.clue_by_slot == clue_by_slot
    assert [(x.title, [(c.label, c.entry, c.cells) for c in x.clues]) for x in back.clue_lists] == [
        (x.title, [(c.label, c.entry, c.cells) for c in x.clues]) for x in original.clue_lists
    ]
    assert back.cell_labels == original.cell_labels


CHAINS = pytest.mark.skipif(
    not any(line.startswith("; chain:") for line in grid_lines(read_puzzle(VARIETY / "patchwork.ipuz").grid)),
    reason="xwcp reads no chains from Patchwork's ' / ' rows here (the chain model is not in this tree)",
)


@pytest.mark.parametrize(
    "name", ["two-tone.ipuz", "kotwords-test-diagonal.ipuz", pytest.param("patchwork.ipuz", marks=CHAINS)]
)
def test_a_variety_file_shows_its_lists_and_labels_and_saves_them_back(server, browser, tmp_path, name):
    path = VARIETY / name
    original = read_puzzle(path)
    page, errors = _open_file(browser, server, path)
    titles = [x.title for x in original.clue_lists]
    assert _headings(page)[: len(titles)] == titles
    assert not page.locator("#entries-list").is_visible()  # every listed entry is under its own list
    first_list = page.locator("#own-lists .clue-list").first
    labels = first_list.locator("li .n").all_inner_texts()
    assert labels == [c.label for c in original.clue_lists[0].clues]
    texts = [first_list.locator("li input").nth(i).input_value() for i in range(len(labels))]
    assert texts == [c.text for c in original.clue_lists[0].clues]
    # the grid prints the file's labels where xwcp would number
    for label in original.cell_labels:
        part = ".num" if label.corner == "TL" else ".lab"
        assert page.locator(f'.cell[data-cell="{label.cell}"] {part}').inner_text() == label.text
    if not original.cell_labels:
        assert page.locator('.cell[data-cell="0"] .num').inner_text() == "1"

    chains = {e.name: e.words for e in original.grid.entries if getattr(e, "words", 1) > 1}
    for entry, words in chains.items():  # a chain: one entry of several words, kept as the file has it
        shown = page.locator(f'#own-lists li[data-name="{entry}"] .entry').inner_text()
        assert shown.endswith(f", {words} words)"), shown
    if chains:  # a chain's suggestions: no whole-length words, a note that Autofill chooses its words
        page.locator(f'#own-lists li[data-name="{next(iter(chains))}"] input').click()
        assert "Autofill" in page.locator("#suggestions li.chain-note").inner_text()

    # an entry of the last list highlighted from its clue; its clue edited
    last = page.locator("#own-lists .clue-list").last
    target = original.clue_lists[-1].clues[-1]
    item = last.locator("li").last
    item.locator("input").click()
    slot_cells = page.evaluate(f"window.xwcp.state.slots.find((s) => s.name === {target.entry!r}).cells")
    assert item.get_attribute("class").split().count("current") == 1
    assert sorted(
        int(c)
        for c in page.eval_on_selector_all(".cell.in-slot, .cell.current", "els => els.map((e) => e.dataset.cell)")
    ) == sorted(slot_cells)
    named = f"{original.clue_lists[-1].title} {target.label}"  # the entry as its list names it, not ROWS.A
    assert page.inner_text("#current-clue .id") == named and page.inner_text("#slot-title").startswith(named)
    item.locator("input").fill("An edited clue")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # printed: the file's lists and labels
    assert page.locator(".clue-lists h2").all_inner_texts()[: len(titles)] == titles
    assert "An edited clue" in page.locator(".clue-lists").text_content()
    printed = page.locator(".print-grid span").all_inner_texts()
    assert sorted(printed) == sorted(x.text for x in original.cell_labels) or not original.cell_labels
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/{path.stem}-light.png")
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=f"{SHOTS}/{path.stem}-dark.png")
        page.emulate_media(color_scheme="light")

    clues = {**original.clue_by_slot, target.entry: "An edited clue"}
    for fmt in ("ipuz", "jpz", "json"):
        _same_but(_saved_and_read(page, tmp_path, fmt, path.stem), original, clues)
    # and the .ipuz opened again in a fresh page shows the lists, the labels and the edited clue
    again = tmp_path / f"{path.stem}.ipuz"
    fresh, fresh_errors = _open_file(browser, server, again)
    assert _headings(fresh)[: len(titles)] == titles
    assert fresh.locator("#own-lists .clue-list").last.locator("li input").last.input_value() == "An edited clue"
    assert fresh.eval_on_selector_all(".cell .num", "els => els.map((e) => e.textContent).join()") == (
        page.eval_on_selector_all(".cell .num", "els => els.map((e) => e.textContent).join()")
    )
    assert errors == [] and fresh_errors == []
    fresh.close()
    page.reload()  # the copy saved in this browser keeps the lists, the labels and the edit
    page.wait_for_function("window.xwcp && window.xwcp.ready && window.xwcp.state.lists.length > 0")
    assert _headings(page)[: len(titles)] == titles
    assert page.locator("#own-lists .clue-list").last.locator("li input").last.input_value() == "An edited clue"
    assert page.evaluate("window.xwcp.state.labels.length") == len(original.cell_labels)
    page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_with_a_variety_file_open(server, browser, scheme):
    axe = pytest.importorskip(
        "axe_playwright_python",
        reason="axe-playwright-python (the [test] extra) carries axe-core: the accessibility audit did NOT run",
    )
    from tests.web.test_browser_a11y import _axe_violations

    found = {}
    # labels in two corners; a clue on one cell (a one-letter word, on no entry)
    for name, one_cell in (("twists-and-turns.ipuz", None), ("two-tone-nonsquare.jpz", "Every Other 4 clue")):
        page, errors = _open_file(browser, server, VARIETY / name)
        page.emulate_media(color_scheme=scheme)
        page.add_script_tag(path=f"{axe.__file__.rsplit('/', 1)[0]}/axe.min.js")
        page.locator("#own-lists li input").first.click()
        found[name] = _axe_violations(page)
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/{name}-{scheme}.png")
        if one_cell:
            assert page.get_by_label(one_cell).input_value() == "Odd clue 2"
            assert page.locator("#own-lists li.placed .entry").inner_text() == "G (1)"  # its cell's letter
        assert "labelled" in page.locator('.cell[data-cell="0"]').get_attribute("aria-label")
        assert errors == []
        page.close()
    assert all(not v for v in found.values()), found
