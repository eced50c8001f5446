"""The real server never acknowledges a move that a restart would lose: not when its game
file is removed under it, not when the disk is full. It answers JSON throughout."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

import serving

MOVES = ["7a", "7b", "7c", "b7", "1b", "71", "7h", "83", "8h"]  # the start of a solution of deal 617

# Runs `freecell` with a soft limit on the size of any file it writes (a full disk):
# writing past it fails with EFBIG instead of killing the process.
LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[1]), resource.RLIM_INFINITY))
from freecell.cli import main
main(sys.argv[2:], prog_name="freecell")
"""

HEADERS = serving.SCRIPT_HEADERS


def get(url: str, **options: Any) -> httpx.Response:
    return httpx.get(url, headers=HEADERS, **options)


def post(url: str, **options: Any) -> httpx.Response:
    return httpx.post(url, headers=HEADERS, **options)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(db: Path, port: int, *, file_limit: int | None = None) -> subprocess.Popen[str]:
    """`freecell play` on 127.0.0.1:``port``, answering; its output is drained meanwhile."""
    # the same token at every start, as a player keeps the address across a restart
    play = ["play", "--no-browser", "--port", str(port), "--db", str(db), "--token", serving.TOKEN]
    command = [sys.executable, "-m", "freecell", *play]
    if file_limit is not None:
        command = [sys.executable, "-c", LIMITED, str(file_limit), *play]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    assert serving.printed_address(line) == f"http://127.0.0.1:{port}/?token={serving.TOKEN}", line
    threading.Thread(target=process.stdout.read, daemon=True).start()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            get(f"http://127.0.0.1:{port}/api/rules", timeout=1)
            return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    pytest.fail("the server did not answer within 20 s")


def stop(process: subprocess.Popen[str]) -> None:
    process.kill()
    process.wait(timeout=10)


def answer(response: httpx.Response) -> int:
    """The status of ``response``, which must be JSON: a 2xx, or a 503 with a detail."""
    assert response.headers["content-type"] == "application/json", (response.status_code, response.text)
    body = response.json()
    assert response.status_code in (200, 201) or (response.status_code == 503 and isinstance(body["detail"], str)), (
        response.status_code, body,
    )
    return response.status_code


def moves_kept(base: str, acknowledged: dict[str, int]) -> dict[str, int]:
    """How many moves each game of ``acknowledged`` has, as the server reads them."""
    return {gid: get(f"{base}/games/{gid}", timeout=10).json()["moves"] for gid in acknowledged}


@pytest.mark.slow
def test_a_removed_game_file_is_noticed_and_no_move_is_acknowledged(tmp_path: Path) -> None:
    db, port = tmp_path / "g.db", free_port()
    base = f"http://127.0.0.1:{port}/api"
    server = serve(db, port)
    try:
        games = [post(f"{base}/games", json={"rules": "app", "deal": 617}).json()["id"] for _ in range(2)]
        for gid in games:
            assert post(f"{base}/games/{gid}/moves", json={"move": MOVES[0]}).status_code == 200
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        acknowledged = []
        for _ in range(5):
            for gid in games:
                text = MOVES[1 + sum(1 for game, _ in acknowledged if game == gid)]  # the game's next move
                response = post(f"{base}/games/{gid}/moves", json={"move": text}, timeout=10)
                if answer(response) == 200:
                    acknowledged.append((gid, text))
                else:
                    assert "was removed or replaced" in response.json()["detail"]
                    assert "restart freecell play" in response.json()["detail"]
        assert acknowledged == []  # a restart finds no game: none of these moves could be kept
        assert answer(post(f"{base}/games", json={"rules": "app", "deal": 1}, timeout=10)) == 503
        assert answer(get(f"{base}/games/{games[0]}", timeout=10)) == 200  # it still answers
    finally:
        stop(server)

    server = serve(db, port)  # a new, empty store at the same path
    try:
        assert get(f"{base}/games/{games[0]}").status_code == 404
        gid = post(f"{base}/games", json={"rules": "app", "deal": 617}).json()["id"]
        assert post(f"{base}/games/{gid}/moves", json={"move": MOVES[0]}).status_code == 200
    finally:
        stop(server)


@pytest.mark.slow
def test_a_full_disk_gives_json_503s_and_every_acknowledged_move_survives(tmp_path: Path) -> None:
    db, port = tmp_path / "g.db", free_port()
    base = f"http://127.0.0.1:{port}/api"
    server = serve(db, port, file_limit=400_000)
    acknowledged: dict[str, int] = {}  # game id: moves acknowledged
    refusals = 0
    try:
        with httpx.Client(timeout=10, headers=HEADERS) as client:
            for _ in range(200):
                created = client.post(f"{base}/games", json={"rules": "app", "deal": 617})
                if answer(created) == 503:
                    refusals += 1
                    if refusals >= 5:
                        break
                    continue
                gid = created.json()["id"]
                acknowledged[gid] = 0
                for text in MOVES[:3]:
                    if answer(client.post(f"{base}/games/{gid}/moves", json={"move": text})) != 200:
                        refusals += 1
                        break
                    acknowledged[gid] += 1
            assert refusals >= 5 and len(acknowledged) >= 3, (refusals, acknowledged)
            last = next(reversed(acknowledged))  # the current game: the others were replaced
            move = {"move": MOVES[acknowledged[last]]}
            refused = client.post(f"{base}/games/{last}/moves", json=move)
            assert answer(refused) == 503 and "nothing was saved" in refused.json()["detail"]
            assert moves_kept(base, acknowledged) == acknowledged  # what was refused was not applied

            resource.prlimit(server.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
            played = client.post(f"{base}/games/{last}/moves", json=move)  # room again: the same server goes on
            assert answer(played) == 200 and played.json()["moves"] == acknowledged[last] + 1
            acknowledged[last] += 1
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)

    server = serve(db, port)
    try:
        assert moves_kept(base, acknowledged) == acknowledged
    finally:
        stop(server)


def test_no_shared_memory_file_can_bring_the_server_down(tmp_path: Path) -> None:
    """SQLite in WAL mode shared between processes maps a ``-shm`` file into memory; when
    another process truncates it (or makes it unwritable: ``chattr +i``), the next move's
    access to the mapping killed the server with SIGBUS, without a word. The server keeps
    that index in its own memory: there is no such file to take away."""
    db, port = tmp_path / "g.db", free_port()
    base = f"http://127.0.0.1:{port}/api"
    server = serve(db, port)
    try:
        gid = post(f"{base}/games", json={"rules": "app", "deal": 617}).json()["id"]
        assert post(f"{base}/games/{gid}/moves", json={"move": MOVES[0]}).status_code == 200
        shm = Path(f"{db}-shm")
        if shm.exists():
            os.truncate(shm, 0)  # what any process that may write the folder can do
        assert answer(post(f"{base}/games/{gid}/moves", json={"move": MOVES[1]}, timeout=10)) == 200
        assert server.poll() is None
        assert not shm.exists()
    finally:
        stop(server)


def test_a_second_server_or_stats_on_a_store_in_play_is_refused_in_one_line(tmp_path: Path) -> None:
    """Two servers on one store would each keep its games in memory and write over the
    other's: the second is refused, and so is reading the statistics meanwhile, in one line."""
    db, port = tmp_path / "g.db", free_port()
    server = serve(db, port)
    in_use = f"freecell: {db} is in use by another process (is freecell play running?)"
    try:
        post(f"http://127.0.0.1:{port}/api/games", json={"rules": "app", "deal": 617})
        for command in (["play", "--no-browser", "--port", "0"], ["stats"]):
            done = subprocess.run(
                [sys.executable, "-m", "freecell", *command, "--db", str(db)], capture_output=True, text=True,
                timeout=30,
            )
            assert done.returncode == 2, done
            assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith(in_use), done.stderr
            assert done.stdout == ""
    finally:
        stop(server)
    done = subprocess.run(
        [sys.executable, "-m", "freecell", "stats", "--db", str(db)], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0 and done.stdout.startswith("preset"), done
