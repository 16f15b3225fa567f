"""Fixtures shared by the tests of xwcp/dist: one Dask LocalCluster of 2 workers for the whole folder, input files."""
from __future__ import annotations

import pytest

from xwcp.dist.cluster import open_client

from tests.dist.helpers import GRIDS, WORDS


@pytest.fixture(scope="package")
def client():
    with open_client(None, n_workers=2) as client:
        yield client


@pytest.fixture
def inputs(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text(WORDS, encoding="utf-8")
    folder = tmp_path / "grids"
    folder.mkdir()
    for name, text in GRIDS.items():
        (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    return {"words": words, "grids": folder, "out": tmp_path / "out"}
