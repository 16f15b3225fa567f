"""Batch verification: label candidate words of one slot viable / dead-end / unknown under one total time budget.

`suggest --verify` (and the web builder) ask, for the top words of a slot, whether a full fill
with that word exists. Placing each word and running a fresh fill costs one whole fill per
word, and on a hard grid each of those fills has its own heavy tail. Here the words are
settled together, with our compiled search (xwcp/_bitsearch.c):

1. **Joint search.** The slot's domain is restricted to the pending candidate set and one
   search runs. Every fill it finds proves the word it put in the slot viable (only that
   slot's word: another candidate used in another slot proves nothing about this one). That
   word is then removed *at the search's root* (`BitSearch.root_remove`), and the same search
   goes on, keeping its dom/wdeg weights and its restart nogoods (both stay valid when the
   root only shrinks). When the search is exhausted, every word still pending is proven a
   dead end at once: no fill uses any of them.
2. **Repair from a fill.** A fill found for word A usually also fills most of the grid for
   word B. For every pending word, the fill is kept everywhere except the slots within
   `REPAIR_DISTANCE` crossings of the slot, which are searched again (a small sub-problem,
   `REPAIR_MAX_FAILS` failures at most) with the slot set to B. A fill found that way is a
   full fill, so B is viable; a failure proves nothing and B stays pending.
3. **Splitting on limits.** A set the joint search cannot settle within its share of the
   budget is split in halves, each searched with half of what is left, down to single words,
   so one hard word cannot hide the easy proofs of the others.

Everything shares one total budget (`time_limit_s`); words it does not settle are `unknown`.
Progress is reported through a callback as words are settled. Backends other than our
search (cpsat, sat) verify word by word (each word gets an equal share of what is left).

Measured on the stock themeless 1A, 20 words (`bench/speed2.py verify`): see bench/README.md.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum

import numpy as np

from xwcp.problem import Problem
from xwcp.types import FillStatus, SlotId

SLICE_S = 0.05
"""Seconds the kernel runs between budget checks and progress reports."""
TURN_S = 0.1
"""Seconds each pending word's search runs in the first pass of the word-by-word phase (doubling per pass)."""
JOINT_SHARE = 0.25
"""Share of the budget the joint search over all words may use before the word-by-word searches."""
JOINT_MAX_S = 2.0
"""Seconds the joint search may use at most (without a budget too)."""


class Verdict(Enum):
    VIABLE = "viable"
    DEAD_END = "dead-end"
    UNKNOWN = "unknown"


@dataclass
class WordVerdict:
    """The label of one candidate word and how it was settled."""

    word: str
    verdict: Verdict = Verdict.UNKNOWN
    seconds: float = 0.0
    """Seconds from the start of the verification to the moment this word was settled."""
    how: str = ""
    """"search" (a fill found for it), "repair" (a fill repaired from another word's), "proof"
    (the joint search was exhausted), "ac3" (no fill even by arc consistency), "" (unknown)."""
    entries: tuple[str, ...] | None = None
    """For a viable word: a full fill with it (one entry per slot, in slot order)."""


@dataclass(frozen=True)
class VerifyProgress:
    """A snapshot of a running verification, passed to the progress callback."""

    settled: int
    total: int
    elapsed_s: float
    pending_in_search: int = 0


@dataclass
class _Run:
    problem: Problem
    slot_id: SlotId
    seed: int
    start: float
    end: float | None
    progress: Callable[[VerifyProgress], None] | None
    abort: object | None
    verdict_by_id: dict[int, WordVerdict] = field(default_factory=dict)

    def now(self) -> float:
        return time.perf_counter() - self.start

    def out_of_time(self, until: float | None) -> bool:
        if self.abort is not None and self.abort.is_set():
            return True
        t = time.perf_counter()
        return until is not None and t >= until

    def settle(self, word_id: int, verdict: Verdict, how: str, entries=None) -> None:
        v = self.verdict_by_id[word_id]
        if v.verdict is not Verdict.UNKNOWN:
            return
        v.verdict, v.how, v.seconds, v.entries = verdict, how, round(self.now(), 4), entries
        self.report(0)

    def report(self, pending: int) -> None:
        if self.progress is not None:
            settled = sum(v.verdict is not Verdict.UNKNOWN for v in self.verdict_by_id.values())
            self.progress(VerifyProgress(settled, len(self.verdict_by_id), self.now(), pending))


def verify_words(problem: Problem, slot_id: SlotId, words: list[str], *, backend: str = "auto",
                 time_limit_s: float | None = None, seed: int = 0,
                 progress: Callable[[VerifyProgress], None] | None = None, abort=None) -> list[WordVerdict]:
    """Label each of `words` (candidates for `slot_id`): viable, dead-end, or unknown when the budget ran out.

    Args:
        problem: the compiled grid.
        slot_id: the slot the words are for.
        words: candidate words of the slot's length (e.g. the top of `rank_words`).
        backend: "auto" or "backtrack" settle the words together (see the module docstring);
            any other backend verifies word by word.
        time_limit_s: the TOTAL budget for all words (None: no limit).
        seed: the search's seed.
        progress: called as words are settled and between search slices.
        abort: a threading.Event; when set, the words not yet settled stay unknown.

    Returns:
        One WordVerdict per word, in the order given. Every fill in them has passed `check_fill`.
    """
    start = time.perf_counter()
    end = None if time_limit_s is None else start + time_limit_s
    run = _Run(problem, slot_id, seed, start, end, progress, abort)
    bucket = problem.words.bucket(problem.slots[slot_id].length)
    verdicts = [WordVerdict(w) for w in words]
    ids = []
    for v in verdicts:
        word_id = problem.words.word_id(v.word)
        if word_id is None or len(v.word) != problem.slots[slot_id].length:
            raise ValueError(f"{v.word!r} is not a listed word for {problem.slots[slot_id].name}")
        run.verdict_by_id[word_id] = v
        ids.append(word_id)
    del bucket
    kernel_ok = backend in ("auto", "backtrack") and slot_id not in problem.fixed_text_by_slot
    if kernel_ok:
        from xwcp.backends import backtrack

        kernel_ok = backtrack.available()
    if problem.conflicts:
        for word_id in ids:
            run.settle(word_id, Verdict.DEAD_END, "ac3")
    elif kernel_ok:
        _settle_set(run, sorted(set(ids)), end)
    else:
        _one_by_one(run, ids, backend)
    for v in verdicts:
        if v.entries is not None:
            _check(problem, v.entries)
    return verdicts


def _check(problem: Problem, entries) -> None:
    from xwcp.result import check_fill

    violations = check_fill(problem, entries)
    if violations:
        raise RuntimeError(f"verification produced an invalid fill: {'; '.join(violations[:3])}")


def _one_by_one(run: _Run, ids: list[int], backend: str) -> None:
    """Verify word by word with any backend; each word gets an equal share of what is left."""
    from xwcp.analysis import with_word
    from xwcp.backends import fill
    from xwcp.result import Limits

    for i, word_id in enumerate(ids):
        if run.out_of_time(run.end):
            break
        left = None if run.end is None else max(0.01, (run.end - time.perf_counter()) / (len(ids) - i))
        v = run.verdict_by_id[word_id]
        result = fill(with_word(run.problem, run.slot_id, v.word), backend,
                      Limits(time_limit_s=left, seed=run.seed, abort=run.abort))
        if result.status is FillStatus.FILLED:
            run.settle(word_id, Verdict.VIABLE, "search", result.entries)
        elif result.status is FillStatus.UNFILLABLE:
            run.settle(word_id, Verdict.DEAD_END, "proof")


def _restricted(problem: Problem, slot_id: SlotId, word_ids) -> Problem:
    """The problem with `slot_id`'s domain cut to `word_ids`."""
    mask = np.zeros(len(problem.domains[slot_id]), bool)
    mask[np.asarray(list(word_ids), np.int64)] = True
    mask &= problem.domains[slot_id]
    domains = list(problem.domains)
    domains[slot_id] = mask
    return replace(problem, domains=tuple(domains))


def _configure(engine, seed: int) -> None:
    from xwcp.backends import backtrack

    engine.configure(seed=seed, restart_base=backtrack.RESTART_BASE_FAILS, noise=backtrack.NOISE,
                     score_weight=backtrack.SCORE_WEIGHT)


def _settle_set(run: _Run, ids: list[int], until: float | None) -> None:
    """Settle `ids`: a joint search first, then one guided search per word still pending, in turns."""
    pending = [w for w in ids if run.verdict_by_id[w].verdict is Verdict.UNKNOWN]
    if not pending or run.out_of_time(until):
        return
    share_end = None
    if len(pending) > 1:
        share_end = time.perf_counter() + JOINT_MAX_S
        if until is not None:
            share_end = min(share_end, time.perf_counter() + JOINT_SHARE * max(0.0, until - time.perf_counter()))
    guide = _joint_search(run, pending, share_end if len(pending) > 1 else until)
    pending = [w for w in pending if run.verdict_by_id[w].verdict is Verdict.UNKNOWN]
    if pending:
        _word_by_word(run, pending, until, guide)


def _engine(run: _Run, ids, guide):
    from xwcp import kernel

    engine = kernel.BitSearch(_restricted(run.problem, run.slot_id, ids))
    if engine.is_consistent:
        _configure(engine, run.seed)
        if guide is not None:
            engine.set_guide(guide)
    return engine


def _joint_search(run: _Run, ids: list[int], until: float | None) -> dict[SlotId, int] | None:
    """One search over the slot restricted to `ids`, until its first fill, a proof, or `until`.

    Returns the fill it found (word id per slot) to guide the searches that follow, else None.
    """
    from xwcp import kernel
    from xwcp.backends._common import entries_from_word_ids

    engine = _engine(run, ids, None)
    if not engine.is_consistent:
        for word_id in ids:
            run.settle(word_id, Verdict.DEAD_END, "ac3")
        return None
    k = int(engine.kernel_index[run.slot_id])
    while not run.out_of_time(until):
        slice_s = SLICE_S if until is None else max(0.0, min(SLICE_S, until - time.perf_counter()))
        code = engine.search(slice_s)
        if code == kernel.SOLVED:
            solution = engine.solution_word_ids()
            run.settle(int(engine.solution[k]), Verdict.VIABLE, "search",
                       entries_from_word_ids(run.problem, solution))
            if len(ids) > 1 and not engine.root_remove(run.slot_id, int(engine.solution[k])):
                for word_id in ids:
                    run.settle(word_id, Verdict.DEAD_END, "proof")
            return solution
        if code == kernel.EXHAUSTED:
            for word_id in ids:
                run.settle(word_id, Verdict.DEAD_END, "proof")
            return None
        if code == kernel.NOMEM:
            raise MemoryError("the search's save stack could not grow")
        run.report(len(ids))
    return None


def _word_by_word(run: _Run, ids: list[int], until: float | None, guide) -> None:
    """One search per word (the slot set to it), in passes over the words still pending.

    Each pass gives every pending word twice the time of the pass before (TURN_S first), so
    easy words settle early and hard ones get more time, with no work lost: each search keeps
    its state (and what it learnt) between turns. A fill found for one word guides the value
    choice of every search after it (solution-guided search: the other slots try that fill's
    words first), which helps when the fills for two words differ near the slot only.
    """
    from xwcp import kernel
    from xwcp.backends._common import entries_from_word_ids

    engines: dict[int, object] = {}
    pending = list(ids)
    turn_s = TURN_S
    while pending and not run.out_of_time(until):
        for word_id in list(pending):
            if run.out_of_time(until):
                break
            engine = engines.get(word_id)
            if engine is None:
                engine = engines[word_id] = _engine(run, [word_id], guide)
                if not engine.is_consistent:
                    run.settle(word_id, Verdict.DEAD_END, "ac3")
                    pending.remove(word_id)
                    continue
            turn_end = time.perf_counter() + turn_s
            if until is not None:
                turn_end = min(turn_end, until)
            code = kernel.RUNNING
            while code == kernel.RUNNING and not run.out_of_time(turn_end):
                code = engine.search(max(0.0, min(SLICE_S, turn_end - time.perf_counter())))
                run.report(len(pending))
            if code == kernel.SOLVED:
                guide = engine.solution_word_ids()
                run.settle(word_id, Verdict.VIABLE, "search", entries_from_word_ids(run.problem, guide))
                for other in engines.values():
                    if other.is_consistent:
                        other.set_guide(guide)
            elif code == kernel.EXHAUSTED:
                run.settle(word_id, Verdict.DEAD_END, "proof")
            elif code == kernel.NOMEM:
                raise MemoryError("the search's save stack could not grow")
            else:
                continue
            pending.remove(word_id)
            engines.pop(word_id, None)
        turn_s *= 2
