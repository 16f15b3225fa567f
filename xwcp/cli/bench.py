"""The `bench` command: hand the parsed options to the bench (`xwcp.bench`), which runs and reports."""

from __future__ import annotations

import argparse


def cmd_bench(args: argparse.Namespace) -> int:
    """Example: xwcp bench --suite stock --time-limit 30"""
    from xwcp.bench import run_bench_command

    return run_bench_command(args)
