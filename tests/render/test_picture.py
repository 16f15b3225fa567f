"""The heat-map picture (xwcp/render/picture.py): the core outlined and named in the legend, readable text on every
cell colour, every text inside the figure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import xwcp
from xwcp import compile_problem, load_word_list, read_grid
from xwcp.cli.commands import main

ROOT = Path(__file__).resolve().parents[2]


def test_heatmap_of_an_unfillable_grid_outlines_the_core(tmp_path, capsys):
    from xwcp.render.picture import legend_lines

    png = tmp_path / "heat.png"
    grid = str(ROOT / "models" / "4x4-unfillable.txt")
    assert main(["heatmap", grid, "--png", str(png), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert set(data["core"]["slots"]) == {"7A", "4D"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    legend = " ".join(legend_lines(xwcp.Session(grid).heatmap().report))
    assert "Outlined in red" in legend and "7A" in legend and "4D" in legend


def test_picture_text_is_readable_on_every_cell_colour():
    from matplotlib import colormaps
    from matplotlib.colors import Normalize, to_rgba

    from xwcp.render.picture import CORE_FILL, DEAD_COLOR, _luminance, text_color

    cmap, norm = colormaps["YlGnBu_r"], Normalize(vmin=1, vmax=26)
    for background in [cmap(norm(n)) for n in range(1, 27)] + [DEAD_COLOR, CORE_FILL, "white"]:
        ink = text_color(background)
        lighter, darker = sorted([_luminance(to_rgba(background)), _luminance(to_rgba(ink))], reverse=True)
        assert (lighter + 0.05) / (darker + 0.05) >= 4.5, background  # WCAG AA for normal text


@pytest.mark.parametrize("grid_name", ["4x4-unfillable.txt", "7x7-mini.txt", "15x15-british-01.txt"])
def test_picture_keeps_every_text_inside_the_figure(grid_name):
    import matplotlib.pyplot as plt

    from xwcp.analysis import questions as analysis
    from xwcp.render.picture import heatmap_figure

    problem = compile_problem(read_grid(ROOT / "models" / grid_name), load_word_list())
    fig = heatmap_figure(problem, analysis.heatmap_report(problem))
    try:
        renderer = fig.canvas.get_renderer()
        box = fig.bbox
        texts = [t for t in fig.findobj(plt.Text) if t.get_text().strip()]
        assert any("Letters still possible" in t.get_text() for t in texts)  # the title is drawn ...
        for text in texts:  # ... and neither it, the legend nor any number runs off the picture
            extent = text.get_window_extent(renderer)
            assert box.x0 - 1 <= extent.x0 and extent.x1 <= box.x1 + 1, text.get_text()
            assert box.y0 - 1 <= extent.y0 and extent.y1 <= box.y1 + 1, text.get_text()
    finally:
        plt.close(fig)
