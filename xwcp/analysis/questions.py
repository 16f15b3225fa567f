"""Questions a constructor asks of a partly filled grid, answered from arc-consistent domains.

Which words still fit each slot without an immediate dead end (ranked by how many options they
leave their crossings, then by score), how many letters each cell can still take (the heat
map), whether the grid can be filled, which open slot is tightest, which letters are forced,
and whether a suggested word can still lead to a full fill (verified by a solver).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from xwcp.analysis.reports import (
    CheckReport,
    Consistency,
    DomainsReport,
    Dropped,
    ForcedLetter,
    HeatmapReport,
    Label,
    PairHeat,
    Proof,
    RankedWord,
    SlotInfo,
    SlotWords,
    SolverRun,
    SuggestCounts,
    SuggestedWord,
    SuggestReport,
    UnlistedEntry,
    Verdict,
    Wipeout,
)
from xwcp.analysis.verify import VerifyProgress, Viability
from xwcp.base.errors import InputError
from xwcp.base.types import Direction, FillStatus, SlotId
from xwcp.compile.problem import Problem, with_word  # noqa: F401 - with_word: its older home
from xwcp.engine.ac3 import Propagation, propagate
from xwcp.engine.result import Limits, fill_grid
from xwcp.model import BLOCK, EMPTY, Slot, grid_lines, written_cells
from xwcp.model.entries import pair_letters
from xwcp.model.letters import letter_contents
from xwcp.search.core import CoreReport

if TYPE_CHECKING:
    import threading

    from xwcp.engine.kernel import BitSearch
    from xwcp.engine.result import FillResult

ExplainCore = Callable[[CheckReport, Problem, "FillResult | None"], "CoreReport | None"]
"""`explain_core(the report without its core, problem, the search's FillResult or None)`: the core, or None."""

MIN_SCORE_KEY, SCORE_KEY_BITS = -32768, 16
"""Lowest int16 score: scores minus this are 0..65535 (16 bits) inside the ranking key."""
FIT_KEY_BITS = 24
"""Bits of the fit (a mean log10 of at most about 5.5, in millionths: under 2**23) inside the ranking key."""
ID_KEY_BITS = 23
"""Bits of the word id (a length bucket holds well under 8 million words) inside the ranking key."""


def find_slot(problem: Problem, name: str) -> Slot:
    """The slot called `name` (e.g. 12A). Raises InputError listing the valid ids when there is none."""
    slot = problem.slot_by_name(name)
    if slot is None:
        names = ", ".join(s.name for s in sorted(problem.slots, key=lambda s: (s.direction.value, s.number)))
        raise InputError(f"unknown slot {name!r}; this grid's slots are: {names}")
    return slot


def rank_words(
    problem: Problem, prop: Propagation, slot_id: SlotId, k: int | None = None, by: str = "score"
) -> list[RankedWord]:
    """The slot's live (arc-consistent) words, best first.

    `by="score"`: highest score first, the crossing fit breaking ties; `by="fit"`: by the mean
    log10 of the options each word leaves its open crossings, then score.

    Returns:
        Each word with its score and fit (the mean log10 of crossing options; 0 without open crossings).
    """
    if slot_id in problem.fixed_text_by_slot:
        text = problem.fixed_text_by_slot[slot_id]
        return [RankedWord(text, problem.words.score(text), 0.0)]
    return ranked_words(problem, slot_id, *ranked_ids(problem, prop, slot_id, k, by))


def ranked_ids(
    problem: Problem, prop: Propagation, slot_id: SlotId, k: int | None = None, by: str = "score"
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """`rank_words` as arrays: the word ids of an open slot's live words, best first (the top `k`), with their
    scores and fits (in millionths)."""
    slot = problem.slots[slot_id]
    bucket = problem.words.bucket(slot.length)
    ids = np.flatnonzero(prop.domains[slot_id])
    if len(ids) == 0:
        return ids, ids, ids
    scores = np.asarray(bucket.scores[ids], dtype=np.int64)
    if by == "score" and k is not None and k < len(ids):
        # the top k by score are among the words scored at least the k-th best score: rank only those
        kth = _kth_largest(scores, k)
        keep = np.flatnonzero(scores >= kth)
        ids, scores = ids[keep], scores[keep]
    letters = bucket.letters[ids]
    fit = np.zeros(len(ids))
    n_open = 0
    for pos, at_pos in enumerate(problem.partners[slot_id]):
        for t, t_pos in at_pos:
            if t in problem.fixed_text_by_slot:
                continue
            options = prop.counts_by_slot[t][t_pos]
            # K logarithms (one per letter), then one gather per word: the same values as a log10 per word, far fewer
            fit += np.log10(np.maximum(options, 1))[letters[:, pos]]
            n_open += 1
    if n_open:
        fit /= n_open
    fit_key = np.rint(fit * 1e6).astype(np.int64)  # np.round(fit, 6) compares as these integers do
    if by == "score":
        primary, secondary, secondary_bits = scores - MIN_SCORE_KEY, fit_key, FIT_KEY_BITS
    else:
        primary, secondary, secondary_bits = fit_key, scores - MIN_SCORE_KEY, SCORE_KEY_BITS
    # one int64 key orders (primary desc, secondary desc, word id asc) as a lexsort would; only the top k are sorted
    key = (primary << (secondary_bits + ID_KEY_BITS)) | (secondary << ID_KEY_BITS) | ((1 << ID_KEY_BITS) - 1 - ids)
    if k is not None and k < len(key):
        top = np.argpartition(-key, k - 1)[:k]
        order = top[np.argsort(-key[top], kind="stable")]
    else:
        order = np.argsort(-key, kind="stable")
    return ids[order], scores[order], fit_key[order]


def ranked_words(
    problem: Problem, slot_id: SlotId, ids: NDArray[np.int64], scores: NDArray[np.int64], fit_keys: NDArray[np.int64]
) -> list[RankedWord]:
    """The `rank_words` answers (word, score, fit) of word ids of a slot's length, in the order given."""
    length = problem.slots[slot_id].length
    bucket = problem.words.bucket(length)
    alphabet = problem.alphabet
    if alphabet.is_ascii:
        spelled = (bucket.letters[ids] + 65).astype(np.uint8).tobytes().decode("ascii")
    else:
        spelled = alphabet.decode(
            np.ascontiguousarray(bucket.letters[ids], ">u2" if alphabet.is_wide else np.uint8).tobytes()
        )
    return [
        RankedWord(spelled[n * length : (n + 1) * length], score, round(fit / 1e6, 3))
        for n, (score, fit) in enumerate(zip(scores.tolist(), fit_keys.tolist()))
    ]


def _kth_largest(values: NDArray[np.int64], k: int) -> int:
    """The k-th largest of `values` (whole numbers; 1 <= k <= len): a histogram when they span a small
    range, as scores do (np.partition crawls on their many ties)."""
    lo, hi = int(values.min()), int(values.max())
    if hi - lo > 4096:
        return int(np.sort(values)[len(values) - k])
    above = np.cumsum(np.bincount(values - lo, minlength=hi - lo + 1)[::-1])  # words scored hi, hi-1, ...
    return hi - int(np.searchsorted(above, k))


def _live_letters(problem: Problem, prop: Propagation) -> list[list[str | None]]:
    """Per cell: None for a block, else the letters still possible there as a string."""
    grid = problem.grid
    live = prop.letter_counts > 0
    # each cell's live letters as a row of the alphabet's code chars or spaces, then the spaces dropped: one numpy pass
    chars = problem.alphabet.chars
    k = len(chars)
    codes = np.array([ord(ch) for ch in chars], np.uint32)
    spelled = np.where(live, codes, np.uint32(32)).astype("<u4").tobytes().decode("utf-32-le")
    rows: list[list[str | None]] = []
    for r in range(grid.height):
        row: list[str | None] = []
        for c in range(grid.width):
            cell = r * grid.width + c
            row.append(None if grid.cells[cell] == BLOCK else spelled[cell * k : (cell + 1) * k].replace(" ", ""))
        rows.append(row)
    return rows


def _status(prop: Propagation) -> Consistency:
    return Consistency.CONSISTENT if prop.is_consistent else Consistency.UNFILLABLE


def _reason(prop: Propagation) -> str:
    return "" if prop.is_consistent else prop.reason


def domains_report(
    problem: Problem,
    slot_name: str | None = None,
    k: int | None = 20,
    by: str = "score",
    prop: Propagation | None = None,
) -> DomainsReport:
    """The `xwcp domains` answer: per slot its pattern, domain size and top-k words; per cell the live letters.

    `prop` is the problem's propagation when the caller has it already (the web server keeps it per grid)."""
    start = time.perf_counter()
    slots = (
        [find_slot(problem, slot_name)]
        if slot_name
        else sorted(problem.slots, key=lambda s: (s.direction is not Direction.ACROSS, s.number))
    )
    prop = prop or propagate(problem)
    wipeout = (
        None
        if prop.wipeout_slot is None
        else Wipeout(problem.slots[prop.wipeout_slot].name, tuple(problem.slots[s].name for s in prop.chain))
    )
    slot_words = tuple(
        SlotWords(
            SlotInfo(s.name, problem.pattern(s.id), prop.size(s.id) if s.id not in problem.fixed_text_by_slot else 1),
            tuple(rank_words(problem, prop, s.id, k, by)) if prop.is_consistent else (),
        )
        for s in slots
    )
    cells = _live_letters(problem, prop)
    return DomainsReport(
        _status(prop), _reason(prop), wipeout, slot_words, cells, round(time.perf_counter() - start, 4)
    )


def _most_constrained(problem: Problem, prop: Propagation) -> SlotId | None:
    """The open slot (not yet decided) with the fewest live words; ties to the one with more crossings."""
    best = None
    best_key = None
    for slot in problem.slots:
        if slot.id in problem.fixed_text_by_slot or EMPTY not in problem.pattern(slot.id):
            continue
        size = prop.size(slot.id)
        if size <= 1 and prop.is_consistent:
            continue
        n_cross = sum(1 for at_pos in problem.partners[slot.id] if at_pos)
        key = (size, -n_cross, slot.id)
        if best_key is None or key < best_key:
            best, best_key = slot.id, key
    return best


def _forced_letters(problem: Problem, prop: Propagation) -> tuple[ForcedLetter, ...]:
    """The empty cells only one letter can take, each with that letter as the grid would show it (a Hebrew letter
    in its final form where an entry ends, as `final_cells`)."""
    grid = problem.grid
    alphabet = problem.alphabet
    ends = {slot.cells[-1] for slot in problem.slots} if alphabet.final else set()
    forced: list[ForcedLetter] = []
    for cell, given in enumerate(grid.cells):
        if given != EMPTY:
            continue
        live = np.nonzero(prop.letter_counts[cell])[0]
        if len(live) == 1:
            letter = alphabet.letters[int(live[0])]
            if cell in ends:
                letter = alphabet.final.get(alphabet.chars[int(live[0])], letter)
            forced.append(ForcedLetter(cell // grid.width, cell % grid.width, letter))
    return tuple(forced)


def heatmap_report(problem: Problem, *, with_core: bool = True, prop: Propagation | None = None) -> HeatmapReport:
    """The `xwcp heatmap` answer: per white cell how many letters remain (None for blocks; `n_letters`, the
    alphabet's size, when any letter fits) and forced letters (as the alphabet writes them), and the grid's
    JSON lines ("grid": its bars, marks and rebus cells, for drawing).

    On an unfillable grid, with `with_core`, also the core: the slots that cannot be filled together.
    `prop`: the problem's propagation when the caller has it already.
    """
    prop = prop or propagate(problem)
    grid = problem.grid
    wipeout = prop.wipeout_slot
    core = _core(problem, None, slot_id=wipeout) if not prop.is_consistent and with_core else None
    counts: list[list[int | None]] = [
        [
            None if grid.cells[r * grid.width + c] == BLOCK else prop.letters_possible(r * grid.width + c)
            for c in range(grid.width)
        ]
        for r in range(grid.height)
    ]
    written = written_cells(grid, problem.alphabet)  # IJ as written, a Hebrew final form where an entry ends
    letters = [
        [
            written[r * grid.width + c] if grid.cells[r * grid.width + c] not in (BLOCK, EMPTY) else None
            for c in range(grid.width)
        ]
        for r in range(grid.height)
    ]
    return HeatmapReport(
        _status(prop),
        _reason(prop),
        None if wipeout is None else problem.slots[wipeout].name,
        None if wipeout is None else tuple((c // grid.width, c % grid.width) for c in problem.slot_cells(wipeout)),
        core,
        grid.width,
        grid.height,
        problem.alphabet.size,
        counts,
        letters,
        _forced_letters(problem, prop) if prop.is_consistent else (),
        grid_lines(grid),
        _pair_heat(problem, prop),
    )


def _pair_heat(problem: Problem, prop: Propagation) -> tuple[PairHeat, ...]:
    """Both letters of each Schrödinger square: the first at the square's letter cell, the second at its extra
    letter cell (`xwcp.model.letters`), each with its live letters and the letter entered."""
    grid = problem.grid
    if not grid.pairs:
        return ()
    _, cell_by_extra = letter_contents(grid)
    second_by_cell = {cell: len(grid.cells) + k for k, cell in enumerate(cell_by_extra) if cell in grid.pairs}
    heat = []
    for cell in sorted(grid.pairs):
        letter_cells = (cell, second_by_cell[cell])
        given = pair_letters(grid.cells[cell])
        heat.append(
            PairHeat(
                cell // grid.width,
                cell % grid.width,
                (prop.letters_possible(letter_cells[0]), prop.letters_possible(letter_cells[1])),
                (
                    None if given[0] == EMPTY else problem.alphabet.written(given[0]),
                    None if given[1] == EMPTY else problem.alphabet.written(given[1]),
                ),
            )
        )
    return tuple(heat)


def check_report(
    problem: Problem,
    *,
    backend: str = "auto",
    time_limit_s: float | None = 10.0,
    seed: int = 0,
    prop: Propagation | None = None,
    explain_core: ExplainCore | None = None,
) -> CheckReport:
    """The `xwcp check` answer: verdict fillable / unfillable / unknown, and why.

    The verdict is `unfillable` when AC-3 or the solver proves it, `fillable` when the solver
    finds a fill (included), `unknown` when AC-3 finds no dead end (`ac3`: consistent) and the
    solver hit its limit. `unlisted` names the entries the user completed that are not in the list.
    `seconds` is the time to the verdict. An unfillable verdict gets its minimal core from
    `explain_core(report without its core, problem, FillResult or None)` (default: `xwcp.search.core.explain`
    with its budget), which a front end uses to show the verdict first (the core takes longer).
    """
    start = time.perf_counter()
    from xwcp.backends import fill

    prop = prop or propagate(problem)
    unlisted = tuple(UnlistedEntry(problem.slots[s].name, problem.fixed_text_by_slot[s]) for s in problem.unlisted)
    tight = prop.wipeout_slot if not prop.is_consistent else _most_constrained(problem, prop)
    most = None if tight is None else SlotInfo(problem.slots[tight].name, problem.pattern(tight), prop.size(tight))
    forced = _forced_letters(problem, prop) if prop.is_consistent else ()
    if not prop.is_consistent:
        report = CheckReport(
            Verdict.UNFILLABLE,
            Consistency.UNFILLABLE,
            prop.reason,
            unlisted,
            most,
            forced,
            Proof.RULES if problem.conflicts else Proof.AC3,  # rules: a repeated entry, or --strict
            None if prop.wipeout_slot is None else problem.slots[prop.wipeout_slot].name,
            None,
            None,
            round(time.perf_counter() - start, 4),
        )
        return replace(report, core=_core(problem, None, explain_core, prop.wipeout_slot, report))
    result = fill(problem, backend, Limits(time_limit_s=time_limit_s, seed=seed))
    solver = SolverRun(result.backend, result.status.value, round(result.stats.wall_time_s, 4))
    if result.status is FillStatus.UNFILLABLE:
        report = CheckReport(
            Verdict.UNFILLABLE,
            Consistency.CONSISTENT,
            result.reason,
            unlisted,
            most,
            forced,
            Proof.SEARCH,
            None,
            solver,
            None,
            round(time.perf_counter() - start, 4),
        )
        return replace(report, core=_core(problem, result, explain_core, None, report))
    filled = result.status is FillStatus.FILLED
    lines = grid_lines(result.grid(problem), problem.alphabet) if filled else None  # Ñ, {IJ}, a Hebrew final letter
    return CheckReport(
        Verdict.FILLABLE if filled else Verdict.UNKNOWN,
        Consistency.CONSISTENT,
        "",
        unlisted,
        most,
        forced,
        None,
        None,
        solver,
        lines,
        round(time.perf_counter() - start, 4),
    )


def _core(
    problem: Problem,
    result: FillResult | None,
    explain_core: ExplainCore | None = None,
    slot_id: SlotId | None = None,
    report: CheckReport | None = None,
) -> CoreReport | None:
    """The minimal core (the slots that cannot be filled together), when one is found in time: from
    `explain_core(report, problem, result)` when given, else `xwcp.search.core.explain` seeded by the proof
    (`result`, the FillResult of a search, or None and AC-3's wipeout `slot_id`)."""
    if explain_core is not None:
        assert report is not None
        return explain_core(report, problem, result)
    from xwcp.search.core import explain

    return explain(
        problem,
        seed_slot_id=slot_id if result is None else result.slot_id,
        weight_by_slot=None if result is None else result.weight_by_slot,
    )


PROBE_MAX_WORDS = 1000
"""`suggest_report`'s default cap on the words probed (singleton consistency): 0.01-0.35 s on a 15x15 at
60-330 us a word (an open grid's long slots cost most). A cap in words, not seconds, so the command and
the library answer the same every time; the web builder probes by time instead."""

SUGGEST_COUNTS = {
    "pattern": "words of the list that match the slot's letters (at the minimum score and the controls)",
    "arc_consistent": "of those, the words arc consistency keeps (every letter has a partner in each crossing)",
    "checked": "of those, the words entered and propagated, in rank order (all, unless the probing cap came first)",
    "complete": "whether every arc-consistent word was checked (then `survive` is exact)",
    "survive": "of the checked words, those that leave every slot a word when entered",
    "viable": "with verify: shown words a full fill with the word was found for",
    "dead_end": "with verify: shown words proven to have no full fill",
    "unknown": "with verify: shown words the solver's budget did not settle",
}
"""The keys of `suggest_report`'s `counts`, as docs/fill.md documents them."""


def suggest_report(
    problem: Problem,
    slot_name: str,
    *,
    k: int = 10,
    verify: bool = False,
    backend: str = "auto",
    time_limit_s: float | None = 5.0,
    seed: int = 0,
    show_fill: bool = False,
    progress: Callable[[VerifyProgress], None] | None = None,
    by: str = "score",
    prop: Propagation | None = None,
    count: bool = True,
    probe_max_words: int | None = PROBE_MAX_WORDS,
    probe_time_limit_s: float | None = None,
    dead_words: dict[int, SlotId] | None = None,
    alive_words: set[int] | None = None,
    probe_engine: Callable[[], BitSearch] | None = None,
    abort: threading.Event | None = None,
    max_processes: int | None = None,
) -> SuggestReport:
    """The `xwcp suggest` answer: the slot's top-k words that survive being entered; with `verify`, each
    labelled by a solver.

    Every listed word survives propagation when entered (singleton consistency, xwcp/analysis/probe.py):
    the words are probed in rank order until `k` survive; with `count`, the rest of the slot's
    words are probed too, to count the survivors; at most `probe_max_words` words and within
    `probe_time_limit_s` (None: no cap). `dead_words` (word id -> the slot it empties), when given,
    holds words of this slot known to empty a slot (found on a grid this one extends by letters: the web
    builder keeps them per grid), which are not probed again, and gets those this call finds; `alive_words`
    likewise holds words of this slot known to survive being entered (found on a grid this one extends by
    letters in this slot's cells only) and gets those this call finds. `probe_engine`, when given, makes
    (or lends) the engine the words of this slot are probed in: the web builder passes a kept one, which
    may be that of a grid this one extends by letters in this slot's cells only (the same reason).
    `counts` says
    what each number is (SUGGEST_COUNTS): words matching the pattern, arc-consistent, checked by
    probing, surviving, and with `verify` viable / dead end / unknown. `dropped` lists the words
    ranked above the last one shown that empty a slot when entered, with that slot (`empties`).

    Labels: `viable` (a full fill with that word exists at the current floor: the problem's
    minimum score, per-slot floors and other controls), `dead-end` (proven that none does),
    `unknown` (the total budget `time_limit_s` ran out first). The words are verified together
    under that one budget (xwcp/analysis/verify.py); `progress` gets a `VerifyProgress` as they settle;
    once `abort` is set, the words not yet settled stay unknown (None: a stop signal to the command).
    Labelled words are listed viable first, then unknown, then dead ends, each group in rank order.
    """
    slot = find_slot(problem, slot_name)
    prop = prop or propagate(problem)
    status, reason, is_probe_verdict = _status(prop), _reason(prop), False
    fixed = slot.id in problem.fixed_text_by_slot
    size = 1 if fixed else prop.size(slot.id)
    counts = SuggestCounts(
        1 if fixed else int(np.count_nonzero(problem.domains[slot.id])), size if prop.is_consistent else 0, 0, 0
    )
    ranked: list[RankedWord] = []
    dropped: tuple[Dropped, ...] | None = None
    if fixed and prop.is_consistent:
        ranked = rank_words(problem, prop, slot.id, k, by)
        counts = replace(counts, checked=1, survive=1)
    elif prop.is_consistent:
        probed = _probed_words(
            problem,
            prop,
            slot.id,
            k,
            by,
            count,
            probe_max_words,
            probe_time_limit_s,
            dead_words,
            alive_words,
            probe_engine,
        )
        ranked, dropped = probed.words, probed.dropped
        counts = replace(counts, checked=probed.checked, complete=probed.complete, survive=probed.survived)
        if probed.complete and probed.survived == 0:
            status, is_probe_verdict = Consistency.UNFILLABLE, True
            reason = f"every word that fits {slot.name} empties another slot when entered"
    words = [SuggestedWord(w.word, w.score, w.fit) for w in ranked]
    if slot.reading and prop.is_consistent:
        words = [replace(w, pairs=_reading_pairs(problem, prop, slot, w.word)) for w in words]
    if verify and words:
        from xwcp.analysis.verify import verify_words

        verdicts = verify_words(
            problem,
            slot.id,
            [w.word for w in words],
            backend=backend,
            time_limit_s=time_limit_s,
            seed=seed,
            progress=progress,
            abort=abort,
            max_processes=max_processes,
        )
        words = [
            replace(
                word,
                label=Label(
                    v.verdict,
                    v.how,
                    v.seconds,
                    # a dead end our search proved: the slots its proof used
                    None
                    if v.proof_slot_ids is None
                    else tuple(problem.slots[slot_id].name for slot_id in v.proof_slot_ids),
                    grid_lines(fill_grid(problem, v.entries), problem.alphabet)
                    if show_fill and v.entries is not None
                    else None,
                ),
            )
            for word, v in zip(words, verdicts)
        ]
        rank = {Viability.VIABLE: 0, Viability.UNKNOWN: 1, Viability.DEAD_END: 2}
        words.sort(key=lambda w: rank[_viability(w)])  # stable: rank order within each label
        n_by_viability = {viability: sum(_viability(w) is viability for w in words) for viability in Viability}
        counts = replace(
            counts,
            viable=n_by_viability[Viability.VIABLE],
            dead_end=n_by_viability[Viability.DEAD_END],
            unknown=n_by_viability[Viability.UNKNOWN],
        )
    return SuggestReport(
        status,
        reason,
        is_probe_verdict,
        SlotInfo(slot.name, problem.pattern(slot.id), size),
        dropped,
        counts,
        tuple(words),
    )


PAIRS_SHOWN = 3
"""Words of the other reading listed with each suggestion for a Schrödinger entry's reading: enough to choose from."""


def _reading_pairs(problem: Problem, prop: Propagation, slot: Slot, word: str) -> tuple[str, ...]:
    """The best words (by score) of the other reading of `slot`'s entry (`xwcp.model.entries`) that stay
    arc-consistent with `word` in `slot`: the pairs a constructor picks from (CLINTON / BOBDOLE)."""
    other = next((s for s in problem.slots if s.entry_name == slot.entry_name and s.reading and s.id != slot.id), None)
    word_id = problem.words.word_id(word)
    if other is None or word_id is None:
        return ()
    domains = list(prop.domains)
    only = np.zeros_like(domains[slot.id])
    only[word_id] = True
    domains[slot.id] = only
    after = propagate(problem, tuple(domains))
    if not after.is_consistent:
        return ()
    if other.id in problem.fixed_text_by_slot:
        return (problem.fixed_text_by_slot[other.id],)
    bucket = problem.words.bucket(other.length)
    ids = np.flatnonzero(after.domains[other.id])
    best = ids[np.argsort(-np.asarray(bucket.scores)[ids], kind="stable")[:PAIRS_SHOWN]]
    return tuple(bucket.text(int(w)) for w in best)


def _viability(word: SuggestedWord) -> Viability:
    assert word.label is not None
    return word.label.verdict


@dataclass(frozen=True)
class _Probed:
    """What `_probed_words` found: the words shown, those ranked above the last shown that empty a slot, and counts."""

    words: list[RankedWord]
    dropped: tuple[Dropped, ...]
    checked: int
    complete: bool
    survived: int


RANK_FIRST_FACTOR = 2
MARGIN_RANKED = 16
"""`_probed_words` without `count` ranks the first RANK_FIRST_FACTOR * k + MARGIN_RANKED words first (on an open
15x15 nearly all survive: ranking the whole slot cost 0.15 ms of a keystroke's answer, these 0.05 ms)."""


def _probed_words(
    problem: Problem,
    prop: Propagation,
    slot_id: SlotId,
    k: int,
    by: str,
    count: bool,
    max_words: int | None,
    time_limit_s: float | None,
    dead_words: dict[int, SlotId] | None = None,
    alive_words: set[int] | None = None,
    make_engine: Callable[[], BitSearch] | None = None,
) -> _Probed:
    """The top `k` words of an open slot that survive being entered (`probe_words`), with the words ranked above the
    last one shown that empty a slot, and how many were checked and survived."""
    from xwcp.analysis.probe import probe_engine, probe_words

    # the engine is made only if a word must be probed (none when every word wanted is known)
    make = make_engine or (lambda: probe_engine(problem, prop))
    n_live = int(np.count_nonzero(prop.domains[slot_id]))
    first = RANK_FIRST_FACTOR * k + MARGIN_RANKED
    scan = None
    if not count and first < n_live:
        # most lists find their k survivors among the first few ranked words: rank only those (the ranking is a
        # total order, so they are the whole ranking's first words), and the whole slot only when they fall short
        ids, scores, fits = ranked_ids(problem, prop, slot_id, first, by)
        start = time.perf_counter()
        scan = probe_words(
            make,
            slot_id,
            ids,
            k,
            count=False,
            time_limit_s=time_limit_s,
            max_words=max_words,
            known_dead=dead_words,
            known_alive=alive_words,
        )
        scan.total = n_live
        if len(scan.shown) < k and scan.checked == len(ids):  # not enough: the whole ranking, found words known
            left = None if time_limit_s is None else max(0.0, time_limit_s - (time.perf_counter() - start))
            known_dead = {**(dead_words or {}), **scan.dead}
            known_alive = (alive_words or set()) | scan.alive
            found_dead, found_alive = scan.dead, scan.alive
            ids, scores, fits = ranked_ids(problem, prop, slot_id, None, by)
            scan = probe_words(
                make,
                slot_id,
                ids,
                k,
                count=False,
                time_limit_s=left,
                max_words=max_words,
                known_dead=known_dead,
                known_alive=known_alive,
            )
            scan.dead.update(found_dead)
            scan.alive.update(found_alive)
    if scan is None:
        ids, scores, fits = ranked_ids(problem, prop, slot_id, None, by)
        scan = probe_words(
            make,
            slot_id,
            ids,
            k,
            count=count,
            time_limit_s=time_limit_s,
            max_words=max_words,
            known_dead=dead_words,
            known_alive=alive_words,
        )
    if dead_words is not None:
        dead_words.update(scan.dead)
    if alive_words is not None:
        alive_words.update(scan.alive)
    chosen = np.asarray(scan.shown, np.int64)
    words = ranked_words(problem, slot_id, ids[chosen], scores[chosen], fits[chosen])
    dropped = np.asarray([i for i, _ in scan.dropped], np.int64)
    emptying = tuple(
        Dropped(w.word, w.score, w.fit, problem.slots[empty].name)
        for w, (_, empty) in zip(
            ranked_words(problem, slot_id, ids[dropped], scores[dropped], fits[dropped]), scan.dropped
        )
    )
    return _Probed(words, emptying, scan.checked, scan.complete, scan.survived)
