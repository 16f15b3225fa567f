"""The bench's plots (xwcp/bench/plots.py): PNG files, the list-size plot only when list sizes vary."""

from __future__ import annotations

from xwcp import bench

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_write_plots_draws_list_size_plot_when_sizes_vary(tmp_path):
    rows = [
        {
            "suite": "s",
            "grid": "g",
            "slots": 6,
            "words": size,
            "backend": "backtrack",
            "kind": "xwcp",
            "status": "filled",
            "seconds": size / 1e4,
            "valid": True,
        }
        for size in (10, 100)
    ]
    written = bench.write_plots(rows, [bench.Entrant("backtrack", "xwcp")], tmp_path, 5.0)
    assert {p.name for p in written} == {"cactus.png", "time-vs-slots.png", "time-vs-words.png"}
    assert all(p.read_bytes()[:8] == PNG_MAGIC for p in written)
    rows[1]["grid"] = "h"  # two grids with a list each: no list-size plot
    (tmp_path / "two").mkdir()
    written = bench.write_plots(rows, [bench.Entrant("backtrack", "xwcp")], tmp_path / "two", 5.0)
    assert {p.name for p in written} == {"cactus.png", "time-vs-slots.png"}
