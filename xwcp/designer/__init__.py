"""Grid design: theme entries in, symmetric block patterns out, each proven fillable and filled for quality.

The library's front door is `xwcp.design(...)` (xwcp/library/jobs.py: arguments checked, a typed
`xwcp.DesignAnswer`); this package is the engine under it, the CLI's `xwcp design` and the builder's
Design tab. Its own calls, for a caller who composes the parts:

    from xwcp.designer import design, make_request
    request = make_request(size="15x15", themes=["SPEAKOFTHEDEVIL", "OBEDIENCESCHOOL"], count=2)
    result = design(request, xwcp.load_word_list())   # result.designs: best first, each checked

Modules, one job each: `rules` (what a pattern keeps, and its checker), `themes` (theme entries and
where they may go), `pattern` (the CP-SAT pattern model and its cuts), `search` (patterns alternating
with fills), `request` (a request from the user's options), `check` (a design checked end to end),
`report` (JSON and text), `session` (the command's glue).
"""

from xwcp.designer.check import check_design
from xwcp.designer.request import DesignRequest, make_request
from xwcp.designer.rules import Rules, Style, Symmetry, check_pattern
from xwcp.designer.search import Design, DesignEvent, DesignResult, design

__all__ = [
    "Design",
    "DesignEvent",
    "DesignRequest",
    "DesignResult",
    "Rules",
    "Style",
    "Symmetry",
    "check_design",
    "check_pattern",
    "design",
    "make_request",
]
