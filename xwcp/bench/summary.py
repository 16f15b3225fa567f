"""Summaries of bench rows: counts, median time and PAR-2 per entrant, time ratios to peers, per-grid tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xwcp.bench.entrants import Entrant, entrant_label
from xwcp.bench.rows import ANSWERED, FILLED, SKIPPED, STATUSES, Row

_GridKey = tuple[str, str, int | None]
"""A grid as the rows name it: suite, grid name, word count of its list."""


def summarize(rows: Sequence[Row], entrants: Sequence[Entrant], time_limit_s: float) -> dict[str, Any]:
    """Per entrant counts, median time and PAR-2; per peer the time ratio of xwcp's reference backend.

    Returns:
        {"entrants": [...], "ratios": [...]} where each entrant has runs, filled, unfillable, limit,
        error, skipped, median_s (over filled runs) and par2_s (mean over runs that were not
        skipped: the time of a fill or proof, else twice the limit). Ratios compare the reference
        backend ("auto" when it ran, else the first) with each peer, once for the in-process runs
        (kind xwcp) and once for the whole-command runs (kind cli) when there are any.
    """
    import statistics

    names = [(e.name, e.kind) for e in entrants]
    for row in rows:
        if (row["backend"], row["kind"]) not in names:
            names.append((row["backend"], row["kind"]))
    table = []
    for name, kind in names:
        mine = [r for r in rows if r["backend"] == name and r["kind"] == kind]
        counts = {status: sum(1 for r in mine if r["status"] == status) for status in STATUSES}
        filled_s = [r["seconds"] for r in mine if r["status"] == FILLED and r["seconds"] is not None]
        scored = [r for r in mine if r["status"] != SKIPPED]
        par2 = [par2_seconds(r, time_limit_s) for r in scored]
        table.append(
            {
                "backend": name,
                "kind": kind,
                "runs": len(mine),
                "filled": counts["filled"],
                "unfillable": counts["unfillable"],
                "limit": counts["limit"] + counts["aborted"],
                "error": counts["error"],
                "skipped": counts["skipped"],
                "median_s": statistics.median(filled_s) if filled_s else None,
                "par2_s": sum(par2) / len(par2) if par2 else None,
            }
        )
    ratios = []
    for reference_kind in ("xwcp", "cli"):
        ours_names = [name for name, kind in names if kind == reference_kind]
        if not ours_names:
            continue
        reference = "auto" if "auto" in ours_names else ours_names[0]
        ours = _answer_seconds_by_grid(rows, reference, reference_kind)
        for name, kind in names:
            if kind != "peer":
                continue
            theirs = _answer_seconds_by_grid(rows, name, "peer")
            both = sorted(set(ours) & set(theirs))
            by_grid = {grid: ours[grid] / max(theirs[grid], 1e-6) for grid in both}
            worst = max(by_grid, key=by_grid.__getitem__) if by_grid else None
            ratios.append(
                {
                    "backend": entrant_label(reference, reference_kind),
                    "peer": name,
                    "grids_both": len(both),
                    "median_ratio": statistics.median(by_grid.values()) if by_grid else None,
                    "worst_ratio": by_grid[worst] if worst else None,
                    "worst_grid": worst,
                    "only_xwcp": len(set(ours) - set(theirs)),
                    "only_peer": len(set(theirs) - set(ours)),
                }
            )
    return {"entrants": table, "ratios": ratios, "time_limit_s": time_limit_s}


def par2_seconds(row: Row, time_limit_s: float) -> float:
    if row["status"] in ANSWERED and row["seconds"] is not None and row["valid"] is not False:
        return float(row["seconds"])
    return 2.0 * time_limit_s


def _answer_seconds_by_grid(rows: Sequence[Row], name: str, kind: str) -> dict[_GridKey, float]:
    """Median seconds over seeds of the runs that settled each grid (a fill or a proof)."""
    import statistics

    seconds_by_grid: dict[_GridKey, list[float]] = {}
    for r in rows:
        if r["backend"] == name and r["kind"] == kind and r["status"] in ANSWERED and r["seconds"] is not None:
            seconds_by_grid.setdefault((r["suite"], r["grid"], r["words"]), []).append(float(r["seconds"]))
    return {grid: statistics.median(values) for grid, values in seconds_by_grid.items()}


def _seconds_text(seconds: float) -> str:
    """Three decimals below 10 s (xwcp's fills take milliseconds), one above."""
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def summary_text(summary: dict[str, Any]) -> str:
    """The summary as an aligned plain-text table."""

    def fmt(value: float | None) -> str:
        return "-" if value is None else _seconds_text(value)

    header = ("backend", "kind", "runs", "filled", "unfillable", "limit", "error", "skipped", "median s", "PAR-2 s")
    lines = [header]
    for e in summary["entrants"]:
        lines.append(
            (
                e["backend"],
                e["kind"],
                str(e["runs"]),
                str(e["filled"]),
                str(e["unfillable"]),
                str(e["limit"]),
                str(e["error"]),
                str(e["skipped"]),
                fmt(e["median_s"]),
                fmt(e["par2_s"]),
            )
        )
    widths = [max(len(line[k]) for line in lines) for k in range(len(header))]
    text = [
        "  ".join(cell.ljust(w) if k < 2 else cell.rjust(w) for k, (cell, w) in enumerate(zip(line, widths)))
        for line in lines
    ]
    text.append(
        f"(median s: over filled runs; PAR-2 s: mean time, a run without a fill or proof counts "
        f"2 x {summary['time_limit_s']:g} s)"
    )
    for r in summary["ratios"]:
        if r["grids_both"]:
            worst_grid = "/".join(str(x) for x in r["worst_grid"][:2])
            text.append(
                f"{r['backend']} / {r['peer']} time per grid: median {r['median_ratio']:.3g}, worst "
                f"{r['worst_ratio']:.3g} ({worst_grid}) over {r['grids_both']} grids both settled; "
                f"only {r['backend']}: {r['only_xwcp']}, only {r['peer']}: {r['only_peer']}"
            )
        else:
            text.append(
                f"{r['backend']} / {r['peer']}: no grid settled by both "
                f"(only {r['backend']}: {r['only_xwcp']}, only {r['peer']}: {r['only_peer']})"
            )
    return "\n".join(text)


def per_grid_markdown(rows: Sequence[Row], entrants: Sequence[Entrant]) -> str:
    """A Markdown table: one line per grid (and list size), one column per entrant.

    A cell is the median seconds over seeds of the runs that filled the grid, "unfillable N.NN"
    for a proof, or the status of the runs that did neither ("limit", "error", "skipped").
    """
    names = [(e.name, e.kind) for e in entrants]
    sizes = {r["words"] for r in rows}
    keys = list(dict.fromkeys((r["suite"], r["grid"], r["words"]) for r in rows))
    header = ["grid", "slots"] + (["words"] if len(sizes) > 1 else []) + [entrant_label(*key) for key in names]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for key in keys:
        mine = [r for r in rows if (r["suite"], r["grid"], r["words"]) == key]
        cells = [key[1], str(mine[0]["slots"] if mine[0]["slots"] is not None else "-")]
        if len(sizes) > 1:
            cells.append(f"{key[2]:,}" if key[2] is not None else "-")
        for name, kind in names:
            runs = [r for r in mine if r["backend"] == name and r["kind"] == kind]
            cells.append(_cell_text(runs))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _cell_text(runs: Sequence[Row]) -> str:
    import statistics

    if not runs:
        return ""
    for status in ANSWERED:
        seconds = [float(r["seconds"]) for r in runs if r["status"] == status and r["valid"] is not False]
        if seconds:
            text = _seconds_text(statistics.median(seconds))
            prefix = "" if status == FILLED else "unfillable "
            note = f" ({len(seconds)}/{len(runs)})" if len(seconds) < len(runs) else ""
            return prefix + text + note
    return "/".join(dict.fromkeys(r["status"] for r in runs))
