"""Take docs/builder.md's screenshots of the web builder: empty grid, live help, heat map, autofill, print view, core,
the workbench's panels (a .puz opened with its clues, statistics, the word list, test-solve), and bars, circles and
rebus cells (a barred .ipuz in bars mode, rebus suggestions, a locked rebus .puz's warning, a barred print).

Starts `xwcp serve` on a free loopback port (with a throwaway data folder, so the user's personal
word list is not touched) and drives Debian's chromium through playwright.
Example: python3 docs/screenshots/take_screenshots.py            (all; `--grid-only`: the bars, circles and rebus ones only;
`--languages`: the language ones only: a Spanish, a Russian, a Dutch and a Hebrew grid)
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main() -> int:
    from playwright.sync_api import sync_playwright

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data_dir = tempfile.TemporaryDirectory()
    env = dict(os.environ, PYTHONPATH=str(ROOT), XWCP_DATA_DIR=data_dir.name)
    server = subprocess.Popen(
        [sys.executable, "-m", "xwcp", "serve", "--port", str(port)], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        print(server.stdout.readline().strip())
        time.sleep(1.5)
        with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile,
                executable_path="/usr/bin/chromium",
                headless=True,
                args=FLAGS,
                viewport={"width": 1280, "height": 800},
            )
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{port}/#new")
            page.wait_for_function("window.xwcp && window.xwcp.ready")
            if "--languages" in sys.argv:
                language_pictures(page)
            else:
                if "--grid-only" not in sys.argv:
                    builder_pictures(page)
                grid_pictures(page)
                language_pictures(page)
            context.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        data_dir.cleanup()
    for name in sorted(HERE.glob("*.png")):
        print(name.relative_to(ROOT))
    return 0


LANGUAGE_GRIDS = {  # rows in the text syntax ([IJ]: Dutch's one letter), column 1 first (Hebrew's rightmost)
    "es": ["NIÑOS", "O#Ñ#O", "ÑANDU", "A#O#L", "SEÑAL"],
    "ru": ["ДОМИК", "Ж#А#Л", "ЖИЗНЬ", "Ы#А#Я", "ПЕЧЬ."],
    "nl": ["B[IJ]L#Z", "A#.#O", "L[IJ]FEN", "..#.#", "[IJ]S..."],
    "he": ["שלומ#", "י#ב#י", "רחוב.", "ה#ק#מ", "אבנ.."],
}


def language_pictures(page) -> None:
    """A grid per language: its letters in the cells, its row of letters beyond A-Z, Hebrew right to left."""
    from urllib.parse import urlencode

    base = page.url.split("#")[0]
    for code, rows in LANGUAGE_GRIDS.items():
        cells = [row for row in rows]
        fragment = urlencode({"w": 5, "h": 5, "t": "\n".join(cells), "lang": code})
        page.goto(f"{base}?{code}#{fragment}")
        page.wait_for_function("window.xwcp && window.xwcp.ready")
        page.click('.cell[data-cell="24"]' if code != "he" else '.cell[data-cell="4"]')
        page.wait_for_timeout(800)
        page.locator(".board").screenshot(path=str(HERE / f"language-{code}.png"))


def grid_pictures(page) -> None:
    """Bars, circles and rebus cells."""
    puzzles = ROOT / "tests" / "data" / "puzzles"
    page.get_by_label("Open puzzle file").set_input_files(str(puzzles / "ccw-barred-demo.ipuz"))
    page.wait_for_function("document.getElementById('message').textContent.startsWith('opened')")
    page.check("input[name=mode][value=bars]")
    box = page.locator('.cell[data-cell="40"]').bounding_box()  # hover an edge: the bar a click would toggle
    page.mouse.move(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(1500)
    page.screenshot(path=str(HERE / "bars.png"))
    page.mouse.move(0, 0)
    page.check("input[name=mode][value=letters]")
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.wait_for_timeout(300)
    page.screenshot(path=str(HERE / "print-barred.png"), full_page=True)
    page.emulate_media(media="screen")

    page.select_option("#preset", "15x15-rebus-01")
    page.wait_for_function("window.xwcp.state.grid.cells.includes('STAR')")
    page.click('.cell[data-cell="21"]')
    page.get_by_role("button", name="Circle").click()
    page.click('.cell[data-cell="30"]')  # 16A: six cells and the STAR cell, ten letters
    page.wait_for_function(
        "document.getElementById('slot-title').textContent.includes('STAR') && "
        "document.getElementById('suggestions').dataset.slot === '16A'"
    )
    page.wait_for_timeout(1500)
    page.screenshot(path=str(HERE / "rebus.png"))

    page.get_by_label("Open puzzle file").set_input_files(str(puzzles / "nyt_sun_rebus.puz"))
    page.wait_for_function("!document.getElementById('file-warnings').hidden")
    page.wait_for_timeout(1500)
    page.screenshot(path=str(HERE / "rebus-file-warning.png"))


def builder_pictures(page) -> None:
    """The builder's pictures: the empty grid, live help, the heat map, autofill, the print view, the core, the panels."""
    page.wait_for_timeout(1500)
    page.screenshot(path=str(HERE / "empty-grid.png"))

    page.click('.cell[data-cell="15"]')
    page.keyboard.type("WARE", delay=150)
    page.click('.cell[data-cell="0"]')
    page.keyboard.press("Enter")  # 1D, crossing the typed W at row 2
    page.wait_for_timeout(1500)
    # the solver's labels stream in by themselves: wait until 1D's shown words are settled
    page.wait_for_function(
        "(l => l.dataset.slot === '1D' && l.dataset.done === 'true')(document.getElementById('suggestions'))",
        timeout=60_000,
    )
    page.wait_for_timeout(300)
    page.screenshot(path=str(HERE / "live-help.png"))

    page.check("#heat")
    page.wait_for_timeout(500)
    page.screenshot(path=str(HERE / "heat-map.png"))
    page.uncheck("#heat")

    page.click("#fill-all")
    page.wait_for_selector("#progress[data-status]", timeout=60_000)
    page.wait_for_timeout(300)
    page.screenshot(path=str(HERE / "autofill-done.png"))

    page.click("#accept")
    page.click('.cell[data-cell="15"]')
    page.keyboard.press("Enter")  # back to 14A
    page.get_by_role("textbox", name="14 Across clue", exact=True).fill("Goods for sale")
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    page.wait_for_timeout(300)
    page.screenshot(path=str(HERE / "print-view.png"), full_page=True)
    page.emulate_media(media="screen")

    page.fill("#new-width", "7")
    page.fill("#new-height", "7")
    page.click("#new-grid")
    page.wait_for_timeout(800)
    page.click("#fill-all")  # an open 7x7: a long search, its current branch drawn in pencil
    page.wait_for_timeout(2500)
    page.screenshot(path=str(HERE / "autofill-running.png"))
    page.click("#stop")
    page.wait_for_selector("#progress[data-status]", timeout=10_000)

    page.select_option("#preset", "4x4-unfillable")
    page.wait_for_timeout(2500)
    page.screenshot(path=str(HERE / "unfillable.png"))

    page.get_by_label("Open puzzle file").set_input_files(str(ROOT / "tests/data/formats/xwcp-15x15-clued.puz"))
    page.wait_for_function("document.querySelectorAll('#clues input').length === 76")
    page.click('.cell[data-cell="35"]')  # 18A OLDSMOBILE
    page.get_by_role("button", name="Theme entry").click()
    page.click('.cell[data-cell="15"]')
    page.wait_for_timeout(800)
    page.screenshot(path=str(HERE / "workbench.png"))
    page.get_by_role("tab", name="Stats").click()
    page.wait_for_timeout(800)
    page.screenshot(path=str(HERE / "statistics.png"))

    page.get_by_role("tab", name="Fill").click()
    page.select_option("#preset", "15x15-daily-01")
    page.click('.cell[data-cell="15"]')
    page.wait_for_function("document.querySelectorAll('#suggestions li[data-word]').length > 10")
    page.wait_for_timeout(500)
    for _ in range(2):
        word = page.eval_on_selector("#suggestions li[data-word]", "li => li.dataset.word")
        page.get_by_role("button", name=f"Ban {word}").click()
        page.wait_for_timeout(600)
    page.get_by_role("tab", name="Word list").click()
    page.fill("#word-input", "WARE")
    page.fill("#word-score", "100")
    page.click("#word-set")
    page.wait_for_timeout(600)
    page.screenshot(path=str(HERE / "word-list.png"))

    page.get_by_role("tab", name="Saved").click()
    page.locator("#saved-list li").filter(has_text="Workbench Test 15").get_by_role("button", name="Open").click()
    page.wait_for_timeout(500)
    page.get_by_role("button", name="Test-solve").click()
    page.click('.cell[data-cell="0"]')
    page.keyboard.type("HIFI", delay=50)
    page.click('.cell[data-cell="15"]')
    page.keyboard.type("ANUS", delay=50)
    page.get_by_role("button", name="Check").click()
    page.wait_for_timeout(300)
    page.screenshot(path=str(HERE / "test-solve.png"))
    page.get_by_role("button", name="Back to building").click()


if __name__ == "__main__":
    sys.exit(main())
