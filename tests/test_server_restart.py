"""The real server, killed with SIGKILL in the middle of a game, loses nothing."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

MOVES = ["7a", "7b", "7c", "b7", "1b", "71", "7h", "83", "8h"]  # the start of a solution of deal 617


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, db: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "freecell", "play", "--no-browser", "--port", str(port), "--db", str(db)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    assert process.stdout is not None
    line = process.stdout.readline()
    assert f"http://127.0.0.1:{port}/" in line, line
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/rules", timeout=1)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    pytest.fail("the server did not answer within 20 s")


def kill(process: subprocess.Popen[str]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    assert process.returncode == -signal.SIGKILL


@pytest.mark.slow
def test_a_killed_server_restarts_with_the_game_where_it_was(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    port = free_port()
    server = start_server(port, db)
    try:
        base = f"http://127.0.0.1:{port}/api"
        game = httpx.post(f"{base}/games", json={"rules": "app", "deal": 617}).json()
        gid = game["id"]
        for text in MOVES:
            state = httpx.post(f"{base}/games/{gid}/moves", json={"move": text})
            assert state.status_code == 200, state.text
        state = httpx.post(f"{base}/games/{gid}/undo").json()
        assert state["moves"] == len(MOVES) - 1 and state["score"] == 15
    finally:
        kill(server)

    server = start_server(port, db)  # the same store, a new process
    try:
        again = httpx.get(f"{base}/games/{gid}").json()
        for field in ("columns", "cells", "foundations", "moves", "score", "can_undo", "can_redo", "code", "rules"):
            assert again[field] == state[field], field
        assert httpx.get(f"{base}/current").json() == {"id": gid}
        redone = httpx.post(f"{base}/games/{gid}/redo").json()  # the redo history survived too
        assert redone["moves"] == len(MOVES) and redone["last"] == ["8h"] and redone["score"] == 25
    finally:
        kill(server)


def test_play_says_so_when_the_port_is_taken(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from freecell.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["play", "--no-browser", "--port", str(port), "--db", str(tmp_path / "g.db")])
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
