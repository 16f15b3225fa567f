"""The markers the inner loop selects by are true (README.md: `python3 -m pytest -m "not browser and not cluster and
not languages and not peers and not subprocess and not heavy and not timing" -n 2`): tests/conftest.py marks the
users of the chromium fixtures `browser`, fails a test that starts a Python process without `subprocess`, and leaves
the `slow` tests out of any run whose -m does not name them."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).resolve().parents[1] / "conftest.py").read_text(encoding="utf-8")

PLANTED = """
import subprocess
import sys

import pytest


@pytest.fixture
def chromium():
    return "a stand-in"


def test_starts_python_unmarked():
    subprocess.run([sys.executable, "-c", "pass"], check=True)


@pytest.mark.subprocess
def test_starts_python_marked():
    subprocess.run([sys.executable, "-c", "pass"], check=True)


def test_asks_a_program_that_is_not_python():
    subprocess.run(["true"], check=True)


def test_uses_the_browser(chromium):
    pass


@pytest.mark.slow
def test_slow():
    pass
"""


@pytest.mark.subprocess
def test_the_markers_select_what_they_say(pytester, monkeypatch):
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # the planted runs need no plugin: 0.2 s a start, not 1 s
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_planted=PLANTED)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rA")
    result.assert_outcomes(passed=3, failed=1, deselected=1)
    result.stdout.fnmatch_lines(["*test_starts_python_unmarked started a Python process*not marked `subprocess`*"])
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "not browser and not subprocess", "-rA")
    result.assert_outcomes(passed=1, failed=1, deselected=3)  # the unmarked one is still caught
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-m", "slow", "-rA")
    result.assert_outcomes(passed=1, deselected=4)
