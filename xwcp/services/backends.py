"""The fill backends as a front end sees them: their names, the default one, a name's check and its preloading.

Importing this costs only the registry (`xwcp.backends`): the argument parser builds its help from it.
"""

from __future__ import annotations

import importlib

from xwcp.backends import BACKENDS as BACKENDS, DEFAULT_BACKEND as DEFAULT_BACKEND, get_backend as get_backend


def preload(name: str) -> None:
    """Import backend `name` and the compiled search it drives, so that a fill's clock (a command's `seconds`)
    or a forked worker's children start with them loaded. `name` is a key of BACKENDS; nothing else is checked:
    `get_backend` says whether the backend can run.
    """
    import xwcp.engine.kernel  # noqa: F401

    importlib.import_module(BACKENDS[name])
