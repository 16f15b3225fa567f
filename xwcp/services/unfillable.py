"""What a front end outlines on an unfillable grid: the minimal core (xwcp.search.core), else the slot the proof names.

The web builder's fill socket and check route, and the command line's text of a core, come here: the core search
runs below the front ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from xwcp.base.types import SlotId
from xwcp.compile.problem import Problem

if TYPE_CHECKING:
    from xwcp.search.core import CoreProgress as CoreProgress, CoreReport as CoreReport

Report = dict[str, Any]
"""A JSON-ready report."""

CORE_TIME_S = 5.0
"""Time the minimal-core search may take for one answer (the bench grids' cores were found within 5 s)."""


def unfillable_core(
    problem: Problem,
    slot_id: SlotId | None,
    *,
    weight_by_slot: Mapping[SlotId, float] | None = None,
    progress: Callable[[CoreProgress], None] | None = None,
    abort: threading.Event | None = None,
) -> CoreReport | None:
    """The slots to outline on an unfillable grid: the minimal core from `xwcp.search.core.explain`, else the one
    slot the proof names (`slot_id`). `weight_by_slot` is the proof's (`FillResult.weight_by_slot`); `progress`
    and `abort` are `xwcp.search.core.find_core`'s (the page shows the search's progress and may stop it).

    Returns:
        The core (`xwcp.render.core.core_json` writes it for the page), or None when nothing is known.
    """
    from xwcp.search.core import explain, slot_report

    core = explain(
        problem,
        seed_slot_id=slot_id,
        time_limit_s=CORE_TIME_S,
        weight_by_slot=weight_by_slot,
        progress=progress,
        abort=abort,
    )
    if core is not None:
        return core
    return None if slot_id is None else slot_report(problem, [slot_id])


def with_core(problem: Problem, data: Report, is_unfillable: bool, search: bool = True) -> Report:
    """`data` (a report naming the dead slot as "slot") with a "core" to outline when the grid is unfillable;
    without `search`, the named slot only."""
    if is_unfillable and "core" not in data:
        from xwcp.render.core import core_json
        from xwcp.search.core import slot_report

        slot = problem.slot_by_name(data["slot"]) if data.get("slot") else None
        slot_id = None if slot is None else slot.id
        core = (
            unfillable_core(problem, slot_id)
            if search
            else (None if slot_id is None else slot_report(problem, [slot_id]))
        )
        data["core"] = None if core is None else core_json(core)
    return data
