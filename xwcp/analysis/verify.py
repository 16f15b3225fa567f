"""Batch verification: label candidate words of one slot viable / dead-end / unknown under one total time budget.

`suggest --verify` (and the web builder) ask, for the top words of a slot, whether a full fill
with that word exists. A fresh fill per word with the whole time limit each would cost k times the
limit; here the words are settled together under ONE budget, with our compiled search
(xwcp/engine/_bitsearch.c):

0. **Recent fills.** Every fill a verification finds is kept (per grid layout, RECENT_FILLS);
   a later verification labels a word viable at once when a kept fill has it in the slot and
   still passes `check_fill` on the grid as it is now. So the fills found for one slot's words
   label the words they use in every other slot, and survive keystrokes that agree with them:
   what the web builder asks next is often answered before any search.
1. **Projected enumeration** (`_enumerate`, ENUMERATE). The slot's domain is restricted to the
   candidate set and one search runs over it, going on after each fill: a fill proves the word it
   put in the slot viable (only that slot's word: a candidate that a fill uses in another slot
   proves nothing about this one); the word then leaves the search's root (`BitSearch.root_remove`,
   keeping dom/wdeg weights and restart nogoods: both stay valid when the root only shrinks) and
   the fill becomes the guide (`BitSearch.set_guide`), so the next fill is sought near it. When the
   search is exhausted, every candidate left is proven a dead end at once.
2. **Word by word** beside it: one search per word (the slot set to it), in passes that double
   each word's turn (TURN_S first), every search keeping its state between turns, in the caller's
   order (the page's visible words first); a fill found for one word guides the others. The
   enumeration's choice in the slot can stay on one hard word for long while the words it has not
   tried are easy; these searches give every word its turn. On n cores (the cores this process
   owns, capped: xwcp/runtime/cores.py) n - 1 forked children run them from the enumeration's
   first fill (or after CHILD_DELAY_S), each taking its own share of the words first, under a
   seed of its own, while the parent goes on enumerating; all post their labels on a shared board
   (`_Board`) and the enumeration drops the children's words from its root. One process: the
   enumeration for ENUM_SHARE of the budget, then word by word. Scores play no part in these
   searches (SCORE_WEIGHT).

With ENUMERATE off (the method before, kept for `bench/suggest_labels.py`'s comparison): the joint
search stops at its first fill (at most JOINT_SHARE of the budget, JOINT_MAX_S), then word by
word, on n cores each process taking its n-th of the words first (`_settle_in_two`).

Every search keeps slot provenance (xwcp/engine/_bitsearch.c, "Slot provenance"), so a dead end names the
slots its proof used (`WordViability.proof_slot_ids`): those slots alone, with the word, have no fill,
and the web builder keeps the label on later grids that leave them as they were.

Words the budget did not settle are `unknown`. Progress goes to a callback as words settle.
Backends other than ours (cpsat, sat) verify word by word, each word an equal share of what
is left.

Measured (bench/speed2.py verify, see bench/README.md, "Live verification, second pass"):
Herald 15s, 20 words of 1A all settled in 1.9-2.4x the grid's whole fill command; the themeless
1A settles 16 of 20 in 30 s and all 20 in 52 s. A fill with a given word costs about what a whole
fill costs at a typical seed, so 20 labels are several whole fills; the ways tried to make one
word's fill cheaper from another's (repairs, warm starts, other slot and value orders, SAT) are in
docs/design-notes.md, "Word verification". On empty themelesses (`bench/suggest_labels.py --part open`) a
slot's 40 shown words need 200-600k failures, 20-60 CPU s (the enumeration settles about 1.5x the words per
failure the first-fill joint search did); on open 78-word grids all 40 settle in 0.3-0.7 s.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from xwcp.base.types import FillStatus, SlotId
from xwcp.compile.problem import Problem
from xwcp.model import Bar
from xwcp.runtime.cores import search_processes

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess

    from xwcp.engine.kernel import BitSearch
    from xwcp.words.wordlist import WordList

SLICE_S = 0.05
"""Seconds the kernel runs between budget checks and progress reports."""
TURN_S = 0.1
"""Seconds each pending word's search runs in the first pass of the word-by-word phase (doubling per pass)."""
JOINT_SHARE = 0.25
"""Share of the budget the joint search over all words may use before the word-by-word searches."""
JOINT_MAX_S = 2.0
"""Seconds the joint search may use at most (without a budget too)."""
RECENT_FILLS = 200
"""Fills kept per grid layout for later verifications (a few kB each; checking one is ~0.1 ms)."""
RECENT_LAYOUTS = 8
"""Grid layouts whose recent fills are kept (the web builder edits one or two grids at a time)."""
CHILD_DELAY_S = 0.25
"""Seconds the joint search runs alone before the other processes start (sooner at its first fill).

Started at once, the child searched unguided where the joint search's first fill (found in
tens of ms on the Herald 15s) would have guided it: 0.08 s more CPU per Herald command."""
SCORE_WEIGHT = 0.0
"""Weight of word scores in the searches' value choice: none, as a label needs any fill, not a good one.

`fill` weighs scores (backtrack.SCORE_WEIGHT, 0.05) for quality; that steers every slot toward
high-scored words that fit worse. Stock themeless, the 20 top 1A words, seeds 0-2, work in
failures (load-independent): score weight 0 needs ~136k failures per seed and leaves 1 of 60
searches unsettled at 40k failures, 0.05 ~130k plus 3 unsettled (its tails: POUNDIT >40k
failures at seeds 0 and 1, 0.6-1.7 s at weight 0), and 30% less time over the 60 searches."""


ENUMERATE = True
"""Whether the joint search goes on after each fill (projected enumeration, `_enumerate`) rather than stopping at
its first: each fill labels its word, the word leaves the root and the fill guides the search to the next.

Empty stock themeless and open-3, 12 slots each, 40 shown words, one process, 20 s a slot interleaved with the
first-fill joint search and word by word (load 8-11, so failures count): 0.12 labels per 1k failures against
0.08 on the stock themeless, 0.19 against 0.12 on open-3 (39A all 40 in 12.5 s against 22), but fewer on
some slots (43A 0 against 17: the slot's choice stays on one hard word), hence on two cores the enumeration
in one process and the word-by-word searches in the other. Two processes, 10 s a slot
(bench/results/2026-12-07/labels/, three runs summed): 204 words labelled against 120 on the stock themeless,
482 against 445 on open-3 (mixed: the quietest run favoured the old), 2 against 5 on open-4; in about the
same failures."""
CHILD_ENUMERATES = False
"""On several cores, whether the children enumerate too (each under its own seed) rather than search word by word."""
ENUM_SHARE = 0.5
"""Share of the budget the enumeration takes before the word-by-word searches when one process labels."""

CHILD_LEARN = 0
"""The children's `learn` (BitSearch.configure): 1 learns a nogood at every failure and backjumps, a search
of another kind beside the first process' (a portfolio against the heavy tail); 0 the same kind, another seed.
Stock themeless, 12 top words of 1A one by one at seed 0 (docs/design-notes.md, "Word verification"): learn 1
44.8k failures against 57.6k, but the 40 words of 10 slots under 10 s (bench/suggest_labels.py --part open,
variant 2L) left 378 of 400 unsettled against 384: no clear gain, so the default stays."""


class Viability(Enum):
    """A suggested word's label after verification. The value is the CLI's and the web API's word for it."""

    VIABLE = "viable"
    """A full fill with the word exists (at the current floor and controls)."""
    DEAD_END = "dead-end"
    """Proven: no fill with the word exists."""
    UNKNOWN = "unknown"
    """The time budget ran out before the word was settled."""


class How(Enum):
    """How a word's label was settled. The value is the word the CLI's JSON and the web API give for it."""

    SEARCH = "search"
    """A fill was found for it."""
    RECENT = "recent"
    """A fill an earlier verification found, checked again on this grid."""
    PROOF = "proof"
    """The joint search was exhausted: no fill exists."""
    AC3 = "ac3"
    """No fill even by arc consistency."""
    UNSETTLED = ""
    """Not settled (the label is unknown)."""


@dataclass
class WordVerdict:
    """The label of one candidate word and how it was settled."""

    word: str
    verdict: Viability = Viability.UNKNOWN
    seconds: float = 0.0
    """Seconds from the start of the verification to the moment this word was settled."""
    how: How = How.UNSETTLED
    entries: tuple[str, ...] | None = None
    """For a viable word: a full fill with it (one entry per slot, in slot order)."""
    proof_slot_ids: tuple[SlotId, ...] | None = None
    """For a dead end settled by our search ("proof", or "ac3" at its root): the slots its proof used, ascending.
    Those slots alone, with the word in its slot, have no fill (the letters in their cells, the list and the
    entries the user completed as they are here), so the label holds on any grid that keeps them so
    (xwcp/engine/_bitsearch.c, "Slot provenance"); None when not known."""


@dataclass(frozen=True)
class VerifyProgress:
    """A snapshot of a running verification, passed to the progress callback."""

    settled: int
    total: int
    elapsed_s: float
    pending_in_search: int = 0


@dataclass
class SearchWork:
    """The search work a verification did, in all its processes: failures and nodes (load-independent, for benchmarks)."""

    fails: int = 0
    nodes: int = 0
    processes: int = 1
    """The processes that searched (this one and the children it forked), the most any one phase ran."""


@dataclass
class _Run:
    problem: Problem
    slot_id: SlotId
    seed: int
    start: float
    end: float | None
    progress: Callable[[VerifyProgress], None] | None
    abort: threading.Event | None
    workers: int = 1
    """Processes the verification may use (this one and its forked children)."""
    rank: int = 0
    """This process' row on the shared board: 0 the caller's process, 1.. the forked children."""
    learn: int = 0
    verdict_by_id: dict[int, WordVerdict] = field(default_factory=dict)
    on_settle: Callable[[WordVerdict], None] | None = None
    """Called with each word's verdict the moment it is settled (the web streams labels from it)."""
    work: SearchWork = field(default_factory=SearchWork)
    """This process' search work so far."""
    work_cell: NDArray[np.int64] | None = None
    """Where this process posts its work for the caller's process to add up (a row of `_Board.work`), if several run."""

    def search(self, engine: BitSearch, slice_s: float) -> int:
        """`engine.search(slice_s)`, counting its failures and nodes into `work`."""
        before = engine.stats
        code = engine.search(slice_s)
        after = engine.stats
        self.work.fails += after["fails"] - before["fails"]
        self.work.nodes += after["nodes"] - before["nodes"]
        if self.work_cell is not None:
            self.work_cell[:] = (self.work.fails, self.work.nodes)
        return code

    def now(self) -> float:
        return time.perf_counter() - self.start

    def out_of_time(self, until: float | None) -> bool:
        if self.abort is not None and self.abort.is_set():
            return True
        t = time.perf_counter()
        return until is not None and t >= until

    def settle(
        self,
        word_id: int,
        verdict: Viability,
        how: How,
        entries: tuple[str, ...] | None = None,
        proof_slot_ids: list[SlotId] | None = None,
    ) -> None:
        v = self.verdict_by_id[word_id]
        if v.verdict is not Viability.UNKNOWN:
            return
        v.verdict, v.how, v.seconds, v.entries = verdict, how, round(self.now(), 4), entries
        v.proof_slot_ids = None if proof_slot_ids is None else tuple(proof_slot_ids)
        if self.on_settle is not None:
            if entries is not None:
                _check(self.problem, entries)  # a streamed label is as sure as a returned one
            self.on_settle(v)
        self.report(0)

    def report(self, pending: int) -> None:
        if self.progress is not None:
            settled = sum(v.verdict is not Viability.UNKNOWN for v in self.verdict_by_id.values())
            self.progress(VerifyProgress(settled, len(self.verdict_by_id), self.now(), pending))


def verify_words(
    problem: Problem,
    slot_id: SlotId,
    words: list[str],
    *,
    backend: str = "auto",
    time_limit_s: float | None = None,
    seed: int = 0,
    progress: Callable[[VerifyProgress], None] | None = None,
    abort: threading.Event | None = None,
    on_settle: Callable[[WordVerdict], None] | None = None,
    work: SearchWork | None = None,
    max_processes: int | None = None,
) -> list[WordVerdict]:
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
        on_settle: called with each WordVerdict as it is settled (from the thread that called
            verify_words), its fill (if any) checked first.
        work: a SearchWork the search work of every process is added to (benchmarks count it).
        max_processes: the most processes to label in (this one and forked children); None: the cores
            this process owns, capped by XWCP_MAX_PROCESSES (xwcp/runtime/cores.py).

    Returns:
        One WordVerdict per word, in the order given. Every fill in them has passed `check_fill`.
    """
    if abort is None:  # a stop signal to the command (xwcp.runtime.signals) ends the verification
        from xwcp.runtime.signals import STOP

        abort = STOP
    start = time.perf_counter()
    end = None if time_limit_s is None else start + time_limit_s
    run = _Run(
        problem,
        slot_id,
        seed,
        start,
        end,
        progress,
        abort,
        workers=search_processes(max_processes),
        on_settle=on_settle,
        work=SearchWork() if work is None else work,
    )
    verdicts = [WordVerdict(w) for w in words]
    kernel_ok = (
        backend in ("auto", "backtrack")
        and slot_id not in problem.fixed_text_by_slot
        and not problem.controls.has_pair_rules  # the kernel knows no pair rule: word by word, through backends.fill
    )
    if kernel_ok:
        from xwcp.backends import backtrack
        from xwcp.engine.wide import kernel_takes

        kernel_ok = backtrack.available() and kernel_takes(problem)  # else word by word (auto: CP-SAT)
    if kernel_ok:  # keyed by word id (the kernel's value)
        for v in verdicts:
            word_id = problem.words.word_id(v.word)
            if word_id is None or len(v.word) != problem.slots[slot_id].length:
                raise ValueError(f"{v.word!r} is not a listed word for {problem.slots[slot_id].name}")
            run.verdict_by_id[word_id] = v
    else:  # keyed by position: a slot the user filled may hold a word that is not listed
        run.verdict_by_id = dict(enumerate(verdicts))
    keys = list(run.verdict_by_id)  # the caller's order (the page's rank): the searches take the first first
    if problem.conflicts:
        for key in keys:
            run.settle(key, Viability.DEAD_END, How.AC3)
    else:
        _settle_from_recent(run)
        keys = [key for key in keys if run.verdict_by_id[key].verdict is Viability.UNKNOWN]
        if kernel_ok:
            _settle_set(run, keys, end)
        else:
            _one_by_one(run, keys, backend)
    for v in verdicts:
        if v.entries is not None:
            _check(problem, v.entries)
    _remember(problem, [v.entries for v in verdicts if v.entries is not None])
    return verdicts


_LayoutKey = tuple[int, int, tuple[bool, ...], frozenset[Bar], tuple[tuple[int, str], ...]]
"""A grid layout (`_layout_key`): width, height, blocks, bars, rebus cells."""

_recent_lock = threading.Lock()
_recent_by_layout: OrderedDict[_LayoutKey, OrderedDict[tuple[str, ...], None]] = OrderedDict()
"""Fills verification found lately (newest last), by grid layout (`_layout_key`): a fill found
for one slot's word labels any word it has in another slot viable, once `check_fill` passes it
on the grid as it is now (so a letter typed since, a ban or a floor raised simply rule it out)."""


def _layout_key(problem: Problem) -> _LayoutKey:
    """The grid's size, blocks, bars and rebus cells: what makes its slots (letters typed since do not)."""
    from xwcp.model import BLOCK

    grid = problem.grid
    return (
        grid.width,
        grid.height,
        tuple(cell == BLOCK for cell in grid.cells),
        grid.bars,
        tuple((cell, text) for cell, text in enumerate(grid.cells) if len(text) > 1),
    )


def _settle_from_recent(run: _Run) -> None:
    """Label viable every pending word that a recent fill (still valid here) has in the slot."""
    from xwcp.engine.result import check_fill

    with _recent_lock:
        fills = list(_recent_by_layout.get(_layout_key(run.problem), ()))
    if not fills:
        return
    pending_by_word = {v.word: key for key, v in run.verdict_by_id.items() if v.verdict is Viability.UNKNOWN}
    for entries in reversed(fills):
        key = pending_by_word.get(entries[run.slot_id]) if len(entries) == len(run.problem.slots) else None
        if key is not None and not check_fill(run.problem, entries):
            run.settle(key, Viability.VIABLE, How.RECENT, entries)
            del pending_by_word[entries[run.slot_id]]


def _remember(problem: Problem, fills: list[tuple[str, ...]]) -> None:
    """Keep `fills` for later verifications on the same layout (RECENT_FILLS per layout, RECENT_LAYOUTS layouts)."""
    if not fills:
        return
    key = _layout_key(problem)
    with _recent_lock:
        kept = _recent_by_layout.pop(key, None) or OrderedDict()
        for entries in fills:
            kept.pop(entries, None)
            kept[entries] = None
        while len(kept) > RECENT_FILLS:
            kept.popitem(last=False)
        _recent_by_layout[key] = kept
        while len(_recent_by_layout) > RECENT_LAYOUTS:
            _recent_by_layout.popitem(last=False)


def _check(problem: Problem, entries: tuple[str, ...]) -> None:
    from xwcp.engine.result import check_fill

    violations = check_fill(problem, entries)
    if violations:
        raise RuntimeError(f"verification produced an invalid fill: {'; '.join(violations[:3])}")


def _one_by_one(run: _Run, ids: list[int], backend: str) -> None:
    """Verify word by word with any backend; each word gets an equal share of what is left.

    `ids` are keys of `run.verdict_by_id` (positions in the caller's list here)."""
    from xwcp.backends import fill
    from xwcp.compile.problem import with_word
    from xwcp.engine.result import Limits

    for i, word_id in enumerate(ids):
        if run.out_of_time(run.end):
            break
        left = None if run.end is None else max(0.01, (run.end - time.perf_counter()) / (len(ids) - i))
        v = run.verdict_by_id[word_id]
        result = fill(
            with_word(run.problem, run.slot_id, v.word),
            backend,
            Limits(time_limit_s=left, seed=run.seed, abort=run.abort),
        )
        if result.status is FillStatus.FILLED:
            run.settle(word_id, Viability.VIABLE, How.SEARCH, result.entries)
        elif result.status is FillStatus.UNFILLABLE:
            run.settle(word_id, Viability.DEAD_END, How.PROOF)


def _restricted(problem: Problem, slot_id: SlotId, word_ids: Iterable[int]) -> Problem:
    """The problem with `slot_id`'s domain cut to `word_ids`."""
    mask = np.zeros(len(problem.domains[slot_id]), bool)
    mask[np.asarray(list(word_ids), np.int64)] = True
    mask &= problem.domains[slot_id]
    domains = list(problem.domains)
    domains[slot_id] = mask
    return replace(problem, domains=tuple(domains))


def _configure(engine: BitSearch, seed: int, learn: int = 0) -> None:
    from xwcp.backends import backtrack

    engine.configure(
        seed=seed,
        restart_base=backtrack.RESTART_BASE_FAILS,
        noise=backtrack.NOISE,
        score_weight=SCORE_WEIGHT,
        learn=learn,
    )


def _settle_set(run: _Run, ids: list[int], until: float | None) -> None:
    """Settle `ids`: a joint search first, then one search per word still pending, in turns.

    On several cores the other processes start on the word-by-word searches at once, while this
    one runs the joint search (`_settle_in_two`)."""
    pending = [w for w in ids if run.verdict_by_id[w].verdict is Viability.UNKNOWN]
    if not pending or run.out_of_time(until):
        return
    if len(pending) == 1:
        _joint_search(run, pending, until)
        return
    share_end = time.perf_counter() + JOINT_MAX_S
    if until is not None:
        share_end = min(share_end, time.perf_counter() + JOINT_SHARE * max(0.0, until - time.perf_counter()))
    if ENUMERATE:
        _settle_by_enumeration(run, pending, until)
        return
    if run.workers > 1:
        _settle_in_two(run, pending, until, share_end)
        return
    guide, _ = _joint_search(run, pending, share_end)
    pending = [w for w in pending if run.verdict_by_id[w].verdict is Viability.UNKNOWN]
    if pending:
        _word_by_word(run, pending, until, guide)


class _Board:
    """The labels every labelling process sees at once (an anonymous shared mapping, made before the forks).

    One row per process (0 the caller's, 1.. the forked children), so no two processes ever write
    the same memory. Per process and word (by the word's index in `ids`): a status (0 pending, else
    1 + the Viability's index in _SHARED_VERDICTS), how it was settled, the seconds, and per problem
    slot: for a viable word its fill (word ids, -1 for slots the user filled), for a dead end whether
    its proof used the slot (1 or 0; -1 throughout when not known). A writer stores those first and
    the status last, so a reader that sees a status sees the rest. A word is settled when any
    process' row says so.
    """

    def __init__(self, ids: list[int], n_slots: int, n_processes: int = 2):
        import mmap

        n, rows = len(ids), max(1, n_processes)
        self.index_by_id = {word_id: i for i, word_id in enumerate(ids)}
        per_row = n * (16 + 4 * n_slots)
        work_at = (rows * per_row + 7) // 8 * 8
        self._memory = mmap.mmap(-1, work_at + 16 * rows)
        self.work = np.frombuffer(self._memory, np.int64, 2 * rows, work_at).reshape(rows, 2)
        """Per process: failures and nodes so far."""
        self.status = np.frombuffer(self._memory, np.int32, rows * n, 0).reshape(rows, n)
        self.how = np.frombuffer(self._memory, np.int32, rows * n, 4 * rows * n).reshape(rows, n)
        self.seconds = np.frombuffer(self._memory, np.float64, rows * n, 8 * rows * n).reshape(rows, n)
        self.fill = np.frombuffer(self._memory, np.int32, rows * n * n_slots, 16 * rows * n).reshape(rows, n, n_slots)

    @property
    def n_processes(self) -> int:
        return int(self.status.shape[0])

    def is_settled(self, word_id: int) -> bool:
        return bool(self.status[:, self.index_by_id[word_id]].any())

    def publish(self, run: _Run, word_id: int, solution: dict[SlotId, int] | None = None) -> None:
        """Post this process' label of `word_id` (if settled and not posted yet) in its own row, with its fill.

        `solution` is the fill as word ids by slot (as the search gives it); without it the ids
        are looked up from the entries (the first lookup of a length builds its index: slow)."""
        i = self.index_by_id[word_id]
        row = run.rank
        v = run.verdict_by_id[word_id]
        if self.status[row, i] or v.verdict is Viability.UNKNOWN:
            return
        if solution is not None and solution.get(run.slot_id) != word_id:
            solution = None  # another word's fill
        fill = self.fill[row, i]
        if v.entries is not None:
            words = run.problem.words
            fill[:] = [
                -1
                if slot.id in run.problem.fixed_text_by_slot
                else solution[slot.id]
                if solution is not None
                else _listed_id(words, v.entries[slot.id])
                for slot in run.problem.slots
            ]
        elif v.verdict is Viability.DEAD_END:
            used = v.proof_slot_ids
            fill[:] = -1 if used is None else 0
            if used:
                fill[list(used)] = 1
        self.how[row, i] = _HOWS.index(v.how)
        self.seconds[row, i] = v.seconds
        self.status[row, i] = 1 + _SHARED_VERDICTS.index(v.verdict)

    def adopt(self, run: _Run) -> dict[SlotId, int] | None:
        """Take into `run` every label another process posted that `run` does not have yet.

        Returns the last fill adopted (word id by slot, to guide the searches), or None."""
        from xwcp.backends._common import entries_from_word_ids

        solution = None
        for word_id, i in self.index_by_id.items():
            v = run.verdict_by_id[word_id]
            if v.verdict is not Viability.UNKNOWN:
                continue
            posted = np.flatnonzero(self.status[:, i])
            if not len(posted):
                continue
            row = int(posted[0])
            verdict = _SHARED_VERDICTS[int(self.status[row, i]) - 1]
            fill = self.fill[row, i]
            entries = None
            if verdict is Viability.VIABLE:
                solution = {slot_id: int(w) for slot_id, w in enumerate(fill) if w >= 0}
                entries = entries_from_word_ids(run.problem, solution)
            elif len(fill) and fill[0] >= 0:
                v.proof_slot_ids = tuple(int(slot_id) for slot_id in np.flatnonzero(fill == 1))
            v.verdict, v.how = verdict, _HOWS[int(self.how[row, i])]
            v.seconds, v.entries = float(self.seconds[row, i]), entries
            if run.on_settle is not None:
                if entries is not None:
                    _check(run.problem, entries)
                run.on_settle(v)
            run.report(0)
        return solution


def _listed_id(words: WordList, text: str) -> int:
    """The word id of `text`, an entry of a fill the search found (so a listed word)."""
    word_id = words.word_id(text)
    if word_id is None:
        raise ValueError(f"{text!r} in a verified fill is not a listed word")
    return word_id


_SHARED_VERDICTS = (Viability.VIABLE, Viability.DEAD_END)
_HOWS = tuple(How)


def _shares(ids: list[int], n_processes: int) -> list[list[int]]:
    """Each process' own words first, then the rest: process k takes every `n_processes`-th word from the k-th.

    Every list holds all of `ids`: a process that has settled its own share helps with the others'."""
    lists = []
    for rank in range(n_processes):
        own = ids[rank::n_processes]
        taken = set(own)
        lists.append(own + [w for w in ids if w not in taken])
    return lists


def _settle_in_two(run: _Run, ids: list[int], until: float | None, share_end: float | None) -> None:
    """`_settle_set` on several cores: once the joint search has found its first fill or run CHILD_DELAY_S,
    forked children search word by word (guided by that fill), while this process goes on with
    the joint search, then joins the word-by-word phase.

    Each of the `run.workers` processes takes its share of the words first (process k every
    `workers`-th word from the k-th, child k under seed + k) and then helps with the others'; all
    post what they settle on a shared board (`_Board`) and skip what another settled. So the hardest
    words end up searched several times in parallel with different seeds (one search's heavy tail is
    cut by another), and no core idles: with a fixed split, the children waited for the joint search
    and idled once their share was done. Fork, as in the auto race: the children inherit the compiled
    problem.
    """
    alone_end = time.perf_counter() + CHILD_DELAY_S
    guide, engine = _joint_search(run, ids, alone_end if share_end is None else min(share_end, alone_end))
    ids = [w for w in ids if run.verdict_by_id[w].verdict is Viability.UNKNOWN]
    if not ids or run.out_of_time(until):
        return
    n_processes = min(run.workers, len(ids))  # a process per word at most: each has a word of its own first
    shares = _shares(ids, n_processes)
    board = _Board(ids, len(run.problem.slots), n_processes)

    def child(rank: int) -> None:
        _as_child(run, board, rank)
        _word_by_word(run, shares[rank], until, guide, board, len(ids[rank::n_processes]))

    processes: list[BaseProcess] = []
    try:
        _fork_children(processes, range(1, n_processes), child)
        if engine is not None and len(ids) > 1:  # no fill nor proof yet: go on with the joint search
            guide, _ = _joint_search(run, ids, share_end, engine)
        for word_id in ids:
            board.publish(run, word_id, guide)
        board.adopt(run)
        pending = [w for w in shares[0] if run.verdict_by_id[w].verdict is Viability.UNKNOWN]
        n_own = sum(1 for w in ids[0::n_processes] if run.verdict_by_id[w].verdict is Viability.UNKNOWN)
        if pending:
            _word_by_word(run, pending, until, guide, board, n_own)
    finally:
        _end_children(run, processes, board)


def _fork_children(processes: list[BaseProcess], ranks: range, child: Callable[[int], None]) -> None:
    """Start a forked process per rank of `ranks` running `child(rank)` (fork, as in the auto race: a child
    inherits the compiled problem). Each is added to `processes` as it starts, so the caller's `_end_children`
    stops the ones started before a failure."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    for rank in ranks:
        process = ctx.Process(target=child, args=(rank,), daemon=True)
        process.start()
        processes.append(process)


def _as_child(run: _Run, board: _Board, rank: int) -> None:
    """Make `run` the forked child number `rank`'s: signals left to the parent, no progress of its own, a seed
    of its own (the caller's + rank), its own learning, and its work counted in its row of the shared board."""
    from xwcp.runtime.signals import forget_signals_in_child

    forget_signals_in_child()  # Ctrl-C is the parent's; SIGTERM/SIGHUP and the parent's death end us
    run.progress = run.on_settle = None
    run.seed += rank
    run.rank = rank
    run.learn = CHILD_LEARN
    run.work, run.work_cell = SearchWork(), board.work[rank]


def _end_children(run: _Run, processes: list[BaseProcess], board: _Board) -> None:
    """Stop the forked children, take the labels they posted, and add their work to `run`'s."""
    for process in processes:
        if process.is_alive():
            process.kill()
    for process in processes:
        process.join(timeout=5)
    board.adopt(run)
    run.work.processes = max(run.work.processes, 1 + len(processes))
    for rank in range(1, board.n_processes):
        run.work.fails += int(board.work[rank][0])
        run.work.nodes += int(board.work[rank][1])


def _settle_by_enumeration(run: _Run, ids: list[int], until: float | None) -> None:
    """`_settle_set` by projected enumeration (`_enumerate`) and, for the words it has not reached, word by word.

    On several cores, once the enumeration has found its first fill or run CHILD_DELAY_S, forked
    children search word by word, guided by the fills posted, while this process goes on enumerating;
    all post on a shared board (`_Board`) and the enumeration drops from its root every word another
    process settles. Child k (of n - 1) takes every (n - 1)-th pending word from the k-th first, in
    the caller's order (the page's visible words first), under seed + k, then helps with the others'
    words (one child: all of them, in the caller's order). The processes are a portfolio: the
    enumeration settles the words whose fills lie near those found already, the word-by-word searches
    the words it does not reach (its choice in the slot can stay on one hard word). One process:
    the enumeration for ENUM_SHARE of the budget, then word by word."""
    if run.workers < 2:
        share_end = None if until is None else time.perf_counter() + ENUM_SHARE * max(0.0, until - time.perf_counter())
        guide, _ = _enumerate(run, ids, share_end)
        pending = [w for w in ids if run.verdict_by_id[w].verdict is Viability.UNKNOWN]
        if pending:
            _word_by_word(run, pending, until, guide)
        return
    alone_end = time.perf_counter() + CHILD_DELAY_S
    guide, engine = _enumerate(run, ids, alone_end if until is None else min(until, alone_end), first_only=True)
    ids = [w for w in ids if run.verdict_by_id[w].verdict is Viability.UNKNOWN]
    if not ids or engine is None or run.out_of_time(until):
        return
    n_children = min(run.workers - 1, len(ids))  # a child per word at most: each has a word of its own first
    board = _Board(ids, len(run.problem.slots), n_children + 1)
    for word_id in ids:
        board.publish(run, word_id, guide)
    shares = _shares(ids, n_children)

    def child(rank: int) -> None:
        _as_child(run, board, rank)
        if CHILD_ENUMERATES:
            _enumerate(run, ids, until, None, board, guide=guide)
        else:
            _word_by_word(run, shares[rank - 1], until, guide, board, len(ids[rank - 1 :: n_children]))

    processes: list[BaseProcess] = []
    try:
        _fork_children(processes, range(1, n_children + 1), child)
        _enumerate(run, ids, until, engine, board, guide=guide)
    finally:
        _end_children(run, processes, board)


def _enumerate(
    run: _Run,
    ids: list[int],
    until: float | None,
    engine: BitSearch | None = None,
    board: _Board | None = None,
    *,
    guide: dict[SlotId, int] | None = None,
    first_only: bool = False,
) -> tuple[dict[SlotId, int] | None, BitSearch | None]:
    """Projected enumeration: one search over the slot restricted to the pending `ids`, going on after each fill.

    A fill labels the word it put in the slot viable; the word then leaves the search's root
    (`BitSearch.root_remove`, which keeps the failure weights and nogoods learnt: both stay valid
    when the root only shrinks) and the fill becomes the guide, so the next fill is sought near it
    (the other slots try its words first). When the search is exhausted, every word still in the
    root is a dead end, with the slots the proof used. With a `board`, labels are posted as they
    come and the other processes' labels are adopted and their words dropped from the root too.
    `first_only`: stop after the first fill (the engine is returned to go on with).

    Returns (the last fill found, word id per slot, or None; the engine when words are pending
    and the search can go on, else None). Pass that engine back in to go on with the same search.
    """
    from xwcp.backends._common import entries_from_word_ids
    from xwcp.engine import kernel

    if engine is None:
        engine = _engine(run, ids, guide)
        if not engine.is_consistent:
            for word_id in ids:
                run.settle(word_id, Viability.DEAD_END, How.AC3, proof_slot_ids=engine.used_slot_ids())
                _post(board, run, word_id)
            return None, None
    k = int(engine.kernel_index[run.slot_id])
    removed: set[int] = set()

    def settle_rest() -> None:
        used = engine.used_slot_ids()
        for word_id in ids:
            run.settle(word_id, Viability.DEAD_END, How.PROOF, proof_slot_ids=used)
            _post(board, run, word_id)

    while True:
        if board is not None:
            adopted = board.adopt(run)
            if adopted is not None and guide is None:
                guide = adopted
                engine.set_guide(guide)
        for word_id in ids:
            if word_id not in removed and run.verdict_by_id[word_id].verdict is not Viability.UNKNOWN:
                removed.add(word_id)
                if not engine.root_remove(run.slot_id, word_id):
                    settle_rest()
                    return guide, None
        if len(removed) == len(ids):
            return guide, None
        if run.out_of_time(until):
            return guide, engine
        slice_s = SLICE_S if until is None else max(0.0, min(SLICE_S, until - time.perf_counter()))
        code = run.search(engine, slice_s)
        if code == kernel.SOLVED:
            guide = engine.solution_word_ids()
            word_id = int(engine.solution[k])
            run.settle(word_id, Viability.VIABLE, How.SEARCH, entries_from_word_ids(run.problem, guide))
            _post(board, run, word_id, guide)
            engine.set_guide(guide)
            removed.add(word_id)
            if not engine.root_remove(run.slot_id, word_id):
                settle_rest()
                return guide, None
            if first_only:
                return guide, engine
        elif code == kernel.EXHAUSTED:
            settle_rest()
            return guide, None
        elif code == kernel.NOMEM:
            raise MemoryError("the search's save stack could not grow")
        run.report(len(ids) - len(removed))


def _engine(run: _Run, ids: list[int], guide: dict[SlotId, int] | None) -> BitSearch:
    from xwcp.engine import kernel

    engine = kernel.BitSearch(_restricted(run.problem, run.slot_id, ids), track_slots=True)
    if engine.is_consistent:
        _configure(engine, run.seed, run.learn)
        if guide is not None:
            engine.set_guide(guide)
    return engine


def _joint_search(
    run: _Run, ids: list[int], until: float | None, engine: BitSearch | None = None
) -> tuple[dict[SlotId, int] | None, BitSearch | None]:
    """One search over the slot restricted to `ids`, until its first fill, a proof, or `until`.

    Returns (the fill it found, word id per slot, to guide the searches that follow, or None;
    the engine to go on with when `until` came first, else None). Pass that engine back in to
    go on with the same search.
    """
    from xwcp.backends._common import entries_from_word_ids
    from xwcp.engine import kernel

    if engine is None:
        engine = _engine(run, ids, None)
        if not engine.is_consistent:
            for word_id in ids:
                run.settle(word_id, Viability.DEAD_END, How.AC3, proof_slot_ids=engine.used_slot_ids())
            return None, None
    k = int(engine.kernel_index[run.slot_id])
    while not run.out_of_time(until):
        slice_s = SLICE_S if until is None else max(0.0, min(SLICE_S, until - time.perf_counter()))
        code = run.search(engine, slice_s)
        if code == kernel.SOLVED:
            solution = engine.solution_word_ids()
            run.settle(
                int(engine.solution[k]), Viability.VIABLE, How.SEARCH, entries_from_word_ids(run.problem, solution)
            )
            if len(ids) > 1 and not engine.root_remove(run.slot_id, int(engine.solution[k])):
                for word_id in ids:
                    run.settle(word_id, Viability.DEAD_END, How.PROOF, proof_slot_ids=engine.used_slot_ids())
            return solution, None
        if code == kernel.EXHAUSTED:
            for word_id in ids:
                run.settle(word_id, Viability.DEAD_END, How.PROOF, proof_slot_ids=engine.used_slot_ids())
            return None, None
        if code == kernel.NOMEM:
            raise MemoryError("the search's save stack could not grow")
        run.report(len(ids))
    return None, engine


def _word_by_word(
    run: _Run,
    ids: list[int],
    until: float | None,
    guide: dict[SlotId, int] | None,
    board: _Board | None = None,
    n_first: int | None = None,
) -> None:
    """One search per word (the slot set to it), in passes over the words still pending.

    Each pass gives every pending word twice the time of the pass before (TURN_S first), so
    easy words settle early and hard ones get more time, with no work lost: each search keeps
    its state (and what it learnt) between turns. A fill found for one word guides the value
    choice of every search after it (solution-guided search: the other slots try that fill's
    words first), which helps when the fills for two words differ near the slot only (measured:
    a gain at some seeds, none at others; see the module docstring).

    With a `board` (several processes), the first `n_first` of `ids` are this process' own: the
    others get turns only once every own word is settled (taken from the far end of the list,
    work stealing), and words another process settled are taken from the board and skipped.
    """
    from xwcp.backends._common import entries_from_word_ids
    from xwcp.engine import kernel

    engines: dict[int, BitSearch] = {}
    pending = list(ids)
    own = set(ids if n_first is None else ids[:n_first])
    turn_s = TURN_S
    while pending and not run.out_of_time(until):
        if board is not None:
            adopted = board.adopt(run)
            if adopted is not None:  # another process' latest fill guides ours, as our own do
                guide = adopted
                for searching in engines.values():
                    if searching.is_consistent:
                        searching.set_guide(guide)
            pending = [w for w in pending if run.verdict_by_id[w].verdict is Viability.UNKNOWN]
            for word_id in [w for w in engines if w not in pending]:
                engines.pop(word_id)
            if not any(w in own for w in pending) and pending:
                own = set(pending)  # own share settled: help with the others', from the far end of the
                pending.reverse()  # list (its owners go from the front), so they meet rather than overlap
        for word_id in [w for w in pending if w in own]:
            if run.out_of_time(until):
                break
            if board is not None and board.is_settled(word_id):
                continue
            engine = engines.get(word_id)
            if engine is None:
                engine = engines[word_id] = _engine(run, [word_id], guide)
                if not engine.is_consistent:
                    run.settle(word_id, Viability.DEAD_END, How.AC3, proof_slot_ids=engine.used_slot_ids())
                    _post(board, run, word_id)
                    pending.remove(word_id)
                    continue
            turn_end = time.perf_counter() + turn_s
            if until is not None:
                turn_end = min(turn_end, until)
            code = kernel.RUNNING
            while code == kernel.RUNNING and not run.out_of_time(turn_end):
                code = run.search(engine, max(0.0, min(SLICE_S, turn_end - time.perf_counter())))
                run.report(len(pending))
                if board is not None and board.is_settled(word_id):
                    break
            if code == kernel.SOLVED:
                guide = engine.solution_word_ids()
                run.settle(word_id, Viability.VIABLE, How.SEARCH, entries_from_word_ids(run.problem, guide))
                for other in engines.values():
                    if other.is_consistent:
                        other.set_guide(guide)
            elif code == kernel.EXHAUSTED:
                run.settle(word_id, Viability.DEAD_END, How.PROOF, proof_slot_ids=engine.used_slot_ids())
            elif code == kernel.NOMEM:
                raise MemoryError("the search's save stack could not grow")
            else:
                continue
            _post(board, run, word_id, guide if code == kernel.SOLVED else None)
            pending.remove(word_id)
            engines.pop(word_id, None)
        turn_s *= 2


def _post(board: _Board | None, run: _Run, word_id: int, solution: dict[SlotId, int] | None = None) -> None:
    if board is not None:
        board.publish(run, word_id, solution)
