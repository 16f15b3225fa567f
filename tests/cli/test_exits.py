"""The command line's exit codes (`xwcp.cli.exits`): the documented values, each outcome its own code, and the
codes the answers and the signal handling compute agree with them."""

from __future__ import annotations

import signal

from xwcp.base.types import FillStatus
from xwcp.cli import exits
from xwcp.runtime.signals import exit_code_for


def test_codes_are_the_documented_ones_and_distinct():
    codes = [
        exits.EXIT_OK,
        exits.EXIT_UNFILLABLE,
        exits.EXIT_BAD_INPUT,
        exits.EXIT_LIMIT,
        exits.EXIT_INTERNAL,
        exits.EXIT_INTERRUPTED,
    ]
    assert codes == [0, 1, 2, 3, 70, 130]  # the shell contract in the module docstring and README


def test_ctrl_c_is_128_plus_sigint_as_every_stop_signal():
    assert exits.EXIT_INTERRUPTED == 128 + signal.SIGINT == exit_code_for("SIGINT")
    assert exit_code_for("SIGTERM") == 128 + signal.SIGTERM


def test_a_fills_status_exits_with_the_matching_code():
    assert FillStatus.FILLED.exit_code == exits.EXIT_OK
    assert FillStatus.UNFILLABLE.exit_code == exits.EXIT_UNFILLABLE
    assert FillStatus.LIMIT.exit_code == exits.EXIT_LIMIT
    assert FillStatus.ABORTED.exit_code == exits.EXIT_LIMIT
