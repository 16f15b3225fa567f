"""`xwcp bench` end to end (xwcp/bench/command.py and the runner under it): rows on disk as they come, the summary,
error rows, interrupts and plots.

Every bench here runs tiny inline grids with a tiny list, so the whole file takes seconds.
"""

from __future__ import annotations

import csv
import json

import pytest

from tests.helpers import run
from xwcp import bench
from xwcp.backends import available_backends
from xwcp.bench.peers import PEERS, PeerResult, PeerStatus, peer_available

# 3x3 open: rows CAB ORE WET / columns COW ARE BET (or the transpose).
# 2x2 open: AB/CD across, AC/BD down (or the transpose).
# 4x4 with WOR. across the bottom and ..Z/..E/..R down the right: no word fits the corner.
WORDS = (
    "CAB;60\nORE;60\nWET;60\nCOW;60\nARE;60\nBET;60\nCAT;60\nTEN;60\n"
    "AB;50\nCD;50\nAC;50\nBD;50\n"
    "WORD;50\nWORK;50\nZERO;50\nABLE;50\nBASE;50\nAREA;50\nEASE;50\nARID;50\nABBA;50\n"
)
GRID_3X3 = "...\n...\n...\n"
GRID_2X2 = "..\n..\n"
GRID_UNFILLABLE = "...Z\n...E\n...R\nWOR.\n"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def _plots_drawn_only_where_checked(request, monkeypatch):
    """Drawing the two plots costs about 1 CPU s a bench (matplotlib's layout): test_plots_are_png_files checks
    them; the other tests, about rows, summaries and interrupts, leave them out."""
    if request.node.name != "test_plots_are_png_files":
        monkeypatch.setattr("xwcp.bench.command.write_plots", lambda *args, **kwargs: [])


@pytest.fixture
def files(tmp_path):
    def write(name, text):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return {
        "words": write("words.txt", WORDS),
        "a": write("a.txt", GRID_3X3),
        "b": write("b.txt", GRID_2X2),
        "unfillable": write("unfillable.txt", GRID_UNFILLABLE),
        "ragged": write("ragged.txt", "...\n..\n"),
        "out": tmp_path / "out",
    }


def bench_args(files, *grids, backends="backtrack", extra=()):
    peers = [] if "--peers" in extra else ["--peers", "none"]  # the default runs every installed peer
    return [
        "bench",
        *grids,
        "--words",
        files["words"],
        "--min-score",
        "0",
        "--backends",
        backends,
        "--time-limit",
        "5",
        "--out",
        files["out"],
        *peers,
        *extra,
    ]


def read_csv(out_dir):
    with open(out_dir / "rows.csv", newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        return reader.fieldnames, list(reader)


def test_rows_have_every_column_and_valid_fills(files, capsys):
    backends = available_backends()
    code, out, _ = run(bench_args(files, files["a"], files["b"], backends=",".join(backends)), capsys)
    assert code == 0, out
    header, rows = read_csv(files["out"])
    assert tuple(header) == bench.COLUMNS
    json_rows = json.loads((files["out"] / "rows.json").read_text())
    assert len(rows) == len(json_rows) == 2 * len(backends)
    assert {(r["grid"], r["backend"]) for r in json_rows} == {(g, b) for g in ("a", "b") for b in backends}
    for row in json_rows:
        assert set(row) == set(bench.COLUMNS)
        assert row["status"] == "filled" and row["valid"] is True, row
        assert row["kind"] == "xwcp" and row["suite"] == "files" and row["seed"] == 0
        assert row["words"] == 21 and row["seconds"] > 0
        assert row["peak_rss_mb"] > 0 and row["start_rss_mb"] > 0
    a_row = next(r for r in json_rows if r["grid"] == "a")
    assert (a_row["width"], a_row["height"], a_row["blocks"], a_row["slots"]) == (3, 3, 0, 6)
    assert all(r["valid"] == "True" for r in rows)
    meta = json.loads((files["out"] / "meta.json").read_text())
    assert meta["command"].startswith("xwcp bench ") and meta["rows"] == len(rows)
    assert "backtrack" in out and "PAR-2" in out


def test_summary_counts_filled_unfillable_and_seeds(files, capsys):
    argv = bench_args(
        files,
        files["a"],
        files["b"],
        files["unfillable"],
        backends="backtrack",
        extra=["--seeds", "2", "--format", "json"],
    )
    code, out, _ = run(argv, capsys)
    assert code == 0
    data = json.loads(out)
    (entry,) = data["entrants"]
    assert entry["backend"] == "backtrack" and entry["runs"] == 6
    assert (entry["filled"], entry["unfillable"], entry["limit"], entry["error"], entry["skipped"]) == (4, 2, 0, 0, 0)
    assert entry["median_s"] is not None and entry["median_s"] < 5
    assert entry["par2_s"] < 5  # every run settled, so no 2x-limit penalty
    rows = json.loads((files["out"] / "rows.json").read_text())
    assert sorted(r["seed"] for r in rows) == [0, 0, 0, 1, 1, 1]


def test_unreadable_grid_gives_error_row_and_run_continues(files, tmp_path, capsys):
    missing = tmp_path / "nope.txt"
    code, out, _ = run(bench_args(files, files["a"], missing, files["ragged"], files["b"]), capsys)
    assert code == 0
    _, rows = read_csv(files["out"])
    by_grid = {r["grid"]: r for r in rows}
    assert [r["grid"] for r in rows] == ["a", "nope", "ragged", "b"]
    assert by_grid["nope"]["status"] == "error" and "no such grid file" in by_grid["nope"]["note"]
    assert by_grid["ragged"]["status"] == "error" and "row 2" in by_grid["ragged"]["note"]
    assert by_grid["a"]["status"] == by_grid["b"]["status"] == "filled"


def test_unreadable_grid_is_said_on_the_console(files, tmp_path, capsys):
    missing = tmp_path / "nope.txt"
    code, _, err = run(bench_args(files, files["a"], missing), capsys)
    assert code == 0
    assert "cannot read nope" in err and "no such grid file" in err


def test_no_readable_grid_exits_2(files, tmp_path, capsys):
    code, _, err = run(bench_args(files, tmp_path / "nope.txt", files["ragged"]), capsys)
    assert code == 2
    assert "no grid could be read" in err and "cannot read nope" in err and "cannot read ragged" in err
    assert "Traceback" not in err
    _, rows = read_csv(files["out"])
    assert {r["status"] for r in rows} == {"error"}


def test_out_naming_an_existing_file_exits_2_and_leaves_it_alone(files, tmp_path, capsys):
    taken = tmp_path / "results.csv"
    taken.write_text("mine\n", encoding="utf-8")
    files["out"] = taken
    code, _, err = run(bench_args(files, files["a"]), capsys)
    assert code == 2 and "is a file" in err and len(err.strip().splitlines()) == 1
    assert taken.read_text(encoding="utf-8") == "mine\n"
    files["out"] = taken / "sub"
    code, _, err = run(bench_args(files, files["a"]), capsys)
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_out_naming_an_existing_results_folder_is_written_into(files, capsys):
    assert run(bench_args(files, files["a"]), capsys)[0] == 0
    code, _, _ = run(bench_args(files, files["b"]), capsys)
    assert code == 0
    _, rows = read_csv(files["out"])
    assert [(r["grid"], r["status"]) for r in rows] == [("b", "filled")]


def test_unreadable_xcsp_file_gives_error_row(files, tmp_path, capsys):
    broken = tmp_path / "broken.xml"
    broken.write_text("<instance format='XCSP3'>", encoding="utf-8")
    code, _, _ = run(bench_args(files, broken, files["a"]), capsys)
    assert code == 0
    _, rows = read_csv(files["out"])
    assert [(r["grid"], r["status"]) for r in rows] == [("broken", "error"), ("a", "filled")]
    assert "not valid XML" in rows[0]["note"]


@pytest.mark.parametrize("limit", ["0", "-1", "soon"])
def test_bad_time_limit_exits_2(files, capsys, limit):
    code, out, err = run(["bench", files["a"], "--time-limit", limit, "--peers", "none", "--out", files["out"]], capsys)
    assert code == 2 and "--time-limit" in err and len(err.strip().splitlines()) == 1
    assert not files["out"].exists()


def test_unknown_suite_exits_2_listing_suites(capsys):
    code, _, err = run(["bench", "--suite", "nosuch"], capsys)
    assert code == 2
    assert all(name in err for name in bench.SUITES)


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["bench"], "--suite"),
        (["bench", "--suite", "stock", "x.txt"], "not both"),
        (["bench", "x.txt", "--backends", "fast"], "unknown backend"),
        (["bench", "x.txt", "--peers", "ingrid"], "unknown peer"),
    ],
)
def test_bad_usage_exits_2(capsys, argv, needle):
    code, _, err = run(argv, capsys)
    assert code == 2 and needle in err and "Traceback" not in err


def test_missing_peer_gives_skipped_rows(files, capsys, monkeypatch):
    monkeypatch.setattr("xwcp.bench.peers.peer_available", lambda name: False)
    code, out, _ = run(bench_args(files, files["a"], files["b"], extra=["--peers", ",".join(PEERS)]), capsys)
    assert code == 0
    _, rows = read_csv(files["out"])
    peer_rows = [r for r in rows if r["kind"] == "peer"]
    assert len(peer_rows) == 2 * len(PEERS)
    assert all(r["status"] == "skipped" and "not installed" in r["note"] for r in peer_rows)
    assert all(r["status"] == "filled" for r in rows if r["kind"] == "xwcp")
    assert "skipped" in out


def test_peer_that_crashes_or_returns_a_bad_fill_gives_error_rows(files, capsys, monkeypatch):
    def fake_run_peer(name, rows, words, time_limit_s, **kwargs):
        if len(rows) == 2:
            raise RuntimeError("peer exploded")
        return PeerResult(name, PeerStatus.FILLED, ("CAB", "ORE", "WEB"), 0.01, "")  # WEB is not listed

    monkeypatch.setattr("xwcp.bench.peers.peer_available", lambda name: True)
    monkeypatch.setattr("xwcp.bench.peers.run_peer", fake_run_peer)
    code, _, _ = run(bench_args(files, files["a"], files["b"], extra=["--peers", "qxw"]), capsys)
    assert code == 0
    _, rows = read_csv(files["out"])
    qxw = {r["grid"]: r for r in rows if r["backend"] == "qxw"}
    assert qxw["a"]["status"] == "error" and qxw["a"]["valid"] == "False" and "WEB" in qxw["a"]["note"]
    assert qxw["b"]["status"] == "error" and "peer exploded" in qxw["b"]["note"]


@pytest.mark.parametrize(
    "peer",
    [
        pytest.param(
            name,
            marks=[
                pytest.mark.peers,
                pytest.mark.skipif(not peer_available(name), reason=f"peer {name} not installed"),
            ],
        )
        for name in PEERS
    ],
)
def test_installed_peer_fill_is_validated(files, capsys, peer):
    code, _, _ = run(bench_args(files, files["a"], files["unfillable"], extra=["--peers", peer]), capsys)
    assert code == 0
    _, rows = read_csv(files["out"])
    mine = {r["grid"]: r for r in rows if r["backend"] == peer}
    assert mine["a"]["status"] == "filled" and mine["a"]["valid"] == "True", mine["a"]
    assert mine["unfillable"]["status"] == "unfillable"
    assert float(mine["a"]["peak_rss_mb"]) > 0


def test_cli_entrant_times_the_whole_command_and_validates_its_fill(files, capsys):
    code, out, _ = run(bench_args(files, files["a"], extra=["--cli", "backtrack", "--format", "json"]), capsys)
    assert code == 0
    rows = json.loads((files["out"] / "rows.json").read_text())
    (cli_row,) = [r for r in rows if r["kind"] == "cli"]
    (own_row,) = [r for r in rows if r["kind"] == "xwcp"]
    assert cli_row["status"] == "filled" and cli_row["valid"] is True, cli_row
    assert cli_row["seconds"] > own_row["seconds"]  # interpreter start and imports are in it
    assert cli_row["peak_rss_mb"] > 0
    assert [(e["backend"], e["kind"]) for e in json.loads(out)["entrants"]] == [
        ("backtrack", "xwcp"),
        ("backtrack", "cli"),
    ]


def test_keyboard_interrupt_keeps_rows_written(files, capsys, monkeypatch):
    from xwcp.backends import backtrack

    real_fill = backtrack.fill

    # The patch reaches the workers because xwcp.runtime.isolation starts each one with os.fork()
    # (call_isolated), never through multiprocessing, so the default start method (fork,
    # spawn or forkserver) does not matter; without fork the runs are in-process and patched too.
    def fill_then_interrupt(problem, limits=None):
        if problem.grid.width == 2:  # the second grid; a counter would not survive the worker fork
            raise KeyboardInterrupt
        return real_fill(problem, limits)

    monkeypatch.setattr(backtrack, "fill", fill_then_interrupt)
    code, out, _ = run(bench_args(files, files["a"], files["b"], files["unfillable"]), capsys)
    assert code == 3
    _, rows = read_csv(files["out"])
    assert [(r["grid"], r["status"]) for r in rows] == [("a", "filled")]
    assert len(json.loads((files["out"] / "rows.json").read_text())) == 1
    assert "Interrupted after 1 run" in out and "backtrack" in out
    assert (files["out"] / "summary.txt").exists()


def test_plots_are_png_files(files, capsys):
    code, out, _ = run(bench_args(files, files["a"], files["unfillable"]), capsys)
    assert code == 0
    for name in ("cactus.png", "time-vs-slots.png"):
        path = files["out"] / name
        assert path.read_bytes()[:8] == PNG_MAGIC, name
        assert name in out


@pytest.mark.subprocess
def test_the_cli_calls_into_the_bench_one_way_only():
    import subprocess
    import sys

    code = "import sys, xwcp.bench, xwcp.bench.runs, xwcp.bench.peers, xwcp.bench.xcsp; print('xwcp.cli.commands' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
