"""Tests of xwcp/model/: the grid model, its text syntax, slots and numbering."""
