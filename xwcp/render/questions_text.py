"""Plain-text renderings of the analysis answers (check, domains, suggest, heat map) for the terminal.

Each takes the typed report `xwcp.analysis.questions` answers with (`xwcp.analysis.reports`), as the JSON of
`xwcp.render.questions_json` does: the CLI and the library's answers print these.
"""

from __future__ import annotations

from pathlib import Path

from xwcp.analysis.reports import CheckReport, Consistency, DomainsReport, HeatmapReport, SuggestReport, Verdict
from xwcp.compile.problem import Problem
from xwcp.model import BELOW, RIGHT, grid_from_rows
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.render.report import grid_text


def domains_text(problem: Problem | None, report: DomainsReport) -> str:
    lines = [] if report.status is Consistency.CONSISTENT else [f"Unfillable: {report.reason}", ""]
    written = (problem.alphabet if problem is not None else ENGLISH).written_at_end  # Hebrew: its final letter
    for slot_words in report.slots:
        slot = slot_words.slot
        words = " ".join(written(w.word) for w in slot_words.words)
        lines.append(f"{slot.name:>5} {slot.pattern:<15} {slot.size:>7,}  {words}")
    return "\n".join(lines)


def heatmap_text(report: HeatmapReport, picture: str | Path | None = None) -> str:
    """Cells as two-character counts: '##' block, ' .' free (every letter of the alphabet, `n_letters`: 26 in
    English), ' 1'..'25', ' X' dead (0); forced letters shown. A Schrödinger square shows both of its letters,
    each as its count or, entered, '=C': '9/4', '=C/4', '=C/=B'.

    When the report's grid has bars, marks or rebus cells (its "grid" lines), a bar between two
    cells is '|' in place of the space, a bar under a cell a line of '-' under it, a circled
    cell's count is in ( ), a shaded one's in { }, and a rebus cell shows all its letters (its
    column as wide as it needs). `picture`: the file the heat map was drawn to, named last.
    """
    forced = {(f.row, f.col): f.letter for f in report.forced}
    free = report.n_letters
    pair_by_place = {(p.row, p.col): p for p in report.pairs}

    def count_text(n: int) -> str:
        return "." if n == free else "X" if n == 0 else str(n)

    lines = [] if report.status is Consistency.CONSISTENT else [f"Unfillable: {report.reason}"]
    if report.core is not None:
        lines.append(f"Why: {report.core.message}.")
    grid = grid_from_rows(report.grid) if report.grid else None
    marks = grid.mark_by_cell if grid is not None else {}
    bodies: list[list[str]] = []
    for r, counts in enumerate(report.counts):
        out = []
        for c, n in enumerate(counts):
            pair = pair_by_place.get((r, c))
            if n is None:
                body = "##"
            elif pair is not None:  # a Schrödinger square: both letters, each entered ('=C') or its count
                body = "/".join(
                    f"={letter}" if letter else count_text(k)
                    for letter, k in zip(pair.letters, pair.counts, strict=True)
                )
            elif report.letters[r][c]:
                body = f"={report.letters[r][c]}"
            elif (r, c) in forced:
                body = forced[(r, c)].lower()
            elif n == free:
                body = "."
            elif n == 0:
                body = "X"
            else:
                body = str(n)
            mark = marks.get(r * len(counts) + c)
            if mark and mark.shaded:
                body = "{" + body + "}"
            if mark and mark.circle:
                body = "(" + body + ")"
            out.append(body)
        bodies.append(out)
    widths = [max([2] + [len(row[c]) for row in bodies]) for c in range(len(bodies[0]) if bodies else 0)]
    for r, row in enumerate(bodies):
        width = len(row)
        bar_left = [c > 0 and grid is not None and (r * width + c - 1, RIGHT) in grid.bars for c in range(width)]
        lines.append("".join(("|" if bar_left[c] else " ") + body.rjust(widths[c]) for c, body in enumerate(row)))
        if grid is not None and any((r * width + c, BELOW) in grid.bars for c in range(width)):
            lines.append(
                "".join(
                    " " + ("-" if (r * width + c, BELOW) in grid.bars else " ") * widths[c] for c in range(width)
                ).rstrip()
            )
    lines.append(f"key: number = letters still possible, . = any ({free}), X = dead, =L entered, l (lower case) forced")
    if grid is not None and not grid.is_plain:
        lines.append("     | and - = bars, (n) circled, {n} shaded, =LETTERS a rebus cell")
    if report.pairs:
        lines.append("     a/b = a Schrödinger square's first and second letters")
    if picture:
        lines.append(f"picture: {picture}")
    return "\n".join(lines)


def check_text(report: CheckReport, problem: Problem | None = None) -> str:
    """The `xwcp check` text; with `problem`, an unfillable grid's core is drawn on it."""
    lines = []
    verdict = {
        Verdict.FILLABLE: "Fillable: a full fill exists (shown below).",
        Verdict.UNFILLABLE: f"Unfillable: {report.reason}".rstrip(": "),
        Verdict.UNKNOWN: "Unknown: no dead end found by arc consistency; the solver hit its limit "
        "before finding a fill.",
    }[report.verdict]
    lines.append(verdict)
    alphabet = ENGLISH if problem is None else problem.alphabet  # a Hebrew word's last letter shows its final form
    if report.unlisted:
        n = len(report.unlisted)
        lines.append(
            f"Not in the word list ({n} entr{'ies' if n != 1 else 'y'}): "
            + ", ".join(f"{u.slot} {alphabet.written_at_end(u.word)}" for u in report.unlisted)
        )
    if report.most_constrained is not None:
        m = report.most_constrained
        lines.append(f"Most constrained open slot: {m.name} {m.pattern} ({m.size:,} words)")
    if report.forced:
        lines.append("Forced letters: " + ", ".join(f"r{f.row + 1}c{f.col + 1}={f.letter}" for f in report.forced))
    if report.fill:
        lines.append("")
        lines.append(grid_text(report.fill, alphabet))
    if report.core is not None and problem is not None:
        from xwcp.render.core import core_text

        lines.append(core_text(problem, report.core))
    return "\n".join(lines)


def suggest_text(report: SuggestReport, alphabet: Alphabet = ENGLISH) -> str:
    """The `xwcp suggest` text; each word as `alphabet` writes it where an entry ends (Hebrew: its final letter)."""
    lines = [] if report.status is Consistency.CONSISTENT else [f"Unfillable: {report.reason}"]
    s = report.slot
    written = alphabet.written_at_end
    lines.append(f"{s.name} {s.pattern}: {counts_line(report)}")
    for w in report.words:
        verdict = f"  {w.label.verdict.value}" if w.label is not None else ""
        score = "  -" if w.score is None else f"{w.score:>3}"  # an entry the user typed, not in the list
        pairs = f"  / {' '.join(written(p) for p in w.pairs)}" if w.pairs else ""
        lines.append(f"  {written(w.word):<16} score {score}  fit {w.fit:.2f}{verdict}{pairs}")
        if w.label is not None and w.label.fill:
            lines.extend("      " + line for line in grid_text(w.label.fill, alphabet).splitlines())
    if report.dropped:
        lines.append(
            "  not suggested, ranked higher: "
            + ", ".join(f"{written(d.word)} (empties {d.empties})" for d in report.dropped)
        )
    return "\n".join(lines)


def _verb(n: int, verb: str) -> str:
    """`verb` agreeing with a count: 1 matches, 2 match."""
    return verb + ("es" if verb.endswith("h") else "s") if n == 1 else verb


def counts_line(report: SuggestReport) -> str:
    """What each number of a suggestion list counts: "9,969 match the pattern, 9,102 arc consistent,
    1,204 survive propagation, 12 proven to fill" (xwcp/analysis/questions.py SUGGEST_COUNTS)."""
    c = report.counts
    if "." not in report.slot.pattern:  # a complete entry
        size = report.slot.size
        return f"{size:,} word{' fits' if size == 1 else 's fit'}"
    parts = [f"{c.pattern:,} {_verb(c.pattern, 'match')} the pattern", f"{c.arc_consistent:,} arc consistent"]
    if c.complete is not False:
        parts.append(f"{c.survive:,} {_verb(c.survive, 'survive')} propagation")
    else:
        parts.append(f"{c.survive:,} of {c.checked:,} checked {_verb(c.survive, 'survive')} propagation")
    if c.viable is not None:
        parts.append(
            f"{c.viable} proven to fill, {c.dead_end} dead end{'' if c.dead_end == 1 else 's'}"
            + (f", {c.unknown} not settled" if c.unknown else "")
        )
    return ", ".join(parts)
