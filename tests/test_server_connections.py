"""``freecell play`` under a flood of connections that never finish a request, as anyone on
the network can open them (``--host 0.0.0.0``) without the token: the server closes them
within seconds, and the player's own requests are answered meanwhile, even when the flood
is larger than the files the server may open."""

from __future__ import annotations

import selectors
import socket
import time
from pathlib import Path
from typing import cast

import httpx

import serving
from freecell.web.connections import GuardedProtocol, OpenConnections


def half_a_request(served: serving.Served, *, token: bool = False) -> bytes:
    """The start of a request (with the token, a player's): its headers, but not the blank
    line that ends them."""
    host = served.base.removeprefix("http://")
    authorization = f"Authorization: token {served.token}\r\n" if token else ""
    return f"GET /api/rules HTTP/1.1\r\nHost: {host}\r\n{authorization}".encode()


def connect(served: serving.Served, count: int, first_bytes: bytes = b"") -> list[socket.socket]:
    """``count`` connections to the server, each of which sends ``first_bytes`` and stops."""
    host, port = served.base.removeprefix("http://").rsplit(":", 1)
    connections = []
    for _ in range(count):
        connection = socket.create_connection((host, int(port)), timeout=10)
        if first_bytes:
            connection.sendall(first_bytes)
        connections.append(connection)
    return connections


def seconds_until_closed(connections: list[socket.socket], within: float) -> list[float]:
    """How long after the call the server closed each connection (read end of file or a
    reset); fails the test for any still open after ``within`` seconds."""
    start = time.monotonic()
    closed_after: list[float] = []
    with selectors.DefaultSelector() as selector:
        for connection in connections:
            connection.setblocking(False)
            selector.register(connection, selectors.EVENT_READ)
        while len(closed_after) < len(connections):
            left = start + within - time.monotonic()
            assert left > 0, f"{len(connections) - len(closed_after)} of {len(connections)} connections still open"
            for key, _ in selector.select(timeout=left):
                connection = key.fileobj
                assert isinstance(connection, socket.socket)
                try:
                    data = connection.recv(65536)
                except ConnectionResetError:
                    data = b""
                if not data:  # (an answer before the close would be data: there is none)
                    selector.unregister(connection)
                    closed_after.append(time.monotonic() - start)
    for connection in connections:
        connection.close()
    return closed_after


def test_half_requests_beyond_the_servers_open_files_leave_the_player_served(tmp_path: Path) -> None:
    """300 connections that send half a request, to a server that may open 256 files: the
    player's GET and move are answered within 2 s, and the 300 are closed within 30 s."""
    served = serving.start(tmp_path, open_files=256)
    flood: list[socket.socket] = []
    try:
        with httpx.Client(headers=served.headers, timeout=2) as player:
            game = player.post(f"{served.base}/api/games", json={"rules": "standard", "deal": 617}).json()["id"]
            flood = connect(served, 300, half_a_request(served))
            with httpx.Client(headers=served.headers, timeout=2) as reloaded:  # new connections, as after a reload
                assert reloaded.get(f"{served.base}/api/games/{game}").json()["moves"] == 0
                moved = reloaded.post(f"{served.base}/api/games/{game}/moves", json={"move": "2a"})
                assert moved.status_code == 200 and moved.json()["moves"] == 1
        seconds_until_closed(flood, within=30)
        assert served.process.poll() is None
    finally:
        for connection in flood:
            connection.close()
        served.stop()


def test_silent_and_idle_connections_are_closed_within_seconds(tmp_path: Path) -> None:
    """Connections that send nothing, or half a request, or that stay open after an answer
    (kept alive) are closed within seconds, not held for as long as the client likes."""
    served = serving.start(tmp_path)
    try:
        silent = connect(served, 50)
        halves = connect(served, 50, half_a_request(served))
        [kept_alive] = connect(served, 1, half_a_request(served, token=True) + b"\r\n")
        kept_alive.settimeout(10)
        assert kept_alive.recv(65536).startswith(b"HTTP/1.1 200 ")  # an answer, and the connection stays open
        for connections in (silent, halves, [kept_alive]):
            assert max(seconds_until_closed(connections, within=15)) < 15
    finally:
        served.stop()


class Connection:
    """What :class:`OpenConnections` does to a connection: close it."""

    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_past_the_cap_the_connection_that_waited_longest_for_a_request_is_closed() -> None:
    book = OpenConnections(cap=3)
    first, second, third, fourth, fifth = (Connection() for _ in range(5))
    opened = [cast(GuardedProtocol, connection) for connection in (first, second, third, fourth, fifth)]
    book.opened(opened[0])
    book.opened(opened[1])
    book.busy(opened[0])  # its request arrived whole: it is being answered
    book.opened(opened[2])
    book.opened(opened[3])  # one past the cap: the second has waited longest (the first is busy)
    assert [c.closed for c in (first, second, third, fourth)] == [False, True, False, False]
    book.closed(opened[1])
    book.waiting(opened[0])  # answered, and kept alive: it waits again, from now
    book.opened(opened[4])
    assert [c.closed for c in (first, second, third, fourth, fifth)] == [False, True, True, False, False]
