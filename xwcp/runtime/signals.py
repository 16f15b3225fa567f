"""Turn Ctrl-C, SIGTERM and SIGHUP into a clean stop: searches abort, cleanups run, no child outlives us.

Inside `stop_on_signals()` (the CLI wraps every command in it) each of SIGINT, SIGTERM and
SIGHUP does two things:
  - sets `STOP`, which `backends.fill` hands to a search as its abort event when the caller
    gave none. A watcher thread sets it through Python's wake-up file descriptor, so even a
    search blocked in C (CP-SAT's solve) hears the signal at once;
  - raises `Interrupted` in the main thread as soon as it runs Python again, so every
    `finally` runs: the race's rival and the SAT workers are killed, temporary files removed.
Inside `stop_softly(event)` a signal sets `event` instead of raising; a relay thread sets it as soon
as the watcher sets `STOP`, so a search blocked in C hears it at once there too (Python runs a
signal's handler only when the main thread runs Python again).
Forked search processes call `forget_signals_in_child()`: they leave Ctrl-C to the parent,
die on SIGTERM/SIGHUP, and die with the parent even when it is killed outright (SIGKILL).

Exit status after a signal is 128 + its number, the shell's convention: 130 for Ctrl-C,
143 for SIGTERM, 129 for SIGHUP.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

STOP = threading.Event()
"""Set when a stop signal arrived inside `stop_on_signals()`; cleared on entering and on leaving it."""

STOP_SIGNALS = tuple(s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None)
_PR_SET_PDEATHSIG = 1
RELAY_POLL_S = 0.05
"""How often `stop_softly`'s relay thread looks whether it is done (it hears `STOP` at once)."""


class Interrupted(KeyboardInterrupt):
    """A stop signal arrived; `exit_code` is 128 + the signal number.

    A KeyboardInterrupt, so code that cleans up on Ctrl-C cleans up on SIGTERM and SIGHUP too,
    and `except Exception` does not swallow it.
    """

    def __init__(self, signum: int):
        self.signum = signum
        self.name = signal.Signals(signum).name
        super().__init__(self.name)

    @property
    def exit_code(self) -> int:
        return exit_code_for(self.name)


def exit_code_for(name: str) -> int:
    """The exit status after stop signal `name` ('SIGINT' -> 130): 128 + its number."""
    return 128 + signal.Signals[name].value


def _raise(signum: int, frame: FrameType | None) -> None:
    STOP.set()
    raise Interrupted(signum)


def _watch(read_fd: int) -> None:
    """Set STOP when the wake-up fd reports a signal; a 0 byte (our own) means we are done."""
    while True:
        try:
            data = os.read(read_fd, 64)
        except OSError:
            return
        if not data or 0 in data:
            return
        if any(byte in STOP_SIGNALS for byte in data):
            STOP.set()


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGINT/SIGTERM/SIGHUP set STOP and raise `Interrupted` (see the module docstring).

    A signal ignored when the block starts (SIGHUP under `nohup`) stays ignored. Outside the
    main thread it does nothing (Python lets only the main thread handle signals).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    STOP.clear()
    previous = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)
    old_wakeup = -1
    watcher = None
    try:
        for signum in STOP_SIGNALS:
            if previous[signum] is not signal.SIG_IGN:  # `nohup xwcp ...` keeps ignoring SIGHUP
                signal.signal(signum, _raise)
        old_wakeup = signal.set_wakeup_fd(write_fd, warn_on_full_buffer=False)
        watcher = threading.Thread(target=_watch, args=(read_fd,), name="xwcp-signal-watcher", daemon=True)
        watcher.start()
        yield
    finally:
        STOP.clear()  # the stop is handled (by the exception) once the block is left
        signal.set_wakeup_fd(old_wakeup)
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        with contextlib.suppress(OSError):
            os.write(write_fd, b"\0")
        if watcher is not None:
            watcher.join(timeout=1.0)
        STOP.clear()  # again: a watcher that read a signal's byte late may have set it after the first clear
        for fd in (read_fd, write_fd):
            with contextlib.suppress(OSError):
                os.close(fd)


class SoftStop:
    """What `stop_softly` heard: `name` of the first stop signal, or None."""

    def __init__(self) -> None:
        self.name: str | None = None


@contextlib.contextmanager
def stop_softly(event: threading.Event) -> Iterator[SoftStop]:
    """Within the block, a stop signal sets `event` (and `STOP`) instead of raising `Interrupted`.

    For work that keeps what it found when told to stop: the minimal-core search after an
    unfillable verdict ends and the verdict, already known, is printed. Yields a `SoftStop` naming the
    signal heard. Outside the main thread it only yields. Inside `stop_on_signals()` `event` is set
    as soon as the signal arrives, even while the main thread is blocked in C (a relay thread hears
    `STOP`); the signal's name is filled in when the main thread runs Python again.
    """
    heard = SoftStop()
    if threading.current_thread() is not threading.main_thread():
        yield heard
        return
    previous = {signum: signal.getsignal(signum) for signum in STOP_SIGNALS}

    def _set(signum: int, frame: FrameType | None) -> None:
        if heard.name is None:
            heard.name = signal.Signals(signum).name
        STOP.set()
        event.set()

    done = threading.Event()

    def relay() -> None:  # the wake-up fd's watcher sets STOP while the main thread may be blocked in C
        while not done.is_set():
            if STOP.wait(RELAY_POLL_S):
                event.set()
                return

    relay_thread = threading.Thread(target=relay, name="xwcp-signal-relay", daemon=True)
    try:
        for signum in STOP_SIGNALS:
            if previous[signum] is not signal.SIG_IGN:
                signal.signal(signum, _set)
        if not STOP.is_set():  # one left set by an earlier stop (outside stop_on_signals) is not a new signal
            relay_thread.start()
        yield heard
    finally:
        done.set()
        if relay_thread.is_alive():
            relay_thread.join()
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)


def forget_signals_in_child() -> None:
    """In a forked search process: default SIGTERM/SIGHUP, ignore Ctrl-C (the parent stops us), die with the parent."""
    with contextlib.suppress(ValueError, OSError):
        signal.set_wakeup_fd(-1)
    for signum in STOP_SIGNALS:
        with contextlib.suppress(ValueError, OSError):
            signal.signal(signum, signal.SIG_IGN if signum == signal.SIGINT else signal.SIG_DFL)
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux: the parent's `finally` still kills us
        return
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None and os.getppid() != parent.pid:  # the parent died before prctl took effect
        os._exit(1)
