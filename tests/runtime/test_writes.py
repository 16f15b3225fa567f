"""Output files written whole or not at all (xwcp/runtime/writes.py): a full disk, a read-only folder or a refused
one is one InputError line naming the file, the old file is kept and no temporary file is left; a device is
written in place."""

from __future__ import annotations

import errno
import os

import pytest

from tests.helpers import failing_fdopen
from xwcp.base.errors import InputError
from xwcp.runtime import writes
from xwcp.runtime.writes import open_output, write_output


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EDQUOT, errno.EACCES, errno.EIO])
def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch, code):
    target = tmp_path / "fill.txt"
    target.write_text("the old fill\n")
    monkeypatch.setattr(writes.os, "fdopen", failing_fdopen(code))
    with pytest.raises(InputError) as caught:
        write_output(target, "A NEW FILL THAT DOES NOT FIT\n" * 100, "puzzle")
    assert str(caught.value) == f"{target}: cannot write puzzle file ({os.strerror(code)})"
    assert target.read_text() == "the old fill\n"
    assert os.listdir(tmp_path) == ["fill.txt"]


def test_a_folder_that_refuses_new_files_is_one_line(tmp_path, monkeypatch):
    real_open = os.open

    def refusing(path, flags, *args):
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(writes.os, "open", refusing)
    with pytest.raises(InputError, match="cannot write CNF file .Read-only file system."):
        with open_output(tmp_path / "out.cnf", "CNF") as stream:
            stream.write("p cnf 1 1\n")
    assert os.listdir(tmp_path) == []


def test_ctrl_c_mid_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "big.cnf"
    target.write_text("old\n")
    with pytest.raises(KeyboardInterrupt):
        with open_output(target, "CNF") as stream:
            stream.write("p cnf 1 1\n")
            raise KeyboardInterrupt
    assert target.read_text() == "old\n" and os.listdir(tmp_path) == ["big.cnf"]


def test_a_complete_write_replaces_the_file_keeping_its_mode_and_a_link(tmp_path):
    target = tmp_path / "fill.puz"
    target.write_bytes(b"old")
    target.chmod(0o640)
    link = tmp_path / "link.puz"
    link.symlink_to(target)
    write_output(link, b"\x00new", "puzzle")
    assert link.is_symlink() and target.read_bytes() == b"\x00new" and (target.stat().st_mode & 0o777) == 0o640
    write_output(tmp_path / "fresh.txt", "line\n", "puzzle")
    assert (tmp_path / "fresh.txt").read_text() == "line\n"
    assert sorted(os.listdir(tmp_path)) == ["fill.puz", "fresh.txt", "link.puz"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
def test_a_full_device_is_written_in_place_and_refused_in_one_line(tmp_path):
    with pytest.raises(InputError) as caught:
        write_output("/dev/full", "CAT\n" * 5000, "puzzle")
    assert str(caught.value) == "/dev/full: cannot write puzzle file (No space left on device)"
    link = tmp_path / "full.txt"  # a name with the puzzle's extension that is the device
    link.symlink_to("/dev/full")
    with pytest.raises(InputError, match="No space left on device"):
        write_output(link, "CAT\n", "puzzle")
    assert link.is_symlink() and os.listdir(tmp_path) == ["full.txt"]
    write_output("/dev/null", "CAT\n", "puzzle")  # a device that takes it: no error, no rename attempted


def test_a_directory_is_refused_by_name(tmp_path):
    (tmp_path / "out.txt").mkdir()
    with pytest.raises(InputError, match="out.txt: cannot write puzzle file .it is a directory."):
        write_output(tmp_path / "out.txt", "CAT\n", "puzzle")
    assert os.listdir(tmp_path) == ["out.txt"]
