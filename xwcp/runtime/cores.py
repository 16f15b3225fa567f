"""How many processes one search may run at once: the cores this process owns, capped by the caller or the environment.

`auto` races a portfolio of searches and verification labels words in that many processes
(forked children beside this one). The budget is, in order:
- 1 where there is no fork, or XWCP_NO_RACE is set (one process, as a benchmark's baseline);
- the caller's `max_processes` when given (`Limits.max_processes`, `verify_words(max_processes=...)`,
  `xwcp fill --processes N`), even above the cores owned (tests oversubscribe on purpose);
- else the cores this process may run on (its CPU affinity), capped by XWCP_MAX_PROCESSES
  (`xwcp serve` sets it to each worker's share, so N server processes do not each take every core).
"""

from __future__ import annotations

import os

from xwcp.base.errors import InputError

MAX_PROCESSES_ENV = "XWCP_MAX_PROCESSES"
"""The environment variable that caps the default budget (a whole number, at least 1)."""
NO_RACE_ENV = "XWCP_NO_RACE"
"""The environment variable that, set to anything, keeps every search in one process."""


def owned_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, else the CPU count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - non-Linux
        return max(1, os.cpu_count() or 1)


def env_cap() -> int | None:
    """XWCP_MAX_PROCESSES as a number, or None when unset.

    Raises:
        InputError: it is set to anything but a whole number of at least 1.
    """
    text = os.environ.get(MAX_PROCESSES_ENV, "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise InputError(f"{MAX_PROCESSES_ENV} must be a whole number of at least 1, not {text!r}")
    return value


def search_processes(max_processes: int | None = None, least: int = 1) -> int:
    """Processes one search may run at once (this one included), at least 1 (see the module docstring).

    Args:
        max_processes: the caller's cap; None for the cores owned, capped by XWCP_MAX_PROCESSES.
        least: the fewest the default budget gives where neither the caller nor XWCP_MAX_PROCESSES caps it
            (`auto` races one rival even on one core: a second seed cuts a restarting search's heavy tail).

    Raises:
        ValueError: `max_processes` is below 1.
        InputError: XWCP_MAX_PROCESSES is set to something else than a whole number of at least 1.
    """
    if max_processes is not None and max_processes < 1:
        raise ValueError(f"max_processes must be at least 1, got {max_processes}")
    if os.environ.get(NO_RACE_ENV) or not hasattr(os, "fork"):
        return 1
    if max_processes is not None:
        return max_processes
    cap = env_cap()
    cores = owned_cores()
    return max(cores, least) if cap is None else min(cores, cap)


def worker_share(workers: int, cores: int | None = None) -> int:
    """The processes each of `workers` server processes may give one search: an even share of the cores,
    and never fewer than two where there are two (one search in two processes is what a single process
    always had, and a busy server lowers its searches' priority rather than starving one).

    Args:
        workers: server processes sharing the machine (at least 1).
        cores: the cores to share (default: the cores owned).
    """
    cores = owned_cores() if cores is None else cores
    return max(min(2, cores), cores // max(1, workers))
