"""Share a server process between its clients: quick requests apart from heavy ones, turns handed out client by client.

Two lanes, each with its own slots, so no request waits behind work of the other kind:
- the interactive lane (what the page asks after every keystroke: suggestions, domains, heat map, statistics;
  arc consistency and probing, milliseconds on a 15x15) runs at the process's own CPU priority;
- the heavy lane (a solver's search under a time limit: verified suggestions, the fillability check; the app
  gives short ones a lane of their own, xwcp/web/app.py `Lane`) holds a few of them at once (the app's
  `HEAVY_SLOTS`), each in a thread of its own whose CPU priority is lowered by `HEAVY_NICE`
  (Linux schedules threads one by one: the search, and the helper process a verification forks, yield the
  cores to a keystroke's answer instead of sharing them evenly). The socket jobs (fills, designs, labels)
  run in such threads too (`run_lowered`).
Within a lane, waiting requests are served client by client (`FairLimiter`): the next free slot goes to the
waiting client with the fewest requests running, the one served least recently of those first, so a client
that sends many requests queues behind itself, not in front of the others. In the heavy lane a client has one
request of a kind (an endpoint) at most: a newer one supersedes the older (stopped when it runs, answered 409
when it waits), as a newer keystroke makes the older question moot.

A client is what names itself in the `X-Xwcp-Client` header (the page sends a random id per tab), on the
address it connects from; without the header, the address. The header is the client's word: behind one
address (a proxy, a shared machine) a client that sends a new name with every request gets a turn per name,
so a public server limits requests per address in front of it (docs/builder.md).

Threads, not processes: a heavy job shares the process's analysis cache (its compiled grid, kept engines and
labels) with the interactive lane, the search itself runs in C without the interpreter's lock, and a
verification's second searcher is a forked process that inherits the lowered priority.
"""

from __future__ import annotations

import os
import sys
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio
import anyio.to_thread

try:  # anyio's per-thread state is private: an anyio without it runs heavy work unlowered, never fails
    from anyio._core._eventloop import threadlocals as _anyio_threadlocals
except ImportError:  # pragma: no cover - depends on the installed anyio
    _anyio_threadlocals = None  # type: ignore[assignment]

CLIENT_HEADER = "x-xwcp-client"
"""The request header naming the client (ASGI headers are lower case)."""
MAX_CLIENT_ID = 64
"""Longest client name kept (longer ones are cut: the name is a key, not data)."""
HEAVY_NICE = 10
"""How much lower a heavy job's CPU priority is: at 10 a normal thread's weight is about nine times a heavy
one's, so a keystroke's answer gets most of a core beside two searches per core."""

_ANYIO_THREAD_STATE = ("current_token", "current_cancel_scope")
"""What anyio keeps per worker thread for `anyio.from_thread` (its event loop) and `check_cancelled`."""

T = TypeVar("T")


def client_id(scope: Mapping[str, Any]) -> str:
    """Who sent the request (an ASGI scope, HTTP or WebSocket): the address it came from, and the name in the
    `X-Xwcp-Client` header when there is one (printable ASCII, cut to MAX_CLIENT_ID)."""
    peer = scope.get("client")
    host = str(peer[0]) if peer else "-"
    for name, value in scope.get("headers") or ():
        if name == CLIENT_HEADER.encode():
            text = "".join(ch for ch in value.decode("latin-1") if " " < ch <= "~")[:MAX_CLIENT_ID]
            if text:
                return f"{host}/{text}"
    return host


@dataclass(eq=False)
class Ticket:
    """One request's place in a lane: its client, whether it was given a slot, and the event that stops its work."""

    client: str
    lane: FairLimiter
    abort: threading.Event = field(default_factory=threading.Event)
    granted: anyio.Event = field(default_factory=anyio.Event)
    superseded: bool = False
    """A newer request of the same client took its place (heavy lane): it is stopped, or never runs."""
    holds: bool = False
    """It holds a slot (given back by `release`)."""


class FairLimiter:
    """At most `capacity` requests hold a slot at once; the waiting ones are served client by client.

    The next free slot goes to the waiting client with the fewest slots held, and among equals to the one
    served least recently (one not served while it had requests here first), so a client's burst queues
    behind itself. With `one_per_client`, a client has at most one request in the lane: `enter` supersedes its
    older one (its `abort` is set; one still waiting is dropped); lanes given the same `latest` dict share that
    rule (a client's request in one supersedes its request in another). Used from the event loop only (no locks).
    """

    def __init__(self, capacity: int, *, one_per_client: bool = False, latest: dict[str, Ticket] | None = None) -> None:
        self.capacity = capacity
        self.one_per_client = one_per_client or latest is not None
        self.held = 0
        self.held_by_client: dict[str, int] = {}
        self._waiting: OrderedDict[str, deque[Ticket]] = OrderedDict()
        self._latest: dict[str, Ticket] = {} if latest is None else latest
        """Per client, its request in the lane, or in the lanes sharing this dict (one_per_client)."""
        self._turns = 0
        self._served_at: dict[str, int] = {}
        """Per client holding or waiting, the turn it was last given a slot (forgotten when it has neither)."""
        self.granted_order: list[str] = []
        """The clients given a slot, in order (the last 256; tests read it)."""

    def enter(self, client: str) -> Ticket:
        """A ticket for a new request of `client` (superseding its older one when `one_per_client`)."""
        ticket = Ticket(client, self)
        if self.one_per_client:
            older = self._latest.get(client)
            if older is not None:
                older.superseded = True
                older.abort.set()
                older.lane._drop(older)
            self._latest[client] = ticket
        return ticket

    async def acquire(self, ticket: Ticket) -> None:
        """Wait for a slot (cancellable: a cancelled wait takes none). Raises `Superseded` when a newer request
        of the same client took the ticket's place first."""
        if ticket.superseded:
            raise Superseded()
        self._waiting.setdefault(ticket.client, deque()).append(ticket)
        self._grant()
        try:
            await ticket.granted.wait()
        except BaseException:
            if ticket.holds:  # given a slot as the wait was cancelled: give it to the next
                self.release(ticket)
            else:
                self._drop(ticket)
            raise
        if ticket.superseded and not ticket.holds:
            raise Superseded()

    def release(self, ticket: Ticket) -> None:
        """Give back the slot `ticket` holds (and forget it as its client's latest)."""
        if ticket.holds:
            ticket.holds = False
            self.held -= 1
            left = self.held_by_client[ticket.client] - 1
            if left:
                self.held_by_client[ticket.client] = left
            else:
                del self.held_by_client[ticket.client]
        if self._latest.get(ticket.client) is ticket:
            del self._latest[ticket.client]
        self._forget_if_gone(ticket.client)
        self._grant()

    def waiting(self) -> int:
        return sum(len(queue) for queue in self._waiting.values())

    def _drop(self, ticket: Ticket) -> None:
        queue = self._waiting.get(ticket.client)
        if queue is not None and ticket in queue:
            queue.remove(ticket)
            if not queue:
                del self._waiting[ticket.client]
            self._forget_if_gone(ticket.client)
            ticket.granted.set()  # wakes its waiter, which sees `superseded`

    def _forget_if_gone(self, client: str) -> None:
        if client not in self.held_by_client and client not in self._waiting:
            self._served_at.pop(client, None)

    def _grant(self) -> None:
        while self.held < self.capacity and self._waiting:
            client = min(
                self._waiting, key=lambda name: (self.held_by_client.get(name, 0), self._served_at.get(name, -1))
            )
            queue = self._waiting[client]
            ticket = queue.popleft()
            if not queue:
                del self._waiting[client]
            self._turns += 1
            self._served_at[client] = self._turns
            ticket.holds = True
            self.held += 1
            self.held_by_client[client] = self.held_by_client.get(client, 0) + 1
            self.granted_order.append(client)
            del self.granted_order[:-256]
            ticket.granted.set()


class Superseded(Exception):
    """A newer request of the same client took this one's place in the heavy lane."""


def lower_priority() -> None:
    """Lower the calling thread's CPU priority by HEAVY_NICE (Linux, where a thread has its own; elsewhere
    nothing: the whole process would be lowered). A thread cannot raise it again, so call it only in a thread
    made for the job (`run_lowered`)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        thread = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, thread, min(19, os.getpriority(os.PRIO_PROCESS, thread) + HEAVY_NICE))
    except OSError:
        pass


def in_lowered_thread(work: Callable[[], T]) -> T:
    """`work()` in a new thread at a lowered CPU priority (`lower_priority`), waited for; its result, or its
    exception raised here. Called from an anyio worker thread, `work` may call `anyio.from_thread` as there
    (the new thread gets the worker's event loop token and cancel scope: anyio keeps them per thread)."""
    if _anyio_threadlocals is None:
        return work()  # anyio keeps its thread state elsewhere: `work` stays in the caller's thread, unlowered
    out: list[Any] = []
    failed: list[BaseException] = []
    carried = {
        name: getattr(_anyio_threadlocals, name) for name in _ANYIO_THREAD_STATE if hasattr(_anyio_threadlocals, name)
    }

    def run() -> None:
        for name, value in carried.items():
            setattr(_anyio_threadlocals, name, value)
        lower_priority()
        try:
            out.append(work())
        except BaseException as exc:  # raised again in the caller's thread
            failed.append(exc)

    thread = threading.Thread(target=run, name="xwcp-heavy", daemon=True)
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return out[0]  # type: ignore[no-any-return]


async def run_lowered(work: Callable[[], T], *, abandon_on_cancel: bool = False) -> T:
    """`anyio.to_thread.run_sync(work)`, with `work` in a thread of its own at a lowered CPU priority."""
    return await anyio.to_thread.run_sync(lambda: in_lowered_thread(work), abandon_on_cancel=abandon_on_cancel)
