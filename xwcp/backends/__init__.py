"""Registry of fill backends: name -> module, imported only when asked for.

Every backend module has `NAME`, `available() -> bool`, `missing() -> str` (what to install
when it is not available) and `fill(problem, limits) -> FillResult`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol, cast

from xwcp.base.errors import InputError

if TYPE_CHECKING:
    from xwcp.compile.problem import Problem
    from xwcp.engine.result import FillResult, Limits

BACKENDS = {
    "auto": "xwcp.backends.auto",
    "backtrack": "xwcp.backends.backtrack",
    "letters": "xwcp.backends.letters",
    "cpsat": "xwcp.backends.cpsat",
    "sat": "xwcp.backends.sat",
    "grow": "xwcp.backends.grow",
}
DEFAULT_BACKEND = "auto"


class Backend(Protocol):
    """What every backend module offers (the module docstring); a backend module is one structurally."""

    NAME: str

    def available(self) -> bool: ...

    def missing(self) -> str: ...

    def fill(self, problem: Problem, limits: Limits | None = None) -> FillResult: ...


def get_backend(name: str) -> Backend:
    """The backend module called `name`.

    Raises:
        InputError: unknown name (the message lists the known ones), or a backend whose
            solver package is not installed (the message names the package).
    """
    if name not in BACKENDS:
        available = available_backends()
        missing = [other for other in BACKENDS if other not in available]
        raise InputError(
            f"unknown backend {name!r}; available: {', '.join(available)}"
            + (f" (not installed: {', '.join(missing)})" if missing else "")
        )
    module = cast(Backend, importlib.import_module(BACKENDS[name]))  # every module of BACKENDS is one
    if not module.available():
        raise InputError(f"backend {name!r} is not available: {module.missing()}")
    return module


def available_backends() -> list[str]:
    """Names of the backends whose solver packages are installed, in registry order."""
    names = []
    for name, path in BACKENDS.items():
        try:
            module = importlib.import_module(path)
        except ImportError:
            continue
        if module.available():
            names.append(name)
    return names


def fill(problem: Problem, backend: str = DEFAULT_BACKEND, limits: Limits | float | None = None) -> FillResult:
    """Fill `problem` with the named backend and validate every fill it returns.

    Args:
        problem: the compiled problem (`xwcp.compile_problem`).
        backend: a name of BACKENDS.
        limits: an `xwcp.Limits`, or a number of seconds (the time limit), or None for no limit.

    Returns:
        The backend's FillResult; LIMIT or ABORTED (without fills) when its limit passed or it was stopped while
        it prepared its search (a backend's preparation raises `Cancelled`, answered here).

    Raises:
        TypeError: an argument of the wrong type (the message names it).
        InputError: unknown or unavailable backend.
        RuntimeError: the backend returned a fill that breaks the rules (a bug, never shown as an answer).
    """
    import time
    from dataclasses import replace

    from xwcp.base.deadline import Cancelled
    from xwcp.compile.problem import Problem
    from xwcp.engine.result import as_limits, check_fill
    from xwcp.runtime.signals import STOP

    if not isinstance(problem, Problem):
        raise TypeError(
            f"problem must be an xwcp.Problem (from xwcp.compile_problem), not {type(problem).__name__}; "
            "xwcp.fill(path) fills a grid file directly"
        )
    if not isinstance(backend, str):
        raise TypeError(
            f"backend must be a backend name (str) such as {DEFAULT_BACKEND!r}, not {type(backend).__name__}"
        )
    limits = as_limits(limits)
    if limits.abort is None:  # a stop signal to the command (see xwcp.runtime.signals) aborts the search
        limits = replace(limits, abort=STOP)
    start = time.perf_counter()
    try:
        if problem.controls.has_pair_rules and not problem.conflicts:
            from xwcp.backends.controlled import fill_pair_rules

            result = fill_pair_rules(problem, backend, limits)
        else:
            result = get_backend(backend).fill(problem, limits)
    except Cancelled as stop:
        from xwcp.backends._common import limit_reason
        from xwcp.base.deadline import StopReason
        from xwcp.base.types import FillStatus
        from xwcp.engine.result import FillResult, FillStats

        status = FillStatus.ABORTED if stop.reason is StopReason.ABORTED else FillStatus.LIMIT
        return FillResult(status, backend, FillStats(time.perf_counter() - start), reason=limit_reason(status, limits))
    for entries in result.fills:
        violations = check_fill(problem, entries)
        if violations:
            raise RuntimeError(f"backend {result.backend!r} produced an invalid fill: {'; '.join(violations[:3])}")
    return result
