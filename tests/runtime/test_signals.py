"""xwcp/runtime/signals.py: stop signals become a clean stop (Interrupted, or an event for a soft stop); handlers
are put back on leaving, and an ignored SIGHUP stays ignored."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from xwcp.runtime import signals
from xwcp.runtime.signals import STOP, Interrupted, exit_code_for, stop_on_signals, stop_softly


def test_an_ignored_sighup_stays_ignored():
    from xwcp.runtime.signals import stop_on_signals

    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stop_on_signals():
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_exit_status_is_128_plus_the_signal_number():
    assert exit_code_for("SIGINT") == 130 and exit_code_for("SIGTERM") == 143 and exit_code_for("SIGHUP") == 129


def test_interrupted_is_a_keyboard_interrupt_not_an_exception():
    stop = Interrupted(signal.SIGTERM)
    assert isinstance(stop, KeyboardInterrupt) and not isinstance(stop, Exception)
    assert (stop.signum, stop.name, stop.exit_code) == (signal.SIGTERM, "SIGTERM", 143)


def test_a_signal_in_the_block_raises_interrupted_and_the_handlers_come_back():
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with pytest.raises(Interrupted) as info:
            with stop_on_signals():
                assert not STOP.is_set()
                signal.raise_signal(signal.SIGTERM)
                for _ in range(1000):  # the handler runs at the next bytecode boundary
                    pass
        assert info.value.exit_code == 143
        assert {s: signal.getsignal(s) for s in before} == before
    finally:
        STOP.clear()  # a later test's fill must not find it set (see the next test)


class _SlowWatcherOs:
    """`os` for xwcp.runtime.signals whose `read` gives the watcher thread a signal byte and then keeps the thread
    off the interpreter for a while, as when it waits for the GIL the main thread holds while it unwinds."""

    def __init__(self):
        self.got_signal_byte = threading.Event()

    def __getattr__(self, name):
        return getattr(os, name)

    def read(self, fd, n):
        data = os.read(fd, n)
        if data and 0 not in data:
            self.got_signal_byte.set()
            time.sleep(0.3)
        return data


def test_stop_is_clear_after_the_block_even_when_the_watcher_runs_late(monkeypatch):
    slow_os = _SlowWatcherOs()
    monkeypatch.setattr(signals, "os", slow_os)
    try:
        with pytest.raises(Interrupted):
            with stop_on_signals():
                try:
                    signal.raise_signal(signal.SIGTERM)
                    for _ in range(1000):
                        pass
                except Interrupted:
                    # the kernel woke the watcher with the signal's byte before the block is left
                    assert slow_os.got_signal_byte.wait(5.0)
                    raise
        assert not STOP.is_set()  # the module's promise: "cleared on entering and on leaving it"
    finally:
        STOP.clear()


def test_a_soft_stop_sets_the_event_and_names_the_signal():
    event = threading.Event()
    before = signal.getsignal(signal.SIGINT)
    try:
        with stop_softly(event) as heard:
            signal.raise_signal(signal.SIGINT)
            signal.raise_signal(signal.SIGTERM)
            assert event.wait(1.0)
        assert heard.name == "SIGINT"  # the first signal heard
        assert signal.getsignal(signal.SIGINT) == before
    finally:
        STOP.clear()


def test_outside_the_main_thread_nothing_is_installed():
    seen = {}

    def work():
        before = signal.getsignal(signal.SIGTERM)
        with stop_on_signals():
            seen["hard"] = signal.getsignal(signal.SIGTERM) == before
        with stop_softly(threading.Event()) as heard:
            seen["soft"] = signal.getsignal(signal.SIGTERM) == before and heard.name is None

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(5)
    assert seen == {"hard": True, "soft": True}


def test_a_soft_stop_is_heard_while_the_main_thread_is_blocked():
    """Python runs a signal's handler only when the main thread runs Python again; a search blocked in C (CP-SAT's
    solve) must hear the signal at once all the same: the wake-up fd's watcher sets STOP, and stop_softly relays it
    to its event (here STOP is set as that watcher sets it, while the main thread waits)."""
    event = threading.Event()
    with stop_on_signals(), stop_softly(event):
        timer = threading.Timer(0.1, STOP.set)
        timer.start()
        try:
            assert event.wait(2.0), "the soft-stop event was not set while the main thread was blocked"
        finally:
            timer.cancel()
    assert not STOP.is_set()
