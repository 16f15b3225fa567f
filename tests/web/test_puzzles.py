"""Puzzle files in and out of the page (xwcp/web/puzzles.py): `/api/open` reads every format the CLI reads,
`/api/export` writes them from the page's object, bad files refused naming the file."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

import xwcp  # noqa: E402
from tests.web.helpers import FILLED, ROOT, _clues, _puzzle  # noqa: E402
from xwcp.formats import read_puzzle, write_puzzle  # noqa: E402
from xwcp.formats.jsonfile import to_dict  # noqa: E402
from xwcp.model import grid_from_rows, grid_lines  # noqa: E402


@pytest.mark.parametrize("fmt", ["puz", "ipuz", "xd", "json", "txt", "jpz"])
def test_open_reads_every_format_the_cli_reads(client, tmp_path, fmt):
    path = tmp_path / f"seven.{fmt}"
    write_puzzle(_puzzle(), path)
    response = client.post(
        f"/api/open?name=seven.{fmt}", content=path.read_bytes(), headers={"Content-Type": "application/octet-stream"}
    )
    assert response.status_code == 200, response.text
    puzzle = response.json()["puzzle"]
    assert puzzle["grid"] == FILLED and puzzle["title"] == "Seven Seas"
    clues = {e["id"]: e["clue"] for e in puzzle["entries"]}
    if fmt != "txt":  # a text grid carries no clues
        assert clues == _clues(FILLED)
        assert puzzle["author"] == "A. Setter"


@pytest.mark.parametrize("fmt", ["puz", "ipuz", "xd", "json", "txt"])
def test_export_writes_every_format_from_the_page_object(client, tmp_path, fmt):
    page_object = {
        "title": "Seven Seas",
        "author": "A. Setter",
        "copyright": "CC0",
        "notes": "n",
        "grid": FILLED,
        "clues": {**_clues(FILLED), "1A": "Promotions, in brief"},
    }
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


def test_open_shows_the_published_variety_files_with_their_lists_and_labels(client):
    """Every variety file xwcp reads opens in the builder with its own clue lists and cell labels (and its chains:
    entries of several words whose boundaries the fill chooses), as `xwcp convert` to .json gives them."""
    folder = ROOT / "tests" / "data" / "puzzles" / "variety"
    opened = []
    for path in sorted(folder.iterdir()):
        puzzle = read_puzzle(path)
        response = client.post(f"/api/open?name={path.name}", content=path.read_bytes())
        assert response.status_code == 200, response.text
        page = response.json()["puzzle"]
        assert page == to_dict(puzzle), path.name
        assert page["lists"] and ("labels" in page) == bool(puzzle.cell_labels), path.name
        opened.append(path.name)
    assert len(opened) == 43


@pytest.mark.parametrize("fmt", ["txt", "json", "ipuz"])
def test_open_keeps_listed_entries_and_schrodinger_cells(client, fmt):
    """Listed entries and Schrödinger cells open in the builder with their grid text, and save back unchanged."""
    lines = ["; entry: HOOK = 1,1 2,2 3,3 3,4", ".....", ".....", "..<..>..", ".....", "....."]
    doc = {"width": 5, "height": 5, "grid": lines, "clues": {"HOOK": "A bent entry", "7A": "Two readings"}}
    saved = client.post("/api/export", json={"puzzle": doc, "format": fmt})
    assert saved.status_code == 200, saved.text
    opened = client.post(f"/api/open?name=mine.{fmt}", content=saved.content)
    assert opened.status_code == 200, opened.text
    page = opened.json()["puzzle"]
    assert page["grid"] == lines
    assert "lists" not in page  # xwcp's own Across, Down and Entries lists: the page builds them from the grid
    clues = {entry["id"].split("/")[0]: entry["clue"] for entry in page["entries"] if entry.get("clue")}  # 7A/1, 7A/2
    if fmt != "txt":
        assert clues == {"HOOK": "A bent entry", "7A": "Two readings"}
    farrell = ROOT / "models" / "variety" / "15x15-schrodinger-farrell.txt"
    opened = client.post("/api/open?name=farrell.txt", content=farrell.read_bytes())
    assert opened.status_code == 200 and opened.json()["puzzle"]["grid"] == grid_lines(read_puzzle(farrell).grid)


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
    data = client.post(
        "/api/open?name=nyt_sun_rebus.puz", content=(ROOT / "tests/data/puzzles/nyt_sun_rebus.puz").read_bytes()
    ).json()
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
        assert {c for c, m in back.marks if m.circle} == {0} and {c for c, m in back.marks if m.shaded or m.color} == {
            5
        }
    presets = {p["name"]: p["rows"] for p in client.get("/api/presets").json()}
    for name in ("15x15-barred-01", "15x15-rebus-01"):
        assert grid_from_rows(presets[name]) == xwcp.read_grid(ROOT / "models" / f"{name}.txt")


# ----- the worker a file is read in: its time and memory limits (xwcp.runtime.isolation.call_bounded) -------------
# The real hostile files are sent to a real server in tests/web/test_hostile.py; here stand-ins for a reader that
# hangs, one that grabs memory and one that crashes (tests/web/hostile.py, a light module the worker imports).


def test_a_file_read_past_its_limits_costs_only_its_own_request(client, monkeypatch):
    import time

    from tests.web import hostile
    from xwcp.web import puzzles
    from xwcp.web.http import MAX_ERROR_CHARS

    for job, limit_s, status, words in (
        (hostile.slow_open, 1.0, 422, "longer than 1 s"),
        (hostile.greedy_open, 20.0, 413, "more than 256 MB"),
        (hostile.crashing_open, 20.0, 422, "TypeError: unhashable"),
    ):
        monkeypatch.setattr(puzzles, "OPEN_TIME_LIMIT_S", limit_s)
        monkeypatch.setattr(puzzles, "open_job", job)
        start = time.monotonic()
        response = client.post("/api/open?name=mine.ipuz", content=b"{}")
        error = response.json()["error"]
        assert response.status_code == status and error.startswith("mine.ipuz: ") and words in error, error
        assert "\n" not in error and len(error) <= MAX_ERROR_CHARS and time.monotonic() - start < limit_s + 5
        assert client.get("/api/info").status_code == 200
    monkeypatch.undo()
    path = ROOT / "tests" / "data" / "formats" / "xwcp-15x15-clued.puz"
    assert client.post("/api/open?name=ok.puz", content=path.read_bytes()).status_code == 200


def test_an_error_names_the_upload_not_the_servers_temporary_file(client):
    import io
    import tempfile
    import zipfile

    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("inside.jpz", b"<not-a-puzzle/>")
    response = client.post("/api/open?name=zipped.jpz", content=out.getvalue())
    error = response.json()["error"]
    assert response.status_code == 400 and error.startswith("zipped.jpz") and tempfile.gettempdir() not in error


def _named_paths(tmp_path) -> dict[str, str]:
    """Paths an uploaded puzzle may name as its language: a valid pack (with and without .json), a file that is no
    pack, a path that does not exist."""
    from tests.project.hostile import planted_pack

    folder = tmp_path / "server-files"
    folder.mkdir()
    (folder / "pack").write_text(planted_pack(), encoding="utf-8")
    (folder / "pack.json").write_text(planted_pack(), encoding="utf-8")
    (folder / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    return {name: str(folder / name) for name in ("pack", "pack.json", "passwd", "missing")}


@pytest.mark.parametrize("fmt", ["txt", "ipuz", "xd", "json", "puz"])
def test_open_never_reads_a_file_an_upload_names_as_its_language(client, tmp_path, fmt):
    """A `; language: /etc/passwd` line (an .ipuz key, an .xd header, a .json field, a .puz section) names no file
    on the server: the answer is the same whether the path is a pack, another file or nothing, and never the pack's
    letters."""
    import re

    from tests.project.hostile import puzzle_naming_language

    said = set()
    for path in _named_paths(tmp_path).values():
        response = client.post(
            f"/api/open?name=named.{fmt}",
            content=puzzle_naming_language(fmt, path),
            headers={"Content-Type": "application/octet-stream"},
        )
        if fmt in ("txt", "json"):  # xwcp's own formats: an unknown language is an error
            assert response.status_code == 400, response.text
            message = response.json()["error"]
            assert message.startswith(f"named.{fmt}: unknown language"), message
        else:  # a published format: read as English, with a warning
            assert response.status_code == 200, response.text
            data = response.json()
            assert data["puzzle"]["grid"] == ["CAT", "A#A", "TAT"] and "language" not in data["puzzle"]
            (message,) = [w for w in data["warnings"] if "language" in w]
        assert "root:" not in message and "not JSON" not in message
        said.add(re.sub(r"language '[^']*'(\.\.\.)?", "language NAME", message))
    assert len(said) == 1, said


def test_export_never_reads_a_file_the_page_object_names(client, tmp_path):
    for path in _named_paths(tmp_path).values():
        response = client.post(
            "/api/export", json={"puzzle": {"grid": ["CAT", "A#A", "TAT"], "language": path}, "format": "txt"}
        )
        assert response.status_code == 400 and "unknown language" in response.json()["error"], response.text


@pytest.mark.parametrize("fmt", ["ipuz", "xd", "json", "txt"])
def test_export_writes_hebrew_final_letters_where_entries_end(client, tmp_path, fmt):
    """The page sends a Hebrew grid in its letters (מ, never ם); the file shows each final form where an entry
    ends, across or down, and reads back as the same grid."""
    from xwcp.model import parse_grid
    from xwcp.model.alphabet import load_alphabet

    rows = ["אבמ", "גפנ", "כוצ"]
    response = client.post("/api/export", json={"puzzle": {"grid": rows, "language": "he"}, "format": fmt})
    assert response.status_code == 200, response.text
    text = response.content.decode("utf-8")
    for row in ("אבם", "גפן", "ךוץ") if fmt != "ipuz" else ('"ם"', '"ן"', '"ך"', '"ץ"'):
        assert row in text, (fmt, row)
    assert not any(row in text for row in rows)
    path = tmp_path / f"out.{fmt}"
    path.write_bytes(response.content)
    assert read_puzzle(path).grid == parse_grid("\n".join(rows), alphabet=load_alphabet("he"))
    packs = {p["code"]: p for p in client.get("/api/languages").json()}
    assert packs["he"]["final"] == {"כ": "ך", "מ": "ם", "נ": "ן", "פ": "ף", "צ": "ץ"}
    assert all("final" not in p for code, p in packs.items() if code != "he")
