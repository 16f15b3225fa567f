"""Our own search: the compiled restarting MAC over bitset domains (xwcp/engine/_bitsearch.c), driven in time slices.

Deterministic for a given seed and inputs (the time limit only decides when it stops).
Between slices it reports progress and honours the abort event and the time limit.
"""

from __future__ import annotations

from xwcp.backends._common import MAX_KEPT_FILLS, Clock, entries_from_word_ids, limit_reason, start_engine, wanted_fills
from xwcp.base.errors import InputError
from xwcp.base.types import FillStatus
from xwcp.compile.problem import Problem
from xwcp.engine import kernel
from xwcp.engine.plain_kernel import bit_search
from xwcp.engine.result import FillResult, FillStats, Limits, Progress
from xwcp.engine.wide import kernel_refusal, kernel_takes

NAME = "backtrack"

RESTART_BASE_FAILS = 100
"""Failures allowed in the first run before a restart; later runs follow the Luby sequence."""
SCORE_WEIGHT = 0.05
"""Weight of the word score (0-100) against the sum of log crossing options when choosing a word.

Measured on the 20 Herald 15.xx/21.xx grids with the default list: 0 gives a mean entry score
of 73.4, 0.05 gives 81.1 at the same median time (0.045 s); 0.2 gains little more (81.9) and
made one grid 10x slower."""
NOISE = 0.2
"""Random term (up to this many nats) added to each word's key, so seeds give different fills and runs.

Small against the fit (a sum of log crossing options, typically 20-50): it reorders near-ties.
Herald 15.xx/21.xx with the default list: median 0.015 s either way; on the stock themeless
it spreads seeds from 0.4 s to 6.8 s, which the auto race turns into the faster of two."""
LEARN = 0
"""Learning at every failure (`kernel.BitSearch.configure`'s `learn`, or `Limits.extra["learn"]`):
0 off, 1 backjump and learn a nogood per dead end, 2 the same but refute at the reason's deepest
level, as a SAT solver does. Off: sound, but measured to lose or tie (xwcp/engine/_bitsearch.c docstring)."""
SLICE_S = 0.05
"""Seconds the kernel runs between progress reports and abort checks."""


def available() -> bool:
    try:
        kernel._library()
    except (ImportError, OSError):
        return False
    return True


def missing() -> str:
    return (
        "the compiled kernel xwcp.engine._kernel is not built; reinstall with `pip install -e .` (needs a C compiler)"
    )


def fill(problem: Problem, limits: Limits | None = None) -> FillResult:
    """Fill every slot of `problem`, or prove it cannot be filled, within `limits`.

    Raises:
        InputError: the compiled search does not take the problem's alphabet (`auto` runs cpsat then).
    """
    limits = limits or Limits()
    if not kernel_takes(problem):
        raise InputError(kernel_refusal(problem, NAME))
    clock = Clock(limits)
    engine = bit_search(problem) if not problem.conflicts else None
    if engine is None or not engine.is_consistent:
        _, early = start_engine(problem, NAME, clock)  # the support-count AC names the slot and chain
        if early is None:
            raise RuntimeError("the bitset search and AC-3 disagree on the root fixpoint")
        return early
    want = wanted_fills(limits)
    enumerate_fills = want != 1
    engine.configure(
        seed=limits.seed,
        restart_base=0 if enumerate_fills else int(limits.extra.get("restart_base", RESTART_BASE_FAILS)),
        noise=float(limits.extra.get("noise", NOISE)),
        score_weight=float(limits.extra.get("score_weight", SCORE_WEIGHT)),
        slot_rule=int(limits.extra.get("slot_rule", 0)),
        max_fails=int(limits.max_backtracks or 0),
        branch=str(limits.extra.get("branch", "word")),
        learn=int(limits.extra.get("learn", LEARN)),
    )
    fills: list[tuple[str, ...]] = []
    n_fills = 0
    status = None
    while status is None:
        remaining = clock.remaining_s()
        code = engine.search(SLICE_S if remaining is None else max(0.0, min(SLICE_S, remaining)))
        if code == kernel.SOLVED:
            n_fills += 1
            if len(fills) < MAX_KEPT_FILLS:
                fills.append(entries_from_word_ids(problem, engine.solution_word_ids()))
            if want and n_fills >= want:
                status = FillStatus.FILLED
        elif code == kernel.EXHAUSTED:
            status = FillStatus.FILLED if n_fills else FillStatus.UNFILLABLE
        elif code == kernel.NOMEM:
            raise MemoryError("the search's save stack could not grow")
        elif code == kernel.FAIL_LIMIT:
            status = FillStatus.FILLED if n_fills and want else FillStatus.LIMIT
        if status is None:
            stop = clock.stop_status()
            if stop is not None:
                # Fills found before a stop are answers, unless every fill was to be counted.
                status = FillStatus.FILLED if n_fills and want else stop
        if limits.progress is not None:
            s = engine.stats
            limits.progress(
                Progress(
                    NAME,
                    clock.elapsed_s,
                    s["nodes"],
                    s["fails"],
                    s["restarts"],
                    min(len(problem.slots), len(problem.slots) - engine.n_slots + s["max_depth"]),
                    len(problem.slots),
                    _branch_letters(problem, engine),
                )
            )
    s = engine.stats
    stats = FillStats(
        clock.elapsed_s,
        s["nodes"],
        s["fails"],
        s["restarts"],
        {k: s[k] for k in ("max_depth", "nogoods", "learnt", "jumps", "levels_jumped", "forgotten")},
    )
    reason, slot_id, weights = "", None, None
    if status is FillStatus.UNFILLABLE:
        reason = "search exhausted every candidate: no fill exists"
        weights = engine.slot_weights()
        slot_id = max(weights, key=weights.__getitem__) if weights else None  # the hardest slot
        if slot_id is not None:
            slot = problem.slots[slot_id]
            reason += f"; most dead ends were at {slot.name} ({problem.written_pattern(slot_id)})"
    elif status in (FillStatus.LIMIT, FillStatus.ABORTED):
        reason = limit_reason(status, limits)
    return FillResult(status, NAME, stats, tuple(fills), n_fills, reason, slot_id, weight_by_slot=weights)


def _branch_letters(problem: Problem, engine: kernel.BitSearch) -> dict[int, str]:
    """The letters of the search's current branch by cell: its placed words and placed letters."""
    letter_by_cell: dict[int, str] = {}
    chars = kernel.letter_chars(problem)
    for slot_id, value in engine.decisions():
        slot = problem.slots[slot_id]
        if value >= 0:
            letter_by_cell.update(zip(slot.cells, problem.words.bucket(slot.length).text(value)))
        else:
            pos, letter = kernel.letter_value_parts(value, engine.n_letters)
            letter_by_cell[slot.cells[pos]] = chars[letter]
    return letter_by_cell
