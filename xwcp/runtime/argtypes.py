"""Argument types shared by the command-line parsers (the CLI and the bench's options): numbers with bounds."""

from __future__ import annotations

import argparse


def positive_float(text: str) -> float:
    """A number greater than 0, for argparse `type=`.

    Raises:
        argparse.ArgumentTypeError: not a number, or not greater than 0.
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, got {text}")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1, for argparse `type=`.

    Raises:
        argparse.ArgumentTypeError: not a whole number, or below 1.
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number of at least 0, for argparse `type=`.

    Raises:
        argparse.ArgumentTypeError: not a whole number, or below 0.
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


def port_number(text: str) -> int:
    """A TCP port, 1 to 65535, for argparse `type=`.

    Raises:
        argparse.ArgumentTypeError: not a whole number, or outside 1..65535.
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, got {text}")
    return value
