"""Turn results into what people read: JSON-ready dicts and plain-text renderings.

A grid in JSON is the list of its lines in xwcp's text syntax (`xwcp.model.grid_lines`): its rows
for a grid of blocks and letters, with bars, marks and rebus cells written in for any other. Letters are
shown as the puzzle's language writes them (`xwcp.model.alphabet`): Ñ, Ж, and a letter of several characters
as `{IJ}` in grid text, "IJ" in a word and in the JSON's `cells` (one string per cell, for a language other
than English).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from xwcp.base.types import Direction, FillStatus
from xwcp.compile.problem import Problem
from xwcp.engine.result import FillResult, Quality, fill_grid
from xwcp.model import BELOW, RIGHT, Grid, content_token, final_cells, grid_from_rows, grid_lines, written_cells
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.model.entries import pair_letters

if TYPE_CHECKING:
    from xwcp.search.core import CoreReport

JsonDict = dict[str, Any]
"""A JSON object as the command line prints it."""
TEXT_MAX_FILLS = 10
"""Fills drawn in text output; more would scroll the answer away (JSON keeps them all)."""


def entry_dicts(problem: Problem, entries: Sequence[str] | None) -> list[JsonDict]:
    """One dict per slot in clue order (across by number, then down, then listed entries of other cells in their
    order): id, number, direction, position, word (as the puzzle's language writes it: "IJS", its last letter in its
    final form: Hebrew שלום), score; a listed entry (`xwcp.model.entries`) adds its `entry` name and cells, a reading
    of an entry through Schrödinger cells its `entry` and `reading` (1 or 2)."""
    rows: list[JsonDict] = []
    written = problem.alphabet.written_at_end
    order = {Direction.ACROSS: 0, Direction.DOWN: 1, Direction.OTHER: 2}
    for slot in sorted(problem.slots, key=lambda s: (order[s.direction], s.number if not s.label else 0, s.id)):
        word = entries[slot.id] if entries is not None else None
        extra: JsonDict = {}
        if slot.label or slot.reading:
            extra["entry"] = slot.entry_name
        if slot.label:
            extra["cells"] = [[c // problem.grid.width, c % problem.grid.width] for c in problem.slot_cells(slot.id)]
        if slot.reading:
            extra["reading"] = slot.reading
        rows.append(
            {
                "id": slot.name,
                "number": slot.number,
                "direction": slot.direction.value,
                "row": slot.row,
                "col": slot.col,
                "length": slot.length,
                "word": written(word) if word else word,
                "score": problem.words.score(word) if word else None,
                **extra,
            }
        )
    return rows


class FillReport:
    """One fill's answer, worked out once for every front end: each fill's grid, lines, quality and entries
    (each computed on first use and kept), rendered as the `xwcp fill` JSON object (`as_dict`), its text
    (`text`) and its `--format grid` output (`grids_text`). `xwcp.FillAnswer` wraps one; the web's result
    message and batch records are rendered from it too.

    A plain class, not a dataclass: the command line builds one on every fill, and a small fill's start-up
    pays for every class created at import.
    """

    __slots__ = (
        "problem",
        "result",
        "seconds",
        "count",
        "core",
        "total_seconds",
        "_grid_by_index",
        "_lines_by_index",
        "_quality_by_index",
        "_entries_by_index",
    )

    def __init__(
        self,
        problem: Problem,
        result: FillResult,
        seconds: float,
        count: int | None = None,
        core: CoreReport | None = None,
        total_seconds: float | None = None,
    ) -> None:
        """`count`: the fills asked for (0 = all, None = one); `core`: for an unfillable grid, the slots that
        cannot be filled together (`xwcp.search.core.explain`); `seconds`: the time to the verdict (load,
        compile and fill); `total_seconds`: with the core search too, when given."""
        self.problem = problem
        self.result = result
        self.seconds = seconds
        self.count = count
        self.core = core
        self.total_seconds = total_seconds
        self._grid_by_index: dict[int, Grid] = {}
        self._lines_by_index: dict[int, list[str]] = {}
        self._quality_by_index: dict[int, Quality] = {}
        self._entries_by_index: dict[int, list[JsonDict]] = {}

    @property
    def is_filled(self) -> bool:
        return self.result.status is FillStatus.FILLED and self.result.entries is not None

    def grid(self, index: int = 0) -> Grid:
        """Fill `index` written into the problem's grid."""
        grid = self._grid_by_index.get(index)
        if grid is None:
            grid = self._grid_by_index[index] = fill_grid(self.problem, self.result.fills[index])
        return grid

    def lines(self, index: int = 0) -> list[str]:
        """Fill `index` as JSON gives a grid: its lines in xwcp's text syntax."""
        lines = self._lines_by_index.get(index)
        if lines is None:
            lines = self._lines_by_index[index] = grid_lines(self.grid(index), self.problem.alphabet)
        return lines

    def quality(self, index: int = 0) -> Quality:
        """Fill `index`'s quality (as the quality search reported it, else measured)."""
        quality = self._quality_by_index.get(index)
        if quality is None:
            quality = self._quality_by_index[index] = self.result.quality_of(self.problem, index)
        return quality

    def entries(self, index: int = 0) -> list[JsonDict]:
        """Fill `index`'s entries, one dict per slot in clue order (`entry_dicts`)."""
        entries = self._entries_by_index.get(index)
        if entries is None:
            entries = self._entries_by_index[index] = entry_dicts(self.problem, self.result.fills[index])
        return entries

    def as_dict(self) -> JsonDict:
        """The `xwcp fill --format json` object."""
        problem, result = self.problem, self.result
        out: JsonDict = {"status": result.status.value}
        is_filled = self.is_filled
        alphabet = problem.alphabet
        if not alphabet.is_ascii:
            out["language"] = alphabet.code
        if is_filled:  # a limit reached while counting may have fills too: they go in "fills" only
            out["grid"] = self.lines(0)
            if not alphabet.is_ascii:
                out["cells"] = cell_rows(self.grid(0), alphabet)
        out["entries"] = self.entries(0) if is_filled else []
        if is_filled:
            out["quality"] = self.quality(0).as_dict()
            if self.quality(0).floors:  # a quality search: each floor it tried and how that ended
                out["floors"] = [t.as_dict() for t in self.quality(0).floors]
        if len(result.fills) > 1:
            out["fills"] = [
                {
                    "grid": self.lines(i),
                    "quality": self.quality(i).as_dict(),
                    **({"floors": [t.as_dict() for t in self.quality(i).floors]} if self.quality(i).floors else {}),
                }
                for i in range(len(result.fills))
            ]
        if result.n_fills > 1 or len(result.fills) > 1:
            out["n_fills"] = result.n_fills
        if result.reason:
            out["reason"] = result.reason
        if problem.notes:
            out["notes"] = list(problem.notes)
        shortfall = fewer_fills_note(result, self.count)
        if shortfall:
            out["note"] = shortfall
        if result.slot_id is not None:
            out["slot"] = problem.slots[result.slot_id].name
        if self.core is not None:
            from xwcp.render.core import core_json

            out["core"] = core_json(self.core)
        out["backend"] = result.backend
        out["seconds"] = round(self.seconds, 4)
        if self.total_seconds is not None:
            out["total_seconds"] = round(self.total_seconds, 4)
        out["stats"] = {
            "nodes": result.stats.nodes,
            "backtracks": result.stats.backtracks,
            "restarts": result.stats.restarts,
            **dict(result.stats.extra),
        }
        return out

    def text(self, verdict_shown: bool = False) -> str:
        """The `xwcp fill` text output: the grid, then entries by number; or the reason there is none.

        At most TEXT_MAX_FILLS fills are drawn (`--format json` has every kept fill). With
        `verdict_shown` the verdict line (`verdict_text`) is left out: it was printed before the core search.
        """
        problem, result, core = self.problem, self.result, self.core
        lines: list[str] = []
        if result.entries is None:
            if not verdict_shown:
                lines.append(verdict_text(result))
            if core is not None:
                from xwcp.render.core import core_text

                lines.extend([core_text(problem, core), ""])
        for index in range(min(len(result.fills), TEXT_MAX_FILLS)):
            if len(result.fills) > 1:
                lines.append(f"Fill {index + 1}:")
            lines.append(grid_text(self.grid(index), problem.alphabet))
            if result.status is FillStatus.FILLED:
                lines.append(self.quality(index).text())
                if self.quality(index).floors:
                    lines.append(self.quality(index).floors_text())
            lines.append("")
            if index == 0:
                lines.extend(entry_lines(self.entries(0)))
                lines.append("")
        if len(result.fills) > TEXT_MAX_FILLS:
            lines.append(f"(the first {TEXT_MAX_FILLS} fills are shown; --format json lists {len(result.fills)})")
        if result.n_fills > len(result.fills) or (result.n_fills > 1 and problem is not None):
            lines.append(
                f"{result.n_fills} fills"
                + (" (count stopped by the limit)" if result.status is FillStatus.LIMIT else "")
            )
        shortfall = fewer_fills_note(result, self.count)
        if shortfall:
            lines.append(shortfall.capitalize())
        found = None if core is None else core.search
        core_time = (
            "" if found is None else f"; the core in {round(found.wall_time_s, 4):.2f} s"
        )  # as the JSON's seconds
        lines.append(f"{result.status.value} in {self.seconds:.2f} s by {result.backend}{core_time}")
        return "\n".join(lines)

    def grids_text(self) -> str:
        """The `--format grid` output: each fill in the grid syntax xwcp reads; several fills are
        separated by `; fill N of M` comment lines (read back, each is one grid). A puzzle in another language
        than English starts each grid with its `; language: CODE` line, so it reads back in its letters."""
        fills = self.result.fills
        alphabet = self.problem.alphabet
        language = "" if alphabet.is_ascii else f"; language: {alphabet.code}\n"  # read back in its letters
        if len(fills) == 1:
            return (language + self.grid(0).render(alphabet)).rstrip("\n")
        parts = [
            f"{language}; fill {index + 1} of {len(fills)}\n{self.grid(index).render(alphabet)}"
            for index in range(len(fills))
        ]
        return "\n".join(parts).rstrip("\n")


def fill_dict(
    problem: Problem,
    result: FillResult,
    seconds: float,
    count: int | None = None,
    core: CoreReport | None = None,
    total_seconds: float | None = None,
) -> JsonDict:
    """The `xwcp fill --format json` object (`FillReport.as_dict`; the arguments are `FillReport`'s)."""
    return FillReport(problem, result, seconds, count, core, total_seconds).as_dict()


def written_data(value: Any, alphabet: Alphabet) -> Any:
    """`value` (a JSON-ready answer) with every string's code chars of `alphabet`'s multi-character letters written
    as it writes them (Dutch "IJ", never the private-use character xwcp uses inside); `value` itself for any
    other alphabet (every letter one code point: code chars are the letters)."""
    if not (alphabet.has_multi_letters or alphabet.is_open):
        return value
    if isinstance(value, str):
        return alphabet.written(value)
    if isinstance(value, dict):
        return {key: written_data(item, alphabet) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [written_data(item, alphabet) for item in value]
    return value


def final_words(value: Any, alphabet: Alphabet) -> Any:
    """`value` (a JSON-ready answer) with each entry word (the string under a "word" key: a suggestion, a live word,
    an unlisted entry; each value of an "entries" map of slot -> word, as a design's) written as where an entry
    ends (`Alphabet.written_at_end`: Hebrew גפנ -> גפן), for a reader; `value` itself for a pack without final
    forms. Matching and storing keep the plain letters: this is for output only."""
    if not alphabet.final:
        return value
    if isinstance(value, dict):
        return {
            key: alphabet.written_at_end(item)
            if key == "word" and isinstance(item, str) and item
            else {
                name: alphabet.written_at_end(word) if isinstance(word, str) and word else word
                for name, word in item.items()
            }
            if key == "entries" and isinstance(item, dict)
            else final_words(item, alphabet)
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [final_words(item, alphabet) for item in value]
    return value


def entry_lines(rows: Sequence[JsonDict]) -> list[str]:
    """The text listing of a fill's entries (`entry_dicts`): under Across, Down and Other (listed entries of other
    cells), number (or a listed entry's name) and word with its score; the two readings of an entry through
    Schrödinger cells on one line, `CLINTON / BOBDOLE`."""
    lines: list[str] = []
    for direction, title in (("across", "Across"), ("down", "Down"), ("other", "Other")):
        chosen = [row for row in rows if row["direction"] == direction]
        if not chosen and direction == "other":
            continue
        lines.append(title)
        shown: set[str] = set()
        for row in chosen:
            entry = row.get("entry")
            if entry is not None and entry in shown:
                continue
            readings = [r for r in chosen if entry is not None and r.get("entry") == entry] or [row]
            shown.update(r["id"] for r in readings)
            if entry is not None:
                shown.add(entry)
            label = row["number"] if not (entry and "cells" in row) else entry
            words = (
                " / ".join(f"{r['word']}" + ("" if r["score"] is None else f" ({r['score']})") for r in readings)
                if len(readings) > 1
                else f"{row['word']}" + ("" if row["score"] is None else f"  ({row['score']})")
            )
            lines.append(f"  {label:>3}  {words}")
    return lines


def cell_rows(grid: Grid, alphabet: Alphabet) -> list[list[str]]:
    """The grid's cells row by row as `alphabet` writes them (`written_cells`): '#', '.', a letter ("Ñ", "IJ", a
    Hebrew final form where an entry ends), a rebus's letters."""
    cells = written_cells(grid, alphabet)
    return [list(cells[r * grid.width : (r + 1) * grid.width]) for r in range(grid.height)]


def grid_text(grid: Grid | list[str], alphabet: Alphabet = ENGLISH) -> str:
    """A grid (or its JSON lines) spaced out for reading: letters, '#' blocks, '.' empty, one space apart.

    The cells are the text syntax's tokens (`[STAR]` a rebus cell, `(A)` circled, `{A}` shaded), each
    column as wide as its widest; a bar between two cells is '|' in place of the space, a bar under
    a cell a line of '-' under it.
    """
    if not isinstance(grid, Grid):
        grid = grid_from_rows(list(grid), alphabet=alphabet)
    width, height = grid.width, grid.height
    marks = grid.mark_by_cell
    finals = final_cells(grid, alphabet)
    tokens = []
    for cell, content in enumerate(grid.cells):
        token, mark = content_token(content, alphabet, cell in finals), marks.get(cell)
        if cell in grid.pairs:
            token = "<" + "".join(content_token(ch, alphabet) for ch in pair_letters(content)) + ">"
        if mark and mark.shaded:
            token = "{" + token + "}"
        if mark and mark.circle:
            token = "(" + token + ")"
        tokens.append(token)
    widths = [max(len(tokens[r * width + c]) for r in range(height)) for c in range(width)]
    lines = []
    for r in range(height):
        row, under = [], []
        for c in range(width):
            cell = r * width + c
            if c:
                row.append("|" if (cell - 1, RIGHT) in grid.bars else " ")
            if (cell, BELOW) in grid.bars:
                under.append((sum(map(len, row)), widths[c]))
            row.append(tokens[cell].ljust(widths[c]))
        lines.append("".join(row).rstrip())
        if under:
            line = [" "] * sum(widths[c] + 1 for c in range(width))
            for start, n in under:
                line[start : start + n] = "-" * n
            lines.append("".join(line).rstrip())
    return "\n".join(lines)


def fill_grids(problem: Problem, result: FillResult) -> str:
    """The `--format grid` output (`FillReport.grids_text`)."""
    return FillReport(problem, result, 0.0).grids_text()


def fewer_fills_note(result: FillResult, count: int | None) -> str:
    """A note when the search proved there are fewer fills than the `count` asked for, else ''."""
    if count and result.status is FillStatus.FILLED and result.n_fills < count:
        return f"only {result.n_fills} fill{'s' if result.n_fills != 1 else ''} exist{'s' if result.n_fills == 1 else ''} ({count} asked for)"
    return ""


def verdict_text(result: FillResult) -> str:
    """The first line of `fill_text` when there is no fill: the verdict and its reason."""
    what = {"unfillable": "Unfillable", "limit": "No fill found", "aborted": "Aborted"}[result.status.value]
    return f"{what}: {result.reason}" if result.reason else what


def fill_text(
    problem: Problem,
    result: FillResult,
    seconds: float,
    count: int | None = None,
    core: CoreReport | None = None,
    verdict_shown: bool = False,
) -> str:
    """The `xwcp fill` text output (`FillReport.text`; the arguments are `FillReport`'s)."""
    return FillReport(problem, result, seconds, count, core).text(verdict_shown)
