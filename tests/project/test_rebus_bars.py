"""Bars and rebus cells in every command: domains, suggestions, heat map, check, cores, quality, verification,
controls, the editor's propagation, batch, the CLI and the stock barred and rebus grids.

Every fill is checked twice: by `check_fill` on the compiled problem, and by reading the filled
grid back (its text syntax) with `grid_runs`, a run reader of the contract suite that shares no
code with xwcp's slot finder, each entry a listed word and none twice.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.backends.test_backends import grid_runs
from tests.helpers import run
from xwcp.analysis import questions as analysis
from xwcp.backends import fill
from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.compile.controls import Controls
from xwcp.compile.problem import compile_problem, with_word
from xwcp.engine.ac3 import Propagator, propagate
from xwcp.engine.result import Limits, check_fill, fill_grid, grid_entries
from xwcp.model import BELOW, RIGHT, grid_from_rows, make_grid, parse_grid, read_grid
from xwcp.render import questions_text
from xwcp.render.core import core_text
from xwcp.render.questions_json import check_json, domains_json, heatmap_json, suggest_json
from xwcp.search.core import find_core
from xwcp.services.run import run_fill
from xwcp.words.wordlist import load_word_list, score_by_word_of

MODELS = Path(__file__).resolve().parents[2] / "models"

# 5A is [STAR] and four empty cells (an 8-letter entry), 5D [STAR] and two cells (6 letters);
# a bar cuts row 2 after its fifth cell and row 4 after its third; (.) circled, {.} shaded.
GRID = """\
#....#
[STAR]....|.
(.).{.}...
...|...
"""


@pytest.fixture(scope="module")
def words():
    return load_word_list()


@pytest.fixture(scope="module")
def listed(words):
    return frozenset(score_by_word_of(words))


@pytest.fixture(scope="module")
def problem(words):
    return compile_problem(parse_grid(GRID), words)


def assert_listed_fill(filled, listed, given=None):
    """The filled grid's entries, read by the independent run reader, are listed words, none twice;
    every non-empty cell of `given` (bars and marks too) is kept."""
    entries = ["".join(filled.cells[c] for c in run) for run in grid_runs(filled)]
    assert all(e in listed for e in entries), [e for e in entries if e not in listed]
    assert len(set(entries)) == len(entries)
    assert "." not in "".join(filled.cells)
    if given is not None:
        assert filled.bars == given.bars and filled.marks == given.marks
        assert all(g in (".", f) for g, f in zip(given.cells, filled.cells))
    return entries


def test_slots_spell_rebus_letters_and_stop_at_bars(problem):
    lengths = {s.name: s.length for s in problem.slots}
    assert lengths["5A"] == 8 and lengths["5D"] == 6 and lengths["8A"] == 3 and lengths["9A"] == 3
    assert "6A" not in lengths  # the cell after the bar is unchecked across
    assert problem.pattern(problem.slot_by_name("5A").id) == "STAR...."
    assert problem.slot_cells(problem.slot_by_name("5D").id) == [6, 12, 18]
    # the across and the down entry share the rebus's four letter cells, in order
    across, down = problem.slot_by_name("5A"), problem.slot_by_name("5D")
    assert across.cells[:4] == down.cells[:4]


def test_domains_keep_the_rebus_letters(problem):
    data = domains_json(analysis.domains_report(problem, "5A", k=20))
    assert data["status"] == "consistent"
    words = [w["word"] for w in data["slots"][0]["words"]]
    assert words and all(len(w) == 8 and w.startswith("STAR") for w in words)
    assert data["cells"][1][0] == "S"  # the rebus cell: its first letter is given


def test_heatmap_gives_the_grid_and_draws_it(problem, tmp_path):
    report = analysis.heatmap_report(problem)
    data = heatmap_json(report)
    assert grid_from_rows(data["grid"]) == problem.grid
    assert data["letters"][1][0] == "STAR" and data["cells"][0][0] is None
    text = questions_text.heatmap_text(report)
    assert "=STAR" in text and "|" in text and "(" in text and "{" in text
    pytest.importorskip("matplotlib")
    from xwcp.render.picture import draw_heatmap

    path = tmp_path / "heat.png"
    draw_heatmap(problem, report, path)
    assert path.stat().st_size > 1000


def test_heatmap_text_of_a_plain_grid_is_unchanged(words):
    report = analysis.heatmap_report(compile_problem(parse_grid("#...\n....\n....\n...#\n"), words))
    data = heatmap_json(report)
    lines = questions_text.heatmap_text(report).splitlines()
    assert data["status"] == "consistent" and data["grid"] == ["#...", "....", "....", "...#"]
    assert lines[0].startswith(" ##") and all(len(line) == 12 for line in lines[:4])
    assert lines[4].startswith("key:") and len(lines) == 5


def test_check_fills_and_shows_the_grid(problem, listed):
    report = analysis.check_report(problem, time_limit_s=20)
    data = check_json(report)
    assert data["verdict"] == "fillable"
    filled = grid_from_rows(data["fill"])
    assert_listed_fill(filled, listed, problem.grid)
    assert check_fill(problem, grid_entries(problem, filled)) == []
    text = questions_text.check_text(report, problem)
    assert "[STAR]" in text and "|" in text


def test_suggest_verify_labels_rebus_words_with_fills(problem, listed):
    report = analysis.suggest_report(problem, "5A", k=4, verify=True, time_limit_s=20, show_fill=True)
    data = suggest_json(report)
    viable = [w for w in data["words"] if w["verdict"] == "viable"]
    assert viable
    for w in viable:
        filled = grid_from_rows(w["fill"])
        assert_listed_fill(filled, listed, problem.grid)
        assert grid_entries(problem, filled)[problem.slot_by_name("5A").id] == w["word"]
    assert "[STAR]" in questions_text.suggest_text(report)


def test_with_word_spells_through_the_rebus(problem):
    slot = problem.slot_by_name("5A")
    word = analysis.rank_words(problem, propagate(problem), slot.id, 1)[0].word
    placed = with_word(problem, slot.id, word)
    assert placed.grid.cells[6:11] == ("STAR", *word[4:]) and placed.grid.bars == problem.grid.bars
    assert placed.fixed_text_by_slot[slot.id] == word


@pytest.mark.parametrize("backend", ["backtrack", "cpsat", "sat"])
def test_core_of_an_unfillable_rebus_grid(words, backend):
    # no listed word spells QZX and two more letters: 1A alone cannot be filled
    problem = compile_problem(parse_grid("[QZX]....\n.....\n.....\n"), words)
    core = find_core(problem, backend=backend, time_limit_s=30)
    assert core is not None and [problem.slots[s].name for s in core.slot_ids] == ["1A"]
    result = fill(problem, "auto", Limits(time_limit_s=30))
    assert result.status is FillStatus.UNFILLABLE and "QZX" in result.reason


def test_core_of_an_unfillable_barred_grid_names_the_cut_slot(words):
    # the bar under the middle cell leaves a 2-cell down entry, and the default list has no 2-letter word
    problem = compile_problem(parse_grid("....\n -\n....\n....\n"), words)
    report = analysis.check_report(problem, time_limit_s=10)
    data = check_json(report)
    assert data["verdict"] == "unfillable" and data["core"]["kind"] == "no-word"
    assert data["core"]["cells"] == [[1, 1], [2, 1]]
    assert report.core is not None
    text = core_text(problem, report.core)
    assert "-" in text.splitlines()[2] and "*" in text


def test_quality_fill_on_a_barred_rebus_grid(problem, listed):
    result = run_fill(problem, quality=True, time_limit_s=10)
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    assert_listed_fill(fill_grid(problem, result.entries), listed, problem.grid)
    assert result.qualities and result.qualities[0].min_score is not None


def test_locks_bans_and_floors_through_the_rebus(words, listed):
    grid = parse_grid(GRID)
    first = run_fill(compile_problem(grid, words), time_limit_s=20)
    entry = first.entries[compile_problem(grid, words).slot_by_name("5A").id]
    banned = compile_problem(grid, words, controls=Controls(bans=frozenset({entry})))
    again = run_fill(banned, time_limit_s=20)
    assert again.status is FillStatus.FILLED and check_fill(banned, again.entries) == []
    assert entry not in again.entries
    locked = compile_problem(grid, words, controls=Controls(locks={"5A": "STARDUST"}))
    result = run_fill(locked, time_limit_s=20)
    assert result.status is FillStatus.FILLED and check_fill(locked, result.entries) == []
    assert result.entries[locked.slot_by_name("5A").id] == "STARDUST"
    assert_listed_fill(fill_grid(locked, result.entries), listed, grid)
    with pytest.raises(InputError, match="of the rebus STAR"):
        compile_problem(grid, words, controls=Controls(locks={"5A": "SUNSHINE"}))
    with pytest.raises(InputError, match="5A has 8 letters"):
        compile_problem(grid, words, controls=Controls(locks={"5A": "STARS"}))
    floor = compile_problem(grid, words, controls=Controls(min_score_by_slot={"5D": 60}))
    result = run_fill(floor, time_limit_s=20)
    assert result.status is FillStatus.FILLED and check_fill(floor, result.entries) == []


def test_region_fill_leaves_the_rest_and_the_rebus(words, listed):
    grid = parse_grid(GRID)
    whole = run_fill(compile_problem(grid, words), time_limit_s=20)
    filled = fill_grid(compile_problem(grid, words), whole.entries)
    top = filled.with_letters({c: "." for c in range(12, 24)})  # rows 3 and 4 empty again
    problem = compile_problem(top, words, controls=Controls(region=(3, 1, 4, 6)))
    result = run_fill(problem, time_limit_s=20)
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    refilled = fill_grid(problem, result.entries)
    assert refilled.cells[:12] == filled.cells[:12] and refilled.cells[6] == "STAR"
    assert_listed_fill(refilled, listed, grid)


def test_several_distinct_fills(problem):
    result = run_fill(problem, count=3, min_diff=2, time_limit_s=30)
    assert len(result.fills) == 3 and all(check_fill(problem, f) == [] for f in result.fills)
    for i, a in enumerate(result.fills):
        for b in result.fills[i + 1 :]:
            assert sum(x != y for x, y in zip(a, b)) >= 2


def test_shared_substring_control_counts_the_rebus(problem, words):
    # 5A and 5D both begin with the rebus: they share STAR, so a limit under 4 leaves no fill
    result = run_fill(
        compile_problem(parse_grid(GRID), words, controls=Controls(max_shared_substring=5)), time_limit_s=20
    )
    assert result.status is FillStatus.FILLED
    tight = compile_problem(parse_grid(GRID), words, controls=Controls(max_shared_substring=3))
    assert run_fill(tight, time_limit_s=20).status is not FillStatus.FILLED


def test_propagator_enters_and_erases_around_the_rebus(problem):
    editor = Propagator(problem)
    assert editor.enter(7, "E") and editor.snapshot().letter_counts.shape[0] == problem.n_letter_cells
    before = propagate(compile_problem(problem.grid.with_letters({7: "E"}), problem.words))
    assert all((a == b).all() for a, b in zip(editor.snapshot().domains, before.domains))
    editor.erase(7)
    assert all((a == b).all() for a, b in zip(editor.snapshot().domains, propagate(problem).domains))
    with pytest.raises(ValueError):
        editor.enter(6, "S")  # the rebus cell is not empty


def test_export_cnf_names_grid_cells(problem, tmp_path):
    pytest.importorskip("pysat")
    from xwcp.backends import sat

    path = tmp_path / "g.cnf"
    sat.export_cnf(problem, path)
    ys = [line.split()[3] for line in path.read_text().splitlines() if line.startswith("c y ")]
    assert ys and all(0 < int(y[1:].split("c")[0]) <= 4 and 0 < int(y.split("c")[1]) <= 6 for y in ys)


# ----- the command line --------------------------------------------------------------------


@pytest.fixture()
def grid_file(tmp_path):
    path = tmp_path / "barred.txt"
    path.write_text(GRID, encoding="utf-8")
    return path


def test_cli_fill_keeps_bars_marks_and_rebus_in_every_format(grid_file, capsys, listed):
    code, out, _ = run(["fill", grid_file, "--format", "grid"], capsys)
    assert code == 0
    filled = parse_grid(out)
    assert_listed_fill(filled, listed, parse_grid(GRID))
    code, out, _ = run(["fill", grid_file, "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 0 and grid_from_rows(data["grid"]) == filled  # the same fill (seed 0)
    assert {e["id"]: e["length"] for e in data["entries"]}["5A"] == 8
    code, out, _ = run(["fill", grid_file], capsys)
    assert code == 0 and "[STAR]" in out and "|" in out


@pytest.mark.parametrize("suffix", [".txt", ".json", ".ipuz", ".puz", ".xd"])
def test_cli_fill_out_keeps_the_grid_or_refuses(grid_file, capsys, listed, tmp_path, suffix):
    """`--out` writes a file that reads back as the filled grid, bars and rebus cells included, or
    refuses in one line and leaves nothing behind; never a file that reads as another grid."""
    from xwcp.formats import read_puzzle

    out = tmp_path / f"filled{suffix}"
    code, _, err = run(["fill", grid_file, "--out", out], capsys)
    if code == 0:
        back = read_puzzle(out).grid
        assert_listed_fill(back, listed, parse_grid(GRID))
    else:
        assert code == 2 and str(out) in err and len(err.strip().splitlines()) == 1, err
        assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_cli_fill_quick_path_gives_the_same_answer(grid_file, capsys, monkeypatch):
    from xwcp.services import quick

    code, fast, _ = run(["fill", grid_file, "--format", "grid", "--seed", "3"], capsys)
    monkeypatch.setattr(quick, "fill", lambda *args, **kwargs: None)
    code2, slow, _ = run(["fill", grid_file, "--format", "grid", "--seed", "3"], capsys)
    assert code == code2 == 0 and fast == slow


@pytest.mark.subprocess
def test_quick_path_needs_no_numpy_on_a_barred_rebus_grid(grid_file, words):
    import subprocess
    import sys

    code = (
        "import sys; from xwcp.cli.commands import main; rc = main(['fill', sys.argv[1], '--format', 'grid']); "
        "print('numpy' in sys.modules); sys.exit(rc)"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code, str(grid_file)], capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stderr
    *grid_lines, loaded = done.stdout.strip().splitlines()
    assert loaded == "False" and parse_grid("\n".join(grid_lines)).cells[6] == "STAR"


def test_cli_analysis_commands_on_a_barred_rebus_grid(grid_file, capsys, tmp_path):
    code, out, _ = run(["domains", grid_file, "--slot", "5A", "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["slots"][0]["pattern"] == "STAR...."
    code, out, _ = run(["suggest", grid_file, "--slot", "5D", "-k", "3"], capsys)
    assert code == 0 and "STAR" in out
    code, out, _ = run(["heatmap", grid_file, "--png", tmp_path / "h.png"], capsys)
    assert code == 0 and "=STAR" in out and (tmp_path / "h.png").exists()
    code, out, _ = run(["check", grid_file, "--format", "json"], capsys)
    assert code == 0 and json.loads(out)["verdict"] == "fillable"


def test_cli_lock_through_the_rebus(grid_file, capsys):
    code, out, _ = run(["fill", grid_file, "--lock", "5A=STARDUST", "--format", "json"], capsys)
    assert code == 0 and {e["id"]: e["word"] for e in json.loads(out)["entries"]}["5A"] == "STARDUST"
    code, _, err = run(["fill", grid_file, "--lock", "5A=SUNSHINE"], capsys)
    assert code == 2 and "rebus STAR" in err


def test_batch_task_keeps_bars_and_rebus(tmp_path, listed):
    from xwcp.dist import batch
    from xwcp.dist.tasks import GridTask, WordsKey, fill_grid_task

    record = fill_grid_task(GridTask("g", "g.txt", parse_grid(GRID).render(), WordsKey.of(None), time_limit_s=20))
    assert record["status"] == "filled"
    batch.write_result(tmp_path, "g", record)
    filled = read_grid(tmp_path / "g.txt")
    assert_listed_fill(filled, listed, parse_grid(GRID))


# ----- the stock barred and rebus grids (models/) --------------------------------------------


@pytest.mark.parametrize("name", ["15x15-barred-01.txt", "21x21-barred-01.txt"])
def test_stock_barred_grids_fill(words, listed, name):
    grid = read_grid(MODELS / name)
    assert grid.bars and not grid.n_blocks
    # entries are cut by bars between white cells: some row and some column hold several entries
    assert any((cell, RIGHT) in grid.bars for cell in range(grid.width * grid.height))
    assert any((cell, BELOW) in grid.bars for cell in range(grid.width * grid.height))
    problem = compile_problem(grid, words)
    result = fill(problem, "auto", Limits(time_limit_s=60))
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    entries = assert_listed_fill(fill_grid(problem, result.entries), listed, grid)
    assert len(entries) == len(problem.slots)


def test_stock_rebus_grid_fills_with_star_entries(words, listed):
    grid = read_grid(MODELS / "15x15-rebus-01.txt")
    stars = [c for c, text in enumerate(grid.cells) if text == "STAR"]
    assert len(stars) == 4
    problem = compile_problem(grid, words)
    result = fill(problem, "auto", Limits(time_limit_s=60))
    assert result.status is FillStatus.FILLED and check_fill(problem, result.entries) == []
    filled = fill_grid(problem, result.entries)
    assert [filled.cells[c] for c in stars] == ["STAR"] * 4
    assert_listed_fill(filled, listed, grid)
    through = [run for run in grid_runs(filled) if set(run) & set(stars)]
    assert len(through) == 8  # each STAR cell in an across and a down entry
    assert all("STAR" in "".join(filled.cells[c] for c in run) for run in through)


# ----- the web API ---------------------------------------------------------------------------


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


LINES = parse_grid(GRID).render().splitlines()


def test_web_analysis_takes_grid_lines_with_bars_and_rebus(web, listed):
    assert LINES[1] == "[STAR]....|." and "(.)" in LINES[2]
    data = web.post("/api/domains", json={"grid": LINES, "slot": "5A", "k": 5}).json()
    assert all(w["word"].startswith("STAR") for w in data["slots"][0]["words"])
    data = web.post("/api/heatmap", json={"grid": LINES}).json()
    assert data["status"] == "consistent" and grid_from_rows(data["grid"]) == parse_grid(GRID)
    data = web.post("/api/check", json={"grid": LINES, "time_limit_s": 5}).json()
    assert data["verdict"] == "fillable"
    assert_listed_fill(grid_from_rows(data["fill"]), listed, parse_grid(GRID))
    data = web.post(
        "/api/suggest", json={"grid": LINES, "slot": "5D", "k": 3, "verify": True, "time_limit_s": 5}
    ).json()
    assert [w for w in data["words"] if w["verdict"] == "viable"]


def test_web_fill_result_carries_lines_and_contents(web, listed, words):
    with web.websocket_connect("/ws/fill") as ws:
        ws.send_json({"grid": LINES, "time_limit_s": 20})
        while True:
            message = ws.receive_json()
            if message["type"] != "progress":
                break
    assert message["status"] == "filled"
    filled = grid_from_rows(message["grid"])
    assert_listed_fill(filled, listed, parse_grid(GRID))
    assert message["contents"][1][0] == "STAR" and message["contents"][0][0] == "#"
    assert [list(filled.cells[r * 6 : (r + 1) * 6]) for r in range(4)] == message["contents"]
    problem = compile_problem(parse_grid(GRID), words)
    assert message["entries"]["5A"] == grid_entries(problem, filled)[problem.slot_by_name("5A").id]


def test_web_size_cap_counts_cells_not_characters(web):
    row = "[STAR]" + "." * 59  # 60 cells, 65 characters
    response = web.post("/api/heatmap", json={"grid": [row] * 3})
    assert response.status_code == 200, response.json()
    response = web.post("/api/heatmap", json={"grid": ["[STAR]" + "." * 60] * 3})
    assert response.status_code == 413 and "61x3" in response.json()["error"]


# ----- issue 23's done-when: the written files read back --------------------------------------


def _write_or_skip(puzzle, path):
    """Write `puzzle`; skip the test on a branch without the formats work of issue 23 (item 4: bars and
    rebus cells in .ipuz and .puz, and the new .jpz, which marks it): before it, writers drop them."""
    from xwcp.formats import MODULE_BY_SUFFIX, write_puzzle

    if ".jpz" not in MODULE_BY_SUFFIX:
        pytest.skip("the formats of issue 23 (bars and rebus cells in .ipuz/.puz) are not in this tree yet")
    write_puzzle(puzzle, path)


def _ipuz_grid(path):
    """The grid a written .ipuz holds, read from its JSON here: `solution` letters (a rebus whole), `#` blocks,
    and the `barred` styles of `puzzle` (T/L/R/B sides)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    height, width = data["dimensions"]["height"], data["dimensions"]["width"]
    block = data.get("block", "#")
    cells, bars = [], []
    for r in range(height):
        for c in range(width):
            value = data["solution"][r][c]
            value = value.get("value") if isinstance(value, dict) else value
            cells.append("#" if value in (None, block) else str(value))
            cell = data["puzzle"][r][c]
            style = cell.get("style", {}) if isinstance(cell, dict) else {}
            bars.extend((r * width + c, side) for side in style.get("barred", ""))
    return make_grid(width, height, cells, bars=bars)


@pytest.mark.parametrize("name", ["15x15-barred-01.txt", "21x21-barred-01.txt"])
def test_filled_barred_grid_written_as_ipuz_reads_back_listed(words, listed, name, tmp_path):
    from xwcp.formats import Puzzle, puzzle_from_fill

    grid = read_grid(MODELS / name)
    problem = compile_problem(grid, words)
    result = fill(problem, "auto", Limits(time_limit_s=60))
    assert result.status is FillStatus.FILLED
    filled = fill_grid(problem, result.entries)
    path = tmp_path / "barred.ipuz"
    _write_or_skip(puzzle_from_fill(Puzzle(grid), filled), path)
    back = _ipuz_grid(path)
    assert back.bars == grid.bars and back.cells == filled.cells
    entries = assert_listed_fill(back, listed)
    assert len(entries) == len(problem.slots)


def test_filled_rebus_grid_written_as_puz_keeps_the_rebus(words, listed, tmp_path):
    puz = pytest.importorskip("puz")
    from xwcp.formats import Puzzle, puzzle_from_fill

    grid = read_grid(MODELS / "15x15-rebus-01.txt")
    problem = compile_problem(grid, words)
    result = fill(problem, "auto", Limits(time_limit_s=60))
    assert result.status is FillStatus.FILLED
    filled = fill_grid(problem, result.entries)
    path = tmp_path / "rebus.puz"
    _write_or_skip(puzzle_from_fill(Puzzle(grid), filled), path)
    written = puz.read(str(path))  # puzpy checks the checksums
    rebus = written.rebus()
    assert written.has_rebus()
    cells = [rebus.get_rebus_solution(i) if rebus.is_rebus_square(i) else ch for i, ch in enumerate(written.solution)]
    cells = ["#" if ch == "." else ch for ch in cells]
    assert [i for i, text in enumerate(cells) if text == "STAR"] == [i for i, t in enumerate(grid.cells) if t == "STAR"]
    back = make_grid(grid.width, grid.height, cells)
    assert back.cells == filled.cells
    entries = assert_listed_fill(back, listed)
    assert sum("STAR" in e for e in entries) == 8


def test_grid_statistics_count_rebus_letters():
    from xwcp.analysis.stats import grid_stats

    stats = grid_stats(parse_grid("#OHHI#\n[STAR]REED|C\n(T)E{L}LER\nSOD|MAY\n"))
    assert stats["lengths"] == {"3": 3, "4": 5, "6": 2, "8": 1}  # 5A STARREED has 8 letters in 5 cells
    assert stats["letters"]["S"] == 2 and stats["filled_cells"] == 22 and stats["unchecked"] == 1
