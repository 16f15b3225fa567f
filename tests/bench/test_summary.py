"""What a bench's rows say (xwcp/bench/summary.py): PAR-2 and ratios, the per-grid table."""

from __future__ import annotations

import pytest

from xwcp import bench


def test_summarize_par2_and_ratios():
    def row(backend, kind, grid, status, seconds):
        return {
            "suite": "s",
            "grid": grid,
            "words": 10,
            "backend": backend,
            "kind": kind,
            "status": status,
            "seconds": seconds,
            "valid": True if status == "filled" else None,
        }

    rows = [
        row("auto", "xwcp", "g1", "filled", 1.0),
        row("qxw", "peer", "g1", "filled", 4.0),
        row("auto", "xwcp", "g2", "filled", 3.0),
        row("qxw", "peer", "g2", "filled", 2.0),
        row("auto", "xwcp", "g3", "limit", 10.0),
        row("qxw", "peer", "g3", "unfillable", 5.0),
    ]
    entrants = [bench.Entrant("auto", "xwcp"), bench.Entrant("qxw", "peer")]
    summary = bench.summarize(rows, entrants, time_limit_s=10)
    auto, qxw = summary["entrants"]
    assert (auto["filled"], auto["limit"], auto["median_s"]) == (2, 1, 2.0)
    assert auto["par2_s"] == pytest.approx((1 + 3 + 20) / 3)
    assert (qxw["filled"], qxw["unfillable"], qxw["par2_s"]) == (2, 1, pytest.approx(11 / 3))
    (ratio,) = summary["ratios"]
    assert ratio["grids_both"] == 2 and ratio["median_ratio"] == pytest.approx((0.25 + 1.5) / 2)
    assert ratio["worst_ratio"] == pytest.approx(1.5) and ratio["worst_grid"][1] == "g2"
    assert (ratio["only_xwcp"], ratio["only_peer"]) == (0, 1)
    assert "auto / qxw" in bench.summary_text(summary)


def test_per_grid_table_shows_times_proofs_and_statuses():
    def row(grid, backend, kind, status, seconds, seed=0):
        return {
            "suite": "s",
            "grid": grid,
            "slots": 6,
            "words": 10,
            "backend": backend,
            "kind": kind,
            "status": status,
            "seconds": seconds,
            "valid": True if status == "filled" else None,
            "seed": seed,
        }

    rows = [
        row("g1", "auto", "xwcp", "filled", 0.5),
        row("g1", "auto", "xwcp", "limit", 5.0, seed=1),
        row("g1", "qxw", "peer", "unfillable", 1.25),
        row("g2", "auto", "xwcp", "limit", 5.0),
        row("g2", "qxw", "peer", "skipped", None),
    ]
    table = bench.per_grid_markdown(rows, [bench.Entrant("auto", "xwcp"), bench.Entrant("qxw", "peer")])
    lines = table.splitlines()
    assert lines[0] == "| grid | slots | auto | qxw |"
    assert lines[2] == "| g1 | 6 | 0.500 (1/2) | unfillable 1.250 |"
    assert lines[3] == "| g2 | 6 | limit | skipped |"
