"""Who competes in a bench: xwcp backends (in process or as `xwcp fill` commands), textbook models, peer solvers."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from xwcp.backends import Backend

MODEL_ENTRANTS = {
    "cpsat-table": "xwcp.bench.cpsat_table",
    "sat-plain": "xwcp.bench.sat_plain",
}
"""Bench-only entrants with a backend's contract (`fill(problem, limits)`): the textbook models the
backends replaced, kept so a sweep shows what the modelling buys. Run only when named in --backends."""


@dataclass(frozen=True)
class Entrant:
    """A competitor: an xwcp backend in a forked worker (kind "xwcp"), an xwcp backend as a whole
    `xwcp fill` command (kind "cli"), or a peer solver (kind "peer")."""

    name: str
    kind: str
    missing: str = ""
    """Why it cannot run here (not installed); its rows are then "skipped"."""

    @property
    def label(self) -> str:
        return entrant_label(self.name, self.kind)


def entrant_label(name: str, kind: str) -> str:
    return f"{name} (cli)" if kind == "cli" else name


def get_fill_module(name: str) -> Backend:
    """The module whose `fill` runs entrant `name`: a textbook model of `MODEL_ENTRANTS`, else a backend.

    Raises:
        InputError: unknown name, or its solver package is not installed.
    """
    from xwcp.backends import get_backend
    from xwcp.base.errors import InputError

    if name not in MODEL_ENTRANTS:
        return get_backend(name)
    module = cast("Backend", importlib.import_module(MODEL_ENTRANTS[name]))  # a textbook model is one structurally
    if not module.available():
        raise InputError(f"entrant {name!r} is not available: {module.missing()}")
    return module


def make_entrants(
    backends: Sequence[str], peer_names: Sequence[str], cli_backends: Sequence[str] = ()
) -> list[Entrant]:
    """Entrants in run order (backends, then `xwcp fill` commands, then peers), each with why it cannot run here."""
    from xwcp.base.errors import InputError
    from xwcp.bench import peers

    entrants = []
    for kind, names in (("xwcp", backends), ("cli", cli_backends)):
        for name in names:
            try:
                get_fill_module(name)
                entrants.append(Entrant(name, kind))
            except ImportError as exc:  # registered, but its module is not there
                entrants.append(Entrant(name, kind, f"backend module missing ({exc})"))
            except InputError as exc:
                entrants.append(Entrant(name, kind, str(exc)))
    for name in peer_names:
        missing = "" if peers.peer_available(name) else "; ".join(peers._missing_commands(name)) or "not installed"
        entrants.append(Entrant(name, "peer", missing and f"not installed: {missing}"))
    return entrants
