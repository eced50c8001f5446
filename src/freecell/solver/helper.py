"""A search on the other core: a forked process that runs part of a solve and reports.

:func:`start` forks; the child runs the work it is given under a budget of its own and
sends what it finds back through a pipe, each message a picklable tuple, then exits
(``os._exit``: nothing of the parent's is torn down twice). The parent reads those
messages when it likes (:meth:`Helper.messages`, :meth:`Helper.wait`) and ends the child
when it no longer needs it (:meth:`Helper.stop`). A child whose parent has gone stops
at its next report.

Forking is safe only where no other thread holds a lock that the child would need: the
solver's callers opt in (see ``solve(..., helper=True)``) from processes of their own.
Where ``os.fork`` is missing (Pyodide, Windows) there is no helper.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from freecell.solver.search import Budget, SearchLimit

if TYPE_CHECKING:  # imported where a helper starts: Pyodide has no use for it
    from multiprocessing.connection import Connection

Message = tuple[object, ...]
# The child's reports of dead ends can run to megabytes while the parent is busy: a
# larger pipe lets the child go on rather than wait for the parent to read (Linux).
PIPE_BYTES: Final = 1 << 20
# What the parent is told when the child ended without saying why (it died).
GONE: Final[Message] = ("gone",)


class ParentGone(Exception):
    """Raised in the child by :meth:`Reporter.send` once its parent is no longer there."""


class Reporter:
    """The child's end: sends messages to the parent."""

    def __init__(self, connection: Connection, parent: int) -> None:
        self._connection = connection
        self._parent = parent

    def send(self, message: Message) -> None:
        if os.getppid() != self._parent:
            raise ParentGone
        self._connection.send(message)


class Helper:
    """The parent's end: the child's process and the messages it sent."""

    def __init__(self, pid: int, connection: Connection) -> None:
        self.pid = pid
        self._connection = connection
        self.running = True  # until its last message (or its end) was read

    def messages(self) -> list[Message]:
        """The messages sent since the last call, without waiting."""
        return self._read(0.0)

    def wait(self, seconds: float) -> list[Message]:
        """The messages sent since the last call, waiting up to ``seconds`` for one."""
        return self._read(seconds)

    def _read(self, seconds: float) -> list[Message]:
        found: list[Message] = []
        if not self.running:
            return found
        try:
            while self._connection.poll(seconds if not found else 0.0):
                found.append(self._connection.recv())
        except (EOFError, OSError):
            self._reap()
            found.append(GONE)
        return found

    def stop(self) -> None:
        """End the child now, if it still runs, and reap it."""
        if self.running:
            import signal  # only a helper's end needs it: not imported by every solve

            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
        self._reap()

    def _reap(self) -> None:
        if self.running:
            self.running = False
            self._connection.close()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


def start(work: Callable[[Budget, Reporter], None], limit: SearchLimit) -> Helper | None:
    """Fork a child that runs ``work(budget, reporter)`` under ``limit`` (its seconds
    counted from now) and exits; None where this process cannot fork. ``work`` should
    send its last message itself; an exception in it is sent as ``("failed", text)``."""
    if not hasattr(os, "fork"):
        return None
    from multiprocessing.connection import Pipe

    reader, writer = Pipe(duplex=False)
    with contextlib.suppress(AttributeError, OSError):
        import fcntl

        fcntl.fcntl(writer.fileno(), fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        reader.close()
        writer.close()
        return None
    if pid:
        writer.close()
        return Helper(pid, reader)
    # The child: never returns.
    status = 0
    try:
        reader.close()
        reporter = Reporter(writer, parent)
        try:
            work(Budget(limit), reporter)
        except ParentGone:
            pass
        except BaseException as error:  # told to the parent, which goes on alone
            status = 1
            with contextlib.suppress(Exception):
                reporter.send(("failed", f"{type(error).__name__}: {error}"))
        with contextlib.suppress(Exception):
            writer.close()
    finally:
        os._exit(status)
