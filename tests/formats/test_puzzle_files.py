"""Real puzzle files through every format: the .puz -> .ipuz -> .jpz -> .puz chain; bars, marks, rebus cells,
numbering and the kind in every format; warnings reach the user; damaged files (one format's own files:
test_puzfile.py, test_ipuzfile.py, test_xdfile.py, test_jpzfile.py).

The files under tests/data/puzzles are published puzzles from other projects' test collections
(see SOURCE.md there); each test says what the file's own reader (puzpy, the JSON, the XML)
shows and checks that xwcp reads the same, or refuses in one line, or warns.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from xwcp.base.errors import InputError
from xwcp.cli.commands import main
from xwcp.formats import Puzzle, check_writable, puzfile, read_puzzle, write_puzzle
from xwcp.model import BLOCK, EMPTY, Mark, find_slots, make_grid, parse_grid

DATA = Path(__file__).resolve().parents[1] / "data" / "puzzles"


def cells_of(puzzle: Puzzle, name: str) -> str:
    slot = next(s for s in find_slots(puzzle.grid) if s.name == name)
    return "".join(puzzle.grid.cells[c] for c in slot.cells)


# ----- the done-when chain: .puz -> .ipuz -> .jpz -> .puz ------------------------------------


@pytest.mark.parametrize(
    "name",
    ["nyt_rebus_with_notes_and_shape.puz", "nyt_v1_4.puz", "nyt_sun_rebus.puz", "nyt_diagramless.puz", "washpost.puz"],
)
def test_puz_ipuz_jpz_puz_keeps_solution_circles_and_rebus_exactly(name, tmp_path):
    import puz

    source = puz.read(str(DATA / name))
    key, _ = puzfile.unlock_key(source) if source.is_solution_locked() else (None, 0)
    if key is not None:
        source.solution = puz.unscramble_solution(source.solution, source.width, source.height, key, ignore_chars=".:")
    current = DATA / name
    for suffix in (".ipuz", ".jpz", ".puz"):
        out = tmp_path / f"chain{suffix}"
        write_puzzle(read_puzzle(current), out)
        current = out
    back = puz.read(str(current))
    blocks = ".:"
    assert [c in blocks for c in back.solution] == [c in blocks for c in source.solution]
    assert [a for a, b in zip(back.solution, source.solution) if b not in blocks] == [
        b for b in source.solution if b not in blocks
    ]

    def circles(p):
        return p.markup().get_markup_squares(puz.GridMarkup.Circled) if p.has_markup() else []

    def rebus(p):
        r = p.rebus()
        return {i: r.get_rebus_solution(i) for i in r.get_rebus_squares()} if p.has_rebus() else {}

    assert circles(back) == circles(source)
    assert rebus(back) == rebus(source)
    assert back.clues == source.clues and back.title == source.title
    assert (back.puzzletype == puz.PuzzleType.Diagramless) == (source.puzzletype == puz.PuzzleType.Diagramless)


# ----- every format keeps bars, marks, rebus cells, numbering and the kind -------------------

RICH = """\
; colors: 1,2=#FFCC00 3,3=#0A0B0C
([STAR]){A}B|C
.(.).[&]
 -
D{E}.F
"""


@pytest.mark.parametrize("suffix", [".ipuz", ".jpz", ".json", ".txt", ".xd"])
def test_every_format_round_trips_bars_marks_rebus_and_kind(suffix, tmp_path):
    grid = parse_grid(RICH)
    if suffix == ".jpz":  # .jpz has colours only: a shaded cell without its own colour comes back light grey
        grid = make_grid(
            grid.width,
            grid.height,
            grid.cells,
            bars=grid.bars,
            marks={c: Mark(m.circle, False, m.color or ("#D3D3D3" if m.shaded else None)) for c, m in grid.marks},
        )
    puzzle = Puzzle(
        grid,
        title="Rich",
        author="Me",
        is_diagramless=True,
        clue_by_slot={} if suffix == ".txt" else {"1A": "First", "1D": "Down one"},
    )
    out = tmp_path / f"rich{suffix}"
    write_puzzle(puzzle, out)
    back = read_puzzle(out)
    assert back.grid == grid and back.is_diagramless and back.title == "Rich"
    assert back.clue_by_slot == puzzle.clue_by_slot and not back.warnings


@pytest.mark.parametrize("suffix", [".ipuz", ".jpz", ".json", ".txt"])
def test_a_published_numbering_round_trips(suffix, tmp_path):
    grid = parse_grid("; numbers: 1,1=7 1,2=8 1,3=9 2,1=10 3,1=11\n...\n...\n...\n")
    puzzle = Puzzle(grid, clue_by_slot={} if suffix == ".txt" else {"7A": "Seven", "11A": "Eleven"})
    write_puzzle(puzzle, tmp_path / f"n{suffix}")
    back = read_puzzle(tmp_path / f"n{suffix}")
    assert back.grid == grid and back.clue_by_slot == puzzle.clue_by_slot


def test_xd_refuses_a_published_numbering(tmp_path):
    grid = parse_grid("; numbers: 1,1=7 1,2=8 1,3=9 2,1=10 3,1=11\n...\n...\n...\n")
    with pytest.raises(InputError, match="its own numbering: .xd numbers every grid the standard way; write .ipuz"):
        write_puzzle(Puzzle(grid), tmp_path / "n.xd")


_CELL = st.sampled_from([BLOCK, EMPTY, EMPTY, EMPTY, "A", "Q", "STAR", "EW", "&", "3"])


@st.composite
def puzzles(draw, plain_marks: bool = False):
    width, height = draw(st.integers(2, 6)), draw(st.integers(2, 6))
    n = width * height
    cells = draw(st.lists(_CELL, min_size=n, max_size=n))
    bars = draw(st.lists(st.tuples(st.integers(0, n - 1), st.sampled_from("RB")), max_size=4))
    colors = [None] if plain_marks else [None, "#FFCC00"]
    marks = draw(
        st.dictionaries(
            st.integers(0, n - 1),
            st.builds(Mark, st.booleans(), st.just(False) if plain_marks else st.booleans(), st.sampled_from(colors)),
            max_size=4,
        )
    )
    grid = make_grid(width, height, cells, bars=[] if plain_marks else bars, marks=marks)
    return grid


@settings(max_examples=60, deadline=None)
@given(puzzles(), st.sampled_from([".ipuz", ".json", ".txt", ".xd"]))
def test_random_grids_round_trip_through_every_format_that_holds_them(tmp_path_factory, grid, suffix):
    if not find_slots(grid):
        return
    out = tmp_path_factory.mktemp("rt") / f"g{suffix}"
    write_puzzle(Puzzle(grid), out)
    assert read_puzzle(out).grid == grid


@settings(max_examples=60, deadline=None)
@given(puzzles(plain_marks=True), st.sampled_from([".puz", ".jpz"]))
def test_random_grids_round_trip_through_puz_and_jpz(tmp_path_factory, grid, suffix):
    if not find_slots(grid):
        return
    out = tmp_path_factory.mktemp("rt") / f"g{suffix}"
    write_puzzle(Puzzle(grid), out)
    assert read_puzzle(out).grid == grid


# ----- warnings reach the user; what cannot be written is refused before the work ----------


@pytest.mark.parametrize(
    "command", [["check", "--time-limit", "5"], ["domains", "-k", "1"], ["heatmap"], ["fill", "--time-limit", "5"]]
)
def test_every_command_that_reads_a_file_shows_its_warnings(command, capsys):
    path = DATA / "nyt_locked.puz"
    code = main([command[0], str(path), *command[1:], "--format", "json"])
    captured = capsys.readouterr()
    line = f"xwcp: warning: {path}: the solution was locked; unlocked with key 7844"
    assert line in captured.err.splitlines()
    data = json.loads(captured.out)
    assert f"{path}: the solution was locked; unlocked with key 7844" in data["warnings"]
    assert code in (0, 1, 3)


def test_convert_shows_the_warnings_and_writes(tmp_path, capsys):
    out = tmp_path / "unlocked.ipuz"
    assert main(["convert", str(DATA / "nyt_locked.puz"), str(out), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "unlocked with key 7844" in captured.err and json.loads(captured.out)["warnings"]
    assert read_puzzle(out).grid == read_puzzle(DATA / "nyt_locked.puz").grid


def test_warnings_do_not_change_the_exit_code(tmp_path, capsys):
    data = bytearray((DATA / "washpost.puz").read_bytes())
    data[data.index(b"ACROSS&DOWN") - 2] ^= 0xFF
    path = tmp_path / "bad-sum.puz"
    path.write_bytes(bytes(data))
    good = main(["check", str(DATA / "washpost.puz"), "--time-limit", "5"])
    capsys.readouterr()
    assert main(["check", str(path), "--time-limit", "5"]) == good
    assert "checksums do not match (global)" in capsys.readouterr().err


def test_fill_out_refuses_what_the_output_cannot_hold_before_filling(tmp_path, capsys, monkeypatch):
    import xwcp.services.run

    def no_fill(*args, **kwargs):
        raise AssertionError("filled before refusing the output")

    monkeypatch.setattr(xwcp.services.run, "run_fill", no_fill)
    grid = tmp_path / "barred.txt"
    grid.write_text("AB|C\n...\n")
    code = main(["fill", str(grid), "--out", str(tmp_path / "f.puz")])
    assert code == 2
    err = capsys.readouterr().err
    assert "f.puz: bars between cells" in err and "write .ipuz or .jpz" in err and err.count("\n") == 1
    with pytest.raises(InputError):
        check_writable(read_puzzle(grid), tmp_path / "f.puz")
    check_writable(read_puzzle(grid), tmp_path / "f.ipuz")


# ----- damaged files: a Puzzle or one InputError line, never anything else ------------------

FUZZ_SOURCES = [
    "nyt_rebus_with_notes_and_shape.puz",
    "nyt_locked.puz",
    "unicode.puz",
    "ccw-barred-demo.ipuz",
    "first.ipuz",
    "alpha-bits.xd",
    "speakerboxxx.xd",
    "printer-devilry.jpz",
    "3x.jpz",
    "kotwords-test.jpz",
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FUZZ_SOURCES), st.data())
def test_damaged_files_read_or_are_refused_in_one_line(tmp_path_factory, name, data):
    raw = bytearray((DATA / name).read_bytes())
    how = data.draw(st.sampled_from(["cut", "flip", "splice"]))
    if how == "cut":
        raw = raw[: data.draw(st.integers(0, len(raw)))]
    elif how == "flip":
        for _ in range(data.draw(st.integers(1, 8))):
            at = data.draw(st.integers(0, len(raw) - 1))
            raw[at] = data.draw(st.integers(0, 255))
    else:
        at = data.draw(st.integers(0, len(raw)))
        raw[at:at] = data.draw(st.binary(min_size=1, max_size=40))
    path = tmp_path_factory.mktemp("fuzz") / name
    path.write_bytes(bytes(raw))
    try:
        puzzle = read_puzzle(path)
    except InputError as exc:
        assert "\n" not in str(exc) and str(path) in str(exc)
        return
    assert find_slots(puzzle.grid)
    assert all(isinstance(w, str) and "\n" not in w for w in puzzle.warnings)


def test_the_library_says_what_reading_the_file_said():
    import xwcp

    seen: list[str] = []
    session = xwcp.Session(str(DATA / "nyt_locked.puz"), warn=seen.append)
    assert f"{DATA / 'nyt_locked.puz'}: the solution was locked; unlocked with key 7844" in seen
    assert session.puzzle.warnings == ("the solution was locked; unlocked with key 7844",)


def test_the_builder_gets_the_files_warnings():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    import warnings

    import xwcp
    from xwcp.web import app as web_app
    from xwcp.web.hosts import allowed_hosts

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    app = web_app.create_app(words=xwcp.load_word_list(), max_fills=1, hosts=allowed_hosts("127.0.0.1", ["testserver"]))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        response = client.post("/api/open?name=locked.puz", content=(DATA / "nyt_locked.puz").read_bytes())
    assert response.status_code == 200
    assert response.json()["warnings"] == ["the solution was locked; unlocked with key 7844"]


def test_a_coded_crossword_keeps_the_standard_numbering(tmp_path):
    data = {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/crossword#1", "http://crosswordnexus.com/ipuz/coded#1"],
        "dimensions": {"width": 3, "height": 2},
        "puzzle": [["5", "9", "5"], ["9", "5", "9"]],
        "solution": [["A", "B", "A"], ["B", "A", "B"]],
        "clues": {},
    }
    path = tmp_path / "coded.ipuz"
    path.write_text(json.dumps(data))
    puzzle = read_puzzle(path)
    assert puzzle.grid.numbers is None and "a coded crossword" in puzzle.warnings[0]
