"""Import a heavy module (numpy) on first attribute access, so modules that only sometimes need it start fast.

`np = lazy_import("numpy")` at a module's top behaves like `import numpy as np` except that
numpy is imported when the first `np.<name>` runs: the numpy-free start-up path of a small
fill (xwcp/services/quick.py) goes through modules such as xwcp.compile.problem and xwcp.engine.kernel without
paying numpy's import (about 0.1 s, most of a tiny fill).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    """A stand-in for a module that imports it on the first attribute read."""

    def __init__(self, name: str):
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr: str) -> Any:  # whatever the module holds under that name
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name!r}{' (loaded)' if self._module is not None else ''}>"


def lazy_import(name: str) -> LazyModule:
    """The module `name`, imported when first used."""
    return LazyModule(name)
