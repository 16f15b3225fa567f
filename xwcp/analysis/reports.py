"""The typed answers of the analysis questions: what `xwcp.analysis.questions` returns.

Each report holds what a question found, as values and enums; `xwcp.render.questions_json` writes a report
as the JSON the command line and the web API print, `xwcp.render.questions_text` as the terminal's text,
and the library's answers (`xwcp.library.answers`) read their fields from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from xwcp.analysis.verify import How, Viability
from xwcp.search.core import CoreReport


class Consistency(Enum):
    """What arc consistency (and, for suggestions, probing) found of a grid. The value is the JSON `status`."""

    CONSISTENT = "consistent"
    """No slot is left without a word."""
    UNFILLABLE = "unfillable"
    """A slot has no word left: the grid cannot be filled."""


class Verdict(Enum):
    """Whether a grid can be filled: `check(...).verdict`. The value is the CLI's word for it."""

    FILLABLE = "fillable"
    """A solver found a full fill (it is in `CheckAnswer.fill`)."""
    UNFILLABLE = "unfillable"
    """Proven: by arc consistency, by search, or by the rules (a repeated entry, `strict`)."""
    UNKNOWN = "unknown"
    """No dead end found by arc consistency, and the solver reached its time limit."""


class Proof(Enum):
    """What proved a grid unfillable. The value is the JSON `proof`."""

    RULES = "rules"
    """A repeated entry, or `strict` and an entry the list lacks."""
    AC3 = "ac3"
    """Arc consistency emptied a slot."""
    SEARCH = "search"
    """A solver's search was exhausted."""


@dataclass(frozen=True)
class SlotInfo:
    """One slot as a constructor sees it."""

    name: str
    """The slot's name, e.g. `17A`."""
    pattern: str
    """Its cells as text: letters entered, `.` for an empty cell."""
    size: int
    """How many words still fit (after arc consistency; 1 for an entry already complete)."""


@dataclass(frozen=True)
class ForcedLetter:
    """An empty cell that only one letter can take (rows and columns from 0)."""

    row: int
    col: int
    letter: str


@dataclass(frozen=True)
class PairHeat:
    """A Schrödinger square's heat (rows and columns from 0): for each of its two letters (the first reading's, then
    the second's) how many letters remain, and the letter entered (as the alphabet writes it; None while open)."""

    row: int
    col: int
    counts: tuple[int, int]
    letters: tuple[str | None, str | None]


@dataclass(frozen=True)
class RankedWord:
    """A live word of a slot with its score and crossing fit."""

    word: str
    score: int | None
    """Its score in the list (None for an entry the user completed that the list lacks)."""
    fit: float
    """The mean log10 of the options the word leaves its open crossings (0 without open crossings), to 3 places."""


@dataclass(frozen=True)
class Wipeout:
    """The slot arc consistency emptied, and the chain of slots whose pruning led there."""

    slot: str
    chain: tuple[str, ...]


@dataclass(frozen=True)
class SlotWords:
    """A slot of the domains report: its pattern, how many words fit, and the top words."""

    slot: SlotInfo
    words: tuple[RankedWord, ...]


@dataclass(frozen=True)
class DomainsReport:
    """The `xwcp domains` answer: per slot its pattern, domain size and top words; per cell the live letters."""

    status: Consistency
    reason: str
    """Why the grid is unfillable, naming the slot; '' when consistent."""
    wipeout: Wipeout | None
    slots: tuple[SlotWords, ...]
    cells: list[list[str | None]]
    """Per cell: None for a block, else the letters still possible there."""
    seconds: float


@dataclass(frozen=True)
class HeatmapReport:
    """The `xwcp heatmap` answer: per white cell how many letters remain, the letters entered and forced."""

    status: Consistency
    reason: str
    wipeout_slot: str | None
    """The slot arc consistency emptied, when one did."""
    dead_cells: tuple[tuple[int, int], ...] | None
    """That slot's cells (row, col), when one did."""
    core: CoreReport | None
    """On an unfillable grid, with the core asked for and found: the slots that cannot be filled together."""
    width: int
    height: int
    n_letters: int
    """The alphabet's size: the count of a cell where every letter still fits."""
    counts: list[list[int | None]]
    """Per cell how many letters remain; None for a block."""
    letters: list[list[str | None]]
    """Per cell the letter entered (as the alphabet writes it); None where empty or a block."""
    forced: tuple[ForcedLetter, ...]
    grid: list[str]
    """The grid's lines in xwcp's text syntax (bars, marks and rebus cells, for drawing)."""
    pairs: tuple[PairHeat, ...] = ()
    """Each Schrödinger square's two letters (`counts` and `letters` above hold its first letter's)."""


@dataclass(frozen=True)
class UnlistedEntry:
    """An entry the user completed that the word list lacks."""

    slot: str
    word: str


@dataclass(frozen=True)
class SolverRun:
    """The solver's part of a check."""

    backend: str
    status: str
    """The solver's FillStatus value."""
    seconds: float


@dataclass(frozen=True)
class CheckReport:
    """The `xwcp check` answer: verdict fillable / unfillable / unknown, and why."""

    verdict: Verdict
    ac3: Consistency
    reason: str
    """Why the grid is unfillable ('' otherwise)."""
    unlisted: tuple[UnlistedEntry, ...]
    most_constrained: SlotInfo | None
    forced: tuple[ForcedLetter, ...]
    proof: Proof | None
    """For an unfillable verdict, what proved it."""
    wipeout_slot: str | None
    """For a grid arc consistency found unfillable: the slot it emptied, when one."""
    solver: SolverRun | None
    """The solver's run, for a grid arc consistency left consistent."""
    fill: list[str] | None
    """For a fillable verdict: the fill's lines."""
    seconds: float
    core: CoreReport | None = None


@dataclass(frozen=True)
class SuggestCounts:
    """What each number of a suggestion list counts (`xwcp.analysis.questions.SUGGEST_COUNTS`)."""

    pattern: int
    arc_consistent: int
    checked: int
    survive: int
    complete: bool | None = None
    """Whether every arc-consistent word was checked; None when no word was probed (then every one was)."""
    viable: int | None = None
    dead_end: int | None = None
    unknown: int | None = None


@dataclass(frozen=True)
class Label:
    """A solver's label of a suggested word (with `verify`)."""

    verdict: Viability
    how: How
    seconds: float
    proof_slots: tuple[str, ...] | None
    """For a dead end our search proved: the slots its proof used."""
    fill: list[str] | None
    """With `show_fill`, for a viable word: the lines of a fill with it."""


@dataclass(frozen=True)
class SuggestedWord:
    """A suggested word: its rank's values, and with `verify` its label."""

    word: str
    score: int | None
    fit: float
    label: Label | None = None
    pairs: tuple[str, ...] = ()
    """For a reading of an entry through Schrödinger cells (`xwcp.model.entries`): the best words of the other
    reading that stay arc-consistent with this one (CLINTON: BOBDOLE ...); () for any other slot."""


@dataclass(frozen=True)
class Dropped:
    """A word ranked above the last suggestion that is not suggested: entering it empties the slot `empties`."""

    word: str
    score: int | None
    fit: float
    empties: str


@dataclass(frozen=True)
class SuggestReport:
    """The `xwcp suggest` answer: the slot's top words that survive being entered, maybe labelled."""

    status: Consistency
    reason: str
    is_probe_verdict: bool
    """Whether probing (every word of the slot empties another slot), not arc consistency, found it unfillable."""
    slot: SlotInfo
    dropped: tuple[Dropped, ...] | None
    """The words ranked above the last one shown that empty a slot; None when no word was probed."""
    counts: SuggestCounts
    words: tuple[SuggestedWord, ...]
