"""A command whose output cannot be written (a full disk, a full device, a file-size limit) says so in one line and
exits 2, keeps the file that was there and leaves no temporary file: the user's environment, not a bug (70).

The full disk is a file-size limit (RLIMIT_FSIZE) on the command's process: a write past it fails with EFBIG as a
full disk fails with ENOSPC, with no mount needed. The full device is /dev/full.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import xwcp
from tests.cli.helpers import TINY_GRID, TINY_LIST, assert_one_line_error, write

TREE = Path(xwcp.__file__).resolve().parents[1]
"""The checkout whose xwcp these tests run (the subprocesses import the same one)."""
LIMIT_BYTES = 8
"""The file-size limit: a fill's text output is longer, the old file shorter."""


def _xwcp(*args, cwd: Path, stdout=subprocess.PIPE, max_file_bytes: int | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(TREE), "PYTHONDONTWRITEBYTECODE": "1"}

    def limit() -> None:
        if max_file_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (max_file_bytes, max_file_bytes))

    return subprocess.run(
        [sys.executable, "-m", "xwcp", *map(str, args)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        preexec_fn=limit,
    )


def _one_error(err: str, *needles: str) -> None:
    """One error line with the needles (the word-list cache, past the same limit, may warn first) and no traceback."""
    assert_one_line_error(
        "\n".join(line for line in err.splitlines() if not line.startswith("xwcp: warning:")), *needles
    )


@pytest.fixture
def tiny(tmp_path):
    return write(tmp_path, "grid.txt", TINY_GRID), write(tmp_path, "words.txt", TINY_LIST)


@pytest.mark.parametrize(
    "out_name, extra",
    [
        ("fill.txt", []),
        ("fill.ipuz", []),
        ("fill.cnf", ["--export-cnf"]),
    ],
)
@pytest.mark.subprocess
def test_output_past_the_disk_keeps_the_old_file(tiny, tmp_path, out_name, extra):
    grid, words = tiny
    old = tmp_path / out_name
    old.write_text("OLD\n")
    args = ["fill", grid, "--words", words, *(extra or ["--out"]), old]
    done = _xwcp(*args, cwd=tmp_path, max_file_bytes=LIMIT_BYTES)
    assert done.returncode == 2, done.stderr
    _one_error(done.stderr, out_name, "cannot write", "File too large")
    assert old.read_text() == "OLD\n"  # not a 0-byte or cut file
    assert sorted(os.listdir(tmp_path)) == sorted(["grid.txt", "words.txt", out_name])


@pytest.mark.subprocess
def test_convert_past_the_disk_keeps_the_old_file(tiny, tmp_path):
    grid, _ = tiny
    old = write(tmp_path, "grid.xd", "OLD\n")
    done = _xwcp("convert", grid, old, cwd=tmp_path, max_file_bytes=LIMIT_BYTES)
    assert done.returncode == 2 and old.read_text() == "OLD\n", done.stderr
    _one_error(done.stderr, "grid.xd", "cannot write puzzle file")
    assert sorted(os.listdir(tmp_path)) == ["grid.txt", "grid.xd", "words.txt"]


@pytest.mark.subprocess
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("output_format", ["text", "json"])
def test_the_answer_to_a_full_device_is_one_line_and_exit_2(tiny, tmp_path, output_format):
    """`xwcp fill grid > /dev/full` (the answer fails at print or at the flush at exit): not 70, no traceback."""
    grid, words = tiny
    with open("/dev/full", "w") as full:
        done = _xwcp("fill", grid, "--words", words, "--format", output_format, cwd=tmp_path, stdout=full)
    assert done.returncode == 2, done.stderr
    assert_one_line_error(done.stderr, "cannot write to standard output", "No space left on device")


@pytest.mark.subprocess
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_out_to_a_full_device_is_one_line_and_exit_2(tiny, tmp_path):
    grid, words = tiny
    device = tmp_path / "full.puz"  # the device under a name with a puzzle's extension
    device.symlink_to("/dev/full")
    done = _xwcp("fill", grid, "--words", words, "--out", device, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert_one_line_error(done.stderr, "full.puz", "cannot write puzzle file", "No space left on device")
    assert device.is_symlink()
