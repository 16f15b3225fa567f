"""The engine's types a front end names: a compiled problem, its controls, a fill's result, progress and quality.

The front ends (cli, web, dist) never import the engine's packages themselves (pyproject's forbidden contract):
the types they annotate with, the controls they build from their options and the thread count they default
to come from here.
"""

from __future__ import annotations

from xwcp.compile.controls import (
    Controls as Controls,
    FilterKind as FilterKind,
    SlotFilter as SlotFilter,
    make_controls as make_controls,
)
from xwcp.compile.problem import Problem as Problem
from xwcp.engine.result import (
    FillResult as FillResult,
    Progress as Progress,
    Quality as Quality,
    default_threads as default_threads,
)
