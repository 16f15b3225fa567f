"""Trace one fill through xwcp's layers: modules entered, hand-offs between modules, climbs back up a layer.

Usage:
    PYTHONPATH=ROOT python3 bench/trace_layers.py [--job cli|library|web|all] [--grid GRID] [--format text|json]

Runs one job in this process with a call profiler (`sys.setprofile`, and `threading.setprofile` for the
threads the job starts) after a warm-up run of the same job, so the figures count calls, not imports:

- cli:     `xwcp.cli.main(["fill", GRID])`, its output captured;
- library: `xwcp.fill(GRID)`;
- web:     one autofill through Starlette's TestClient: the `/ws/fill` WebSocket sent `{"grid": rows}`,
           read until its `"result"` message (the app is built before tracing; the fill is traced).

For the traced run it reports:
- modules: the xwcp modules entered (a function of theirs ran);
- hand-offs: calls whose caller's module and callee's module differ, both in xwcp (the caller is the
  nearest xwcp frame under the callee, so a call through the standard library counts as the xwcp
  module's); counted as distinct (caller module, callee module) pairs, and as calls;
- climbs: hand-offs from a module of a lower layer into a module of a higher layer (the layers of
  docs/architecture.md; the `xwcp` package itself, `__init__` and `__main__`, is outside them);
- work done more than once: how many times the slots (`find_slots`), the letter cells
  (`letter_contents`) and the fill's answer (ANSWER_FUNCTIONS) were worked out, and a few more.

A generator's or coroutine's resumption is not a call: only its first start counts.
Calls in child processes (the `auto` backend's rival, a batch child) are not seen.

It runs on the layout before the move too (commit 758c8a5): LAYER_BY_MODULE names the old modules.
"""

from __future__ import annotations

import argparse
import contextlib
import dis
import io
import json
import sys
import threading
import types
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_GRID = "models/7x7-mini.txt"
"""A small plain grid (7x7, 22 slots) the default list fills in milliseconds."""

LAYERS = (
    "base",
    "runtime",
    "model",
    "words",
    "formats",
    "compile",
    "engine",
    "backends",
    "search",
    "analysis",
    "render",
    "services",
    "designer",
    "library",
    "dist",
    "web|bench",
    "cli",
)
"""The layers, low to high (`web` and `bench` share a floor)."""

LAYER_BY_MODULE = {
    # today's folders (a module's layer is its folder's) ...
    **{
        f"xwcp.{name}": name
        for name in (
            "base",
            "runtime",
            "model",
            "words",
            "formats",
            "compile",
            "engine",
            "backends",
            "search",
            "analysis",
            "render",
            "services",
            "designer",
            "library",
            "dist",
            "cli",
        )
    },
    "xwcp.web": "web|bench",
    "xwcp.bench": "web|bench",
    # ... and the modules before the move (758c8a5), where their names differ
    "xwcp.types": "base",
    "xwcp.errors": "base",
    "xwcp.lazy": "runtime",
    "xwcp.files": "runtime",
    "xwcp.signals": "runtime",
    "xwcp.isolation": "runtime",
    "xwcp.argtypes": "runtime",
    "xwcp.grid": "model",
    "xwcp.wordlist": "words",
    "xwcp.cache": "words",
    "xwcp.userwords": "words",
    "xwcp.controls": "compile",
    "xwcp.problem": "compile",
    "xwcp.kernel": "engine",
    "xwcp.plain_kernel": "engine",
    "xwcp.ac3": "engine",
    "xwcp.result": "engine",
    "xwcp.core_oracle": "backends",
    "xwcp.core": "search",
    "xwcp.backends.quality": "search",
    "xwcp.verify": "analysis",
    "xwcp.stats": "analysis",  # xwcp.analysis was a module: "analysis" above
    "xwcp.report": "render",
    "xwcp.picture": "render",
    "xwcp.session": "services",
    "xwcp.quick": "services",
    "xwcp.library.inputs": "services",
}
"""Module (or package) name -> layer; the longest matching prefix wins."""

SLOT_FUNCTIONS = (
    "find_slots",
    "_slots_of",
)  # the work: _slots_of where a Grid keeps its slots (find_slots then only looks)
LETTER_FUNCTIONS = ("letter_contents", "_letter_contents_of")  # likewise
ANSWER_FUNCTIONS = ("entry_dicts", "filled_grid")
"""What works out a fill's answer for a front end (the entries by slot, their scores): the CLI's JSON and text
(`report.entry_dicts`; `FillReport` keeps it), the library's `FillAnswer` (`answers.filled_grid` before it wrapped a FillReport), and
the web's result message (`entry_scores` called from a web module before the move, counted here too)."""
WEB_ANSWER_FUNCTION = "entry_scores"
WATCHED = (
    "find_slots",
    "letter_contents",
    "spell_out",
    "fill_grid",
    "compile_structure",
    "compile_problem",
    "parse_grid",
    "read_puzzle",
    "load_word_list",
    "fill",
    "run_fill",
    "check_fill",
    "grid_lines",
)
"""Functions whose call counts are listed too."""

_GENERATOR_FLAGS = 0x20 | 0x80 | 0x200  # CO_GENERATOR, CO_COROUTINE, CO_ASYNC_GENERATOR


def layer_of(module: str) -> str | None:
    """The layer of an xwcp module, None for the package itself (`xwcp`, `xwcp.__main__`) or a module not mapped."""
    parts = module.split(".")
    for end in range(len(parts), 1, -1):
        layer = LAYER_BY_MODULE.get(".".join(parts[:end]))
        if layer is not None:
            return layer
    return None


def rank_of(layer: str | None) -> int | None:
    return None if layer is None else LAYERS.index(layer)


class Tracer:
    """The profiler: counts calls between xwcp modules while installed."""

    def __init__(self) -> None:
        self.modules: Counter[str] = Counter()
        self.handoffs: Counter[tuple[str, str]] = Counter()
        self.functions: Counter[str] = Counter()
        self.web_answers = 0
        self.callers: dict[str, Counter[str]] = {}
        self._first_resume: dict[types.CodeType, int] = {}
        self._lock = threading.Lock()

    def _is_resumption(self, frame: types.FrameType) -> bool:
        code = frame.f_code
        if not code.co_flags & _GENERATOR_FLAGS:
            return False
        first = self._first_resume.get(code)
        if first is None:
            first = next((i.offset for i in dis.get_instructions(code) if i.opname == "RESUME"), 0)
            self._first_resume[code] = first
        return frame.f_lasti != first

    def profile(self, frame: types.FrameType, event: str, arg: object) -> None:
        if event != "call":
            return
        callee = frame.f_globals.get("__name__", "")
        if not (callee == "xwcp" or callee.startswith("xwcp.")):
            return
        if self._is_resumption(frame):
            return
        caller_frame = frame.f_back
        while caller_frame is not None:
            name = caller_frame.f_globals.get("__name__", "")
            if name == "xwcp" or name.startswith("xwcp."):
                break
            caller_frame = caller_frame.f_back
        caller = None if caller_frame is None else caller_frame.f_globals.get("__name__", "")
        qualname = getattr(frame.f_code, "co_qualname", frame.f_code.co_name)
        traced = frame.f_code.co_name in SLOT_FUNCTIONS + LETTER_FUNCTIONS + ANSWER_FUNCTIONS
        if traced and caller_frame is not None:
            caller_code = caller_frame.f_code
            where = f"{caller}.{getattr(caller_code, 'co_qualname', caller_code.co_name)}"
        with self._lock:
            self.modules[callee] += 1
            self.functions[f"{callee}.{qualname}"] += 1
            if traced and caller_frame is not None:
                self.callers.setdefault(f"{callee}.{qualname}", Counter())[where] += 1
            if caller is not None and caller != callee:
                self.handoffs[(caller, callee)] += 1
                if frame.f_code.co_name == WEB_ANSWER_FUNCTION and layer_of(caller) == "web|bench":
                    self.web_answers += 1

    @contextlib.contextmanager
    def installed(self) -> Iterator[Tracer]:
        threading.setprofile(self.profile)
        sys.setprofile(self.profile)
        try:
            yield self
        finally:
            sys.setprofile(None)
            threading.setprofile(None)

    def count(self, names: tuple[str, ...]) -> dict[str, int]:
        """Calls of the functions named `names` (their bare names, in any xwcp module), by qualified name."""
        out: dict[str, int] = {}
        for full, n in self.functions.items():
            if full.rsplit(".", 1)[-1] in names:
                out[full] = n
        return dict(sorted(out.items()))

    def work(self, names: tuple[str, str]) -> int:
        """How often the work of `names` = (the function callers call, the function that does the work once a
        Grid keeps its answer) was done: calls of the second where the code has it, else of the first (code from
        before the Grid kept its slots and letters)."""
        done = sum(self.count(names[1:]).values())
        return done if done else sum(self.count(names[:1]).values())

    def figures(self) -> dict[str, Any]:
        climbs = {
            pair: n
            for pair, n in self.handoffs.items()
            if (a := rank_of(layer_of(pair[0]))) is not None and (b := rank_of(layer_of(pair[1]))) is not None and b > a
        }
        layers_entered = sorted({layer for m in self.modules if (layer := layer_of(m)) is not None}, key=LAYERS.index)
        answers = self.count(ANSWER_FUNCTIONS)
        return {
            "modules_entered": len(self.modules),
            "layers_entered": layers_entered,
            "handoffs": len(self.handoffs),
            "handoff_calls": sum(self.handoffs.values()),
            "climbs": len(climbs),
            "climb_calls": sum(climbs.values()),
            "climb_pairs": [
                f"{a} -> {b} ({layer_of(a)} -> {layer_of(b)}) x{n}" for (a, b), n in sorted(climbs.items())
            ],
            "slots": self.work(SLOT_FUNCTIONS),
            "letters": self.work(LETTER_FUNCTIONS),
            "answer": sum(answers.values()) + self.web_answers,
            "answer_by_function": {**answers, **({"web: entry_scores": self.web_answers} if self.web_answers else {})},
            "watched": self.count(WATCHED),
            "callers": {name: dict(by) for name, by in sorted(self.callers.items())},
            "modules": sorted(self.modules),
        }


# ----- the jobs -----------------------------------------------------------------------------------


def cli_job(grid: str) -> Callable[[], object]:
    from xwcp.cli import main

    def run() -> object:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code: object
            try:
                code = main(["fill", grid])
            except SystemExit as exc:
                code = exc.code
        return code, out.getvalue().splitlines()[:1]

    return run


def library_job(grid: str) -> Callable[[], object]:
    import xwcp

    def run() -> object:
        answer = xwcp.fill(grid)
        return answer.status.value

    return run


def web_job(grid: str) -> tuple[Callable[[], object], Callable[[], object]]:
    """(warm-up, traced run): the app (and its word list) is made once, each run opens its own TestClient
    (so the worker threads it starts are new, and profiled)."""
    from starlette.testclient import TestClient

    import xwcp
    from xwcp.web import app as web_app

    rows = [
        line
        for line in (ROOT / grid if not Path(grid).is_absolute() else Path(grid)).read_text().splitlines()
        if line.strip() and not line.lstrip().startswith(";")
    ]
    app = web_app.create_app(
        words=xwcp.load_word_list(), max_fills=2, hosts=frozenset({"127.0.0.1", "localhost", "testserver"})
    )

    def run() -> object:
        with TestClient(app, base_url="http://127.0.0.1") as client:
            with client.websocket_connect("/ws/fill") as ws:
                ws.send_json({"grid": rows, "time_limit_s": 20})
                while True:
                    message = ws.receive_json()
                    if message.get("type") in ("result", "error"):
                        return message.get("status")

    return run, run


def trace(job: str, grid: str) -> dict[str, Any]:
    if job == "web":
        warm, run = web_job(grid)
    else:
        warm = run = cli_job(grid) if job == "cli" else library_job(grid)
    warm()
    tracer = Tracer()
    with tracer.installed():
        outcome = run()
    return {"job": job, "grid": grid, "outcome": outcome, **tracer.figures()}


def text(figures: dict[str, Any]) -> str:
    lines = [
        f"{figures['job']}: {figures['grid']} -> {figures['outcome']}",
        f"  modules entered {figures['modules_entered']}, layers {len(figures['layers_entered'])}",
        f"  hand-offs {figures['handoffs']} ({figures['handoff_calls']} calls), "
        f"climbs {figures['climbs']} ({figures['climb_calls']} calls)",
        f"  slots {figures['slots']}, letters {figures['letters']}, answer {figures['answer']} "
        f"{figures['answer_by_function']}",
    ]
    lines += [f"    climb: {pair}" for pair in figures["climb_pairs"]]
    lines += [f"    {name}: {n}" for name, n in figures["watched"].items()]
    lines += [f"    {name} called by {by}" for name, by in figures["callers"].items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--job", choices=("cli", "library", "web", "all"), default="all")
    parser.add_argument("--grid", default=DEFAULT_GRID, help=f"a grid file (default {DEFAULT_GRID})")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    jobs = ("cli", "library", "web") if args.job == "all" else (args.job,)
    results = [trace(job, args.grid) for job in jobs]
    if args.format == "json":
        print(json.dumps(results if len(results) > 1 else results[0], indent=1))
    else:
        print("\n".join(text(r) for r in results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
