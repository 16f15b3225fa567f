"""The habits of a typed library, checked with the README's test command: mypy (strict on the package, and over
the tests), ruff, the `py.typed` marker, and the API reference page built from the docstrings with the command
docs/library.md gives.

The tools come with the `[test]` extra (CI installs it); where one is missing the test says so and is skipped.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _need(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed: python3 -m pip install -e '.[test]' brings it")


def _run(args: list[str], timeout_s: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout_s)


TESTS_ALLOWANCES = {
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "disallow_untyped_calls",
    "disallow_untyped_decorators",
    "check_untyped_defs",
    "warn_return_any",
    "disallow_any_generics",
}
"""What the tests may skip of --strict: annotating every test and fixture. Their annotated code is checked."""


@pytest.mark.subprocess
def test_mypy_strict_over_the_whole_package_and_checks_the_tests():
    _need("mypy")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True and config["files"] == ["xwcp", "tests"]
    assert "follow_imports" not in config and "ignore_errors" not in config
    # the only per-module allowances: third-party packages that ship no types, and untyped test functions
    for override in config.get("overrides", []):
        modules = [str(m) for m in override["module"]]
        if modules == ["tests", "tests.*"]:
            assert set(override) - {"module"} <= TESTS_ALLOWANCES, override
            assert all(value is False for key, value in override.items() if key != "module"), override
            continue
        assert set(override) == {"module", "ignore_missing_imports"}
        assert not any(m.startswith(("xwcp", "tests")) for m in modules)
    done = _run(["mypy"])
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.subprocess
def test_a_users_script_type_checks_against_the_package_without_flags(tmp_path):
    # what a user of an editable install (the README's) or a wheel runs: plain mypy, in their own folder
    _need("mypy")
    if importlib.util.find_spec("xwcp") is None or not Path(importlib.util.find_spec("xwcp").origin).is_relative_to(
        ROOT
    ):
        pytest.skip("xwcp is not installed from this checkout: python3 -m pip install -e '.[test]'")
    script = tmp_path / "use_xwcp.py"
    script.write_text(
        "import threading\n"
        "import xwcp\n"
        "from xwcp import FillStatus, Limits\n"
        "answer: xwcp.FillAnswer = xwcp.fill('grid.txt', time_limit_s=1.0, abort=threading.Event())\n"
        "ok: bool = answer.status is FillStatus.FILLED\n"
        "limits: Limits = xwcp.Limits(time_limit_s=2.0)\n"
        "problem: xwcp.Problem = xwcp.compile_problem('grid.txt')\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.subprocess
def test_ruff_lint_on_everything():
    _need("ruff")
    done = _run(["ruff", "check", "."])
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.subprocess
def test_ruff_format_lays_out_everything():
    _need("ruff")
    done = _run(["ruff", "format", "--check", "."])
    assert done.returncode == 0, done.stdout + done.stderr


def test_package_is_marked_typed():
    assert (ROOT / "xwcp" / "py.typed").is_file()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["xwcp"]
    assert "py.typed" in package_data


@pytest.mark.subprocess
def test_api_reference_builds_with_the_documented_command(tmp_path):
    _need("pdoc")
    doc = (ROOT / "docs" / "library.md").read_text(encoding="utf-8")
    found = re.search(r"```bash\n(python3 -m pdoc [^\n]*)\n```", doc)
    assert found, "docs/library.md no longer gives the pdoc command"
    command = found.group(1)
    assert "-o docs/api xwcp" in command and "[docs/api/xwcp.html](api/xwcp.html)" in doc
    args = shlex.split(command)[2:]  # after `python3 -m`
    args[args.index("docs/api")] = str(tmp_path)
    done = _run(args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warn" not in done.stderr, done.stderr
    page = (tmp_path / "xwcp.html").read_text(encoding="utf-8")
    for name in (
        "fill",
        "check",
        "domains",
        "suggest",
        "heatmap",
        "find_core",
        "Session",
        "FillAnswer",
        "CheckAnswer",
        "Verdict",
        "DomainsAnswer",
        "Suggestion",
        "HeatMap",
        "CoreAnswer",
        "Controls",
        "design",
        "DesignAnswer",
        "DesignedGrid",
        "DesignEvent",
    ):
        assert f'id="{name}"' in page, f"the reference page has no entry for {name}"
    assert "Fill a grid: every slot a listed word" in page  # docstrings, not only names
    assert "Design grids around theme entries" in page


@pytest.mark.subprocess
def test_the_version_is_stated_once():
    """xwcp/__init__.py's `__version__` is the one source: pyproject.toml takes it as setuptools' dynamic version
    (read as a literal, so without importing the package), `xwcp --version` prints it, and no other file of the
    package states it."""
    import ast

    import xwcp

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "xwcp.__version__"}
    tree = ast.parse((ROOT / "xwcp" / "__init__.py").read_text(encoding="utf-8"))
    stated = [
        node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and any(isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets)
    ]
    assert stated == [xwcp.__version__] and re.fullmatch(r"\d+\.\d+\.\d+(?:\w+\d*)?", xwcp.__version__)
    done = subprocess.run(
        [sys.executable, "-m", "xwcp", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0 and done.stdout.strip() == f"xwcp {xwcp.__version__}", done.stdout + done.stderr
    quoted = re.compile(rf"(?<![\d.]){re.escape(xwcp.__version__)}(?![\d.])")
    elsewhere = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "xwcp").rglob("*.py"))
        if path.name != "__init__.py" or path.parent.name != "xwcp"
        if quoted.search(path.read_text(encoding="utf-8"))
    ]
    assert elsewhere == [], f"the version is stated again in {elsewhere}"
