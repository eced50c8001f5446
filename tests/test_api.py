"""The game API: every endpoint, played through FastAPI's test client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import serving
from freecell import Deal, find_rules
from freecell.cards import card_name
from freecell.notation import split_moves
from freecell.web.games import PAGE_GONE_SECONDS
from serving import Clock

# A solution of Microsoft deal 617 (standard rules), as fc-solve printed it.
SOLUTION_617 = split_moves("""
7a 7b 7c b7 1b 71 7h 83 8h 4d 46 83 48 74 b7 2b 27 a2 82 8a 8h d8 48 4d 4h 1h d7 8d 8h d4
16 1h 48 21 a4 2d 24 2a 2h 8h 6h ch 8h 6h 6h d6 3c 3d 32 3h d2 c2 3d 3c 3h 8h 6h 38 3h 6h
6h 53 5h 6h a6 51 5a 5h 5h ah 6h 1h ch 7a 7h 6c 6h 1h 6h dh 2h 1d 15 1h dh 3h bh 1d 1b 16
1h ch ah bh 6h 5h 7h 8h 4h 2h dh 4h 2h
""")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with serving.clocked_client(tmp_path / "games.db", clock) as test_client:
        yield test_client


def new_game(client: TestClient, **body: object) -> dict:  # type: ignore[type-arg]
    response = client.post("/api/games", json=body or {"rules": "standard", "deal": 617})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def move(client: TestClient, game_id: str, text: str, status: int = 200) -> dict:  # type: ignore[type-arg]
    response = client.post(f"/api/games/{game_id}/moves", json={"move": text})
    assert response.status_code == status, response.text
    return response.json()  # type: ignore[no-any-return]


def columns_of(deal: Deal) -> list[list[str]]:
    return [[card_name(card) for card in column] for column in deal.position().columns]


# --- rules -------------------------------------------------------------------------------


def test_rules_list_every_preset_with_its_panel_and_our_help(client: TestClient) -> None:
    rules = {entry["name"]: entry for entry in client.get("/api/rules").json()}
    assert list(rules) == ["standard", "strict", "supermove", "bakers-game", "eight-off", "double", "app", "cardems"]
    assert "(empty free cells + 1) cards, doubled for each empty column" in rules["standard"]["text"]
    assert "100 actions" in rules["app"]["text"] and rules["app"]["tap_to_foundation"] is True
    assert "-15" in rules["cardems"]["text"] and rules["cardems"]["takes_back"] is True
    assert "Only a king may fill an empty column" in rules["eight-off"]["text"]
    assert "two for each suit" in rules["double"]["text"]
    assert rules["app"]["cell_options"] == [4, 2, 1] and rules["app"]["undo_limit"] == 100
    assert rules["bakers-game"]["building"] == "same-suit"
    assert all(entry["help"].startswith("Our help") and entry["help"] not in entry["text"] for entry in rules.values())


# --- starting a game ----------------------------------------------------------------------


def test_a_deal_by_number(client: TestClient) -> None:
    state = new_game(client, rules="standard", cells=4, deal=617)
    deal = Deal(find_rules("standard"), 617)
    assert state["columns"] == columns_of(deal)
    assert state["code"] == deal.code() and state["deal"] == "deal 617, 4 cells"
    assert state["cells"] == [None] * 4
    assert [f["suit"] for f in state["foundations"]] == ["C", "D", "H", "S"]
    assert (state["moves"], state["score"], state["outcome"], state["lesson"]) == (0, None, "playing", None)
    assert state["capacity"] == {"empty_cells": 4, "empty_columns": 0, "to_occupied": 5, "to_empty": 0}
    assert len(state["id"]) >= 20


def test_a_deal_by_code_brings_its_rules_and_cells(client: TestClient) -> None:
    deal = Deal(find_rules("app", cells=2), 11982)
    state = new_game(client, code=deal.code())
    assert state["rules"]["name"] == "app" and state["rules"]["cells"] == 2
    assert state["columns"] == columns_of(deal) and state["cells"] == [None, None]
    assert state["score"] == 0


def test_a_random_deal_has_a_code_that_deals_it_again(client: TestClient) -> None:
    first = new_game(client, rules="double", random=True)
    assert first["code"].startswith("FC1-DF6-R") and len(first["columns"]) == 10
    again = new_game(client, code=first["code"])
    assert again["columns"] == first["columns"] and again["id"] != first["id"]
    assert len(new_game(client, rules="standard")["columns"]) == 8  # none named: random


def test_an_imported_board_has_no_code(client: TestClient) -> None:
    board = Deal(find_rules("standard"), 5).position().to_text()
    state = new_game(client, rules="standard", board=board)
    assert state["code"] is None and state["deal"] == "imported position"
    assert state["columns"] == columns_of(Deal(find_rules("standard"), 5))


def test_an_imported_board_laid_out_for_other_rules_is_refused_naming_them(client: TestClient) -> None:
    board = Deal(find_rules("eight-off"), 617).position().to_text()
    response = client.post("/api/games", json={"rules": "standard", "board": board})
    assert response.status_code == 400, response.text
    assert "it looks like eight-off" in response.json()["detail"]


# --- moves, undo, redo, restart -----------------------------------------------------------


def test_a_move_is_played_and_counted(client: TestClient) -> None:
    game = new_game(client)
    state = move(client, game["id"], "7a")
    assert state["cells"][0] == game["columns"][6][-1]
    assert state["moves"] == 1 and state["last"] == ["7a"] and state["can_undo"]
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == 1


def test_an_illegal_or_malformed_move_is_400_and_changes_nothing(client: TestClient) -> None:
    game = new_game(client)
    before = client.get(f"/api/games/{game['id']}").json()
    assert move(client, game["id"], "12", 400)["detail"] == (
        "J♦ cannot go on K♠: a card goes on one rank higher in the other colour"
    )
    assert "not a move" in move(client, game["id"], "x9", 400)["detail"]
    assert "there is no column 9" in move(client, game["id"], "19", 400)["detail"]
    assert "the source is empty" in move(client, game["id"], "hs1", 400)["detail"]
    assert client.get(f"/api/games/{game['id']}").json() == before


def test_explicit_counts_are_checked(client: TestClient) -> None:
    game = new_game(client)
    for text in ["7a", "7b", "7c", "b7"]:
        move(client, game["id"], text)
    assert move(client, game["id"], "1bv1")["last"] == ["1b"]
    assert "are not an ordered run" in move(client, game["id"], "71v3", 400)["detail"]
    assert move(client, game["id"], "71v2")["last"] == ["71"]


def test_undo_redo_and_their_409s(client: TestClient) -> None:
    game = new_game(client)
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/undo").json() == {"detail": "there is nothing to undo"}
    assert client.post(f"/api/games/{gid}/undo").status_code == 409
    assert client.post(f"/api/games/{gid}/redo").status_code == 409
    move(client, gid, "7a")
    undone = client.post(f"/api/games/{gid}/undo").json()
    assert undone["columns"] == game["columns"] and undone["moves"] == 0 and undone["can_redo"]
    redone = client.post(f"/api/games/{gid}/redo").json()
    assert redone["last"] == ["7a"] and redone["moves"] == 1


def test_restart_goes_back_to_the_deal(client: TestClient) -> None:
    game = new_game(client)
    for text in ["7a", "7b"]:
        move(client, game["id"], text)
    state = client.post(f"/api/games/{game['id']}/restart").json()
    assert state["columns"] == game["columns"] and state["moves"] == 0 and not state["can_undo"]


def test_strict_rules_play_a_run_as_single_card_moves(client: TestClient) -> None:
    game = new_game(client, rules="strict", deal=617)
    for text in ["7a", "7b", "7c", "b7", "1b"]:
        move(client, game["id"], text)
    state = move(client, game["id"], "71")
    assert state["last"] == ["7d", "71", "d1"] and state["moves"] == 8


def test_scoring_and_take_back_in_the_app_preset(client: TestClient) -> None:
    game = new_game(client, rules="app", deal=617)
    gid = game["id"]
    for text in SOLUTION_617[:7]:  # 7h sends a card home
        state = move(client, gid, text)
    assert state["last"] == ["7h"] and state["score"] == 15  # +5 for b7, +10 for 7h
    home = next(f for f in state["foundations"] if f["height"])
    source = "h" + home["suit"].lower()
    targets = client.get(f"/api/games/{gid}/destinations", params={"source": source}).json()["targets"]
    assert targets and all(t.isdigit() for t in targets)
    assert move(client, gid, source + targets[0])["score"] == 15  # a take-back costs nothing in 001


# --- the clock ------------------------------------------------------------------------------


def test_the_clock_runs_pauses_and_stops_at_the_win(client: TestClient, clock: Clock) -> None:
    game = new_game(client)
    gid = game["id"]
    clock.now += 30
    assert client.get(f"/api/games/{gid}").json()["elapsed_seconds"] == 30
    paused = client.post(f"/api/games/{gid}/pause").json()
    assert paused["paused"]
    clock.now += 600
    assert client.post(f"/api/games/{gid}/pause").json()["elapsed_seconds"] == 30  # pausing twice is nothing
    resumed = client.post(f"/api/games/{gid}/resume").json()
    assert not resumed["paused"] and resumed["elapsed_seconds"] == 30
    clock.now += 10
    client.post(f"/api/games/{gid}/pause")
    clock.now += 100
    assert move(client, gid, "7a")["elapsed_seconds"] == 40  # a move resumes the clock
    assert not client.get(f"/api/games/{gid}").json()["paused"]


def test_the_time_no_page_asked_about_a_game_is_kept_off_its_clock(tmp_path: Path, clock: Clock) -> None:
    """A browser that quits sends no pause: a request after a silence of PAGE_GONE_SECONDS
    or more logs a pause when the game was last asked about and a resume now. A page's
    heartbeats, or a paused clock, keep everything as it was."""
    db = tmp_path / "games.db"
    with serving.clocked_client(db, clock) as client:
        gid = new_game(client)["id"]
        for _ in range(20):  # a page showing the game, asking every 30 s: all of it counts
            clock.now += 30
            assert client.get(f"/api/games/{gid}").json()["elapsed_seconds"] == clock.now - 1000
        assert client.get(f"/api/games/{gid}").json()["elapsed_seconds"] == 600
        clock.now += PAGE_GONE_SECONDS - 1
        assert move(client, gid, "7a")["elapsed_seconds"] == 600 + PAGE_GONE_SECONDS - 1  # not long enough
        clock.now += 3600  # the browser quit
        came_back = client.get(f"/api/games/{gid}").json()
        assert came_back["elapsed_seconds"] == 600 + PAGE_GONE_SECONDS - 1 and not came_back["paused"]
        clock.now += 5
        assert client.get(f"/api/games/{gid}").json()["elapsed_seconds"] == 600 + PAGE_GONE_SECONDS + 4
        client.post(f"/api/games/{gid}/pause")
        clock.now += 3600  # paused: nothing to take off, nothing logged
        assert client.post(f"/api/games/{gid}/resume").json()["elapsed_seconds"] == 600 + PAGE_GONE_SECONDS + 4
    with serving.clocked_client(db, clock) as client:  # the log holds it: a new server agrees
        assert client.get(f"/api/games/{gid}").json()["elapsed_seconds"] == 600 + PAGE_GONE_SECONDS + 4


# --- destinations, hint, capacity ------------------------------------------------------------


def test_destinations_for_a_source_and_count(client: TestClient) -> None:
    game = new_game(client)
    gid = game["id"]
    seven = client.get(f"/api/games/{gid}/destinations", params={"source": "7"}).json()
    assert seven == {"targets": ["a", "b", "c", "d"]}
    for text in ["7a", "7b", "7c", "b7", "1b"]:
        move(client, gid, text)
    two = client.get(f"/api/games/{gid}/destinations", params={"source": "7", "count": 2}).json()["targets"]
    assert two == ["1"]
    assert client.get(f"/api/games/{gid}/destinations", params={"source": "7", "count": 9}).json() == {"targets": []}
    bad = client.get(f"/api/games/{gid}/destinations", params={"source": "z"})
    assert bad.status_code == 400 and "no place 'z'" in bad.json()["detail"]
    assert client.get(f"/api/games/{gid}/destinations", params={"source": "9"}).status_code == 400
    assert client.get(f"/api/games/{gid}/destinations", params={"source": "1", "count": 0}).status_code == 422


def test_no_hint_when_no_legal_move_is_left(client: TestClient) -> None:
    state = new_game(client, rules="standard", cells=0, deal=1)  # deal 1 without cells: stuck at once
    assert state["outcome"] == "lost"
    assert client.get(f"/api/games/{state['id']}/hint").json() == {
        "move": None, "source": None, "target": None, "count": None, "text": "No legal move is left",
        "verdict": "not-winnable", "pending": False, "searching": False,
    }


def test_the_capacity_calculator_fills_in_the_formula(client: TestClient) -> None:
    gid = new_game(client)["id"]
    assert client.get(f"/api/games/{gid}/capacity").json() == {
        "empty_cells": 4, "empty_columns": 0, "to_occupied": 5, "to_empty": 0,
        "formula_occupied": "4 + 1 = 5", "formula_empty": "no empty column",
    }
    what_if = client.get(f"/api/games/{gid}/capacity", params={"empty_cells": 2, "empty_columns": 1}).json()
    assert what_if["formula_occupied"] == "(2 + 1) × 2 = 6" and what_if["formula_empty"] == "2 + 1 = 3"
    assert client.get(f"/api/games/{gid}/capacity", params={"empty_cells": 5}).status_code == 400
    assert client.get(f"/api/games/{gid}/capacity", params={"empty_columns": 9}).status_code == 400
    eight_off = new_game(client, rules="eight-off", deal=1)["id"]
    kings_only = client.get(f"/api/games/{eight_off}/capacity", params={"empty_cells": 3, "empty_columns": 2}).json()
    assert kings_only["to_occupied"] == 4 and kings_only["formula_occupied"] == "3 + 1 = 4"


# --- winning, finishing, statistics -------------------------------------------------------------


def test_a_won_game_is_finished_automatically_and_counted(client: TestClient, clock: Clock) -> None:
    gid = new_game(client)["id"]
    assert client.post(f"/api/games/{gid}/finish").status_code == 409
    played = 0
    for text in SOLUTION_617:
        clock.now += 1
        state = move(client, gid, text)
        played += 1
        if state["can_finish"]:
            break
    assert played < len(SOLUTION_617)
    finished = client.post(f"/api/games/{gid}/finish").json()
    assert finished["outcome"] == "won" and all(f["height"] == 13 for f in finished["foundations"])
    assert len(finished["last"]) == 52 - sum(f["height"] for f in state["foundations"])
    assert finished["moves"] == played + len(finished["last"])
    assert finished["elapsed_seconds"] == played
    for action in ["undo", "redo", "finish"]:
        assert client.post(f"/api/games/{gid}/{action}").status_code == 409
    assert move(client, gid, "1h", 409)["detail"].startswith("the game is won")
    standard = client.get("/api/stats").json()[0]
    assert standard == {
        "rules": "standard", "played": 1, "won": 1, "lost": 0, "current_streak": 1, "best_streak": 1,
        "best_seconds": played, "fewest_moves": finished["moves"], "assisted": 0, "hints": 0,
    }
    again = client.post(f"/api/games/{gid}/restart").json()  # a new attempt at the same deal
    assert again["outcome"] == "playing" and again["elapsed_seconds"] == 0


def test_a_new_deal_abandons_the_game_in_progress(client: TestClient) -> None:
    untouched = new_game(client)["id"]
    first = new_game(client)["id"]  # replaces a game with no move: not counted
    move(client, first, "7a")
    second = new_game(client, rules="standard", deal=618)["id"]
    assert client.get("/api/stats").json()[0]["lost"] == 1
    assert client.get("/api/stats").json()[0]["played"] == 1
    old = client.get(f"/api/games/{first}").json()
    assert old["abandoned"] and not old["can_undo"]
    assert move(client, first, "7b", 409)["detail"].startswith("this game was replaced")
    assert client.get("/api/current").json() == {"id": second}
    assert not client.get(f"/api/games/{untouched}").json()["abandoned"]


def test_exports(client: TestClient) -> None:
    gid = new_game(client)["id"]
    move(client, gid, "7a")
    new_game(client)
    exported = client.get("/api/stats.json")
    assert exported.json() == client.get("/api/stats").json()
    assert exported.headers["content-disposition"] == 'attachment; filename="freecell-stats.json"'
    csv = client.get("/api/stats.csv")
    assert csv.headers["content-type"].startswith("text/csv")
    assert "attachment" in csv.headers["content-disposition"]
    assert csv.text.splitlines()[:2] == [
        "rules,played,won,lost,current_streak,best_streak,best_seconds,fewest_moves,assisted,hints",
        "standard,1,0,1,0,0,,,0,0",
    ]


# --- current game, isolation, persistence ------------------------------------------------------


def test_current_is_null_until_a_game_starts(client: TestClient) -> None:
    first = client.get("/api/current")
    assert first.status_code == 200 and first.json() == {"id": None}
    gid = new_game(client)["id"]
    assert client.get("/api/current").json() == {"id": gid}


def test_games_are_isolated(client: TestClient) -> None:
    one = new_game(client)["id"]
    two = new_game(client, rules="standard", deal=617)["id"]
    move(client, two, "7a")
    assert client.get(f"/api/games/{one}").json()["moves"] == 0
    assert client.get("/api/games/not-a-game").status_code == 404
    assert client.post("/api/games/not-a-game/moves", json={"move": "7a"}).json() == {
        "detail": "there is no game 'not-a-game': start a new one"
    }


def test_a_new_server_on_the_same_store_continues_every_game(tmp_path: Path) -> None:
    with serving.client(serving.make_app(tmp_path / "games.db")) as first:
        gid = new_game(first, rules="app", deal=617)["id"]
        for text in SOLUTION_617[:10]:
            move(first, gid, text)
        first.post(f"/api/games/{gid}/undo")
        first.post(f"/api/games/{gid}/pause")
        before = first.get(f"/api/games/{gid}").json()
    with serving.client(serving.make_app(tmp_path / "games.db")) as second:
        after = second.get(f"/api/games/{gid}").json()
        assert after == before
        assert second.get("/api/current").json() == {"id": gid}
        assert second.post(f"/api/games/{gid}/redo").json()["moves"] == 10


# --- lessons ---------------------------------------------------------------------------------------


def test_a_lesson_is_a_game_that_checks_each_step(client: TestClient) -> None:
    lessons = client.get("/api/lessons").json()
    assert len(lessons) >= 4 and {"id": "foundations", "title": "Foundations"}.items() <= lessons[2].items()
    state = client.post("/api/lessons/foundations")
    assert state.status_code == 201
    lesson = state.json()
    gid = lesson["id"]
    assert lesson["lesson"]["step"] == 1 and lesson["lesson"]["steps"] == 5 and not lesson["lesson"]["done"]
    assert lesson["code"] is None and lesson["deal"] == "lesson: Foundations"
    assert "cannot go home yet" in move(client, gid, "3h", 400)["detail"]
    assert "not what this step asks" in move(client, gid, "1a", 400)["detail"]
    for text in ["1h", "2h", "1h", "3h"]:
        state_json = move(client, gid, text)
    assert state_json["lesson"]["step"] == 5
    undone = client.post(f"/api/games/{gid}/undo").json()
    assert undone["lesson"]["step"] == 4
    client.post(f"/api/games/{gid}/redo")
    done = move(client, gid, "3h")
    assert done["lesson"]["done"] and done["outcome"] == "won" and done["lesson"]["text"].startswith("Done")
    assert move(client, gid, "1h", 409)["detail"].startswith("the game is won")
    back = client.post(f"/api/games/{gid}/undo").json()  # a done lesson may still go back a step
    assert back["lesson"]["step"] == 5 and not back["lesson"]["done"] and back["outcome"] == "playing"
    assert client.get("/api/stats").json()[0]["played"] == 0  # lessons are not counted
    assert client.post("/api/lessons/juggling").status_code == 404


def test_the_take_back_lesson_is_played_under_cardems(client: TestClient) -> None:
    lesson = client.post("/api/lessons/take-back").json()
    assert lesson["rules"]["name"] == "cardems" and lesson["foundations"][3]["top"] == "6S"
    assert "not what this step asks" in move(client, lesson["id"], "75", 400)["detail"]  # JC on QH: legal
    back = move(client, lesson["id"], "hs1")
    assert back["columns"][0] == ["7H", "6S"] and back["score"] == 0 and back["lesson"]["step"] == 2
    assert move(client, lesson["id"], "21")["lesson"]["done"]


def test_the_page_is_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "html" in page.headers["content-type"]


@pytest.mark.parametrize("rules", ["strict", "app", "cardems", "double", "eight-off", "bakers-game"])
def test_replaying_the_log_rebuilds_exactly_the_game_it_wrote(tmp_path: Path, rules: str) -> None:
    import random

    from freecell.web.hint import move_worth_trying

    chooser = random.Random(rules)
    with serving.client(serving.make_app(tmp_path / "games.db")) as first:
        gid = new_game(first, rules=rules, deal=chooser.randint(1, 32000))["id"]
        games = first.app.state.games  # type: ignore[attr-defined]
        for _ in range(60):
            roll = chooser.random()
            if roll < 0.15:
                first.post(f"/api/games/{gid}/undo")
            elif roll < 0.22:
                first.post(f"/api/games/{gid}/redo")
            elif roll < 0.24:
                first.post(f"/api/games/{gid}/pause")
            else:
                game = games.get(gid).game
                legal = game.legal_moves() or []
                undone = game.history[-1].before if game.history else None
                chosen = chooser.choice(legal) if legal and roll < 0.6 else move_worth_trying(
                    game.position, game.rules, undone=undone
                )
                if chosen is None:
                    break
                move(first, gid, game.position.notation(chosen))
        first.post(f"/api/games/{gid}/pause")
        before = first.get(f"/api/games/{gid}").json()
    with serving.client(serving.make_app(tmp_path / "games.db")) as second:
        assert second.get(f"/api/games/{gid}").json() == before


# --- links, safe cards home, the clock on restart ------------------------------------------


def test_a_new_game_plays_the_moves_a_link_gives(client: TestClient) -> None:
    code = Deal(find_rules("standard"), 617).code()
    state = new_game(client, code=code, moves=SOLUTION_617[:10])
    assert state["moves"] == 10 and state["played"] == SOLUTION_617[:10]
    assert state["last"] == []
    # An undo takes back the last of them, as after any move.
    undone = client.post(f"/api/games/{state['id']}/undo").json()
    assert undone["played"] == SOLUTION_617[:9]
    # The same table as playing them one by one.
    other = new_game(client, rules="standard", deal=617)
    for text in SOLUTION_617[:9]:
        move(client, other["id"], text)
    assert client.get(f"/api/games/{other['id']}").json()["columns"] == undone["columns"]


def test_a_link_with_a_move_that_cannot_be_played_is_refused_and_nothing_starts(client: TestClient) -> None:
    first = new_game(client)
    response = client.post("/api/games", json={"rules": "standard", "deal": 617, "moves": ["7a", "7h"]})
    assert response.status_code == 400
    assert response.json()["detail"].startswith("move 2 ('7h') is illegal: ")
    assert client.get("/api/current").json() == {"id": first["id"]}


def test_safe_cards_go_home_by_themselves_when_asked(client: TestClient) -> None:
    # Deal 617: the aces of the solution's first foundation moves go home unasked.
    plain = new_game(client)
    auto = new_game(client, rules="standard", deal=617, auto_home=True)
    assert auto["auto_home"] and not plain["auto_home"]
    for text in SOLUTION_617[:6]:  # 7a 7b 7c b7 1b 71: the next move of the line is 7h
        state = move(client, auto["id"], text)
        unasked = move(client, plain["id"], text)
    assert sum(pile["height"] for pile in unasked["foundations"]) == 0
    assert sum(pile["height"] for pile in state["foundations"]) >= 1
    assert state["last"][0] == "71" and state["last"][1:] and all(t.endswith("h") for t in state["last"][1:])
    assert state["played"] == SOLUTION_617[:6] + state["last"][1:]
    # Turned off, nothing more goes home by itself; turned on again, it does.
    off = client.post(f"/api/games/{auto['id']}/options", json={"auto_home": False}).json()
    assert off["auto_home"] is False
    assert client.post(f"/api/games/{auto['id']}/options", json={"auto_home": "yes"}).status_code == 422


def test_restart_starts_the_clock_again(client: TestClient, clock: Clock) -> None:
    gid = new_game(client)["id"]
    clock.now += 30
    move(client, gid, "7a")
    clock.now += 5
    again = client.post(f"/api/games/{gid}/restart").json()
    assert again["moves"] == 0 and again["elapsed_seconds"] == 0
    clock.now += 7
    assert client.get(f"/api/games/{gid}").json()["elapsed_seconds"] == 7


def test_a_random_deal_under_microsoft_rules_is_a_microsoft_number(client: TestClient) -> None:
    state = new_game(client, rules="standard", random=True)
    number = int(state["deal"].split()[1].rstrip(","))
    assert state["deal"].startswith("deal ") and 1 <= number <= 8_589_934_591
    assert state["code"] == Deal(find_rules("standard"), number).code()
    double = new_game(client, rules="double", random=True)
    assert double["deal"].startswith("random deal ")
