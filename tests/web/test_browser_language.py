"""The builder in other languages (issue 36), in Debian's chromium: a Spanish, a Russian and a Dutch puzzle typed
(keys, a dead-key composition, the on-screen row of letters beyond A-Z, the rebus box), shown (IJ in one cell), filled,
saved (this browser's store, a share link, a .json file) and printed in their language; a Hebrew grid drawn right to
left (numbered from the right, the cursor moving left); no silent English fill for a language without a list; the new
controls pass axe.

Needs chromium and playwright, as tests/web/test_browser.py. A language's list is given the way a user gives one: a
list file in the data folder (as `xwcp words build` writes it) or uploaded in the Word list panel.
"""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")

from tests.helpers import (
    entries_of,  # noqa: E402
    hindi_ring,  # noqa: E402
)
from tests.web.test_browser import _open  # noqa: E402
from xwcp.compile.problem import compile_problem  # noqa: E402
from xwcp.engine.result import check_fill  # noqa: E402
from xwcp.model import parse_grid  # noqa: E402
from xwcp.model.alphabet import load_alphabet  # noqa: E402
from xwcp.words.wordlist import load_word_list  # noqa: E402

RING = ["...", ".#.", "..."]
"""Four 3-letter entries round a block: 1A on top, 1D on the left, 2D on the right, 3A at the bottom."""
LISTS = {  # a ring's four words and decoys; each list has one fill of RING only
    "es": "AÑO;80\nASO;70\nOSO;70\nOJO;70\nNOS;60\nPIE;60\n",
    "ru": "ЖУК;80\nЖИР;70\nКОТ;70\nРОТ;70\nДОМ;60\n",
    "nl": "BIJL;80\nBAL;70\nLIJF;70\nLAF;70\nZON;60\n",
    "de": "HUT;80\nHAT;70\nTAL;70\nTOL;70\nUHR;60\n",
    "he": "אבמ;80\nארכ;70\nמסצ;70\nכלצ;70\nשלומ;60\n",
}


@pytest.fixture(scope="module")
def browser(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 860})
    yield context
    context.close()


def _list_file(code: str) -> None:
    """The language's list where `xwcp words build` writes one (this test's data folder)."""
    folder = os.path.join(os.environ["XWCP_DATA_DIR"], "words")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{code}-test.dict"), "w", encoding="utf-8") as handle:
        handle.write(LISTS[code])


def _puzzle(browser, server, code: str, rows=RING):
    """A page with a new puzzle of `rows` in language `code` (chosen in the selector, as a user does)."""
    page, errors = _open(browser, server)
    page.select_option("#language", code)
    page.fill("#new-width", str(len(rows[0])))
    page.fill("#new-height", str(len(rows)))
    page.click("#new-grid")
    for cell, ch in enumerate("".join(rows)):
        if ch == "#":
            page.click(f'.cell[data-cell="{cell}"]')
            page.keyboard.press("Space")
    page.wait_for_function(f"window.xwcp.state.language === '{code}'")
    assert "".join("#" if c == "#" else "." for c in _cells(page)) == "".join(rows)
    return page, errors


def _cells(page) -> list[str]:
    return page.evaluate("window.xwcp.state.grid.cells")


def _shown(page) -> list[str]:
    return page.evaluate("[...document.querySelectorAll('#grid .cell .letter')].map((el) => el.textContent)")


def _print_with_answers(page) -> None:
    """Lay the page out for print with the answer key, as the browser's print does (the print view is drawn)."""
    page.check("#print-answers")
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")


def _compose(page, preedit: str, text: str) -> None:
    """A dead key or an input method: `preedit` shown while composing, then `text` committed (chromium's IME calls)."""
    session = page.context.new_cdp_session(page)
    session.send("Input.imeSetComposition", {"text": preedit, "selectionStart": 1, "selectionEnd": 1})
    session.send("Input.insertText", {"text": text})
    session.detach()


def test_spanish_typed_with_a_dead_key_shown_saved_shared_and_printed(server, browser, tmp_path):
    page, errors = _puzzle(browser, server, "es")
    # no Spanish list here yet: said at once, and the page never fills in English
    assert page.is_visible("#language-note") and "xwcp words build --language es" in page.inner_text("#language-note")
    page.click('.cell[data-cell="0"]')
    assert page.evaluate("document.activeElement.id") == "grid-input"  # the system keyboard's text box
    page.keyboard.press("a")
    _compose(page, "~", "ñ")  # a dead-key sequence: ~ then n, composed
    page.keyboard.press("o")
    assert _cells(page)[:3] == ["A", "Ñ", "O"]
    page.click("#fill-all")
    page.wait_for_function("document.getElementById('progress').textContent.includes('no Spanish')")
    # a character of no Spanish letter is refused by name; an accented vowel folds as the pack says (É -> E)
    page.click('.cell[data-cell="3"]')
    page.keyboard.insert_text("ж")
    assert "Ж is not a letter of Spanish" in page.inner_text("#message")
    assert _cells(page)[3] == "."
    # the on-screen row: Ñ by a click
    assert page.is_visible('#letter-row button[data-letter="Ñ"]')
    page.click('.cell[data-cell="8"]')
    page.click('#letter-row button[data-letter="Ñ"]')
    assert _cells(page)[8] == "Ñ"
    assert _shown(page)[1] == "Ñ"
    # saved in this browser with its language, and back on reload
    page.wait_for_function("localStorage.getItem('xwcp:current') !== null")
    page.wait_for_timeout(400)
    page.reload()
    page.wait_for_function("window.xwcp && window.xwcp.ready")
    assert page.evaluate("window.xwcp.state.language") == "es" and page.input_value("#language") == "es"
    assert _cells(page)[:3] == ["A", "Ñ", "O"]
    # the share link carries the letters and the language
    page.click("#share")
    link = page.evaluate("location.href")
    assert "lang=es" in link
    other, _ = _open(browser, link.replace("#", "?fresh#"))
    assert other.evaluate("window.xwcp.state.language") == "es" and _cells(other)[:3] == ["A", "Ñ", "O"]
    other.close()
    # saved as a file: the letter as Spanish writes it
    with page.expect_download() as download_info:
        page.click("#download-json")
    doc = json.loads(open(download_info.value.path(), encoding="utf-8").read())
    assert "Ñ" in doc["grid"][0]
    # printed: the answer key in Spanish letters
    _print_with_answers(page)
    assert "Ñ" in page.inner_text("#print-view .answer-key")
    assert not errors


def test_russian_typed_on_the_letter_row_and_keys(server, browser):
    page, errors = _puzzle(browser, server, "ru")
    letters = page.eval_on_selector_all("#letter-row button", "bs => bs.map((b) => b.textContent)")
    assert len(letters) == 32 and "Ж" in letters and "Й" in letters
    page.click('.cell[data-cell="0"]')
    for letter in "ЖУК":
        page.click(f'#letter-row button[data-letter="{letter}"]')
    assert _cells(page)[:3] == ["Ж", "У", "К"]
    # a Russian keyboard's keys (the key's character, lower case)
    page.click('.cell[data-cell="6"]')
    page.keyboard.insert_text("рот")
    assert _cells(page)[6:9] == ["Р", "О", "Т"]
    # from the keyboard: Tab reaches a letter button, Enter types it where the cursor is
    page.click('.cell[data-cell="3"]')
    page.focus('#letter-row button[data-letter="И"]')
    page.keyboard.press("Enter")
    assert _cells(page)[3] == "И"
    assert _shown(page)[:4] == ["Ж", "У", "К", "И"]
    page.wait_for_timeout(400)  # saved in this browser: back on reload
    page.reload()
    page.wait_for_function("window.xwcp && window.xwcp.ready")
    assert page.input_value("#language") == "ru" and _cells(page)[:4] == ["Ж", "У", "К", "И"]
    _print_with_answers(page)
    assert "Ж" in page.inner_text("#print-view .answer-key")
    assert not errors


def test_dutch_ij_takes_one_cell(server, browser):
    page, errors = _puzzle(browser, server, "nl", rows=["....", "....", "...."])
    page.click('.cell[data-cell="1"]')
    page.click('.cell[data-cell="0"]')  # across
    page.keyboard.type("bijl")  # I then J: Dutch's one letter IJ, in one cell
    cells = _cells(page)
    assert len(cells[1]) == 1 and cells[2] == "L" and cells[3] == "."  # IJ is one code char
    assert _shown(page)[:3] == ["B", "IJ", "L"]
    fits = page.evaluate("""() => { const letter = document.querySelectorAll('#grid .cell .letter')[1];
        const range = document.createRange(); range.selectNodeContents(letter);
        return [range.getBoundingClientRect().width, letter.closest('.cell').getBoundingClientRect().width,
                letter.classList.contains('rebus')]; }""")
    assert fits[0] < fits[1] and fits[2]  # the two characters fit the cell, sized as a rebus's
    # the rebus box takes the language's letters: "ijs" is IJ and S
    page.click('.cell[data-cell="4"]')
    page.click("#rebus")
    page.keyboard.type("ijs")
    page.keyboard.press("Enter")
    assert _shown(page)[4] == "IJS" and len(_cells(page)[4]) == 2
    # kept written in this browser (a code char lives only as long as the server's process), read back as IJ
    page.wait_for_timeout(400)
    stored = page.evaluate("JSON.parse(localStorage.getItem('xwcp:puzzle:' + localStorage.getItem('xwcp:current')))")
    assert stored["language"] == "nl" and stored["grid"]["cells"][:3] == ["B", "IJ", "L"]
    page.reload()
    page.wait_for_function("window.xwcp && window.xwcp.ready")
    assert _shown(page)[:3] == ["B", "IJ", "L"] and len(_cells(page)[1]) == 1
    assert _shown(page)[4] == "IJS" and len(_cells(page)[4]) == 2
    _print_with_answers(page)  # printed: IJ in one cell of the answer key
    key = page.eval_on_selector_all("#print-view .answer-key .print-grid > div", "ds => ds.map((d) => d.textContent)")
    assert key[:3] == ["B", "IJ", "L"]
    page.emulate_media(media="screen")
    # the puzzle turned English: IJ is the rebus I+J there, shown the same
    page.select_option("#language", "en")
    assert _cells(page)[:3] == ["B", "IJ", "L"] and _shown(page)[:3] == ["B", "IJ", "L"]
    assert not errors


def test_hebrew_grid_reads_and_numbers_from_the_right(server, browser):
    page, errors = _puzzle(browser, server, "he")
    assert page.get_attribute("#grid", "dir") == "rtl"
    box = {n: page.locator(f'.cell[data-cell="{n}"]').bounding_box() for n in (0, 1, 2)}
    assert box[0]["x"] > box[1]["x"] > box[2]["x"]  # column 1 on the right
    numbers = page.evaluate("[...document.querySelectorAll('#grid .cell .num')].map((el) => el.textContent)")
    assert numbers[0] == "1" and numbers[2] == "2"  # 1 at the top right, 2 to its left
    page.click('.cell[data-cell="0"]')
    page.keyboard.insert_text("ש")
    assert _cells(page)[0] == "ש" and page.evaluate("window.xwcp.state.cell") == 1  # the cursor moved left
    page.keyboard.press("ArrowLeft")  # on along the entry: further left
    assert page.evaluate("window.xwcp.state.cell") == 2
    assert not errors


def test_turkish_greek_and_hindi_letters_are_typed_their_way(server, browser):
    page, errors = _puzzle(browser, server, "tr")
    page.click('.cell[data-cell="1"]')
    page.click('.cell[data-cell="0"]')
    page.keyboard.insert_text("iı")  # Turkish upper case: i -> İ, ı -> I
    assert _cells(page)[:2] == ["İ", "I"]
    page.select_option("#language", "el")
    page.click('.cell[data-cell="6"]')
    page.keyboard.insert_text("ας")  # the final sigma is Σ
    assert _cells(page)[6:8] == ["Α", "Σ"]
    page.select_option("#language", "hi")  # an akshara typed a piece at a time takes one cell: क ् ष ि is क्षि
    page.click('.cell[data-cell="0"]')
    for piece in ("क", "्", "ष", "ि", "न"):
        page.keyboard.insert_text(piece)
    assert _cells(page)[:2] == ["क्षि", "न"] and _shown(page)[0] == "क्षि"
    assert not errors


def test_a_typed_variant_folds_as_the_languages_lists_fold_it(server, browser):
    """The page folds a typed character by the pack's own fold map before stripping marks, as the server's lists do:
    Hebrew's final ם is מ (it was refused), Romanian's cedilla ş is Ș (not S), an Ancient Greek iota subscript is Α
    and the adscript Ι in the next cell (not Α alone)."""
    page, errors = _puzzle(browser, server, "he")
    page.click('.cell[data-cell="0"]')
    page.keyboard.insert_text("ם")
    assert _cells(page)[0] == "מ" and _shown(page)[0] == "מ"  # 1A does not end in cell 0: shown plain
    page.select_option("#language", "ro-diacritics")
    page.click('.cell[data-cell="6"]')
    page.keyboard.insert_text("şţ")
    assert _cells(page)[6:8] == ["Ș", "Ț"]
    page.select_option("#language", "grc")
    page.click('.cell[data-cell="6"]')
    page.keyboard.insert_text("ᾳ")
    assert _cells(page)[6:8] == ["Α", "Ι"]
    assert not errors


def test_hindi_suggestions_and_autofill_in_aksharas(server, browser):
    """Hindi's letters are its list's aksharas (an open pack): the page sends those beyond the pack written, the
    server reads each as one letter and answers in written aksharas. A typed akshara narrows 1A's suggestions; the
    one clicked fills one akshara a cell; autofill fills the ring, checked against the list."""
    ring, text = hindi_ring()
    folder = os.path.join(os.environ["XWCP_DATA_DIR"], "words")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "hi-test.dict"), "w", encoding="utf-8") as handle:
        handle.write(text)
    page, errors = _puzzle(browser, server, "hi")
    page.click('.cell[data-cell="1"]')
    page.click('.cell[data-cell="0"]')  # across
    page.keyboard.insert_text(ring[0][0])
    assert _shown(page)[0] == ring[0][0]
    word = "".join(ring[0])
    page.click('.cell[data-cell="0"]')
    page.wait_for_function(f"!!document.querySelector('#suggestions li[data-word=\"{word}\"]')", timeout=30_000)
    shown = page.eval_on_selector_all("#suggestions li[data-word]", "items => items.map(li => li.dataset.word)")
    assert all(w.startswith(ring[0][0]) for w in shown)  # written aksharas, the typed one first
    page.click(f'#suggestions li[data-word="{word}"]')
    page.wait_for_function("window.xwcp.state.grid.cells[2] !== '.'")
    assert _shown(page)[:3] == ring[0]
    page.click("#fill-all")
    page.wait_for_selector("#progress[data-status]", timeout=60_000)
    assert page.get_attribute("#progress", "data-status") == "filled", page.inner_text("#progress")
    page.click("#accept")
    page.wait_for_function("!window.xwcp.state.grid.cells.includes('.')")
    shown = _shown(page)  # by cell, '' for the block: the fill as written
    assert shown[:3] == ring[0]  # the clicked word stayed
    from xwcp.words.wordlist import load_word_list

    words = load_word_list(os.path.join(folder, "hi-test.dict"), alphabet=load_alphabet("hi"))
    problem = compile_problem(parse_grid("\n".join(RING), alphabet=words.alphabet), words)
    entries = tuple(words.alphabet.fold_word("".join(shown[cell] for cell in slot.cells)) for slot in problem.slots)
    assert check_fill(problem, entries) == []
    assert not errors


def test_language_controls_pass_axe(server, browser):
    axe = pytest.importorskip(
        "axe_playwright_python",
        reason="axe-playwright-python (the [test] extra) carries axe-core: the accessibility audit did NOT run",
    )
    page, errors = _puzzle(browser, server, "ru")
    page.add_script_tag(path=os.path.join(os.path.dirname(axe.__file__), "axe.min.js"))
    found = page.evaluate("""() => axe.run({ include: [['#letter-row'], ['#language'], ['#language-note']] },
        { resultTypes: ['violations'] }).then((r) => r.violations.filter((v) => ['serious', 'critical']
        .includes(v.impact)).map((v) => [v.id, v.help]))""")
    assert found == []
    assert not errors


def _fill(page) -> list[str]:
    page.click("#fill-all")
    page.wait_for_function(
        "!document.getElementById('pencil-actions').hidden"
        " || /unfillable|error|no .* list|failed/.test(document.getElementById('progress').textContent)",
        timeout=30000,
    )
    assert page.is_visible("#pencil-actions"), page.inner_text("#progress")
    page.click("#accept")
    return _cells(page)


@pytest.mark.parametrize("code", ["de", "es", "ru", "nl"])
def test_a_puzzle_fills_in_its_language(server, browser, code):
    _list_file(code)
    page, errors = _puzzle(browser, server, code)
    assert not page.is_visible("#language-note")
    cells = _fill(page)
    import xwcp
    from xwcp.words.wordlist import load_word_list

    alphabet = load_alphabet(code)
    words = load_word_list(os.path.join(os.environ["XWCP_DATA_DIR"], "words", f"{code}-test.dict"), alphabet=alphabet)
    problem = xwcp.compile_problem(xwcp.parse_grid("\n".join(RING)), words)
    rows = ["".join(cells[r * 3 : (r + 1) * 3]) for r in range(3)]
    assert check_fill(problem, entries_of(problem, rows)) == []
    assert not errors


def test_hebrew_fill_shows_final_letters_where_entries_end(server, browser):
    """RING's entries end in cells 2 (1A), 6 (1D) and 8 (2D and 3A): there the page shows a final form (ם ך ץ), and
    the print's answer key too, while the grid keeps the letters (מ כ צ) that match both crossing entries."""
    _list_file("he")
    page, errors = _puzzle(browser, server, "he")
    cells = _fill(page)
    hebrew = load_alphabet("he")
    words = load_word_list(os.path.join(os.environ["XWCP_DATA_DIR"], "words", "he-test.dict"), alphabet=hebrew)
    problem = compile_problem(parse_grid("\n".join(RING), alphabet=hebrew), words)
    assert check_fill(problem, entries_of(problem, ["".join(cells[r * 3 : (r + 1) * 3]) for r in range(3)])) == []
    finals = {"כ": "ך", "מ": "ם", "נ": "ן", "פ": "ף", "צ": "ץ"}
    want = ["" if c == "#" else finals.get(c, c) if cell in (2, 6, 8) else c for cell, c in enumerate(cells)]
    assert _shown(page) == want and any(want[cell] != cells[cell] for cell in (2, 6, 8))
    entries = page.evaluate("[...document.querySelectorAll('#clues li')].map((li) => li.children[2].textContent)")
    assert entries and all(text.split(" (")[0][-1] not in finals for text in entries), entries  # the list: ם, not מ
    assert any(text.split(" (")[0][-1] in finals.values() for text in entries), entries
    _print_with_answers(page)
    key = page.evaluate("[...document.querySelectorAll('#print-view .answer-key .l')].map((el) => el.textContent)")
    assert key == [x for x in want if x]
    assert not errors


def test_hebrew_suggestions_show_final_letters(server, browser):
    """The suggestion list writes a Hebrew word's last letter in its final form (אבם), while the word it enters and
    bans stays the plain letters the list matches on (אבמ)."""
    _list_file("he")
    page, errors = _puzzle(browser, server, "he")
    page.click('.cell[data-cell="0"]')  # 1A and 1D start here
    if "1A" not in page.inner_text("#slot-title"):
        page.click('.cell[data-cell="0"]')
    page.wait_for_function(
        "(l => l.dataset.slot === '1A' && l.dataset.done === 'true')(document.getElementById('suggestions'))",
        timeout=60_000,
    )
    shown = page.evaluate(
        "[...document.querySelectorAll('#suggestions li[data-word]')]"
        ".map((li) => [li.dataset.word, li.querySelector('.word').textContent])"
    )
    finals = {"כ": "ך", "מ": "ם", "נ": "ן", "פ": "ף", "צ": "ץ"}
    assert shown and all(text == word[:-1] + finals.get(word[-1], word[-1]) for word, text in shown), shown
    assert any(word[-1] in finals for word, _ in shown), shown  # the case the rule is for is among them
    page.click("#suggestions li[data-word='אבמ']")  # entering it puts the plain letters in the grid
    page.wait_for_function("window.xwcp.state.grid.cells.slice(0, 3).join('') === 'אבמ'")
    assert _shown(page)[2] == "ם"
    assert not errors
