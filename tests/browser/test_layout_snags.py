"""Layout snags a player met on a phone and a desktop, each read from the page's geometry:
a dialog's buttons in reach on a low screen, the statistics opened at their top, columns
that use a tall phone's height, covered cards with room to tap, toolbar buttons of a
finger's size, no empty heading, and a game that can finish saying so at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from boards import CAN_FINISH
from player import Player
from playwright.sync_api import Page, expect

MIN_TARGET = 44  # px: the usual smallest touch target
MIN_TAP = 20  # px of a covered card left to tap


def phone_page(open_page: Callable[..., Page], width: int, height: int) -> Page:
    return open_page(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)


def reachable(page: Page, selector: str) -> bool:
    """Whether the element is on screen and the one a tap at its middle reaches."""
    found: bool = page.locator(selector).evaluate(
        """(el) => { const r = el.getBoundingClientRect();
          const x = r.left + r.width / 2, y = r.top + r.height / 2;
          return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth
            && el.contains(document.elementFromPoint(x, y)); }"""
    )
    return found


def fans(page: Page) -> list[float]:
    """For each column of two cards or more, the least room a covered card leaves to tap."""
    Player(page, "").settle()
    found: list[float] = page.evaluate(
        """() => [...document.querySelectorAll('#table .column')].map((column) => {
          const tops = [...column.querySelectorAll('.card')].map((c) => c.getBoundingClientRect().top);
          return tops.slice(1).map((top, i) => top - tops[i]);
        }).filter((steps) => steps.length).map((steps) => Math.min(...steps))"""
    )
    return found


def test_the_new_game_dialog_keeps_deal_in_reach_on_a_phone_on_its_side(
    open_page: Callable[..., Page], server: str
) -> None:
    page = phone_page(open_page, 844, 390)
    Player(page, server).open(rules="standard", deal=617)
    page.locator("#new-game").tap()
    dialog = page.locator("#new-dialog")
    expect(dialog).to_be_visible()
    page.wait_for_timeout(300)
    box = dialog.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 390, box
    assert reachable(page, "#new-deal"), "Deal is off screen or covered"
    page.locator("#new-number").fill("5")
    page.locator('#new-dialog input[value="number"]').check()
    assert reachable(page, "#new-deal")
    page.mouse.click(*center(page, "#new-deal"))  # where it is, with no scrolling
    expect(dialog).to_be_hidden()
    expect(page.locator("#deal-label")).to_contain_text("deal 5 ")


def center(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_the_statistics_open_at_their_top_on_a_phone(open_page: Callable[..., Page], server: str) -> None:
    page = phone_page(open_page, 360, 740)
    player = Player(page, server)
    # Games of several presets, each left for the next: the list is longer than the screen.
    for rules in ["standard", "app", "cardems", "bakers-game", "eight-off", "strict", "supermove", "double"]:
        state = player.new_game(rules=rules, deal=3)
        cell = next(
            place["target"]
            for place, card in zip(state["places"]["cells"], state["cells"], strict=True)
            if card is None
        )
        moved = page.request.post(f"{server}/api/games/{state['id']}/moves", data={"move": f"1{cell}"})
        assert moved.ok, moved.text()
    player.open(rules="standard", deal=617)
    page.locator("#menu-button").tap()
    page.locator("#menu").get_by_role("button", name="Statistics").tap()
    dialog = page.locator("#stats-dialog")
    expect(dialog.locator(".stats-list li").first).to_be_visible()
    page.wait_for_timeout(300)
    sizes: dict[str, Any] = dialog.evaluate(
        "(d) => ({scroll: d.scrollTop, height: d.scrollHeight, client: d.clientHeight,"
        " title: document.getElementById('stats-title').getBoundingClientRect().top})"
    )
    assert sizes["height"] > sizes["client"], sizes  # it does scroll
    assert sizes["scroll"] == 0 and sizes["title"] >= 0, sizes


def test_a_tall_phone_spreads_the_columns_over_its_height(open_page: Callable[..., Page], server: str) -> None:
    page = phone_page(open_page, 390, 844)
    Player(page, server).open(rules="standard", deal=617)
    card = page.locator("#table .column .card").first.bounding_box()
    assert card is not None
    steps = fans(page)
    # Before: 16 px of a 59 px card (a column of 13 used 366 of the 844 px).
    assert min(steps) >= 0.4 * card["height"], (steps, card)
    room: dict[str, float] = page.evaluate(
        "() => ({felt: document.getElementById('frame').getBoundingClientRect().bottom,"
        " top: document.querySelector('#table .column').getBoundingClientRect().top})"
    )
    twelve = card["height"] + 11 * min(steps)
    assert twelve >= 0.6 * (room["felt"] - room["top"]), (twelve, room)


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_covered_cards_of_double_freecell_leave_room_to_tap(
    size: tuple[int, int], open_page: Callable[..., Page], server: str
) -> None:
    page = open_page(viewport={"width": size[0], "height": size[1]})
    Player(page, server).open(rules="double", deal=5)
    steps = fans(page)
    assert min(steps) >= MIN_TAP, steps  # was 12 to 16 px at 390 px
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]


@pytest.mark.parametrize("size", [(390, 844), (844, 390)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_toolbar_buttons_are_a_fingers_size_on_a_phone(
    size: tuple[int, int], open_page: Callable[..., Page], server: str
) -> None:
    page = phone_page(open_page, *size)
    Player(page, server).open(rules="standard", deal=617)
    for selector in ["#new-game", "#undo", "#redo", "#hint", "#menu-button"]:
        box = page.locator(selector).bounding_box()
        assert box is not None and box["height"] >= MIN_TARGET and box["width"] >= MIN_TARGET, (selector, box)


def empty_headings(page: Page) -> list[str]:
    """Headings in the accessibility tree (as Chromium computes it) whose name is empty."""
    session = page.context.new_cdp_session(page)
    nodes = session.send("Accessibility.getFullAXTree")["nodes"]
    return [
        node["nodeId"]
        for node in nodes
        if not node.get("ignored")
        and node.get("role", {}).get("value") == "heading"
        and not (node.get("name", {}).get("value") or "").strip()
    ]


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_no_heading_is_empty(size: tuple[int, int], open_page: Callable[..., Page], server: str) -> None:
    page = open_page(viewport={"width": size[0], "height": size[1]})
    Player(page, server).open(rules="standard", deal=617)
    assert empty_headings(page) == []


def test_a_game_that_can_finish_says_so_instead_of_thinking(player: Player) -> None:
    player.open(rules="standard", board=CAN_FINISH)
    page = player.page
    offer = page.get_by_role("button", name="Auto-finish")
    offer.wait_for()
    assert page.locator("#verdict").text_content() != "Thinking…"
    expect(page.locator("#verdict")).to_have_text("Won: every card can go home")
    page.wait_for_timeout(1000)  # and it stays so: no search is asked for
    expect(page.locator("#verdict")).to_have_text("Won: every card can go home")
    page.get_by_role("button", name="Hint").click()  # a hint's "can be won" says less
    expect(page.locator("#toast")).to_contain_text("Move")
    expect(page.locator("#verdict")).to_have_text("Won: every card can go home")
    offer.click()
    expect(page.locator("#banner")).to_contain_text("You won")
