"""`xwcp words build`: the command writes the list, says its source and licence, and refuses bad input in one line."""

from __future__ import annotations

import json

from tests.cli.helpers import assert_one_line_error
from tests.helpers import run
from xwcp.cli import main


def test_build_from_a_file_writes_the_list_and_reports_it(tmp_path, capsys):
    source = tmp_path / "palabras.txt"
    source.write_text("año;80\nniño\n日本\n", encoding="utf-8")
    out = tmp_path / "es.dict"
    code = main(["words", "build", "--language", "es", "--from", str(source), "--out", str(out), "--scores", "flat"])
    captured = capsys.readouterr()
    assert code == 0
    lines = [line for line in out.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert lines == ["AÑO;80", "NIÑO;50"]
    assert f"wrote {out}: 2 words" in captured.out
    assert "licence: " in captured.out and "日本" in captured.out
    assert "building the es list" in captured.err


def test_json_output(tmp_path, capsys):
    source = tmp_path / "ru.txt"
    source.write_text("ёлка\n", encoding="utf-8")
    out = tmp_path / "ru.dict"
    code = main(
        [
            "words",
            "build",
            "--language",
            "ru",
            "--from",
            str(source),
            "--out",
            str(out),
            "--format",
            "json",
            "--scores",
            "flat",
        ]
    )
    answer = json.loads(capsys.readouterr().out)
    assert code == 0
    assert answer["written"] == 1 and answer["path"] == str(out) and answer["language"].endswith("ru")
    assert out.read_text(encoding="utf-8").splitlines()[-1] == "ЕЛКА;50"


def test_bad_input_exits_2_in_one_line(tmp_path, capsys):
    for argv, needle in (
        (["words", "build", "--language", "es", "--from", tmp_path / "none.txt"], "no such file"),
        (["words", "build", "--language", "zz", "--from", "wordfreq"], "unknown language 'zz'"),
        (["words"], "JOB"),
        (["words", "build", "--language", "es", "--min-length", "0"], "--min-length"),
        (["words", "build", "--from", "wordfreq"], "--language"),
    ):
        code, out, err = run(argv, capsys)
        assert code == 2, argv
        assert out == ""
        assert_one_line_error(err, needle)


def test_help(capsys):
    code, out, _ = run(["words", "build", "--help"], capsys)
    assert code == 0
    assert "Example: xwcp words build --language es" in out
    for option in ("--language", "--from", "--out", "--min-length", "--max-length", "--scores", "--format"):
        assert option in out
