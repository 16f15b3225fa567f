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


def fill_violations(alphabet, before, after, width, words, allow_dupes=False):
    """Every way a filled grid breaks the rules, checked cell by cell in `alphabet` (empty when it is a fill).

    `before` and `after` are the grid's cells (row-major strings: '#' block, '.' empty, else one code char of
    `alphabet`) before and after filling; `words` the listed words (code chars). Plain grids only (no bars, no
    rebus). The slots are found here from the cells (runs of two or more white cells), not from xwcp, so the
    check shares nothing with the code it checks: every white cell holds one letter of the alphabet, every
    slot reads a listed word, no word twice (unless `allow_dupes`), every pre-filled letter is kept.
    """
    bad = []
    height = len(after) // width
    if len(before) != len(after):
        return [f"{len(after)} cells, expected {len(before)}"]
    for cell, (was, now) in enumerate(zip(before, after)):
        at = f"row {cell // width + 1}, column {cell % width + 1}"
        if (was == "#") != (now == "#"):
            bad.append(f"{at}: block changed ({was!r} -> {now!r})")
        elif now != "#" and (len(now) != 1 or alphabet.index(now) is None):
            bad.append(f"{at}: {now!r} is not one letter of {alphabet.name}")
        elif was not in "#." and was != now:
            bad.append(f"{at}: pre-filled {was!r} became {now!r}")
    runs = []
    for r in range(height):
        runs += [[(r, c) for c in range(start, end)] for start, end in _white_runs([after[r * width + c] for c in range(width)])]
    for c in range(width):
        runs += [[(r, c) for r in range(start, end)] for start, end in _white_runs([after[r * width + c] for r in range(height)])]
    listed = set(words)
    seen = set()
    for run in runs:
        text = "".join(after[r * width + c] for r, c in run)
        if text not in listed:
            bad.append(f"the slot at row {run[0][0] + 1}, column {run[0][1] + 1} reads {text!r}, not a listed word")
        if text in seen and not allow_dupes:
            bad.append(f"{text!r} is used twice")
        seen.add(text)
    return bad


def _white_runs(line):
    """(start, end) of every run of two or more non-block cells in `line`."""
    out, start = [], None
    for i, cell in enumerate(list(line) + ["#"]):
        if cell != "#" and start is None:
            start = i
        elif cell == "#" and start is not None:
            if i - start >= 2:
                out.append((start, i))
            start = None
    return out


def one_line(err: str) -> str:
    """The only line of `err`, asserting it is one line and no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]
