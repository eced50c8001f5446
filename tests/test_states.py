"""The places the state names for the page (``places``, ``last_places``): the letters of
each place in standard notation and its name, so that the page never reads the notation."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import serving
from freecell.notation import parse_move_text

OPENING = ["7a", "7b", "7c", "b7", "1b", "71"]  # leaves the ace of spades exposed in column 7


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving.client(serving.make_app(tmp_path / "games.db")) as test_client:
        yield test_client


def new_game(client: TestClient, **body: object) -> dict:  # type: ignore[type-arg]
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def play(client: TestClient, game_id: str, text: str) -> dict:  # type: ignore[type-arg]
    response = client.post(f"/api/games/{game_id}/moves", json={"move": text})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def test_the_standard_table_names_its_places(client: TestClient) -> None:
    places = new_game(client, rules="standard", deal=617)["places"]
    assert places["columns"][0] == {"source": "1", "target": "1", "name": "column 1"}
    assert [place["target"] for place in places["columns"]] == list("12345678")
    assert places["cells"] == [{"source": letter, "target": letter, "name": f"free cell {letter}"} for letter in "abcd"]
    assert places["foundations"] == [
        {"source": "hc", "target": "h", "name": "clubs foundation"},
        {"source": "hd", "target": "h", "name": "diamonds foundation"},
        {"source": "hh", "target": "h", "name": "hearts foundation"},
        {"source": "hs", "target": "h", "name": "spades foundation"},
    ]


def test_every_table_names_as_many_places_as_it_has(client: TestClient) -> None:
    for rules, cells in [("eight-off", 8), ("double", 6), ("app", 1), ("standard", 0)]:
        state = new_game(client, rules=rules, cells=cells, deal=5)
        places = state["places"]
        assert len(places["columns"]) == len(state["columns"])
        assert len(places["cells"]) == len(state["cells"]) == cells
        assert len(places["foundations"]) == len(state["foundations"])
    eight_off = new_game(client, rules="eight-off", deal=5)["places"]
    assert [place["target"] for place in eight_off["cells"]] == list("abcdefgk")  # h is the foundations
    double = new_game(client, rules="double", deal=5)["places"]
    assert double["columns"][9] == {"source": "0", "target": "0", "name": "column 0"}
    assert [place["name"] for place in double["foundations"][3:5]] == ["spades foundation", "clubs foundation 2"]
    assert double["foundations"][6]["source"] == "hh"


def test_last_places_follow_the_moves_just_played(client: TestClient) -> None:
    game = new_game(client, rules="cardems", deal=617)
    for text in OPENING:
        state = play(client, game["id"], text)
    assert state["last"] == ["71"] and state["last_places"] == [{"source": "7", "target": "1"}]
    home = play(client, game["id"], "7h")
    assert home["last_places"][0] == {"source": "7", "target": "h"}
    back = play(client, game["id"], "hsd")
    assert back["last"] == ["hsd"] and back["last_places"] == [{"source": "hs", "target": "d"}]
    # Each entry reads its move of `last`, automatic moves included.
    for text, places in zip(back["last"], back["last_places"], strict=True):
        assert text.startswith(places["source"]) and parse_move_text(text).target == places["target"]
    # A state not answering a move names no last moves.
    assert client.get(f"/api/games/{game['id']}").json()["last_places"] == []
