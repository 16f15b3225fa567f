"""xwcp: a crossword fill engine. Public API re-exported here; see docs/library.md.

One call per job: `xwcp.fill`, `xwcp.check`, `xwcp.domains`, `xwcp.suggest`, `xwcp.heatmap`,
`xwcp.find_core`, each taking a grid (a path, grid text, a Grid or a Puzzle) and answering with
a typed object; `xwcp.Session` compiles a grid once for several questions. `xwcp.design` starts
from theme entries instead and answers with designed grids (the design search is `xwcp.designer`). The engine's parts
(`compile_problem`, `Limits`, `FillResult`, ...) are here too for callers who compose their own.

The names are imported on first use (PEP 562 module `__getattr__`), so `import xwcp` and
`python -m xwcp` cost almost nothing: numpy and the solvers load only where a command needs
them (a small fill's start-up is mostly imports). `from xwcp import compile_problem` works as usual.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and IDEs see (`name as name`: re-exported); at run time __getattr__ imports
    from xwcp.base.errors import InputError as InputError
    from xwcp.base.types import Direction as Direction, FillStatus as FillStatus, SlotId as SlotId, WordId as WordId
    from xwcp.compile.controls import (
        Controls as Controls,
        FilterKind as FilterKind,
        SlotFilter as SlotFilter,
        make_controls as make_controls,
    )
    from xwcp.compile.problem import Crossing as Crossing, Domains as Domains, Problem as Problem
    from xwcp.designer.search import DesignEvent as DesignEvent
    from xwcp.engine.result import (
        FillResult as FillResult,
        FillStats as FillStats,
        Limits as Limits,
        Progress as Progress,
        Quality as Quality,
        check_fill as check_fill,
        measure_quality as measure_quality,
    )
    from xwcp.formats import Puzzle as Puzzle, read_puzzle as read_puzzle, write_puzzle as write_puzzle
    from xwcp.library.answers import (
        CheckAnswer as CheckAnswer,
        CoreAnswer as CoreAnswer,
        DesignAnswer as DesignAnswer,
        DesignedGrid as DesignedGrid,
        DomainsAnswer as DomainsAnswer,
        Entry as Entry,
        FillAnswer as FillAnswer,
        FilledGrid as FilledGrid,
        ForcedLetter as ForcedLetter,
        HeatMap as HeatMap,
        SlotInfo as SlotInfo,
        Suggestion as Suggestion,
        Suggestions as Suggestions,
        Verdict as Verdict,
        Viability as Viability,
    )
    from xwcp.library.clues import (
        ClueChecks as ClueChecks,
        ClueHelp as ClueHelp,
        check_clues as check_clues,
        clues as clues,
        remember_clues as remember_clues,
    )
    from xwcp.library.jobs import (
        Session as Session,
        check as check,
        design as design,
        domains as domains,
        fill as fill,
        find_core as find_core,
        heatmap as heatmap,
        suggest as suggest,
    )
    from xwcp.library.languages import languages as languages
    from xwcp.model import (
        Grid as Grid,
        Slot as Slot,
        find_slots as find_slots,
        parse_grid as parse_grid,
        read_grid as read_grid,
    )
    from xwcp.search.core import Core as Core
    from xwcp.services.inputs import compile_problem as compile_problem
    from xwcp.words.wordlist import (
        LengthBucket as LengthBucket,
        WordList as WordList,
        layer_word_lists as layer_word_lists,
        load_word_list as load_word_list,
        words_from_pairs as words_from_pairs,
    )

_MODULE_BY_NAME = {
    # the jobs, one call each, and their typed answers (the front door: xwcp/library/)
    "fill": "library.jobs",
    "check": "library.jobs",
    "domains": "library.jobs",
    "suggest": "library.jobs",
    "heatmap": "library.jobs",
    "find_core": "library.jobs",
    "design": "library.jobs",
    "Session": "library.jobs",
    "languages": "library.languages",
    "clues": "library.clues",
    "check_clues": "library.clues",
    "remember_clues": "library.clues",
    "ClueHelp": "library.clues",
    "ClueChecks": "library.clues",
    "FillAnswer": "library.answers",
    "FilledGrid": "library.answers",
    "Entry": "library.answers",
    "CheckAnswer": "library.answers",
    "Verdict": "library.answers",
    "CoreAnswer": "library.answers",
    "DomainsAnswer": "library.answers",
    "Suggestions": "library.answers",
    "Suggestion": "library.answers",
    "Viability": "library.answers",
    "HeatMap": "library.answers",
    "SlotInfo": "library.answers",
    "ForcedLetter": "library.answers",
    "DesignAnswer": "library.answers",
    "DesignedGrid": "library.answers",
    # the engine's parts, for callers who compose their own
    "Controls": "compile.controls",
    "SlotFilter": "compile.controls",
    "FilterKind": "compile.controls",
    "make_controls": "compile.controls",
    "Core": "search.core",
    "DesignEvent": "designer.search",
    "InputError": "base.errors",
    "Puzzle": "formats",
    "read_puzzle": "formats",
    "write_puzzle": "formats",
    "Grid": "model",
    "Slot": "model",
    "find_slots": "model",
    "parse_grid": "model",
    "read_grid": "model",
    "Crossing": "compile.problem",
    "Domains": "compile.problem",
    "Problem": "compile.problem",
    "compile_problem": "services.inputs",
    "FillResult": "engine.result",
    "FillStats": "engine.result",
    "Limits": "engine.result",
    "Progress": "engine.result",
    "Quality": "engine.result",
    "check_fill": "engine.result",
    "measure_quality": "engine.result",
    "Direction": "base.types",
    "FillStatus": "base.types",
    "SlotId": "base.types",
    "WordId": "base.types",
    "LengthBucket": "words.wordlist",
    "WordList": "words.wordlist",
    "layer_word_lists": "words.wordlist",
    "load_word_list": "words.wordlist",
    "words_from_pairs": "words.wordlist",
}
"""Public name -> the module of xwcp that defines it: the one list of public names (the TYPE_CHECKING imports
above say the same for type checkers; tests/project/test_architecture.py checks they agree)."""

__all__ = list(_MODULE_BY_NAME)
__version__ = "0.1.0"
"""The version, stated here only: pyproject.toml reads it (a literal, so without importing the package), and
`xwcp --version` and the bench's records print it."""


def __getattr__(name: str) -> Any:
    module = _MODULE_BY_NAME.get(name)
    if module is None:
        raise AttributeError(f"module 'xwcp' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"xwcp.{module}"), name)
    globals()[name] = value  # the next access is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
