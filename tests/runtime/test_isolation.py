"""Running a call in a forked worker (xwcp/runtime/isolation.py, reached as `xwcp.bench.call_isolated`): its
time limit, its crash and its answer."""
from __future__ import annotations

import os
import time

import pytest

from xwcp import bench


def test_isolated_worker_timeout_and_crash():
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        bench.call_isolated(lambda: time.sleep(30) or {}, timeout_s=0.3)
    assert time.monotonic() - start < 10
    with pytest.raises(RuntimeError, match="ValueError: broken"):
        bench.call_isolated(lambda: (_ for _ in ()).throw(ValueError("broken")), timeout_s=5)
    with pytest.raises(RuntimeError, match="worker died"):
        bench.call_isolated(lambda: os._exit(7), timeout_s=5)
    assert bench.call_isolated(lambda: {"x": 1}, timeout_s=5)["x"] == 1
