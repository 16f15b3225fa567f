"""xwcp/formats/_io.py: a puzzle file's bytes (at most MAX_PUZZLE_BYTES) or its UTF-8 text, each refusal one line."""

from __future__ import annotations

import pytest

from xwcp.base.errors import InputError
from xwcp.formats._io import MAX_PUZZLE_BYTES, read_bytes, read_text


def test_text_is_utf8_without_its_byte_order_mark(tmp_path):
    path = tmp_path / "p.xd"
    path.write_bytes("\ufeffTitle: Café\n".encode("utf-8"))
    assert read_text(path) == "Title: Café\n"
    assert read_bytes(path) == "\ufeffTitle: Café\n".encode("utf-8")


def test_bad_utf8_names_the_byte(tmp_path):
    path = tmp_path / "p.ipuz"
    path.write_bytes(b'{"title": "caf\xe9"}')
    with pytest.raises(InputError) as info:
        read_text(path)
    assert str(info.value) == f"{path}: not UTF-8 text (byte 14: invalid continuation byte)"


def test_a_puzzle_file_may_hold_up_to_one_mib(tmp_path):
    assert MAX_PUZZLE_BYTES == 1 << 20
    path = tmp_path / "big.puz"
    path.write_bytes(b"x" * MAX_PUZZLE_BYTES)
    assert len(read_bytes(path)) == MAX_PUZZLE_BYTES
    path.write_bytes(b"x" * (MAX_PUZZLE_BYTES + 1))
    with pytest.raises(InputError, match="the puzzle file is larger than 1 MiB"):
        read_bytes(path)


def test_a_missing_puzzle_file_is_named(tmp_path):
    with pytest.raises(InputError) as info:
        read_text(tmp_path / "none.jpz")
    assert str(info.value) == f"{tmp_path / 'none.jpz'}: no such puzzle file"
