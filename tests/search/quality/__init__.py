"""Tests of xwcp/search/quality/, one module per module of the quality search; shared random cases in cases.py."""
