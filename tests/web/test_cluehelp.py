"""The builder's clue help over HTTP (xwcp/web/cluehelp.py): GET /api/clues and POST /api/clues/check."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

import xwcp  # noqa: E402
from tests.library.test_clues import CLUED_XD  # noqa: E402
from tests.words.wordnet_fixture import write_wordnet  # noqa: E402


@pytest.fixture(autouse=True)
def wordnet(tmp_path, monkeypatch):
    monkeypatch.setenv("XWCP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("WNSEARCHDIR", str(write_wordnet(tmp_path / "wordnet")))


def test_help_for_an_answer(client, tmp_path):
    (tmp_path / "old.xd").write_text(CLUED_XD)
    xwcp.remember_clues(tmp_path / "old.xd")
    response = client.get("/api/clues?answer=cab")
    assert response.status_code == 200, response.text
    assert response.json()["memory"] == ["Yellow cab"]
    data = client.get("/api/clues?answer=ICECREAMCONE").json()
    assert data["split"]["words"] == ["ICE", "CREAM", "CONE"]
    assert data["definitions"][0]["text"] == "ice cream in a crisp conical wafer"
    assert "Princeton" in data["licence"]["notice"]


def test_bad_answers_are_400(client):
    for query in ("", "?answer=", "?answer=123"):
        response = client.get(f"/api/clues{query}")
        assert response.status_code == 400 and response.json()["error"]


def test_check_the_pages_puzzle(client):
    page = {"grid": ["CAB", "ORE", "WET"], "clues": {"1A": "Yellow cab", "4A": "Mineral source", "1D": "x" * 600}}
    response = client.post("/api/clues/check", json={"puzzle": page})
    assert response.status_code == 200, response.text
    notes = {(n["issue"], tuple(n["slots"])) for n in response.json()["notes"]}
    assert notes == {("answer-in-clue", ("1A",)), ("too-long-for-puz", ("1D",))}
    assert client.post("/api/clues/check", json={"grid": ["CAB"]}).status_code == 400


def test_the_servers_list_spacing_gives_the_phrase(tmp_path):
    from starlette.testclient import TestClient

    from xwcp.web.app import create_app

    listed = tmp_path / "mine.dict"
    listed.write_text("TOLD A LIE;60\nCAB;60\n")
    with TestClient(create_app(str(listed), max_fills=1, hosts=frozenset({"testserver"}))) as client:
        split = client.get("/api/clues?answer=TOLDALIE").json()["split"]
    assert split == {"words": ["TOLD", "A", "LIE"], "source": "list"}
