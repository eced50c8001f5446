"""The game review in the browser, on the server, at a phone's size and a desktop's: deal
617 played into a lost position (1a 1b 1c), reviewed move by move; a step's table shown;
play on from a step as an assisted game; and the review of a game left for a new deal."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from player import Player
from playwright.sync_api import Page, expect

import serving
from freecell.notation import split_moves

DATA = Path(__file__).parent / "data"
SIZES = [(390, 844), (1366, 768)]
REVIEWED = 120_000  # ms: the lost position takes the solver some seconds, more on a busy machine


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[serving.Served]:
    """A server of its own whose in-play search has the in-play positions but a clock
    generous enough that a busy machine does not leave the lost position unknown (the
    static site's test sees the in-play limit as it is)."""
    server = serving.start(tmp_path_factory.mktemp("review-server"), "--hint-limit", "120s,300k,600MB")
    yield server
    server.stop()


def open_review(page: Page, width: int) -> None:
    """Open the review as a player would: from the banner that says the game is lost on
    a desktop, from the menu on a phone."""
    if width < 600:
        page.locator("#menu-button").click()
        page.locator("#menu").get_by_role("button", name="Review").click()
    else:
        review = page.locator("#losing-review")
        expect(review).to_be_visible(timeout=REVIEWED)
        review.click()
    expect(page.locator("#review-dialog")).to_be_visible()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_lost_617_is_reviewed_and_played_on_from_a_step(
    open_page: Callable[..., Page], served: serving.Served, width: int, height: int, tmp_path: Path
) -> None:
    page = open_page(viewport={"width": width, "height": height})
    player = Player(page, served.base)
    player.open(rules="standard", deal=617)
    player.play(["1a", "1b", "1c"])
    open_review(page, width)

    progress = page.locator("#review-progress")
    expect(progress).to_have_text("", timeout=REVIEWED)  # complete
    marks = page.locator("#review-timeline button")
    expect(marks).to_have_count(4)  # the start and three moves
    expect(marks.nth(1)).to_have_attribute("aria-label", re.compile(r"^Step 1, J♦ to a free cell: still winnable$"))
    expect(marks.nth(2)).to_have_class(re.compile(r"\bwinnable\b"))
    lost = marks.nth(3)
    expect(lost).to_have_class(re.compile(r"\bloses\b"))
    expect(lost).to_have_attribute("aria-label", re.compile(r"^Step 3, .+: lost the game here$"))
    expect(lost).to_contain_text("✗")
    summary = page.locator("#review-summary")
    expect(summary).to_contain_text("The game was lost at step 3")
    expect(summary).to_contain_text(re.compile(r"3 moves played; the solver's solution from the start: \d+ moves"))
    # The step that lost it is chosen first, its table shown: three cards in the cells.
    expect(lost).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#review-step")).to_have_text("✗ Lost the game here Step 3, 4♣ to a free cell.")
    board = page.locator("#review-board")
    expect(board.locator(".mini-top div").first.locator(".mini-card:not(.empty)")).to_have_count(3)
    page.screenshot(path=str(tmp_path / f"review-617-{width}x{height}.png"))
    print(f"screenshot: {tmp_path / f'review-617-{width}x{height}.png'}")

    # A tap on step 1 shows its table (one card in the cells); play on from there.
    marks.nth(1).click()
    expect(marks.nth(1)).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#review-step")).to_contain_text("Still winnable")
    expect(board.locator(".mini-top div").first.locator(".mini-card:not(.empty)")).to_have_count(1)
    page.locator("#review-play-on").click()
    expect(page.locator("#confirm-dialog")).to_be_visible()  # the game in progress would be abandoned
    page.locator("#confirm-ok").click()
    expect(page.locator("#review-dialog")).to_be_hidden()
    player.expect_moves(0)
    expect(page.locator("#deal-label")).to_contain_text("imported position")
    state = player.state()
    assert state["assisted"] is True
    assert [card for card in state["cells"] if card] == ["JD"]
    assert player.table()["cells"][0] == "JD"

    # The game of 617 was left for this one: its review is still offered.
    open_review_from_menu(page, width)
    previous = page.locator("#review-previous")
    expect(previous).to_be_visible()
    previous.click()
    expect(page.locator("#review-summary")).to_contain_text("Abandoned", timeout=REVIEWED)
    expect(page.locator("#review-timeline button")).to_have_count(4)


def open_review_from_menu(page: Page, width: int) -> None:
    if width < 600:
        page.locator("#menu-button").click()
    page.locator("#menu").get_by_role("button", name="Review").click()
    expect(page.locator("#review-dialog")).to_be_visible()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_won_game_is_reviewed_from_the_banner_winnable_throughout(
    open_page: Callable[..., Page], served: serving.Served, width: int, height: int
) -> None:
    """617 won by a known solution, its last move played on the page: the banner offers the
    review, every step of which is winnable, beside the solver's own solution's length."""
    solution = split_moves((DATA / "deal617.solution").read_text())
    page = open_page(viewport={"width": width, "height": height})
    player = Player(page, served.base)
    player.open(rules="standard", deal=617, moves=solution[:-1])
    player.play(solution[-1:])
    banner = page.locator("#banner")
    expect(banner).to_contain_text("You won")
    banner.get_by_role("button", name="Review the game").click()
    expect(page.locator("#review-progress")).to_have_text("", timeout=REVIEWED)
    marks = page.locator("#review-timeline button")
    expect(marks).to_have_count(len(solution) + 1)
    expect(page.locator("#review-timeline button.winnable")).to_have_count(len(solution))
    expect(page.locator("#review-summary")).to_contain_text(
        re.compile(rf"Won.*{len(solution)} moves played; the solver's solution from the start: \d+ moves")
    )
    # The last step is chosen: the table it left has every card home.
    expect(marks.last).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#review-board .mini-columns .mini-card")).to_have_count(0)
