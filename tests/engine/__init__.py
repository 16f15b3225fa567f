"""Tests of xwcp/engine/: AC-3, the kernels, results and fill checking."""
