"""The `xwcp` argument parser (`xwcp.cli.parser`): help for every command with an example, and bad option values
refused in one line with exit 2 (--time-limit, --count, --seed)."""

from __future__ import annotations

import re

import pytest

from tests.cli.helpers import TINY_LIST, assert_one_line_error
from tests.helpers import one_line, run
from xwcp.cli.commands import build_parser

OPEN_3X3 = "...\n...\n...\n"


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_bad_time_limit(tiny, capsys, value):
    code, out, err = run(["fill", tiny[0], "--words", tiny[1], "--time-limit", value], capsys)
    assert code == 2
    assert_one_line_error(err, "--time-limit", value)


@pytest.mark.parametrize("value", ["0", "-3", "many"])
def test_bad_count(tiny, capsys, value):
    code, out, err = run(["fill", tiny[0], "--words", tiny[1], "--count", value], capsys)
    assert code == 2
    assert_one_line_error(err, "--count")


def listed_commands(capsys) -> list[str]:
    code, out, err = run(["--help"], capsys)
    assert code == 0
    block = out.split("positional arguments:")[1].split("options:")[0]
    return re.findall(r"^    (\w+)\s", block, flags=re.M)


def test_help_lists_every_command(capsys):
    names = listed_commands(capsys)
    assert "fill" in names
    sub = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    assert names == list(sub.choices)


def test_every_command_has_help_with_an_example(capsys):
    for name in listed_commands(capsys):
        code, out, err = run([name, "--help"], capsys)
        assert code == 0, name
        assert out.startswith(f"usage: xwcp {name}"), name
        assert "Example:" in out, name
        assert err == ""


def test_fill_help_describes_its_options(capsys):
    code, out, err = run(["fill", "--help"], capsys)
    assert code == 0
    for option in ("--words", "--backend", "--time-limit", "--seed", "--min-score", "--format", "--count"):
        assert option in out
    assert "Example: xwcp fill" in out


@pytest.mark.parametrize("seed", ["-1", str(2**31), str(2**70)])
def test_seed_out_of_range_is_bad_usage(files, capsys, seed):
    code, out, err = run(
        ["fill", files("g.txt", OPEN_3X3), "--words", files("w.txt", TINY_LIST), "--backend", "cpsat", "--seed", seed],
        capsys,
    )
    assert code == 2 and "--seed: must be from 0 to 2147483647" in one_line(err)


def test_seed_takes_0_to_max_seed_only():
    import argparse

    from xwcp.cli.parser import MAX_SEED, seed

    assert seed("0") == 0 and seed(str(MAX_SEED)) == MAX_SEED == 2**31 - 1  # CP-SAT's seed is a 32-bit int
    for bad, needle in [(str(MAX_SEED + 1), "must be from 0"), ("-1", "must be from 0"), ("1.5", "not a whole number")]:
        with pytest.raises(argparse.ArgumentTypeError, match=needle):
            seed(bad)


def test_count_all_is_zero_and_the_error_says_so():
    import argparse

    from xwcp.cli.parser import _count

    assert _count("all") == 0 and _count("3") == 3
    with pytest.raises(argparse.ArgumentTypeError, match="or 'all' to count every fill"):
        _count("0")


def test_bench_options_only_when_asked():
    def bench_options(parser):
        sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
        return {o for a in sub.choices["bench"]._actions for o in a.option_strings}

    assert "--peers" in bench_options(build_parser()) and "--peers" not in bench_options(build_parser(with_bench=False))
