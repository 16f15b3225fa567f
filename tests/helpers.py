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
