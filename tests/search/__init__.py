"""Tests of xwcp/search/: the minimal core and the quality search."""
