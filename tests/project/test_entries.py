"""Listed entries (diagonals, wrap-around and hexagonal layouts) and Schrödinger squares in every command: fill on
every backend, domains, suggestions with labels and reading pairs, heat map, check and cores, quality, locks and
bans, batch, the CLI, and the stock grids (models/).

Every fill is checked twice: by `check_fill` on the compiled problem (every backend's fill goes through it), and
by `grid_violations` (tests/engine/test_entries_fill.py), which reads the filled grid's cells and finds its
entries itself: runs of white cells, the grid's listed entries, and both readings of a Schrödinger entry.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.engine.test_entries_fill import grid_violations
from tests.helpers import run
from xwcp.analysis import questions as analysis
from xwcp.analysis.verify import Viability
from xwcp.backends import fill
from xwcp.base.types import FillStatus
from xwcp.compile.controls import Controls
from xwcp.compile.problem import compile_problem
from xwcp.engine.ac3 import propagate
from xwcp.engine.result import Limits, check_fill, fill_grid
from xwcp.model import parse_grid, read_grid
from xwcp.render.questions_json import heatmap_json, suggest_json
from xwcp.search.core import find_core
from xwcp.services.run import run_fill
from xwcp.words.wordlist import load_word_list, score_by_word_of

MODELS = Path(__file__).resolve().parents[2] / "models" / "variety"

# a 5x5 with one corner block: the diagonal crosses every across and down entry, 3 slots through each of its cells
DIAGONAL = """\
; entry: DIAG = 1,1 2,2 3,3 4,4 5,5
....#
.....
.....
.....
.....
"""


def diagonal_with(letter_by_cell: dict[tuple[int, int], str]) -> str:
    """DIAGONAL with letters entered at (row, col) from 0."""
    header, *rows = DIAGONAL.splitlines()
    cells = [list(row) for row in rows]
    for (r, c), letter in letter_by_cell.items():
        cells[r][c] = letter
    return "\n".join([header, *("".join(row) for row in cells)]) + "\n"


SCHRODINGER_5 = ".....\n.....\n..<..>..\n.....\n.....\n"


@pytest.fixture(scope="module")
def words():
    return load_word_list()


@pytest.fixture(scope="module")
def listed(words):
    return set(score_by_word_of(words))


def filled_grid(problem, entries):
    return fill_grid(problem, entries)


def assert_good_fill(problem, result, listed):
    assert result.status is FillStatus.FILLED, result.reason
    assert check_fill(problem, result.entries) == []
    filled = filled_grid(problem, result.entries)
    assert grid_violations(problem.grid, filled, listed) == []
    return filled


@pytest.mark.parametrize("backend", ["backtrack", "cpsat", "sat", "letters", "grow"])
@pytest.mark.parametrize("source", [DIAGONAL, SCHRODINGER_5, "4x4-wraparound-listed.txt", "4x4-hexagonal-listed.txt"])
def test_every_backend_fills_listed_entries_and_schrodinger_squares(words, listed, backend, source):
    grid = read_grid(MODELS / source) if source.endswith(".txt") else parse_grid(source)
    problem = compile_problem(grid, words)
    result = fill(problem, backend, Limits(seed=1, time_limit_s=60))
    assert_good_fill(problem, result, listed)


def test_the_diagonal_is_a_slot_through_three_entries_per_cell(words):
    problem = compile_problem(parse_grid(DIAGONAL), words)
    diag = problem.slot_by_name("DIAG")
    assert diag is not None and problem.slot_cells(diag.id) == [0, 6, 12, 18, 24]
    assert not problem.is_pairwise
    assert set(problem.neighbours[diag.id]) == {s.id for s in problem.slots} - {diag.id}  # it crosses every slot


def test_domains_heatmap_and_suggestions_see_the_diagonal(words):
    problem = compile_problem(parse_grid(diagonal_with({(2, 2): "S"})), words)
    heat = heatmap_json(analysis.heatmap_report(problem))
    assert heat["status"] == "consistent"
    # the diagonal keeps only words with the centre's S
    diag = problem.slot_by_name("DIAG")
    assert diag is not None
    words_left = [problem.words.bucket(5).text(int(w)) for w in propagate(problem).domains[diag.id].nonzero()[0]]
    assert words_left and all(w[2] == "S" for w in words_left)
    report = analysis.suggest_report(problem, "diag", k=5, verify=True, time_limit_s=30)
    data = suggest_json(report)
    assert data["slot"]["id"] == "DIAG" and data["words"]
    assert all(len(w["word"]) == 5 for w in data["words"])
    viable = [w for w in report.words if w.label is not None and w.label.verdict is Viability.VIABLE]
    assert viable
    # each word labelled viable really fills: enter it and fill
    entered = compile_problem(
        problem.grid_with_letters(dict(zip(problem.slots[problem.slot_by_name("DIAG").id].cells, viable[0].word))),
        words,
    )
    assert fill(entered, "backtrack", Limits(time_limit_s=30)).status is FillStatus.FILLED


def test_the_core_of_an_unfillable_diagonal_names_it(words):
    problem = compile_problem(parse_grid(diagonal_with({(0, 0): "Q", (1, 1): "X"})), words)
    report = analysis.check_report(problem, time_limit_s=20)
    assert report.verdict.value == "unfillable"
    core = find_core(problem, time_limit_s=20)
    assert core is not None and [problem.slots[s].name for s in core.slot_ids] == ["DIAG"]


def test_only_the_listed_entry_makes_a_prefilled_grid_unfillable(words):
    text = diagonal_with({(1, 1): "Q", (3, 3): "J"})  # the diagonal reads .Q.J.
    problem = compile_problem(parse_grid(text), words)
    assert fill(problem, "backtrack", Limits(time_limit_s=30)).status is FillStatus.UNFILLABLE
    core = find_core(problem, time_limit_s=20)
    assert core is not None and "DIAG" in [problem.slots[s].name for s in core.slot_ids]
    without = compile_problem(parse_grid(text.split("\n", 1)[1]), words)
    assert fill(without, "backtrack", Limits(time_limit_s=30)).status is FillStatus.FILLED


def test_quality_fill_on_a_diagonal(words, listed):
    problem = compile_problem(parse_grid(DIAGONAL), words)
    result = run_fill(problem, backend="auto", time_limit_s=1, quality=True)  # to its limit; floor proven in 0.3 s
    assert_good_fill(problem, result, listed)


def test_locks_bans_and_floors_on_listed_and_schrodinger_slots(words, listed):
    controls = Controls(locks={"diag": "SALES"}, bans=("STASH",), min_score_by_slot={"1A": 60})
    problem = compile_problem(parse_grid(DIAGONAL), words, controls=controls)
    result = fill(problem, "backtrack", Limits(time_limit_s=30))
    filled = assert_good_fill(problem, result, listed)
    assert "".join(filled.cells[c] for c in (0, 6, 12, 18, 24)) == "SALES"
    assert "STASH" not in result.entries
    controls = Controls(locks={"7A/1": "RILES"})
    problem = compile_problem(parse_grid(SCHRODINGER_5), words, controls=controls)
    result = fill(problem, "cpsat", Limits(time_limit_s=30))
    filled = assert_good_fill(problem, result, listed)
    assert filled.cells[12][0] == "L" and filled.cells[12][1] != "L"


def test_schrodinger_suggestions_list_the_other_readings_words(words):
    problem = compile_problem(parse_grid(SCHRODINGER_5), words)
    report = analysis.suggest_report(problem, "7A/1", k=3)
    assert report.words and all(w.pairs for w in report.words)
    for w in report.words:
        for pair in w.pairs:
            assert pair != w.word and pair[:2] + pair[3:] == w.word[:2] + w.word[3:]
    assert "pairs" in suggest_json(report)["words"][0]


def test_cli_fill_shows_both_letters_and_both_readings(tmp_path, capsys, listed):
    path = tmp_path / "s.txt"
    path.write_text(SCHRODINGER_5)
    code, out, _ = run(["fill", path, "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 0 and "<" in data["grid"][2]
    filled = parse_grid("\n".join(data["grid"]))
    assert grid_violations(parse_grid(SCHRODINGER_5), filled, listed) == []
    readings = {e["id"]: e for e in data["entries"] if e.get("entry") == "7A"}
    assert sorted(readings) == ["7A/1", "7A/2"] and readings["7A/1"]["word"] != readings["7A/2"]["word"]
    code, out, _ = run(["fill", path], capsys)
    assert code == 0 and f"{readings['7A/1']['word']} (" in out and " / " in out
    code, out, _ = run(["fill", path, "--format", "grid"], capsys)
    assert code == 0 and parse_grid(out) == filled


def test_cli_diagonal_fill_lists_other_entries_and_refuses_bad_lines(tmp_path, capsys):
    path = tmp_path / "d.txt"
    path.write_text(DIAGONAL)
    code, out, _ = run(["fill", path, "--lock", "Diag=SALES"], capsys)
    assert code == 0 and "Other" in out and "DIAG  SALES" in out
    bad = tmp_path / "bad.txt"
    bad.write_text(DIAGONAL.replace("5,5", "5,6"))
    code, _, err = run(["fill", bad], capsys)
    assert code == 2 and "bad.txt:1:" in err and "outside" in err and len(err.strip().splitlines()) == 1


def test_batch_task_fills_a_schrodinger_grid(tmp_path, listed):
    from xwcp.dist import batch
    from xwcp.dist.tasks import GridTask, WordsKey, fill_grid_task

    grid = parse_grid(SCHRODINGER_5)
    record = fill_grid_task(GridTask("s", "s.txt", grid.render(), WordsKey.of(None), time_limit_s=20))
    assert record["status"] == "filled"
    batch.write_result(tmp_path, "s", record)
    assert grid_violations(grid, read_grid(tmp_path / "s.txt"), listed) == []


@pytest.mark.parametrize("name", ["15x15-schrodinger-01.txt", "15x15-schrodinger-farrell.txt"])
def test_stock_schrodinger_grids_fill_with_both_readings(words, listed, name):
    grid = read_grid(MODELS / name)
    problem = compile_problem(grid, words)
    assert len(grid.pairs) == (4 if name.endswith("01.txt") else 7)
    result = fill(problem, "auto", Limits(seed=0, time_limit_s=60))
    filled = assert_good_fill(problem, result, listed)
    if name.endswith("farrell.txt"):  # 39-Across: two 7-letter words differing in every letter (CLINTON/BOBDOLE)
        first, second = ("".join(filled.cells[7 * 15 + c][k] for c in range(7)) for k in (0, 1))
        assert first in listed and second in listed and all(a != b for a, b in zip(first, second))


@pytest.mark.parametrize("source", [DIAGONAL, SCHRODINGER_5])
def test_fill_out_keeps_entries_and_squares_or_refuses_in_one_line(tmp_path, capsys, listed, source):
    from xwcp.formats import read_puzzle

    path = tmp_path / "g.txt"
    path.write_text(source)
    for suffix in (".txt", ".json", ".ipuz"):
        out = tmp_path / f"filled{suffix}"
        code, _, err = run(["fill", path, "--out", out], capsys)
        back = read_puzzle(out).grid
        assert code == 0 and grid_violations(parse_grid(source), back, listed) == [], err
    code, _, err = run(["fill", path, "--out", tmp_path / "filled.puz"], capsys)
    assert code == 2 and ".puz holds" in err and ".ipuz" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "filled.puz").exists()


def test_a_region_fill_writes_both_letters_of_a_schrodinger_square(tmp_path, capsys, listed):
    path = tmp_path / "s.txt"
    path.write_text(SCHRODINGER_5)
    code, out, _ = run(["fill", path, "--region", "2,2:4,4", "--format", "grid"], capsys)
    filled = parse_grid(out)
    assert code == 0 and len(filled.cells[12]) == 2 and "." not in filled.cells[12]
    inside = [r * 5 + c for r in range(1, 4) for c in range(1, 4)]
    assert all(filled.cells[c] != "." for c in inside) and filled.cells[0] == "."


@pytest.mark.parametrize("source", [DIAGONAL, SCHRODINGER_5])
def test_cli_quick_path_gives_the_same_answer(tmp_path, capsys, monkeypatch, source):
    from xwcp.services import quick

    path = tmp_path / "g.txt"
    path.write_text(source)
    code, fast, _ = run(["fill", path, "--format", "grid", "--seed", "3"], capsys)
    monkeypatch.setattr(quick, "fill", lambda *args, **kwargs: None)
    code2, slow, _ = run(["fill", path, "--format", "grid", "--seed", "3"], capsys)
    assert code == code2 == 0 and fast == slow


@pytest.fixture()
def web(words):
    pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from xwcp.web import app as web_app
    from xwcp.web.hosts import allowed_hosts

    hosts = allowed_hosts("127.0.0.1", ["testserver"])
    with TestClient(
        web_app.create_app(words=words, max_fills=2, hosts=hosts, personal=False), base_url="http://127.0.0.1"
    ) as client:
        yield client


@pytest.mark.parametrize("source", [DIAGONAL, SCHRODINGER_5])
def test_web_analysis_takes_entry_lines_and_schrodinger_cells(web, listed, source):
    from xwcp.model import grid_from_rows, grid_lines

    grid = parse_grid(source)
    lines = grid_lines(grid)
    slot = "DIAG" if grid.entries else "7A/1"
    data = web.post("/api/domains", json={"grid": lines, "slot": slot.lower(), "k": 5}).json()
    assert data["slots"][0]["id"] == slot and data["slots"][0]["words"]
    data = web.post("/api/heatmap", json={"grid": lines}).json()
    assert data["status"] == "consistent" and grid_from_rows(data["grid"]) == grid
    data = web.post("/api/check", json={"grid": lines, "time_limit_s": 10}).json()
    assert data["verdict"] == "fillable"
    assert grid_violations(grid, grid_from_rows(data["fill"]), listed) == []
