"""The one saver: a fill or a puzzle written to the file a front door names, checked to read back as written.

`save_fill` writes a fill into the puzzle it came from (the CLI's `--out`, the library's `FillAnswer.save`),
`write_checked` any puzzle (a grid with bars or rebus cells is written beside the target and read back first),
`convert` one file format into another.
"""

from __future__ import annotations

import os
from pathlib import Path

from xwcp.base.errors import InputError
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, fill_grid
from xwcp.formats import Puzzle, format_module, puzzle_from_fill, read_puzzle, write_puzzle
from xwcp.runtime.writes import write_output


def save_fill(puzzle: Puzzle, problem: Problem, result: FillResult, out_path: str | Path) -> bool:
    """Write the first fill of `result` into `out_path` (format by extension), keeping `puzzle`'s metadata
    (through `write_checked`).

    Returns:
        True if a fill was written; False when `result` has none (nothing is written).

    Raises:
        InputError: unknown extension, the file cannot be written, or its format loses the grid's
            bars or rebus cells.
    """
    if result.entries is None:
        return False
    if puzzle.grid.has_chains:  # the fill of a split (`xwcp.services.chains`): the letters go into the chains
        from xwcp.services.chains import filled_grid

        filled = filled_grid(puzzle.grid, problem, result.entries)
    else:
        filled = fill_grid(problem, result.entries)
    write_checked(puzzle_from_fill(puzzle, filled), out_path)
    return True


def write_checked(puzzle: Puzzle, out_path: str | Path) -> None:
    """`write_puzzle`, and for a grid with bars, rebus cells, listed entries or Schrödinger cells (`xwcp.model.entries`)
    a check that the file keeps them: it is
    written beside `out_path` first and read back, and takes `out_path`'s name only when its cells and
    bars come back as written (a format that cannot carry them refuses, rather than leave a file
    that reads as another grid).

    Raises:
        InputError: unknown extension, the file cannot be written, or its format loses the grid's
            bars or rebus cells.
    """
    grid = puzzle.grid
    if not (grid.bars or grid.has_rebus or grid.has_variety):
        write_puzzle(puzzle, out_path)
        return
    out_path = Path(out_path)
    trial = out_path.with_name(f".{out_path.stem}.{os.getpid()}.tmp{out_path.suffix}")
    what = " and ".join(
        name
        for name, has in (
            ("bars", grid.bars),
            ("rebus cells", grid.has_rebus),
            ("listed entries", grid.entries or grid.entries_only),
            ("Schrödinger cells", grid.pairs),
        )
        if has
    )
    try:
        try:
            write_puzzle(puzzle, trial)
        except InputError as exc:  # cannot write there, or the format refuses: said of the name the user gave
            raise InputError(exc.message, str(out_path)) from None
        except ValueError as exc:
            raise InputError(f"{out_path.suffix} cannot keep this grid's {what} here ({exc})", str(out_path)) from None
        try:
            back = read_puzzle(trial, puzzle.alphabet).grid
        except ValueError as exc:  # InputError too; its message names the trial file, the user named out_path
            problem_text = exc.message if isinstance(exc, InputError) else str(exc)
            raise InputError(
                f"{out_path.suffix} cannot keep this grid's {what} here ({problem_text})", str(out_path)
            ) from None
        if (back.cells, back.bars, back.entries, back.entries_only, back.pairs) != (
            grid.cells,
            grid.bars,
            grid.entries,
            grid.entries_only,
            grid.pairs,
        ):
            raise InputError(
                f"{out_path.suffix} cannot keep this grid's {what} here (the file would read as another grid)",
                str(out_path),
            )
        write_output(out_path, trial.read_bytes(), "puzzle")  # whole or not at all, a device too
    finally:
        trial.unlink(missing_ok=True)


def convert(in_path: str | Path, out_path: str | Path, language: object = None) -> Puzzle:
    """Read `in_path` and write it to `out_path`, each in the format of its extension; returns the puzzle.
    `language`: the puzzle's (a pack's code or file); None: the one `in_path` names, else English.

    Raises:
        InputError: unknown extension, unreadable input, or content the output cannot carry.
    """
    format_module(out_path)  # refuse a bad output name before reading
    from xwcp.services.inputs import read_language

    puzzle = read_puzzle(in_path, read_language(language))
    if puzzle.grid.has_variety:  # a format without listed entries or Schrödinger cells refuses, never drops them
        write_checked(puzzle, out_path)
    else:
        write_puzzle(puzzle, out_path)
    return puzzle
