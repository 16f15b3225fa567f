"""The backends as the front ends see them (xwcp/services/backends.py): the registry's names, and preloading."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from xwcp.base.errors import InputError
from xwcp.services import backends


def test_the_names_are_the_registrys():
    import xwcp.backends

    assert backends.BACKENDS is xwcp.backends.BACKENDS and backends.DEFAULT_BACKEND in backends.BACKENDS
    with pytest.raises(InputError, match="unknown backend"):
        backends.get_backend("nope")


@pytest.mark.subprocess
def test_preload_imports_the_backend_and_the_kernel_and_nothing_runs():
    # a fresh interpreter: neither module is loaded before, both are after
    code = (
        "import json, sys; from xwcp.services.backends import preload; wanted = {'xwcp.backends.auto', "
        "'xwcp.engine.kernel'}; before = sorted(wanted & set(sys.modules)); preload('auto'); "
        "print(json.dumps([before, sorted(wanted & set(sys.modules))]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [[], ["xwcp.backends.auto", "xwcp.engine.kernel"]]
