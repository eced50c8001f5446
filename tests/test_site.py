"""The static site: the build (``freecell site``), and the contract that its worker, our
Python under Pyodide under Node, answers the API as the server does.

The Pyodide runtime comes from the npm cache that ``scripts/setup --dev`` fills
(``npm pack``, checked against the pinned hashes); Node is Debian's ``nodejs``.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.testclient import TestClient

import freecell
import serving
from freecell import Deal, Position, find_rules
from freecell.lessons import LESSONS
from freecell.replay import replay
from freecell.rules import PRESETS
from freecell.site import BUILD_FILE, RUNTIME_FILES, SITE_FILE, SiteError, build_site, fetch_runtime

if TYPE_CHECKING:
    from freecell.web.worker import QueuedAnalysis

RUNNER = Path(__file__).parent / "site" / "worker_runner.mjs"


@pytest.fixture(scope="module")
def runtime() -> Path:
    return fetch_runtime()


@pytest.fixture(scope="module")
def site(runtime: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site") / "game"
    build_site(target, pyodide=runtime)
    return target


def _freecell(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "freecell", *args], capture_output=True, text=True, timeout=300, check=False
    )


# --- the build --------------------------------------------------------------------------


def test_the_site_holds_the_page_our_sources_and_the_runtime(site: Path) -> None:
    manifest = json.loads((site / SITE_FILE).read_text())
    files = set(manifest["files"])
    assert {"index.html", "sw.js", "freecell.zip", "static/js/main.js", "static/js/worker.js"} <= files
    assert {f"pyodide/{name}" for name in RUNTIME_FILES} <= files
    assert all((site / name).is_file() for name in files)
    # the same page as the server's, with every URL relative (the site may live anywhere)
    page = (site / "index.html").read_text()
    assert page == (Path(__file__).parents[1] / "src/freecell/web/static/index.html").read_text()
    # (the statistics' export links are answered in the page, with no request)
    assert re.findall(r'(?:src|href)="(/[^/][^"]*)"', page) == ["/api/stats.csv", "/api/stats.json"]
    # only what the browser needs of our package: no FastAPI layer, no command line
    names = set(zipfile.ZipFile(site / "freecell.zip").namelist())
    assert "freecell/web/service.py" in names and "freecell/solver/search.py" in names
    assert not any(name.startswith(("freecell/cli/", "freecell/web/app.py", "freecell/web/static/")) for name in names)


def test_a_runtime_file_that_differs_is_refused(runtime: Path, tmp_path: Path) -> None:
    altered = tmp_path / "pyodide"
    shutil.copytree(runtime, altered, ignore=shutil.ignore_patterns("*.tgz"))
    with (altered / "pyodide.mjs").open("a") as stream:
        stream.write("// changed\n")
    done = _freecell("site", str(tmp_path / "out"), "--pyodide", str(altered))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"freecell: {altered / 'pyodide.mjs'} is not the file of pyodide 314.0.7 (its SHA-256 differs)"
    ]
    assert not (tmp_path / "out").exists()


def test_a_folder_in_use_is_not_overwritten(runtime: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine\n")
    done = _freecell("site", str(tmp_path), "--pyodide", str(runtime))
    assert done.returncode == 2
    assert "is not empty and holds no earlier build" in done.stderr
    assert [path.name for path in tmp_path.iterdir()] == ["notes.txt"]


def test_the_command_builds_and_rebuilds(runtime: Path, tmp_path: Path) -> None:
    for _ in range(2):  # a second build replaces the first
        done = _freecell("site", str(tmp_path / "site"), "--pyodide", str(runtime))
        assert done.returncode == 0, done.stderr
    assert "Wrote the site to" in done.stdout
    assert (tmp_path / "site" / "pyodide" / "pyodide.asm.wasm").is_file()


def test_the_built_files_carry_the_builds_time_not_their_sources(runtime: Path, tmp_path: Path) -> None:
    """A file's time is its Last-Modified: a source's old time would let a browser's HTTP
    cache count a new build's file fresh, or answer "not modified" for a changed one."""
    sources = tmp_path / "pyodide"
    shutil.copytree(runtime, sources, ignore=shutil.ignore_patterns("*.tgz"))
    long_ago = time.time() - 30 * 24 * 3600
    for path in sources.iterdir():
        os.utime(path, (long_ago, long_ago))
    began = time.time()
    built = build_site(tmp_path / "site", pyodide=sources)
    times = {name: (built.path / name).stat().st_mtime for name in built.files}
    assert min(times.values()) >= began - 2, min(times, key=times.__getitem__)


def files_in(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def test_a_rebuild_removes_only_the_files_the_last_build_wrote(runtime: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    first = build_site(target, pyodide=runtime)
    written = json.loads((target / BUILD_FILE).read_text())["files"]
    assert written == sorted(first.files) and BUILD_FILE in written
    assert set(files_in(target)) == set(written)
    (target / "CNAME").write_text("cards.example.org\n")  # what the publisher keeps there
    (target / "extra").mkdir()
    (target / "extra" / "keep.txt").write_text("mine\n")
    (target / "static" / "js" / "mine.js").write_text("// mine\n")
    (target / "static" / "old").mkdir()  # a file an older build wrote, which this one does not
    (target / "static" / "old" / "gone.js").write_text("// old\n")
    listing = {"built_by": "freecell site", "files": [*written, "static/old/gone.js"]}
    (target / BUILD_FILE).write_text(json.dumps(listing))

    second = build_site(target, pyodide=runtime)
    assert second.files == first.files
    assert (target / "CNAME").read_text() == "cards.example.org\n"
    assert (target / "extra" / "keep.txt").read_text() == "mine\n"
    assert (target / "static" / "js" / "mine.js").read_text() == "// mine\n"
    assert not (target / "static" / "old").exists()  # its file gone, the folder it leaves empty too
    assert set(files_in(target)) == {*second.files, "CNAME", "extra/keep.txt", "static/js/mine.js"}


def test_a_build_stopped_half_way_is_one_the_next_build_knows(
    runtime: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "site"
    build_site(target, pyodide=runtime)
    (target / "CNAME").write_text("cards.example.org\n")
    replace, moved = os.replace, []

    def replace_until_the_disk_fails(source: Path, destination: Path) -> None:
        if len(moved) == 5:
            raise OSError(errno.EIO, "Input/output error")
        moved.append(destination)
        replace(source, destination)

    monkeypatch.setattr(os, "replace", replace_until_the_disk_fails)
    with pytest.raises(OSError, match="Input/output error"):
        build_site(target, pyodide=runtime)
    monkeypatch.undo()
    site = build_site(target, pyodide=runtime)
    assert set(files_in(target)) == {*site.files, "CNAME"}
    assert (target / "CNAME").read_text() == "cards.example.org\n"


def test_a_copy_of_the_page_folder_is_refused_untouched(runtime: Path, tmp_path: Path) -> None:
    """It holds the server's static/site.json, but it is no build: nothing in it is removed."""
    copy = tmp_path / "web"
    shutil.copytree(Path(freecell.__file__).parent / "web", copy)
    before = files_in(copy)
    done = _freecell("site", str(copy), "--pyodide", str(runtime))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"freecell: {copy} is not empty and holds no earlier build: choose a new folder"
    ]
    assert files_in(copy) == before


def test_a_build_never_writes_over_or_removes_a_file_it_did_not_write(runtime: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    build_site(target, pyodide=runtime)
    written = json.loads((target / BUILD_FILE).read_text())["files"]
    outside = tmp_path / "outside.txt"
    outside.write_text("not the site's\n")
    # The publisher's own main.js (no longer listed), and a list that points outside the folder.
    listing = {"built_by": "freecell site", "files": [name for name in written if name != "static/js/main.js"]}
    (target / BUILD_FILE).write_text(json.dumps(listing))
    (target / "static" / "js" / "main.js").write_text("// the publisher's\n")
    before = files_in(target)
    with pytest.raises(SiteError, match=r"static/js/main\.js was not written by the earlier build"):
        build_site(target, pyodide=runtime)
    assert files_in(target) == before
    (target / BUILD_FILE).write_text(json.dumps({"built_by": "freecell site", "files": ["../outside.txt"]}))
    done = _freecell("site", str(target), "--pyodide", str(runtime))
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert f"{target / BUILD_FILE} is not the list of files of a build" in done.stderr
    assert outside.read_text() == "not the site's\n"


# --- the contract: the worker answers as the server does --------------------------------


class Worker:
    """The site's API worker under Node (tests/site/worker_runner.mjs)."""

    def __init__(self, site: Path) -> None:
        node = shutil.which("node") or shutil.which("nodejs")
        assert node, "Node is needed (scripts/setup --dev installs Debian's nodejs)"
        self.process = subprocess.Popen(
            [node, str(RUNNER), str(site)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
        )
        assert self._read() == {"ready": True}

    def _read(self) -> Any:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, "the worker under Node stopped"
        return json.loads(line)

    def __call__(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        route, _, query = path.partition("?")
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"method": method, "path": route, "query": query, "body": body}) + "\n")
        answer = self._read()
        return answer["status"], answer["body"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


@pytest.fixture
def worker(site: Path) -> Iterator[Worker]:
    running = Worker(site)
    yield running
    running.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    with serving.client(serving.make_app(tmp_path / "games.sqlite")) as client:
        yield client


def _server_call(client: TestClient) -> Any:
    def call(method: str, path: str, body: object = None) -> tuple[int, Any]:
        response = client.request(method, path, json=body) if body is not None else client.request(method, path)
        data = response.text if response.headers["content-type"].startswith("text/csv") else response.json()
        return response.status_code, data

    return call


def _settled(call: Any, method: str, path: str) -> tuple[int, Any]:
    """A hint or an analysis once the solver has answered (both sides say "pending" while
    it works; the worker under Node solves between requests)."""
    deadline = time.monotonic() + 120
    while True:
        status, body = call(method, path)
        thinking = status == 200 and (body.get("pending") or body.get("verdict") == "pending")
        if not thinking or time.monotonic() > deadline:
            return status, body
        time.sleep(0.1)


def _play_script(call: Any) -> list[tuple[str, int, Any]]:
    """One script of API calls; the answers in order, with ids and clocks put aside."""
    answers: list[tuple[str, int, Any]] = []
    ids: list[str] = []

    def ask(method: str, path: str, body: object = None, *, settle: bool = False) -> Any:
        actual = path.replace("{id}", ids[-1] if ids else "none")
        status, value = _settled(call, method, actual) if settle else call(method, actual, body)
        if isinstance(value, dict) and isinstance(value.get("id"), str) and "columns" in value:
            ids.append(value["id"])
        answers.append((f"{method} {path}", status, _aside(value, ids)))
        return value

    ask("GET", "/api/rules")
    ask("GET", "/api/current")
    ask("GET", "/api/lessons")
    for name in PRESETS:  # a new game under every preset
        ask("POST", "/api/games", {"rules": name, "deal": 617})
        ask("POST", "/api/games/{id}/moves", {"move": "1a"})
    ask("POST", "/api/games", {"code": Deal(find_rules("eight-off"), 617).code()})
    ask("GET", "/api/games/{id}")
    ask("POST", "/api/games", {"rules": "standard", "deal": 617, "moves": ["1a", "2b"], "auto_home": True})
    ask("POST", "/api/games", {"rules": "standard", "deal": 617, "moves": ["1a", "1a"]})  # the 2nd is illegal
    ask("POST", "/api/games", {"rules": "standard", "deal": 617, "moves": ["1a", 5]})
    ask("POST", "/api/games", {"rules": "standard", "deal": 617, "moves": "1a"})
    ask("POST", "/api/games", {"rules": "standard", "deal": 3})
    ask("GET", "/api/current")
    ask("POST", "/api/games/{id}/options", {"auto_home": True})
    ask("POST", "/api/games/{id}/options", {"auto_home": False})
    ask("POST", "/api/games/{id}/options", {})
    ask("POST", "/api/games/{id}/options", {"auto_home": "yes"})
    ask("GET", "/api/games/{id}/destinations?source=1&count=1")
    ask("GET", "/api/games/{id}/destinations?source=q")
    hint = ask("GET", "/api/games/{id}/hint", settle=True)
    ask("GET", "/api/games/{id}")  # the hint counted
    ask("POST", "/api/games/{id}/moves", {"move": hint["move"]})
    ask("POST", "/api/games/{id}/moves", {"move": "a1"})  # an illegal move: nothing in cell a
    ask("POST", "/api/games/{id}/moves", {"move": 38})  # the wrong shape
    ask("POST", "/api/games/{id}/moves", {"move": "38", "extra": 1})
    ask("POST", "/api/games/{id}/moves", {})
    ask("POST", "/api/games/{id}/moves", {"move": "3" * 40})
    ask("GET", "/api/games/{id}/destinations")
    ask("GET", "/api/games/{id}/destinations?source=1&count=0")
    ask("POST", "/api/games/{id}/undo")
    ask("POST", "/api/games/{id}/undo")  # nothing left to undo
    ask("POST", "/api/games/{id}/redo")
    ask("POST", "/api/games/{id}/redo")
    ask("POST", "/api/games/{id}/pause")
    ask("POST", "/api/games/{id}/resume")
    ask("POST", "/api/games/{id}/restart")
    ask("POST", "/api/games/{id}/finish")
    ask("POST", "/api/games/{id}/rewind")
    ask("GET", "/api/games/{id}/capacity")
    ask("GET", "/api/games/{id}/capacity?empty_cells=2&empty_columns=1")
    ask("GET", "/api/games/{id}/capacity?empty_cells=9")
    ask("GET", "/api/games/{id}/capacity?empty_cells=x")
    ask("POST", "/api/games", {"rules": "standard", "cells": "4"})
    ask("POST", "/api/games", {"rules": "nonesuch"})
    ask("POST", "/api/games", {"deal": 3, "random": True})
    ask("GET", "/api/games/no-such-game")
    ask("DELETE", "/api/games/{id}")
    # win deal 3 under Baker's Game along the solver's line
    ask("POST", "/api/games", {"rules": "bakers-game", "deal": 3})
    line = ask("GET", "/api/games/{id}/analysis?line=true", settle=True)["line"]
    ask("GET", "/api/games/{id}")  # the game assisted
    for move in line:
        ask("POST", "/api/games/{id}/moves", {"move": move})
    ask("POST", "/api/games/{id}/moves", {"move": "1h"})  # the game is won
    ask("GET", "/api/games/{id}/hint", settle=True)
    # a lesson, a wrong step and a right one
    lesson = LESSONS[0].id
    ask("POST", f"/api/lessons/{lesson}")
    ask("POST", "/api/games/{id}/moves", {"move": "h1"})
    step = ask("GET", "/api/games/{id}/hint")
    ask("POST", "/api/games/{id}/moves", {"move": step["move"]})
    ask("GET", "/api/games/{id}/analysis")
    ask("POST", "/api/lessons/nonesuch")
    ask("GET", "/api/stats")
    ask("GET", "/api/stats.json")
    ask("GET", "/api/stats.csv")
    return answers


def _aside(value: Any, ids: list[str]) -> Any:
    """``value`` with game ids and clock readings replaced by what they stand for."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in ("elapsed_seconds", "best_seconds"):
                out[key] = None if item is None else "<seconds>"
            else:
                out[key] = _aside(item, ids)
        return out
    if isinstance(value, list):
        return [_aside(item, ids) for item in value]
    if isinstance(value, str) and value in ids:
        return "<game id>"
    if isinstance(value, str) and "\n" in value and value.startswith("rules,"):  # the CSV export
        return re.sub(r",[0-9.]+(,[0-9]*)$", r",<seconds>\1", value, flags=re.MULTILINE)
    return value


@pytest.mark.slow
def test_the_worker_answers_the_api_as_the_server_does(server: TestClient, worker: Worker) -> None:
    expected = _play_script(_server_call(server))
    got = _play_script(worker)
    assert [request for request, _, _ in got] == [request for request, _, _ in expected]
    for (request, status, body), (_, want_status, want_body) in zip(got, expected, strict=True):
        assert (request, status, body) == (request, want_status, want_body)
    statuses = {status for _, status, _ in expected}
    assert {200, 201, 400, 404, 405, 409, 422} <= statuses
    states = [body for _, _, body in expected if isinstance(body, dict) and "columns" in body]
    assert any(state["hints"] == 1 for state in states) and any(state["assisted"] for state in states)
    assert any(state["auto_home"] for state in states) and any(state["played"] == ["1a", "2b"] for state in states)
    assert expected[1] == ("GET /api/current", 200, {"id": None})
    won = [body for request, _, body in expected if request.endswith("/moves") and isinstance(body, dict)]
    assert any(body.get("outcome") == "won" for body in won)
    # a random deal is not the same on both sides, but a winnable one is dealt, and graded
    status, body = worker("POST", "/api/games", {"rules": "standard", "winnable": True})
    assert (status, body["difficulty"] in ("easy", "medium", "hard")) == (201, True)


def test_the_worker_says_when_an_answer_changed_the_store(tmp_path: Path) -> None:
    """The site saves its file to IndexedDB after every write, a GET's too (a hint counted)."""
    from freecell.web.worker import Api, solve_job

    api = Api(str(tmp_path / "games.sqlite"))

    def answer(method: str, path: str, body: object = None) -> dict[str, Any]:
        reply: dict[str, Any] = json.loads(api.answer(method, path, "", "" if body is None else json.dumps(body)))
        return reply

    created = answer("POST", "/api/games", {"rules": "standard", "deal": 3})
    assert (created["status"], created["changed"]) == (201, True)
    game = f"/api/games/{created['body']['id']}"
    assert answer("GET", game)["changed"] is False
    assert answer("POST", f"{game}/moves", {"move": "a1"})["changed"] is False  # refused: nothing written
    assert answer("GET", f"{game}/hint")["body"]["pending"] is True
    job = api.next_job()
    assert job is not None
    api.solved(json.loads(job)["job"], solve_job(job))
    hint = answer("GET", f"{game}/hint")
    assert hint["body"]["move"] and hint["changed"] is True
    assert answer("GET", game)["body"]["hints"] == 1


def test_the_time_the_site_was_closed_is_kept_off_the_clock(tmp_path: Path) -> None:
    """A tab closed with no pause saved: the next visit takes the time since the tab was
    last seen off the running clock; a reload's moment away, or a paused game, is left."""
    from freecell.web.worker import Api

    now = [1_000_000.0]
    api = Api(str(tmp_path / "games.sqlite"), now=lambda: now[0])

    created = json.loads(api.answer("POST", "/api/games", "", json.dumps({"rules": "standard", "deal": 3})))
    game = f"/api/games/{created['body']['id']}"

    def elapsed() -> float:
        return float(json.loads(api.answer("GET", game, "", ""))["body"]["elapsed_seconds"])

    now[0] += 20
    assert api.skip_time_away(now[0] - 3) is False  # a reload: 3 s away
    assert elapsed() == 20
    now[0] += 600
    assert api.skip_time_away(now[0] - 590) is True  # last seen 10 s after the above
    assert elapsed() == 30
    now[0] += 5
    assert elapsed() == 35  # and it runs on
    api.answer("POST", f"{game}/pause", "", "")
    now[0] += 600
    assert api.skip_time_away(now[0] - 600) is False
    assert elapsed() == 35


def test_the_sites_rewind_marks_the_game_assisted(tmp_path: Path) -> None:
    """Rewind in the static site's worker, its solver's job solved as the page's worker does."""
    from freecell.web.worker import Api, solve_job

    api = Api(str(tmp_path / "games.sqlite"))

    def answer(method: str, path: str, body: object = None) -> Any:
        reply = json.loads(api.answer(method, path, "", "" if body is None else json.dumps(body)))
        return reply["body"]

    # With one cell, deal 2 is winnable, and parking column 2's card in the cell loses it.
    game = f"/api/games/{answer('POST', '/api/games', {'rules': 'standard', 'cells': 1, 'deal': 2})['id']}"
    answer("POST", f"{game}/moves", {"move": "2a"})
    for _ in range(20):  # the position now, then the one before it, until the losing move is known
        if answer("GET", f"{game}/analysis")["losing_move"] is not None:
            break
        job = api.next_job()
        assert job is not None
        api.solved(json.loads(job)["job"], solve_job(job))
    assert not answer("GET", game)["assisted"]
    rewound = answer("POST", f"{game}/rewind")
    assert rewound["moves"] == 0 and rewound["assisted"]


def unknown_in_play(queue: QueuedAnalysis, owner: str, position: Position) -> None:
    """Ask ``queue`` about ``position`` (standard rules) for ``owner`` and solve its job, as
    the page's solver worker would: its in-play search must leave it unknown."""
    from freecell.solver import SolveStatus
    from freecell.web.worker import solve_job

    standard = find_rules("standard")
    queue.request(owner, position, standard)
    job = queue.next_job()
    assert job is not None
    queue.solved(json.loads(job)["job"], solve_job(job))
    known = queue.advisor.known(position, standard)
    assert known is not None and known.verdict is SolveStatus.LIMIT_REACHED


def test_the_site_searches_further_after_unknown_and_stops_when_the_game_moves_on() -> None:
    """The static site's longer search, as the page drives it: a job for a worker of its
    own after a search that reached its limit, its verdict learnt, and a stop when the
    game asks about another position, after which its late answer is not taken."""
    from freecell.advisor import Advisor
    from freecell.solver import SearchLimit, SolveStatus
    from freecell.web.worker import SITE_LONGER_LIMIT, QueuedAnalysis, solve_job

    standard = find_rules("standard")
    queue = QueuedAnalysis(Advisor(limit=SearchLimit(positions=1)))  # in play, nothing is decided
    first, second = Deal(standard, 1).position(), Deal(standard, 2).position()

    unknown_in_play(queue, "game", first)
    assert queue.searching_further(first, standard)
    longer = queue.next_longer_job()
    assert longer is not None and queue.next_longer_job() is None  # one at a time
    assert json.loads(longer)["limit"] == {"seconds": 30.0, "positions": None, "memory_mb": 600}
    assert SITE_LONGER_LIMIT.memory_mb == 600
    queue.longer_solved(json.loads(longer)["job"], solve_job(longer))
    won = queue.advisor.known(first, standard)
    assert won is not None and won.verdict is SolveStatus.SOLVED and not queue.searching_further(first, standard)
    assert replay(first, standard, won.line).is_won()

    unknown_in_play(queue, "game", second)
    longer = queue.next_longer_job()
    assert longer is not None and queue.longer_to_stop() is None
    queue.request("game", first, standard)  # the player went back: the longer search must stop
    assert queue.longer_to_stop() == json.loads(longer)["job"] and queue.longer_to_stop() is None
    assert not queue.searching_further(second, standard)
    queue.longer_solved(json.loads(longer)["job"], solve_job(longer))  # too late: not taken
    still = queue.advisor.known(second, standard)
    assert still is not None and still.verdict is SolveStatus.LIMIT_REACHED


def test_the_sites_longer_search_for_a_game_left_gives_way_to_the_game_played() -> None:
    """A player who gives up on a deal left unknown and deals another that is unknown too
    does not wait behind the first one's longer search: once the first game's page has
    asked nothing for LEFT_AFTER seconds, the page is told to stop that search, and the
    new game's begins. The first, asked about again, is searched again."""
    from freecell.advisor import Advisor
    from freecell.solver import SearchLimit, SolveStatus
    from freecell.web.in_play import LEFT_AFTER
    from freecell.web.worker import QueuedAnalysis, solve_job

    standard = find_rules("standard")
    now = [0.0]
    queue = QueuedAnalysis(Advisor(limit=SearchLimit(positions=1)), clock=lambda: now[0])
    left, played = Deal(standard, 1).position(), Deal(standard, 2).position()

    unknown_in_play(queue, "left", left)
    first = queue.next_longer_job()
    assert first is not None
    unknown_in_play(queue, "played", played)
    assert queue.next_longer_job() is None  # one at a time: the new game's waits
    now[0] = LEFT_AFTER - 1
    queue.request("played", played, standard)
    assert queue.longer_to_stop() is None  # the first game's page may still be open
    now[0] = LEFT_AFTER + 1
    queue.request("played", played, standard)
    assert queue.longer_to_stop() == json.loads(first)["job"]
    assert not queue.searching_further(left, standard) and queue.searching_further(played, standard)
    second = queue.next_longer_job()
    assert second is not None and json.loads(second)["board"] == played.to_text()
    queue.longer_solved(json.loads(second)["job"], solve_job(second))
    won = queue.advisor.known(played, standard)
    assert won is not None and won.verdict is SolveStatus.SOLVED
    queue.longer_solved(json.loads(first)["job"], solve_job(first))  # too late: not taken
    still = queue.advisor.known(left, standard)
    assert still is not None and still.verdict is SolveStatus.LIMIT_REACHED
    queue.request("left", left, standard)  # the player came back to it
    assert queue.searching_further(left, standard)


def test_a_longer_answer_that_does_not_replay_is_not_trusted() -> None:
    from freecell.advisor import Advisor
    from freecell.solver import SearchLimit, SolveStatus
    from freecell.web.worker import QueuedAnalysis, solve_job

    standard = find_rules("standard")
    queue = QueuedAnalysis(Advisor(limit=SearchLimit(positions=1)))
    start = Deal(standard, 1).position()
    queue.request("game", start, standard)
    job = queue.next_job()
    assert job is not None
    queue.solved(json.loads(job)["job"], solve_job(job))
    longer = queue.next_longer_job()
    assert longer is not None
    answer = json.loads(solve_job(longer))
    answer["moves"] = answer["moves"][:-1]  # one move short of the win
    queue.longer_solved(json.loads(longer)["job"], json.dumps(answer))
    known = queue.advisor.known(start, standard)
    assert known is not None and known.verdict is SolveStatus.LIMIT_REACHED
    queue.request("game", start, standard)  # asked again: no second longer search
    assert queue.next_longer_job() is None
