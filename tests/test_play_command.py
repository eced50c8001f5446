"""``freecell play`` as a server: connections that answer without delay, and Ctrl+C that
stops it quietly, its solver's worker with it."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

import serving
from freecell.cli.play_commands import listening_socket


def test_connections_accepted_on_plays_socket_send_without_delay() -> None:
    """asyncio (and so uvicorn) turns Nagle's algorithm off on the connections it accepts
    only from a socket that says it is TCP; with it on, every answer on a kept-alive
    connection waits for the client's delayed acknowledgement (some 40 ms)."""
    sock = listening_socket("127.0.0.1", 0)

    async def accepted_nodelay() -> int:
        loop = asyncio.get_running_loop()
        seen: asyncio.Future[int] = loop.create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                accepted = transport.get_extra_info("socket")
                seen.set_result(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))

        server = await loop.create_server(Probe, sock=sock)
        _, writer = await asyncio.open_connection(*sock.getsockname())
        try:
            return await asyncio.wait_for(seen, 10)
        finally:
            writer.close()
            server.close()
            await server.wait_closed()

    # In a thread of its own: the browser tests' sync Playwright leaves an event loop
    # running in this one, where asyncio.run() refuses to start.
    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(asyncio.run, accepted_nodelay()).result(timeout=30) != 0


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def solver_workers(pid: int) -> list[int]:
    """The server's worker processes (the multiprocessing resource tracker aside)."""
    workers = []
    for child in children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except FileNotFoundError:
            continue
        if b"spawn_main" in command:
            workers.append(child)
    return workers


def alive(pid: int) -> bool:
    """Running, or even a zombie nobody reaped: not gone."""
    return Path(f"/proc/{pid}").exists()


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the process tree from /proc")
@pytest.mark.parametrize(("stop", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "term"])
def test_a_signal_stops_play_quietly_with_its_status_and_its_worker_with_it(
    tmp_path: Path, stop: signal.Signals, status: int
) -> None:
    """Ctrl+C (130) or a service manager's SIGTERM (143): one line, and no worker left."""
    server = subprocess.Popen(
        [sys.executable, "-m", "freecell", "play", "--no-browser", "--port", "0", "--db", str(tmp_path / "g.db")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        assert server.stdout is not None
        address = serving.printed_address(server.stdout.readline())
        assert address is not None
        base, token = address.split("/?token=")
        headers = {"Authorization": f"token {token}", "Content-Type": "application/json"}
        with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
            deadline = time.monotonic() + 20
            while True:
                try:
                    client.get("/api/rules")
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, "the server never answered"
                    time.sleep(0.1)
            game = client.post("/api/games", json={"rules": "app", "cells": 1, "deal": 11982}).json()
            assert client.get(f"/api/games/{game['id']}/hint").status_code == 200  # the worker is solving now
        deadline = time.monotonic() + 30
        while not solver_workers(server.pid):
            assert time.monotonic() < deadline, "no solver worker was started"
            time.sleep(0.1)
        workers = solver_workers(server.pid)
        server.send_signal(stop)
        output, _ = server.communicate(timeout=30)
    finally:
        server.kill()
    assert server.returncode == status
    assert output.strip() == "FreeCell stopped.", output
    assert not [pid for pid in workers if alive(pid)]


def test_plays_default_limits_are_the_advisors() -> None:
    from freecell.advisor import HINT_LIMIT, LONGER_LIMIT
    from freecell.cli.play_commands import HINT_LIMIT_TEXT, LONGER_LIMIT_TEXT
    from freecell.solver import SearchLimit

    assert SearchLimit.from_text(HINT_LIMIT_TEXT) == HINT_LIMIT
    assert SearchLimit.from_text(LONGER_LIMIT_TEXT) == LONGER_LIMIT
