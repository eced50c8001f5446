"""The game review through the API: on a server started as a player starts it (the printed
address and its token), and through the static site's dispatcher (the same Service, with
the site's queue of jobs solved here in turn)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import serving
from freecell import Deal, find_rules
from freecell.advisor import Advisor
from freecell.cards import card_name
from freecell.solver import SearchLimit
from freecell.store import Store
from freecell.web.api import dispatch
from freecell.web.assistance import Assistance
from freecell.web.service import Service
from freecell.web.worker import QueuedAnalysis, solve_job

STANDARD = find_rules("standard")
# The in-play limit's positions with a clock generous enough that a loaded machine does
# not turn a verdict into "unknown" (the tests are about answers, not speed).
LIMIT_TEXT = "120s,300k,600MB"
LIMIT = SearchLimit(seconds=120, positions=300_000, memory_mb=600)

Ask = Callable[[str, str, Any], tuple[int, Any]]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[serving.Served]:
    served = serving.start(tmp_path_factory.mktemp("review"), "--hint-limit", LIMIT_TEXT, "--longer-limit", "none")
    yield served
    served.stop()


@pytest.fixture(scope="module")
def on_the_server(server: serving.Served) -> Iterator[Ask]:
    with httpx.Client(base_url=server.base, headers=server.headers, timeout=60) as client:

        def ask(method: str, path: str, body: Any = None) -> tuple[int, Any]:
            response = client.request(method, path, json=body)
            return response.status_code, response.json()

        yield ask


@pytest.fixture
def on_the_site(tmp_path: Path) -> Iterator[Ask]:
    """The site's API worker, whose solver worker is played here: after each request,
    the job it queued (if any) is solved and handed back, as the page does."""
    queue = QueuedAnalysis(Advisor(limit=LIMIT), longer=None)
    service = Service(Store(tmp_path / "site.db"), Assistance(analyses=queue))

    def ask(method: str, path: str, body: Any = None) -> tuple[int, Any]:
        path, _, query = path.partition("?")
        answer = dispatch(service, method, path, query, body)
        job = queue.next_job()
        if job is not None:
            queue.solved(json.loads(job)["job"], solve_job(job))
        return answer

    yield ask
    service.close()


def complete_review(ask: Ask, game_id: str) -> tuple[dict[str, Any], int]:
    """Ask for the review until it is complete: the last answer, and how many were asked."""
    deadline = time.monotonic() + 300
    asked = 0
    while True:
        status, review = ask("GET", f"/api/games/{game_id}/review", None)
        asked += 1
        assert status == 200, review
        if review["complete"]:
            return review, asked
        assert time.monotonic() < deadline, "the review never completed"
        time.sleep(0.05)


def play(ask: Ask, *moves: str, deal: int = 617) -> str:
    status, state = ask("POST", "/api/games", {"rules": "standard", "deal": deal})
    assert status == 201, state
    for move in moves:
        status, state = ask("POST", f"/api/games/{state['id']}/moves", {"move": move})
        assert status == 200, state
    return str(state["id"])


@pytest.fixture(params=["server", "site"])
def ask(request: pytest.FixtureRequest) -> Ask:
    fixture: Ask = request.getfixturevalue("on_the_server" if request.param == "server" else "on_the_site")
    return fixture


def test_a_lost_617_is_reviewed_move_by_move_with_the_move_that_lost_it(ask: Ask) -> None:
    """1a 1b 1c from deal 617 (standard) ends lost: the review fills in, marks the loss,
    shows the table each step left, and an undo in between as a step back."""
    game = play(ask, "1a", "1b")
    status, undone = ask("POST", f"/api/games/{game}/undo", None)
    assert status == 200, undone
    for move in ("1b", "1c"):
        status, state = ask("POST", f"/api/games/{game}/moves", {"move": move})
        assert status == 200, state
    status, first = ask("GET", f"/api/games/{game}/review", None)
    assert status == 200 and first["outcome"] == "playing"  # moves are left: the game goes on, lost
    review, _ = complete_review(ask, game)
    steps = review["steps"]
    assert [step["kind"] for step in steps] == ["move", "move", "undo", "move", "move"]
    assert [step["move"] for step in steps] == ["1a", "1b", None, "1b", "1c"]
    assert steps[2]["text"].startswith("Took back ") and steps[2]["returns_to"] == 1
    assert steps[-1]["verdict"] == "not-winnable"
    assert review["start"]["verdict"] == "winnable"
    lost_at = review["lost_at"]
    assert lost_at in (4, 5)
    assert [step["loses"] for step in steps[3:]] == [step["number"] == lost_at for step in steps[3:]]
    assert all(step["verdict"] == "winnable" for step in steps[3 : lost_at - 1])
    assert review["moves_played"] == 3 and review["solution_moves"] > 10
    # Each step shows the table it left: 1c's leaves three cards of column 1 in the cells.
    shown = steps[-1]
    expected = Deal(STANDARD, 617).position()
    for move in ("1a", "1b", "1c"):
        expected = expected.apply_unchecked(expected.parse_move(move, STANDARD))
    assert shown["columns"][0] == [card_name(card) for card in expected.columns[0]]
    assert [cell for cell in shown["cells"] if cell] == [card_name(c) for c in expected.cells if c is not None]


def test_a_won_game_is_winnable_throughout(ask: Ask) -> None:
    game = play(ask)
    # Following the solver's line to the end wins; the review then needs no search.
    line = _solution(ask, game)
    for move in line:
        status, state = ask("POST", f"/api/games/{game}/moves", {"move": move})
        assert status == 200, state
    assert state["outcome"] == "won"
    review, _ = complete_review(ask, game)
    assert review["outcome"] == "won"
    assert {step["verdict"] for step in review["steps"]} == {"winnable"}
    assert review["lost_at"] is None
    assert review["moves_played"] == review["solution_moves"] == len(line)


def _solution(ask: Ask, game: str) -> list[str]:
    deadline = time.monotonic() + 300
    while True:
        status, analysis = ask("GET", f"/api/games/{game}/analysis?line=true", None)
        assert status == 200, analysis
        if analysis["line"]:
            return list(analysis["line"])
        assert analysis["verdict"] == "pending" and time.monotonic() < deadline, analysis
        time.sleep(0.05)


def test_an_abandoned_game_is_reviewed_and_played_on_from_a_step_as_an_assisted_game(ask: Ask) -> None:
    """A game left for a new deal is reviewed as abandoned; "play on" from its step 1 is
    a new game at that position, marked assisted."""
    game = play(ask, "58", "5a")
    play(ask, deal=1)  # a new deal: the game of 617 is abandoned
    review, _ = complete_review(ask, game)
    assert review["outcome"] == "abandoned"
    assert [step["verdict"] for step in review["steps"]] == ["winnable", "winnable"]
    status, state = ask("POST", f"/api/games/{game}/play-on", {"step": 1})
    assert status == 201, state
    assert state["assisted"] is True and state["moves"] == 0
    assert state["columns"] == review["steps"][0]["columns"]
    assert state["cells"] == review["steps"][0]["cells"]
    status, refused = ask("POST", f"/api/games/{game}/play-on", {"step": 3})
    assert status == 400 and "no step 3" in refused["detail"]
    status, refused = ask("POST", f"/api/games/{game}/play-on", {"step": -1})
    assert status == 422
    status, refused = ask("GET", "/api/games/nope/review", None)
    assert status == 404


def test_the_review_asks_the_solver_about_few_positions(on_the_site: Ask) -> None:
    """The 617 game lost in three moves: the start, then a bisection of three positions."""
    game = play(on_the_site, "1a", "1b", "1c")
    _, asked = complete_review(on_the_site, game)
    assert asked <= 1 + 3 + 1  # each request has one position judged; the last finds it complete


