"""The web builder's fixtures: the default word list (once for the folder) and a TestClient app answering one fill
at a time (modules that need another app define their own `client`); for the real-browser tests one uvicorn server
and one chromium per test module.

Shared by test_browser.py, test_browser_grid.py and test_design_browser.py (pytest finds fixtures in conftest.py;
importing them from a test module redefined them in every test's arguments).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading

import pytest

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


def _chromium() -> str | None:
    for path in (
        os.environ.get("XWCP_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if path and os.path.exists(path):
            return path
    return None


@pytest.fixture(scope="module")
def server():
    """uvicorn serving the builder on a free loopback port, in a thread; stopped after the module."""
    uvicorn = pytest.importorskip("uvicorn", reason="the web builder needs the [web] extra (uvicorn)")
    from xwcp.web.app import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ready = threading.Event()

    class Server(uvicorn.Server):
        async def startup(self, sockets=None):
            await super().startup(sockets=sockets)
            ready.set()  # listening (or failed: then `started` stays False)

    server = Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    ready.wait(timeout=20)
    assert server.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    chromium = _chromium()
    if chromium is None:
        pytest.skip(
            "chromium is not installed (run .ci/install-browser.sh): the real-browser test of the web "
            "builder did NOT run"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip(
            "playwright's Python package is missing (pip install '.[test]'): the real-browser test of "
            "the web builder did NOT run"
        )
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=chromium,
            headless=True,
            args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 860},
        )
        yield context
        context.close()


@pytest.fixture(scope="module")
def chromium():
    """One chromium for a module that needs contexts of its own (a phone's, a fresh one with empty storage); such a
    module defines its own `browser` fixture from it (test_browser_a11y.py, test_browser_edit.py)."""
    path = _chromium()
    if path is None:
        pytest.skip("chromium is not installed (run .ci/install-browser.sh): the builder's browser tests did NOT run")
    sync_api = pytest.importorskip(
        "playwright.sync_api",
        reason="playwright's Python package is missing "
        "(pip install '.[test]'): the builder's browser tests did NOT run",
    )
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="package")
def words():
    import xwcp

    return xwcp.load_word_list()


@pytest.fixture()
def client(words, request):
    """A TestClient app; a test module sets MAX_FILLS (default 1) for the fills it may run at once."""
    import warnings

    from tests.web.helpers import HOSTS
    from xwcp.web import app as web_app

    with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works the same here
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    with TestClient(
        web_app.create_app(words=words, max_fills=getattr(request.module, "MAX_FILLS", 1), hosts=HOSTS),
        base_url="http://127.0.0.1",
    ) as client:
        yield client
