"""How the server holds its connections: a deadline for each request, and a cap below its
limit of open files.

uvicorn closes a kept-alive connection that stays idle after an answer, but holds a
connection for as long as its request is unfinished: one that sends nothing, or half a
request, and stops, stays open. Anyone who can reach the port (the whole network, with
``--host 0.0.0.0``) can open such connections, token or not, until the server has no file
left for its player's. So here:

- a request must arrive whole within :data:`REQUEST_SECONDS` of the connection's start
  (or, on a kept-alive connection, of its first byte), or the connection is closed;
- a connection idle after an answer is closed after :data:`IDLE_SECONDS`;
- at most :func:`connection_cap` connections are open, below the process's limit of open
  files. A connection past the cap closes the one that has waited longest for a request,
  so a flood cannot keep the player out: a browser sends its request as soon as it has
  connected, and is answered before the flood's newer connections reach it.
"""

from __future__ import annotations

import asyncio
import os
from typing import Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: From a connection's start (or a kept-alive connection's next first byte) to its whole request.
REQUEST_SECONDS: Final = 5.0
#: How long a connection is kept alive, idle, after an answer.
IDLE_SECONDS: Final = 5
#: Files the server may open beside its connections after it starts: the solver's worker
#: pools (about 20 pipes), the page's files while they are sent, SQLite's temporary files.
SPARE_FILES: Final = 64
MINIMUM_CAP: Final = 8
#: Where no limit of open files can be read (Windows): a cap all the same.
UNREAD_LIMIT_CAP: Final = 1024


def connection_cap() -> int:
    """How many connections the server keeps open at most: its limit of open files, less
    the files open now and :data:`SPARE_FILES` (at least :data:`MINIMUM_CAP`)."""
    try:
        import resource
    except ImportError:
        return UNREAD_LIMIT_CAP
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return UNREAD_LIMIT_CAP * 64
    return max(MINIMUM_CAP, soft - _files_open() - SPARE_FILES)


def _files_open() -> int:
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder))
        except OSError:
            continue
    return 0


class OpenConnections:
    """The open connections of one server, and which of them wait for a request (a new
    one, or one kept alive after an answer), those that have waited longest first."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open = 0
        self._waiting: dict[GuardedProtocol, None] = {}

    def opened(self, connection: GuardedProtocol) -> None:
        """Count a new connection, and past the cap close the one that has waited longest
        (this one, when every other is busy with a request)."""
        self.open += 1
        self.waiting(connection)
        if self.open > self.cap:
            longest = next(iter(self._waiting))
            self.busy(longest)  # closing: not to be chosen again
            longest.close()

    def waiting(self, connection: GuardedProtocol) -> None:
        self._waiting.pop(connection, None)
        self._waiting[connection] = None

    def busy(self, connection: GuardedProtocol) -> None:
        self._waiting.pop(connection, None)

    def closed(self, connection: GuardedProtocol) -> None:
        self.open -= 1
        self.busy(connection)


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a deadline on each request, its connections counted
    in :attr:`open_connections` (of the class that :func:`guarded_protocol` makes per server)."""

    open_connections: OpenConnections
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_deadline()
        self.open_connections.opened(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        self.open_connections.closed(self)
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._deadline is None:  # a kept-alive connection's next request
            self._start_deadline()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._stop_deadline()
        self.open_connections.busy(self)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.cycle.response_complete:  # (not a pipelined request's turn)
            self.open_connections.waiting(self)

    def close(self) -> None:
        if not self.transport.is_closing():
            self.transport.close()

    def _start_deadline(self) -> None:
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_late)

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_late(self) -> None:
        self._deadline = None
        self.close()


def guarded_protocol(cap: int | None = None) -> type[GuardedProtocol]:
    """A protocol for one server (uvicorn's ``Config(http=...)``), at most ``cap``
    connections open (default: :func:`connection_cap`)."""
    connections = OpenConnections(connection_cap() if cap is None else cap)
    return type("GuardedProtocol", (GuardedProtocol,), {"open_connections": connections})
