"""The player gets in by the printed address; the token leaves the address bar at once and
the page works from its cookie, which no script can read. Anyone else sees a page that
says which address to open. (The ``open_page`` fixture checks, in every test, that no
request but the first carries the token, that no Referer is ever sent and that the page
breaks no rule of its Content-Security-Policy.)"""

from __future__ import annotations

from collections.abc import Callable

from player import Player
from playwright.sync_api import Page, expect

import serving


def test_the_printed_address_logs_in_and_the_page_then_works_from_its_cookie(
    open_page: Callable[..., Page], served: serving.Served
) -> None:
    page = open_page()
    assert page.url == f"{served.base}/"  # the token left the address bar
    assert page.evaluate("document.cookie") == ""  # HttpOnly: no script can read it
    player = Player(page, served.base)
    state = player.open(rules="standard", deal=617)
    player.type_move("58")
    player.expect_moves(1)
    page.reload()
    player.wait_for_table()
    player.expect_moves(1)
    # A printed address with other parameters keeps them when the token leaves.
    page.goto(f"{served.base}/?game={state['id']}&token={served.token}")
    assert page.url == f"{served.base}/?game={state['id']}"
    player.wait_for_table()
    player.expect_moves(1)


def test_the_statistics_export_is_downloaded_with_the_cookie_and_no_referer(player: Player) -> None:
    player.open(rules="standard", deal=617)
    page = player.page
    page.get_by_role("button", name="Statistics").click()
    with page.expect_download() as download:
        page.locator("#stats-dialog a", has_text="CSV").click()
    assert download.value.suggested_filename == "freecell-stats.csv"
    assert download.value.path().read_text().startswith("rules,")


def test_without_the_token_the_page_says_which_address_to_open(
    open_page: Callable[..., Page], served: serving.Served
) -> None:
    page = open_page(as_player=False)
    for address in (f"{served.base}/", f"{served.base}/?token=not-the-token-0123456789"):
        answer = page.goto(address)
        assert answer is not None and answer.status == 401
        expect(page.locator("#locked-message")).to_contain_text("freecell play")
        expect(page.locator("#table")).to_have_count(0)
    assert page.request.get(f"{served.base}/api/current").status == 401
    page.goto(served.url)  # and then the printed address lets the player in
    Player(page, served.base).wait_for_table()


def test_a_game_begun_on_the_computer_goes_on_on_the_phone_and_back(
    open_page: Callable[..., Page], served: serving.Served
) -> None:
    computer = Player(open_page(viewport={"width": 1280, "height": 900}), served.base)
    state = computer.open(rules="standard", deal=617)
    computer.type_move("58")
    computer.expect_moves(1)
    # The phone opens the address it scanned: the game in progress follows the player.
    phone = Player(open_page(viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True), served.base)
    phone.expect_moves(1)
    expect(phone.page.locator("#game-code")).to_have_text(state["code"])
    phone.type_move("7a")
    phone.expect_moves(2)
    computer.page.reload()
    computer.wait_for_table()
    computer.expect_moves(2)
    assert computer.table() == phone.table()
