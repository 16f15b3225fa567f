"""Only requests meant for this server (xwcp/web/hosts.py): a foreign Host or Origin is refused, and which hosts
are allowed."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

import warnings  # noqa: E402

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from xwcp.web import app as web_app  # noqa: E402
from xwcp.web.hosts import allowed_hosts, host_name  # noqa: E402
from xwcp.words import userwords  # noqa: E402


def test_foreign_host_and_origin_are_refused(words):
    app = web_app.create_app(words=words)  # the default: 127.0.0.1, localhost, ::1
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/info").status_code == 200
        assert client.get("/api/info", headers={"Host": "localhost:8000"}).status_code == 200
        assert client.get("/api/info", headers={"Host": "[::1]:8000"}).status_code == 200
        rebound = client.get("/api/info", headers={"Host": "attacker.example:8000"})
        assert rebound.status_code == 403 and "--allow-host" in rebound.json()["error"]
        assert client.get("/", headers={"Host": "attacker.example"}).status_code == 403
        same = client.post("/api/words", json={"word": "ESNE", "score": 0}, headers={"Origin": "http://127.0.0.1:8000"})
        assert same.status_code == 200
        for origin in ("http://attacker.example", "http://127.0.0.1:9999", "null"):
            response = client.post("/api/words", json={"word": "ESNA", "score": 0}, headers={"Origin": origin})
            assert response.status_code == 403, origin
    assert "ESNA" not in userwords.read_personal()
    with TestClient(app, base_url="http://testserver") as client:
        from starlette.websockets import WebSocketDisconnect

        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect("/ws/fill") as ws:
                ws.receive_json()


def test_allowed_hosts_and_host_names():
    assert allowed_hosts("0.0.0.0") == {"127.0.0.1", "localhost", "::1"}
    assert allowed_hosts("192.168.1.5", ["Builder.Local"]) >= {"192.168.1.5", "builder.local"}
    assert [host_name(h) for h in ("[::1]:8000", "LOCALHOST:80", "example.com", "::1")] == [
        "::1",
        "localhost",
        "example.com",
        "::1",
    ]


def test_the_host_header_is_read_as_a_browser_reads_it(words):
    """userinfo is not a host: `localhost:1@evil.example` names evil.example to a browser, so it is refused."""
    for value in (
        "localhost:1@evil.example",
        "localhost@evil.example",
        "user:pw@localhost",
        "localhost/x",
        "local host",
        "localhost:80:80",
        "localhost:",
        "[::1",
        "localhost%00",
        "",
    ):
        assert host_name(value) is None, value
    assert [host_name(h) for h in ("127.0.0.1:8000", "[::1]", "Builder.Local:1")] == [
        "127.0.0.1",
        "::1",
        "builder.local",
    ]
    with TestClient(web_app.create_app(words=words), base_url="http://127.0.0.1:8000") as client:
        for value in ("localhost:1@evil.example", "127.0.0.1@evil.example", "localhost:80/evil"):
            refused = client.get("/api/info", headers={"Host": value})
            assert refused.status_code == 403 and refused.json()["status"] == 403, value
        assert client.get("/api/info", headers={"Host": "localhost:1"}).status_code == 200
