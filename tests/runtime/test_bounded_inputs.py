"""Every file an option names is read bounded: a size cap said in the error, FIFO_WAIT_S for a silent pipe, an
endless device refused, a compressed file inflated under its cap; each refusal one line and exit 2."""

from __future__ import annotations

import gzip
import lzma
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import run
from xwcp.base.errors import InputError
from xwcp.runtime.files import decompress_bounded, read_bounded

REPO = Path(__file__).resolve().parents[2]
GRID = "...\n...\n...\n"
LIST = "CAB;60\nORE;60\nWET;60\nCOW;60\nARE;60\nBET;60\nCAT;60\nTEN;60\n"
MEMORY_CAP_BYTES = 1536 << 20
"""The address space a command run here may take: a read without a cap fails on it (exit 70) instead of
filling the machine."""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP_BYTES, MEMORY_CAP_BYTES))


def xwcp(*argv: object, timeout: float = 60, cwd: Path | None = None, **kwargs) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    if cwd is not None:
        env["XWCP_CACHE_DIR"] = str(cwd / "cache")
        env["XWCP_DATA_DIR"] = str(cwd / "data")
    return subprocess.run(
        [sys.executable, "-m", "xwcp", *map(str, argv)],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        preexec_fn=_limit_memory,
        cwd=cwd,
        **kwargs,
    )


@pytest.fixture
def files(tmp_path):
    (tmp_path / "g.txt").write_text(GRID)
    (tmp_path / "w.txt").write_text(LIST)
    return tmp_path


def _one_line_error(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    return lines[0]


@pytest.mark.subprocess
@pytest.mark.parametrize("option", ["--ban-file", "--words"])
def test_dev_zero_for_a_list_is_refused_at_once(files, option):
    start = time.monotonic()
    result = xwcp("fill", files / "g.txt", "--words", files / "w.txt", option, "/dev/zero", cwd=files)
    assert result.returncode == 2, result.stderr[-2000:]
    assert "/dev/zero: is a device, not a" in _one_line_error(result)
    assert time.monotonic() - start < 20


@pytest.mark.timeout(30)  # (a read without the wait blocks for good)
def test_ban_file_fifo_without_a_writer_is_refused_after_the_wait(files, monkeypatch, capsys):
    import xwcp.runtime.files

    monkeypatch.setattr(xwcp.runtime.files, "FIFO_WAIT_S", 0.5)  # the wait's length is not what is tested
    fifo = files / "bans.fifo"
    os.mkfifo(fifo)
    code, _, err = run(["fill", files / "g.txt", "--words", files / "w.txt", "--ban-file", fifo], capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "nothing was written to this pipe within 0.5 s" in err


def test_ban_file_over_the_cap_says_the_cap(files, monkeypatch):
    import xwcp.compile.controls as controls

    monkeypatch.setattr(controls, "MAX_BAN_BYTES", 100)
    path = files / "bans.txt"
    path.write_text("ESNE\n" * 30)
    with pytest.raises(InputError, match="the ban-list file is larger than 100 bytes"):
        controls.read_ban_file(path)


@pytest.mark.timeout(30)  # (a read without the wait blocks for good)
def test_ban_file_from_a_fifo_with_a_writer_is_read(files):
    fifo = files / "bans.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"sleep 0.3; printf 'cab\\nore\\n' > {fifo}"])
    try:
        from xwcp.compile.controls import read_ban_file

        assert read_ban_file(fifo) == {"CAB", "ORE"}
    finally:
        writer.wait(timeout=10)


@pytest.mark.timing
@pytest.mark.timeout(30)  # (a read without the wait blocks for good)
def test_a_pipe_silent_after_its_first_bytes_is_refused(files, monkeypatch):
    import xwcp.runtime.files

    monkeypatch.setattr(xwcp.runtime.files, "FIFO_WAIT_S", 0.5)
    fifo = files / "words.fifo"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"{{ printf 'CAB;60\\n'; sleep 8; }} > {fifo}"])
    start = time.monotonic()
    try:
        with pytest.raises(InputError, match=r"the pipe went silent for 0.5 s after 7 bytes"):
            read_bounded(fifo, 1 << 20, "word-list")
        assert time.monotonic() - start < 5
    finally:
        writer.kill()
        writer.wait(timeout=10)


@pytest.mark.subprocess
def test_a_device_on_standard_input_is_refused(files):
    with open("/dev/zero", "rb") as zero:
        result = xwcp("fill", "-", "--words", files / "w.txt", stdin=zero, cwd=files)
    assert result.returncode == 2
    assert "<stdin>: standard input is a device, not a grid file" in _one_line_error(result)


@pytest.mark.subprocess
def test_dev_null_still_reads_as_empty(files):
    assert read_bounded("/dev/null", 10, "ban-list") == b""
    result = xwcp("fill", files / "g.txt", "--words", files / "w.txt", "--ban-file", "/dev/null", cwd=files)
    assert result.returncode == 0, result.stderr


@pytest.mark.timing
@pytest.mark.timeout(30)  # (a read without the wait blocks for good)
def test_personal_list_that_is_a_fifo_is_refused(files, monkeypatch):
    import xwcp.runtime.files
    from xwcp.words import userwords

    monkeypatch.setattr(xwcp.runtime.files, "FIFO_WAIT_S", 0.3)
    fifo = files / "personal.dict"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(InputError, match="nothing was written to this pipe"):
        userwords.read_personal(fifo)
    assert time.monotonic() - start < 5


# ----- compressed inputs inflate under their cap ---------------------------------------------------


@pytest.mark.parametrize(
    "compress", [gzip.compress, lzma.compress, lambda data: lzma.compress(data, format=lzma.FORMAT_ALONE)]
)
def test_decompression_stops_at_the_cap(compress):
    text = b"HELLO;50\n" * 50_000
    packed = compress(text)
    assert decompress_bounded(packed, len(text), "word-list", "w.gz") == text
    assert decompress_bounded(packed + packed, 2 * len(text), "word-list", "w.gz") == text + text
    with pytest.raises(InputError, match="^w.gz: the word-list file inflates to more than 1 KiB"):
        decompress_bounded(packed, 1024, "word-list", "w.gz")
    with pytest.raises(InputError, match="^w.gz: cannot decompress word-list file"):
        decompress_bounded(packed[: len(packed) // 2], len(text), "word-list", "w.gz")


@pytest.mark.subprocess
def test_a_compressed_list_bomb_is_refused_in_bounded_memory(files):
    bomb = files / "bomb.dict.xz"
    bomb.write_bytes(lzma.compress(b"A" * (64 << 20), preset=1) * 8)  # 8 streams of 64 MiB: 512 MiB, 80 KB packed
    start = time.monotonic()
    result = xwcp("fill", files / "g.txt", "--words", bomb, cwd=files, timeout=120)
    assert result.returncode == 2, result.stderr[-2000:]
    assert "bomb.dict.xz: the word-list file inflates to more than 256 MiB" in _one_line_error(result)
    assert time.monotonic() - start < 60
