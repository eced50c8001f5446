"""The app's lifespan owns what the server opened: when the server stops, the solver's
processes are ended and the store is closed. And no move waits while the statistics read
a whole table."""

from __future__ import annotations

import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

import serving
from freecell.advisor import Advisor
from freecell.store import Store
from freecell.web.analysis import WORKER_NICENESS, AnalysisWorkers, WorkerPool
from freecell.web.assistance import Assistance

JOIN = 30.0


def test_stopping_the_server_ends_the_solvers_processes_and_closes_the_store(tmp_path: Path) -> None:
    pool = WorkerPool(1, WORKER_NICENESS)
    app = serving.make_app(tmp_path / "games.db", assistance=Assistance(analyses=AnalysisWorkers(Advisor(), pool=pool)))
    with serving.client(app) as client:
        assert client.post("/api/games", json={"rules": "standard", "deal": 1}).status_code == 201
        assert pool.submit(os.getpid).result(timeout=JOIN)  # the solver's process is up
        processes = pool.processes
        assert processes and all(process.is_alive() for process in processes)
    assert not any(process.is_alive() for process in processes)
    with pytest.raises(sqlite3.ProgrammingError):  # closed
        app.state.service.store.current()


def test_a_move_is_answered_while_the_statistics_read_a_whole_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statistics read every finished game, in the thread pool; a move, answered in the
    event loop, does not wait for the whole read: here the read is held between two of its
    parts, and a move is answered meanwhile."""
    reading, release = threading.Event(), threading.Event()
    rows = Store._result_rows

    def held(store: Store, *, after: int) -> Any:
        read = rows(store, after=after)
        if after == 0:  # the first part is read: the rest waits
            reading.set()
            release.wait(JOIN)
        return read

    monkeypatch.setattr(Store, "_result_rows", held)
    with serving.client(serving.make_app(tmp_path / "games.db")) as client:
        game = client.post("/api/games", json={"rules": "standard", "deal": 617}).json()["id"]
        stats: list[Any] = []
        reader = threading.Thread(target=lambda: stats.append(client.get("/api/stats")), daemon=True)
        reader.start()
        assert reading.wait(JOIN)
        moved: list[Any] = []
        mover = threading.Thread(
            target=lambda: moved.append(client.post(f"/api/games/{game}/moves", json={"move": "1a"})), daemon=True
        )
        mover.start()
        mover.join(JOIN)
        waited = not moved
        release.set()
        reader.join(JOIN)
        assert not waited, "the move waited for the statistics"
        assert moved[0].status_code == 200 and stats[0].status_code == 200
