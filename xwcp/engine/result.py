"""What a fill attempt takes and gives back (Limits, FillResult) and the validator every fill passes."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from xwcp.base.types import FillStatus, SlotId
from xwcp.compile.problem import Problem
from xwcp.model import EMPTY, Grid
from xwcp.runtime.cores import owned_cores

if TYPE_CHECKING:
    from typing import TypeGuard


def default_threads() -> int:
    """Worker threads a solver may use by default: the cores this process may run on."""
    return owned_cores()


@dataclass(frozen=True)
class Progress:
    """A snapshot of a running search, passed to `Limits.progress`."""

    backend: str
    wall_time_s: float
    nodes: int
    backtracks: int
    restarts: int = 0
    filled_slots: int = 0
    n_slots: int = 0
    partial: Mapping[int, str] | None = None
    """The letters placed on the search's current branch (letter cell -> letter, see `Problem.slots`), when
    the backend can tell; `Problem.grid_with_letters` writes them into the grid."""


@dataclass(frozen=True)
class Limits:
    """How long and how a backend may search.

    `count` is how many distinct fills to return (None = 1, 0 = count every fill).
    `abort` may be set from another thread to stop the search (status ABORTED).
    `extra` carries native solver parameters through unchanged.
    `max_processes` caps the processes a search runs at once (`auto`'s portfolio); None: the cores this
    process owns, capped by XWCP_MAX_PROCESSES (xwcp/runtime/cores.py).
    """

    time_limit_s: float | None = None
    seed: int = 0
    max_backtracks: int | None = None
    threads: int = field(default_factory=default_threads)
    count: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Native solver parameters, any value its backend takes (converted and checked there)."""
    abort: threading.Event | None = None
    progress: Callable[[Progress], None] | None = None
    max_processes: int | None = None

    def __post_init__(self) -> None:
        """Refuse a value of the wrong type here, naming the field, rather than deep inside a solver."""

        def fail(name: str, expected: str, value: object) -> None:
            raise TypeError(f"Limits: {name} must be {expected}, not {type(value).__name__} {value!r}")

        if self.time_limit_s is not None and not _is_number(self.time_limit_s, whole=False):
            fail("time_limit_s", "a number of seconds or None", self.time_limit_s)
        if self.time_limit_s is not None and self.time_limit_s < 0:
            raise ValueError(f"Limits: time_limit_s must not be negative, got {self.time_limit_s}")
        for name in ("seed", "threads", "max_backtracks", "count", "max_processes"):
            value = getattr(self, name)
            if value is not None and not _is_number(value, whole=True):
                fail(name, "a whole number", value)
        if self.seed is None:
            fail("seed", "a whole number", self.seed)
        if self.threads is None or self.threads < 1:
            raise ValueError(f"Limits: threads must be at least 1, got {self.threads}")
        if self.max_processes is not None and self.max_processes < 1:
            raise ValueError(f"Limits: max_processes must be at least 1, got {self.max_processes}")
        if self.count is not None and self.count < 0:
            raise ValueError(f"Limits: count must be 0 (count every fill) or more, got {self.count}")
        if self.abort is not None and not callable(getattr(self.abort, "is_set", None)):
            fail("abort", "a threading.Event (or None)", self.abort)
        if self.progress is not None and not callable(self.progress):
            fail("progress", "a callable taking a Progress (or None)", self.progress)
        if not isinstance(self.extra, Mapping):
            fail("extra", "a mapping of native solver parameters", self.extra)


def _is_number(value: object, whole: bool) -> TypeGuard[float]:
    """An int (`whole`) or a real number, numpy's scalars included; never a bool."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int) or (not whole and isinstance(value, float)):
        return True
    import numbers  # here: the start-up path of a small fill never needs it

    return isinstance(value, numbers.Integral if whole else numbers.Real)


def as_limits(limits: object, name: str = "limits") -> Limits:
    """`limits` as Limits: a Limits as it is, a number as that many seconds, None as no limit.

    Raises:
        TypeError: anything else (the message names `name` and what it takes).
        ValueError: a number of seconds that is not more than 0.
    """
    if limits is None:
        return Limits()
    if isinstance(limits, Limits):
        return limits
    if _is_number(limits, whole=False):
        seconds = float(limits)
        if not seconds > 0:
            raise ValueError(f"{name} must be more than 0 seconds, got {limits!r}")
        return Limits(time_limit_s=seconds)
    raise TypeError(f"{name} must be xwcp.Limits or a number of seconds, not {type(limits).__name__}")


@dataclass(frozen=True)
class FillStats:
    wall_time_s: float = 0.0
    nodes: int = 0
    backtracks: int = 0
    restarts: int = 0
    extra: Mapping[str, object] = field(default_factory=dict)


class FloorOutcome(Enum):
    """How a quality search's try at one floor (a fill with every entry at or above a score level) ended."""

    FILLED = "filled"
    PROVEN_EMPTY = "proven_empty"
    """No fill exists with every entry at or above the level."""
    NOT_SETTLED = "not_settled"
    """Its time ran out (or the search moved on) before it found a fill or proved there is none."""


@dataclass(frozen=True)
class FloorTry:
    """One floor a quality search tried: the score level, how the try ended, and how long it took."""

    level: int
    outcome: FloorOutcome
    seconds: float
    by: str = "climb"
    """Which part asked: "first" (the first fill), "climb" (the floor climb) or "proof" (the proof beside the mean)."""

    def as_dict(self) -> dict[str, object]:
        return {"level": self.level, "outcome": self.outcome.value, "seconds": round(self.seconds, 2), "by": self.by}

    def text(self) -> str:
        """`85 filled in 12.1 s`, `86 proven empty in 3.2 s`, `90 not settled in 18.0 s`."""
        what = {
            FloorOutcome.FILLED: "filled",
            FloorOutcome.PROVEN_EMPTY: "proven empty",
            FloorOutcome.NOT_SETTLED: "not settled",
        }[self.outcome]
        return f"{self.level} {what} in {self.seconds:.1f} s"


@dataclass(frozen=True)
class Quality:
    """How good a fill is, over its open slots (entries the fill chose, not the user's or locks)."""

    min_score: int | None
    mean_score: float | None
    n_at_min: int = 0
    floor_optimal: bool = False
    """True only when a fill at the next score level up was proven impossible."""
    mean_bound: float | None = None
    """An upper bound on the mean of any fill at this floor, when a quality search computed one."""
    floors: tuple[FloorTry, ...] = ()
    """The floors the quality search that found this fill tried, in the order they ended (empty otherwise)."""

    def as_dict(self) -> dict[str, object]:
        return {
            "min_score": self.min_score,
            "mean_score": None if self.mean_score is None else round(self.mean_score, 2),
            "floor_optimal": self.floor_optimal,
            "mean_bound": None if self.mean_bound is None else round(self.mean_bound, 2),
            "n_at_min": self.n_at_min,
        }

    def text(self) -> str:
        """`quality: mean 88.4 (bound 89.1), min 80 (highest possible), 2 entries at 80`."""
        if self.mean_score is None:
            return "quality: no open slots"
        bound = f" (bound {self.mean_bound:.1f})" if self.mean_bound is not None else ""
        proven = " (highest possible)" if self.floor_optimal else ""
        s = "y" if self.n_at_min == 1 else "ies"
        return (
            f"quality: mean {self.mean_score:.1f}{bound}, min {self.min_score}{proven}, "
            f"{self.n_at_min} entr{s} at {self.min_score}"
        )

    def floors_text(self) -> str:
        """`floors tried: 50 filled in 0.1 s (first); 85 filled in 12.1 s; 90 not settled in 18.0 s (proof)`; '' when none."""
        if not self.floors:
            return ""
        parts = [t.text() + ("" if t.by == "climb" else f" ({t.by})") for t in self.floors]
        return "floors tried: " + "; ".join(parts)


def entry_scores(problem: Problem, entries: Sequence[str]) -> list[int]:
    """Scores of the entries a fill chose: its open slots (not entered, locked or skipped by a region)."""
    return [problem.words.score(entries[s]) or 0 for s in problem.open_slot_ids]


def measure_quality(
    problem: Problem, entries: Sequence[str], *, floor_optimal: bool = False, mean_bound: float | None = None
) -> Quality:
    """The quality of one fill (min, mean and how many entries sit at the min)."""
    scores = entry_scores(problem, entries)
    if not scores:
        return Quality(None, None)
    low = min(scores)
    return Quality(low, sum(scores) / len(scores), scores.count(low), floor_optimal, mean_bound)


@dataclass(frozen=True)
class FillResult:
    """The outcome of `fill`: a status, and when FILLED the entry of every slot (in slot order)."""

    status: FillStatus
    backend: str
    stats: FillStats = field(default_factory=FillStats)
    fills: tuple[tuple[str, ...], ...] = ()
    """Every fill found (one unless `Limits.count` asked for more); each has one entry per slot."""
    n_fills: int = 0
    """Fills counted; equals len(fills) except when counting all fills (count=0)."""
    reason: str = ""
    """For UNFILLABLE: why, naming the slot; for LIMIT/ABORTED: which limit."""
    slot_id: SlotId | None = None
    """For UNFILLABLE: the slot proven to have no word, when one is known."""
    weight_by_slot: Mapping[SlotId, float] | None = None
    """For UNFILLABLE by search: each slot's share of the dead ends (failure weights), from which the
    minimal-core search (xwcp/search/core.py) starts instead of proving the grid again."""
    qualities: tuple[Quality, ...] = ()
    """One per fill when measured (front ends use `quality_of`)."""
    stopped_by: str | None = None
    """The stop signal (e.g. 'SIGINT') that ended a quality search early in the command line: the fills are
    the best found until then (`xwcp fill --quality` prints them and exits 128 + the signal's number)."""

    def quality_of(self, problem: Problem, fill_index: int = 0) -> Quality:
        """The quality of fill `fill_index`: as the quality search reported it, else measured now.

        Raises:
            ValueError: `fill_index` is not the index of one of this result's fills.
        """
        self._check_index(fill_index)
        if fill_index < len(self.qualities):
            return self.qualities[fill_index]
        return measure_quality(problem, self.fills[fill_index])

    def _check_index(self, fill_index: int) -> None:
        if isinstance(fill_index, bool) or not isinstance(fill_index, int):
            raise TypeError(f"fill_index must be an int, not {type(fill_index).__name__}")
        if not 0 <= fill_index < len(self.fills):
            has = (
                f"this result has no fill (status {self.status.value})"
                if not self.fills
                else f"this result has {len(self.fills)} fill{'s' if len(self.fills) != 1 else ''}, "
                f"numbered 0 to {len(self.fills) - 1}"
            )
            raise ValueError(f"fill_index {fill_index} is out of range: {has}")

    @property
    def entries(self) -> tuple[str, ...] | None:
        return self.fills[0] if self.fills else None

    def grid(self, problem: Problem, fill_index: int = 0) -> Grid:
        """The problem's grid with fill number `fill_index` written in.

        Raises:
            ValueError: `fill_index` is not the index of one of this result's fills.
        """
        self._check_index(fill_index)
        return fill_grid(problem, self.fills[fill_index])


def fill_grid(problem: Problem, entries: tuple[str, ...] | list[str]) -> Grid:
    """The problem's grid with `entries` written into its empty cells (bars, marks and rebus cells kept);
    a region fill writes only its region's empty cells."""
    letter_by_cell: dict[int, str] = {}
    allowed = problem.fillable_cells
    for slot, entry in zip(problem.slots, entries):
        if slot.id in problem.skipped_slot_ids:
            continue
        for cell, letter in zip(slot.cells, entry):
            if allowed is None or cell in allowed:
                letter_by_cell[cell] = letter
    return problem.grid_with_letters(letter_by_cell)


def grid_entries(problem: Problem, grid: Grid) -> list[str]:
    """The entry of every slot of `problem` read from `grid` (a fill of the problem's grid: the same
    blocks, bars and rebus cells), in slot order; an empty cell reads '.'."""
    from xwcp.model.letters import spell_out

    letters = spell_out(grid).letters
    return ["".join(letters[c] for c in slot.cells) for slot in problem.slots]


def _is_a_to_z(entry: str) -> bool:
    return entry.isascii() and entry.isalpha() and entry.isupper()


def check_fill(problem: Problem, entries: Sequence[str] | None) -> list[str]:
    """Every way `entries` (one per slot, in slot order) breaks the rules; empty when it is valid.

    Rules: each entry has the slot's length and is a listed word at or above the slot's minimum
    score and not banned, or the user's own complete (or locked) entry for that slot; crossing
    cells agree; pre-filled letters are kept; no word appears twice (unless the problem allows
    duplicates); each open slot's entry passes its filters; and no pair of entries breaks a pair rule of
    the controls (a shared substring too long, two entries of one stem, a forbidden crossing of tagged
    entries: `xwcp.compile.pairs`). A slot a
    region fill skips keeps its pattern as its entry. An entry spells its slot's letter cells
    (`Problem.slots`): through a rebus cell it spells the cell's whole string, which it keeps
    and shares with the crossing entry.
    """
    violations: list[str] = []
    if entries is None or len(entries) != len(problem.slots):
        n = 0 if entries is None else len(entries)
        return [f"expected {len(problem.slots)} entries, got {n}"]
    letter_by_cell: dict[int, str] = {}
    slot_by_text: dict[str, str] = {}
    letters = problem.letters
    alphabet = problem.alphabet
    is_letters = _is_a_to_z if alphabet.is_ascii else frozenset(alphabet.chars).issuperset  # English: as it was
    for slot, entry in zip(problem.slots, entries):
        if slot.id in problem.skipped_slot_ids:
            if entry != problem.fixed_text_by_slot[slot.id]:
                violations.append(f"{slot.name}: {entry} fills a slot outside the region")
            continue
        fixed = problem.fixed_text_by_slot.get(slot.id)
        if len(entry) != slot.length or (
            entry != fixed  # the user's own entry may hold a rebus symbol
            and not is_letters(entry)
        ):
            violations.append(f"{slot.name}: {entry!r} is not a {slot.length}-letter entry of {alphabet.name}")
            continue
        if fixed is not None:
            if entry != fixed:
                violations.append(f"{slot.name}: {entry} replaces the user's entry {fixed}")
        else:
            score = problem.words.score(entry)
            if score is None:
                violations.append(f"{slot.name}: {entry} is not in the word list")
            elif score < problem.slot_min_score(slot.id):
                violations.append(
                    f"{slot.name}: {entry} scores {score}, below the minimum {problem.slot_min_score(slot.id)}"
                )
            if entry in problem.banned:
                violations.append(f"{slot.name}: {entry} is banned")
        for cell, letter in zip(slot.cells, entry):
            given = letters[cell]
            if given != EMPTY and given != letter:
                at = problem.cell_of(cell)
                held = problem.grid.cells[at]
                given = given if held == given else f"{given} of the rebus {held}"
                violations.append(
                    f"{slot.name}: {entry} changes the pre-filled {given} at row "
                    f"{at // problem.grid.width + 1}, column {at % problem.grid.width + 1}"
                )
            seen = letter_by_cell.setdefault(cell, letter)
            if seen != letter:
                at = problem.cell_of(cell)
                violations.append(
                    f"{slot.name}: {entry} puts {letter} where a crossing entry has {seen} "
                    f"(row {at // problem.grid.width + 1}, column {at % problem.grid.width + 1})"
                )
        if not problem.allow_dupes:
            if entry in slot_by_text:
                violations.append(f"{slot.name}: {entry} is also the entry of {slot_by_text[entry]}")
            else:
                slot_by_text[entry] = slot.name
    if problem.grid.has_variety:
        violations.extend(_entry_violations(problem, letter_by_cell))
    if problem.filters_by_slot and not violations:
        written = problem.alphabet.written
        for slot_id, filters in problem.filters_by_slot.items():
            if slot_id in problem.fixed_text_by_slot:
                continue
            shown = written(entries[slot_id])
            for one in filters:
                if not one.keeps(shown):
                    violations.append(f"{problem.slots[slot_id].name}: {shown} fails its filter {one}")
    if problem.controls.has_pair_rules and not violations:
        from xwcp.compile.pairs import pair_clashes

        live = {s.id: e for s, e in zip(problem.slots, entries) if s.id not in problem.skipped_slot_ids}
        violations.extend(clash.reason for clash in pair_clashes(problem, live))
    return violations


def _entry_violations(problem: Problem, letter_by_cell: Mapping[int, str]) -> list[str]:
    """What a fill of a grid with listed entries or Schrödinger cells (`xwcp.model.entries`) misses, read from the
    grid itself rather than from the compiled slots: each listed entry is a slot over exactly its cells (two
    slots, its readings, through a Schrödinger cell), and each Schrödinger cell's two letters are both filled."""
    grid = problem.grid
    out: list[str] = []
    slots_by_entry: dict[str, list[int]] = {}
    for slot in problem.slots:
        slots_by_entry.setdefault(slot.entry_name, []).append(slot.id)
    for entry in grid.entries:
        readings = 2 if not grid.pairs.isdisjoint(entry.cells) else 1
        slot_ids = slots_by_entry.get(entry.name, [])
        wrong_count = len(slot_ids) > readings if problem.is_part else len(slot_ids) != readings
        if wrong_count or any(tuple(problem.slot_cells(s)) != entry.cells for s in slot_ids):
            out.append(f"{entry.name}: the listed entry is not filled as its cells")
    if problem.is_part:  # a kept reading's letters are checked as any slot's; the cell's other one may be dropped
        return out
    n_cells = len(grid.cells)
    for k, cell in enumerate(problem.cell_by_extra):
        if cell in grid.pairs and (cell not in letter_by_cell or n_cells + k not in letter_by_cell):
            row, col = divmod(cell, grid.width)
            out.append(f"the Schrödinger cell at row {row + 1}, column {col + 1} lacks one of its two letters")
    return out
