"""The default backend: our compiled search (a race with a solver model comes in issue 9)."""
from __future__ import annotations

from dataclasses import replace

from xwcp.backends import backtrack
from xwcp.problem import Problem
from xwcp.result import FillResult, Limits

NAME = "auto"


def available() -> bool:
    return backtrack.available()


def missing() -> str:
    return backtrack.missing()


def fill(problem: Problem, limits: Limits | None = None) -> FillResult:
    return replace(backtrack.fill(problem, limits), backend=NAME)
