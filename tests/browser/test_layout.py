"""The layout, read from the page's own geometry (bounding boxes, never screenshots): every
preset's whole table on screen from 360 px up (Eight Off and Double FreeCell from 390 px),
portrait and landscape; cells and foundations on the columns' grid; a new layout whenever
the felt changes size; compact chrome on a phone; the statistics fitting a phone.

Every page here is opened under reduced motion: the table is measured at rest, where motion
changes nothing, and a new deal then skips its flight in (about a second a deal; the flight
itself is tested in test_themes.py).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from player import Player
from playwright.sync_api import Page, expect

from freecell.rules import PRESETS

T = TypeVar("T")

PHONES = [(390, 844), (360, 740), (844, 390)]
WIDE = {"eight-off", "double"}  # more than 8 columns or 12 top slots: whole from 390 px up

GEOMETRY = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width}; };
  const frame = document.getElementById('frame');
  return {
    viewport: {width: innerWidth, height: innerHeight},
    page: {width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight},
    frame: {...box(frame), scrollWidth: frame.scrollWidth, clientWidth: frame.clientWidth,
            scrollHeight: frame.scrollHeight, clientHeight: frame.clientHeight},
    cards: [...document.querySelectorAll('#table .card[data-key]')].map(box),
    cells: [...document.querySelectorAll('#table .slot.cell')].map(box),
    foundations: [...document.querySelectorAll('#table .slot.foundation')].map(box),
    columns: [...document.querySelectorAll('#table .column')].map(box),
    cardWidth: document.querySelector('#table .column .card').getBoundingClientRect().width,
    chrome: box(document.querySelector('.frame-wrap')).top,
  };
}"""


def wait_for_card_width(page: Page, test: str) -> None:
    """Wait until the columns' cards are laid out to a width that passes ``test`` ("< 60")."""
    page.wait_for_function(f"() => document.querySelector('#table .column .card').getBoundingClientRect().width {test}")


def stable(page: Page, read: Callable[[], T]) -> T:
    """``read()`` once two reads a few frames apart agree: the table is laid out again
    when the felt changes size (a panel shown, say), and a read must not straddle that."""
    last = read()
    for _ in range(50):
        page.wait_for_timeout(100)
        now = read()
        if now == last:
            return now
        last = now
    raise AssertionError("the table never stopped moving")


def geometry(page: Page) -> dict[str, Any]:
    Player(page, "").settle()
    found: dict[str, Any] = stable(page, lambda: page.evaluate(GEOMETRY))
    return found


def near(a: float, b: float) -> bool:
    return abs(a - b) <= 1.5


def assert_whole_table_in_view(geo: dict[str, Any], what: str) -> None:
    """Every card and slot inside the felt, the felt inside the screen, nothing scrolls."""
    frame, width = geo["frame"], geo["viewport"]["width"]
    assert geo["page"]["width"] <= width, f"{what}: the page scrolls sideways"
    assert frame["scrollWidth"] <= frame["clientWidth"], f"{what}: the felt scrolls sideways"
    assert frame["left"] >= 0 and frame["right"] <= width, what
    assert frame["bottom"] <= geo["viewport"]["height"] + 0.5, f"{what}: the felt runs past the screen's bottom"
    for box in geo["cards"] + geo["cells"] + geo["foundations"]:
        assert box["left"] >= frame["left"] - 0.5 and box["right"] <= frame["right"] + 0.5, (what, box, frame)
        assert box["top"] >= frame["top"] - 0.5 and box["bottom"] <= frame["bottom"] + 0.5, (what, box, frame)


def assert_top_rows_on_the_columns_grid(geo: dict[str, Any], what: str) -> None:
    """Cells over the first columns, foundations over the last, with the columns' gap; or,
    where they outnumber the columns, one row spanning exactly the columns' width."""
    cells, foundations, columns = geo["cells"], geo["foundations"], geo["columns"]
    slots = cells + foundations
    if len(slots) <= len(columns) or cells[0]["top"] != foundations[0]["top"]:
        for cell, column in zip(cells, columns, strict=False):
            assert near(cell["left"], column["left"]) and near(cell["width"], column["width"]), what
        for pile, column in zip(foundations, columns[-len(foundations):], strict=True):
            assert near(pile["left"], column["left"]) and near(pile["width"], column["width"]), what
    else:
        assert near(slots[0]["left"], columns[0]["left"]), what
        assert near(slots[-1]["right"], columns[-1]["right"]), what
        gaps = {round(b["left"] - a["right"]) for a, b in itertools.pairwise(slots)}
        assert max(gaps) - min(gaps) <= 2, (what, gaps)  # evenly spread


OpenPage = Callable[..., Page]


@pytest.fixture
def open_page(open_page: OpenPage) -> OpenPage:
    """conftest's ``open_page``, its contexts under reduced motion (see the module's docstring);
    the ``page`` and ``player`` fixtures take their page from it too."""
    return functools.partial(open_page, reduced_motion="reduce")


@pytest.fixture(params=PHONES, ids=lambda size: f"{size[0]}x{size[1]}")
def phone(request: pytest.FixtureRequest, open_page: OpenPage) -> Page:
    width, height = request.param
    return open_page(viewport={"width": width, "height": height}, is_mobile=True, has_touch=True)


def test_every_preset_fits_a_phone_portrait_and_landscape(phone: Page, server: str) -> None:
    player = Player(phone, server)
    width, height = (phone.viewport_size["width"], phone.viewport_size["height"]) if phone.viewport_size else (0, 0)
    for name in PRESETS:
        player.open(rules=name, deal=617)
        geo = geometry(phone)
        what = f"{name} at {width}"
        assert_top_rows_on_the_columns_grid(geo, what)
        if name in WIDE and width < 390:
            # Double FreeCell's ten columns: the felt scrolls sideways, never the page.
            assert geo["page"]["width"] <= width, what
            continue
        if name == "double" and height < 500:
            # Its deal's columns of eleven cards keep 20 px of each covered card to tap: on a
            # low screen the felt scrolls down for them, never the page, never sideways.
            assert geo["page"]["width"] <= width and geo["frame"]["scrollWidth"] <= geo["frame"]["clientWidth"], what
            assert geo["frame"]["bottom"] <= height + 0.5, what
            continue
        assert_whole_table_in_view(geo, what)
        # The corner indices stay legible.
        assert geo["cardWidth"] >= (32 if name == "double" else 38), what


def test_the_sideways_frame_remains_below_390_px_for_double_freecell(open_page: OpenPage, server: str) -> None:
    page = open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    Player(page, server).open(rules="double", deal=5)
    # The table at rest, its status row at its final size (the verdict in): only then is
    # the frame's width final.
    expect(page.locator("#verdict")).to_have_text("Can be won", timeout=30_000)
    geometry(page)
    scrolled = page.evaluate(
        "() => { const f = document.getElementById('frame'); f.scrollLeft = 10; return f.scrollLeft; }"
    )
    geo = geometry(page)
    assert geo["frame"]["scrollWidth"] > geo["frame"]["clientWidth"] and scrolled == 10
    assert geo["page"]["width"] <= 360


def test_a_phone_keeps_the_chrome_small_and_the_less_used_actions_in_a_menu(open_page: OpenPage, server: str) -> None:
    page = open_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    player = Player(page, server)
    player.open(rules="standard", deal=617)
    assert geometry(page)["chrome"] <= 140  # was 175; 135 with the 44 px buttons a finger needs
    for selector in ["#new-game", "#undo", "#redo", "#hint", "#menu-button"]:
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, selector
    expect(page.locator("#restart")).to_be_hidden()
    expect(page.get_by_role("button", name="Statistics")).to_be_hidden()
    page.locator("#menu-button").tap()
    menu = page.locator("#menu")
    entries = ["Rules", "Lessons", "Statistics", "Themes", "Options", "Restart", "Solution", "Move calculator"]
    entries.append("Share this deal")
    for entry in entries:
        expect(menu.get_by_role("button", name=entry, exact=True)).to_be_visible()
    box = menu.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    # Tapping still plays: the jack of clubs onto the queen of hearts in column 8.
    menu.get_by_role("button", name="Move calculator").tap()
    expect(menu).to_be_hidden()
    expect(page.locator("#calculator")).to_be_visible()
    player.card("jack of clubs").tap(position={"x": 8, "y": 6})
    player.heading("8").tap()
    player.expect_moves(1)
    assert_whole_table_in_view(geometry(page), "with the calculator open")


def test_the_statistics_fit_a_phone(open_page: OpenPage, server: str) -> None:
    page = open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    Player(page, server).open(rules="standard", deal=617)
    page.locator("#menu-button").tap()
    page.locator("#menu").get_by_role("button", name="Statistics").tap()
    dialog = page.locator("#stats-dialog")
    expect(dialog).to_be_visible()
    first = dialog.locator(".stats-list li").first
    expect(first).to_be_visible()
    expect(first).to_contain_text("Best time")
    sizes = page.evaluate(
        "() => { const t = document.getElementById('stats-table');"
        " const d = document.getElementById('stats-dialog');"
        " return {scroll: t.scrollWidth, client: t.clientWidth, right: d.getBoundingClientRect().right}; }"
    )
    assert sizes["scroll"] <= sizes["client"] and sizes["right"] <= 360, sizes
    for text in ["Streak", "fewest moves", "assisted games"]:
        box = first.get_by_text(text, exact=False).bounding_box()
        assert box is not None and box["x"] + box["width"] <= 360, text


def test_the_table_is_laid_out_again_when_panels_open_or_close_and_on_rotation(
    open_page: OpenPage, server: str
) -> None:
    page = open_page(viewport={"width": 1366, "height": 768})
    player = Player(page, server)
    player.open(rules="standard", deal=617)
    alone = geometry(page)
    assert_whole_table_in_view(alone, "1366x768")
    # Every panel open: the calculator, the solution bar and the losing-move bar.
    page.locator("#toggle-calculator").click()
    page.locator("#solution").click()
    expect(page.locator("#solution-controls")).to_be_visible(timeout=20_000)
    page.evaluate("document.getElementById('losing').hidden = false")
    wait_for_card_width(page, f"< {alone['cardWidth']}")
    crowded = geometry(page)
    assert_whole_table_in_view(crowded, "1366x768 with every panel open")
    assert_top_rows_on_the_columns_grid(crowded, "1366x768 with every panel open")
    page.evaluate("document.getElementById('losing').hidden = true")
    page.locator("#solution-close").click()
    page.locator("#toggle-calculator").click()
    wait_for_card_width(page, f"=== {alone['cardWidth']}")
    # A lesson's panel closes with the next game: that game has the cards of a fresh load.
    page.get_by_role("button", name="Lessons").click()
    page.locator(".lesson-start").first.click()
    expect(page.locator("#lesson-panel")).to_be_visible()
    page.locator("#new-game").click()
    page.locator("#new-number").fill("617")
    page.keyboard.press("Enter")
    expect(page.locator("#lesson-panel")).to_be_hidden()
    assert geometry(page)["cardWidth"] == alone["cardWidth"]
    # Turned on its side and back.
    page.set_viewport_size({"width": 844, "height": 390})
    wait_for_card_width(page, "< 60")
    assert_whole_table_in_view(geometry(page), "turned to 844x390")
    page.set_viewport_size({"width": 1366, "height": 768})
    wait_for_card_width(page, f"=== {alone['cardWidth']}")


def test_a_wide_screen_shows_the_whole_table_with_big_cards(open_page: OpenPage, server: str) -> None:
    page = open_page(viewport={"width": 1920, "height": 1080})
    player = Player(page, server)
    for name in ["standard", "eight-off", "double"]:
        player.open(rules=name, deal=5)
        geo = geometry(page)
        assert_whole_table_in_view(geo, f"{name} at 1920")
        assert_top_rows_on_the_columns_grid(geo, f"{name} at 1920")
        assert geo["cardWidth"] >= 100, name


def test_cells_left_foundations_right_and_removed_cells_not_drawn(player: Player) -> None:
    player.open(rules="app", cells=1, deal=617)
    page = player.page
    # This deal cannot be won with one cell: once the solver has said so, the panel that
    # offers a new deal stands above the table.
    expect(page.locator("#losing")).to_contain_text("cannot be won", timeout=30_000)
    player.settle()
    expect(page.locator("#table .slot.cell")).to_have_count(1)
    suits = ("clubs", "diamonds", "hearts", "spades")
    cell, foundations, first_column, last_column = stable(page, lambda: (
        player.place("free cell a").bounding_box(),
        [player.place(f"{suit} foundation").bounding_box() for suit in suits],
        player.heading("1").bounding_box(),
        player.heading("8").bounding_box(),
    ))
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
