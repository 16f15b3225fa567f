"""The builder's pure JavaScript modules (xwcp/web/static/: no DOM at import) under Node: their tests in tests/js/ run
with `node --test`, checked against what xwcp.model writes for every model grid, and their `// @ts-check` is kept by
`tsc -p tests/js/tsconfig.json`. Debian's nodejs and node-typescript bring both (.ci/install-js.sh); where one is
missing its test says so and is skipped."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from xwcp.model import find_slots, grid_lines, read_grid

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "xwcp" / "web" / "static"
TSCONFIG = ROOT / "tests" / "js" / "tsconfig.json"
TSC_BUILD_INFO = (
    Path(tempfile.gettempdir()) / f"xwcp-tsc-{hashlib.sha1(str(ROOT).encode()).hexdigest()[:12]}.tsbuildinfo"
)
"""tsc's record of what it checked (one per checkout, outside it): a later run checks again only what changed."""


def _checked_modules() -> set[str]:
    """The static modules that start with `// @ts-check`."""
    return {path.name for path in STATIC.glob("*.js") if path.read_text(encoding="utf-8").startswith("// @ts-check\n")}


def _need(command: str) -> str:
    found = shutil.which(command)
    if found is None:
        pytest.skip(f"{command} is not installed: bash .ci/install-js.sh brings Debian's nodejs and node-typescript")
    return found


def test_the_checked_modules_are_pure_and_listed():
    """Every `// @ts-check` module is type checked (listed in tests/js/tsconfig.json), imports only other checked
    modules, touches no browser object, and has its own tests."""
    checked = _checked_modules()
    assert {"gridtext.js", "alphabet.js", "grid.js", "state.js"} <= checked
    listed = {Path(name).name for name in json.loads(TSCONFIG.read_text(encoding="utf-8"))["files"]}
    assert listed == checked
    for name in checked:
        source = (STATIC / name).read_text(encoding="utf-8")
        imported = set(re.findall(r'from "\./([\w-]+\.js)"', source))
        assert imported <= checked, f"{name} imports {imported - checked}, which are not checked"
        assert not re.search(r"\b(document|window|localStorage|navigator|fetch)\b[.(]", source), name
    tested = {path.name.removesuffix(".test.mjs") + ".js" for path in (ROOT / "tests" / "js").glob("*.test.mjs")}
    assert checked <= tested, f"no tests/js/<name>.test.mjs for {checked - tested}"


def test_node_runs_the_module_tests_against_xwcp_model(tmp_path):
    node = _need("node")
    expected = {}
    for path in sorted((ROOT / "models").glob("*.txt")):
        if "hindi" in path.name:
            continue  # an akshara is a letter of its own pack: the page reads these through alphabet.js
        grid = read_grid(path)
        expected[path.name] = {"lines": grid_lines(grid), "slots": [slot.name for slot in find_slots(grid)]}
    for path in sorted((ROOT / "models" / "variety").glob("*.txt")):  # the page keeps one slot per entry, not reading
        grid = read_grid(path)
        entries = [slot for slot in find_slots(grid) if slot.reading < 2]
        expected[f"variety/{path.name}"] = {
            "lines": grid_lines(grid),
            "slots": [slot.entry_name for slot in entries],
            "cells": [list(slot.cells) for slot in entries],
        }
    (tmp_path / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
    env = dict(os.environ, XWCP_JS_EXPECTED=str(tmp_path / "expected.json"))
    done = subprocess.run([node, "--test", "tests/js/"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr
    assert re.search(r"^# fail 0$", done.stdout, re.M) and re.search(r"^# skipped 0$", done.stdout, re.M), done.stdout
    assert int(re.search(r"^# pass (\d+)$", done.stdout, re.M).group(1)) >= 10


def test_the_checked_modules_type_check():
    tsc = _need("tsc")
    incremental = ["--incremental", "--tsBuildInfoFile", str(TSC_BUILD_INFO)]
    done = subprocess.run(
        [tsc, "-p", str(TSCONFIG), *incremental], cwd=ROOT, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stdout + done.stderr
