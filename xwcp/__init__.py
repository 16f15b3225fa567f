"""xwcp: a crossword fill engine. Public API re-exported here; see README.md."""
from xwcp.controls import Controls, make_controls
from xwcp.core import Core, find_core
from xwcp.errors import InputError
from xwcp.formats import Puzzle, read_puzzle, write_puzzle
from xwcp.grid import Grid, Slot, find_slots, parse_grid, read_grid
from xwcp.problem import Crossing, Domains, Problem, compile_problem
from xwcp.result import FillResult, FillStats, Limits, Progress, Quality, check_fill, measure_quality
from xwcp.types import Direction, FillStatus, SlotId, WordId
from xwcp.wordlist import LengthBucket, WordList, layer_word_lists, load_word_list, words_from_pairs

__all__ = [
    "InputError", "Grid", "Slot", "find_slots", "parse_grid", "read_grid", "Crossing", "Domains", "Problem",
    "compile_problem", "FillResult", "FillStats", "Limits", "Progress", "check_fill", "Direction",
    "FillStatus", "SlotId", "WordId", "LengthBucket", "WordList", "load_word_list", "words_from_pairs",
    "Controls", "make_controls", "Quality", "measure_quality", "layer_word_lists",
    "Puzzle", "read_puzzle", "write_puzzle", "Core", "find_core",
]
__version__ = "0.1.0"
