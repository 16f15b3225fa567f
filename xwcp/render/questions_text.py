"""Plain-text renderings of the analysis answers (check, domains, suggest, heat map) for the terminal.

Each takes the JSON-ready dict that `xwcp.analysis.questions` answers with, so the CLI, the library's
answers and the tests render one shape.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from xwcp.model import BELOW, RIGHT, grid_from_rows
from xwcp.model.alphabet import ENGLISH, Alphabet
from xwcp.compile.problem import Problem
from xwcp.render.report import grid_text


def domains_text(problem: Problem | None, data: Mapping[str, Any]) -> str:
    lines = [] if data["status"] == "consistent" else [f"Unfillable: {data['reason']}", ""]
    written = (problem.alphabet if problem is not None else ENGLISH).written_at_end  # Hebrew: its final letter
    for slot in data["slots"]:
        words = " ".join(written(w["word"]) for w in slot["words"])
        lines.append(f"{slot['id']:>5} {slot['pattern']:<15} {slot['size']:>7,}  {words}")
    return "\n".join(lines)


def heatmap_text(data: Mapping[str, Any]) -> str:
    """Cells as two-character counts: '##' block, ' .' free (every letter of the alphabet, `n_letters`: 26 in
    English), ' 1'..'25', ' X' dead (0); forced letters shown.

    When the report's grid has bars, marks or rebus cells (its "grid" lines), a bar between two
    cells is '|' in place of the space, a bar under a cell a line of '-' under it, a circled
    cell's count is in ( ), a shaded one's in { }, and a rebus cell shows all its letters (its
    column as wide as it needs).
    """
    forced = {(f["row"], f["col"]): f["letter"] for f in data["forced"]}
    free = int(data.get("n_letters", 26))
    lines = [] if data["status"] == "consistent" else [f"Unfillable: {data['reason']}"]
    if data.get("core"):
        lines.append(f"Why: {data['core']['message']}.")
    grid = grid_from_rows(data["grid"]) if data.get("grid") else None
    marks = grid.mark_by_cell if grid is not None else {}
    bodies = []
    for r, row in enumerate(data["cells"]):
        out = []
        for c, n in enumerate(row):
            if n is None:
                body = "##"
            elif data["letters"][r][c]:
                body = f"={data['letters'][r][c]}"
            elif (r, c) in forced:
                body = forced[(r, c)].lower()
            elif n == free:
                body = "."
            elif n == 0:
                body = "X"
            else:
                body = str(n)
            mark = marks.get(r * len(row) + c)
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
            lines.append("".join(" " + ("-" if (r * width + c, BELOW) in grid.bars else " ") * widths[c]
                                 for c in range(width)).rstrip())
    lines.append(f"key: number = letters still possible, . = any ({free}), X = dead, =L entered, l (lower case) forced")
    if grid is not None and not grid.is_plain:
        lines.append("     | and - = bars, (n) circled, {n} shaded, =LETTERS a rebus cell")
    if data.get("png"):
        lines.append(f"picture: {data['png']}")
    return "\n".join(lines)


def check_text(data: Mapping[str, Any], problem: Problem | None = None) -> str:
    """The `xwcp check` text; with `problem`, an unfillable grid's core is drawn on it."""
    lines = []
    verdict = {"fillable": "Fillable: a full fill exists (shown below).",
               "unfillable": f"Unfillable: {data.get('reason', '')}".rstrip(": "),
               "unknown": "Unknown: no dead end found by arc consistency; the solver hit its limit "
                          "before finding a fill."}[data["verdict"]]
    lines.append(verdict)
    alphabet = ENGLISH if problem is None else problem.alphabet  # a Hebrew word's last letter shows its final form
    if data.get("unlisted"):
        n = len(data["unlisted"])
        lines.append(f"Not in the word list ({n} entr{'ies' if n != 1 else 'y'}): "
                     + ", ".join(f"{u['id']} {alphabet.written_at_end(u['word'])}" for u in data["unlisted"]))
    if data.get("most_constrained"):
        m = data["most_constrained"]
        lines.append(f"Most constrained open slot: {m['id']} {m['pattern']} ({m['size']:,} words)")
    if data["forced"]:
        lines.append("Forced letters: " + ", ".join(f"r{f['row'] + 1}c{f['col'] + 1}={f['letter']}"
                                                   for f in data["forced"]))
    if data.get("fill"):
        lines.append("")
        lines.append(grid_text(data["fill"], alphabet))
    if data.get("core") and problem is not None:
        from xwcp.search.core import core_text

        lines.append(core_text(problem, data["core"]))
    return "\n".join(lines)


def suggest_text(data: Mapping[str, Any], alphabet: Alphabet = ENGLISH) -> str:
    """The `xwcp suggest` text; each word as `alphabet` writes it where an entry ends (Hebrew: its final letter)."""
    lines = [] if data["status"] == "consistent" else [f"Unfillable: {data['reason']}"]
    s = data["slot"]
    written = alphabet.written_at_end
    lines.append(f"{s['id']} {s['pattern']}: {counts_line(data)}")
    for w in data["words"]:
        verdict = f"  {w['verdict']}" if "verdict" in w else ""
        score = "  -" if w["score"] is None else f"{w['score']:>3}"  # an entry the user typed, not in the list
        lines.append(f"  {written(w['word']):<16} score {score}  fit {w['fit']:.2f}{verdict}")
        if w.get("fill"):
            lines.extend("      " + line for line in grid_text(w["fill"], alphabet).splitlines())
    if data.get("dropped"):
        lines.append("  not suggested, ranked higher: "
                     + ", ".join(f"{written(d['word'])} (empties {d['empties']})" for d in data["dropped"]))
    return "\n".join(lines)


def _verb(n: int, verb: str) -> str:
    """`verb` agreeing with a count: 1 matches, 2 match."""
    return verb + ("es" if verb.endswith("h") else "s") if n == 1 else verb


def counts_line(data: Mapping[str, Any]) -> str:
    """What each number of a suggestion list counts: "9,969 match the pattern, 9,102 arc consistent,
    1,204 survive propagation, 12 proven to fill" (xwcp/analysis/questions.py SUGGEST_COUNTS)."""
    c = data.get("counts")
    if c is None or "." not in data["slot"]["pattern"]:  # an older answer, or a complete entry
        size = data["slot"]["size"]
        return f"{size:,} word{' fits' if size == 1 else 's fit'}"
    parts = [f"{c['pattern']:,} {_verb(c['pattern'], 'match')} the pattern", f"{c['arc_consistent']:,} arc consistent"]
    if c.get("complete", True):
        parts.append(f"{c['survive']:,} {_verb(c['survive'], 'survive')} propagation")
    else:
        parts.append(f"{c['survive']:,} of {c['checked']:,} checked {_verb(c['survive'], 'survive')} propagation")
    if "viable" in c:
        parts.append(f"{c['viable']} proven to fill, {c['dead_end']} dead end{'' if c['dead_end'] == 1 else 's'}"
                     + (f", {c['unknown']} not settled" if c["unknown"] else ""))
    return ", ".join(parts)
