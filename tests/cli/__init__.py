"""Tests of xwcp/cli/: the `xwcp` command line's exit codes, messages, JSON and help."""
