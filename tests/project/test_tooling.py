"""The habits of a typed library, checked with the README's test command: mypy (strict on the public modules),
ruff, the `py.typed` marker, and the API reference page built from the docstrings with the README's command.

The tools come with the `[test]` extra (CI installs it); where one is missing the test says so and is skipped.
"""
from __future__ import annotations

import importlib.util
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


def test_mypy_strict_on_the_public_modules():
    _need("mypy")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True and "xwcp/library" in config["files"] and "xwcp/__init__.py" in config["files"]
    assert "xwcp/designer/search.py" in config["files"]  # the design job's engine too (all but pattern.py)
    done = _run(["mypy"])
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_lint_on_the_package():
    _need("ruff")
    done = _run(["ruff", "check", "xwcp"])
    assert done.returncode == 0, done.stdout + done.stderr


def test_package_is_marked_typed():
    assert (ROOT / "xwcp" / "py.typed").is_file()
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["xwcp"]
    assert "py.typed" in package_data


def test_api_reference_builds_with_the_readme_command(tmp_path):
    _need("pdoc")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"```bash\n(python3 -m pdoc [^\n]*)\n```", readme).group(1)
    assert "-o docs/api xwcp" in command and "(docs/api/xwcp.html)" in readme
    args = shlex.split(command)[2:]  # after `python3 -m`
    args[args.index("docs/api")] = str(tmp_path)
    done = _run(args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Warn" not in done.stderr, done.stderr
    page = (tmp_path / "xwcp.html").read_text(encoding="utf-8")
    for name in ("fill", "check", "domains", "suggest", "heatmap", "find_core", "Session", "FillAnswer",
                 "CheckAnswer", "Verdict", "DomainsAnswer", "Suggestion", "HeatMap", "CoreAnswer", "Controls",
                 "design", "DesignAnswer", "DesignedGrid", "DesignEvent"):
        assert f'id="{name}"' in page, f"the reference page has no entry for {name}"
    assert "Fill a grid: every slot a listed word" in page  # docstrings, not only names
    assert "Design grids around theme entries" in page
