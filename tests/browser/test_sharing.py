"""Share gives what opens for the one who gets it, at a phone's size and a desktop's: from a
server only this computer reaches, the game code and deal number to type; from a server on
the network, its link, with a word that the token is needed too; with ``--site-url``, a link
to the published site. A tokened address keeps the rest of its query through the login."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from player import Player
from playwright.sync_api import Browser, BrowserContext, Page, expect

import serving
from freecell import Deal, find_rules

OPENING = ["7a", "7b", "7c"]
SITE = "https://example.org/games/freecell/"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
SHOTS = os.environ.get("FREECELL_SHOTS")  # a folder to keep screenshots in, for a person to look at


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


@pytest.fixture(scope="module")
def on_the_network(tmp_path_factory: pytest.TempPathFactory) -> Iterator[serving.Served]:
    """A server bound beyond 127.0.0.1 (to 127.0.0.2, which stays on this machine)."""
    served = serving.start(tmp_path_factory.mktemp("network"), "--host", "127.0.0.2")
    yield served
    served.stop()


@pytest.fixture(scope="module")
def publishing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[serving.Served]:
    """A server whose Share points at a published copy of the static site."""
    served = serving.start(tmp_path_factory.mktemp("published"), "--site-url", SITE)
    yield served
    served.stop()


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    """The contexts a test makes: closed at its end, which fails if a page raised."""
    made: list[BrowserContext] = []
    yield made
    errors = [error for context in made for error in getattr(context, "errors", [])]
    for context in made:
        context.close()
    assert not errors, f"the page raised: {errors}"


def _logged_in(browser: Browser, contexts: list[BrowserContext], served: serving.Served, size: dict[str, int]) -> Page:
    """A new player's page at ``size``, logged in at the address ``served`` printed."""
    context = browser.new_context(viewport=size)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    errors: list[str] = []
    context.errors = errors  # type: ignore[attr-defined]
    context.on("weberror", lambda error: errors.append(str(error.error)))
    contexts.append(context)
    page = context.new_page()
    page.goto(served.url)
    Player(page, served.base).wait_for_table()
    return page


def _open_share(page: Page) -> None:
    if page.locator("#share").is_visible():
        page.locator("#share").click()
    else:  # on a phone, Share is in the menu
        page.locator("#menu-button").click()
        page.get_by_role("button", name="Share this deal").click()
    expect(page.locator("#share-dialog")).to_be_visible()


@SIZES
def test_a_server_only_this_computer_reaches_shares_the_game_code(
    browser: Browser, contexts: list[BrowserContext], served: serving.Served, size: dict[str, int]
) -> None:
    page = _logged_in(browser, contexts, served, size)
    player = Player(page, served.base)
    state = player.open(rules="bakers-game", deal=617)
    player.play(OPENING)
    _open_share(page)
    expect(page.locator("#share-what")).to_have_text("Game code")
    expect(page.locator("#share-link")).to_have_value(state["code"])
    note = page.locator("#share-note")
    expect(note).to_contain_text("Only this computer can open this game's address")
    expect(note).to_contain_text("Baker's Game, deal 617, 4 cells")
    expect(note).not_to_contain_text("Anyone who opens this link")
    expect(page.locator("#share-moves-choice")).to_be_hidden()
    _shot(page, f"share-code-{size['width']}")
    page.locator("#share-copy").click()
    expect(player.toast()).to_contain_text("Game code copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == state["code"]
    # Typed into New game anywhere, the code deals the same game.
    other = _logged_in(browser, contexts, served, DESKTOP)
    other.locator("#new-game").click()
    other.get_by_role("button", name="Leave it").click()  # the one store's game in progress
    other.locator("#new-code").fill(copied)
    other.get_by_role("button", name="Deal", exact=True).click()
    expect(other.locator("#game-code")).to_have_text(state["code"])
    expect(other.locator("#deal-label")).to_contain_text("Baker's Game · deal 617, 4 cells")


@SIZES
def test_a_server_on_the_network_shares_its_link_and_says_the_token_is_needed(
    browser: Browser, contexts: list[BrowserContext], on_the_network: serving.Served, size: dict[str, int]
) -> None:
    served = on_the_network
    page = _logged_in(browser, contexts, served, size)
    player = Player(page, served.base)
    state = player.open(rules="bakers-game", deal=617)
    player.play(OPENING)
    _open_share(page)
    link = page.locator("#share-link")
    expect(link).to_have_value(f"{served.base}/?code={state['code']}")
    expect(page.locator("#share-note")).to_contain_text("they also need its token")
    page.get_by_label("With the moves played so far").check()
    expect(link).to_have_value(re.compile(r"&moves=7a%2C7b%2C7c$"))
    _shot(page, f"share-network-{size['width']}")
    page.locator("#share-copy").click()
    expect(player.toast()).to_contain_text("Link copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    # Without the token, the link opens only the page that asks for it ...
    stranger = browser.new_context()
    contexts.append(stranger)
    assert stranger.new_page().goto(copied).status == 401  # type: ignore[union-attr]
    # ... and with it, the same table after the same moves.
    other = _logged_in(browser, contexts, served, DESKTOP)
    other.goto(copied)
    other.get_by_role("button", name="Open it").click()  # the game in progress is left
    Player(other, served.base).expect_moves(len(OPENING))
    expect(other.locator("#game-code")).to_have_text(state["code"])
    assert Player(other, served.base).table() == player.table()


@SIZES
def test_with_site_url_share_links_to_the_published_site(
    browser: Browser, contexts: list[BrowserContext], publishing: serving.Served, size: dict[str, int]
) -> None:
    page = _logged_in(browser, contexts, publishing, size)
    state = Player(page, publishing.base).open(rules="standard", deal=617)
    _open_share(page)
    expect(page.locator("#share-link")).to_have_value(f"{SITE}?code={state['code']}")
    expect(page.locator("#share-note")).to_have_text(
        "Anyone who opens this link plays the same deal, under the same rules."
    )
    _shot(page, f"share-site-{size['width']}")


def test_a_tokened_address_keeps_the_rest_of_its_query(
    browser: Browser, contexts: list[BrowserContext], served: serving.Served
) -> None:
    code = Deal(find_rules("app", cells=2), 617).code()
    context = browser.new_context(viewport=PHONE)  # a first visit: no cookie yet
    contexts.append(context)
    page = context.new_page()
    page.goto(f"{served.url}&code={code}")
    Player(page, served.base).wait_for_table()
    expect(page.locator("#game-code")).to_have_text(code)
    assert served.token not in page.url
