"""The solver in play through the API: hints that win, the live verdict, the losing move
and its rewind, winnable-only deals, an imported board solved on request."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import serving
from freecell import Deal, find_rules
from freecell.advisor import Advisor
from freecell.replay import replay
from freecell.solver import SearchLimit
from freecell.web.analysis import AnalysisWorkers
from freecell.web.assistance import Assistance


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    # The in-play limit (3 s) is about play; these tests are about answers, so a loaded
    # machine must not turn a verdict into "unknown".
    service = AnalysisWorkers(Advisor(limit=SearchLimit(seconds=120, positions=300_000, memory_mb=1000)), workers=1)
    app = serving.make_app(Path(tmp_path_factory.mktemp("db")) / "games.db", assistance=Assistance(analyses=service))
    with serving.client(app) as test_client:
        yield test_client


def poll(client: TestClient, path: str, **params: Any) -> dict[str, Any]:
    """GET ``path`` until the solver is no longer thinking."""
    deadline = time.monotonic() + 60
    while True:
        response = client.get(path, params=params)
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        if not answer.get("pending") and answer.get("verdict") != "pending":
            return answer
        assert time.monotonic() < deadline, "the solver never answered"
        time.sleep(0.05)


def new_game(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


@pytest.mark.parametrize(("rules", "deal"), [("standard", 617), ("bakers-game", 4), ("app", 1), ("strict", 2)])
def test_hints_followed_again_and_again_win_the_deal(client: TestClient, rules: str, deal: int) -> None:
    state = new_game(client, rules=rules, deal=deal)
    gid = state["id"]
    for _ in range(400):
        if state["outcome"] == "won":
            break
        hint = poll(client, f"/api/games/{gid}/hint")
        assert hint["verdict"] == "winnable", hint
        assert hint["move"] and hint["text"]
        response = client.post(f"/api/games/{gid}/moves", json={"move": hint["move"]})
        assert response.status_code == 200, response.text
        state = response.json()
    assert state["outcome"] == "won"


def test_the_live_verdict_and_a_winning_line_that_replays(client: TestClient) -> None:
    gid = new_game(client, rules="standard", deal=5)["id"]
    analysis = poll(client, f"/api/games/{gid}/analysis", line=True)
    assert analysis["verdict"] == "winnable" and analysis["losing_move"] is None
    rules = find_rules("standard")
    assert replay(Deal(rules, 5).position(), rules, analysis["line"]).is_won()
    assert poll(client, f"/api/games/{gid}/analysis")["line"] is None  # only when asked for


def test_a_losing_move_is_named_and_rewound(client: TestClient) -> None:
    # With one cell, deal 2 is winnable, and parking column 2's card in the cell loses it.
    gid = new_game(client, rules="standard", cells=1, deal=2)["id"]
    assert poll(client, f"/api/games/{gid}/analysis")["verdict"] == "winnable"
    assert client.post(f"/api/games/{gid}/rewind").status_code == 409  # nothing lost yet
    start = client.get(f"/api/games/{gid}").json()
    client.post(f"/api/games/{gid}/moves", json={"move": "2a"})
    analysis = poll(client, f"/api/games/{gid}/analysis")
    assert analysis["verdict"] == "not-winnable"
    lost = analysis["losing_move"]
    assert lost is not None and lost["move"] == "2a" and lost["moves_back"] == 1
    hint = poll(client, f"/api/games/{gid}/hint")
    assert hint["move"] is None and hint["verdict"] == "not-winnable"
    assert hint["text"].startswith("This position can no longer be won: undo, or rewind")
    assert not client.get(f"/api/games/{gid}").json()["assisted"]
    rewound = client.post(f"/api/games/{gid}/rewind").json()
    assert rewound["columns"] == start["columns"] and rewound["cells"] == start["cells"]
    assert rewound["assisted"]  # the solver took the player back: its help, as a shown line is
    assert poll(client, f"/api/games/{gid}/analysis")["verdict"] == "winnable"


@pytest.mark.parametrize("rules", ["standard", "eight-off", "cardems"])
def test_a_winnable_only_deal_is_won_by_its_line_and_graded(client: TestClient, rules: str) -> None:
    state = new_game(client, rules=rules, winnable=True)
    assert state["difficulty"] in ("easy", "medium", "hard")
    assert state["code"] is not None and state["moves"] == 0
    analysis = poll(client, f"/api/games/{state['id']}/analysis", line=True)
    assert analysis["verdict"] == "winnable"
    deal = Deal.from_code(state["code"])
    assert replay(deal.position(), deal.rules, analysis["line"]).is_won()
    again = client.get(f"/api/games/{state['id']}").json()
    assert again["difficulty"] == state["difficulty"]  # kept with the game


def test_winnable_names_no_deal(client: TestClient) -> None:
    response = client.post("/api/games", json={"rules": "standard", "deal": 3, "winnable": True})
    assert response.status_code == 400 and "random deal" in response.json()["detail"]


def test_an_imported_mid_game_board_is_played_and_solved(client: TestClient) -> None:
    rules = find_rules("standard")
    position = Deal(rules, 617).position()
    for text in ["7a", "7b", "7c", "b7"]:
        position = position.apply(position.parse_move(text, rules), rules)
    state = new_game(client, rules="standard", board=position.to_text())
    assert state["code"] is None and state["deal"] == "imported position"
    gid = state["id"]
    assert client.post(f"/api/games/{gid}/moves", json={"move": "1b"}).status_code == 200
    analysis = poll(client, f"/api/games/{gid}/analysis", line=True)
    assert analysis["verdict"] == "winnable"
    here = position.apply(position.parse_move("1b", rules), rules)
    assert replay(here, rules, analysis["line"]).is_won()


def test_unknown_games_are_404_for_every_assistance_endpoint(client: TestClient) -> None:
    for method, path in [("get", "hint"), ("get", "analysis"), ("post", "rewind")]:
        response = getattr(client, method)(f"/api/games/nope/{path}")
        assert response.status_code == 404 and "nope" in response.json()["detail"]


def test_a_hint_says_how_many_cards_its_move_carries(client: TestClient) -> None:
    rules = find_rules("standard")
    state = new_game(client, rules="standard", deal=617)
    position = Deal(rules, 617).position()
    counts = []
    while state["outcome"] == "playing":
        hint = poll(client, f"/api/games/{state['id']}/hint")
        move = position.parse_move(hint["move"], rules)
        assert hint["count"] == move.count, hint
        counts.append(hint["count"])
        state = client.post(f"/api/games/{state['id']}/moves", json={"move": hint["move"]}).json()
        position = position.apply(move, rules)
    assert max(counts) > 1  # the line moves a run at least once


def test_hints_are_counted_and_a_line_shown_marks_the_game_assisted(client: TestClient) -> None:
    before = client.get("/api/stats").json()[0]
    gid = new_game(client, rules="standard", deal=5)["id"]
    assert poll(client, f"/api/games/{gid}/hint")["move"] is not None
    poll(client, f"/api/games/{gid}/hint")
    state = client.get(f"/api/games/{gid}").json()
    assert state["hints"] == 2 and state["assisted"] is False
    assert poll(client, f"/api/games/{gid}/analysis")["line"] is None
    assert client.get(f"/api/games/{gid}").json()["assisted"] is False  # a verdict alone is no help
    line = poll(client, f"/api/games/{gid}/analysis", line=True)["line"]
    assert client.get(f"/api/games/{gid}").json()["assisted"] is True
    for text in line:
        state = client.post(f"/api/games/{gid}/moves", json={"move": text}).json()
    assert state["outcome"] == "won"
    standard = client.get("/api/stats").json()[0]
    assert standard["assisted"] == before["assisted"] + 1
    assert standard["won"] == before["won"]  # not counted as a win


# Deal "ONE_MOVE_FROM_LOSING" of the browser tests after its losing move 8d: lost already.
LOST_AT_THE_START = """Foundations: H-0 C-0 D-0 S-0
Freecells: KC KD KH KS
: 9H 6S 4C 2H 4D QC
: 7S TH 5H 6C JD QS
: 3S AC 2D 6H 4S JC
: 2C 5S 4H QH QD JS
: 2S JH 9D AH 5D TC
: 6D 7H 7C 8S 8D TS
: 7D 8C 3D TD 5C 9C
: 3C 3H AS AD 9S 8H
"""


def test_a_deal_lost_before_any_move_says_so_and_asks_for_a_new_one(client: TestClient) -> None:
    gid = new_game(client, rules="standard", board=LOST_AT_THE_START)["id"]
    hint = poll(client, f"/api/games/{gid}/hint")
    assert hint["verdict"] == "not-winnable" and hint["move"] is None
    assert hint["text"].startswith("This deal cannot be won") and "undo" not in hint["text"]


def test_an_unknown_verdict_is_searched_further_and_then_known(tmp_path: Path) -> None:
    """An in-play search that decides nothing (here, one position) says "unknown" and
    "searching"; the longer search's verdict follows, and the hint then wins."""
    service = AnalysisWorkers(Advisor(limit=SearchLimit(positions=1)), workers=1, longer=SearchLimit(seconds=120))
    app = serving.make_app(tmp_path / "games.db", assistance=Assistance(analyses=service))
    with serving.client(app) as client:
        gid = new_game(client, rules="standard", deal=617)["id"]
        first = poll(client, f"/api/games/{gid}/analysis")
        assert first["verdict"] == "winnable" or first["searching"], first
        if first["verdict"] == "unknown":
            hint = poll(client, f"/api/games/{gid}/hint")
            assert hint["move"] is not None
            # The longer search may end between the two requests (deal 617 takes it a
            # few milliseconds): then the hint is the win's first move.
            if hint["verdict"] == "unknown":
                assert hint["text"].startswith("The solver could not decide in time;"), hint
            else:
                assert hint["verdict"] == "winnable", hint
        deadline = time.monotonic() + 60
        answer = first
        while answer["verdict"] == "unknown":
            assert answer["searching"] and time.monotonic() < deadline, answer
            time.sleep(0.05)
            answer = poll(client, f"/api/games/{gid}/analysis", line="true")
        assert answer["verdict"] == "winnable" and not answer["searching"]
        answer = poll(client, f"/api/games/{gid}/analysis", line="true")
        assert replay(Deal(find_rules("standard"), 617).position(), find_rules("standard"), answer["line"]).is_won()
        hint = poll(client, f"/api/games/{gid}/hint")
        assert hint["verdict"] == "winnable" and hint["move"] == answer["line"][0]


def test_a_move_from_a_lost_position_is_known_lost_at_once(client: TestClient) -> None:
    gid = new_game(client, rules="standard", deal=11982)["id"]
    assert poll(client, f"/api/games/{gid}/analysis")["verdict"] == "not-winnable"
    start = Deal(find_rules("standard"), 11982).position()
    move = start.notation(start.legal_moves(find_rules("standard"))[0])
    assert client.post(f"/api/games/{gid}/moves", json={"move": move}).status_code == 200
    answer = client.get(f"/api/games/{gid}/analysis").json()  # never waits: no search was needed
    assert answer["verdict"] == "not-winnable", answer
    hint = client.get(f"/api/games/{gid}/hint").json()
    assert hint["verdict"] == "not-winnable" and hint["text"].startswith("This game could not be won from its start")
