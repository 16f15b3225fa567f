"""Tests of xwcp/dist/: `xwcp batch` and the bench on a Dask cluster."""
