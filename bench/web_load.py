"""Load and latency of the web builder on loopback: concurrent API clients, side by side with a base checkout,
and keystroke-to-suggestions time in a real browser.

Starts `xwcp serve` from this checkout (and, with --base DIR, from that checkout too) on free
127.0.0.1 ports (child processes, stopped at the end), then for each server, interleaved:
1. /api/suggest for one slot (what the page asks after each keystroke) and /api/domains for all
   76 slots of a 15x15 daily: one client alone (the service time), then N concurrent clients
   (default 50), each sending R requests back to back (default 8): errors, p50/p95/max, requests/s, and the
   server's CPU per request (its processes' user + system time from /proc: on a shared machine the latencies
   swing with the other load, the CPU far less);
   - "same grid": every request asks about the same grid (the issue's measurement; a server that
     keeps what it computed answers from its cache);
   - "own edits": each client types a word of its own slot letter by letter, erases it and goes on
     with the next slot (every request a new grid, as when 50 constructors type at once);
2. "heavy neighbour": four clients ask verified suggestions (`"verify": true`, 10 s each) on a hard 60x60
   back to back while a fifth types into the 15x15 daily as in "own edits", a keystroke every 0.1 s for 30 s: the
   typing client's /api/suggest latency (p50/p95/max; target p95 < 1 s), and how the heavy requests were
   answered. The 60x60 is the daily tiled 4 by 4 (`_hard_grid`: every verified search runs to its limit).
   Every client names itself in an `X-Xwcp-Client` header, as the page does;
3. in chromium (if installed; playwright's Python package pointed at /usr/bin/chromium), this
   checkout only: on the 15x15 daily, letters typed into 14A one at a time, waiting for the answer:
   the time from keydown to the updated suggestion list (p50/p95/max), then the same typing fast.

The clients are plain asyncio sockets speaking HTTP/1.1 with keep-alive: a client library such as
httpx costs more CPU per request than the server does (on 2 cores it alone capped a 204 answer at
about 180 requests/s, p95 660 ms), which would measure the client, not the server. Only loopback is
used; the request count and time are bounded.

Example: python3 bench/web_load.py --base /work/wt/base --clients 50 --requests 8
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GRID = ROOT / "models" / "15x15-daily-01.txt"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _rows() -> list[str]:
    return [line.strip() for line in GRID.read_text().splitlines() if line.strip() and not line.startswith(";")]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _summary(name: str, times_ms: list[float], errors: int, wall_s: float | None = None) -> str:
    if not times_ms:
        return f"{name}: no successful request, {errors} errors"
    line = (
        f"{name}: {len(times_ms)} ok, {errors} errors; p50 {statistics.median(times_ms):.1f} ms, "
        f"p95 {_percentile(times_ms, 0.95):.1f} ms, max {max(times_ms):.1f} ms"
    )
    if wall_s:
        line += f"; {len(times_ms) / wall_s:.0f} requests/s"
    return line


# ----- a lean HTTP/1.1 client ------------------------------------------------------------------


def _request(path: str, body: dict, port: int, client: str = "") -> bytes:
    data = json.dumps(body).encode()
    named = f"X-Xwcp-Client: {client}\r\n" if client else ""
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n{named}"
        f"Content-Length: {len(data)}\r\n\r\n"
    ).encode() + data


async def _exchange(reader, writer, raw: bytes, timeout_s: float) -> int:
    """Send one request on a kept-alive connection; the status code of its answer (body read and dropped)."""
    writer.write(raw)
    status_line = await asyncio.wait_for(reader.readline(), timeout_s)
    status = int(status_line.split()[1])
    length = 0
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        key, _, value = line.partition(b":")
        if key.strip().lower() == b"content-length":
            length = int(value)
    await reader.readexactly(length)
    return status


async def _load(
    port: int, bodies_by_client: list[list[tuple[str, dict]]], timeout_s: float
) -> tuple[list[float], int, float]:
    """Each client sends its requests back to back on its own connection; (latencies ms, errors, wall s)."""
    times_ms: list[float] = []
    errors = 0

    async def one_client(requests: list[tuple[str, dict]]) -> None:
        nonlocal errors
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            for path, body in requests:
                raw = _request(path, body, port)
                start = time.perf_counter()
                try:
                    ok = await _exchange(reader, writer, raw, timeout_s) == 200
                except (asyncio.TimeoutError, OSError, ValueError, IndexError):
                    ok = False
                if ok:
                    times_ms.append((time.perf_counter() - start) * 1000)
                else:
                    errors += 1
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
        finally:
            writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(one_client(requests) for requests in bodies_by_client))
    return times_ms, errors, time.perf_counter() - start


# ----- the scenarios ------------------------------------------------------------------------


def _fill_of(rows: list[str]) -> list[str]:
    """A fill of the grid (from this checkout's library), whose words the "own edits" clients type."""
    sys.path.insert(0, str(ROOT))
    import xwcp
    from xwcp.backends import fill
    from xwcp.engine.result import fill_grid

    problem = xwcp.compile_problem(xwcp.parse_grid("\n".join(rows)), xwcp.load_word_list())
    result = fill(problem, "auto", xwcp.Limits(time_limit_s=60, seed=0))
    if result.entries is None:
        raise SystemExit(f"bench: no fill of {GRID.name} to type from ({result.status.value})")
    return fill_grid(problem, result.entries).rows


def _typing(rows: list[str], filled: list[str], client: int, n: int, k: int) -> list[tuple[str, dict]]:
    """Client `client`'s n requests: it clicks into one across slot (the page asks that slot's suggestions),
    types the fill's word there letter by letter (asking after each), erases it, and goes on with the next slot."""
    sys.path.insert(0, str(ROOT))
    import xwcp

    slots = [s for s in xwcp.find_slots(xwcp.parse_grid("\n".join(rows))) if s.direction.letter == "A"]
    width = len(rows[0])
    out: list[tuple[str, dict]] = []
    index = client
    while len(out) < n:
        slot = slots[index % len(slots)]
        cells = list("".join(rows))
        out.append(("/api/suggest", {"grid": rows, "slot": slot.name, "k": 40}))
        for cell in slot.cells:
            if len(out) == n:
                break
            cells[cell] = "".join(filled)[cell]
            grid = ["".join(cells[r * width : (r + 1) * width]) for r in range(len(rows))]
            out.append(("/api/suggest", {"grid": grid, "slot": slot.name, "k": 40}))
            if len(out) == n:
                break
        index += 7
    return out


def _scenarios(rows, filled, clients, requests):
    same_suggest = {"grid": rows, "slot": "14A", "k": 40}
    same_domains = {"grid": rows}
    return [
        ("/api/suggest one slot, same grid", lambda c, n: [("/api/suggest", same_suggest)] * n),
        ("/api/suggest one slot, own edits", lambda c, n: _typing(rows, filled, c, n, 40)),
        ("/api/domains all 76 slots, same grid", lambda c, n: [("/api/domains", same_domains)] * n),
        (
            "/api/domains all 76 slots, own edits",
            lambda c, n: [("/api/domains", {"grid": body["grid"]}) for _, body in _typing(rows, filled, c, n, 40)],
        ),
    ]


HEAVY_CLIENTS = 4
HEAVY_LIMIT_S = 10.0
"""Each heavy client's verified suggestions' budget: the server's cap on one request's solver time."""
TYPING_KEYS = 200
"""Keystrokes the typing client sends at most."""
TYPING_BUDGET_S = 30.0
"""The typing client stops after this long (short of TYPING_KEYS: about 200 keystrokes when each is answered in
tens of ms, a few when each waits behind a 10 s search): long enough for each heavy client's searches to end."""
TYPING_PAUSE_S = 0.1
"""The typing client's pause between an answer and its next keystroke."""


def _hard_grid() -> list[str]:
    """A hard 60x60: the daily tiled 4 by 4 (its edges join into entries of 7-10 letters). Arc consistent, and a
    verified suggestion's search runs to its limit without a fill."""
    return [row * 4 for row in _rows()] * 4


async def _heavy_neighbour(port: int, typing: list[tuple[str, dict]], timeout_s: float) -> list[str]:
    """The "heavy neighbour" scenario: HEAVY_CLIENTS clients ask verified suggestions on `_hard_grid()` back to
    back; once they run, a fifth client sends `typing` (one request a keystroke, TYPING_PAUSE_S apart, for TYPING_BUDGET_S). Lines:
    the typing client's latencies and the heavy requests' answers by status."""
    heavy_body = {"grid": _hard_grid(), "slot": "1A", "k": 20, "verify": True, "time_limit_s": HEAVY_LIMIT_S}
    statuses: dict[int, int] = {}
    heavy_ms: list[float] = []
    stop = asyncio.Event()

    async def heavy(client: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        raw = _request("/api/suggest", heavy_body, port, f"heavy-{client}")
        try:
            while not stop.is_set():
                start = time.perf_counter()
                try:
                    status = await _exchange(reader, writer, raw, timeout_s)
                except (asyncio.TimeoutError, OSError, ValueError, IndexError):
                    status = 0
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                statuses[status] = statuses.get(status, 0) + 1
                if status == 200:
                    heavy_ms.append((time.perf_counter() - start) * 1000)
        finally:
            writer.close()

    async def typist() -> tuple[list[float], int]:
        await asyncio.sleep(2.0)  # the heavy requests are running
        times_ms: list[float] = []
        errors = 0
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        until = time.monotonic() + TYPING_BUDGET_S
        try:
            for path, body in typing:
                if time.monotonic() > until:
                    break
                start = time.perf_counter()
                try:
                    ok = await _exchange(reader, writer, _request(path, body, port, "typist"), timeout_s) == 200
                except (asyncio.TimeoutError, OSError, ValueError, IndexError):
                    ok = False
                if ok:
                    times_ms.append((time.perf_counter() - start) * 1000)
                else:
                    errors += 1
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                await asyncio.sleep(TYPING_PAUSE_S)
        finally:
            writer.close()
        return times_ms, errors

    tasks = [asyncio.create_task(heavy(client)) for client in range(HEAVY_CLIENTS)]
    try:
        times_ms, errors = await typist()
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    answered = ", ".join(f"{count} x {status or 'no answer'}" for status, count in sorted(statuses.items()))
    return [
        _summary(
            f"typing client's /api/suggest 15x15 beside {HEAVY_CLIENTS} clients' verified suggestions on a 60x60",
            times_ms,
            errors,
        ),
        f"  the heavy clients' requests while it typed: {answered or 'none answered'}"
        + (f"; answered 200 in p50 {statistics.median(heavy_ms) / 1000:.1f} s" if heavy_ms else ""),
    ]


def _settle(pid: int, quiet_s: float = 30.0) -> None:
    """Wait (at most `quiet_s`) until the server's processes use under a tenth of a core: the heavy requests the
    scenario left behind have ended, so they weigh on no later measurement."""
    deadline = time.monotonic() + quiet_s
    before = _cpu_s(pid)
    while before is not None and time.monotonic() < deadline:
        time.sleep(1.0)
        after = _cpu_s(pid)
        if after is None or after - before < 0.1:
            return
        before = after


# ----- servers ------------------------------------------------------------------------------


def _start(checkout: Path, extra: list[str]) -> tuple[subprocess.Popen, int, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(checkout))
    server = subprocess.Popen(
        [sys.executable, "-m", "xwcp", "serve", "--host", "127.0.0.1", "--port", str(port), *extra],
        cwd=checkout,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    first = server.stdout.readline().strip()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # every worker answers once the list is loaded
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                conn.sendall(f"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
                if conn.recv(20).startswith(b"HTTP/1.1 200"):
                    break
        except OSError:
            pass
        time.sleep(0.2)
    time.sleep(2.0)  # let the other workers finish loading
    return server, port, first


def _cpu_s(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by process `pid` and its descendants (the server's workers), from
    /proc; None where there is no /proc. On a shared machine this moves far less than the latencies do."""
    if not os.path.isdir("/proc"):
        return None
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    children.setdefault(int(f.read().rsplit(")", 1)[1].split()[1]), []).append(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    total, todo = 0, [pid]
    while todo:
        one = todo.pop()
        todo.extend(children.get(one, []))
        try:
            with open(f"/proc/{one}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (all threads)
        except (OSError, IndexError, ValueError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


def _supports_workers(checkout: Path) -> bool:
    out = subprocess.run(
        [sys.executable, "-m", "xwcp", "serve", "--help"],
        cwd=checkout,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(checkout)),
    )
    return "--workers" in out.stdout


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
        context = p.chromium.launch_persistent_context(
            profile, executable_path=chromium, headless=True, args=CHROMIUM_FLAGS
        )
        page = context.new_page()
        page.goto(base + "#new")  # a fresh page: the default preset, not a puzzle saved in this profile
        page.wait_for_function("window.xwcp && window.xwcp.ready")
        page.select_option("#preset", "15x15-daily-01")
        page.wait_for_timeout(500)
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
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Example: python3 bench/web_load.py --base /work/wt/base --clients 50",
    )
    parser.add_argument("--base", metavar="DIR", help="another checkout to measure side by side (its own server)")
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients (default 50)")
    parser.add_argument("--requests", type=int, default=8, help="requests per client (default 8)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds, alternating the servers (default 2)")
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="--workers for a server that has it (default: its own default, the cores)",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="per-request timeout in seconds (default 60)")
    parser.add_argument("--keys", type=int, default=15, help="keystrokes measured in the browser (default 15)")
    parser.add_argument("--no-browser", action="store_true", help="skip the browser measurement")
    parser.add_argument(
        "--only",
        metavar="TEXT",
        help="run only the scenarios whose title contains TEXT (e.g. 'own edits', 'heavy neighbour')",
    )
    args = parser.parse_args(argv)
    if not (1 <= args.clients <= 200 and 1 <= args.requests <= 100 and 1 <= args.rounds <= 10):
        parser.error("keep the load bounded: --clients 1..200, --requests 1..100, --rounds 1..10")

    checkouts = [("this", ROOT)] + ([("base", Path(args.base).resolve())] if args.base else [])
    rows = _rows()
    filled = _fill_of(rows)
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at start")
    servers = {}
    try:
        for name, checkout in checkouts:
            extra = ["--workers", str(args.workers)] if args.workers and _supports_workers(checkout) else []
            servers[name] = _start(checkout, extra)
            print(f"{name}: {checkout} -> {servers[name][2]} {' '.join(extra)}")
        for round_no in range(args.rounds):
            order = checkouts if round_no % 2 == 0 else checkouts[::-1]
            for title, make in _scenarios(rows, filled, args.clients, args.requests):
                if args.only and args.only not in title:
                    continue
                for name, _ in order:
                    port = servers[name][1]
                    for clients, n in ((1, 10), (args.clients, args.requests)):
                        bodies = [make(c, n) for c in range(clients)]
                        cpu_before = _cpu_s(servers[name][0].pid)
                        times, errors, wall = asyncio.run(_load(port, bodies, args.timeout))
                        cpu_after = _cpu_s(servers[name][0].pid)
                        cpu = (
                            ""
                            if cpu_before is None or cpu_after is None or not times
                            else f"; server CPU {(cpu_after - cpu_before) / len(times) * 1000:.2f} ms/request"
                        )
                        print(
                            f"round {round_no + 1} {name:>4}: "
                            + _summary(f"{clients:>2} x {n} {title}", times, errors, wall)
                            + cpu,
                            flush=True,
                        )
            if not args.only or args.only in "heavy neighbour":
                for name, _ in order:
                    typing = _typing(rows, filled, 0, TYPING_KEYS, 40)
                    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
                    for line in asyncio.run(_heavy_neighbour(servers[name][1], typing, args.timeout)):
                        print(
                            f"round {round_no + 1} {name:>4}: heavy neighbour: {line.strip()}"
                            + ("" if line.startswith(" ") else f" (load average {load} before)"),
                            flush=True,
                        )
                    _settle(servers[name][0].pid)
        if not args.no_browser:
            for line in _browser(f"http://127.0.0.1:{servers['this'][1]}/", args.keys):
                print(line)
        print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        for server, _, _ in servers.values():
            server.terminate()
            server.wait(timeout=20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
