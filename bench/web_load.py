"""Load and latency of the web builder on loopback: concurrent /api/domains clients, and keystroke-to-suggestions
time in a real browser.

Starts `xwcp serve` on a free 127.0.0.1 port (a child process, stopped at the end), then
1. one client alone (the service time), then N concurrent clients (default 50) each POST
   /api/domains for a 15x15 grid R times (default 4): errors, p50/p95/max latency, requests per second;
2. the same for /api/suggest (one slot: what the page asks after each keystroke);
3. in chromium (if installed; playwright's Python package pointed at /usr/bin/chromium): on the
   15x15 daily, type letters into 14A one at a time, waiting for the answer, and report the time
   from keydown to the updated suggestion list (p50/p95/max), then the same when typing fast.
Only loopback is used; the request count and time are bounded (--clients, --requests, --timeout).

Example: python3 bench/web_load.py --clients 50 --requests 4
"""
from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRID = ROOT / "models" / "15x15-daily-01.txt"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _rows() -> list[str]:
    return [line.strip() for line in GRID.read_text().splitlines() if line.strip() and not line.startswith(";")]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _summary(name: str, times_ms: list[float], errors: int, wall_s: float | None = None) -> str:
    if not times_ms:
        return f"{name}: no successful request, {errors} errors"
    line = (f"{name}: {len(times_ms)} ok, {errors} errors; latency p50 {statistics.median(times_ms):.1f} ms, "
            f"p95 {_percentile(times_ms, 0.95):.1f} ms, max {max(times_ms):.1f} ms")
    if wall_s:
        line += f"; {len(times_ms) / wall_s:.0f} requests/s"
    return line


async def _load(url: str, body: dict, clients: int, requests: int, timeout_s: float) -> tuple[list[float], int, float]:
    import httpx

    times_ms: list[float] = []
    errors = 0
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(timeout=timeout_s, limits=limits) as client:
        async def one_client() -> None:
            nonlocal errors
            for _ in range(requests):
                start = time.perf_counter()
                try:
                    response = await client.post(url, json=body)
                    ok = response.status_code == 200
                except httpx.HTTPError:
                    ok = False
                if ok:
                    times_ms.append((time.perf_counter() - start) * 1000)
                else:
                    errors += 1

        start = time.perf_counter()
        await asyncio.gather(*(one_client() for _ in range(clients)))
        wall_s = time.perf_counter() - start
    return times_ms, errors, wall_s


def _browser(base: str, n_keys: int) -> list[str]:
    chromium = os.environ.get("XWCP_CHROMIUM", "/usr/bin/chromium")
    if not os.path.exists(chromium):
        return [f"browser: skipped, {chromium} not found (run .ci/install-browser.sh)"]
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return ["browser: skipped, playwright's Python package is missing (pip install '.[test]')"]
    import tempfile

    lines = []
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        context = p.chromium.launch_persistent_context(profile, executable_path=chromium, headless=True,
                                                       args=CHROMIUM_FLAGS)
        page = context.new_page()
        page.goto(base)
        page.wait_for_function("window.xwcp && window.xwcp.ready")
        letters = "ABCDEFGHIJKLMNOPRSTUW"
        for mode, pause_ms in (("one key at a time (answer awaited)", None), ("typing fast (80 ms apart)", 80)):
            page.evaluate("window.xwcp.helpTimes = []")
            for index in range(n_keys):
                page.click('.cell[data-cell="15"]')  # 14A of the daily: the answer covers a 15x15 grid
                page.wait_for_timeout(400)  # let the click's own requests finish
                count = page.evaluate("window.xwcp.helpTimes.length")
                page.keyboard.press(letters[index % len(letters)])
                if pause_ms is None:
                    page.wait_for_function(f"window.xwcp.helpTimes.length > {count}", timeout=10_000)
                else:
                    page.wait_for_timeout(pause_ms)
                    page.keyboard.press(letters[(index + 3) % len(letters)])
                    page.wait_for_function(f"window.xwcp.helpTimes.length > {count}", timeout=10_000)
                for _ in range(1 if pause_ms is None else 2):
                    page.keyboard.press("Control+z")  # back to the empty slot for the next measurement
                page.wait_for_timeout(300)
            times = page.evaluate("window.xwcp.helpTimes")
            lines.append(_summary(f"browser keystroke -> suggestions, {mode}", times, 0))
        context.close()
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="Example: python3 bench/web_load.py --clients 50 --requests 4")
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (default 50)")
    parser.add_argument("--requests", type=int, default=4, help="requests per client (default 4)")
    parser.add_argument("--timeout", type=float, default=60.0, help="per-request timeout in seconds (default 60)")
    parser.add_argument("--keys", type=int, default=15, help="keystrokes measured in the browser (default 15)")
    parser.add_argument("--no-browser", action="store_true", help="skip the browser measurement")
    args = parser.parse_args(argv)
    if not (1 <= args.clients <= 200 and 1 <= args.requests <= 100):
        parser.error("keep the load bounded: --clients 1..200, --requests 1..100")

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    server = subprocess.Popen([sys.executable, "-m", "xwcp", "serve", "--host", "127.0.0.1", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        first = server.stdout.readline().strip()
        base = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 30
        import httpx

        while time.monotonic() < deadline:
            try:
                httpx.get(base + "api/info", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        print(f"server: {first}")
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} "
              f"{os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} at start")
        rows = _rows()
        for name, body in (("/api/domains (all 76 slots, k=20)", {"grid": rows}),
                           ("/api/domains (one slot)", {"grid": rows, "slot": "14A"}),
                           ("/api/suggest (one slot, k=40)", {"grid": rows, "slot": "14A", "k": 40})):
            path = name.split()[0]
            for clients, requests in ((1, 10), (args.clients, args.requests)):  # service time, then under load
                times, errors, wall = asyncio.run(_load(base.rstrip("/") + path, body, clients, requests,
                                                        args.timeout))
                print(_summary(f"{clients} clients x {requests} {name}", times, errors, wall))
        if not args.no_browser:
            for line in _browser(base, args.keys):
                print(line)
        print(f"load average at end: {os.getloadavg()[0]:.2f}")
    finally:
        server.terminate()
        server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
