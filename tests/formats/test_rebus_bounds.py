"""Rebus cells are bounded in every format (MAX_CELL_CHARS a cell, MAX_GRID_CHARS a grid), refused in one line that
names the file and the cell before any work in proportion to them; every warning is one line of at most
MAX_LINE_CHARS (`xwcp.base.lines.one_line`), a list of them says how many it leaves out."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from xwcp.base.errors import InputError
from xwcp.formats import read_puzzle

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "puzzles"
MEMORY_CAP_BYTES = 768 << 20
"""Address space a command run here may take: the bounded readers need under 300 MiB; the unbounded took 1 GB."""
LINE_CHARS = 400
"""MAX_LINE_CHARS, written out: the tests say the number docs/grids.md promises."""


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP_BYTES, MEMORY_CAP_BYTES))


def xwcp(*argv: object, cwd: Path) -> tuple[subprocess.CompletedProcess, float]:
    env = dict(os.environ, PYTHONPATH=str(REPO), XWCP_CACHE_DIR=str(cwd / "cache"))
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "xwcp", *map(str, argv)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        preexec_fn=_limit_memory,
        cwd=cwd,
    )
    return result, time.monotonic() - start


def big_rebus_xd(letters: int = 500) -> str:
    """The issue's file: an 8 KB .xd whose Rebus header maps digits to long strings, a 15x15 grid of the digits."""
    keys = "123456789"
    header = " ".join(f"{k}={chr(65 + i) * letters}" for i, k in enumerate(keys))
    rows = ["".join(keys[(r + c) % 9] for c in range(15)) for r in range(15)]
    return f"Title: big\nRebus: {header}\n\n\n" + "\n".join(rows) + "\n\n\nA1. clue ~ X\n"


def big_rebus_ipuz(width: int = 60, letters: int = 240) -> str:
    solution = [[chr(65 + (r * width + c) % 24) * letters for c in range(width)] for r in range(width)]
    return json.dumps(
        {
            "version": "http://ipuz.org/v2",
            "kind": ["http://ipuz.org/crossword#1"],
            "dimensions": {"width": width, "height": width},
            "puzzle": [[0] * width for _ in range(width)],
            "solution": solution,
        }
    )


@pytest.mark.parametrize(
    "name, make, cell",
    [("big.xd", big_rebus_xd, "row 1, column 1"), ("big.ipuz", big_rebus_ipuz, "row 1, column 1")],
    ids=["xd", "ipuz"],
)
@pytest.mark.subprocess
def test_the_issue_files_are_refused_at_once_in_one_line(tmp_path, name, make, cell):
    path = tmp_path / name
    path.write_text(make())
    result, took_s = xwcp("check", path, "--time-limit", "2", cwd=tmp_path)
    assert result.returncode == 2, result.stderr[-1000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 300, result.stderr[-1000:]
    assert lines[0].startswith(f"xwcp: error: {path}: the cell at {cell} holds ")
    assert "a rebus cell holds at most 16 characters" in lines[0]
    assert result.stdout == "" and took_s < 20  # (about 0.7 s, start-up included; 3-8 s and a GB before)


@pytest.mark.parametrize("fmt", [".txt", ".xd", ".ipuz", ".jpz", ".puz", ".json"])
def test_every_format_keeps_16_characters_and_refuses_17(tmp_path, fmt):
    from xwcp.formats import Puzzle, write_puzzle
    from xwcp.model.grid import Grid

    for size in (16, 17):
        rebus = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:size]
        path = tmp_path / f"p{size}{fmt}"
        write_puzzle(Puzzle(Grid(3, 3, (rebus,) + ("A",) * 8)), path)  # (a Grid made directly: no caps)
        if size == 16:
            assert read_puzzle(path).grid.cells[0] == rebus
        else:
            with pytest.raises(
                InputError,
                match=f"^{path}: the cell at row 1, column 1 holds 'ABCDEFGHIJKLMNOPQ' "
                "\\(17 characters\\); a rebus cell holds at most 16",
            ):
                read_puzzle(path)


def test_the_whole_grid_is_bounded_too(tmp_path):
    row = "[ABC]" * 60
    path = tmp_path / "wide.txt"
    path.write_text((row + "\n") * 40)  # 2,400 cells of 3 letters: 7,200 characters, at the cap
    assert len(read_puzzle(path).grid.cells) == 2400
    path.write_text((row + "\n") * 41)
    with pytest.raises(InputError, match="the grid's cells spell 7,380 characters in all; the most is 7,200"):
        read_puzzle(path)


def test_published_rebus_files_still_open():
    longest = max(
        len(cell) for name in ("nyt_rebus_with_notes_and_shape.puz",) for cell in read_puzzle(DATA / name).grid.cells
    )
    assert longest == 4  # STAR
    for path in sorted(DATA.iterdir()):
        if path.suffix in (".puz", ".ipuz", ".xd", ".jpz"):
            try:
                read_puzzle(path)
            except InputError as exc:
                assert "rebus cell holds at most" not in str(exc), exc


# ----- warnings: one line each ----------------------------------------------------------------


@pytest.mark.subprocess
def test_a_long_warning_is_cut_to_one_line(tmp_path):
    """Entries of 16-letter rebus cells, none listed: the warning naming them stayed whole (2 KB) before."""
    top = "".join(f"[{chr(65 + c) * 16}]" for c in range(15))
    path = tmp_path / "long.txt"
    path.write_text(top + "\n" + "ABCDEFGHIJKLMNO\n")
    (tmp_path / "w.txt").write_text("CAB;60\nORE;60\n")
    result, _ = xwcp(
        "check", path, "--words", tmp_path / "w.txt", "--format", "json", "--time-limit", "2", cwd=tmp_path
    )
    assert result.returncode in (0, 1, 3), result.stderr[-1000:]
    warnings = [line for line in result.stderr.splitlines() if line.startswith("xwcp: warning: ")]
    assert warnings and all(len(line) <= LINE_CHARS + len("xwcp: warning: ") for line in warnings), warnings
    unlisted = next(line for line in warnings if "not in the word list" in line)
    assert "17 entries are not in the word list: 1A " in unlisted and "(--strict refuses such a grid)" in unlisted
    assert all(len(w) <= LINE_CHARS for w in json.loads(result.stdout)["warnings"])


def test_a_rebus_header_with_many_repeated_keys_warns_once(tmp_path):
    header = " ".join(f"1={'Q' * 16}" for _ in range(400))
    path = tmp_path / "dupes.xd"
    path.write_text(f"Title: t\nRebus: 1=CAT {header}\n\n\n1AB\nCDE\nFGH\n")
    puzzle = read_puzzle(path)
    assert puzzle.grid.cells[0] == "CAT"
    assert len(puzzle.warnings) == 1
    assert puzzle.warnings[0].startswith(
        "the Rebus header gives 400 answers to a key already given one; the first is read: '1' ('CAT', then 'QQQQ"
    )
    assert puzzle.warnings[0].endswith("and 397 more")


def test_one_line_keeps_the_start_and_the_end():
    from xwcp.base.lines import MAX_LINE_CHARS, listed, one_line

    assert MAX_LINE_CHARS == LINE_CHARS
    assert one_line("two\nlines  here") == "two lines here"
    long = "x.txt: " + "A" * 5000 + " (give --language)"
    cut = one_line(long)
    assert len(cut) <= LINE_CHARS and cut.startswith("x.txt: AAAA") and cut.endswith("A (give --language)")
    assert f"({len(long) - len(cut.split(' … ')[0]) - 120:,} characters left out)" in cut
    assert all(len(one_line("y" * n)) <= LINE_CHARS and len(one_line("y" * n, 40)) <= 40 for n in range(1, 2000))
    assert (
        listed(["1A CAT", "2A DOG", "3A " + "E" * 100], 12, most=3) == "1A CAT, 2A DOG, 3A " + "E" * 36 + "… and 9 more"
    )
