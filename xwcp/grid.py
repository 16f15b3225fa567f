"""Older home of the grid types and text syntax: re-exports `xwcp.model` (where the grid model lives now)."""
from xwcp.model.grid import (BELOW, BLOCK, EMPTY, MAX_SIDE, RIGHT, Grid, Mark, Slot, find_slots, make_grid,
                             number_by_cell)
from xwcp.model.text import MAX_GRID_BYTES, decode_grid, grid_from_rows, parse_grid, read_grid

__all__ = ["BELOW", "BLOCK", "EMPTY", "MAX_SIDE", "RIGHT", "Grid", "Mark", "Slot", "find_slots", "make_grid",
           "number_by_cell", "MAX_GRID_BYTES", "decode_grid", "grid_from_rows", "parse_grid", "read_grid"]
