"""The verdict first, then the core, for the builder: the messages /ws/fill and a streamed /api/check send.

An unfillable grid is known as soon as the proof is in; its minimal core (xwcp/search/core.py) takes
longer. The fill socket sends `{"type": "verdict"}` at once, `{"type": "core-progress"}` while
the core is searched for (a stop message ends that search and keeps the verdict), then the
`result` with the core. `/api/check?stream=1` answers in NDJSON: one
`{"type": "verdict", ...}` line (the check report without its core) as soon as the verdict is
known, then one `{"type": "result", ...}` line with the whole report; without it the answer is
the one JSON object it always was.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import anyio
import anyio.from_thread
from starlette.responses import Response, StreamingResponse

from xwcp.services.types import FillResult, Problem

if TYPE_CHECKING:
    from xwcp.services.unfillable import CoreProgress

Report = dict[str, Any]
"""A JSON-ready message or report."""


def verdict_json(problem: Problem, result: FillResult, elapsed_s: float) -> Report:
    """The fill socket's verdict message: unfillable, why, and the slot where the dead ends gathered."""
    out: Report = {
        "type": "verdict",
        "status": result.status.value,
        "reason": result.reason,
        "seconds": round(elapsed_s, 3),
    }
    if result.slot_id is not None:
        out["slot"] = problem.slots[result.slot_id].name
    return out


def core_progress_json(progress: CoreProgress | None, elapsed_s: float) -> Report:
    """A core-progress message from an `xwcp.search.core.CoreProgress` (None: started, nothing searched yet)."""
    if progress is None:
        return {
            "type": "core-progress",
            "seconds": round(elapsed_s, 2),
            "core_seconds": 0.0,
            "searches": 0,
            "slots": None,
            "needed": 0,
            "stage": "proof",
        }
    return {
        "type": "core-progress",
        "seconds": round(elapsed_s, 2),
        "core_seconds": round(progress.elapsed_s, 2),
        "searches": progress.n_calls,
        "slots": progress.n_slots,
        "needed": progress.n_needed,
        "stage": progress.stage,
    }


def streamed_check(
    run: Callable[[Callable[..., Report]], Awaitable[Response]], job: Callable[..., Report]
) -> StreamingResponse:
    """The NDJSON answer of a streamed check.

    `run(work)` is the app's ordinary analysis path (its limiter and caps): it runs `work(...)`
    in a worker thread and answers a JSON response (the report, or an error with its status).
    `job(..., on_verdict)` makes the report with the same arguments; `on_verdict(report)`,
    called from the worker thread before the core search, becomes the first line. An error comes
    as one `{"type": "error", "status": N, "error": ...}` line (the status code is sent before the work).
    """

    async def lines() -> AsyncIterator[str]:
        send, receive = anyio.create_memory_object_stream[Report](4)

        def on_verdict(report: Report) -> None:
            anyio.from_thread.run(send.send, {"type": "verdict", **report})

        async def work() -> None:
            async with send:
                response = await run(lambda *args: job(*args, on_verdict))
                data = json.loads(bytes(response.body)) if response.body else {"error": "no answer"}
                if response.status_code == 200:
                    await send.send({"type": "result", **data})
                else:
                    await send.send({"type": "error", "status": response.status_code, "error": data.get("error", "")})

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(work)
            async with receive:
                async for item in receive:
                    yield json.dumps(item) + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")
