"""Tests of xwcp/formats/: every puzzle file format, round trips and real files from other tools."""
