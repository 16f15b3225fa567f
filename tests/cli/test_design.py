"""The `design` command (`xwcp.cli.design`): a 5x5 designed around one theme entry printed in the grid syntax and
saved with --out, "no design" as exit 1 with nothing saved, a bad --out name refused before any design work.
(The designer itself, and the JSON being the library's answer, are tested in tests/designer/ and tests/library/.)"""

from __future__ import annotations

import json

import pytest

from tests.helpers import one_line, run
from xwcp.formats import read_puzzle

pytest.importorskip("ortools", reason="grid design needs OR-Tools (CP-SAT)")

FAST = ["--size", "5x5", "--theme", "heart", "--quality-time", "0", "--time-limit", "20"]
"""One 5-letter theme entry in a 5x5, no quality search: a design in a fraction of a second."""


def test_grid_output_holds_the_theme_and_out_saves_the_same_grid(tmp_path, capsys):
    out = tmp_path / "heart.ipuz"
    code, printed, err = run(["design", *FAST, "--format", "grid", "--out", out], capsys)
    assert code == 0, err
    lines = printed.splitlines()
    assert lines[0] == "; design 1 of 1"
    rows = lines[1:]
    assert len(rows) == 5 and all(len(row) == 5 and set(row) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ#") for row in rows)
    columns = ["".join(col) for col in zip(*rows)]
    assert any("HEART" in line for line in rows + columns)  # the theme entry, across or down
    assert read_puzzle(out).grid.rows == rows


def test_no_design_is_exit_1_and_nothing_is_saved(tmp_path, capsys):
    out = tmp_path / "none.ipuz"
    impossible = [*FAST, "--max-blocks", "0", "--max-words", "2", "--min-words", "1"]  # an open 5x5 has 10 entries
    code, printed, _ = run(["design", *impossible, "--format", "json", "--out", out], capsys)
    data = json.loads(printed)
    assert code == 1 and data["designs"] == [] and data["reason"] and data["out"] is None
    assert not out.exists()
    code, printed, _ = run(["design", *impossible, "--format", "grid"], capsys)
    assert code == 1 and printed.startswith("; no design: ")


def test_bad_out_name_is_refused_before_designing(tmp_path, capsys, monkeypatch):
    def load_and_design(*args, **kwargs):
        raise AssertionError("designed before the --out name was checked")

    monkeypatch.setattr("xwcp.designer.session.load_and_design", load_and_design)
    code, _, err = run(["design", *FAST, "--out", tmp_path / "grid.doc"], capsys)
    assert code == 2 and "grid.doc" in one_line(err)
