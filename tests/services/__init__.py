"""Tests of xwcp/services/: loading, running and the numpy-free quick path shared by the front doors."""
