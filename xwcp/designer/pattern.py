"""The block pattern as a CP-SAT model: symmetry, run lengths, connectivity, theme placement and counts.

One Boolean per symmetry orbit of cells says "block" (so the pattern is symmetric by
construction). Each line (row or column, one per pair of symmetric lines) gets a table of its
legal block/white sequences with its number of entries: runs of white cells of 3 or more (and 1,
British style), at most `max_block_run` blocks in a row; the grid's entry count is the sum of the
lines' counts. Lines too long for a table (LINE_TABLE_MAX) use clauses and a Boolean per cell that
starts an entry instead. British checking adds clauses: no white cell outside every entry, no two
unchecked letters in a row in an entry. Each theme entry has one Boolean per place it may go
(exactly one true); a placement makes its cells white and the cells at its two ends blocks, and
claims its letters (at most one letter per cell, so theme entries cross only where they agree).
Equal-length themes are tied as symmetric images; one odd one is held to the centre line;
parallel theme entries keep `theme_gap` lines apart. A window of `max_fill_length` + 1 white cells
must be covered by a theme entry or its image. Linear caps bound the entries and the blocks.

Connectivity is lazy by default: a solution whose white cells fall apart is cut (for each part but
the largest: one of its cells and one of the largest's white means one of its border cells is
white) and the model solved again; `connectivity="flow"` puts a single-commodity flow in the
model instead (measured slower: 2.1 s a solve against 0.9 s on a 15x15).

The model grows between solves (CP-SAT is not incremental: each `next_pattern` solves it
again, with everything added so far):
- `cut_runs`: a set of entries that cannot be filled together (a core of the fill) is forbidden
  with the letters the themes put in it: some cell of them turns block, some end turns white,
  or some theme letter in them changes. Any pattern keeping those entries with those letters is
  unfillable for the same reason, and so is any translation of them, so the cut is added at
  every translation where the themes could put those letters; it loses no fillable pattern.
- `exclude`: one exact pattern (blocks and placements), when the fill could not decide it.
- `differ`: later patterns differ from a found design in at least K cells' blocks.
Randomness comes from the solver seed and a random hint per solve, so patterns vary.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeAlias

from xwcp.base.deadline import NEVER, Deadline, StopReason
from xwcp.base.types import Direction, FillStatus
from xwcp.designer.rules import Rules, Style
from xwcp.designer.themes import Placement, Theme, ThemePlan, candidate_placements
from xwcp.model import BLOCK, EMPTY, Grid

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import BoolVarT, IntVar, LinearExpr

    Lit: TypeAlias = "BoolVarT | bool"
    """A CP-SAT literal, or a Python bool for a cell outside the grid (True satisfies a clause, False drops out)."""

THEME_GAP = 3
"""Fewest lines between two parallel theme entries that share columns (3: two rows between them). Theme
entries one row apart give every entry crossing both two fixed letters one apart: with the five AV Club
2011-06-22 themes, 29 of 30 patterns failed on such entries (A.K.I, P.E.W, I.K.E); published themed
15x15s keep them apart (NYT 2008-03-10: 3-4 rows) or stack them on purpose (a user's `--at`)."""
LINE_TABLE_MAX = 20_000
"""Most legal sequences a line's table may hold (451 for a 15-cell line, 6,331 for 21 cells; 36,713 for 25
and 330,156 for 30, too many to load in every solve): longer lines are modelled by clauses and a count of
the cells that start an entry. The tables count entries per line, which the clauses' count does weakly: on
a 15x15 with at least 72 entries, 3-26 s a solve or none in 30 s, against about 2 s with tables."""
SOLVER_PARAMETERS = {"cp_model_presolve": False, "use_sat_inprocessing": False, "catch_sigint_signal": False}
"""CP-SAT parameters we change: presolve (symmetry detection, probing) took 1.6 s of a 2.2 s solve of the
15x15 model and is redone on every solve; inprocessing slowed the rest. Ctrl-C stays Python's (xwcp.runtime.signals)."""
RANDOM_BLOCK_SHARE = 0.15
"""Share of cells hinted as blocks in a fresh solve's random hint (a 15x15 has 33-42 blocks: 15-19%)."""
POLL_S = 0.05
"""How often the watcher thread checks the limits and the caller's abort event during a solve."""


@dataclass(frozen=True)
class Pattern:
    """A block pattern with its theme entries placed (placement i is theme i's)."""

    blocks: frozenset[int]
    placements: tuple[Placement, ...]

    def grid(self, rules: Rules, themes: Sequence[Theme]) -> Grid:
        """The grid: '#' blocks, theme letters, '.' elsewhere."""
        cells = [BLOCK if c in self.blocks else EMPTY for c in range(rules.n_cells)]
        for theme, placement in zip(themes, self.placements):
            for cell, letter in zip(placement.cells(rules.width), theme.word):
                cells[cell] = letter
        return Grid(rules.width, rules.height, tuple(cells))


@dataclass
class PatternStats:
    """What the model has been through: solves, seconds in them, and the constraints added."""

    n_solves: int = 0
    solve_s: float = 0.0
    n_cuts: int = 0
    n_cut_clauses: int = 0
    n_excluded: int = 0
    n_differ: int = 0
    n_connect_cuts: int = 0


@dataclass
class PatternModel:
    """The pattern model for one design request; `next_pattern` solves it, the other methods add to it."""

    rules: Rules
    themes: tuple[Theme, ...]
    plan: ThemePlan
    directions: tuple[Direction, ...] = (Direction.ACROSS,)
    threads: int = 1
    theme_gap: int = THEME_GAP
    """See THEME_GAP; 1 lets parallel theme entries touch."""
    connectivity: str = "lazy"
    """"lazy": solve without it, cut each disconnected pattern and solve again; "flow": a flow in the model."""
    stats: PatternStats = field(default_factory=PatternStats)
    deadline: Deadline = field(default=NEVER, compare=False, repr=False)
    """The design's limit and abort event: building the model or adding to it raises `Cancelled` past it (a
    60x60 model takes seconds to build), and a solve stops at it."""

    def __post_init__(self) -> None:
        from ortools.sat.python import cp_model

        self._cp = cp_model
        self.model = cp_model.CpModel()
        self._orbit_of: dict[int, int] = {}
        self._block: dict[int, IntVar] = {}
        self._x: list[dict[Placement, IntVar]] = []
        self._letter: dict[tuple[int, str], IntVar] = {}
        self._build()

    # ----- literals -------------------------------------------------------------------------

    def B(self, cell: int | None) -> Lit:
        """The literal 'cell is a block'; True (Python) outside the grid."""
        return True if cell is None else self._block[cell]

    def W(self, cell: int | None) -> Lit:
        """The literal 'cell is white'; False (Python) outside the grid."""
        return False if cell is None else ~self._block[cell]

    def _clause(self, literals: Iterable[Lit]) -> None:
        """Add OR(literals), where Python True satisfies it and False drops out."""
        kept: list[BoolVarT] = []
        for lit in literals:
            if lit is True:
                return
            if lit is not False:
                kept.append(lit)
        self.model.add_bool_or(kept)

    def _cell(self, row: int, col: int) -> int | None:
        r = self.rules
        return row * r.width + col if 0 <= row < r.height and 0 <= col < r.width else None

    # ----- the model ------------------------------------------------------------------------

    def _build(self) -> None:
        rules, model = self.rules, self.model
        for cell in range(rules.n_cells):
            self._orbit_of[cell] = min(cell, rules.image(cell))
        self.deadline.check()
        for cell in range(rules.n_cells):
            orbit = self._orbit_of[cell]
            if orbit not in self._block:
                self._block[orbit] = model.new_bool_var(f"b{orbit}")
            self._block[cell] = self._block[orbit]
        self._run_lengths()
        if self.connectivity == "flow":
            self._connected()
        self._counts()
        self._place_themes()
        if rules.max_fill_length is not None:
            self._fill_length(rules.max_fill_length)

    def _lines(self) -> list[tuple[Direction, list[int]]]:
        w, h = self.rules.width, self.rules.height
        return [(Direction.ACROSS, [r * w + c for c in range(w)]) for r in range(h)] + [
            (Direction.DOWN, [r * w + c for r in range(h)]) for c in range(w)
        ]

    def _run_lengths(self) -> None:
        for _, line in self._lines():
            self.deadline.check()
            n = len(line)
            padded = [None, None] + list(line) + [None, None]  # outside the grid: None

            def at(i: int, padded: list[int | None] = padded) -> int | None:
                return padded[i + 2]

            for i in range(n):
                if self.rules.style is Style.AMERICAN:  # no run of exactly one white cell
                    self._clause([self.W(at(i - 1)), self.B(at(i)), self.W(at(i + 1))])
                if i + 1 < n:  # no run of exactly two
                    self._clause([self.W(at(i - 1)), self.B(at(i)), self.B(at(i + 1)), self.W(at(i + 2))])
        if self.rules.style is Style.BRITISH:
            self._british_checking()

    def _british_checking(self) -> None:
        rules = self.rules
        for row in range(rules.height):
            self.deadline.check()
            for col in range(rules.width):
                cell = self._cell(row, col)
                left, right, up, down = (
                    self._cell(row, col - 1),
                    self._cell(row, col + 1),
                    self._cell(row - 1, col),
                    self._cell(row + 1, col),
                )
                # a white cell is in an across or a down entry
                self._clause([self.B(cell), self.W(left), self.W(right), self.W(up), self.W(down)])
                # two white cells one above the other, both unchecked across: not allowed (and the transpose)
                below = self._cell(row + 1, col)
                if below is not None:
                    self._clause(
                        [
                            self.B(cell),
                            self.B(below),
                            self.W(left),
                            self.W(right),
                            self.W(self._cell(row + 1, col - 1)),
                            self.W(self._cell(row + 1, col + 1)),
                        ]
                    )
                beside = self._cell(row, col + 1)
                if beside is not None:
                    self._clause(
                        [
                            self.B(cell),
                            self.B(beside),
                            self.W(up),
                            self.W(down),
                            self.W(self._cell(row - 1, col + 1)),
                            self.W(self._cell(row + 1, col + 1)),
                        ]
                    )

    def _connected(self) -> None:
        """Single-commodity flow: the root sends one unit to every white cell along white cells."""
        rules, model = self.rules, self.model
        n = rules.n_cells
        roots = [model.new_bool_var(f"root{c}") for c in range(n)]
        model.add_exactly_one(roots)
        inflow: list[list[IntVar]] = [[] for _ in range(n)]
        outflow: list[list[IntVar]] = [[] for _ in range(n)]
        for cell in range(n):
            self.deadline.check()
            row, col = divmod(cell, rules.width)
            model.add_implication(roots[cell], self.W(cell))
            for other in (self._cell(row, col + 1), self._cell(row + 1, col)):
                if other is None:
                    continue
                for a, b in ((cell, other), (other, cell)):
                    flow = model.new_int_var(0, n - 1, f"f{a}_{b}")
                    model.add(flow == 0).only_enforce_if(self.B(a))
                    model.add(flow == 0).only_enforce_if(self.B(b))
                    outflow[a].append(flow)
                    inflow[b].append(flow)
        for cell in range(n):
            supply = model.new_int_var(0, n, f"s{cell}")
            model.add(supply == 0).only_enforce_if(~roots[cell])
            # in - out + supply = 1 for a white cell, 0 for a block
            model.add(sum(inflow[cell]) - sum(outflow[cell]) + supply + self.B(cell) == 1)

    def _starts(self) -> list[IntVar]:
        """One literal per cell: an entry starts there (across and down)."""
        rules, model = self.rules, self.model
        starts: list[IntVar] = []
        for cell in range(rules.n_cells):
            self.deadline.check()
            row, col = divmod(cell, rules.width)
            for before, after in (
                (self._cell(row, col - 1), self._cell(row, col + 1)),
                (self._cell(row - 1, col), self._cell(row + 1, col)),
            ):
                needs = [self.W(cell), self.B(before)]
                if rules.style is Style.BRITISH:
                    needs.append(self.W(after))  # a lone cell is unchecked, not an entry
                if any(x is False for x in needs):
                    continue
                needs = [x for x in needs if x is not True]
                start = model.new_bool_var(f"start{cell}")
                for lit in needs:
                    model.add_implication(start, lit)
                model.add_bool_or([~lit for lit in needs] + [start])
                starts.append(start)
        return starts

    def _line_tables(self) -> LinearExpr | int:
        """Per line, a table of its allowed block/white sequences with its entry count; returns the word count.

        A line whose symmetric image was already tabled is skipped (same variables, reversed) and counted
        twice through its image instead.
        """
        model = self.model
        terms: list[IntVar] = []
        tuples_by_length: dict[int, list[tuple[int, ...]]] = {}
        seen: dict[frozenset[int], IntVar] = {}
        for _, line in self._lines():
            self.deadline.check()
            image = frozenset(self.rules.image(c) for c in line)
            if image in seen and image != frozenset(line):
                terms.append(seen[image])
                continue
            n = len(line)
            if n not in tuples_by_length:
                tuples_by_length[n] = line_patterns(n, self.rules.style, self.rules.max_block_run)
            count = model.new_int_var(0, n, "runs")
            model.add_allowed_assignments([self._block[c] for c in line] + [count], tuples_by_length[n])
            seen[frozenset(line)] = count
            terms.append(count)
        return sum(terms)

    def _counts(self) -> None:
        rules, model = self.rules, self.model
        lengths = {len(line) for _, line in self._lines()}
        if all(n_line_patterns(n, rules.style, rules.max_block_run) <= LINE_TABLE_MAX for n in lengths):
            n_words = self._line_tables()
        else:
            n_words = sum(self._starts())
            if rules.max_block_run is not None:
                self._block_runs(rules.max_block_run)
        model.add(n_words <= rules.max_words)
        if rules.min_words:
            model.add(n_words >= rules.min_words)
        model.add(sum(self.B(c) for c in range(rules.n_cells)) <= rules.max_blocks)

    def _block_runs(self, longest: int) -> None:
        """No more than `longest` blocks in a row across or down (the tables' rule, as clauses)."""
        for _, line in self._lines():
            self.deadline.check()
            for start in range(len(line) - longest):
                self._clause([self.W(c) for c in line[start : start + longest + 1]])

    def _place_themes(self) -> None:
        rules, model = self.rules, self.model
        paired = {a: b for a, b in self.plan.pairs}
        for index, theme in enumerate(self.themes):
            length = len(theme.word)
            if theme.at is not None:
                options = [theme.at]
            else:
                options = candidate_placements(length, rules, self.directions)
                if index == self.plan.central:
                    options = [
                        p
                        for p in candidate_placements(length, rules, (Direction.ACROSS, Direction.DOWN))
                        if p.image(rules) == p
                    ]
            x = {p: model.new_bool_var(f"x{index}_{p.row}_{p.col}_{p.direction.letter}") for p in options}
            model.add_exactly_one(list(x.values()))
            self._x.append(x)
            for placement, lit in x.items():
                self.deadline.check()
                cells = placement.cells(rules.width)
                for cell in cells:
                    model.add_implication(lit, self.W(cell))
                for end in placement.ends(rules):
                    if end is not None:
                        model.add_implication(lit, self.B(end))
                for cell, letter in zip(cells, theme.word):
                    key = (cell, letter)
                    if key not in self._letter:
                        self._letter[key] = model.new_bool_var(f"y{cell}{letter}")
                    model.add_implication(lit, self._letter[key])
        letters_by_cell: dict[int, list[IntVar]] = {}
        for (cell, _), lit in self._letter.items():
            letters_by_cell.setdefault(cell, []).append(lit)
        for lits in letters_by_cell.values():
            if len(lits) > 1:
                model.add_at_most_one(lits)
        for a, b in paired.items():
            for placement, lit in self._x[a].items():
                other = self._x[b].get(placement.image(rules))
                if other is None:
                    model.add(lit == 0)
                else:
                    model.add(lit == other)
        if self.theme_gap > 1:
            self._keep_themes_apart()

    def _keep_themes_apart(self) -> None:
        """Two parallel theme entries that share columns (rows, for down entries) lie at least `theme_gap`
        lines apart. Fixed (`--at`) pairs are the user's choice and are left alone."""
        for a in range(len(self.themes)):
            for b in range(a + 1, len(self.themes)):
                if self.themes[a].at is not None and self.themes[b].at is not None:
                    continue
                for p, lit_p in self._x[a].items():
                    self.deadline.check()
                    for q, lit_q in self._x[b].items():
                        if p.direction is not q.direction:
                            continue
                        if p.direction is Direction.ACROSS:
                            near = (
                                abs(p.row - q.row) < self.theme_gap
                                and p.col < q.col + q.length
                                and q.col < p.col + p.length
                            )
                        else:
                            near = (
                                abs(p.col - q.col) < self.theme_gap
                                and p.row < q.row + q.length
                                and q.row < p.row + p.length
                            )
                        if near and p != q:
                            self.model.add_bool_or([~lit_p, ~lit_q])

    def _fill_length(self, longest: int) -> None:
        """No run of more than `longest` white cells unless a theme entry (or a theme's image) fills it.

        The placements covering each window are gathered once, by the window's direction and first cell (a
        placement covers the windows starting in its first `length - longest` cells), not sought per window.
        """
        rules = self.rules
        span = longest + 1
        covering_by_window: dict[tuple[Direction, int], list[Lit]] = {}
        for x in self._x:
            for placement, lit in x.items():
                self.deadline.check()
                for p in {placement, placement.image(rules)}:
                    cells = p.cells(rules.width)
                    for start in range(p.length - span + 1):
                        covering_by_window.setdefault((p.direction, cells[start]), []).append(lit)
        for direction, line in self._lines():
            self.deadline.check()
            for start in range(len(line) - longest):
                window = set(
                    line[start : start + span]
                )  # a set, iterated as before: the same clause, literal for literal
                self._clause([self.B(c) for c in window] + covering_by_window.get((direction, line[start]), []))

    # ----- growing the model ----------------------------------------------------------------

    def cut_runs(self, runs: Sequence[Sequence[int]], letter_by_cell: dict[int, str]) -> int:
        """Forbid these entries (each a run of cells, bounded by blocks or the edge) from all appearing
        with these theme letters: the cut a core of the fill gives. The same cut is added at every
        translation of the entries that stays inside the grid and where the themes could put those
        letters: a translated core is the same sub-problem (same lengths, crossings and letters), so it
        cannot be filled either.

        Returns:
            The clauses added (one per translation kept).
        """
        rules = self.rules
        w = rules.width
        rows = [c // w for run in runs for c in run]
        cols = [c % w for run in runs for c in run]
        added = 0
        for dr in range(-min(rows), rules.height - max(rows)):
            self.deadline.check()
            for dc in range(-min(cols), rules.width - max(cols)):
                clause = self._cut_clause(runs, letter_by_cell, dr, dc)
                if clause is not None:
                    self._clause(clause)
                    added += 1
        self.stats.n_cuts += 1
        self.stats.n_cut_clauses += added
        return added

    def _cut_clause(
        self, runs: Sequence[Sequence[int]], letter_by_cell: dict[int, str], dr: int, dc: int
    ) -> list[Lit] | None:
        """The cut's clause moved by (dr, dc), or None when the themes cannot put its letters there."""
        w = self.rules.width

        def moved(cell: int) -> int:
            return (cell // w + dr) * w + cell % w + dc

        literals: list[Lit] = []
        for cell, letter in letter_by_cell.items():
            lit = self._letter.get((moved(cell), letter))
            if lit is None:
                return None
            literals.append(~lit)
        for cells in runs:
            literals.extend(self.B(moved(c)) for c in cells)
            first, last = moved(cells[0]), moved(cells[-1])
            if cells[1] - cells[0] == 1:
                before = self._cell(first // w, first % w - 1)
                after = self._cell(last // w, last % w + 1)
            else:
                before = self._cell(first // w - 1, first % w)
                after = self._cell(last // w + 1, last % w)
            literals.extend([self.W(before), self.W(after)])
        return list(dict.fromkeys(literals))

    def exclude(self, pattern: Pattern) -> None:
        """Forbid exactly this pattern: its blocks and its theme placements."""
        literals = [self.W(c) if c in pattern.blocks else self.B(c) for c in sorted(set(self._orbit_of.values()))]
        for x, placement in zip(self._x, pattern.placements):
            literals.append(~x[placement])
        self._clause(literals)
        self.stats.n_excluded += 1

    def differ(self, pattern: Pattern, min_cells: int) -> None:
        """Later patterns have at least `min_cells` cells whose block/white state differs from `pattern`'s."""
        size_by_orbit: dict[int, int] = {}
        for orbit in self._orbit_of.values():
            size_by_orbit[orbit] = size_by_orbit.get(orbit, 0) + 1
        terms: list[LinearExpr] = []
        for orbit, size in size_by_orbit.items():
            b = self._block[orbit]
            terms.append(size * (1 - b) if orbit in pattern.blocks else size * b)
        self.model.add(sum(terms) >= min_cells)
        self.stats.n_differ += 1

    # ----- solving --------------------------------------------------------------------------

    def next_pattern(
        self, time_limit_s: float, seed: int = 0, abort: threading.Event | None = None
    ) -> tuple[FillStatus, Pattern | None]:
        """A pattern keeping everything in the model, or why not.

        Args:
            time_limit_s: the time limit (for the solves and any connectivity rounds together).
            seed: the solver's seed, and the random hint's.
            abort: set from another thread to stop the solve.

        Returns:
            (FILLED, pattern); (UNFILLABLE, None) when the model is proven to have no pattern at all;
            (LIMIT, None) when the time ran out; (ABORTED, None) when `abort` was set.
        """
        deadline = time.perf_counter() + time_limit_s
        while True:
            status, pattern = self._solve(deadline - time.perf_counter(), seed, abort)
            if pattern is None or self.connectivity == "flow":
                return status, pattern
            parts = white_components(pattern.blocks, self.rules)
            if len(parts) <= 1:
                return status, pattern
            self._cut_disconnected(pattern, parts)
            seed += 1

    def _cut_disconnected(self, pattern: Pattern, parts: list[list[int]]) -> None:
        """For each white component but the largest: if one of its cells and a cell of the largest are white,
        a cell of its border (the blocks next to it) is white. Holds in any connected pattern."""
        rules = self.rules
        largest = max(parts, key=len)
        for part in parts:
            if part is largest:
                continue
            inside = set(part)
            border = set()
            for cell in part:
                row, col = divmod(cell, rules.width)
                for other in (
                    self._cell(row - 1, col),
                    self._cell(row + 1, col),
                    self._cell(row, col - 1),
                    self._cell(row, col + 1),
                ):
                    if other is not None and other not in inside:
                        border.add(other)
            self._clause([self.B(part[0]), self.B(largest[0])] + [self.W(c) for c in sorted(border)])
            self.stats.n_connect_cuts += 1

    def _solve(
        self, time_limit_s: float, seed: int, abort: threading.Event | None
    ) -> tuple[FillStatus, Pattern | None]:
        cp_model = self._cp
        if time_limit_s <= 0:
            return FillStatus.LIMIT, None
        rng = random.Random(seed)
        self.model.clear_hints()  # type: ignore[no-untyped-call]  # ortools 9.15 leaves clear_hints unannotated
        for orbit in sorted(set(self._orbit_of.values())):
            self.model.add_hint(self._block[orbit], rng.random() < RANDOM_BLOCK_SHARE)
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(0.01, time_limit_s)
        solver.parameters.random_seed = seed % (1 << 31)
        solver.parameters.num_workers = max(1, self.threads)
        for name, value in SOLVER_PARAMETERS.items():
            setattr(solver.parameters, name, value)
        done = threading.Event()
        limit_at = time.perf_counter() + time_limit_s

        def watch() -> None:  # the solve's limit, the design's deadline or its abort, whichever comes first
            while not done.wait(POLL_S):
                if (
                    (abort is not None and abort.is_set())
                    or self.deadline.reason() is not None
                    or time.perf_counter() >= limit_at
                ):
                    solver.stop_search()
                    return

        watcher = threading.Thread(target=watch, name="xwcp-design-watch", daemon=True)
        watcher.start()
        start = time.perf_counter()
        try:
            status = solver.solve(self.model)
        finally:
            done.set()
            watcher.join()
        self.stats.n_solves += 1
        self.stats.solve_s += time.perf_counter() - start
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            blocks = frozenset(c for c in range(self.rules.n_cells) if solver.boolean_value(self._block[c]))
            placements = tuple(next(p for p, lit in x.items() if solver.boolean_value(lit)) for x in self._x)
            return FillStatus.FILLED, Pattern(blocks, placements)
        if status == cp_model.INFEASIBLE:
            return FillStatus.UNFILLABLE, None
        if (abort is not None and abort.is_set()) or self.deadline.reason() is StopReason.ABORTED:
            return FillStatus.ABORTED, None
        return FillStatus.LIMIT, None


def white_components(blocks: frozenset[int], rules: Rules) -> list[list[int]]:
    """The white cells' connected components (through edges), each a list of cells."""
    seen: set[int] = set()
    parts = []
    for first in range(rules.n_cells):
        if first in blocks or first in seen:
            continue
        part = [first]
        seen.add(first)
        k = 0
        while k < len(part):
            row, col = divmod(part[k], rules.width)
            k += 1
            for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
                other = r * rules.width + c
                if 0 <= r < rules.height and 0 <= c < rules.width and other not in blocks and other not in seen:
                    seen.add(other)
                    part.append(other)
        parts.append(part)
    return parts


def n_line_patterns(n: int, style: Style, max_block_run: int | None = None) -> int:
    """How many sequences `line_patterns` would list, counted without listing them."""
    from functools import lru_cache

    def ok(run: int) -> bool:
        return run == 0 or run >= 3 or (style is Style.BRITISH and run == 1)

    @lru_cache(maxsize=None)
    def count(left: int, run: int, blocks: int) -> int:
        if left == 0:
            return int(ok(run))
        total = count(left - 1, min(run + 1, 3), 0)
        if ok(run) and (max_block_run is None or blocks < max_block_run):
            total += count(left - 1, 0, blocks + 1)
        return total

    return count(n, 0, 0)


def line_patterns(n: int, style: Style, max_block_run: int | None = None) -> list[tuple[int, ...]]:
    """Every block (1) / white (0) sequence of a line of `n` cells that keeps the style's run lengths (and has
    no more than `max_block_run` blocks in a row), each followed by its number of entries."""
    out = []

    def ok(run: int) -> bool:
        return run == 0 or run >= 3 or (style is Style.BRITISH and run == 1)

    def grow(prefix: list[int], run: int, blocks: int, entries: int) -> None:
        if len(prefix) == n:
            if ok(run):
                out.append(tuple(prefix) + (entries + (run >= 3),))
            return
        if ok(run) and (max_block_run is None or blocks < max_block_run):
            grow(prefix + [1], 0, blocks + 1, entries + (run >= 3))
        grow(prefix + [0], run + 1, 0, entries)

    grow([], 0, 0, 0)
    return out
