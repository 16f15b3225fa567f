"""The `convert` command (`xwcp.cli.convert`): its JSON answer, the file it writes, a bad extension refused."""
from __future__ import annotations

import json
from pathlib import Path

from xwcp.cli.commands import main
from xwcp.formats import read_puzzle

ROOT = Path(__file__).resolve().parents[2]


def test_convert_command(tmp_path, capsys):
    out = tmp_path / "daily.ipuz"
    assert main(["convert", str(ROOT / "models" / "7x7-mini.txt"), str(out), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["out"] == str(out) and data["width"] == 7
    assert read_puzzle(out).grid == read_puzzle(ROOT / "models" / "7x7-mini.txt").grid
    assert main(["convert", str(out), str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert "x.pdf: unknown puzzle file extension '.pdf'" in err and not (tmp_path / "x.pdf").exists()
