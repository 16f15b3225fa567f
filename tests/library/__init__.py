"""Tests of xwcp/library/: the Python front door's one-call jobs and typed answers."""
