"""Whole-project tests: the README's and the docs pages' examples, tooling (mypy, ruff, pdoc), fuzzing, robustness, bars and rebus
cells in every command."""
