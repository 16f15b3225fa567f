"""Take the README's screenshots of the web builder: empty grid, live help, heat map, autofill done, print view, core.

Starts `xwcp serve` on a free loopback port and drives Debian's chromium through playwright.
Example: python3 docs/screenshots/take_screenshots.py
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
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> int:
    from playwright.sync_api import sync_playwright

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen([sys.executable, "-m", "xwcp", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.PIPE, text=True)
    try:
        print(server.stdout.readline().strip())
        time.sleep(1.5)
        with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
            context = p.chromium.launch_persistent_context(profile, executable_path="/usr/bin/chromium",
                                                           headless=True, args=FLAGS,
                                                           viewport={"width": 1200, "height": 720})
            page = context.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.wait_for_function("window.xwcp && window.xwcp.ready")
            page.wait_for_timeout(1500)
            page.screenshot(path=str(HERE / "empty-grid.png"))

            page.click('.cell[data-cell="15"]')
            page.keyboard.type("WARE", delay=150)
            page.click('.cell[data-cell="0"]')
            page.keyboard.press("Enter")  # 1D, crossing the typed W at row 2
            page.wait_for_timeout(1500)
            page.click("#label-words")
            page.wait_for_selector("#suggestions .label", timeout=60_000)
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
            page.fill("#clue", "Goods for sale")
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
            context.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    for name in sorted(HERE.glob("*.png")):
        print(name.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
