"""Quality on every fill's report, through the command line: a plain fill's min and mean, and `--quality`'s proven floor.

The quality search's own modules are tested beside their names in tests/search/quality/.
"""

from __future__ import annotations

import json

import pytest

from tests.helpers import run

pytest.importorskip("ortools")


def test_plain_fill_reports_min_and_mean_without_claims(tmp_path, capsys):
    grid = tmp_path / "g.txt"
    grid.write_text("...\n...\n...\n")
    words = tmp_path / "w.dict"
    words.write_text("TAR;60\nERA;70\nNET;80\nTEN;90\nARE;50\nRAT;55\n")
    code, out, _ = run(["fill", grid, "--words", words, "--min-score", "0", "--format", "json"], capsys)
    assert code == 0
    data = json.loads(out)
    q = data["quality"]
    assert q["floor_optimal"] is False and q["mean_bound"] is None
    scores = [e["score"] for e in data["entries"]]
    assert q["min_score"] == min(scores) and q["mean_score"] == pytest.approx(sum(scores) / len(scores), abs=0.01)
    code, out, _ = run(["fill", grid, "--words", words, "--min-score", "0"], capsys)
    assert code == 0 and f"min {min(scores)}" in out and "quality: mean" in out


def test_quality_cli_reports_proven_floor_and_bound(tmp_path, capsys):
    grid = tmp_path / "g.txt"
    grid.write_text("...\n...\n...\n")
    words = tmp_path / "w.dict"
    words.write_text("TAR;60\nERA;70\nNET;80\nTEN;90\nARE;50\nRAT;55\n")
    code, out, err = run(
        ["fill", grid, "--words", words, "--min-score", "0", "--quality", "--time-limit", "10", "--format", "json"],
        capsys,
    )
    assert code == 0
    q = json.loads(out)["quality"]
    assert q["min_score"] == 50 and q["floor_optimal"] is True and q["mean_bound"] is not None
    assert "first fill" in err
