"""How tests reach the game server: the way a player does, with its token.

In process: :func:`make_app` builds the app with the known :data:`TOKEN`, and :func:`client`
wraps it in a TestClient that sends it (``Authorization: token …``) from 127.0.0.1::

    with client(make_app(tmp_path / "games.db")) as api:
        api.post("/api/games", json={"deal": 617})

As a process: :func:`start` runs ``python -m freecell play --no-browser`` and reads the
address it printed, token included, as a player would; :class:`Served` holds it::

    served = start(tmp_path)
    httpx.get(f"{served.base}/api/current", headers=served.headers)
    served.stop()
"""

from __future__ import annotations

import contextlib
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from freecell.web.app import create_app

TOKEN = "test-token-0123456789abcdef"
AUTH = {"Authorization": f"token {TOKEN}"}
# What a script sends: the token, and JSON even with no body (a change of state needs it).
SCRIPT_HEADERS = {**AUTH, "Content-Type": "application/json"}
BASE = "http://127.0.0.1"
# The address `freecell play` prints: http://HOST:PORT/?token=TOKEN
ADDRESS = re.compile(r"http://(?P<host>\[[0-9a-f:.]+\]|[^/:\s\[]+):(?P<port>\d+)/\?token=(?P<token>[A-Za-z0-9._~-]+)")


def make_app(db_path: Path, **options: Any) -> FastAPI:
    """The app on the store ``db_path``, guarded by :data:`TOKEN`."""
    return create_app(db_path, token=TOKEN, **options)


class Clock:
    """A clock the tests move by hand (seconds since the epoch)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@contextlib.contextmanager
def clocked_client(db_path: Path, clock: Clock) -> Iterator[TestClient]:
    """A :func:`client` of the app on ``db_path`` whose games read the time from ``clock``."""
    app = make_app(db_path)
    app.state.games.now = clock
    with client(app) as test_client:
        yield test_client


def client(app: FastAPI, **options: Any) -> TestClient:
    """A test client of ``app`` that sends :data:`SCRIPT_HEADERS` from 127.0.0.1, as a
    script would (a request's own headers override them)."""
    return TestClient(app, base_url=BASE, headers=SCRIPT_HEADERS, **options)


@dataclass
class Served:
    """A ``freecell play`` process and the address it printed."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path

    @property
    def base(self) -> str:
        """``http://HOST:PORT``, without the token."""
        return self.url.split("/?", 1)[0]

    @property
    def token(self) -> str:
        return self.url.rsplit("token=", 1)[1]

    @property
    def headers(self) -> dict[str, str]:
        """What a script sends to be let in: the token, and JSON even with no body."""
        return {"Authorization": f"token {self.token}", "Content-Type": "application/json"}

    def output(self) -> str:
        """Everything the server printed so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        """Stop the server, then whatever of its process group outlived it (solver workers)."""
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def kill(self) -> None:
        """SIGKILL, as a crash would: nothing is flushed or closed."""
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)


def _limit_open_files(count: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


def printed_address(output: str) -> str | None:
    """The first tokened address in what ``freecell play`` printed."""
    found = ADDRESS.search(output)
    return found[0] if found else None


def start(directory: Path, *args: str, db: Path | None = None, seconds: float = 30.0,
          env: dict[str, str] | None = None, open_files: int | None = None,
          python: str = sys.executable, cwd: Path | None = None) -> Served:
    """Start ``python -m freecell play --no-browser ARGS`` (by default with this Python, in
    ``cwd`` if given) on ``db`` (default: a store in ``directory``), with its output logged
    in ``directory``, and at most ``open_files`` files open if given; return once it answers
    at the address it printed. A free port is chosen unless ``args`` holds ``--port``."""
    handle, name = tempfile.mkstemp(prefix="server-", suffix=".log", dir=directory)
    log = Path(name)
    command = [python, "-m", "freecell", "play", "--no-browser", "--db", str(db or directory / "games.db"),
               *args]
    with os.fdopen(handle, "wb") as output:
        process = subprocess.Popen(
            command, stdout=output, stderr=subprocess.STDOUT, env=env, cwd=cwd,
            start_new_session=True,  # its own process group: the solver's workers go with it
            preexec_fn=None if open_files is None else partial(_limit_open_files, open_files),
        )
    served = None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}:\n{log.read_text()}")
        url = printed_address(log.read_text(encoding="utf-8", errors="replace"))
        if url is not None:
            served = Served(process, url, log)
            try:
                if httpx.get(f"{served.base}/api/rules", headers=served.headers, timeout=2).status_code == 200:
                    return served
            except httpx.TransportError:
                pass
        time.sleep(0.1)
    Served(process, "", log).stop()
    raise RuntimeError(f"the server did not answer within {seconds} s; it printed:\n{log.read_text()}")
