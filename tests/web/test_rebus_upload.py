"""The long-rebus files uploaded to `POST /api/open`: refused in one line naming the upload and the cell, at once,
instead of a 2.6 MB puzzle object built in seconds."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

from tests.project.hostile import rebus_files  # noqa: E402


@pytest.mark.parametrize("name", sorted(rebus_files()))
def test_a_long_rebus_upload_is_refused_in_one_line(client, name):
    start = time.monotonic()
    response = client.post(
        f"/api/open?name={name}", content=rebus_files()[name], headers={"Content-Type": "application/octet-stream"}
    )
    assert response.status_code == 400, response.text[:300]
    error = response.json()["error"]
    assert error.startswith(f"{name}: the cell at row 1, column 1 holds ") and "at most 16 characters" in error
    assert len(response.content) < 1000 and time.monotonic() - start < 20
