"""Answer only requests meant for this server: the Host header must name it, and a browser's Origin must be it.

The builder keeps the user's personal word list, so a page elsewhere must not reach it:
- DNS rebinding (a site whose name is re-pointed at 127.0.0.1) sends its own name as Host;
  only the names served are answered (127.0.0.1, localhost and ::1 by default, more with
  `xwcp serve --allow-host`), anything else gets 403.
- A page on another origin (another site, another local port, a file) can still send a simple
  POST or open a WebSocket to 127.0.0.1 with the right Host; browsers name that page in
  `Origin`, so a request whose Origin is not this very server (the Host it asked for) is refused
  too. A request without Origin (curl, a script) is fine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""Names a local server answers by default."""
ANY_ADDRESS = ("0.0.0.0", "::", "")
_HOST = re.compile(r"(?:\[(?P<ip6>[0-9a-f:.]+)\]|(?P<name>[a-z0-9._-]+))(?::(?P<port>[0-9]{1,5}))?")
"""A Host header as RFC 9110 (and a browser) spells it: a name or IPv4 address, or an IPv6 address in brackets,
then an optional port. No userinfo (`user@`), path, spaces or percent signs."""


def allowed_hosts(listen_host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The Host names to answer: the local names, the address listened on (unless it is a wildcard),
    and `extra` (`--allow-host`, lower-cased; `*` answers any)."""
    names = set(LOCAL_HOSTS)
    if listen_host not in ANY_ADDRESS:
        names.add(listen_host.strip("[]").lower())
    names.update(name.strip().strip("[]").lower() for name in extra if name.strip())
    return frozenset(names)


def host_name(value: str) -> str | None:
    """The name part of a Host header or an Origin's netloc (without port, brackets or case); None when the value
    is no host[:port] (`localhost:1@evil.example` names evil.example, as a URL would: refused, not read as
    localhost). A bare IPv6 address (no port) is taken as itself."""
    value = value.strip().lower()
    match = _HOST.fullmatch(value)
    if match is None:
        if value.count(":") >= 2 and re.fullmatch(r"[0-9a-f:.]+", value):  # ::1, as --allow-host may give it
            return value
        return None
    return match.group("ip6") or match.group("name")


class HostGuard:
    """ASGI middleware: 403 (HTTP) or a closed socket (WebSocket) for a foreign Host or Origin."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts

    def _refusal(self, scope: Scope) -> str | None:
        headers = {key.decode("latin-1").lower(): value.decode("latin-1") for key, value in scope.get("headers", [])}
        if "*" in self.hosts:
            return None
        host = headers.get("host")
        if host is None or host_name(host) not in self.hosts:  # None (no host[:port]) is never in it
            return (
                f"this server answers only for {', '.join(sorted(self.hosts))}, not the host {host!r} "
                "(start it with --allow-host NAME to add a name)"
            )
        origin = headers.get("origin")
        if origin is not None and urlsplit(origin).netloc.lower() != host.strip().lower():
            return f"requests from pages on {origin} are refused: this server answers its own page only"
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        refusal = self._refusal(scope)
        if refusal is None:
            return await self.app(scope, receive, send)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": refusal[:120]})
            return
        body = json.dumps({"error": refusal, "status": 403}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
