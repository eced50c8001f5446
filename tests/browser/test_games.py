"""Whole games through the page: new deals, game codes, reloads, lessons, a win, the panels."""

from __future__ import annotations

import re
from pathlib import Path

from boards import CAN_FINISH, LOST
from player import Player
from playwright.sync_api import Page, Route, expect

from freecell import Deal, find_rules
from freecell.cards import card_long_name
from freecell.lessons import LESSONS, find_lesson
from freecell.notation import split_moves

DATA = Path(__file__).parent / "data"
DEAL_1_FIRST_ROW = ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]


def test_new_deal_asks_first_when_a_game_is_in_progress(player: Player) -> None:
    first = player.open(rules="standard", deal=617)
    player.type_move("58")
    player.expect_moves(1)
    page = player.page
    page.locator("#new-game").click()
    expect(page.locator("#confirm-dialog")).to_be_visible()
    page.get_by_role("button", name="Keep playing").click()
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    expect(page.locator("#new-dialog")).to_be_hidden()
    player.expect_moves(1)
    assert player.state()["id"] == first["id"]

    page.keyboard.press("n")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    page.get_by_role("button", name="Leave it").click()
    expect(page.locator("#new-dialog")).to_be_visible()
    page.locator("#new-rules").select_option("standard")
    page.locator("#new-number").fill("1")
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(page.locator("#new-dialog")).to_be_hidden()
    expect(page.locator("#deal-label")).to_contain_text("deal 1,")
    player.expect_moves(0)
    assert [column[0] for column in player.table()["columns"]] == DEAL_1_FIRST_ROW
    assert player.state()["id"] != first["id"]


def test_a_random_deal_the_solver_has_won_shows_its_grade(player: Player) -> None:
    player.open(rules="standard", deal=617)
    page = player.page
    page.locator("#new-game").click()
    page.get_by_label("only one our solver has won").check()
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(page.locator("#new-dialog")).to_be_hidden(timeout=20_000)
    expect(page.locator("#deal-label")).to_contain_text(re.compile(r"· deal \d+, .* · (easy|medium|hard)"))
    assert player.state()["difficulty"] in {"easy", "medium", "hard"}


def test_a_game_code_deals_its_game_with_its_rules_and_cells(player: Player) -> None:
    code = Deal(find_rules("app", cells=2), 617).code()
    player.open(rules="standard", deal=1)
    page = player.page
    page.locator("#new-game").click()
    page.locator("#new-code").fill(code)
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(page.locator("#game-code")).to_have_text(code)
    expect(page.locator("#deal-label")).to_contain_text("FreeCell with take-backs (phone app)")
    # The app with two cells: only two free cells are drawn (001).
    expect(page.locator("#table .slot.cell")).to_have_count(2)
    assert player.table()["columns"][0] == ["7D", "TD", "TH", "KD", "4C", "4S", "JD"]
    expect(page.locator("#score-box")).to_be_visible()
    # A code that does not check out is refused inside the dialog.
    page.locator("#new-game").click()
    page.locator("#new-code").fill("FC1-XX9-NOTACODE")
    page.get_by_role("button", name="Deal", exact=True).click()
    expect(page.locator("#new-error")).to_have_text(re.compile(r"\w"))
    expect(page.locator("#new-dialog")).to_be_visible()


def test_a_reload_keeps_the_game(player: Player) -> None:
    state = player.new_game(rules="standard", deal=617)
    page = player.page
    page.goto(player.base)  # no ?game=: the page asks the server for the game in progress
    player.wait_for_table()
    player.type_move("58")
    player.type_move("7a")
    player.expect_moves(2)
    before = player.table()
    page.reload()
    player.wait_for_table()
    player.expect_moves(2)
    assert player.table() == before
    expect(page.locator("#game-code")).to_have_text(state["code"])
    page.keyboard.press("u")
    player.expect_moves(1)


def test_a_lesson_is_completed_and_a_mistake_explained(player: Player) -> None:
    player.open(rules="standard", deal=617)
    page = player.page
    page.get_by_role("button", name="Lessons").click()
    lesson = find_lesson("tableau")
    page.get_by_role("button", name=re.compile(lesson.title)).click()
    panel = page.locator("#lesson-panel")
    expect(panel).to_be_visible()
    expect(page.locator("#lesson-text")).to_have_text(lesson.steps[0].text)
    # A legal move that the step does not ask for is refused with the step's explanation.
    player.type_move("3a")
    expect(page.locator("#lesson-feedback")).to_contain_text(lesson.steps[0].why)
    player.expect_moves(0)
    position = lesson.start()
    for number, step in enumerate(lesson.steps, start=1):
        expect(page.locator("#lesson-text")).to_have_text(step.text)
        move = step.move(position)
        player.type_move(position.notation(move))
        player.expect_moves(number)
        position = position.apply(move, lesson.rules)
    expect(page.locator("#lesson-text")).to_have_text(lesson.done)
    expect(page.locator("#lesson-feedback")).to_contain_text("lesson complete")
    page.get_by_role("button", name="Next lesson").click()
    following = LESSONS[[entry.id for entry in LESSONS].index(lesson.id) + 1]
    expect(page.locator("#lesson-title")).to_contain_text(following.title)


def test_a_whole_game_won_through_the_page(player: Player) -> None:
    moves = split_moves((DATA / "deal617.solution").read_text())
    assert len(moves) > 50
    player.open(rules="standard", deal=617)
    rules = find_rules("standard")
    position = Deal(rules, 617).position()
    for number, text in enumerate(moves, start=1):
        move = position.parse_move(text, rules)
        source, target = move.source.index, move.target.index
        one_of_a_run = (  # typed, a move into an empty column carries the whole run, as a click does
            text.isdigit() and not position.columns[target] and position.run_length(source, rules.building) > 1
        )
        if one_of_a_run:  # one card of it goes by a click on that card
            player.click_card(card_long_name(position.columns[source][-1]))
            player.heading(text[1]).click()
        else:
            player.type_move(text)
        player.expect_moves(number)
        position = position.apply(move, rules)
    banner = player.page.locator("#banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("You won")
    assert player.state()["outcome"] == "won"
    assert player.table()["foundations"] == ["KC", "KD", "KH", "KS"]


def test_auto_finish_plays_a_trivially_won_end(player: Player) -> None:
    player.open(rules="standard", board=CAN_FINISH)
    page = player.page
    expect(page.locator("#game-code")).to_have_text("imported position — no game code")
    expect(page.locator("#copy-code")).to_be_hidden()
    page.get_by_role("button", name="Auto-finish").click()
    expect(page.locator("#banner")).to_contain_text("You won")
    assert player.table()["foundations"] == ["KC", "KD", "KH", "KS"]


def test_a_lost_game_says_so_and_offers_a_way_on(player: Player) -> None:
    player.open(rules="standard", board=LOST)
    banner = player.page.locator("#banner")
    expect(banner).to_contain_text("lost")
    for action in ("Undo", "Restart", "New deal"):
        expect(banner.get_by_role("button", name=action)).to_be_visible()
    banner.get_by_role("button", name="New deal").click()
    expect(player.page.locator("#new-dialog")).to_be_visible()


# Winnable, but putting the KS into the last free cell (8d) leaves nothing to do but shuffle
# the 8H between the two black nines: found with the solver, which proves both.
ONE_MOVE_FROM_LOSING = """Foundations: H-0 C-0 D-0 S-0
Freecells: KC KD KH -
: 9H 6S 4C 2H 4D QC
: 7S TH 5H 6C JD QS
: 3S AC 2D 6H 4S JC
: 2C 5S 4H QH QD JS
: 2S JH 9D AH 5D TC
: 6D 7H 7C 8S 8D TS
: 7D 8C 3D TD 5C 9C
: 3C 3H AS AD 9S 8H KS
"""


def test_the_losing_move_is_shown_once_the_solver_names_it_after_the_verdict(player: Player) -> None:
    """Played quickly, a game can be proven lost before the positions that led there are
    judged: the first answers say "cannot be won" without the losing move. The page asks
    again until the move is named, and then offers the way back."""
    page = player.page
    held = {"answers": 0}

    def without_the_losing_move(route: Route) -> None:
        response = route.fetch()
        answer = response.json()
        if answer.get("verdict") == "not-winnable" and held["answers"] < 2:
            held["answers"] += 1
            answer["losing_move"] = None
        route.fulfill(response=response, json=answer)

    page.route(re.compile(r"/analysis(\?|$)"), without_the_losing_move)
    player.open(rules="standard", board=ONE_MOVE_FROM_LOSING)
    expect(page.locator("#verdict")).to_have_text("Can be won", timeout=20_000)
    player.type_move("8d")
    expect(page.locator("#verdict")).to_have_text("Cannot be won from here", timeout=20_000)
    expect(page.locator("#losing")).to_contain_text("8d", timeout=20_000)
    assert held["answers"] == 2  # the first two answers had no losing move
    expect(page.get_by_role("button", name="Go back 1 move")).to_be_visible()


def test_the_solver_says_whether_the_game_can_be_won_and_finds_the_losing_move(player: Player) -> None:
    player.open(rules="standard", board=ONE_MOVE_FROM_LOSING)
    page = player.page
    verdict = page.locator("#verdict")
    expect(verdict).to_have_text("Can be won", timeout=20_000)
    player.type_move("8d")
    player.expect_moves(1)
    expect(verdict).to_have_text("Cannot be won from here", timeout=20_000)
    expect(page.locator("#losing")).to_contain_text("8d")
    page.get_by_role("button", name="Go back 1 move").click()
    player.expect_moves(0)
    assert player.table()["cells"][3] is None
    expect(verdict).to_have_text("Can be won", timeout=20_000)
    # The verdict can be put out of sight, and stays so.
    page.get_by_role("button", name="Options").click()
    page.get_by_label("Show whether the game can still be won").uncheck()
    page.locator("#options-dialog").get_by_role("button", name="Done").click()
    expect(page.locator("#verdict-box")).to_be_hidden()
    page.reload()
    player.wait_for_table()
    expect(page.locator("#verdict-box")).to_be_hidden()


def test_the_timer_pauses_and_resumes(player: Player) -> None:
    state = player.open(rules="standard", deal=617)
    page = player.page
    page.get_by_role("button", name="Pause the timer").click()
    expect(page.locator("#paused-cover")).to_be_visible()
    assert player.state(state["id"])["paused"] is True
    shown = page.locator("#timer").text_content()
    page.wait_for_timeout(1200)
    assert page.locator("#timer").text_content() == shown
    page.locator("#resume").click()
    expect(page.locator("#paused-cover")).to_be_hidden()
    assert player.state(state["id"])["paused"] is False


def _show_page(page: Page, visibility: str) -> None:
    """Make the page hidden or visible again, as another tab or a closed lid would."""
    page.evaluate(
        """(visibility) => {
            Object.defineProperty(document, "visibilityState", { value: visibility, configurable: true });
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        visibility,
    )


def test_the_clock_stops_while_the_page_is_hidden(player: Player) -> None:
    state = player.open(rules="standard", deal=617)
    page = player.page
    _show_page(page, "hidden")
    page.wait_for_function("() => !document.querySelector('#paused-cover').hidden")
    assert player.state(state["id"])["paused"] is True
    held = player.state(state["id"])["elapsed_seconds"]
    page.wait_for_timeout(1200)
    assert player.state(state["id"])["elapsed_seconds"] == held  # no time counts while away
    _show_page(page, "visible")
    expect(page.locator("#paused-cover")).to_be_hidden()
    assert player.state(state["id"])["paused"] is False

    # Hidden, then opened again (the tab was closed): the clock runs again too.
    _show_page(page, "hidden")
    page.wait_for_function("() => !document.querySelector('#paused-cover').hidden")
    page.reload()
    player.wait_for_table()
    expect(page.locator("#paused-cover")).to_be_hidden()
    assert player.state(state["id"])["paused"] is False

    # A pause of the player's own stays when they come back, and when the page is opened again.
    page.get_by_role("button", name="Pause the timer").click()
    expect(page.locator("#paused-cover")).to_be_visible()
    _show_page(page, "hidden")
    _show_page(page, "visible")
    page.wait_for_timeout(500)
    expect(page.locator("#paused-cover")).to_be_visible()
    page.reload()
    player.wait_for_table()
    page.wait_for_timeout(500)
    expect(page.locator("#paused-cover")).to_be_visible()
    assert player.state(state["id"])["paused"] is True


def test_a_game_opened_in_a_hidden_tab_starts_paused(player: Player) -> None:
    state = player.new_game(rules="standard", deal=617)
    page = player.page
    page.add_init_script('Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true })')
    page.goto(f"{player.base}/?game={state['id']}")
    player.wait_for_table()
    page.wait_for_function("() => !document.querySelector('#paused-cover').hidden")
    assert player.state(state["id"])["paused"] is True
    _show_page(page, "visible")
    expect(page.locator("#paused-cover")).to_be_hidden()
    assert player.state(state["id"])["paused"] is False


def test_the_move_calculator(player: Player) -> None:
    player.open(rules="supermove", deal=617)
    page = player.page
    calculator = page.locator("#calculator")
    expect(calculator).to_be_visible()  # always on show in SuperMove (000)
    expect(page.locator("#toggle-calculator")).to_be_hidden()
    expect(page.locator("#calc-occupied")).to_have_text("4 + 1 = 5")
    page.locator("#calc-cells").fill("2")
    page.locator("#calc-columns").fill("1")
    expect(page.locator("#calc-try-out")).to_contain_text("(2 + 1) × 2 = 6")
    expect(page.locator("#calc-try-out")).to_contain_text("2 + 1 = 3")
    # Elsewhere it is shown on demand.
    player.open(rules="standard", deal=617)
    expect(calculator).to_be_hidden()
    page.locator("#toggle-calculator").click()
    expect(calculator).to_be_visible()
    expect(page.locator("#calc-occupied")).to_have_text("4 + 1 = 5")


def test_rules_statistics_and_options(player: Player) -> None:
    player.open(rules="bakers-game", deal=617)
    page = player.page
    rules = {entry["name"]: entry for entry in page.request.get(f"{player.base}/api/rules").json()}
    page.get_by_role("button", name="Rules").click()
    expect(page.locator("#rules-dialog")).to_be_visible()
    first_paragraph = rules["bakers-game"]["text"].split("\n\n")[0]
    expect(page.locator("#rules-text")).to_contain_text(first_paragraph)
    page.locator("#rules-dialog").get_by_role("button", name="Close").click()

    page.get_by_role("button", name="Statistics").click()
    expect(page.locator("#stats-dialog table")).to_be_visible()
    expect(page.locator("#stats-dialog")).to_contain_text("Baker's Game")
    assert page.locator("#stats-dialog a", has_text="CSV").get_attribute("href") == "/api/stats.csv"
    page.locator("#stats-dialog").get_by_role("button", name="Close").click()

    page.get_by_role("button", name="Options").click()
    page.get_by_label("Show the timer").uncheck()
    page.locator("#options-dialog").get_by_role("button", name="Done").click()
    expect(page.locator("#timer-box")).to_be_hidden()
    page.reload()
    player.wait_for_table()
    expect(page.locator("#timer-box")).to_be_hidden()  # remembered in localStorage


def test_the_game_code_is_copied(player: Player) -> None:
    player.page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    state = player.open(rules="standard", deal=617)
    player.page.locator("#copy-code").click()
    expect(player.toast()).to_contain_text("copied")
    assert player.page.evaluate("navigator.clipboard.readText()") == state["code"]
