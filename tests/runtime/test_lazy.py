"""xwcp/runtime/lazy.py: a module imported on the first attribute read, not when it is named."""

from __future__ import annotations

import sys

import pytest

from xwcp.runtime.lazy import LazyModule, lazy_import


def test_the_module_is_imported_on_first_use_only(tmp_path, monkeypatch):
    (tmp_path / "xwcp_lazy_probe.py").write_text("ANSWER = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "xwcp_lazy_probe", raising=False)
    try:
        probe = lazy_import("xwcp_lazy_probe")
        assert isinstance(probe, LazyModule) and "xwcp_lazy_probe" not in sys.modules
        assert repr(probe) == "<lazy module 'xwcp_lazy_probe'>"
        assert probe.ANSWER == 42
        assert "xwcp_lazy_probe" in sys.modules
        assert repr(probe) == "<lazy module 'xwcp_lazy_probe' (loaded)>"
    finally:
        sys.modules.pop("xwcp_lazy_probe", None)


def test_a_missing_module_or_name_fails_at_use_not_at_naming():
    missing = lazy_import("xwcp_no_such_module_anywhere")
    with pytest.raises(ModuleNotFoundError):
        _ = missing.anything
    math = lazy_import("math")
    assert math.sqrt(16) == 4
    with pytest.raises(AttributeError):
        _ = math.no_such_function
