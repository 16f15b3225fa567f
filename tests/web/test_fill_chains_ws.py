"""The builder's fill WebSocket (`/ws/fill`) on a grid with chains: it chooses the chains' boundaries as `xwcp fill`
does (`xwcp.services.chains.fill_chains`), tells the splits tried, and answers with each chain's words."""

from __future__ import annotations

from itertools import accumulate
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web builder needs the [web] extra (starlette)")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (in the [test] extra)")

from tests.web.helpers import _fill  # noqa: E402
from xwcp.compile.problem import compile_problem  # noqa: E402
from xwcp.formats import read_puzzle  # noqa: E402
from xwcp.model import grid_lines, parse_grid  # noqa: E402
from xwcp.model.grid import BLOCK, EMPTY  # noqa: E402
from xwcp.services.chains import chains_of, check_chains, split_grid  # noqa: E402

VARIETY = Path(__file__).resolve().parents[1] / "data" / "puzzles" / "variety"


def _empty_rows(name: str) -> list[str]:
    """A published chain layout with its letters erased, as the page sends it (grid text with `; chain:` lines)."""
    grid = read_puzzle(VARIETY / name).grid
    return grid_lines(grid.with_cells(cell if cell == BLOCK else EMPTY for cell in grid.cells))


def test_autofill_chooses_the_chains_boundaries_and_the_fill_checks(client, words):
    rows = _empty_rows("rows-garden-mini.jpz")  # kotwords' 15x7 Rows Garden: rows of two words
    grid = parse_grid("\n".join(rows))
    chains = chains_of(grid)
    assert chains
    with client.websocket_connect("/ws/fill") as ws:
        progress, result = _fill(ws, {"grid": rows, "time_limit_s": 30})
    assert result["type"] == "result" and result["status"] == "filled", result
    assert result["chain_splits"] >= 1
    assert all("chain_splits" in message for message in progress)
    filled = parse_grid("\n".join(result["grid"]))
    assert filled.entries == grid.entries  # the puzzle's own grid, its chains kept (not the split)
    assert sorted(result["chains"]) == sorted(entry.name for entry in chains)
    split = []
    for entry in chains:
        chain_words = result["chains"][entry.name]
        assert len(chain_words) == entry.words
        assert "".join(chain_words) == "".join(filled.cells[cell] for cell in entry.cells)
        split.append((0, *accumulate(len(word) for word in chain_words)))
    problem = compile_problem(split_grid(grid, tuple(split)), words)
    entries = ["".join(filled.cells[cell] for cell in problem.slot_cells(slot.id)) for slot in problem.slots]
    assert check_chains(grid, problem, entries) == []
    assert {result["entries"][slot.name] for slot in problem.slots} == set(entries)


def test_a_quality_fill_of_chains_is_refused_in_one_line(client):
    with client.websocket_connect("/ws/fill") as ws:
        _, message = _fill(ws, {"grid": _empty_rows("rows-garden-mini.jpz"), "quality": True})
    assert message["type"] == "error" and message["status"] == 400 and "chains" in message["error"]


def test_a_chain_no_split_fits_is_a_bad_request(client):
    with client.websocket_connect("/ws/fill") as ws:  # the 5x5 Marching Bands: its rows need 2-letter words
        _, message = _fill(ws, {"grid": _empty_rows("marching-bands.jpz"), "time_limit_s": 5})
    assert message["type"] == "error" and message["status"] == 400, message
    assert "no 2 words of the list's lengths" in message["error"]


def test_a_region_fill_gives_the_words_of_the_chains_inside_it_only(client):
    rows = _empty_rows("rows-garden-mini.jpz")
    grid = parse_grid("\n".join(rows))
    with client.websocket_connect("/ws/fill") as ws:  # the top three rows: ROWS.A (one word), ROWS.B, ROWS.C
        _, result = _fill(ws, {"grid": rows, "time_limit_s": 30, "region": [0, 0, 2, 14]})
    assert result["status"] == "filled", result
    filled = parse_grid("\n".join(result["grid"]))
    assert sorted(result["chains"]) == ["ROWS.B", "ROWS.C"]
    for name, words in result["chains"].items():
        entry = next(e for e in grid.entries if e.name == name)
        assert "".join(words) == "".join(filled.cells[cell] for cell in entry.cells)
    assert all(filled.cells[cell] == grid.cells[cell] for cell in range(3 * grid.width, len(grid.cells)))


def test_stop_ends_a_chain_search_between_or_within_its_splits(client):
    with client.websocket_connect("/ws/fill") as ws:  # the 21x12 Rows Garden: no split fills within a second
        ws.send_json({"grid": _empty_rows("rows-garden.ipuz"), "time_limit_s": 60})
        first = ws.receive_json()
        assert first["type"] == "progress" and "chain_splits" in first
        ws.send_json({"type": "stop"})
        while (message := ws.receive_json())["type"] == "progress":
            pass
    assert message["type"] == "result" and message["status"] == "aborted", message
    assert message["reason"].startswith("stopped") and message["seconds"] < 10
