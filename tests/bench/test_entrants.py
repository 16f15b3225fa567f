"""Who competes in a bench (xwcp/bench/entrants.py): the textbook models are not fill backends, entrants come in run
order with why one cannot run here, and a name finds its fill module."""

from __future__ import annotations

import pytest

from xwcp.base.errors import InputError
from xwcp.bench.entrants import MODEL_ENTRANTS, Entrant, get_fill_module, make_entrants
from xwcp.bench.peers import PEERS


def test_entrants_are_not_cli_fill_backends():
    from xwcp.backends import BACKENDS

    assert not set(MODEL_ENTRANTS) & set(BACKENDS)


def test_entrants_in_run_order_backends_then_commands_then_peers(monkeypatch):
    monkeypatch.setattr("xwcp.bench.peers.peer_available", lambda name: name == PEERS[0])
    entrants = make_entrants(["backtrack", "nosuch"], PEERS[:2], cli_backends=["backtrack"])
    assert [(e.name, e.kind) for e in entrants] == [
        ("backtrack", "xwcp"),
        ("nosuch", "xwcp"),
        ("backtrack", "cli"),
        (PEERS[0], "peer"),
        (PEERS[1], "peer"),
    ]
    ready, unknown, command, installed, absent = entrants
    assert ready.missing == "" and command.missing == "" and installed.missing == ""
    assert "nosuch" in unknown.missing  # an unknown name is a row saying so, not a crash
    assert absent.missing.startswith("not installed")
    assert (command.label, ready.label) == ("backtrack (cli)", "backtrack")


def test_a_name_finds_its_fill_module():
    from xwcp.backends import get_backend

    assert get_fill_module("backtrack") is get_backend("backtrack")
    for name in MODEL_ENTRANTS:
        try:
            module = get_fill_module(name)
        except InputError as exc:  # its solver package is not installed here: said so, naming the entrant
            assert name in str(exc)
        else:
            assert module.__name__ == MODEL_ENTRANTS[name] and callable(module.fill)
    with pytest.raises(InputError, match="nosuch"):
        get_fill_module("nosuch")


def test_entrant_is_a_value():
    assert Entrant("sat", "xwcp") == Entrant("sat", "xwcp") and Entrant("sat", "xwcp").missing == ""
