"""The solver's help through the page: hints followed to a win, the solution viewer
(stepping, playing itself, copying the line), and positions imported from a pasted board."""

from __future__ import annotations

import re
from pathlib import Path

from player import Player
from playwright.sync_api import expect
from test_games import ONE_MOVE_FROM_LOSING

from freecell import Deal, Position, find_rules
from freecell.notation import split_moves
from freecell.replay import replay

DATA = Path(__file__).parent / "data"
STANDARD = find_rules("standard")
# Deal 3 is won by our solver in a short line (77 moves, found in a few milliseconds).
SHORT_DEAL = 3


def test_hints_followed_one_after_another_win_the_deal(player: Player) -> None:
    player.page.emulate_media(reduced_motion="reduce")
    player.open(rules="standard", deal=SHORT_DEAL)
    page = player.page
    hinted = page.locator("#table .card.hint-source")
    for played in range(1, 200):
        page.locator("#hint").click()
        expect(hinted.first).to_be_visible(timeout=20_000)
        # Each hint is counted, as the server counted it.
        expect(page.locator("#hints")).to_have_text(str(played))
        # The whole run the hint moves is lit: its deepest card picks them all up.
        run = hinted.count()
        hinted.first.click(position={"x": 10, "y": 8})
        expect(page.locator("#table .card.selected")).to_have_count(run)
        page.locator("#table .hint-target").first.click(position={"x": 10, "y": 8})
        player.expect_moves(played)
        if page.locator("#banner").is_visible():  # rendered with the move just counted
            break
    expect(page.locator("#banner")).to_contain_text(f"You won! {played} moves")
    expect(page.locator("#banner")).to_contain_text(f"with {played} hints")
    assert player.state()["outcome"] == "won" and player.state()["hints"] == played
    assert player.table()["foundations"] == ["KC", "KD", "KH", "KS"]


def open_solution(player: Player) -> int:
    """Open the viewer and wait for its line; returns the line's length."""
    player.page.locator("#solution").click()
    position = player.page.locator("#solution-position")
    expect(position).to_have_text(re.compile(r"^0 / [1-9]\d*$"), timeout=20_000)
    return int((position.text_content() or "").split("/")[1])


def test_the_solution_steps_forward_and_back_then_plays_itself_to_a_win(player: Player) -> None:
    state = player.open(rules="standard", deal=SHORT_DEAL)
    page = player.page
    player.play(["1a"])  # the player's own move, which the viewer must never take back
    mine = player.table()
    length = open_solution(player)
    position = page.locator("#solution-position")
    back = page.get_by_role("button", name="Step back")
    expect(back).to_be_disabled()

    # Played by the server and slid into place like any other move. (A card slides for a
    # quarter of a second: watched from the page, so that a busy machine cannot miss it.)
    page.evaluate("""() => {
      window.slid = false;
      new MutationObserver(() => { window.slid ||= !!document.querySelector('#table .card.moving'); })
        .observe(document.getElementById('table'), {subtree: true, attributes: true, attributeFilter: ['class']});
    }""")
    page.get_by_role("button", name="Step forward").click()
    expect(position).to_have_text(f"1 / {length}")
    player.expect_moves(2)
    page.wait_for_function("() => window.slid")
    player.settle()
    for key in "...":  # quick presses are all played, one after the other
        page.keyboard.press(key)
    expect(position).to_have_text(f"4 / {length}")
    player.expect_moves(5)
    assert player.table() != mine
    player.expect_matches_server()

    for key in ",,,":
        page.keyboard.press(key)
    expect(position).to_have_text(f"1 / {length}")
    player.expect_moves(2)
    back.click()
    expect(position).to_have_text(f"0 / {length}")
    player.expect_moves(1)
    player.settle()
    assert player.table() == mine
    expect(back).to_be_disabled()
    page.keyboard.press(",")  # nothing of the viewer's is left to take back
    page.wait_for_timeout(300)
    player.expect_moves(1)

    page.get_by_label("Speed").select_option(label="Fastest")
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#banner")).to_contain_text("You won", timeout=60_000)
    expect(position).to_have_text(f"{length} / {length}")
    assert player.state(state["id"])["moves"] == length + 1


def test_a_move_of_the_players_own_closes_the_solution(player: Player) -> None:
    player.open(rules="standard", deal=SHORT_DEAL)
    open_solution(player)
    player.page.get_by_role("button", name="Step forward").click()
    player.expect_moves(1)
    player.page.locator("#undo").click()
    expect(player.page.locator("#solution-bar")).to_be_hidden()
    expect(player.toast()).to_contain_text("You took over")
    player.expect_moves(0)


def test_copy_puts_the_rest_of_the_line_on_the_clipboard(player: Player) -> None:
    page = player.page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    player.open(rules="standard", deal=SHORT_DEAL)
    length = open_solution(player)
    for _ in range(2):
        page.get_by_role("button", name="Step forward").click()
    expect(page.locator("#solution-position")).to_have_text(f"2 / {length}")
    page.get_by_role("button", name="Copy", exact=True).last.click()
    expect(page.locator("#solution-copy")).to_have_text("Copied ✓")
    copied = page.evaluate("navigator.clipboard.readText()")
    moves = split_moves(copied)
    assert copied == " ".join(moves) and len(moves) == length - 2
    # What is copied is what is left: from the table as it is now, it wins.
    assert replay(player.position(), STANDARD, moves).is_won()

def test_without_a_clipboard_the_line_is_selected_to_copy_by_hand(player: Player) -> None:
    page = player.page
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    player.open(rules="standard", deal=SHORT_DEAL)
    length = open_solution(player)
    page.locator("#solution-copy").click()
    field = page.locator("#solution-text")
    expect(field).to_be_visible()
    expect(field).to_be_focused()
    line = split_moves(field.input_value())
    assert len(line) == length
    assert replay(Deal(STANDARD, SHORT_DEAL).position(), STANDARD, line).is_won()
    selected = page.evaluate("(() => { const f = document.getElementById('solution-text'); "
                             "return f.value.slice(f.selectionStart, f.selectionEnd); })()")
    assert selected == field.input_value()


def mid_game_617() -> Position:
    """Deal 617 after the first five moves of a known solution."""
    position = Deal(STANDARD, 617).position()
    for text in split_moves((DATA / "deal617.solution").read_text())[:5]:
        position = position.apply(position.parse_move(text, STANDARD), STANDARD)
    return position


def paste_board(player: Player, board: str) -> None:
    """Open New game, choose a position of one's own, paste ``board`` and deal it."""
    page = player.page
    page.locator("#new-game").click()
    if page.locator("#confirm-dialog").is_visible():
        page.locator("#confirm-ok").click()
    dialog = page.locator("#new-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("A position of my own").check()
    area = dialog.get_by_label("The position to play")
    expect(area).to_have_attribute("placeholder", re.compile("Foundations: .*Freecells: ", re.DOTALL))
    area.fill(board)
    dialog.get_by_role("button", name="Deal").click()


def test_an_imported_mid_game_position_is_played_and_solved(player: Player) -> None:
    position = mid_game_617()
    player.open(rules="standard", deal=1)
    paste_board(player, position.to_text())
    page = player.page
    expect(page.locator("#new-dialog")).to_be_hidden()
    expect(page.locator("#deal-label")).to_contain_text("imported position")
    expect(page.locator("#game-code")).to_have_text("imported position — no game code")
    expect(page.locator("#copy-code")).to_be_hidden()
    player.expect_moves(0)
    assert player.position() == position
    player.expect_matches_server()
    # Solved on request: a hint, played by hand, then the solution to the end.
    page.locator("#hint").click()
    hinted = page.locator("#table .card.hint-source")
    expect(hinted.first).to_be_visible(timeout=20_000)
    hinted.first.click(position={"x": 10, "y": 8})
    page.locator("#table .hint-target").first.click(position={"x": 10, "y": 8})
    player.expect_moves(1)
    length = open_solution(player)
    page.get_by_label("Speed").select_option(label="Fastest")
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#banner")).to_contain_text("You won", timeout=60_000)
    assert player.state()["moves"] == length + 1


def test_a_board_with_a_card_twice_is_refused_and_the_game_goes_on(player: Player) -> None:
    state = player.open(rules="standard", deal=617)
    player.play(["3a"])
    before = player.table()
    board = mid_game_617().to_text()
    twice = board.replace("KH", "7D", 1)  # the 7D is there twice, the KH not at all
    assert twice != board
    paste_board(player, twice)
    error = player.page.locator("#new-error")
    expect(error).to_contain_text("7♦")
    expect(player.page.locator("#new-dialog")).to_be_visible()
    player.page.locator("#new-dialog").get_by_role("button", name="Cancel").click()
    assert player.state()["id"] == state["id"]
    player.expect_moves(1)
    assert player.table() == before


def test_the_solution_says_so_when_the_position_cannot_be_won(player: Player) -> None:
    player.open(rules="standard", board=ONE_MOVE_FROM_LOSING)
    player.play(["8d"])
    player.page.locator("#solution").click()
    expect(player.page.locator("#solution-message")).to_contain_text("cannot be won", timeout=20_000)
    expect(player.page.locator("#solution-controls")).to_be_hidden()


def test_a_verdict_the_in_play_search_cannot_reach_is_searched_further_and_shown(player: Player) -> None:
    """Deal 982 with 2 cells is lost, but even the relaxed proof walks 278,190 classes
    (the plain one did not end within 60 s): the in-play search (300,000 positions, a
    third of them the last search's) stops short, the longer one that follows decides
    it (5.6 s on our machine)."""
    player.open(rules="standard", cells=2, deal=982)
    page = player.page
    verdict = page.locator("#verdict")
    expect(verdict).to_have_text("Unknown so far: searching further…", timeout=30_000)
    page.locator("#hint").click()
    expect(player.toast()).to_contain_text("it is searching further", timeout=20_000)
    expect(verdict).to_have_text("Cannot be won from here", timeout=90_000)
    expect(page.locator("#losing")).to_contain_text("This deal cannot be won")
    page.locator("#hint").click()
    expect(player.toast()).to_contain_text("This deal cannot be won", timeout=20_000)
