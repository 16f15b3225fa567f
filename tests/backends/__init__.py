"""Tests of xwcp/backends/: the backend contract every backend passes, auto, and the SAT and CP-SAT models."""
