"""The web builder's JSON API (`xwcp.web.app`), through Starlette's TestClient: answers, statistics, every error, the caps.

The fill WebSocket is tested in test_fill_ws.py, the files in test_puzzles.py, the personal list in test_personal.py."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

import xwcp  # noqa: E402
from tests.web.helpers import FILLED, MINI, OPEN_7, ROOT, UNFILLABLE, _ok, _problem  # noqa: E402
from xwcp.analysis.questions import suggest_report  # noqa: E402
from xwcp.model import parse_grid  # noqa: E402
from xwcp.render.questions_json import suggest_json  # noqa: E402
from xwcp.web import app as web_app  # noqa: E402

MAX_FILLS = 2
"""Fills the app under test may run at once (the `client` fixture of conftest.py reads it)."""


# ----- answers --------------------------------------------------------------------------------


def test_page_info_and_presets(client):
    page = client.get("/")
    assert page.status_code == 200 and "app.js" in page.text
    assert client.get("/static/app.js").status_code == 200
    info = client.get("/api/info").json()
    assert info["max_side"] == 60 and info["max_fills"] == 2 and info["words"]["n_words"] > 100_000
    presets = {p["name"]: p["rows"] for p in client.get("/api/presets").json()}
    assert presets["15x15-daily-01"] == xwcp.read_grid("models/15x15-daily-01.txt").rows
    assert len(presets) >= 9


def test_domains_slot_words_fit_the_pattern(client):
    data = client.post("/api/domains", json={"grid": MINI, "k": 5}).json()
    assert data["status"] == "consistent"
    by_id = {s["id"]: s for s in data["slots"]}
    assert by_id["1A"]["pattern"] == "ADS" and by_id["1A"]["size"] == 1
    assert all(w["word"].startswith("A") for w in by_id["1D"]["words"]) and len(by_id["1D"]["words"]) == 5
    one = client.post("/api/domains", json={"grid": MINI, "slot": "4A", "k": 2}).json()
    assert [s["id"] for s in one["slots"]] == ["4A"]


def test_suggest_same_as_library_and_verify_labels(client, words):
    data = client.post(
        "/api/suggest", json={"grid": MINI, "slot": "1D", "k": 4, "verify": True, "time_limit_s": 2}
    ).json()
    from xwcp.analysis.questions import suggest_report

    expected = suggest_report(_problem(MINI, words), "1D", k=4).words
    assert [w["word"] for w in data["words"]] == [w.word for w in expected]
    assert {w["verdict"] for w in data["words"]} <= {"viable", "dead-end", "unknown"}
    assert "viable" in {w["verdict"] for w in data["words"]}


def test_heatmap_and_check_on_an_unfillable_grid(client):
    heat = client.post("/api/heatmap", json={"grid": MINI}).json()
    assert heat["status"] == "consistent" and heat["cells"][0][3] is None and heat["cells"][0][0] is not None
    bad = client.post("/api/check", json={"grid": UNFILLABLE, "time_limit_s": 5}).json()
    assert bad["verdict"] == "unfillable"
    assert bad["core"]["slots"] and bad["core"]["cells"]  # outlined: the core, or the slot the proof names
    good = client.post("/api/check", json={"grid": MINI, "time_limit_s": 5}).json()
    assert good["verdict"] == "fillable"


# ----- errors: a JSON error naming the problem, and the server goes on ------------------------


@pytest.mark.parametrize("path", ["/api/domains", "/api/heatmap", "/api/check", "/api/suggest"])
@pytest.mark.parametrize(
    "body, status, words_in_error",
    [
        (b"{not json", 400, "malformed JSON"),
        (b"[1, 2]", 400, "JSON object"),
        (b"{}", 400, 'missing "grid"'),
        (b'{"grid": ["#...", "..."]}', 400, "row 2 has 3 cells"),
        (b'{"grid": "#..."}', 400, "list of row strings"),
        (b'{"grid": ["#.1."]}', 400, "unexpected character"),
        (b'{"grid": ["##", "##"]}', 400, "no slot"),
        (b'{"grid": ["...", "...", "..."], "min_score": "high"}', 400, "min_score"),
    ],
)
def test_bad_bodies(client, path, body, status, words_in_error):
    response = client.post(path, content=body, headers={"content-type": "application/json"})
    assert response.status_code == status
    assert words_in_error in response.json()["error"] and response.json()["status"] == status
    _ok(client)


def test_unknown_and_missing_slot(client):
    response = client.post("/api/suggest", json={"grid": MINI, "slot": "99A"})
    assert response.status_code == 400 and "unknown slot '99A'" in response.json()["error"]
    response = client.post("/api/suggest", json={"grid": MINI})
    assert response.status_code == 400 and 'missing "slot"' in response.json()["error"]
    response = client.post("/api/domains", json={"grid": MINI, "slot": "2A"})
    assert response.status_code == 400 and "unknown slot" in response.json()["error"]
    _ok(client)


def test_oversize_grid_and_body_are_413(client):
    response = client.post("/api/domains", json={"grid": ["." * 61] * 61})
    assert response.status_code == 413 and "61x61" in response.json()["error"]
    response = client.post(
        "/api/heatmap",
        content=b"{" + b" " * (web_app.MAX_BODY_BYTES + 10) + b"}",
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413 and "limit" in response.json()["error"]
    _ok(client)


def test_unknown_route_and_method(client):
    assert client.get("/api/nope").status_code == 404 and "error" in client.get("/api/nope").json()
    response = client.get("/api/domains")
    assert response.status_code == 405 and "GET" in response.json()["error"]


def test_busy_server_is_429_and_slow_request_503(client, monkeypatch):
    monkeypatch.setattr(web_app, "MAX_PENDING", 0)
    response = client.post("/api/heatmap", json={"grid": MINI})
    assert response.status_code == 429 and "busy" in response.json()["error"]
    monkeypatch.setattr(web_app, "MAX_PENDING", 256)
    monkeypatch.setattr(web_app, "REQUEST_CAP_S", 0.05)
    response = client.post("/api/check", json={"grid": OPEN_7, "time_limit_s": 1})
    assert response.status_code == 503 and "cap" in response.json()["error"]
    monkeypatch.setattr(web_app, "REQUEST_CAP_S", 15.0)
    _ok(client)


def test_export_writes_each_format_the_page_offers_and_refuses_others(client):
    filled = client.post("/api/check", json={"grid": MINI, "time_limit_s": 5}).json()["fill"]
    response = client.post("/api/export", json={"grid": filled, "format": "puz", "clues": {"1A": "Commercials"}})
    assert response.status_code == 200 and len(response.content) > 52  # a .puz header is 52 bytes
    for fmt in client.get("/api/info").json()["formats"]:
        assert client.post("/api/export", json={"grid": filled, "format": fmt}).status_code == 200, fmt
    response = client.post("/api/export", json={"grid": filled, "format": "docx"})
    assert response.status_code == 404 and "not available" in response.json()["error"]


# ----- statistics, and the server's answers along an edit session ------------------------------


def test_stats_endpoint(client):
    data = client.post("/api/stats", json={"grid": FILLED, "theme": ["9a"], "below_score": 50}).json()
    assert (
        data["words"] == 22 and data["blocks"] == 8 and data["theme"] == [{"id": "9A", "word": "SWEATER", "length": 7}]
    )
    assert client.post("/api/stats", json={"grid": FILLED, "theme": "3A"}).status_code == 400


def test_server_answers_equal_the_library_along_an_edit_session(client, words):
    rows = list(xwcp.read_grid(ROOT / "models" / "15x15-daily-01.txt").rows)
    assert rows[1].startswith("....#")  # 14A: typing WARE completes it (the E: compiled from scratch)
    for ch, col in zip(" WARE", range(-1, 4)):
        if col >= 0:
            rows[1] = rows[1][:col] + ch + rows[1][col + 1 :]
        data = client.post("/api/suggest", json={"grid": rows, "slot": "1D", "k": 10}).json()
        # the page's first answer probes until k words survive, without counting the rest (/ws/suggest counts)
        assert data == suggest_json(
            suggest_report(
                xwcp.compile_problem(parse_grid("\n".join(rows)), words), "1D", k=10, count=False, probe_max_words=None
            )
        )
    cache = client.get("/api/info").json()["cache"]
    assert {name: cache[name] for name in ("hits", "misses", "incremental")} == {
        "hits": 0,
        "misses": 5,
        "incremental": 3,
    }
    assert 0 < cache["bytes"] <= cache["max_bytes"] and cache["evicted"] == 0


# ----- the server's language (issue 36) ---------------------------------------------------------


@pytest.fixture()
def german_client(tmp_path, monkeypatch):
    """A TestClient app over a German list (Ä written AE), its personal list in its own file (the server's list is
    German: `xwcp serve --language de`; requests in other languages are the page's, xwcp/web/languages.py on h-web)."""
    import warnings

    from tests.web.helpers import HOSTS
    from xwcp.model.alphabet import load_alphabet
    from xwcp.words.wordlist import words_from_pairs

    monkeypatch.setenv("XWCP_DATA_DIR", str(tmp_path / "data"))
    words = words_from_pairs(
        [("ÄS", 60), ("RUM", 60), ("TOT", 60), ("ART", 60), ("EUO", 60), ("SMT", 60)], alphabet=load_alphabet("de")
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    with TestClient(web_app.create_app(words=words, hosts=HOSTS), base_url="http://127.0.0.1") as client:
        yield client


def test_the_personal_list_of_a_language_is_its_own(german_client, tmp_path):
    assert german_client.post("/api/words", json={"word": "räs", "score": 70}).status_code == 200
    assert (tmp_path / "data" / "personal.de.dict").read_text(encoding="utf-8").splitlines()[-1] == "RAES;70"
    assert not (tmp_path / "data" / "personal.dict").exists()
    assert german_client.post("/api/words", json={"word": "Ж", "score": 70}).status_code == 400


def test_a_server_started_in_german_fills_from_its_list_in_german_letters(german_client):
    """`xwcp serve --language de --words LIST`: ÄS is read as AES; the personal list is the German one."""
    from tests.helpers import check_written_fill
    from tests.web.helpers import _fill

    with german_client.websocket_connect("/ws/fill") as ws:
        _, result = _fill(ws, {"grid": ["...", "...", "..."], "time_limit_s": 20})
    assert result["status"] == "filled", result
    listed = {"AES", "RUM", "TOT", "ART", "EUO", "SMT"}
    from xwcp.model.alphabet import load_alphabet

    assert check_written_fill(result["contents"], listed, load_alphabet("de").letters) == []
    assert set(result["entries"].values()) <= listed
    assert german_client.get("/api/info").json()["personal"]["path"].endswith("personal.de.dict")


def test_a_server_in_another_language_needs_its_list(tmp_path):
    with pytest.raises(xwcp.InputError, match="default word list is English.*xwcp words build --language es"):
        web_app.create_app(language="es")
    words = tmp_path / "es.dict"
    words.write_text("AÑO;60\nSON;60\n", encoding="utf-8")
    app = web_app.create_app(str(words), language="es")
    assert app.state.xwcp.words.alphabet.code == "es" and app.state.xwcp.words.word_id("AÑO") is not None
