"""A paused game hides its cards and stops its clock: until the player resumes, nothing
shows or changes them. Hint, Undo, Redo, Restart, Solution and Review are not offered
(their keys do nothing either), the solution's steps wait, a note about the hidden cards
goes, and the notices about them ("Go back", Auto-finish) wait under the cover; Resume
gives them all back."""

from __future__ import annotations

from boards import CAN_FINISH, LOST
from player import Player
from playwright.sync_api import Page, expect

WAITING = ["Hint", "Undo", "Redo", "Restart", "Solution"]


def pause(page: Page) -> None:
    page.get_by_role("button", name="Pause the timer").click()
    expect(page.locator("#paused-cover")).to_be_visible()


def resume(page: Page) -> None:
    page.locator("#resume").click()
    expect(page.locator("#paused-cover")).to_be_hidden()


def test_nothing_shows_or_changes_the_cards_while_paused(player: Player) -> None:
    state = player.open(rules="standard", deal=617)
    page = player.page
    player.play(["1a", "1b"])
    page.get_by_role("button", name="Undo").click()
    player.expect_moves(1)  # both Undo and Redo can be pressed
    page.get_by_role("button", name="Hint").click()
    expect(player.toast()).to_contain_text("(", timeout=30_000)
    expect(page.locator("#table .hint-source").first).to_be_attached()

    pause(page)
    expect(player.toast()).to_be_hidden()  # it spoke of the cards now hidden
    expect(page.locator("#table .hint-source")).to_have_count(0)
    toolbar = page.locator(".toolbar")
    for name in WAITING:
        expect(toolbar.get_by_role("button", name=name, exact=True)).to_be_disabled()
    expect(page.locator("#review-open")).to_be_disabled()
    held = player.state(state["id"])
    for key in ["?", "u", "r"]:
        page.keyboard.press(key)
    page.wait_for_timeout(1500)  # time for an answer, were one sent
    expect(player.toast()).to_be_hidden()
    expect(page.locator("#paused-cover")).to_be_visible()
    now = player.state(state["id"])
    assert now["paused"] is True
    for kept in ["moves", "hints", "elapsed_seconds"]:
        assert now[kept] == held[kept], kept
    player.expect_moves(1)

    resume(page)
    for name in WAITING:
        expect(toolbar.get_by_role("button", name=name, exact=True)).to_be_enabled()
    page.keyboard.press("?")
    expect(player.toast()).to_contain_text("(", timeout=30_000)
    page.keyboard.press("r")
    player.expect_moves(2)


def test_the_solution_waits_while_paused(player: Player) -> None:
    player.open(rules="standard", deal=617)
    page = player.page
    page.get_by_role("button", name="Solution").click()
    message = page.locator("#solution-message")
    expect(message).to_contain_text("Next move", timeout=60_000)
    pause(page)
    expect(message).to_have_text("Paused: resume the game to go on with the solution.")
    for name in ["Step forward", "Play", "Step back"]:
        expect(page.locator("#solution-bar").get_by_role("button", name=name)).to_be_disabled()
    page.keyboard.press(".")
    page.wait_for_timeout(800)
    player.expect_moves(0)
    assert player.state()["paused"] is True
    resume(page)
    expect(message).to_contain_text("Next move")
    page.get_by_role("button", name="Step forward").click()
    player.expect_moves(1)


def test_the_auto_finish_offer_waits_under_the_cover(player: Player) -> None:
    player.open(rules="standard", board=CAN_FINISH)
    page = player.page
    offer = page.get_by_role("button", name="Auto-finish")
    expect(offer).to_be_visible()
    pause(page)
    expect(offer).to_be_hidden()
    resume(page)
    offer.click()
    expect(page.locator("#banner")).to_contain_text("You won")


def test_a_lost_games_banner_offers_only_a_new_deal_while_paused(player: Player) -> None:
    player.open(rules="standard", board=LOST)
    page = player.page
    banner = page.locator("#banner")
    expect(banner).to_contain_text("lost")
    pause(page)
    for name in ["Undo", "Restart", "Review the game"]:
        expect(banner.get_by_role("button", name=name)).to_be_disabled()
    expect(banner.get_by_role("button", name="New deal")).to_be_enabled()
    resume(page)
    for name in ["Restart", "Review the game"]:
        expect(banner.get_by_role("button", name=name)).to_be_enabled()
