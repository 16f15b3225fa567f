"""Grids, hosts and small request helpers shared by the web builder's test modules (no Starlette import here)."""

from __future__ import annotations

from pathlib import Path

import xwcp
from xwcp.formats import Puzzle
from xwcp.model import parse_grid
from xwcp.web.hosts import allowed_hosts

ROOT = Path(__file__).resolve().parents[2]
MINI = ["ADS#...", "...#...", ".......", "##...##", ".......", "...#...", "...#..."]
OPEN_7 = ["......."] * 7  # no fill with the default list within seconds: a fill that runs until stopped
UNFILLABLE = ["...Z", "...E", "...R", "WOR."]
LOCAL = "http://127.0.0.1"
"""The TestClient's address: the app answers only the hosts it serves (127.0.0.1 by default)."""
HOSTS = allowed_hosts("127.0.0.1", ["testserver"])
"""The hosts the test apps answer: the TestClient's WebSockets always ask for `testserver`."""
FILLED = ["ADS#ERA", "LOO#NAP", "SWEATER", "##RIM##", "HAIRNET", "ALP#ATE", "ERE#SEA"]
"""A filled 7x7 (no word twice) with clues below."""


def _problem(rows, words):
    return xwcp.compile_problem(xwcp.parse_grid("\n".join(rows)), words)


def _ok(client) -> None:
    """The server still answers a good request."""
    response = client.post("/api/suggest", json={"grid": MINI, "slot": "4A", "k": 3})
    assert response.status_code == 200 and len(response.json()["words"]) == 3


def _fill(ws, request: dict) -> tuple[list[dict], dict]:
    ws.send_json(request)
    progress: list[dict] = []
    while True:
        message = ws.receive_json()
        if message["type"] not in ("progress", "verdict", "core-progress"):
            return progress, message
        progress.append(message)


def _clues(grid_rows: list[str]) -> dict[str, str]:
    return {slot.name: f"Clue for {slot.name}" for slot in xwcp.find_slots(parse_grid("\n".join(grid_rows)))}


def _puzzle() -> Puzzle:
    return Puzzle(
        parse_grid("\n".join(FILLED)),
        title="Seven Seas",
        author="A. Setter",
        copyright="CC0",
        notes="A test puzzle",
        clue_by_slot=_clues(FILLED),
    )


def _suggested(client, rows, slot, k=200):
    return [w["word"] for w in client.post("/api/suggest", json={"grid": rows, "slot": slot, "k": k}).json()["words"]]
