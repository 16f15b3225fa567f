"""Older home of the Puzzle: re-exports `xwcp.model.puzzle`."""
from xwcp.model.puzzle import Puzzle, clue_order, puzzle_from_fill

__all__ = ["Puzzle", "clue_order", "puzzle_from_fill"]
