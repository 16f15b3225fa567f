"""xwcp/runtime/argtypes.py: argparse types that take numbers in bounds and refuse the rest with a message."""

from __future__ import annotations

import argparse

import pytest

from xwcp.runtime.argtypes import port_number, positive_float, positive_int


def test_positive_float():
    assert positive_float("2.5") == 2.5 and positive_float("1e-3") == 0.001
    for text, said in [
        ("0", "must be greater than 0, got 0"),
        ("-1", "must be greater than 0, got -1"),
        ("nan", "must be greater than 0, got nan"),
        ("soon", "'soon' is not a number"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError, match=f"^{said}$"):
            positive_float(text)


def test_positive_int():
    assert positive_int("1") == 1 and positive_int("250") == 250
    for text, said in [
        ("0", "must be at least 1, got 0"),
        ("-3", "must be at least 1, got -3"),
        ("1.5", "'1.5' is not a whole number"),
        ("", "'' is not a whole number"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError, match=f"^{said}$"):
            positive_int(text)


def test_port_number():
    assert port_number("1") == 1 and port_number("8080") == 8080 and port_number("65535") == 65535
    for text, said in [
        ("0", "a port is 1 to 65535, got 0"),
        ("65536", "a port is 1 to 65535, got 65536"),
        ("http", "'http' is not a whole number"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError, match=f"^{said}$"):
            port_number(text)


def test_argparse_turns_the_refusal_into_a_usage_error(capsys):
    parser = argparse.ArgumentParser(prog="xwcp")
    parser.add_argument("--time-limit", type=positive_float)
    assert parser.parse_args(["--time-limit", "3"]).time_limit == 3.0
    with pytest.raises(SystemExit) as info:
        parser.parse_args(["--time-limit", "0"])
    assert info.value.code == 2
    assert "argument --time-limit: must be greater than 0, got 0" in capsys.readouterr().err
