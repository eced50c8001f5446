"""A first visit that teaches in one glance: a tip on how to move a card and where help is,
over the felt (the table does not move for it), put away for good once dismissed or once
a card has moved; and on a phone, the Rules and Lessons one tap away."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from player import Player
from playwright.sync_api import Page, expect

SIZES = [(1280, 900), (390, 844)]
TABLE = """() => [...document.querySelectorAll('#table .top-row, #table .heading, #table .card[data-key]')]
  .map((el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })"""


def new_page(open_page: Callable[..., Page], size: tuple[int, int]) -> Page:
    phone = size[0] < 600
    return open_page(viewport={"width": size[0], "height": size[1]}, is_mobile=phone, has_touch=phone)


def expect_tip_hidden_after_reload(page: Page, player: Player) -> None:
    page.reload()
    player.wait_for_table()
    page.wait_for_timeout(300)  # the page's first state is drawn
    expect(page.locator("#welcome")).to_be_hidden()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_first_visit_teaches_and_the_tip_once_put_away_stays_away(
    size: tuple[int, int], open_page: Callable[..., Page], server: str
) -> None:
    page = new_page(open_page, size)
    player = Player(page, server)
    tip = page.locator("#welcome")
    expect(tip).to_be_visible()
    for words in ["a card", "drag", "Hint", "Undo"]:
        expect(tip).to_contain_text(words)
    player.settle()
    table = page.evaluate(TABLE)
    tip.get_by_role("button", name="Got it").click()
    expect(tip).to_be_hidden()
    assert page.evaluate(TABLE) == table  # it stood over the felt: nothing moved
    expect_tip_hidden_after_reload(page, player)
    player.open(rules="standard", deal=5)
    page.wait_for_timeout(300)
    expect(tip).to_be_hidden()


def test_a_first_move_puts_the_tip_away_for_good(open_page: Callable[..., Page], server: str) -> None:
    page = new_page(open_page, (390, 844))
    player = Player(page, server)
    player.open(rules="standard", deal=617)
    expect(page.locator("#welcome")).to_be_visible()
    player.card("jack of diamonds").tap(position={"x": 8, "y": 6})
    player.place("free cell a").tap()
    player.expect_moves(1)
    expect(page.locator("#welcome")).to_be_hidden()
    expect_tip_hidden_after_reload(page, player)


def test_rules_and_lessons_are_one_tap_away_on_a_phone(open_page: Callable[..., Page], server: str) -> None:
    page = new_page(open_page, (390, 844))
    Player(page, server).open(rules="standard", deal=617)
    expect(page.locator("#menu")).to_be_hidden()
    page.get_by_role("button", name="Rules", exact=True).tap()
    expect(page.locator("#rules-dialog")).to_be_visible()
    page.locator("#rules-dialog").get_by_role("button", name="Close").tap()
    page.get_by_role("button", name="Lessons", exact=True).tap()
    expect(page.locator("#lessons-dialog")).to_be_visible()
    expect(page.locator(".lesson-start").first).to_be_visible()
