"""The API refuses bad input with a 4xx and a sentence, never a 500."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import serving
from freecell import Deal, find_rules
from freecell.web.api import ENDPOINTS
from freecell.web.app import MAX_BODY


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving.client(serving.make_app(tmp_path / "games.db"), raise_server_exceptions=False) as test_client:
        yield test_client


def refused(client: TestClient, body: object, status: int = 400) -> str:
    response = client.post("/api/games", json=body)
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str)
    return detail


def test_unknown_rules_bad_cells_bad_code_and_bad_deals_are_400(client: TestClient) -> None:
    assert "no ruleset is called 'klondike'" in refused(client, {"rules": "klondike", "deal": 1})
    assert "app is played with 4, 2 or 1 cells, not 3" in refused(client, {"rules": "app", "cells": 3, "deal": 1})
    assert "cells" in refused(client, {"rules": "standard", "cells": -1, "deal": 1})
    assert "not a game code" in refused(client, {"code": "hello"})
    assert "does not check out" in refused(client, {"code": Deal(find_rules("standard"), 617).code()[:-1] + "0"})
    assert "out of range" in refused(client, {"rules": "standard", "deal": 0})
    assert "out of range" in refused(client, {"rules": "standard", "deal": 10**30})
    assert "choose one of deal, code, random or board" in refused(client, {"deal": 1, "random": True})


def test_board_errors_name_the_missing_and_duplicate_cards(client: TestClient) -> None:
    board = Deal(find_rules("standard"), 1).position().to_text()
    missing = board.replace(" JD", "", 1)
    assert refused(client, {"rules": "standard", "board": missing}) == "1 card missing: J♦"
    duplicate = board.replace("2D", "JD", 1)
    assert refused(client, {"rules": "standard", "board": duplicate}).startswith("cards there more than once: J♦")
    assert "not a card" in refused(client, {"rules": "standard", "board": ": ZZ"})


def test_wrong_types_are_422_with_a_sentence(client: TestClient) -> None:
    assert refused(client, {"rules": "standard", "cells": "four"}, 422) == "cells: Input should be a valid integer"
    assert refused(client, {"rules": 7}, 422) == "rules: Input should be a valid string"
    assert refused(client, {"random": "yes"}, 422) == "random: Input should be a valid boolean"
    assert refused(client, [1, 2], 422)
    response = client.post("/api/games", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422 and "JSON" in response.json()["detail"]
    gid = client.post("/api/games", json={"deal": 1}).json()["id"]
    assert client.post(f"/api/games/{gid}/moves", json={"move": 38}).status_code == 422
    assert client.post(f"/api/games/{gid}/moves", json={}).json() == {"detail": "move: Field required"}


def test_a_body_over_the_limit_is_413_whether_declared_or_streamed(client: TestClient) -> None:
    big = b'{"board": "' + b"x" * MAX_BODY + b'"}'
    declared = client.post("/api/games", content=big, headers={"content-type": "application/json"})
    assert declared.status_code == 413 and "64 KB" in declared.json()["detail"]

    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BODY // 1024 + 2):
            yield b" " * 1024

    streamed = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert streamed.status_code == 413
    assert client.post("/api/games", json={"deal": 1}).status_code == 201  # a small body still passes


GARBAGE_BODIES: list[object] = [None, {}, [], "x", 0, {"move": None}, {"move": "\x00" * 10}, {"move": "9" * 40},
                                {"rules": None, "cells": 1.5}, {"board": "\n:::\n" * 20}, {"code": "FC1-ZZ9-N"},
                                {"date": 20261206}, {"date": "2026-13-01"}, {"rules": "\x00", "date": "\x00" * 10}]
GARBAGE_IDS = ["nope", "%00", "a" * 300, "../../etc/passwd", "🂡"]
GARBAGE_QUERIES = [{}, {"source": ""}, {"source": "hx"}, {"count": "-1"}, {"source": "1", "count": "many"},
                   {"empty_cells": "x"}, {"empty_columns": "-3"}, {"empty_cells": "99999999999999999999"},
                   {"date": "9999-99-99"}, {"date": "0001-01-01"}, {"rules": "x" * 100}]


def test_garbage_sent_to_every_endpoint_never_makes_a_500(client: TestClient) -> None:
    real = client.post("/api/games", json={"deal": 1}).json()["id"]
    paths = client.get("/openapi.json").json()["paths"]
    endpoints = [(method.upper(), path) for path, operations in paths.items() for method in operations]
    assert len(endpoints) == len(ENDPOINTS)  # every endpoint the API defines is tried
    endpoints.append(("GET", "/"))
    seen = 0
    for method, template in endpoints:
        ids = [*GARBAGE_IDS, real] if "{" in template else [""]
        shapes = [(body, {}) for body in GARBAGE_BODIES] + [(None, query) for query in GARBAGE_QUERIES]
        for game_id, (body, query) in itertools.product(ids, shapes):
            path = template.replace("{game_id}", game_id).replace("{lesson_id}", game_id)
            response = client.request(method, path, json=body, params=query)
            assert response.status_code < 500, (method, path, body, query, response.text)
            if response.status_code >= 400:
                assert isinstance(response.json()["detail"], str), (method, path, response.text)
            seen += 1
    assert seen > 1500
