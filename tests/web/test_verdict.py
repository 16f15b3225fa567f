"""The verdict first, then the core (xwcp/web/verdict.py): a streamed `/api/check?stream=1` answers a verdict line
before the core, and one object without `stream`."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

from tests.web.helpers import MINI, UNFILLABLE  # noqa: E402


def test_streamed_check_answers_the_verdict_line_first(client):
    response = client.post("/api/check?stream=1", json={"grid": UNFILLABLE, "time_limit_s": 5})
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in response.text.splitlines()]
    assert [line["type"] for line in lines] == ["verdict", "result"]
    assert lines[0]["verdict"] == "unfillable" and "core" not in lines[0]
    assert lines[1]["verdict"] == "unfillable" and set(lines[1]["core"]["slots"]) == {"7A", "4D"}
    plain = client.post("/api/check", json={"grid": UNFILLABLE, "time_limit_s": 5}).json()
    assert plain["core"]["slots"] == lines[1]["core"]["slots"]  # without ?stream: one object, as before
    good = client.post("/api/check?stream=1", json={"grid": MINI, "time_limit_s": 5}).text.splitlines()
    assert [json.loads(line)["type"] for line in good] == ["result"]  # fillable: no verdict line to hurry
    bad = client.post("/api/check?stream=1", json={"grid": ["..", "."]}).text.splitlines()
    assert json.loads(bad[0])["type"] == "error" and json.loads(bad[0])["status"] == 400
