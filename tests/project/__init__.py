"""Whole-project tests: the README's examples, tooling (mypy, ruff, pdoc), fuzzing, robustness, bars and rebus
cells in every command."""
