"""Small shared types: ids, directions and the fill status enum."""

from __future__ import annotations

from enum import Enum

SlotId = int
"""Index of a slot in `Problem.slots` (reading order: all across slots, then all down)."""

WordId = int
"""Index of a word inside its length bucket of a `WordList`."""


class Direction(Enum):
    """Which way an entry runs: across or down, or OTHER for a listed entry of any other cells
    (`xwcp.model.entries`: a diagonal, a wrap-around row, a hexagon's side)."""

    ACROSS = "across"
    DOWN = "down"
    OTHER = "other"

    @property
    def letter(self) -> str:
        """`A`, `D`, or '' for OTHER (a listed entry is named by its own name)."""
        return "A" if self is Direction.ACROSS else "D" if self is Direction.DOWN else ""


class FillStatus(Enum):
    """How a fill attempt ended. FILLED and UNFILLABLE are proofs; LIMIT and ABORTED are not."""

    FILLED = "filled"
    UNFILLABLE = "unfillable"
    LIMIT = "limit"
    ABORTED = "aborted"

    @property
    def exit_code(self) -> int:
        """The CLI exit code: 0 filled, 1 proven unfillable, 3 limit reached or aborted."""
        return {"filled": 0, "unfillable": 1, "limit": 3, "aborted": 3}[self.value]
