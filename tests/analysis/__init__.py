"""Tests of xwcp/analysis/: domains, suggestions, heat map, check and batch verification."""
