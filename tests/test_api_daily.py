"""The daily deal through the API (GET and POST /api/daily), on the server's test client,
with a clock the tests move from day to day; and the static site's dispatcher answering
the same."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import serving
from freecell.codes import decode_game_code
from freecell.daily import daily_deal
from freecell.rules import find_rules
from freecell.store import Store
from freecell.web.assistance import Assistance
from freecell.web.service import Service
from freecell.web.worker import QueuedAnalysis
from serving import Clock


def noon(day: str) -> float:
    return datetime.datetime.fromisoformat(f"{day}T12:00:00+00:00").timestamp()


@pytest.fixture
def clock() -> Clock:
    """The server's clock, at noon UTC on 2026-12-06; the tests move it from day to day."""
    return Clock(noon("2026-12-06"))


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with serving.clocked_client(tmp_path / "games.db", clock) as test_client:
        yield test_client


def win_daily(client: TestClient, day: str, rules: str = "standard") -> dict:  # type: ignore[type-arg]
    """Deal the daily deal of ``day`` and win it with the solver's line."""
    started = client.post("/api/daily", json={"rules": rules, "date": day})
    assert started.status_code == 201, started.text
    state = started.json()
    for text in daily_deal(datetime.date.fromisoformat(day), find_rules(rules)).line:
        answer = client.post(f"/api/games/{state['id']}/moves", json={"move": text})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    assert state["outcome"] == "won"
    return state


def test_the_daily_deal_is_the_days_deal_with_its_grade(client: TestClient) -> None:
    answer = client.get("/api/daily", params={"rules": "app", "date": "2026-12-06"})
    assert answer.status_code == 200, answer.text
    info = answer.json()
    chosen = daily_deal(datetime.date(2026, 12, 6), find_rules("app"))
    assert (info["date"], info["rules"], info["cells"], info["deal"], info["difficulty"]) == (
        "2026-12-06",
        "app",
        find_rules("app").cells,
        chosen.deal.number,
        chosen.difficulty.value,
    )
    assert decode_game_code(info["code"]) == chosen.deal
    assert info["game_id"] is None
    assert info["stats"] == {
        "rules": "app",
        "played": 0,
        "won": 0,
        "current_streak": 0,
        "best_streak": 0,
        "best_seconds": None,
        "fewest_moves": None,
        "assisted": 0,
        "today": None,
    }


def test_a_daily_game_is_the_days_deal_recorded_as_daily_and_apart_from_the_statistics(client: TestClient) -> None:
    state = win_daily(client, "2026-12-06")
    chosen = daily_deal(datetime.date(2026, 12, 6), find_rules("standard"))
    assert (state["daily"], state["difficulty"], state["code"]) == (
        "2026-12-06",
        chosen.difficulty.value,
        chosen.deal.code(),
    )
    info = client.get("/api/daily", params={"date": "2026-12-06"}).json()
    assert (info["game_id"], info["stats"]["today"], info["stats"]["won"], info["stats"]["current_streak"]) == (
        state["id"],
        "won",
        1,
        1,
    )
    assert info["stats"]["fewest_moves"] == len(chosen.line)
    standard = client.get("/api/stats").json()[0]
    assert (standard["played"], standard["won"]) == (0, 0)
    # An ordinary deal's state says it is not daily.
    assert client.post("/api/games", json={"deal": 617}).json()["daily"] is None


def test_the_streak_counts_the_days_won_in_a_row(client: TestClient, clock: Clock) -> None:
    for day in ("2026-12-06", "2026-12-07"):
        clock.now = noon(day)
        win_daily(client, day)
    info = client.get("/api/daily", params={"date": "2026-12-07"}).json()
    assert (info["stats"]["current_streak"], info["stats"]["best_streak"]) == (2, 2)
    clock.now = noon("2026-12-08")  # not won yet today: the streak holds until the day ends
    info = client.get("/api/daily", params={"date": "2026-12-08"}).json()
    assert (info["stats"]["current_streak"], info["stats"]["today"]) == (2, None)
    clock.now = noon("2026-12-10")  # a day missed
    info = client.get("/api/daily", params={"date": "2026-12-10"}).json()
    assert (info["stats"]["current_streak"], info["stats"]["best_streak"], info["stats"]["won"]) == (0, 2, 2)


def test_a_daily_game_left_for_another_counts_as_a_day_played_not_won(client: TestClient) -> None:
    started = client.post("/api/daily", json={"date": "2026-12-06"}).json()
    line = daily_deal(datetime.date(2026, 12, 6), find_rules("standard")).line
    assert client.post(f"/api/games/{started['id']}/moves", json={"move": line[0]}).status_code == 200
    assert client.post("/api/games", json={"deal": 617}).status_code == 201  # abandons the daily game
    stats = client.get("/api/daily", params={"date": "2026-12-06"}).json()["stats"]
    assert (stats["played"], stats["won"], stats["today"]) == (1, 0, "lost")
    assert client.get("/api/stats").json()[0]["played"] == 0


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ({"date": "6/12/2026"}, "YYYY-MM-DD"),
        ({"date": "2026-12-09"}, "not open"),
        ({"date": "2026-02-30"}, "no day"),
        ({"rules": "klondike", "date": "2026-12-06"}, "no ruleset"),
    ],
)
def test_a_bad_day_or_preset_is_refused_with_a_reason(client: TestClient, query: dict, words: str) -> None:  # type: ignore[type-arg]
    answer = client.get("/api/daily", params=query)
    assert answer.status_code == 400 and words in answer.json()["detail"], answer.text
    started = client.post("/api/daily", json=query)
    assert started.status_code == 400 and words in started.json()["detail"], started.text
    assert client.get("/api/current").json() == {"id": None}  # nothing was dealt


def test_the_static_sites_service_gives_the_same_daily_deal(tmp_path: Path, client: TestClient, clock: Clock) -> None:
    from freecell.advisor import Advisor

    site = Service(Store(tmp_path / "site.db"), Assistance(analyses=QueuedAnalysis(Advisor())), now=clock)
    try:
        for rules in ("standard", "double"):
            status, body = site.handle("GET", "/api/daily", f"rules={rules}&date=2026-12-06")
            served = client.get("/api/daily", params={"rules": rules, "date": "2026-12-06"}).json()
            assert (status, body) == (200, served)
    finally:
        site.close()


def test_the_sites_api_worker_takes_a_daily_deal_chosen_by_its_solver_worker_once_checked(tmp_path: Path) -> None:
    from freecell.daily import daily_text, read_daily
    from freecell.errors import InvalidInputError
    from freecell.web.worker import Api, daily_job

    text = daily_job("double", "2026-12-06")
    assert text is not None and read_daily(text) == daily_deal(datetime.date(2026, 12, 6), find_rules("double"))
    assert daily_job("klondike", "2026-12-06") is None and daily_job("double", "6/12/2026") is None
    chosen = read_daily(text)
    forged = [
        daily_text(chosen).replace(f'"number": {chosen.deal.number}', f'"number": {chosen.deal.number % 999_999 + 1}'),
        daily_text(chosen).replace('"tries": 1', '"tries": 2'),
        daily_text(type(chosen)(chosen.day, chosen.deal, chosen.line[:-1], chosen.expanded, chosen.difficulty, 1)),
        "{}",
    ]
    for text_given in forged:
        with pytest.raises(InvalidInputError):
            read_daily(text_given)

    api = Api(str(tmp_path / "site.db"))
    try:
        api.learn_daily(text)

        def no_solving(*arguments: object, **options: object) -> None:
            raise AssertionError("the api worker solved the daily deal itself")

        api.queue.solve = no_solving  # type: ignore[method-assign]
        answer = api.service.assistance.daily(chosen.day, find_rules("double"))
        assert answer == chosen
        assert api.queue.advisor.known(chosen.deal.position(), find_rules("double")) is not None  # hints at once
    finally:
        api.service.close()
