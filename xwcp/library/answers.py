"""Typed answers of the library's jobs: a fill, a check verdict, live words, suggestions, the heat map, a core, designs.

Each answer is a dataclass whose fields are documented here, addressed the way a constructor
reads a grid (slots by name: `answer["17A"]`). Each also has `as_dict()`, the JSON object the
command line's `--format json` and the web API print (their shape is kept), and `text()`, the
command line's text: the CLI and the web builder print these same objects.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from xwcp.analysis.reports import (
    CheckReport,
    Consistency,
    DomainsReport,
    ForcedLetter as ForcedLetter,
    HeatmapReport,
    SlotInfo as SlotInfo,
    SuggestReport,
    Verdict as Verdict,
)
from xwcp.analysis.verify import How as How, Viability as Viability
from xwcp.base.types import Direction, FillStatus
from xwcp.engine.result import FillResult, FillStats, Quality, fill_grid
from xwcp.model import grid_lines
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.search.core import CoreKind, CoreReport

if TYPE_CHECKING:
    from xwcp.analysis.reports import RankedWord
    from xwcp.analysis.verify import WordVerdict
    from xwcp.compile.problem import Problem
    from xwcp.designer.request import DesignRequest
    from xwcp.designer.rules import Rules
    from xwcp.designer.search import Design, DesignResult
    from xwcp.engine.ac3 import Propagation
    from xwcp.formats import Puzzle
    from xwcp.model import Grid
    from xwcp.render.report import FillReport

JsonDict = dict[str, Any]
"""A JSON object as the CLI prints it."""


@dataclass(frozen=True)
class Entry:
    """One slot of a fill."""

    name: str
    """The slot's name, e.g. `17A`."""
    number: int
    direction: Direction
    row: int
    """Row of its first cell, from 0."""
    col: int
    """Column of its first cell, from 0."""
    length: int
    word: str
    score: int | None
    """The word's score in the list; None for an entry the user completed that the list lacks."""


def _lookup_name(names: Mapping[str, object], slot: object) -> str:
    """The key of `names` a caller means by `slot` (a name in any case); KeyError naming the known ones."""
    if not isinstance(slot, str):
        raise TypeError(f"slots are looked up by name, e.g. answer['17A'], not by {type(slot).__name__}")
    key = slot.strip().upper()
    if key not in names:
        shown = ", ".join(list(names)[:12]) + (", ..." if len(names) > 12 else "")
        raise KeyError(f"no slot {slot!r} here; slots: {shown}")
    return key


@dataclass(frozen=True)
class FilledGrid:
    """One fill of the grid: its rows, its entries by slot name, and its quality."""

    rows: list[str]
    """The filled grid, one string per row: letters and `#` for blocks (a region fill leaves `.` outside);
    a grid with bars, marks or rebus cells gives its lines in xwcp's text syntax (`xwcp.model.grid_lines`)."""
    entries: tuple[Entry, ...]
    """Every slot's entry, across by number then down by number."""
    quality: Quality
    """Minimum and mean score of the entries the fill chose, and how many sit at the minimum."""
    alphabet: Alphabet = field(default=ENGLISH, repr=False, compare=False, kw_only=True)
    """The puzzle's language: rows and words show its letters as it writes them (Ñ, `{IJ}` in rows, "IJS")."""

    @property
    def entries_by_name(self) -> dict[str, str]:
        """Slot name -> word, e.g. `{"1A": "CRANE", ...}`, across then down."""
        return {e.name: e.word for e in self.entries}

    def __getitem__(self, slot: str) -> str:
        """The word in the slot named `slot` (any case), e.g. `fill["18A"]`."""
        return self.entries_by_name[_lookup_name(self.entries_by_name, slot)]

    def text(self) -> str:
        """The rows spaced out for reading."""
        from xwcp.render.report import grid_text

        return grid_text(self.rows, self.alphabet)


def _entries(rows: Sequence[Mapping[str, Any]]) -> tuple[Entry, ...]:
    """Entries from `xwcp.render.report.entry_dicts` rows: the one place a fill's entries are put in clue order."""
    return tuple(
        Entry(e["id"], e["number"], Direction(e["direction"]), e["row"], e["col"], e["length"], e["word"], e["score"])
        for e in rows
    )


def filled_grid(problem: Problem, entries: tuple[str, ...], quality: Quality) -> FilledGrid:
    """A FilledGrid from one fill of `problem` (entries in slot order)."""
    from xwcp.render.report import entry_dicts

    return FilledGrid(
        grid_lines(fill_grid(problem, entries), problem.alphabet),
        _entries(entry_dicts(problem, entries)),
        quality,
        alphabet=problem.alphabet,
    )


def _filled_from_report(report: FillReport, index: int) -> FilledGrid:
    """Fill `index` of a FillReport as a FilledGrid (its lines, entries and quality as the report worked them out)."""
    return FilledGrid(
        list(report.lines(index)),
        _entries(report.entries(index)),
        report.quality(index),
        alphabet=report.problem.alphabet,
    )


@dataclass(frozen=True)
class CoreAnswer:
    """Why a grid cannot be filled: slots that cannot all be filled together (a minimal core when `is_minimal`)."""

    slots: tuple[str, ...]
    """The core's slot names, across then down, e.g. `("7A", "4D")`."""
    cells: tuple[tuple[int, int], ...]
    """Their cells as (row, col), from 0."""
    patterns: dict[str, str]
    """Slot name -> its pattern (letters and `.`)."""
    is_minimal: bool
    """True when dropping any one slot leaves the rest fillable (False: the time limit cut the search short)."""
    kind: str
    """`no-word` (one slot no word fits), `no-common-letter` (two crossing slots) or `group`."""
    message: str
    """One sentence saying what the core is, in a constructor's words."""
    wall_time_s: float = 0.0
    """Seconds the core search took (0.0 for a slot a proof named, without a search)."""
    json: JsonDict = field(default_factory=dict, repr=False, compare=False)
    report: CoreReport | None = field(default=None, repr=False, compare=False)
    """The core as the search named it (its JSON and text are made from it)."""

    @classmethod
    def from_report(cls, report: CoreReport) -> CoreAnswer:
        """The answer for a core the search found (`xwcp.search.core.explain`), or the slot a proof named."""
        from xwcp.render.core import core_json

        found = report.search
        return cls(
            report.slots,
            report.cells,
            dict(report.patterns),
            report.is_minimal,
            CoreKind.GROUP.value if found is None else found.kind.value,
            report.message,
            0.0 if found is None else round(found.wall_time_s, 4),
            core_json(report),
            report,
        )

    def __iter__(self) -> Iterator[str]:
        """The slot names: `list(core)` is `core.slots`."""
        return iter(self.slots)

    def __len__(self) -> int:
        return len(self.slots)

    def as_dict(self) -> JsonDict:
        """The CLI's JSON `core` object."""
        return dict(self.json)

    def text(self, problem: Problem) -> str:
        """The core drawn on the grid, as `xwcp check` prints it."""
        from xwcp.render.core import core_text

        return core_text(
            problem,
            self.report
            or CoreReport(
                self.slots, self.cells, self.is_minimal, message=self.message, patterns=tuple(self.patterns.items())
            ),
        )


def _sentence(text: str) -> str:
    text = text.strip()
    return (text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")) if text else ""


@dataclass(frozen=True)
class FillAnswer:
    """The outcome of `xwcp.fill`: a status and, when filled, the fill(s) by slot name with their quality.

    `answer.rows`, `answer["18A"]`, `answer.entries_by_name` and `answer.quality` are those of the
    first fill; `answer.fills` holds every fill (several with `count`).
    """

    status: FillStatus
    """FILLED, UNFILLABLE (proven), LIMIT (time ran out) or ABORTED."""
    fills: tuple[FilledGrid, ...]
    """Every fill found, best first for a quality search; empty unless filled."""
    n_fills: int
    """Fills counted: len(fills), except when counting every fill (`count=0`)."""
    reason: str
    """Why there is no fill (UNFILLABLE, LIMIT, ABORTED), naming the slot when one is known; else ''."""
    core: CoreAnswer | None
    """For a grid proven unfillable: the slots that cannot be filled together (when found in time)."""
    backend: str
    """The backend that answered."""
    wall_time_s: float
    """Seconds the fill took (and the core, when one was searched)."""
    stats: FillStats
    """The search's counters (nodes, backtracks, restarts, backend extras)."""
    notes: tuple[str, ...] = ()
    """Things to know about the controls (e.g. a locked word the list lacks)."""
    problem: Problem | None = field(default=None, repr=False, compare=False)
    result: FillResult | None = field(default=None, repr=False, compare=False)
    count: int | None = field(default=None, repr=False, compare=False)
    """The fills asked for (None one, 0 all), for the CLI's note when fewer exist."""
    puzzle: Puzzle | None = field(default=None, repr=False, compare=False)
    """The puzzle filled (its title, author and clues go into `save`)."""
    report: FillReport | None = field(default=None, repr=False, compare=False)
    """The answer as worked out once for every front end: its JSON (`as_dict`) and text (`text`) come from it."""

    @classmethod
    def build(
        cls,
        problem: Problem,
        result: FillResult,
        seconds: float,
        count: int | None = None,
        core: CoreReport | None = None,
        puzzle: Puzzle | None = None,
    ) -> FillAnswer:
        """The answer for `result` (from `xwcp.backends.fill` or `xwcp.services.run.run_fill`) on `problem`."""
        from xwcp.render.report import FillReport

        return cls.from_report(FillReport(problem, result, seconds, count, core), puzzle)

    @classmethod
    def from_report(cls, report: FillReport, puzzle: Puzzle | None = None) -> FillAnswer:
        """The answer a `xwcp.render.report.FillReport` holds (worked out once: its JSON and text are this
        answer's `as_dict()` and `text()`)."""
        problem, result = report.problem, report.result
        fills = (
            tuple(_filled_from_report(report, index) for index in range(len(result.fills)))
            if result.status is FillStatus.FILLED
            else ()
        )
        return cls(
            result.status,
            fills,
            result.n_fills,
            result.reason,
            None if report.core is None else CoreAnswer.from_report(report.core),
            result.backend,
            report.seconds,
            result.stats,
            tuple(problem.notes),
            problem,
            result,
            report.count,
            puzzle,
            report,
        )

    def _first(self) -> FilledGrid:
        if not self.fills:
            raise LookupError(
                f"no fill: the status is {self.status.value}" + (f" ({self.reason})" if self.reason else "")
            )
        return self.fills[0]

    @property
    def is_filled(self) -> bool:
        return self.status is FillStatus.FILLED and bool(self.fills)

    @property
    def rows(self) -> list[str]:
        """The first fill's rows (letters, `#` blocks); [] when there is no fill."""
        return self.fills[0].rows if self.fills else []

    @property
    def entries(self) -> tuple[Entry, ...]:
        """The first fill's entries, across then down; () when there is no fill."""
        return self.fills[0].entries if self.fills else ()

    @property
    def entries_by_name(self) -> dict[str, str]:
        """The first fill's words by slot name; {} when there is no fill."""
        return self.fills[0].entries_by_name if self.fills else {}

    @property
    def quality(self) -> Quality | None:
        """The first fill's quality (`.min_score`, `.mean_score`, `.n_at_min`); None when there is no fill."""
        return self.fills[0].quality if self.fills else None

    def __getitem__(self, slot: str) -> str:
        """The first fill's word in the slot named `slot`, e.g. `answer["18A"]`.

        Raises:
            KeyError: no such slot. LookupError: there is no fill (the message says why).
        """
        return self._first()[slot]

    def save(self, path: str | Path, fill_index: int = 0) -> Path:
        """Write fill `fill_index` to a puzzle file (.puz, .ipuz, .xd, .txt or .json, by extension),
        keeping the puzzle's title, author and clues.

        Returns:
            The path written.

        Raises:
            ValueError: there is no such fill. InputError: an unknown extension, an unwritable file, or a
                format that cannot keep the grid's bars or rebus cells.
        """
        from xwcp.formats import Puzzle, puzzle_from_fill
        from xwcp.services.save import write_checked

        if not isinstance(path, (str, Path)):
            raise TypeError(f"path must be a file name (str or Path), not {type(path).__name__}")
        if isinstance(fill_index, bool) or not isinstance(fill_index, int):
            raise TypeError(f"fill_index must be an int, not {type(fill_index).__name__}")
        if not 0 <= fill_index < len(self.fills):
            raise ValueError(
                f"fill_index {fill_index} is out of range: this answer has {len(self.fills)} fill(s)"
                + ("" if self.fills else f" (status {self.status.value}: {self.reason})")
            )
        assert self.problem is not None and self.result is not None
        grid = fill_grid(self.problem, self.result.fills[fill_index])
        write_checked(puzzle_from_fill(self.puzzle or Puzzle(grid, alphabet=self.problem.alphabet), grid), path)
        return Path(path)

    def _report(self) -> FillReport:
        if self.report is not None:
            return self.report
        from xwcp.render.report import FillReport

        assert self.problem is not None and self.result is not None
        return FillReport(
            self.problem, self.result, self.wall_time_s, self.count, None if self.core is None else self.core.report
        )

    def as_dict(self) -> JsonDict:
        """The `xwcp fill --format json` object."""
        return self._report().as_dict()

    def text(self) -> str:
        """The `xwcp fill` text."""
        return self._report().text()


@dataclass(frozen=True)
class CheckAnswer:
    """The outcome of `xwcp.check`: can the grid be filled, and why not."""

    verdict: Verdict
    """FILLABLE, UNFILLABLE or UNKNOWN; `verdict.value` is the CLI's word."""
    reason: str
    """The sentence that explains the verdict (for an unfillable grid: its core, else the proof's reason)."""
    core: tuple[str, ...]
    """For an unfillable grid: the names of the slots that cannot be filled together (empty otherwise)."""
    core_detail: CoreAnswer | None
    """The core with its cells, patterns and minimality, when one was found."""
    fill: list[str] | None
    """For a fillable grid: the rows of the fill the solver found."""
    most_constrained: SlotInfo | None
    """The open slot with the fewest words left (for an unfillable grid: the slot AC-3 emptied)."""
    forced: tuple[ForcedLetter, ...]
    """Empty cells only one letter can take."""
    unlisted: dict[str, str]
    """Entries the user completed that the word list lacks: slot name -> word."""
    json: JsonDict = field(default_factory=dict, repr=False, compare=False)
    problem: Problem | None = field(default=None, repr=False, compare=False)
    report: CheckReport | None = field(default=None, repr=False, compare=False)
    """The analysis' answer this one reads (its JSON and text are made from it)."""

    @classmethod
    def from_report(cls, problem: Problem, report: CheckReport, *, is_verdict_first: bool = True) -> CheckAnswer:
        """The answer for a `xwcp.analysis.questions.check_report` report (`is_verdict_first` False: the verdict as
        it is sent before the core search, its JSON ordered so)."""
        from xwcp.render.questions_json import check_json

        verdict = report.verdict
        core = None if report.core is None else CoreAnswer.from_report(report.core)
        if verdict is Verdict.FILLABLE:
            reason = "A full fill exists (in .fill)."
        elif verdict is Verdict.UNKNOWN:
            reason = "No dead end found by arc consistency; the solver hit its limit before finding a fill."
        else:
            reason = _sentence(core.message if core is not None else report.reason)
        return cls(
            verdict,
            reason,
            core.slots if core is not None else (),
            core,
            list(report.fill) if report.fill else None,
            report.most_constrained,
            report.forced,
            {u.slot: u.word for u in report.unlisted},
            check_json(report, is_verdict_first=is_verdict_first),
            problem,
            report,
        )

    def as_dict(self) -> JsonDict:
        """The `xwcp check --format json` object."""
        return self.json

    def text(self) -> str:
        """The `xwcp check` text (an unfillable grid's core drawn on it)."""
        from xwcp.render.questions_text import check_text

        assert self.report is not None
        return check_text(self.report, self.problem)


WordScore = tuple[str, int | None]
"""A word and its score (None for an entry the user completed that the list lacks)."""


class DomainsAnswer(Mapping[str, list[WordScore]]):
    """The live words of every slot (`xwcp.domains`): a mapping slot name -> [(word, score), ...], best first.

    A word is live when it keeps the grid arc-consistent (every crossing still has a word, no
    word twice). Lists are ranked on first access (by score, crossing fit breaking ties; or by
    fit with `by="fit"`) and cut to `k` words when `k` was given.

    Attributes:
        slots: every slot with its pattern and live-word count, across then down.
        is_consistent: False when some slot has no word left (then every list is empty).
        reason: for an inconsistent grid, which slot emptied and how; else ''.
    """

    def __init__(
        self,
        problem: Problem,
        propagation: Propagation,
        slot_ids: list[int],
        k: int | None,
        by: str,
        slot_name: str | None = None,
    ) -> None:
        self.problem = problem
        self._slot_name = slot_name
        self._propagation = propagation
        self._k = k
        self._by = by
        self._slot_ids = slot_ids
        self._words_by_name: dict[str, list[WordScore]] = {}
        fixed = problem.fixed_text_by_slot
        self.slots: tuple[SlotInfo, ...] = tuple(
            SlotInfo(problem.slots[s].name, problem.pattern(s), 1 if s in fixed else propagation.size(s))
            for s in slot_ids
        )
        self.is_consistent: bool = propagation.is_consistent
        self.reason: str = propagation.reason
        self._id_by_name = {problem.slots[s].name: s for s in slot_ids}
        self._report: DomainsReport | None = None

    def __getitem__(self, slot: str) -> list[WordScore]:
        """The live words of the slot named `slot` (any case), best first, as (word, score) pairs."""
        name = _lookup_name(self._id_by_name, slot)
        words = self._words_by_name.get(name)
        if words is None:
            words = [(w.word, w.score) for w in self._ranked(name)]
            self._words_by_name[name] = words
        return words

    def ranked(self, slot: str) -> list[dict[str, Any]]:
        """The slot's live words with their crossing fit too: dicts with word, score and fit."""
        from xwcp.render.questions_json import ranked_json

        return [ranked_json(word) for word in self._ranked(slot)]

    def _ranked(self, slot: str) -> list[RankedWord]:
        from xwcp.analysis.questions import rank_words
        from xwcp.render.questions_json import written_report

        name = _lookup_name(self._id_by_name, slot)
        if not self.is_consistent:
            return []
        ranked = rank_words(self.problem, self._propagation, self._id_by_name[name], self._k, self._by)
        return written_report(ranked, self.problem.alphabet)  # Dutch IJ, Welsh LL, aksharas: as the language writes

    def size(self, slot: str) -> int:
        """How many words still fit the slot (all of them, whatever `k` is)."""
        return next(s.size for s in self.slots if s.name == _lookup_name(self._id_by_name, slot))

    def __iter__(self) -> Iterator[str]:
        return iter(self._id_by_name)

    def __len__(self) -> int:
        return len(self._id_by_name)

    def __repr__(self) -> str:
        return f"<DomainsAnswer: {len(self)} slots, {'consistent' if self.is_consistent else 'unfillable'}>"

    @property
    def report(self) -> DomainsReport:
        """The analysis' answer (`xwcp.analysis.questions.domains_report`): k words per slot as asked."""
        from xwcp.analysis.questions import domains_report

        if self._report is None:
            self._report = domains_report(
                self.problem, slot_name=self._slot_name, k=self._k, by=self._by, prop=self._propagation
            )  # the propagation it has: AC-3 once, not twice
        return self._report

    def as_dict(self) -> JsonDict:
        """The `xwcp domains --format json` object (k words per slot as asked; every word when k is None)."""
        from xwcp.render.questions_json import domains_json

        return domains_json(self.report)

    def text(self) -> str:
        """The `xwcp domains` text."""
        from xwcp.render.questions_text import domains_text

        return domains_text(self.problem, self.report)


@dataclass(frozen=True)
class Suggestion:
    """One suggested word for a slot."""

    word: str
    score: int | None
    """Its score in the list (None for an entry the user completed that the list lacks)."""
    fit: float
    """The mean log10 of the options the word leaves its open crossings (higher is easier to fill around)."""
    verdict: Viability | None = None
    """With `verify=True`: VIABLE, DEAD_END or UNKNOWN; None when not verified."""
    seconds: float | None = None
    """With `verify=True`: when the word was settled, in seconds from the start."""
    fill: list[str] | None = None
    """With `show_fill=True`: the rows of a fill that proves the word viable."""
    how: How | None = None
    """With `verify=True`: how the label was settled (SEARCH, RECENT, PROOF, AC3; UNSETTLED when unknown)."""
    proof_slots: tuple[str, ...] | None = None
    """With `verify=True`, for a dead end our search proved: the slots its proof used (as `WordLabel.proof_slots`)."""


@dataclass(frozen=True)
class WordLabel:
    """A solver's label of one suggested word (`Session.label`), as it was settled."""

    word: str
    verdict: Viability
    how: How
    """SEARCH (a fill found for it), RECENT (a fill found lately, checked on this grid), PROOF (no fill
    exists), AC3 (propagation alone), UNSETTLED while unknown."""
    seconds: float
    """When it was settled, in seconds from the start of the labelling."""
    proof_slots: tuple[str, ...] | None = None
    """For a dead end our search proved: the slots (names, e.g. "14A") its proof used. Those slots alone, with the
    word in its slot, cannot be filled, so the label holds while their letters stay (more letters only prune);
    None when not known."""

    @classmethod
    def of(cls, verdict: WordVerdict, problem: Problem) -> WordLabel:
        """From an `xwcp.analysis.verify.WordVerdict` about `problem`."""
        used = verdict.proof_slot_ids
        return cls(
            verdict.word,
            verdict.verdict,
            verdict.how,
            verdict.seconds,
            None if used is None else tuple(problem.slots[slot_id].name for slot_id in used),
        )

    def as_dict(self) -> JsonDict:
        """The label as the web builder streams it: word, verdict ("viable", "dead-end", "unknown"), how, seconds,
        and for a proven dead end `proof_slots`."""
        found: JsonDict = {
            "word": self.word,
            "verdict": self.verdict.value,
            "how": self.how.value,
            "seconds": self.seconds,
        }
        if self.proof_slots is not None:
            found["proof_slots"] = list(self.proof_slots)
        return found


@dataclass(frozen=True)
class SuggestionCounts:
    """What each number of a suggestion list counts (the `counts` of `xwcp suggest --format json`)."""

    pattern: int
    """Words of the list that match the slot's letters (at the minimum score and the controls)."""
    arc_consistent: int
    """Of those, the words arc consistency keeps (every letter has a partner in each crossing)."""
    checked: int
    """Of those, the words entered and propagated (singleton consistency) before the probing budget ran out."""
    survive: int
    """Of the checked words, those that leave every slot a word when entered: only these are suggested."""
    complete: bool
    """Whether every arc-consistent word was checked (then `survive` is exact)."""
    viable: int | None = None
    """With `verify=True`: suggested words a full fill was found for."""
    dead_end: int | None = None
    """With `verify=True`: suggested words proven to have no full fill."""
    unknown: int | None = None
    """With `verify=True`: suggested words the budget did not settle."""


@dataclass(frozen=True)
class DroppedWord:
    """A word ranked above the last suggestion that is not suggested: entering it empties the slot `empties`."""

    word: str
    score: int | None
    empties: str


class Suggestions(list[Suggestion]):
    """The ranked words for one slot (`xwcp.suggest`): a list of Suggestion, best first.

    Every one survives being entered (propagation leaves every slot a word). With `verify=True` the
    viable words come first, then the unknown, then the dead ends, each in rank order.

    Attributes:
        slot: the slot with its pattern and how many words still fit (arc consistency).
        counts: what was counted and checked (SuggestionCounts).
        dropped: words ranked above the last suggestion that empty a slot when entered.
        is_consistent: False when the grid has a dead end already (the list is then empty).
        reason: for an inconsistent grid, which slot emptied and how; else ''.
    """

    def __init__(
        self,
        items: list[Suggestion],
        slot: SlotInfo,
        is_consistent: bool,
        reason: str,
        report: SuggestReport,
        counts: SuggestionCounts | None = None,
        dropped: list[DroppedWord] | None = None,
        alphabet: Alphabet = ENGLISH,
    ) -> None:
        super().__init__(items)
        self.alphabet = alphabet
        self.slot = slot
        self.is_consistent = is_consistent
        self.reason = reason
        self.counts = counts
        self.dropped = dropped or []
        self.report = report
        self._json: JsonDict | None = None

    @classmethod
    def from_report(cls, report: SuggestReport, alphabet: Alphabet = ENGLISH) -> Suggestions:
        """The answer for a `xwcp.analysis.questions.suggest_report` report about a grid in `alphabet`."""
        items = [
            Suggestion(w.word, w.score, w.fit)
            if w.label is None
            else Suggestion(
                w.word, w.score, w.fit, w.label.verdict, w.label.seconds, w.label.fill, w.label.how, w.label.proof_slots
            )
            for w in report.words
        ]
        c = report.counts
        counts = SuggestionCounts(
            c.pattern, c.arc_consistent, c.checked, c.survive, c.complete is not False, c.viable, c.dead_end, c.unknown
        )
        dropped = [DroppedWord(d.word, d.score, d.empties) for d in report.dropped or ()]
        return cls(
            items,
            report.slot,
            report.status is Consistency.CONSISTENT,
            report.reason,
            report,
            counts,
            dropped,
            alphabet,
        )

    def as_dict(self) -> JsonDict:
        """The `xwcp suggest --format json` object."""
        from xwcp.render.questions_json import suggest_json

        if self._json is None:
            self._json = suggest_json(self.report)
        return self._json

    def text(self) -> str:
        """The `xwcp suggest` text."""
        from xwcp.render.questions_text import suggest_text

        return suggest_text(self.report, self.alphabet)


@dataclass(frozen=True)
class HeatMap:
    """How many letters each cell can still take (`xwcp.heatmap`): every letter of the alphabet free (26 in
    English), 1 forced, 0 dead."""

    counts: list[list[int | None]]
    """Rows of per-cell counts; None for a block. `counts[row][col]`, from 0."""
    letters: list[list[str | None]]
    """Rows of the letters entered (None where a cell is empty or a block)."""
    forced: tuple[ForcedLetter, ...]
    """Empty cells only one letter can take."""
    is_consistent: bool
    """False when the grid cannot be filled (then every count is 0)."""
    reason: str
    """For an unfillable grid: why, naming the slot; else ''."""
    core: CoreAnswer | None
    """For an unfillable grid: the slots that cannot be filled together (when searched and found)."""
    json: JsonDict = field(default_factory=dict, repr=False, compare=False)
    problem: Problem | None = field(default=None, repr=False, compare=False)
    report: HeatmapReport | None = field(default=None, repr=False, compare=False)
    """The analysis' answer this one reads (its JSON, text and picture are made from it)."""

    @classmethod
    def from_report(cls, problem: Problem, report: HeatmapReport) -> HeatMap:
        """The answer for a `xwcp.analysis.questions.heatmap_report` report."""
        from xwcp.render.questions_json import heatmap_json

        return cls(
            [list(row) for row in report.counts],
            [list(row) for row in report.letters],
            report.forced,
            report.status is Consistency.CONSISTENT,
            report.reason,
            None if report.core is None else CoreAnswer.from_report(report.core),
            heatmap_json(report),
            problem,
            report,
        )

    @property
    def width(self) -> int:
        return len(self.counts[0]) if self.counts else 0

    @property
    def height(self) -> int:
        return len(self.counts)

    def to_numpy(self) -> Any:
        """The counts as a float numpy array of shape (height, width), NaN for blocks."""
        import numpy as np

        return np.array([[math.nan if n is None else float(n) for n in row] for row in self.counts])

    def save_png(self, path: str | Path) -> Path:
        """Draw the heat map to `path` (PNG, or the format its extension names; `.png` is added when it has none).

        Returns:
            The path written.

        Raises:
            InputError: a directory, an extension matplotlib cannot write, or a file that cannot be written.
        """
        from xwcp.render.picture import draw_heatmap, picture_path

        if not isinstance(path, (str, Path)):
            raise TypeError(f"path must be a file name (str or Path), not {type(path).__name__}")
        assert self.problem is not None and self.report is not None
        written = picture_path(path)
        draw_heatmap(self.problem, self.report, written)
        return written

    def as_dict(self) -> JsonDict:
        """The `xwcp heatmap --format json` object."""
        return self.json

    def text(self, picture: str | Path | None = None) -> str:
        """The `xwcp heatmap` text; `picture`: the file it was drawn to (`save_png`), named last."""
        from xwcp.render.questions_text import heatmap_text

        assert self.report is not None
        return heatmap_text(self.report, picture)


def _check_path(path: object) -> None:
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path must be a file name (str or Path), not {type(path).__name__}")


@dataclass(frozen=True)
class DesignedGrid(FilledGrid):
    """One grid of `xwcp.design`: a FilledGrid (`.rows`, `design["17A"]`, `.entries_by_name`, `.quality`) with
    its block pattern's counts, the slot each theme entry fills, and `save`."""

    grid: Grid
    """The filled grid as an `xwcp.Grid` (letters and blocks): `xwcp.Session(design.grid)` asks it more."""
    n_words: int
    """Its entries (slots), theme entries included."""
    n_blocks: int
    """Its blocks."""
    themes: dict[str, str]
    """Theme entry -> the slot it fills, e.g. `{"STARGAZER": "6A"}`."""
    found_s: float
    """Seconds from the start of the search to this pattern's first fill."""
    done_s: float
    """Seconds from the start to the end of its quality search."""
    json: JsonDict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def build(cls, found: Design, request: DesignRequest) -> DesignedGrid:
        """The answer for one `xwcp.designer.search.Design` of `request`."""
        from xwcp.designer.report import design_dict

        problem = found.problem
        filled = filled_grid(problem, found.entries, found.quality)
        name_by_cells = {slot.cells: slot.name for slot in problem.slots}
        themes = {
            theme.word: name_by_cells[placement.cells(problem.grid.width)]
            for theme, placement in zip(request.themes, found.pattern.placements)
        }
        return cls(
            filled.rows,
            filled.entries,
            filled.quality,
            found.grid,
            found.n_words,
            found.n_blocks,
            themes,
            found.found_s,
            found.done_s,
            design_dict(found, request),
        )

    def save(self, path: str | Path) -> Path:
        """Write the design to a puzzle file (.puz, .ipuz, .xd, .txt or .json, by extension), numbered, with
        empty clues.

        Returns:
            The path written.

        Raises:
            InputError: an unknown extension or a file that cannot be written.
        """
        from xwcp.formats import Puzzle
        from xwcp.services.save import write_checked

        _check_path(path)
        write_checked(Puzzle(self.grid, notes="designed by xwcp design"), path)
        return Path(path)

    def as_dict(self) -> JsonDict:
        """The design as `xwcp design --format json` prints it (an item of its `designs`); a copy."""
        return copy.deepcopy(self.json)


@dataclass(frozen=True)
class DesignAnswer:
    """The outcome of `xwcp.design`: a status and the designed grids, best fill first.

    `answer.rows`, `answer["17A"]`, `answer.entries_by_name` and `answer.quality` are those of the
    best design; `answer.designs` holds them all. Every design has been checked: the pattern keeps
    the rules, the theme entries are whole entries, every other entry is a listed word, none twice.
    """

    status: FillStatus
    """FILLED (one design or more), UNFILLABLE (proven: no pattern keeps the rules with these theme
    entries, list and floor), LIMIT (time ran out before a design) or ABORTED."""
    designs: tuple[DesignedGrid, ...]
    """The designs found, best first (highest minimum score, then mean); fewer than asked when `reason` says why."""
    reason: str
    """Why there are fewer designs than asked (or none); '' when every one asked for was found."""
    themes: tuple[str, ...]
    """The theme entries as read (A-Z), in the order given."""
    rules: Rules
    """The rules every design keeps (size, symmetry, style, caps): the ones asked for, or with a default
    relaxed when no pattern kept it (`notes` says so). `xwcp.designer.check_design` takes them."""
    notes: tuple[str, ...]
    """What the search relaxed, in order (e.g. theme entries two lines apart instead of three)."""
    wall_time_s: float
    """Seconds the search took."""
    json: JsonDict = field(default_factory=dict, repr=False, compare=False)
    result: DesignResult | None = field(default=None, repr=False, compare=False)
    request: DesignRequest | None = field(default=None, repr=False, compare=False)

    @classmethod
    def build(cls, result: DesignResult, request: DesignRequest) -> DesignAnswer:
        """The answer for a `xwcp.designer.search.design` result of `request`."""
        from xwcp.designer.report import result_dict

        return cls(
            result.status,
            tuple(DesignedGrid.build(found, request) for found in result.designs),
            result.reason,
            tuple(theme.word for theme in request.themes),
            result.rules,
            tuple(result.stats.notes),
            result.stats.wall_time_s,
            result_dict(result, request),
            result,
            request,
        )

    def _best(self) -> DesignedGrid:
        if not self.designs:
            raise LookupError(
                f"no design: the status is {self.status.value}" + (f" ({self.reason})" if self.reason else "")
            )
        return self.designs[0]

    @property
    def is_filled(self) -> bool:
        return self.status is FillStatus.FILLED and bool(self.designs)

    @property
    def rows(self) -> list[str]:
        """The best design's rows (letters, `#` blocks); [] when there is none."""
        return self.designs[0].rows if self.designs else []

    @property
    def entries_by_name(self) -> dict[str, str]:
        """The best design's words by slot name; {} when there is none."""
        return self.designs[0].entries_by_name if self.designs else {}

    @property
    def quality(self) -> Quality | None:
        """The best design's quality (`.min_score`, `.mean_score`, `.n_at_min`); None when there is none."""
        return self.designs[0].quality if self.designs else None

    def __getitem__(self, slot: str) -> str:
        """The best design's word in the slot named `slot`, e.g. `answer["17A"]`.

        Raises:
            KeyError: no such slot. LookupError: there is no design (the message says why).
        """
        return self._best()[slot]

    def save(self, path: str | Path, index: int = 0) -> Path:
        """Write design `index` (0: the best) to a puzzle file, as `DesignedGrid.save`.

        Raises:
            ValueError: there is no such design. InputError: an unknown extension or an unwritable file.
        """
        _check_path(path)
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"index must be an int, not {type(index).__name__}")
        if not 0 <= index < len(self.designs):
            raise ValueError(
                f"index {index} is out of range: this answer has {len(self.designs)} design(s)"
                + ("" if self.designs else f" (status {self.status.value}: {self.reason})")
            )
        return self.designs[index].save(path)

    def as_dict(self) -> JsonDict:
        """The `xwcp design --format json` object: `{"status", "designs": [...], "count", "reason", "rules",
        "stats", "notes"}`; a copy, the caller's to change."""
        return copy.deepcopy(self.json)

    def text(self) -> str:
        """The `xwcp design` text: each design (counts, quality, theme positions, grid), then a summary line."""
        from xwcp.designer.report import result_text

        assert self.result is not None and self.request is not None
        return result_text(self.result, self.request)

    def grids_text(self) -> str:
        """The designs in the grid syntax xwcp reads (`xwcp design --format grid`), each after a
        `; design N of M` line."""
        from xwcp.designer.report import result_grids

        assert self.result is not None
        return result_grids(self.result)
