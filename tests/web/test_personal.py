"""The page's word-list control (xwcp/web/personal.py): ban, boost, add and upload take effect at once and are
checked; a malformed personal list is reported; `--no-personal` leaves the list alone."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

import warnings  # noqa: E402

with warnings.catch_warnings():  # Starlette 1.x would rather have httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tests.web.helpers import FILLED, HOSTS, _suggested  # noqa: E402
from xwcp.web import app as web_app  # noqa: E402
from xwcp.words import userwords  # noqa: E402


def test_ban_boost_add_and_remove_take_effect_at_once(client):
    rows = ["ADS#...", "...#...", ".......", "##...##", ".......", "...#...", "...#..."]
    before = _suggested(client, rows, "1D", 5)
    banned = before[0]
    data = client.post("/api/words", json={"word": banned.lower(), "score": 0}).json()
    assert data["n_banned"] == 1 and data["entries"][0]["word"] == banned and data["entries"][0]["score"] == 0
    assert banned not in _suggested(client, rows, "1D")
    text = userwords.personal_path().read_text()
    assert f"{banned};0" in text and str(userwords.personal_path()).startswith(os.environ["XWCP_DATA_DIR"])
    # boost a low word to the top
    last = _suggested(client, rows, "1D")[-1]
    client.post("/api/words", json={"edits": [{"word": last, "score": 1000}]})
    assert _suggested(client, rows, "1D", 1) == [last]
    # a new word the list lacks
    client.post("/api/words", json={"word": "Axqz", "score": 70})
    assert "AXQZ" in _suggested(client, ["A...", "....", "....", "...."], "1A")
    # remove: back to the server's list
    client.post("/api/words", json={"edits": [{"word": banned, "remove": True}, {"word": last, "remove": True}]})
    assert _suggested(client, rows, "1D", 5) == before
    assert client.get("/api/words").json()["n_words"] == 1  # AXQZ stays


def test_word_edits_are_checked(client):
    for body, words_in_error in [
        ({"word": "ab1", "score": 3}, "not a word"),
        ({"word": "ABC", "score": -1}, "score"),
        ({"word": "ABC", "score": True}, "score"),
        ({"word": "ABC"}, "remove"),
        ({"edits": []}, "edits"),
    ]:
        response = client.post("/api/words", json=body)
        assert response.status_code == 400 and words_in_error in response.json()["error"], body
    assert not userwords.personal_path().exists()


def test_upload_merges_or_replaces_and_reports_skipped_lines(client):
    client.post("/api/words", json={"word": "ESNE", "score": 0})
    data = client.post(
        "/api/words/upload?mode=merge&name=mine.txt", content="AXQZ;80\nBYQZ\n12 34;5\nCWQZ;0\n".encode()
    ).json()
    assert {e["word"]: e["score"] for e in data["entries"]} == {"ESNE": 0, "CWQZ": 0, "AXQZ": 80, "BYQZ": 50}
    assert "1 malformed line" in data["skipped"]
    data = client.post("/api/words/upload?mode=replace", content=b"DZQZ;60\n").json()
    assert [e["word"] for e in data["entries"]] == ["DZQZ"]
    assert client.post("/api/words/upload?mode=merge", content=b"1 2 3\n").status_code == 400


def test_malformed_personal_list_is_reported_and_the_list_still_serves(client):
    path = userwords.personal_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("ESNE;zero\n")
    info = client.get("/api/info").json()
    assert "personal.dict:1" in info["personal"]["error"]
    assert client.post("/api/suggest", json={"grid": FILLED, "slot": "1A"}).status_code == 200


def test_no_personal_leaves_the_list_alone(words):
    userwords.update_personal({"AXQZ": 99})
    with TestClient(
        web_app.create_app(words=words, hosts=HOSTS, personal=False), base_url="http://127.0.0.1"
    ) as client:
        assert "AXQZ" not in _suggested(client, ["A...", "....", "....", "...."], "1A")
        refused = client.post("/api/words", json={"word": "ESNE", "score": 0})
        assert refused.status_code == 409 and "--no-personal" in refused.json()["error"]
        assert client.get("/api/words").json()["enabled"] is False
    assert userwords.read_personal() == {"AXQZ": 99}


def test_an_upload_with_a_long_word_is_refused_whole_and_writes_nothing(client):
    client.post("/api/words", json={"word": "ESNE", "score": 0})
    before = userwords.personal_path().read_bytes()
    for long_word in (b"B" * 65, b"A" * (1 << 20)):  # the audit's 1 MB word cost 43 s and 364 MB, never freed
        response = client.post(
            "/api/words/upload?mode=replace&name=mine.txt",
            content=b"AXQZ;80\n# a comment\n" + long_word + b";50\nBYQZ\n",
        )
        error = response.json()["error"]
        assert response.status_code == 422 and error.startswith("mine.txt:3: a word of ") and "64" in error
        assert len(error) < 200 and "\n" not in error
        assert userwords.personal_path().read_bytes() == before
    assert client.post("/api/words/upload", content=b"A" * (5 << 20)).status_code == 413
    assert userwords.personal_path().read_bytes() == before
    assert client.get("/api/info").json()["personal"]["n_words"] == 1


def test_an_upload_of_too_many_words_is_refused_whole(client, monkeypatch):
    monkeypatch.setattr(userwords, "MAX_PERSONAL_WORDS", 3)
    response = client.post("/api/words/upload?mode=merge", content=b"AXQZ\nBXQZ\nCXQZ\nDXQZ\n")
    assert response.status_code == 422 and "at most 3" in response.json()["error"]
    assert not userwords.personal_path().exists()
    assert client.post("/api/words/upload?mode=merge", content=b"AXQZ\nBXQZ\nCXQZ\n").status_code == 200


def test_a_personal_file_with_a_long_word_is_reported_and_the_list_still_serves(client):
    path = userwords.personal_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("ESNE;0\n" + "A" * 100_000 + ";50\n")  # left by a server from before the cap
    info = client.get("/api/info").json()
    assert "personal.dict:2: a word of 100,000 letters" in info["personal"]["error"]
    assert len(info["personal"]["error"]) < 300
    assert client.post("/api/suggest", json={"grid": FILLED, "slot": "1A"}).status_code == 200


def test_a_word_edit_never_changes_another_word_silently(client):
    """CAFE + a combining acute is CAFÉ, which English writes CAFE: stored so, and the answer says it. The ligature
    ﬁ and the dotless ı are no letters of English: the edit is refused naming them, and FINE and DISK keep the
    server list's scores."""
    cafe = client.post("/api/words", json={"word": "CAFE\u0301", "score": 0})
    assert cafe.status_code == 200, cafe.text
    data = cafe.json()
    assert data["edited"] == [{"typed": "CAFE\u0301", "word": "CAFE", "score": 0}]
    (said,) = data["warnings"]
    assert "CAFÉ" in said and "stored as CAFE" in said and "É -> E" in said
    assert {e["word"]: e["score"] for e in data["entries"]} == {"CAFE": 0}
    for typed, char, code_point, listed in (("ﬁne", "ﬁ", "U+FB01", "FINE"), ("dısk", "ı", "U+0131", "DISK")):
        response = client.post(
            "/api/words", json={"edits": [{"word": "AXQZ", "score": 70}, {"word": typed, "score": 0}]}
        )
        assert response.status_code == 400, response.text
        message = response.json()["error"]
        assert f"{typed!r} is not a word of letters A-Z" in message and f"{char!r} ({code_point}" in message
        assert f"type {listed} to edit that word" in message and "\n" not in message
    assert {e["word"] for e in client.get("/api/words").json()["entries"]} == {"CAFE"}  # nothing else was stored


def test_an_upload_skips_words_it_cannot_keep_and_names_those_it_stores_otherwise(client):
    data = client.post(
        "/api/words/upload?mode=merge&name=mine.txt", content="CAFE\u0301;60\nﬁne;70\ndısk;0\nAXQZ;80\n".encode()
    ).json()
    assert {e["word"]: e["score"] for e in data["entries"]} == {"CAFE": 60, "AXQZ": 80}
    assert "2 malformed lines" in data["skipped"] and "U+FB01" in data["skipped"] and "U+0131" in data["skipped"]
    (said,) = data["warnings"]
    assert "line 1: CAFÉ -> CAFE" in said
