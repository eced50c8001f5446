"""Plays without snags: Enter deals, take-backs typed with "s", restart asked and clocked
again, hints counted and assisted games marked, a double-click's next useful move, safe
cards home on request, toasts that go with the table they spoke of, cards named as players
read them, a focus ring apart from the selection, the selection announced, a run chosen
from the keyboard, and a deal lost before any move.

Deal 617 (standard) starts with these exposed cards: JD KS KC 4H JC 6C JH QH.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from player import Player
from playwright.sync_api import Page, expect

from freecell.notation import split_moves

OPENING = ["7a", "7b", "7c", "b7", "1b", "71"]  # leaves the ace of spades exposed in column 7
SELECTED = re.compile(r"\bselected\b")
DATA = Path(__file__).parent / "data"
JSON = {"Content-Type": "application/json"}  # a change of state is asked for in JSON


def test_enter_in_the_deal_number_or_the_game_code_deals(player: Player) -> None:
    player.open(rules="standard", deal=2)
    page = player.page
    page.locator("#new-game").click()
    page.locator("#new-number").fill("617")
    page.locator("#new-number").press("Enter")
    expect(page.locator("#new-dialog")).to_be_hidden()
    expect(page.locator("#deal-label")).to_contain_text("deal 617,")
    code = player.state()["code"]
    player.open(rules="standard", deal=2)
    page.locator("#new-game").click()
    page.locator("#new-code").fill(code)
    page.locator("#new-code").press("Enter")
    expect(page.locator("#new-dialog")).to_be_hidden()
    expect(page.locator("#game-code")).to_have_text(code)


def test_a_take_back_is_typed_with_its_suit(player: Player) -> None:
    player.open(rules="cardems", deal=617)
    player.play([*OPENING, "7h"])
    assert player.table()["foundations"][3] == "AS"
    player.type_move("hs2")  # onto the king of spades: refused, with the reason
    expect(player.toast()).to_contain_text("A♠ cannot go on K♠")
    player.type_move("hsd")  # to the free cell d (Cardems lets it come back to a cell)
    player.expect_moves(len(OPENING) + 2)
    assert player.table()["cells"][3] == "AS"


def test_restart_asks_first_and_starts_the_clock_again(player: Player) -> None:
    player.open(rules="standard", deal=617)
    page = player.page
    player.play(OPENING[:2])
    page.locator("#restart").click()
    expect(page.locator("#confirm-title")).to_have_text("Restart this deal?")
    page.get_by_role("button", name="Keep playing").click()
    player.expect_moves(2)
    page.wait_for_timeout(1100)  # let the clock pass a second
    page.locator("#restart").click()
    page.get_by_role("button", name="Restart", exact=True).last.click()
    player.expect_moves(0)
    assert player.state()["elapsed_seconds"] < 1
    expect(page.locator("#timer")).to_have_text("0:00")
    # With no move made there is nothing to lose: no question.
    page.locator("#restart").click()
    expect(page.locator("#confirm-dialog")).to_be_hidden()


def test_hints_are_counted_and_the_solution_marks_the_game_assisted(player: Player) -> None:
    player.open(rules="standard", deal=617)
    page = player.page
    expect(page.locator("#hints-box")).to_be_hidden()
    page.locator("#hint").click()
    expect(page.locator("#table .card.hint-source")).to_have_count(1, timeout=20_000)
    expect(page.locator("#hints")).to_have_text("1")
    expect(page.locator("#assisted-box")).to_be_hidden()
    page.locator("#solution").click()
    expect(page.locator("#solution-controls")).to_be_visible(timeout=20_000)
    page.locator("#solution-forward").click()
    player.expect_moves(1)
    expect(page.locator("#assisted-box")).to_be_visible()
    state = player.state()
    assert state["assisted"] is True and state["hints"] == 1


def test_a_double_click_sends_a_card_to_a_free_cell_or_a_column_when_it_cannot_go_home(player: Player) -> None:
    player.open(rules="standard", deal=617)
    player.click_card("jack of diamonds", double=True)
    player.expect_moves(1)
    assert player.table()["cells"][0] == "JD"
    # The jack of clubs too goes to a free cell, and from there onto a column where it
    # fits: the queen of hearts.
    player.click_card("jack of clubs", double=True)
    player.expect_moves(2)
    assert player.table()["cells"][1] == "JC"
    player.click_card("jack of clubs", double=True)
    player.expect_moves(3)
    assert player.column("8")[-2:] == ["QH", "JC"]
    player.expect_matches_server()


def test_safe_cards_go_home_by_themselves_once_the_player_asks(player: Player) -> None:
    player.open(rules="standard", deal=617)
    page = player.page
    page.get_by_role("button", name="Options").click()
    page.get_by_label("Send safe cards home by themselves").check()
    page.locator("#options-dialog").get_by_role("button", name="Done").click()
    player.play(OPENING)
    # After 71 the ace of spades, exposed, went home by itself.
    expect(player.place("spades foundation").locator(".card[data-key]")).to_have_count(1)
    assert player.state()["played"][-1] == "7h"
    # Remembered: a reload and a new deal keep it.
    page.reload()
    player.wait_for_table()
    page.get_by_role("button", name="Options").click()
    expect(page.get_by_label("Send safe cards home by themselves")).to_be_checked()
    page.locator("#options-dialog").get_by_role("button", name="Done").click()
    page.locator("#new-game").click()
    page.get_by_role("button", name="Leave it").click()
    page.locator("#new-number").fill("1")
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(page.locator("#deal-label")).to_contain_text("deal 1,")
    assert player.state()["auto_home"] is True


def test_a_toast_goes_once_the_table_changes(player: Player) -> None:
    player.open(rules="standard", deal=617)
    page = player.page
    player.type_move("12")  # the jack of diamonds onto the king of spades
    toast = player.toast()
    expect(toast).to_have_text(re.compile(r"^J♦ cannot go on K♠"))
    player.type_move("58")
    player.expect_moves(1)
    expect(toast).to_be_hidden()
    player.type_move("12")
    expect(toast).to_be_visible()
    page.keyboard.press("n")
    page.get_by_role("button", name="Leave it").click()
    page.locator("#new-number").fill("5")
    page.locator("#new-number").press("Enter")
    expect(page.locator("#deal-label")).to_contain_text("deal 5,")
    expect(toast).to_be_hidden()


def test_the_focus_ring_is_not_the_selection_and_the_selection_is_announced(player: Player) -> None:
    player.open(rules="standard", deal=617)
    page = player.page
    card = player.card("jack of clubs")
    card.focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focused from the keyboard: the ring shows
    focused = card.evaluate("el => getComputedStyle(el).outlineColor")
    page.keyboard.press("Enter")
    expect(card).to_have_class(SELECTED)
    expect(page.locator("#announce-selection")).to_have_text(re.compile(r"^Selected jack of clubs\."))
    expect(page.locator("#announce-selection")).to_contain_text("column 8")
    page.keyboard.press("Escape")
    expect(page.locator("#announce-selection")).to_have_text("")
    player.click_card("jack of diamonds")  # chosen with the mouse: no focus ring, the selection's gold
    selected = player.card("jack of diamonds").evaluate("el => getComputedStyle(el).outlineColor")
    assert focused == "rgb(255, 255, 255)"  # white: apart from the selection's and targets' gold
    assert selected == "rgb(244, 201, 93)"


def test_a_run_is_chosen_from_the_keyboard(player: Player) -> None:
    player.open(rules="standard", deal=617)
    page = player.page
    player.type_move("58")  # the jack of clubs onto the queen of hearts: a run of two
    player.expect_moves(1)
    player.card("jack of clubs").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    expect(player.card("queen of hearts")).to_have_class(SELECTED)
    expect(page.locator("#announce-selection")).to_contain_text("queen of hearts and the card on it")
    page.keyboard.press("ArrowUp")  # the 2 of spades is not in the run: no change
    expect(player.card("2 of spades")).not_to_have_class(SELECTED)
    player.heading("2").focus()
    page.keyboard.press("Enter")
    player.expect_moves(2)
    assert player.column("2")[-3:] == ["KS", "QH", "JC"]
    player.expect_matches_server()


def test_a_deal_lost_before_any_move_offers_a_new_one(player: Player) -> None:
    player.open(rules="app", cells=1, deal=617)
    page = player.page
    losing = page.locator("#losing")
    expect(losing).to_contain_text("This deal cannot be won, whatever is played", timeout=30_000)
    expect(page.locator("#rewind")).to_be_hidden()
    page.locator("#hint").click()
    expect(player.toast()).to_contain_text("This deal cannot be won")
    expect(player.toast()).not_to_contain_text("undo")
    losing.get_by_role("button", name="New deal").click()
    expect(page.locator("#new-dialog")).to_be_visible()


SIZES = pytest.mark.parametrize(
    "size", [{"width": 390, "height": 844}, {"width": 1366, "height": 768}], ids=["phone", "desktop"]
)


@SIZES
def test_enter_in_a_confirmation_keeps_the_game(
    open_page: Callable[..., Page], server: str, size: dict[str, int]
) -> None:
    """ "n" then Enter: the question has the safe answer focused, so nothing is abandoned."""
    player = Player(open_page(viewport=size), server)
    state = player.open(rules="standard", deal=617)
    player.play(OPENING[:2])
    page = player.page
    page.keyboard.press("n")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    expect(page.get_by_role("button", name="Keep playing")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    expect(page.locator("#new-dialog")).to_be_hidden()
    assert player.state(state["id"])["outcome"] == "playing"
    assert player.state()["id"] == state["id"]
    player.expect_moves(2)


@SIZES
def test_undo_at_the_limit_says_the_limit_is_reached(
    open_page: Callable[..., Page], server: str, size: dict[str, int]
) -> None:
    """The phone app's rules take back the last 100 actions: past them, the page says so."""
    player = Player(open_page(viewport=size), server)
    played = split_moves((DATA / "deal617.solution").read_text())[:101]
    state = player.open(rules="app", deal=617, moves=played)
    for _ in range(100):
        assert player.page.request.post(f"{server}/api/games/{state['id']}/undo", headers=JSON).ok
    player.page.reload()
    player.wait_for_table()
    player.expect_moves(1)
    expect(player.page.locator("#undo")).to_be_disabled()
    player.page.keyboard.press("u")
    expect(player.toast()).to_contain_text("the undo limit is reached")
    expect(player.toast()).to_contain_text("takes back only the last 100 actions")
    expect(player.toast()).not_to_contain_text("nothing to undo")


@SIZES
def test_a_refused_game_code_is_no_longer_said_wrong_once_changed(
    open_page: Callable[..., Page], server: str, size: dict[str, int]
) -> None:
    player = Player(open_page(viewport=size), server)
    player.open(rules="standard", deal=2)
    page = player.page
    code = player.state()["code"]
    page.locator("#new-game").click()
    error = page.locator("#new-error")
    page.locator("#new-code").fill("FC1-ST4-N00000K9A")
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(error).to_contain_text("FC1-ST4-N00000K9A")
    page.locator("#new-code").fill("FC1-ST4-N00000K9")  # mending it: the refusal spoke of the code that was
    expect(error).to_have_text("")
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(error).not_to_have_text("")
    page.get_by_label("Deal number").check()  # another way to deal
    expect(error).to_have_text("")
    page.locator("#new-code").fill(code)
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(page.locator("#new-dialog")).to_be_hidden()
    expect(page.locator("#game-code")).to_have_text(code)
