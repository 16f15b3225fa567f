"""Our compiled search branching on letters: a checked cell takes a letter (or loses it), not a slot a word.

The same restarting MAC over bitset domains as `backtrack` (xwcp/engine/_bitsearch.c, `branch_mode` 1):
a decision restricts one cell to one letter in both its slots, with the same propagation; words
are chosen only where no checked cell is left open (unchecked cells). It wins on open grids,
where short crossing words make whole-word choices coarse; `auto` uses it there first (see
xwcp/backends/auto.py). Restart nogoods hold for both kinds of decision: a literal is "slot =
word" or "cell = letter", and a letter literal is true when its position has one letter left.
"""

from __future__ import annotations

from dataclasses import replace

from xwcp.backends import backtrack
from xwcp.base.errors import InputError
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, Limits
from xwcp.engine.wide import kernel_refusal, kernel_takes

NAME = "letters"


def available() -> bool:
    return backtrack.available()


def missing() -> str:
    return backtrack.missing()


def fill(problem: Problem, limits: Limits | None = None) -> FillResult:
    """Fill `problem` (or prove it cannot be filled) branching on letters, within `limits`.

    Raises:
        InputError: the compiled search does not take the problem's alphabet.
    """
    if not kernel_takes(problem):
        raise InputError(kernel_refusal(problem, NAME))
    limits = limits or Limits()
    extra = dict(limits.extra)
    extra["branch"] = "letter"
    progress = limits.progress
    own = replace(
        limits, extra=extra, progress=None if progress is None else (lambda p: progress(replace(p, backend=NAME)))
    )
    return replace(backtrack.fill(problem, own), backend=NAME)
