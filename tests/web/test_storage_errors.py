"""Writes into the server's data folder that fail (a full disk, a read-only folder): a language list's upload and the
personal list's edits and uploads are answered 507 (no room) or 503 (not writable) with a JSON message naming the
cause, logged once; the old list is kept, no partial or temporary file is left, and the server goes on serving.

The failures are injected (the tests run as root, whom chmod does not stop): `os.replace` refusing with EROFS or
ENOSPC, or a stream whose writes fail with ENOSPC after a few bytes.
"""

from __future__ import annotations

import errno
import logging
import os

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

from tests.helpers import failing_fdopen  # noqa: E402
from xwcp.words import userwords  # noqa: E402
from xwcp.words.userwords import data_dir  # noqa: E402

GERMAN = "HUT;80\nHAT;70\nTAL;70\nTOL;70\nUHR;60\n"
STATUS_BY_ERRNO = {errno.ENOSPC: 507, errno.EDQUOT: 507, errno.EROFS: 503, errno.EACCES: 503}


def _refusing_replace(code: int):
    def replace(src, dst, *args, **kwargs):
        raise OSError(code, os.strerror(code), str(src))

    return replace


def _files(folder) -> list[str]:
    return sorted(os.listdir(folder)) if folder.is_dir() else []


def _assert_refused(response, code: int, caplog) -> None:
    assert response.status_code == STATUS_BY_ERRNO[code], response.text
    data = response.json()
    assert data["status"] == STATUS_BY_ERRNO[code] and os.strerror(code) in data["error"] and "\n" not in data["error"]
    assert "nothing was changed" in data["error"]
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and os.strerror(code) in errors[0].getMessage() and errors[0].exc_info is None, errors


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EACCES])
def test_a_language_list_the_folder_cannot_take_is_refused_and_the_old_one_kept(client, monkeypatch, caplog, code):
    assert client.post("/api/languages/de/words?name=de.txt", content=GERMAN.encode()).status_code == 200
    folder = data_dir() / "words"
    before, kept = _files(folder), (folder / "de-page.dict").read_bytes()
    caplog.clear()
    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", _refusing_replace(code))
        response = client.post("/api/languages/de/words?name=new.txt", content=b"HOT;50\n" * 50)
    _assert_refused(response, code, caplog)
    assert _files(folder) == before and (folder / "de-page.dict").read_bytes() == kept
    assert client.get("/api/info").status_code == 200  # the server goes on
    words = client.post("/api/suggest", json={"grid": ["H..", ".#.", "..."], "language": "de", "slot": "1A"}).json()
    assert {w["word"] for w in words["words"]} == {"HUT", "HAT"}  # the old list still serves


def test_a_language_list_that_fills_the_disk_mid_write_leaves_no_partial_file(client, monkeypatch, caplog):
    folder = data_dir() / "words"
    before = _files(folder)
    with monkeypatch.context() as patch:
        patch.setattr(os, "fdopen", failing_fdopen(errno.ENOSPC))
        response = client.post("/api/languages/de/words?name=de.txt", content=GERMAN.encode())
    _assert_refused(response, errno.ENOSPC, caplog)
    assert _files(folder) == before  # no de-page.dict, no temporary beside it
    assert client.post("/api/languages/de/words?name=de.txt", content=GERMAN.encode()).status_code == 200


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
@pytest.mark.parametrize("route", ["edit", "upload"])
def test_a_personal_list_the_folder_cannot_take_is_refused_and_the_old_one_kept(
    client, monkeypatch, caplog, code, route
):
    assert client.post("/api/words", json={"word": "ESNE", "score": 0}).status_code == 200
    path = userwords.personal_path()
    before, kept = _files(path.parent), path.read_bytes()
    caplog.clear()
    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", _refusing_replace(code))
        if route == "edit":
            response = client.post("/api/words", json={"word": "AXQZ", "score": 80})
        else:
            response = client.post("/api/words/upload?mode=replace", content=b"AXQZ;80\nBYQZ;70\n")
    _assert_refused(response, code, caplog)
    assert _files(path.parent) == before and path.read_bytes() == kept
    assert client.get("/api/info").json()["personal"]["n_words"] == 1


def test_a_personal_edit_that_fills_the_disk_mid_write_keeps_the_old_list(client, monkeypatch, caplog):
    assert client.post("/api/words", json={"word": "ESNE", "score": 0}).status_code == 200
    path = userwords.personal_path()
    before, kept = _files(path.parent), path.read_bytes()
    caplog.clear()
    with monkeypatch.context() as patch:
        patch.setattr(os, "fdopen", failing_fdopen(errno.ENOSPC))
        response = client.post(
            "/api/words", json={"edits": [{"word": f"W{'A' * k}", "score": 60} for k in range(3, 40)]}
        )
    _assert_refused(response, errno.ENOSPC, caplog)
    assert _files(path.parent) == before and path.read_bytes() == kept
