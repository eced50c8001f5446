"""The note of the moment (a hint, a refusal) and the notices at the foot of the felt (the
first visit's tip, the "Go back" notice, the Auto-finish offer, a lost game's banner): the
note stands above them, never on a notice's words or buttons, which stay clickable while
it shows; the table does not move for it. At a phone's size and a desktop's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from boards import CAN_FINISH, LOST
from player import Player
from playwright.sync_api import Page, expect

SIZES = [(1200, 800), (390, 844)]
TABLE = """() => [...document.querySelectorAll('#table .top-row, #table .heading, #table .card[data-key]')]
  .map((el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })"""

# For each notice in view: its words and buttons the note covers, and its buttons a click
# at their middle would not reach; and whether the note itself is in sight.
APART = """() => {
  const box = (el) => el.getBoundingClientRect();
  const shown = (el) => Boolean(el) && el.checkVisibility({ visibilityProperty: true }) && box(el).width > 0;
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const reached = (el) => {
    const r = box(el);
    return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
  };
  const note = document.getElementById('toast');
  const notices = [...document.querySelectorAll('.notice'), document.querySelector('.banner.lost')].filter(shown);
  return {
    note: shown(note) && reached(note),
    notices: notices.map((notice) => {
      const parts = [...notice.querySelectorAll('p, button')].filter(shown);
      const buttons = parts.filter((el) => el.tagName === 'BUTTON');
      return {
        id: notice.id,
        buttons: buttons.map((el) => el.textContent.trim()),
        covered: parts.filter((el) => overlap(box(note), box(el))).map((el) => el.textContent.trim()),
        unreachable: buttons.filter((el) => !reached(el)).map((el) => el.textContent.trim()),
      };
    }),
  };
}"""


def new_page(open_page: Callable[..., Page], size: tuple[int, int]) -> Page:
    phone = size[0] < 600
    return open_page(viewport={"width": size[0], "height": size[1]}, is_mobile=phone, has_touch=phone)


def expect_apart(page: Page, notices: list[str]) -> None:
    """The note is in sight, and on none of `notices` (the ids of those in view)."""
    expect(page.locator("#toast")).to_be_visible()
    seen: dict[str, Any] = page.evaluate(APART)
    assert seen["note"], "the note is covered"
    assert [notice["id"] for notice in seen["notices"]] == notices, seen
    for notice in seen["notices"]:
        assert notice["buttons"], notice
        assert notice["covered"] == [], notice
        assert notice["unreachable"] == [], notice


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_hint_stands_above_the_first_visits_tip(
    size: tuple[int, int], open_page: Callable[..., Page], server: str
) -> None:
    page = new_page(open_page, size)
    player = Player(page, server)
    player.open(rules="standard", deal=617)
    tip = page.locator("#welcome")
    expect(tip).to_be_visible()
    player.settle()
    table = page.evaluate(TABLE)
    page.get_by_role("button", name="Hint").click()
    expect(player.toast()).to_contain_text("(", timeout=30_000)  # "… (38)": the move, said
    expect_apart(page, ["welcome"])
    assert page.evaluate(TABLE) == table  # the note came over the felt: nothing moved
    tip.get_by_role("button", name="Got it").click()
    expect(tip).to_be_hidden()
    expect(player.toast()).to_be_visible()  # the note stays, where it was
    assert page.evaluate(TABLE) == table


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_note_stands_above_the_go_back_notice(
    size: tuple[int, int], open_page: Callable[..., Page], server: str
) -> None:
    page = new_page(open_page, size)
    player = Player(page, server)
    player.open(rules="standard", deal=617)
    page.get_by_role("button", name="Got it").click()
    player.play(["1a", "1b", "1c"])  # the game could still be won before 1c
    expect(page.locator("#losing")).to_contain_text("could still be won before", timeout=60_000)
    player.type_move("12")  # refused: a note
    expect_apart(page, ["losing"])
    page.get_by_role("button", name="Go back 1 move").click()
    player.expect_moves(2)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_hint_stands_above_the_auto_finish_offer(
    size: tuple[int, int], open_page: Callable[..., Page], server: str
) -> None:
    page = new_page(open_page, size)
    player = Player(page, server)
    player.open(rules="standard", board=CAN_FINISH)  # the first visit's tip stays too
    expect(page.locator("#finishing")).to_be_visible()
    page.get_by_role("button", name="Hint").click()
    expect(player.toast()).to_contain_text("foundation", timeout=30_000)
    expect_apart(page, ["finishing", "welcome"])
    page.get_by_role("button", name="Auto-finish").click()
    expect(page.locator("#banner")).to_contain_text("You won")


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_note_stands_above_a_lost_games_banner(
    size: tuple[int, int], open_page: Callable[..., Page], server: str
) -> None:
    page = new_page(open_page, size)
    player = Player(page, server)
    player.open(rules="standard", board=LOST)  # the first visit's tip stays too
    expect(page.locator("#banner")).to_contain_text("lost")
    player.type_move("12")  # refused: a note
    expect_apart(page, ["welcome", "banner"])
    page.locator("#banner").get_by_role("button", name="New deal").click()
    expect(page.locator("#new-dialog")).to_be_visible()
