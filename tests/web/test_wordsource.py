"""The server's word list (xwcp/web/wordsource.py): the personal list is reloaded when another process edits it."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

import warnings  # noqa: E402

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tests.web.helpers import HOSTS, _suggested  # noqa: E402
from xwcp.web import app as web_app  # noqa: E402


def test_another_process_sees_the_edit(words):
    """Two apps stand for two worker processes: an edit through one is used by the other's next request."""
    first = TestClient(web_app.create_app(words=words, hosts=HOSTS), base_url="http://127.0.0.1")
    second = TestClient(web_app.create_app(words=words, hosts=HOSTS), base_url="http://127.0.0.1")
    rows = ["A...", "....", "....", "...."]
    assert "AXQZ" not in _suggested(second, rows, "1A")
    first.post("/api/words", json={"word": "AXQZ", "score": 90})
    assert "AXQZ" in _suggested(second, rows, "1A")
