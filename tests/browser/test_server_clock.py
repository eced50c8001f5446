"""The server page's clock while the browser is gone: a browser that quits sends no pause,
so the server keeps the time after it last heard from the page off the clock when the page
comes back (``freecell play --away-after``), and the page tells it, while it shows a
running clock, that it is still there."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS, log_in
from player import Player
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect

import serving

AWAY_AFTER = 3  # s: the server's silence for a page gone, short for the test
AWAY = 8  # s: how long the browser stays closed


@pytest.fixture
def quick_to_miss(tmp_path: Path) -> Iterator[serving.Served]:
    """A server that takes a page silent for AWAY_AFTER seconds for one that is gone."""
    served = serving.start(tmp_path, "--away-after", str(AWAY_AFTER))
    yield served
    served.stop()


def seconds_shown(page: Page) -> int:
    minutes, seconds = (page.locator("#timer").text_content() or "").split(":")[-2:]
    return int(minutes) * 60 + int(seconds)


def test_the_clock_stands_still_while_the_browser_is_closed(
    playwright: Playwright, quick_to_miss: serving.Served, tmp_path: Path
) -> None:
    def visit() -> tuple[BrowserContext, Page]:
        context = playwright.chromium.launch_persistent_context(
            tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        for blank in context.pages:
            blank.close()
        return context, log_in(context, quick_to_miss)

    context, page = visit()
    player = Player(page, quick_to_miss.base)
    game = player.open(rules="standard", deal=617)["id"]
    player.play(["1a"])
    before = player.state(game)["elapsed_seconds"]
    context.close()  # the browser quits: no pause is sent
    time.sleep(AWAY)
    context, page = visit()
    expect(page.locator("#moves")).to_have_text("1")
    after = Player(page, quick_to_miss.base).state(game)["elapsed_seconds"]
    shown = seconds_shown(page)
    context.close()
    assert before <= after < before + AWAY - 2, (before, after)
    assert shown < before + AWAY - 2, (before, shown)


def test_a_page_showing_a_running_clock_tells_the_server_it_is_there(
    browser: Browser, quick_to_miss: serving.Served
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.clock.install()  # the page's timers run when the test says
        page.goto(quick_to_miss.url)
        player = Player(page, quick_to_miss.base)
        player.wait_for_table()
        game = player.state()["id"]
        seen = []
        page.on("request", lambda request: seen.append(request.url) if request.url.endswith(game) else None)
        page.clock.run_for(16_000)
        page.wait_for_timeout(500)
        assert len(seen) == 1, seen  # one heartbeat in 16 s

        player.page.get_by_role("button", name="Pause the timer").click()
        expect(page.locator("#paused-cover")).to_be_visible()
        seen.clear()
        page.clock.run_for(31_000)
        page.wait_for_timeout(500)
        assert seen == []  # a paused clock needs none
    finally:
        context.close()
