"""The command line's dispatch: every command the parser offers has its function, found by name (`cmd_<name>`
in the module `MODULE_BY_COMMAND` names), and each command's options are built alone as with all of them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from xwcp.cli.commands import MODULE_BY_COMMAND, command_function
from xwcp.cli.parser import COMMANDS, build_parser

ROOT = Path(__file__).resolve().parents[2]


def _commands() -> list[str]:
    sub = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    return list(sub.choices or ())


def test_every_command_has_a_function_and_no_function_lacks_a_command():
    assert sorted(_commands()) == sorted(MODULE_BY_COMMAND)
    assert set(COMMANDS) <= set(MODULE_BY_COMMAND)
    for name in MODULE_BY_COMMAND:
        assert callable(command_function(name)), name


@pytest.mark.parametrize("name", sorted(MODULE_BY_COMMAND))
def test_a_command_built_alone_has_the_options_it_has_among_all(name):
    def options(parser):
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        return [(a.dest, a.option_strings, a.default, a.help) for a in sub.choices[name]._actions]

    assert options(build_parser(only=name)) == options(build_parser())


@pytest.mark.subprocess
def test_a_small_fill_imports_no_other_command():
    code = (
        "import sys; from xwcp.cli import main; main(['fill', 'models/5x5-open.txt', '--format', 'json']); "
        "print(sorted(m for m in sys.modules if m.startswith('xwcp.cli.')), file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    loaded = done.stderr.strip().splitlines()[-1]
    assert "xwcp.cli.fill" in loaded, done.stderr
    assert not any(
        f"xwcp.cli.{other}'" in loaded for other in ("analyse", "design", "serve", "batch", "bench", "convert")
    ), loaded
