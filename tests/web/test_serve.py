"""Running the builder (xwcp/web/serve.py, through `xwcp serve`): the URL printed first and served, a bad or taken port
refused in one line, two workers answering only their hosts (each keeping its share of --cache-mb) and stopping
cleanly."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.subprocess
def test_serve_refuses_a_bad_or_taken_port_in_one_line():
    for port in ("99999", "0", "http"):
        out = subprocess.run(
            [sys.executable, "-m", "xwcp", "serve", "--port", port], capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--port" in out.stderr, out.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "-m", "xwcp", "serve", "--port", str(port)], capture_output=True, text=True, timeout=60
        )
    assert out.returncode == 2 and "in use" in out.stderr and out.stderr.count("\n") == 1


def _get(url: str, host: str | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.mark.subprocess
def test_serve_with_two_workers_answers_only_its_hosts_and_stops_cleanly():
    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "xwcp",
            "serve",
            "--port",
            str(port),
            "--workers",
            "2",
            "--allow-host",
            "builder.test",
            "--cache-mb",
            "100",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout.readline().strip() == f"xwcp builder: http://127.0.0.1:{port}/"
        url = f"http://127.0.0.1:{port}/api/info"
        deadline = time.monotonic() + 60
        pids = set()
        while len(pids) < 2:  # both workers answer (the kernel spreads connections over them)
            try:
                status, data = _get(url)
                pids.add(data["pid"])
                assert data["cache"]["max_bytes"] == 50 * 2**20  # --cache-mb shared out over the workers
            except OSError:
                pass
            assert time.monotonic() < deadline, f"workers answering: {pids}"
        assert _get(url, "builder.test")[0] == 200
        status, data = _get(url, "rebinding.example")
        assert status == 403 and "rebinding.example" in data["error"]
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        server.stdout.close()
        server.stderr.close()
    for pid in pids:  # no worker outlives the server
        deadline = time.monotonic() + 10
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()


@pytest.mark.subprocess
def test_serve_prints_the_url_first_and_serves_it():
    import os
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "xwcp", "serve", "--port", str(port), "--max-fills", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        first = server.stdout.readline().strip()
        assert first == f"xwcp builder: http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(first.split()[-1] + "api/info", timeout=2) as response:
                    assert b'"max_fills":1' in response.read()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=10)
        server.stdout.close()
        server.stderr.close()


def test_server_workers_share_the_cores_for_their_searches(monkeypatch):
    """N workers give one search cores // N processes each (never fewer than two where there are two), through
    XWCP_MAX_PROCESSES, which their searches read; a lower cap the user set stays."""
    from xwcp.runtime import cores
    from xwcp.web.serve import share_cores

    monkeypatch.setattr(cores, "owned_cores", lambda: 16)
    monkeypatch.delenv("XWCP_MAX_PROCESSES", raising=False)
    monkeypatch.delenv("XWCP_NO_RACE", raising=False)
    assert cores.search_processes() == 16
    assert share_cores(4) == 4 and cores.search_processes() == 4
    monkeypatch.setenv("XWCP_MAX_PROCESSES", "3")
    assert share_cores(2) == 3 and cores.search_processes() == 3
    monkeypatch.delenv("XWCP_MAX_PROCESSES")
    assert share_cores(16) == 2 and cores.search_processes() == 2
