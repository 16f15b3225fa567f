"""The builder's workbench API: puzzle files in and out, statistics, the personal word list, the Host guard,
the cache of compiled grids, and `xwcp serve`'s options (issue 24)."""
from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

import warnings  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import xwcp  # noqa: E402
from xwcp.words import userwords  # noqa: E402
from xwcp.engine.ac3 import propagate  # noqa: E402
from xwcp.analysis.questions import domains_report, suggest_report  # noqa: E402
from xwcp.formats import Puzzle, read_puzzle, write_puzzle  # noqa: E402
from xwcp.model import parse_grid  # noqa: E402
from xwcp.model import grid_from_rows  # noqa: E402
from xwcp.web import app as web_app  # noqa: E402
from xwcp.web.analysis_cache import AnalysisCache  # noqa: E402
from xwcp.web.hosts import allowed_hosts, host_name  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FILLED = ["ADS#ERA", "LOO#NAP", "SWEATER", "##RIM##", "HAIRNET", "ALP#ATE", "ERE#SEA"]
"""A filled 7x7 (no word twice) with clues below."""
HOSTS = allowed_hosts("127.0.0.1", ["testserver"])


@pytest.fixture(scope="module")
def words():
    return xwcp.load_word_list()


@pytest.fixture()
def client(words):
    with TestClient(web_app.create_app(words=words, max_fills=1, hosts=HOSTS), base_url="http://127.0.0.1") as client:
        yield client


def _clues(grid_rows: list[str]) -> dict[str, str]:
    return {slot.name: f"Clue for {slot.name}" for slot in xwcp.find_slots(parse_grid("\n".join(grid_rows)))}


def _puzzle() -> Puzzle:
    return Puzzle(parse_grid("\n".join(FILLED)), title="Seven Seas", author="A. Setter", copyright="CC0",
                  notes="A test puzzle", clue_by_slot=_clues(FILLED))


# ----- files ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["puz", "ipuz", "xd", "json", "txt", "jpz"])
def test_open_reads_every_format_the_cli_reads(client, tmp_path, fmt):
    path = tmp_path / f"seven.{fmt}"
    write_puzzle(_puzzle(), path)
    response = client.post(f"/api/open?name=seven.{fmt}", content=path.read_bytes(),
                           headers={"Content-Type": "application/octet-stream"})
    assert response.status_code == 200, response.text
    puzzle = response.json()["puzzle"]
    assert puzzle["grid"] == FILLED and puzzle["title"] == "Seven Seas"
    clues = {e["id"]: e["clue"] for e in puzzle["entries"]}
    if fmt != "txt":  # a text grid carries no clues
        assert clues == _clues(FILLED)
        assert puzzle["author"] == "A. Setter"


@pytest.mark.parametrize("fmt", ["puz", "ipuz", "xd", "json", "txt"])
def test_export_writes_every_format_from_the_page_object(client, tmp_path, fmt):
    page_object = {"title": "Seven Seas", "author": "A. Setter", "copyright": "CC0", "notes": "n",
                   "grid": FILLED, "clues": {**_clues(FILLED), "1A": "Promotions, in brief"}}
    response = client.post("/api/export", json={"puzzle": page_object, "format": fmt})
    assert response.status_code == 200, response.text
    assert response.headers["content-disposition"] == f'attachment; filename="seven-seas.{fmt}"'
    path = tmp_path / f"out.{fmt}"
    path.write_bytes(response.content)
    back = read_puzzle(path)
    assert back.grid.rows == FILLED and back.title == "Seven Seas"
    if fmt != "txt":
        assert back.clue_by_slot["1A"] == "Promotions, in brief" and back.clue_by_slot["5D"] == "Clue for 5D"
    if fmt == "puz":
        import puz

        p = puz.read(str(path))
        assert "Promotions, in brief" in p.clues and p.title == "Seven Seas"


def test_export_keeps_the_first_shape_and_refuses_unknown_formats(client):
    old = client.post("/api/export", json={"grid": FILLED, "format": "puz", "clues": {"1A": "Ads"}})
    assert old.status_code == 200 and old.content[2:14] == b"ACROSS&DOWN\x00"
    bad = client.post("/api/export", json={"puzzle": {"grid": FILLED}, "format": "docx"})
    assert bad.status_code == 404 and "available" in bad.json()["error"]
    ragged = client.post("/api/export", json={"puzzle": {"grid": ["ADS", "LO"]}, "format": "json"})
    assert ragged.status_code == 400


def test_open_refuses_what_it_cannot_read_naming_the_file(client):
    response = client.post("/api/open?name=mine.puz", content=b"not a puz at all")
    assert response.status_code == 400 and response.json()["error"].startswith("mine.puz: ")
    assert client.post("/api/open?name=mine.docx", content=b"x").status_code == 400
    assert "name" in client.post("/api/open", content=b"x").json()["error"]
    big = client.post("/api/open?name=big.txt", content=b"." * (2 << 20))
    assert big.status_code == 413


def test_the_page_opens_a_real_puz_from_tests_data(client):
    """The browser test's file: a 15x15 .puz with every clue (made by xwcp, clues written for it; SOURCE.md)."""
    path = ROOT / "tests" / "data" / "formats" / "xwcp-15x15-clued.puz"
    data = client.post("/api/open?name=xwcp-15x15-clued.puz", content=path.read_bytes()).json()["puzzle"]
    assert len(data["entries"]) == 76 and all(e["clue"] for e in data["entries"])
    assert data["width"] == 15 and "." not in "".join(data["grid"])


def test_barred_rebus_and_marked_grids_in_and_out_of_the_page(client, tmp_path):
    """Issue 23 item 5's server side: a locked rebus .puz opens with its warning; the page's barred, circled,
    rebus grid saves in every format that can hold it, and the others refuse in one line that names a format that
    can and no temporary file; .jpz is among the page's formats; the barred and rebus presets keep their bars."""
    data = client.post("/api/open?name=nyt_sun_rebus.puz",
                       content=(ROOT / "tests/data/puzzles/nyt_sun_rebus.puz").read_bytes()).json()
    assert data["warnings"] == ["the solution was locked; unlocked with key 2173"]
    assert grid_from_rows(data["puzzle"]["grid"]) == read_puzzle(ROOT / "tests/data/puzzles/nyt_sun_rebus.puz").grid
    lines = ["(A)[STAR]C|D", "E{F}GH", " -", "IJKL"]
    grid = grid_from_rows(lines)
    assert grid.bars and grid.marks and grid.has_rebus
    assert "jpz" in client.get("/api/info").json()["formats"]
    for fmt in ["ipuz", "jpz", "xd", "json", "txt", "puz"]:
        response = client.post("/api/export", json={"puzzle": {"grid": lines, "title": "Marked"}, "format": fmt})
        if fmt == "puz":
            error = response.json()["error"]
            assert response.status_code == 400 and ".ipuz" in error and "/" not in error.split(".puz")[0], error
            continue
        assert response.status_code == 200, response.text
        path = tmp_path / f"out.{fmt}"
        path.write_bytes(response.content)
        back = read_puzzle(path).grid
        assert back.cells == grid.cells and back.bars == grid.bars, fmt
        assert {c for c, m in back.marks if m.circle} == {0} and {c for c, m in back.marks if m.shaded or m.color} == {5}
    presets = {p["name"]: p["rows"] for p in client.get("/api/presets").json()}
    for name in ("15x15-barred-01", "15x15-rebus-01"):
        assert grid_from_rows(presets[name]) == xwcp.read_grid(ROOT / "models" / f"{name}.txt")

# ----- statistics -------------------------------------------------------------------------------


def test_stats_endpoint(client):
    data = client.post("/api/stats", json={"grid": FILLED, "theme": ["9a"], "below_score": 50}).json()
    assert data["words"] == 22 and data["blocks"] == 8 and data["theme"] == [{"id": "9A", "word": "SWEATER",
                                                                                  "length": 7}]
    assert client.post("/api/stats", json={"grid": FILLED, "theme": "3A"}).status_code == 400


# ----- the personal word list -------------------------------------------------------------------

def _suggested(client, rows, slot, k=200):
    return [w["word"] for w in client.post("/api/suggest", json={"grid": rows, "slot": slot, "k": k}).json()["words"]]


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
    for body, words_in_error in [({"word": "ab1", "score": 3}, "not a word"), ({"word": "ABC", "score": -1}, "score"),
                                 ({"word": "ABC", "score": True}, "score"), ({"word": "ABC"}, "remove"),
                                 ({"edits": []}, "edits")]:
        response = client.post("/api/words", json=body)
        assert response.status_code == 400 and words_in_error in response.json()["error"], body
    assert not userwords.personal_path().exists()


def test_upload_merges_or_replaces_and_reports_skipped_lines(client):
    client.post("/api/words", json={"word": "ESNE", "score": 0})
    data = client.post("/api/words/upload?mode=merge&name=mine.txt",
                       content="AXQZ;80\nBYQZ\n12 34;5\nCWQZ;0\n".encode()).json()
    assert {e["word"]: e["score"] for e in data["entries"]} == {"ESNE": 0, "CWQZ": 0, "AXQZ": 80, "BYQZ": 50}
    assert "1 malformed line" in data["skipped"]
    data = client.post("/api/words/upload?mode=replace", content=b"DZQZ;60\n").json()
    assert [e["word"] for e in data["entries"]] == ["DZQZ"]
    assert client.post("/api/words/upload?mode=merge", content=b"1 2 3\n").status_code == 400


def test_another_process_sees_the_edit(words):
    """Two apps stand for two worker processes: an edit through one is used by the other's next request."""
    first = TestClient(web_app.create_app(words=words, hosts=HOSTS), base_url="http://127.0.0.1")
    second = TestClient(web_app.create_app(words=words, hosts=HOSTS), base_url="http://127.0.0.1")
    rows = ["A...", "....", "....", "...."]
    assert "AXQZ" not in _suggested(second, rows, "1A")
    first.post("/api/words", json={"word": "AXQZ", "score": 90})
    assert "AXQZ" in _suggested(second, rows, "1A")


def test_malformed_personal_list_is_reported_and_the_list_still_serves(client):
    path = userwords.personal_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("ESNE;zero\n")
    info = client.get("/api/info").json()
    assert "personal.dict:1" in info["personal"]["error"]
    assert client.post("/api/suggest", json={"grid": FILLED, "slot": "1A"}).status_code == 200


def test_cli_personal_layers_the_list(tmp_path, capsys):
    from xwcp.cli.commands import main

    grid = tmp_path / "g.txt"
    grid.write_text("A...\n....\n....\n....\n")
    userwords.update_personal({"AXQZ": 99})
    assert main(["suggest", str(grid), "--slot", "1A", "--personal", "--format", "json", "-k", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["words"][0]["word"] == "AXQZ"
    assert main(["suggest", str(grid), "--slot", "1A", "--format", "json", "-k", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["words"][0]["word"] != "AXQZ"


# ----- hosts ------------------------------------------------------------------------------------

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
    assert [host_name(h) for h in ("[::1]:8000", "LOCALHOST:80", "example.com", "::1")] == \
        ["::1", "localhost", "example.com", "::1"]


# ----- the cache of compiled grids ----------------------------------------------------------------

def test_cached_and_incremental_answers_equal_fresh_ones(words):
    """A random session of typing, erasing and undoing on three grids: every answer from the cache (hits,
    next keystrokes from the last grid's engine, misses) equals compiling and propagating from scratch."""
    rng = random.Random(5)
    cache = AnalysisCache()
    n_steps = 0
    for name in ("15x15-daily-01", "11x11-01", "7x7-mini"):
        grid = xwcp.read_grid(ROOT / "models" / f"{name}.txt")
        cells, history = list(grid.cells), []
        for _ in range(30):
            empties = [c for c, x in enumerate(cells) if x == "."]
            if history and rng.random() < 0.25:
                cells = history.pop()
            elif empties:
                history.append(list(cells))
                cells[rng.choice(empties)] = rng.choice("AEIOUSTRNL" if rng.random() < 0.8 else "XQZJKW")
            now = type(grid)(grid.width, grid.height, tuple(cells))
            entry = cache.analysed(words, 1, tuple(now.rows), lambda: now, 50, False)  # noqa: B023 - called at once
            problem = xwcp.compile_problem(now, words)
            fresh = propagate(problem)
            assert entry.prop.is_consistent == fresh.is_consistent
            if fresh.is_consistent:
                assert all(np.array_equal(a, b) for a, b in zip(entry.prop.domains, fresh.domains))
                assert np.array_equal(entry.prop.letter_counts, fresh.letter_counts)
            assert all(np.array_equal(a, b) for a, b in zip(entry.problem.domains, problem.domains))
            got = domains_report(entry.problem, k=5, prop=entry.prop)
            want = domains_report(problem, k=5)
            got.pop("seconds"), want.pop("seconds")
            assert got == want
            n_steps += 1
    assert cache.incremental >= 10 and cache.hits >= 5  # the three paths were all taken
    assert n_steps == 90


def test_server_answers_equal_the_library_along_an_edit_session(client, words):
    rows = list(xwcp.read_grid(ROOT / "models" / "15x15-daily-01.txt").rows)
    assert rows[1].startswith("....#")  # 14A: typing WARE completes it (the E: compiled from scratch)
    for ch, col in zip(" WARE", range(-1, 4)):
        if col >= 0:
            rows[1] = rows[1][:col] + ch + rows[1][col + 1:]
        data = client.post("/api/suggest", json={"grid": rows, "slot": "1D", "k": 10}).json()
        assert data == suggest_report(xwcp.compile_problem(parse_grid("\n".join(rows)), words), "1D", k=10)
    assert client.get("/api/info").json()["cache"] == {"hits": 0, "misses": 5, "incremental": 3}


# ----- xwcp serve ---------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_refuses_a_bad_or_taken_port_in_one_line():
    for port in ("99999", "0", "http"):
        out = subprocess.run([sys.executable, "-m", "xwcp", "serve", "--port", port], capture_output=True, text=True,
                             timeout=60)
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and "--port" in out.stderr, out.stderr
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "xwcp", "serve", "--port", str(port)], capture_output=True,
                             text=True, timeout=60)
    assert out.returncode == 2 and "in use" in out.stderr and out.stderr.count("\n") == 1


def _get(url: str, host: str | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_serve_with_two_workers_answers_only_its_hosts_and_stops_cleanly():
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "xwcp", "serve", "--port", str(port), "--workers", "2",
                               "--allow-host", "builder.test"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    try:
        assert server.stdout.readline().strip() == f"xwcp builder: http://127.0.0.1:{port}/"
        url = f"http://127.0.0.1:{port}/api/info"
        deadline = time.monotonic() + 60
        pids = set()
        while len(pids) < 2:  # both workers answer (the kernel spreads connections over them)
            try:
                status, data = _get(url)
                pids.add(data["pid"])
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


def test_no_personal_leaves_the_list_alone(words):
    userwords.update_personal({"AXQZ": 99})
    with TestClient(web_app.create_app(words=words, hosts=HOSTS, personal=False),
                    base_url="http://127.0.0.1") as client:
        assert "AXQZ" not in _suggested(client, ["A...", "....", "....", "...."], "1A")
        refused = client.post("/api/words", json={"word": "ESNE", "score": 0})
        assert refused.status_code == 409 and "--no-personal" in refused.json()["error"]
        assert client.get("/api/words").json()["enabled"] is False
    assert userwords.read_personal() == {"AXQZ": 99}
