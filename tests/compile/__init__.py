"""Tests of xwcp/compile/: the problem compiler and the constructor's controls."""
