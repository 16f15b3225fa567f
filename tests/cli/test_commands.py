"""The `xwcp` command line's entry point (`xwcp.cli.commands.main`): exit codes, one-line errors for bad input
and usage, and the module entry point. Each command's own output is tested in the module named after it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import TINY_FILLS, TINY_LIST, assert_one_line_error, write
from tests.helpers import run

REPO = Path(__file__).resolve().parents[2]


# ----- bad input: exit 2, one line on stderr naming the file (and line) --------------------


@pytest.mark.parametrize(
    "name, text, line",
    [
        ("ragged.txt", "; comment\n...\n..\n...\n", 3),
        ("badchar.txt", "...\n.%.\n...\n", 2),
    ],
)
def test_bad_grid_lines(tmp_path, tiny, capsys, name, text, line):
    grid = write(tmp_path, name, text)
    code, out, err = run(["fill", grid, "--words", tiny[1]], capsys)
    assert code == 2
    assert out == ""
    assert_one_line_error(err, f"{grid}:{line}:")


@pytest.mark.parametrize(
    "name, text, needle",
    [
        ("noslot.txt", "#.#\n###\n", "no slot"),
        ("wide.txt", ("." * 61 + "\n") * 3, "61x3"),
        ("empty.txt", "; nothing here\n\n", "no rows"),
    ],
)
def test_bad_grid_files(tmp_path, tiny, capsys, name, text, needle):
    grid = write(tmp_path, name, text)
    code, out, err = run(["fill", grid, "--words", tiny[1]], capsys)
    assert code == 2
    assert_one_line_error(err, str(grid), needle)


def test_missing_grid_file(tmp_path, tiny, capsys):
    grid = tmp_path / "nope.txt"
    code, out, err = run(["fill", grid, "--words", tiny[1]], capsys)
    assert code == 2
    assert_one_line_error(err, str(grid))


def test_word_list_without_usable_entries(tmp_path, tiny, capsys):
    words = write(tmp_path, "junk.txt", "R2D2;50\nC3PO;x\n")
    code, out, err = run(["fill", tiny[0], "--words", words], capsys)
    assert code == 2
    assert_one_line_error(err, str(words))


def test_missing_word_list(tmp_path, tiny, capsys):
    words = tmp_path / "missing.dict"
    code, out, err = run(["fill", tiny[0], "--words", words], capsys)
    assert code == 2
    assert_one_line_error(err, str(words))


def test_unknown_backend_lists_backends(tiny, capsys):
    from xwcp.backends import BACKENDS

    code, out, err = run(["fill", tiny[0], "--words", tiny[1], "--backend", "nosuch"], capsys)
    assert code == 2
    line = assert_one_line_error(err, "nosuch")
    assert "backtrack" in line
    for name in BACKENDS:
        assert name in line


def test_no_command_is_a_usage_error(capsys):
    code, out, err = run([], capsys)
    assert code == 2


def test_malformed_lines_give_a_counted_warning(tmp_path, tiny, capsys):
    words = write(tmp_path, "some-bad.txt", TINY_LIST + "DOG;lots\nEMU;x\nR2D2\n")
    code, out, err = run(["fill", tiny[0], "--words", words, "--format", "json"], capsys)
    assert code == 0
    assert json.loads(out)["status"] == "filled"
    line = assert_one_line_error(err, str(words), "warning")
    assert re.search(r"\b3 malformed lines\b", line), line
    assert "line 9" in line  # the first bad one


# ----- the module entry point --------------------------------------------------------------


def python_m(*args, cwd):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "xwcp", *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd, timeout=60
    )


@pytest.mark.subprocess
def test_module_entry_point_fills(tiny, tmp_path):
    proc = python_m("fill", tiny[0], "--words", tiny[1], "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["grid"] in TINY_FILLS
    assert "Traceback" not in proc.stderr


@pytest.mark.subprocess
def test_module_entry_point_bad_input_has_no_traceback(tiny, tmp_path):
    grid = write(tmp_path, "ragged.txt", "...\n..\n")
    proc = python_m("fill", grid, "--words", tiny[1], cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert_one_line_error(proc.stderr, f"{grid}:2:")

    proc = python_m("fill", tmp_path / "absent.txt", "--time-limit", "-1", cwd=tmp_path)
    assert proc.returncode == 2
    assert_one_line_error(proc.stderr, "--time-limit")
