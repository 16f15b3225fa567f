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


def test_convert_text_names_the_output_its_size_and_slots(tmp_path, capsys):
    from xwcp.model import find_slots

    source = ROOT / "models" / "7x7-mini.txt"
    out = tmp_path / "mini.xd"
    assert main(["convert", str(source), str(out)]) == 0
    n_slots = len(find_slots(read_puzzle(source).grid))
    assert capsys.readouterr().out == f"wrote {out} (7x7, {n_slots} slots)\n"
    assert read_puzzle(out).grid.rows == read_puzzle(source).grid.rows


def test_convert_keeps_a_languages_letters(tmp_path, capsys):
    """--language reads the input in a pack's letters; the output names it and reads back the same."""
    from tests.helpers import run

    source = tmp_path / "nl.txt"
    source.write_text("{IJ}S\n..\n", encoding="utf-8")
    code, out, err = run(["convert", source, tmp_path / "nl.ipuz", "--language", "nl", "--format", "json"], capsys)
    assert code == 0, err
    assert json.loads(out)["language"] == "nl"
    code, _, err = run(["convert", tmp_path / "nl.ipuz", tmp_path / "back.txt"], capsys)  # the .ipuz names nl
    assert code == 0, err
    assert (tmp_path / "back.txt").read_text(encoding="utf-8") == "; Language: nl\n{IJ}S\n..\n"
    code, _, err = run(["convert", source, tmp_path / "x.ipuz"], capsys)  # read as English, {IJ} is no cell
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_convert_to_puz_keeps_cyrillic_and_the_language(tmp_path, capsys):
    from tests.helpers import run

    source = tmp_path / "ru.txt"
    source.write_text("; Language: ru\nДОМ\n...\n", encoding="utf-8")
    code, _, err = run(["convert", source, tmp_path / "ru.puz"], capsys)
    assert code == 0 and not err, err
    code, _, err = run(["convert", tmp_path / "ru.puz", tmp_path / "back.txt"], capsys)  # the .puz names ru
    assert code == 0 and not err, err
    assert (tmp_path / "back.txt").read_text(encoding="utf-8") == "; Language: ru\nДОМ\n...\n"
