"""xwcp: a crossword fill engine. Public API re-exported here; see README.md.

The names are imported on first use (PEP 562 module `__getattr__`), so `import xwcp` and
`python -m xwcp` cost almost nothing: numpy and the solvers load only where a command needs
them (start-up, issue 17). `from xwcp import compile_problem` works as usual.
"""
from __future__ import annotations

import importlib

_MODULE_BY_NAME = {
    "Controls": "controls", "make_controls": "controls",
    "Core": "core", "find_core": "core",
    "InputError": "errors",
    "Puzzle": "formats", "read_puzzle": "formats", "write_puzzle": "formats",
    "Grid": "grid", "Slot": "grid", "find_slots": "grid", "parse_grid": "grid", "read_grid": "grid",
    "Crossing": "problem", "Domains": "problem", "Problem": "problem", "compile_problem": "problem",
    "FillResult": "result", "FillStats": "result", "Limits": "result", "Progress": "result", "Quality": "result",
    "check_fill": "result", "measure_quality": "result",
    "Direction": "types", "FillStatus": "types", "SlotId": "types", "WordId": "types",
    "LengthBucket": "wordlist", "WordList": "wordlist", "layer_word_lists": "wordlist",
    "load_word_list": "wordlist", "words_from_pairs": "wordlist",
}
"""Public name -> the module of xwcp that defines it."""

__all__ = [
    "InputError", "Grid", "Slot", "find_slots", "parse_grid", "read_grid", "Crossing", "Domains", "Problem",
    "compile_problem", "FillResult", "FillStats", "Limits", "Progress", "check_fill", "Direction",
    "FillStatus", "SlotId", "WordId", "LengthBucket", "WordList", "load_word_list", "words_from_pairs",
    "Controls", "make_controls", "Quality", "measure_quality", "layer_word_lists",
    "Puzzle", "read_puzzle", "write_puzzle", "Core", "find_core",
]
__version__ = "0.1.0"


def __getattr__(name: str):
    module = _MODULE_BY_NAME.get(name)
    if module is None:
        raise AttributeError(f"module 'xwcp' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"xwcp.{module}"), name)
    globals()[name] = value  # the next access is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
