"""The real server, killed with SIGKILL in the middle of a game, loses nothing."""

from __future__ import annotations

import signal
import socket
from pathlib import Path

import httpx
import pytest

import serving

MOVES = ["7a", "7b", "7c", "b7", "1b", "71", "7h", "83", "8h"]  # the start of a solution of deal 617


@pytest.mark.slow
def test_a_killed_server_restarts_with_the_game_where_it_was(tmp_path: Path) -> None:
    server = serving.start(tmp_path)
    port = server.base.rsplit(":", 1)[1]
    try:
        base, headers = f"{server.base}/api", server.headers
        game = httpx.post(f"{base}/games", json={"rules": "app", "deal": 617}, headers=headers).json()
        gid = game["id"]
        for text in MOVES:
            state = httpx.post(f"{base}/games/{gid}/moves", json={"move": text}, headers=headers)
            assert state.status_code == 200, state.text
        state = httpx.post(f"{base}/games/{gid}/undo", headers=headers).json()
        assert state["moves"] == len(MOVES) - 1 and state["score"] == 15
    finally:
        server.kill()
        assert server.process.returncode == -signal.SIGKILL

    # The same store in a new process, at the same address: the same port and, with --token, the same token.
    again_served = serving.start(tmp_path, "--port", port, "--token", server.token)
    try:
        assert again_served.url == server.url
        again = httpx.get(f"{base}/games/{gid}", headers=headers).json()
        for field in ("columns", "cells", "foundations", "moves", "score", "can_undo", "can_redo", "code", "rules"):
            assert again[field] == state[field], field
        assert httpx.get(f"{base}/current", headers=headers).json() == {"id": gid}
        redone = httpx.post(f"{base}/games/{gid}/redo", headers=headers).json()  # the redo history survived too
        assert redone["moves"] == len(MOVES) and redone["last"] == ["8h"] and redone["score"] == 25
    finally:
        again_served.stop()


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
