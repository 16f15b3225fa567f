"""The grid model every other part reads: cells (blocks, letters, rebus strings), bars, marks, slots, numbering.

`grid` holds the types and the slot rule, `letters` the grid spelled letter by letter (a rebus
cell holds several: what the problem compiler works on), `text` xwcp's text syntax for grids, `puzzle` the
Puzzle (a grid with its title, author, clues and kind). Formats, backends and the builder all
read and write these; `xwcp.model` and `xwcp.model.puzzle` re-export them for older imports.
"""

from xwcp.model.entries import Entry
from xwcp.model.grid import (
    BELOW,
    BLOCK,
    EMPTY,
    MAX_SIDE,
    RIGHT,
    Bar,
    CellEdges,
    Grid,
    Mark,
    Slot,
    cell_edges,
    content_token,
    final_cells,
    find_slots,
    is_letters,
    make_grid,
    normalize_bars,
    number_by_cell,
    render_grid,
    standard_numbers,
    written_cells,
)
from xwcp.model.letters import SpelledGrid, cells_of, spell_out, write_letters
from xwcp.model.puzzle import Puzzle, clue_order, puzzle_from_fill
from xwcp.model.text import MAX_GRID_BYTES, decode_grid, grid_from_rows, grid_lines, parse_grid, read_grid

__all__ = [
    "BELOW",
    "BLOCK",
    "EMPTY",
    "MAX_SIDE",
    "RIGHT",
    "Bar",
    "CellEdges",
    "Entry",
    "Grid",
    "Mark",
    "Slot",
    "cell_edges",
    "content_token",
    "final_cells",
    "find_slots",
    "is_letters",
    "make_grid",
    "normalize_bars",
    "number_by_cell",
    "standard_numbers",
    "SpelledGrid",
    "cells_of",
    "spell_out",
    "write_letters",
    "Puzzle",
    "clue_order",
    "puzzle_from_fill",
    "MAX_GRID_BYTES",
    "decode_grid",
    "grid_from_rows",
    "grid_lines",
    "parse_grid",
    "read_grid",
    "render_grid",
    "written_cells",
]
