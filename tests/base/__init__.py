"""Tests of xwcp/base/: the shared types and the one exception type for bad user input."""
