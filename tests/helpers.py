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
        runs += [
            [(r, c) for c in range(start, end)]
            for start, end in _white_runs([after[r * width + c] for c in range(width)])
        ]
    for c in range(width):
        runs += [
            [(r, c) for r in range(start, end)]
            for start, end in _white_runs([after[r * width + c] for r in range(height)])
        ]
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


def check_written_fill(cells, allowed, letters, pattern=None, finals=None):
    """Every way a fill shown as written cells breaks the rules, independently of xwcp's engine; [] when valid.

    `cells`: rows of written cells ('#' a block, else the cell's letter as its language writes it: "Ñ",
    "IJ"), as `--format json` gives them in "cells" (or rows of one-character cells); `allowed`: the listed
    words as written ("AÑO", "IJS"); `letters`: the pack's letters as written; `pattern`: the grid's rows
    before the fill (letters given there must stay). Slots are runs of 2+ white cells across and down; each
    must spell an allowed word, no word twice, every white cell one letter of the pack. `finals`: the pack's
    final forms (Hebrew {"מ": "ם"}): a cell holds its letter's final form exactly where a run across or down
    ends and the letter has one, and words are matched with final forms read as their letters, the last
    written final (`allowed` as the lists hold them, regular forms)."""
    rows = [list(row) for row in cells]
    if finals:
        letter_by_form = {form: letter for letter, form in finals.items()}
        ends = {run[-1] for run in _all_runs(rows)}
        problems = []
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                letter = letter_by_form.get(cell, cell)
                want = finals.get(letter, letter) if (r, c) in ends else letter
                if cell != "#" and cell != want:
                    problems.append(f"cell {r + 1},{c + 1} holds {cell!r}; the rule writes {want!r}")
        plain = [[letter_by_form.get(cell, cell) for cell in row] for row in rows]
        return problems + check_written_fill(plain, allowed, letters, pattern)
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


def _all_runs(rows):
    """The runs of 2+ white cells of `rows` ('#' a block), across then down, as lists of (row, col)."""
    height, width = len(rows), len(rows[0])
    runs = []
    for r in range(height):
        runs += [[(r, c) for c in run] for run in _runs([rows[r][c] != "#" for c in range(width)])]
    for c in range(width):
        runs += [[(r, c) for r in run] for run in _runs([rows[r][c] != "#" for r in range(height)])]
    return runs


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


def hindi_ring() -> tuple[list[list[str]], str]:
    """RING's four Hindi words (1A, 1D, 2D, 3A, as aksharas) and a list of them with decoys over some 170 aksharas:
    more letters than the compiled kernels take, so suggestions probe in numpy and autofill runs on CP-SAT."""
    import random

    aksharas = [c + sign for c in "कखगघचछजझटठडढतथदधनपफबभमयरलवशसह" for sign in ("", "ा", "ि", "ी", "ु", "ू", "े", "ो")]
    rng = random.Random(36)
    a, b, c, d, e, f, g, h = rng.sample(aksharas, 8)
    ring = [[a, b, c], [a, d, e], [c, f, g], [e, h, g]]
    decoys = sorted({"".join(rng.sample(aksharas, 3)) for _ in range(60)})
    return ring, "".join(f"{''.join(word)};80\n" for word in ring) + "".join(f"{word};60\n" for word in decoys)


def failing_fdopen(code: int, after_bytes: int = 3):
    """os.fdopen whose stream takes `after_bytes` bytes, then fails every later write with `code` (a disk that fills
    up mid-write: ENOSPC)."""
    import os

    real = os.fdopen

    def fdopen(fd, *args, **kwargs):
        stream = real(fd, *args, **kwargs)
        raw_write = stream.write
        taken = {"n": 0}

        def write(data):
            if taken["n"] + len(data) > after_bytes:
                raw_write(data[: after_bytes - taken["n"]])
                stream.flush()
                raise OSError(code, os.strerror(code))
            taken["n"] += len(data)
            return raw_write(data)

        stream.write = write
        return stream

    return fdopen


def processes_now() -> list[tuple[int, str, int, int]]:
    """(pid, state, parent's pid, process group) of every process now (Linux /proc; one gone meanwhile is left out)."""
    import os

    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                text = f.read()
        except OSError:  # gone meanwhile
            continue
        fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) ": state, ppid, pgrp, ...
        found.append((int(entry), fields[0], int(fields[1]), int(fields[2])))
    return found


def child_processes(besides: frozenset[int] = frozenset()) -> list[tuple[int, str]]:
    """(pid, state) of every process whose parent is this one, zombies included (Linux /proc), but those in
    `besides` (the children a test found before it began: a fork server or a cluster an earlier test started)."""
    import os

    me = os.getpid()
    return [(pid, state) for pid, state, parent, _ in processes_now() if parent == me and pid not in besides]


def child_pids() -> frozenset[int]:
    """The pids of this process' children now (`child_processes`' `besides` for a test's later checks)."""
    return frozenset(pid for pid, _ in child_processes())
