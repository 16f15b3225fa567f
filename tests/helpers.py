"""Helpers shared by test modules (tests is a package: `from tests.helpers import run`)."""
from __future__ import annotations

from xwcp.cli.commands import main


def run(argv, capsys):
    """main(argv) -> (exit code, stdout, stderr); argparse's SystemExit counts as an exit code."""
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def entries_of(problem, rows):
    """The entry of every slot (in slot order) read off a filled grid's rows, for check_fill."""
    width = problem.grid.width
    return tuple("".join(rows[cell // width][cell % width] for cell in slot.cells) for slot in problem.slots)


def one_line(err: str) -> str:
    """The only line of `err`, asserting it is one line and no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def check_written_fill(cells, allowed, letters, pattern=None):
    """Every way a fill shown as written cells breaks the rules, independently of xwcp's engine; [] when valid.

    `cells`: rows of written cells ('#' a block, else the cell's letter as its language writes it: "Ñ",
    "IJ"), as `--format json` gives them in "cells" (or rows of one-character cells); `allowed`: the listed
    words as written ("AÑO", "IJS"); `letters`: the pack's letters as written; `pattern`: the grid's rows
    before the fill (letters given there must stay). Slots are runs of 2+ white cells across and down; each
    must spell an allowed word, no word twice, every white cell one letter of the pack."""
    rows = [list(row) for row in cells]
    height, width = len(rows), len(rows[0])
    problems = [f"row {r + 1} has {len(row)} cells, not {width}" for r, row in enumerate(rows) if len(row) != width]
    letters = set(letters)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell != "#" and cell not in letters:
                problems.append(f"cell {r + 1},{c + 1} holds {cell!r}, not a letter of the pack")
            if pattern is not None and pattern[r][c] not in ".#" and pattern[r][c] != cell:
                problems.append(f"cell {r + 1},{c + 1} was {pattern[r][c]!r}, the fill has {cell!r}")
    runs = []
    for r in range(height):
        runs += [[(r, c) for c in run] for run in _runs([rows[r][c] != "#" for c in range(width)])]
    for c in range(width):
        runs += [[(r, c) for r in run] for run in _runs([rows[r][c] != "#" for r in range(height)])]
    seen = set()
    for run in runs:
        word = "".join(rows[r][c] for r, c in run)
        if word not in allowed:
            problems.append(f"{word!r} at {run[0]} is not a listed word")
        if word in seen:
            problems.append(f"{word!r} is used twice")
        seen.add(word)
    return problems


def _runs(white):
    """Index runs of 2+ consecutive True values."""
    out, current = [], []
    for i, is_white in enumerate(white + [False]):
        if is_white:
            current.append(i)
        else:
            if len(current) >= 2:
                out.append(current)
            current = []
    return out
