"""The house in layers (docs/architecture.md), checked by import-linter and by the folder tree itself.

`lint-imports` reads the contracts in pyproject.toml: the layers (imports point down only, imports inside
functions included), independence of rooms that must not know each other, no cycles, and the front ends kept out
of the engine. A copy of the package with one upward import added, or a front end importing the engine, must make
it fail, so the check is known to bite.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "xwcp"
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def _lint_imports(cwd: Path, pythonpath: Path) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec("importlinter") is None:
        pytest.skip("import-linter is not installed: python3 -m pip install -e '.[test]' brings it")
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    script = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    return subprocess.run(
        [sys.executable, "-c", script, "--no-cache", "--no-logo"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _layer_names() -> list[str]:
    layers = next(c for c in CONFIG["contracts"] if c["type"] == "layers")["layers"]
    return [name.strip() for layer in layers for name in layer.split("|")]


@pytest.mark.subprocess
def test_the_contracts_are_kept():
    done = _lint_imports(ROOT, ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_contracts_cover_layers_independence_and_cycles():
    kinds = {c["type"] for c in CONFIG["contracts"]}
    assert {"layers", "independence", "acyclic_siblings"} <= kinds
    # every package of xwcp is on some layer: a new folder cannot sit outside the check
    packages = {f"xwcp.{p.name}" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert packages == set(_layer_names())


@pytest.mark.parametrize(
    "importer, imported",
    [
        ("model/grid.py", "xwcp.cli"),  # the model reaching for the front end
        ("engine/ac3.py", "xwcp.analysis.questions"),  # one floor reaching up, inside a function
    ],
)
@pytest.mark.subprocess
def test_an_upward_import_breaks_the_layers(tmp_path, importer, imported):
    _copy_with(tmp_path, importer, f"\n\ndef _upward():\n    import {imported}  # noqa\n")
    done = _lint_imports(tmp_path, tmp_path)
    assert done.returncode != 0, done.stdout
    assert "BROKEN" in done.stdout and imported in done.stdout


def _copy_with(tmp_path: Path, importer: str, added: str) -> None:
    """A copy of the package and its pyproject.toml in `tmp_path`, with `added` appended to module `importer`."""
    copy = tmp_path / "xwcp"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so", "static", "data"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    module = copy / importer
    module.write_text(module.read_text() + added)


FRONT_ENDS = ["xwcp.cli", "xwcp.web", "xwcp.dist"]
ENGINE = ["xwcp.engine", "xwcp.compile", "xwcp.backends", "xwcp.search"]


def test_the_front_ends_are_forbidden_the_engine():
    forbidden = [c for c in CONFIG["contracts"] if c["type"] == "forbidden"]
    assert any(
        set(FRONT_ENDS) <= set(c["source_modules"]) and set(ENGINE) <= set(c["forbidden_modules"]) for c in forbidden
    )


@pytest.mark.parametrize(
    "importer, added, imported",
    [
        # a web module running the engine itself (allowed by the layers: web sits above the engine)
        ("web/verdict.py", "\n\ndef _run():\n    from xwcp.backends import fill  # noqa\n", "xwcp.backends"),
        # a command naming an engine type, even for the type checker only
        ("cli/fill.py", "\nif TYPE_CHECKING:\n    from xwcp.engine.result import Limits  # noqa\n", "xwcp.engine"),
        # a batch task reaching for the search
        ("dist/tasks.py", "\n\ndef _run():\n    import xwcp.search.core  # noqa\n", "xwcp.search"),
    ],
)
@pytest.mark.subprocess
def test_a_front_end_importing_the_engine_breaks_the_contract(tmp_path, importer, added, imported):
    _copy_with(tmp_path, importer, added)
    done = _lint_imports(tmp_path, tmp_path)
    assert done.returncode != 0, done.stdout
    front_end = "xwcp." + importer.split("/")[0]
    assert f"{front_end} is not allowed to import {imported}" in done.stdout
    assert "Layers: each folder imports only the folders below it KEPT" in done.stdout  # only the new contract bites


def test_the_top_of_the_package_holds_packages_only():
    loose = sorted(
        p.name for p in PACKAGE.iterdir() if p.is_file() and p.name not in ("__init__.py", "__main__.py", "py.typed")
    )
    assert loose == []


def test_every_folder_states_its_job_in_its_first_line():
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc, f"{init.relative_to(ROOT)} has no docstring stating its job"
        assert len(doc.splitlines()[0]) <= 120, f"{init.relative_to(ROOT)}: the job in one line"


def test_the_public_names_are_one_list():
    # xwcp/__init__.py: _MODULE_BY_NAME is the list; the TYPE_CHECKING imports must say the same (name -> module)
    import xwcp

    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    guarded = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    seen = {}
    for node in guarded.body:
        assert isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names:
            assert alias.asname == alias.name, f"{alias.name}: re-exported as itself, so strict mypy sees it"
            seen[alias.name] = node.module.removeprefix("xwcp.")
    assert seen == xwcp._MODULE_BY_NAME
    assert sorted(xwcp.__all__) == sorted(xwcp._MODULE_BY_NAME)
    for name in xwcp.__all__:
        assert getattr(xwcp, name) is not None
