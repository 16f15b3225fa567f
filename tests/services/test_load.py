"""The one loader every front door uses (xwcp/services/load.py): the puzzle, the problem and the warnings, in one call."""

from __future__ import annotations

from pathlib import Path

import xwcp
from xwcp.services.load import Loaded, load

ROOT = Path(__file__).resolve().parents[2]
OPEN_7 = "\n".join(["......."] * 7) + "\n"
"""No fill with the default list within seconds: a fill that runs until stopped."""


def test_load_returns_the_puzzle_the_problem_and_the_warnings_it_said():
    heard: list[str] = []
    loaded = load("QZX\n...\n...\n", warn=heard.append)
    assert isinstance(loaded, Loaded)
    assert loaded.warnings == tuple(heard) and any("QZX" in w for w in heard)
    assert loaded.problem.grid.width == 3 and loaded.puzzle.grid == loaded.problem.grid


def test_load_plain_is_the_numpy_free_problem_and_falls_back_to_the_ordinary_one():
    from xwcp.engine.kernel import is_plain

    path = str(ROOT / "models" / "5x5-open.txt")
    xwcp.load_word_list()  # the default list cached
    assert is_plain(load(path, as_paths=True, plain=True).problem)
    assert not is_plain(load(path, as_paths=True).problem)
    text = "\n".join(["....."] * 5) + "\n"
    assert not is_plain(load(text, plain=True).problem)  # not a file: the ordinary problem
