"""xwcp: a crossword fill engine. Public API re-exported here; see README.md."""
from xwcp.core import Core, find_core
from xwcp.errors import InputError
from xwcp.formats import Puzzle, read_puzzle, write_puzzle
from xwcp.grid import Grid, Slot, find_slots, parse_grid, read_grid
from xwcp.problem import Crossing, Domains, Problem, compile_problem
from xwcp.result import FillResult, FillStats, Limits, Progress, check_fill
from xwcp.types import Direction, FillStatus, SlotId, WordId
from xwcp.wordlist import LengthBucket, WordList, load_word_list, words_from_pairs

__all__ = [
    "InputError", "Grid", "Slot", "find_slots", "parse_grid", "read_grid", "Crossing", "Domains", "Problem",
    "compile_problem", "FillResult", "FillStats", "Limits", "Progress", "check_fill", "Direction",
    "FillStatus", "SlotId", "WordId", "LengthBucket", "WordList", "load_word_list", "words_from_pairs",
    "Puzzle", "read_puzzle", "write_puzzle", "Core", "find_core",
]
__version__ = "0.1.0"
