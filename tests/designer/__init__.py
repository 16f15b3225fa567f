"""Tests of xwcp/designer/: pattern rules, themes, the CP-SAT pattern model and the design search."""
