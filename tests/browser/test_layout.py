"""The layout: narrow screens scroll the table inside its frame (002), and the table is
laid out as 000 and 001 say (cells left, foundations right, removed cells not drawn)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from player import Player
from playwright.sync_api import Page, expect


@pytest.mark.parametrize("width", [360, 390])
def test_a_narrow_screen_scrolls_the_table_not_the_page(open_page: Callable[..., Page], server: str,
                                                        width: int) -> None:
    page = open_page(viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True)
    player = Player(page, server)
    player.open(rules="standard", deal=617)
    sizes = page.evaluate(
        """() => {
          const frame = document.getElementById('frame');
          frame.scrollLeft = 60;
          return {page: document.documentElement.scrollWidth, body: document.body.scrollWidth,
                  frame: frame.scrollWidth, frameBox: frame.clientWidth, scrolled: frame.scrollLeft};
        }"""
    )
    assert sizes["page"] <= width and sizes["body"] <= width, sizes
    assert sizes["frame"] > sizes["frameBox"], sizes
    assert sizes["scrolled"] == 60, sizes
    # Every control above the table stays within the screen.
    for selector in ["#new-game", "#undo", "#hint", "#copy-code", ".menu button >> nth=-1"]:
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, selector
    # Tapping still plays: the jack of clubs onto the queen of hearts in column 8.
    player.card("jack of clubs").tap(position={"x": 8, "y": 6})
    page.get_by_role("button", name="column 8", exact=True).scroll_into_view_if_needed()
    page.get_by_role("button", name="column 8", exact=True).tap()
    player.expect_moves(1)


def test_a_wide_screen_shows_the_whole_table(open_page: Callable[..., Page], server: str) -> None:
    page = open_page(viewport={"width": 1920, "height": 1080})
    Player(page, server).open(rules="standard", deal=617)
    frame = page.evaluate("[frame.scrollWidth, frame.clientWidth]")
    assert frame[0] <= frame[1]
    card = page.locator("#table .card").first.bounding_box()
    assert card is not None and card["width"] >= 100


def test_cells_left_foundations_right_and_removed_cells_not_drawn(player: Player) -> None:
    player.open(rules="app", cells=1, deal=617)
    page = player.page
    expect(page.locator("#table .slot.cell")).to_have_count(1)
    cell = player.place("free cell a").bounding_box()
    suits = ("clubs", "diamonds", "hearts", "spades")
    foundations = [player.place(f"{suit} foundation").bounding_box() for suit in suits]
    first_column = player.heading("1").bounding_box()
    last_column = player.heading("8").bounding_box()
    assert cell and first_column and last_column and all(foundations)
    assert abs(cell["x"] - first_column["x"]) < 2  # the cell sits over column 1
    assert all(box["y"] < first_column["y"] for box in foundations if box)
    assert foundations[-1] and abs(foundations[-1]["x"] - last_column["x"]) < 2
    # Each empty foundation shows its suit.
    expect(page.locator("#table .slot.foundation.empty .mark")).to_have_count(4)


def test_double_freecell_and_eight_off_fit_their_rows(player: Player) -> None:
    player.open(rules="double", deal=5)
    page = player.page
    expect(page.locator("#table .slot.cell")).to_have_count(6)
    expect(page.locator("#table .slot.foundation")).to_have_count(8)
    expect(page.locator("#table .column")).to_have_count(10)
    expect(player.place("hearts foundation 2")).to_be_visible()
    player.expect_matches_server()
    player.open(rules="eight-off", deal=5)
    expect(page.locator("#table .slot.cell")).to_have_count(8)
    assert player.table()["cells"].count(None) == 4  # four cards are dealt to cells
    player.expect_matches_server()
