"""Installs and starts like an app, opens from a link: the manifest, icons and favicon, the
service worker and the offline message, a first visit with no console error, links to a
deal (with moves), and Microsoft numbers for random deals."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
from player import Player
from playwright.sync_api import ConsoleMessage, Page, Response, expect

import serving
from freecell import Deal, find_rules
from freecell.deals import MAX_DEAL

OPENING = ["7a", "7b", "7c", "b7", "1b", "71"]
OpenPage = Callable[..., Page]


@pytest.fixture
def empty_server(tmp_path: Path) -> Iterator[serving.Served]:
    """A server of its own with no game yet (the shared one has played many)."""
    served = serving.start(tmp_path)
    yield served
    served.stop()


def watch(page: Page) -> dict[str, list[str]]:
    """Collect the console's errors and every answer of 400 or more."""
    seen: dict[str, list[str]] = {"console": [], "failed": []}

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            seen["console"].append(message.text)

    def response(answer: Response) -> None:
        if answer.status >= 400:
            seen["failed"].append(f"{answer.status} {answer.url}")

    page.on("console", console)
    page.on("response", response)
    return seen


def test_a_first_visit_writes_no_error_to_the_console(open_page: OpenPage, empty_server: serving.Served) -> None:
    page = open_page(as_player=False)
    seen = watch(page)
    page.goto(empty_server.url)  # the address the server printed: the player's first visit
    Player(page, empty_server.base).wait_for_table()
    expect(page.locator("#verdict")).not_to_have_text("Thinking…", timeout=30_000)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    assert seen == {"console": [], "failed": []}
    # The random deal is a Microsoft deal, with its number.
    label = page.locator("#deal-label").text_content() or ""
    number = int(re.search(r"· deal (\d+),", label).group(1))  # type: ignore[union-attr]
    assert 1 <= number <= MAX_DEAL
    expect(page.locator("#game-code")).to_have_text(Deal(find_rules("standard"), number).code())


def test_the_page_installs_as_an_app(page: Page, server: str) -> None:
    manifest_link = f"{server}/static/manifest.webmanifest"
    Player(page, server).open(rules="standard", deal=617)
    # Addresses are relative (the same page serves the static site from any folder).
    assert page.evaluate("document.querySelector('link[rel=manifest]').href") == manifest_link
    manifest: dict[str, Any] = page.request.get(manifest_link).json()
    assert manifest["display"] == "standalone" and manifest["name"] == "FreeCell"
    assert manifest["theme_color"].startswith("#") and urljoin(manifest_link, manifest["start_url"]) == f"{server}/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        answer = page.request.get(urljoin(manifest_link, icon["src"]))
        assert answer.ok and answer.headers["content-type"].startswith("image/"), icon
        if icon["type"] == "image/png":
            width = int.from_bytes(answer.body()[16:20], "big")
            assert f"{width}x{width}" == icon["sizes"]
    favicon = page.request.get(f"{server}/static/favicon.ico")
    assert favicon.ok and favicon.headers["content-type"].startswith("image/")
    # The service worker keeps the page's own files, never the API's answers.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    cached: list[str] = page.evaluate(
        "async () => { const names = await caches.keys(); const cache = await caches.open(names[0]);"
        " return (await cache.keys()).map((r) => new URL(r.url).pathname); }"
    )
    assert {"/", "/static/js/main.js", "/static/css/table.css", "/static/js/table.js"} <= set(cached)
    assert not [path for path in cached if path.startswith("/api/")]


def test_without_the_server_the_page_says_so_and_keeps_the_last_table(open_page: OpenPage, server: str) -> None:
    page = open_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context = page.context
    player = Player(page, server)
    player.open(rules="standard", deal=617)
    player.play(OPENING[:2])
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the service worker
    player.wait_for_table()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    before = player.table()
    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("#offline")).to_contain_text("cannot be reached")
    assert player.table() == before
    # A move tried meanwhile says so again and changes nothing.
    player.type_move("7c")
    expect(page.locator("#offline")).to_be_visible()
    assert player.table() == before
    context.set_offline(False)
    # The pause the page sent as it left may reach the server all the same (a keepalive
    # request can outlive the offline switch); here it surely does.
    game = player.state()
    if not game["paused"]:
        assert page.request.post(f"{server}/api/games/{game['id']}/pause", data={}).ok
    # The server answers the retry slowly, so the next move is typed before the answer comes.
    context.route(f"**/api/games/{game['id']}", lambda route: (time.sleep(0.5), route.continue_()))
    page.locator("#retry").click()
    expect(page.locator("#offline")).to_be_hidden()
    # Back in front of the player, the game paused while away goes on, and the move typed
    # meanwhile is played in it.
    player.type_move("7c")
    expect(page.locator("#resume")).to_be_hidden()
    player.expect_moves(3)
    assert not player.state()["paused"]


def test_a_link_opens_its_deal_and_plays_its_moves(page: Page, server: str) -> None:
    player = Player(page, server)
    player.open(rules="standard", deal=2)  # a game with no move yet: a link replaces it unasked
    code = Deal(find_rules("app", cells=2), 617).code()
    page.goto(f"{server}/?code={code}")
    player.wait_for_table()
    expect(page.locator("#game-code")).to_have_text(code)
    expect(page.locator("#table .slot.cell")).to_have_count(2)
    assert page.url == f"{server}/"  # a reload continues the game instead of dealing it again
    page.goto(f"{server}/?deal=617&rules=standard&cells=4&moves={','.join(OPENING)}")
    player.expect_moves(len(OPENING))
    expect(page.locator("#deal-label")).to_contain_text("deal 617, 4 cells")
    assert player.state()["played"] == OPENING
    player.expect_matches_server()
    # With a game in progress, the player is asked first; keeping it keeps it.
    page.goto(f"{server}/?deal=1&rules=standard")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    expect(page.locator("#confirm-title")).to_have_text("Open the shared deal?")
    page.get_by_role("button", name="Keep playing").click()
    player.expect_moves(len(OPENING))
    # A link that cannot be played says why and leaves the game as it was.
    page.goto(f"{server}/?deal=617&rules=standard&moves=7h")
    page.get_by_role("button", name="Open it").click()
    expect(player.toast()).to_contain_text("This link cannot be opened")
    player.expect_moves(len(OPENING))
