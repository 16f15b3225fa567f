"""xwcp/runtime/files.py: a user's input file read bounded in size, with no hang on a named pipe, `-` for standard
input, and every refusal one InputError line naming the file."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from xwcp.base.errors import InputError
from xwcp.model import read_grid
from xwcp.runtime.files import STDIN_SOURCE, read_bounded, source_name


def test_reads_up_to_the_cap_and_refuses_one_byte_more(tmp_path):
    path = tmp_path / "g.txt"
    path.write_bytes(b"x" * 10)
    assert read_bounded(path, 10, "grid") == b"x" * 10
    assert read_bounded(str(path), 100, "grid") == b"x" * 10
    with pytest.raises(InputError) as info:
        read_bounded(path, 9, "grid")
    assert info.value.source == str(path)
    assert info.value.message.startswith("the grid file is larger than 9 bytes")


@pytest.mark.parametrize(
    "max_bytes, said", [(1 << 10, "1 KiB"), (64 << 10, "64 KiB"), (1 << 20, "1 MiB"), (3 << 19, "1.5 MiB")]
)
def test_the_cap_is_said_in_binary_units(tmp_path, max_bytes, said):
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * (max_bytes + 1))
    with pytest.raises(InputError, match=f"larger than {said}, more than any word-list needs"):
        read_bounded(path, max_bytes, "word-list")


def test_a_missing_file_and_a_directory_are_named(tmp_path):
    with pytest.raises(InputError) as info:
        read_bounded(tmp_path / "none.txt", 100, "grid")
    assert str(info.value) == f"{tmp_path / 'none.txt'}: no such grid file"
    with pytest.raises(InputError, match="is a directory, not a puzzle file"):
        read_bounded(tmp_path, 100, "puzzle")


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_says_why(tmp_path):
    path = tmp_path / "locked.txt"
    path.write_text("...\n")
    path.chmod(0)
    with pytest.raises(InputError, match="cannot read grid file \\(Permission denied\\)"):
        read_bounded(path, 100, "grid")


def test_dash_is_standard_input(tmp_path, monkeypatch):
    path = tmp_path / "in.txt"
    path.write_bytes(b"...\n...\n")
    assert source_name("-") == STDIN_SOURCE == "<stdin>" and source_name(path) == str(path)
    with open(path, "rb") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        assert read_bounded("-", 100, "grid") == b"...\n...\n"
    with open(path, "rb") as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        with pytest.raises(InputError, match="^<stdin>: the grid file is larger than 4 bytes"):
            read_bounded("-", 4, "grid")


def test_closed_standard_input_is_said(monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    with pytest.raises(InputError, match="^<stdin>: standard input is closed$"):
        read_bounded("-", 100, "grid")


@pytest.mark.timing
def test_fifo_without_writer_does_not_hang(tmp_path, monkeypatch):
    import xwcp.runtime.files

    monkeypatch.setattr(xwcp.runtime.files, "FIFO_WAIT_S", 0.2)
    fifo = tmp_path / "grid.fifo"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(InputError, match="nothing was written to this pipe within 0.2 s"):
        read_grid(fifo)
    assert time.monotonic() - start < 5


def test_fifo_with_a_late_writer_is_read(tmp_path):
    fifo = tmp_path / "grid.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"sleep 0.5; printf '...\\n...\\n' > {fifo}"])
    try:
        assert read_grid(fifo).rows == ["...", "..."]
    finally:
        writer.wait(timeout=10)


# ----- issue 34: JSON under budgets -------------------------------------------------------


@pytest.mark.parametrize(
    "text, says",
    [
        ("[" * 100000 + "]" * 100000, "nests deeper than 64"),
        ("[" * 65 + "]" * 65, "nests deeper than 64"),
        ('{"a": ' * 70 + "1" + "}" * 70, "nests deeper than 64"),
        ("Infinity", "Infinity"),
        ("[NaN]", "NaN"),
        ("[1e400]", "too large"),
        ("9" * 19, "19 digits"),
        ("-" + "9" * 5000, "5,000 digits"),
        ("{", "not JSON"),
    ],
)
def test_load_json_refuses_what_is_over_a_budget_in_one_line(text, says):
    from xwcp.runtime.files import load_json

    with pytest.raises(InputError) as caught:
        load_json(text, "f.json")
    assert says in str(caught.value) and str(caught.value).startswith("f.json: ") and len(str(caught.value)) < 200


def test_load_json_reads_what_is_within_the_budgets():
    from xwcp.runtime.files import load_json

    assert load_json('{"a": [' * 31 + "1" + "]}" * 31, "f.json")["a"][0]["a"][0]["a"][0] is not None
    assert load_json("[" + "9" * 18 + ", -1.5e300, 0.25]", "f.json") == [10**18 - 1, -1.5e300, 0.25]


def test_quote_cuts_long_text():
    from xwcp.runtime.files import QUOTE_CHARS, quote

    assert quote("abc") == "'abc'"
    assert quote("x" * 20000) == repr("x" * QUOTE_CHARS) + "... (20,000 characters)"
