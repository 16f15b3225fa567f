"""The design search: CP-SAT patterns alternating with our fill, each unfillable pattern cut by its minimal core.

Loop (`design`):
1. the pattern model (xwcp.designer.pattern) gives a pattern with the themes placed, or proves
   there is none left (then no design exists under the rules: every pattern was cut for a
   reason that holds in any pattern keeping those entries, so the proof is sound). When the model
   has none, the defaults the user did not set are relaxed in turn, with a note, and the search
   goes on in a new model holding every cut so far;
2. the pattern, theme entries written in and locked, is compiled with the user's list, floor
   and bans and filled by the compiled search (`auto`) within FILL_TRY_S;
3. no fill: every slot with no word at all is cut (each is a one-slot core); when there is none,
   the core of the proof (xwcp.search.core.find_core, shrunk to minimal within CORE_TIME_S) is cut. The
   model adds each cut at every translation where the themes could put the same letters. A
   pattern the fill cannot decide in time is excluded exactly (no proof, so no wider cut);
4. a fill: the pattern is a design. The quality search (xwcp.search.quality.fill_quality)
   gets `quality_time_s` to raise its floor and mean; the model then asks later patterns to
   differ from it in `min_diff_cells` cells.
Designs are returned best first (highest floor, then mean). Every design's grid has passed
`check_pattern` and its fill `check_fill`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from xwcp.base.deadline import Cancelled, Deadline, StopReason
from xwcp.base.types import Direction, FillStatus
from xwcp.compile.controls import Controls
from xwcp.compile.problem import Problem, compile_problem
from xwcp.designer.pattern import THEME_GAP, Pattern, PatternModel
from xwcp.designer.request import DesignRequest
from xwcp.designer.rules import Rules, check_pattern
from xwcp.designer.themes import plan_themes
from xwcp.engine.result import FillResult, Limits, Quality, check_fill, fill_grid
from xwcp.model import Grid, find_slots

if TYPE_CHECKING:
    from xwcp.words.wordlist import WordList

FILL_TRY_S = 10.0
"""Time the fill gets to decide one pattern. Theme-locked 15x15 patterns were decided in 0.01-0.2 s
(a fill or a proof), so a pattern not decided in 10 s is a hard one better excluded than waited for."""
PATTERN_SOLVE_S = 60.0
"""Most time one pattern solve may take (at most the time left)."""
CORE_TIME_S = 1.0
"""Time for shrinking one unfillable pattern's core (cores in theme grids took 0.01-0.6 s)."""


@dataclass(frozen=True)
class Design:
    """One designed grid: its pattern, the filled grid, its entries and their quality."""

    pattern: Pattern
    grid: Grid
    problem: Problem
    entries: tuple[str, ...]
    quality: Quality
    n_words: int
    n_blocks: int
    found_s: float
    """Seconds from the start of the search to the first fill of this pattern."""
    done_s: float
    """Seconds from the start to the end of its quality search."""


@dataclass
class DesignStats:
    """What the search went through."""

    n_patterns: int = 0
    n_unfillable: int = 0
    n_undecided: int = 0
    n_cuts: int = 0
    pattern_s: float = 0.0
    fill_s: float = 0.0
    core_s: float = 0.0
    quality_s: float = 0.0
    wall_time_s: float = 0.0
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "patterns": self.n_patterns,
            "unfillable_patterns": self.n_unfillable,
            "undecided_patterns": self.n_undecided,
            "cuts": self.n_cuts,
            "pattern_s": round(self.pattern_s, 3),
            "fill_s": round(self.fill_s, 3),
            "core_s": round(self.core_s, 3),
            "quality_s": round(self.quality_s, 3),
            "seconds": round(self.wall_time_s, 3),
        }


@dataclass(frozen=True)
class DesignEvent:
    """A progress report: what just happened, as one line of text, and the counts so far.

    `kind` is one of: "pattern" (a pattern to fill; `grid` has its rows), "cut" (an unfillable pattern
    and its core), "undecided", "design" (a new design; `design` is set), "quality" (a line of the
    quality search), "note".
    """

    kind: str
    seconds: float
    text: str
    n_patterns: int
    n_designs: int
    n_cuts: int
    grid: tuple[str, ...] | None = None
    design: Design | None = None


@dataclass(frozen=True)
class DesignResult:
    """The outcome: FILLED with one or more designs (best first), UNFILLABLE when no pattern keeps the rules
    (with the themes, list and floor), LIMIT or ABORTED without a design."""

    status: FillStatus
    designs: tuple[Design, ...]
    reason: str
    stats: DesignStats
    rules: Rules
    """The rules the designs keep (the request's, or with a default relaxed; see the notes in `stats`)."""


def design(
    request: DesignRequest,
    words: WordList,
    *,
    progress: Callable[[DesignEvent], None] | None = None,
    abort: threading.Event | None = None,
) -> DesignResult:
    """Design up to `request.count` filled grids around the theme entries.

    Args:
        request: rules, themes, count and options.
        words: the word list (a `WordList`).
        progress: called with each event as the search goes.
        abort: set from another thread to stop (the designs found so far are returned).

    Returns:
        The result; its designs are ranked best first and each is checked.
    """
    return _Search(request, words, progress, abort).run()


class _Search:
    def __init__(
        self,
        request: DesignRequest,
        words: WordList,
        progress: Callable[[DesignEvent], None] | None,
        abort: threading.Event | None,
    ) -> None:
        self.request = request
        self.words = words
        self.progress: Callable[[DesignEvent], None] = progress or (lambda event: None)
        self.abort = abort
        self.start = time.perf_counter()
        self.deadline = Deadline(self.start + request.total_time_s, abort)
        """The whole design's limit and stop: building or growing a pattern model stops at it too."""
        self.stats = DesignStats()
        self.designs: list[Design] = []
        self.rules = request.rules
        self.added: list[tuple[Any, ...]] = []
        """Everything added to the pattern model, replayed into a new one when a default is relaxed."""
        self.n_solves = 0
        self.theme_gap = THEME_GAP
        """The rules in force: the request's, less any default relaxed because no pattern kept it."""

    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    def remaining(self) -> float:
        return self.request.total_time_s - self.elapsed()

    def aborted(self) -> bool:
        return self.abort is not None and self.abort.is_set()

    def say(self, kind: str, text: str, **extra: Any) -> None:
        self.progress(
            DesignEvent(
                kind,
                round(self.elapsed(), 2),
                text,
                self.stats.n_patterns,
                len(self.designs),
                self.stats.n_cuts,
                **extra,
            )
        )

    def note(self, text: str) -> None:
        self.stats.notes.append(text)
        self.say("note", text)

    def _model(self, directions: tuple[Direction, ...]) -> PatternModel:
        """A fresh pattern model under the rules in force, with every cut, exclusion and difference so far
        (each holds whatever the rules: a cut is about entries and letters, not about the rules)."""
        request = self.request
        model = PatternModel(
            self.rules,
            request.themes,
            plan_themes(request.themes, self.rules),
            directions=directions,
            threads=request.threads,
            theme_gap=self.theme_gap,
            deadline=self.deadline,
        )
        for kind, *args in self.added:
            getattr(model, kind)(*args)
        return model

    def _add(self, model: PatternModel, kind: str, *args: Any) -> None:
        """Add a cut ("cut_runs"), an exclusion ("exclude") or a difference ("differ") to the model, and keep
        it for any model built later."""
        self.added.append((kind, *args))
        getattr(model, kind)(*args)

    def _relaxations(self) -> list[tuple[str, str]]:
        """What may be relaxed, in order, when the model has no pattern at all: theme entries two lines apart
        rather than three, rules the user left at their defaults, and themes running down as well as across
        (the order keeps what matters most for a fill longest: the entry-count floor and length cap)."""
        request, rules = self.request, self.request.rules
        steps = []
        if sum(t.at is None for t in request.themes) >= 1 and len(request.themes) >= 2:
            steps.append(("gap", f"keeps the theme entries {THEME_GAP} lines apart: allowing 2"))
        if "min_words" in request.soft and rules.min_words:
            steps.append(("min_words", f"has {rules.min_words} entries or more: allowing fewer"))
        if "max_fill_length" in request.soft and rules.max_fill_length is not None:
            steps.append(
                ("max_fill_length", f"keeps its other entries to {rules.max_fill_length} letters: allowing longer ones")
            )
        if any(t.at is None for t in request.themes):
            steps.append(("down", "keeps every theme entry across: trying down too"))
        return steps

    def run(self) -> DesignResult:
        request = self.request
        try:
            status, reason = self._search()
        except Cancelled as stop:  # a pattern model was being built or grown
            status = FillStatus.ABORTED if stop.reason is StopReason.ABORTED else FillStatus.LIMIT
            reason = (
                "stopped" if stop.reason is StopReason.ABORTED else f"time limit ({request.total_time_s:g} s) reached"
            )
        self.stats.wall_time_s = self.elapsed()
        ranked = sorted(self.designs, key=lambda d: (-(d.quality.min_score or 0), -(d.quality.mean_score or 0.0)))
        if ranked:
            status = FillStatus.FILLED
            if len(ranked) < request.count:
                reason = f"{len(ranked)} of {request.count} designs: {reason}"
            else:
                reason = ""
        return DesignResult(status, tuple(ranked), reason, self.stats, self.rules)

    def _search(self) -> tuple[FillStatus, str]:
        """Patterns and fills until the designs are found or the search ends; (status, reason) when without them.

        Raises:
            Cancelled: the limit passed or the search was stopped while a pattern model was built or grown.
        """
        request = self.request
        directions: tuple[Direction, ...] = (Direction.ACROSS,)
        model = self._model(directions)
        relaxations = self._relaxations()
        status, reason = FillStatus.LIMIT, ""
        while len(self.designs) < request.count:
            if self.aborted():
                status, reason = FillStatus.ABORTED, "stopped"
                break
            if self.remaining() <= 0:
                status, reason = FillStatus.LIMIT, f"time limit ({request.total_time_s:g} s) reached"
                break
            t0 = time.perf_counter()
            self.n_solves += 1
            seed = request.seed * 7919 + self.n_solves
            found, pattern = model.next_pattern(min(PATTERN_SOLVE_S, self.remaining()), seed, self.abort)
            self.stats.pattern_s += time.perf_counter() - t0
            if found is FillStatus.UNFILLABLE and relaxations:
                what, text = relaxations.pop(0)
                self.note(f"no {'other ' if self.stats.n_patterns else ''}pattern {text}")
                if what == "down":
                    directions = (Direction.ACROSS, Direction.DOWN)
                elif what == "gap":
                    self.theme_gap = 2
                else:
                    self.rules = (
                        replace(self.rules, min_words=0)
                        if what == "min_words"
                        else replace(self.rules, max_fill_length=None)
                    )
                model = self._model(directions)
                continue
            if found is FillStatus.UNFILLABLE:
                status = FillStatus.UNFILLABLE
                reason = (
                    "no block pattern keeps the rules with these theme entries"
                    if not self.stats.n_patterns
                    else f"no pattern is left: the {self.stats.n_patterns} patterns tried were fillable only as "
                    "designs already found, or had entries no fill can complete"
                )
                break
            if found is not FillStatus.FILLED:
                status = found
                reason = (
                    "stopped" if found is FillStatus.ABORTED else f"time limit ({request.total_time_s:g} s) reached"
                )
                break
            assert pattern is not None  # FILLED comes with its pattern
            self.stats.n_patterns += 1
            self._try(model, pattern)
        return status, reason

    def _problem(self, grid: Grid, pattern: Pattern) -> Problem:
        request = self.request
        slots = find_slots(grid)
        name_by_cells = {s.cells: s.name for s in slots}
        locks = {name_by_cells[p.cells(grid.width)]: t.word for t, p in zip(request.themes, pattern.placements)}
        controls = Controls(locks=locks, bans=request.bans)
        return compile_problem(grid, self.words, min_score=request.min_score, controls=controls)

    def _try(self, model: PatternModel, pattern: Pattern) -> None:
        """Fill one pattern: a design, or cuts."""
        from xwcp.backends import fill

        request = self.request
        grid = pattern.grid(self.rules, request.themes)
        problems = check_pattern(grid, self.rules, [t.word for t in request.themes])
        if problems:
            raise RuntimeError(f"the pattern model gave a pattern that breaks the rules: {'; '.join(problems[:3])}")
        problem = self._problem(grid, pattern)
        n = self.stats.n_patterns
        self.say("pattern", f"pattern {n}: {len(problem.slots)} words, {grid.n_blocks} blocks", grid=tuple(grid.rows))
        t0 = time.perf_counter()
        result = fill(
            problem,
            "auto",
            Limits(time_limit_s=max(0.05, min(FILL_TRY_S, self.remaining())), seed=request.seed, abort=self.abort),
        )
        self.stats.fill_s += time.perf_counter() - t0
        if result.status is FillStatus.FILLED:
            self._accept(model, pattern, problem, result)
        elif result.status is FillStatus.UNFILLABLE:
            self.stats.n_unfillable += 1
            self._cut(model, pattern, problem, result)
        elif result.status is FillStatus.LIMIT:
            self.stats.n_undecided += 1
            self._add(model, "exclude", pattern)
            self.say("undecided", f"pattern {n}: not decided in {FILL_TRY_S:g} s; excluded")

    def _cut(self, model: PatternModel, pattern: Pattern, problem: Problem, result: FillResult) -> None:
        from xwcp.search.core import find_core

        t0 = time.perf_counter()
        letter_by_cell = {
            c: x
            for c, x in enumerate(problem.grid.cells)  # theme letters: code chars of the alphabet
            if x and all(problem.alphabet.index(ch) is not None for ch in x)
        }
        empty = [
            s.id for s in problem.slots if s.id not in problem.fixed_text_by_slot and not problem.domains[s.id].any()
        ]
        cores = [[s] for s in empty]
        if not empty:
            seeds = [result.slot_id] if result.slot_id is not None else []
            core = find_core(
                problem, time_limit_s=min(CORE_TIME_S, max(0.1, self.remaining())), seed_slot_ids=seeds, is_proven=True
            )
            if core is not None:
                cores.append(list(core.slot_ids))
        for slot_ids in cores:
            cells = [problem.slots[s].cells for s in slot_ids]
            self._add(
                model, "cut_runs", cells, {c: letter_by_cell[c] for run in cells for c in run if c in letter_by_cell}
            )
            self.stats.n_cuts += 1
        if not cores:
            self._add(model, "exclude", pattern)
        self.stats.core_s += time.perf_counter() - t0
        shown = "; ".join(
            " ".join(f"{problem.slots[s].name} {problem.written_pattern(s)}" for s in ids) for ids in cores[:3]
        )
        self.say("cut", f"pattern {self.stats.n_patterns}: unfillable ({shown or 'no core in time: excluded'})")

    def _accept(self, model: PatternModel, pattern: Pattern, problem: Problem, first: FillResult) -> None:
        request = self.request
        found_s = self.elapsed()
        assert first.entries is not None  # a FILLED result has its entries
        entries, quality = first.entries, first.quality_of(problem)
        budget = min(request.quality_time_s, self.remaining())
        if budget > 0.5 and problem.open_slot_ids:
            from xwcp.search.quality import fill_quality

            t0 = time.perf_counter()
            self.say(
                "quality",
                f"pattern {self.stats.n_patterns} filled ({quality.text()}); quality search for {budget:.0f} s",
            )
            better, q = fill_quality(
                problem,
                "auto",
                Limits(time_limit_s=budget, seed=request.seed, abort=self.abort),
                say=lambda line: self.say("quality", f"quality: {line.strip()}"),
            )
            self.stats.quality_s += time.perf_counter() - t0
            if better.status is FillStatus.FILLED and better.entries is not None and q is not None:
                entries, quality = better.entries, q
        violations = check_fill(problem, entries)
        if violations:
            raise RuntimeError(f"design fill breaks the rules: {'; '.join(violations[:3])}")
        grid = fill_grid(problem, entries)
        design_ = Design(
            pattern,
            grid,
            problem,
            tuple(entries),
            quality,
            len(problem.slots),
            grid.n_blocks,
            round(found_s, 3),
            round(self.elapsed(), 3),
        )
        self.designs.append(design_)
        self._add(model, "differ", pattern, request.min_diff_cells)
        self.say(
            "design",
            f"design {len(self.designs)}: {design_.n_words} words, {design_.n_blocks} blocks, {quality.text()}",
            grid=tuple(grid.rows),
            design=design_,
        )
