"""Moves through the page: clicks, drags (mouse and touch), keys, refusals, undo and redo.

Deal 617 (standard) starts with these exposed cards: JD KS KC 4H JC 6C JH QH, so the
jack of clubs (column 5) fits on the queen of hearts (column 8).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from player import Player
from playwright.sync_api import Page, expect

SELECTED = re.compile(r"\bselected\b")
TARGET = re.compile(r"\btarget\b")
OPENING = ["7a", "7b", "7c", "b7", "1b", "71"]  # leaves the ace of spades exposed in column 7


def test_click_a_card_then_a_column_heading(player: Player) -> None:
    player.open(rules="standard", deal=617)
    player.click_card("jack of clubs")
    expect(player.card("jack of clubs")).to_have_class(SELECTED)
    # The server's legal destinations are highlighted: column 8 and the free cells.
    expect(player.heading("8")).to_have_class(TARGET)
    expect(player.place("free cell a")).to_have_class(TARGET)
    expect(player.heading("1")).not_to_have_class(TARGET)
    player.heading("8").click()
    player.expect_moves(1)
    assert player.column("8")[-2:] == ["QH", "JC"]
    assert player.column("5")[-1] == "7C"
    player.expect_matches_server()


def test_click_a_card_then_a_free_cell_and_back(player: Player) -> None:
    player.open(rules="standard", deal=617)
    player.click_card("jack of clubs")
    player.place("free cell a").click()
    player.expect_moves(1)
    assert player.table()["cells"][0] == "JC"
    player.click_card("jack of clubs")
    player.heading("8").click()
    player.expect_moves(2)
    assert player.column("8")[-1] == "JC"
    player.expect_matches_server()


def test_drag_a_card_with_the_mouse(player: Player) -> None:
    player.open(rules="standard", deal=617)
    player.drag(player.card("jack of clubs"), player.card("queen of hearts"))
    player.expect_moves(1)
    assert player.column("8")[-1] == "JC"
    # A drag to nowhere legal puts the card back and changes nothing.
    player.drag(player.card("king of spades"), player.heading("1"))
    expect(player.toast()).to_be_visible()
    player.expect_moves(1)
    assert player.column("2")[-1] == "KS"
    player.expect_matches_server()


def test_drag_a_card_by_touch(open_page: Callable[..., Page], server: str) -> None:
    page = open_page(viewport={"width": 1280, "height": 900}, has_touch=True)
    touch = Player(page, server)
    touch.open(rules="standard", deal=617)
    touch.settle()
    start = touch.card("jack of hearts").bounding_box()
    end = touch.place("free cell b").bounding_box()
    assert start is not None and end is not None
    cdp = page.context.new_cdp_session(page)

    def finger(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    x, y = start["x"] + 10, start["y"] + 8
    finger("touchStart", x, y)
    tx, ty = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    for i in range(1, 11):
        finger("touchMove", x + (tx - x) * i / 10, y + (ty - y) * i / 10)
    finger("touchEnd", tx, ty)
    touch.expect_moves(1)
    assert touch.table()["cells"][1] == "JH"


def test_keyboard_moves_undo_and_redo(player: Player) -> None:
    player.open(rules="standard", deal=617)
    player.type_move("58")
    player.expect_moves(1)
    player.type_move("7a")
    player.expect_moves(2)
    assert player.table()["cells"][0] == "JH"
    player.page.keyboard.press("u")
    player.expect_moves(1)
    assert player.table()["cells"][0] is None
    player.page.keyboard.press("Control+z")
    player.expect_moves(0)
    assert player.column("5")[-1] == "JC"
    player.page.keyboard.press("r")
    player.expect_moves(1)
    player.page.keyboard.press("Control+y")
    player.expect_moves(2)
    player.expect_matches_server()
    # Escape clears a half-typed move: "5" then Escape then "7a" would be refused if "5" stayed.
    player.page.keyboard.type("5")
    expect(player.page.locator("#typed")).to_have_text("Move: 5")
    player.page.keyboard.press("Escape")
    expect(player.page.locator("#typed")).to_be_hidden()


def test_undo_and_redo_buttons(player: Player) -> None:
    player.open(rules="standard", deal=617)
    expect(player.page.locator("#undo")).to_be_disabled()
    player.type_move("58")
    player.expect_moves(1)
    player.page.locator("#undo").click()
    player.expect_moves(0)
    assert player.column("8")[-1] == "QH"
    expect(player.page.locator("#redo")).to_be_enabled()
    player.page.locator("#redo").click()
    player.expect_moves(1)
    assert player.column("8")[-1] == "JC"
    player.expect_matches_server()


def test_an_illegal_move_is_refused_with_the_reason_and_nothing_changes(player: Player) -> None:
    state = player.open(rules="standard", deal=617)
    before = player.table()
    player.click_card("king of spades")
    player.heading("1").click()
    refusal = player.page.request.post(f"{player.base}/api/games/{state['id']}/moves", data={"move": "21v1"})
    assert refusal.status == 400
    expect(player.toast()).to_have_text(refusal.json()["detail"])
    assert player.table() == before
    player.expect_moves(0)
    assert player.state(state["id"])["moves"] == 0
    # A typed illegal move is refused the same way.
    player.type_move("1a")
    player.expect_moves(1)
    player.type_move("18")
    expect(player.toast()).to_be_visible()
    player.expect_moves(1)


def test_a_run_is_picked_up_only_when_ordered(player: Player) -> None:
    player.open(rules="standard", deal=617)
    # Column 6 ends 7H 6H 6C: the 6H and 6C are not in sequence.
    player.click_card("7 of hearts")
    expect(player.toast()).to_contain_text("ordered run")
    expect(player.page.locator("#table .card.selected")).to_have_count(0)
    player.play(OPENING)
    # Column 1 now ends 4S 3D 2C: choosing the 3D takes the 2C with it.
    player.click_card("3 of diamonds")
    expect(player.page.locator("#table .card.selected")).to_have_count(2)
    player.page.keyboard.press("Escape")
    expect(player.page.locator("#table .card.selected")).to_have_count(0)


def test_double_click_sends_a_card_home(player: Player) -> None:
    player.open(rules="standard", deal=617)
    player.play(OPENING)
    player.click_card("ace of spades", double=True)
    player.expect_moves(len(OPENING) + 1)
    assert player.table()["foundations"][3] == "AS"
    player.expect_matches_server()


def test_in_the_app_preset_one_tap_tries_the_foundation_first(player: Player) -> None:
    player.open(rules="app", deal=617)
    player.play(OPENING)
    player.click_card("ace of spades")
    player.expect_moves(len(OPENING) + 1)
    assert player.table()["foundations"][3] == "AS"
    # +5 for the 2C from cell b to a column, +10 for the ace home.
    expect(player.page.locator("#score")).to_have_text("15")
    assert player.state()["score"] == 15
    # A card that cannot go home is selected instead.
    player.click_card("jack of clubs")
    expect(player.card("jack of clubs")).to_have_class(SELECTED)


def test_a_card_is_taken_back_from_a_foundation_where_the_rules_allow(player: Player) -> None:
    player.open(rules="cardems", deal=617)
    player.play([*OPENING, "7h"])
    player.click_card("ace of spades")
    expect(player.place("free cell d")).to_have_class(TARGET)
    player.place("free cell d").click()
    player.expect_moves(len(OPENING) + 2)
    assert player.table()["cells"][3] == "AS"
    assert player.table()["foundations"][3] is None
    # Home again, then dragged back from the foundation onto the 2D of column 7.
    player.type_move("dh")
    player.expect_moves(len(OPENING) + 3)
    player.drag(player.card("ace of spades"), player.card("2 of diamonds"))
    player.expect_moves(len(OPENING) + 4)
    assert player.column("7")[-2:] == ["2D", "AS"]
    player.expect_matches_server()


def test_foundation_cards_stay_where_the_rules_say_so(player: Player) -> None:
    player.open(rules="standard", deal=617)
    player.play([*OPENING, "7h"])
    player.click_card("ace of spades")
    expect(player.toast()).to_contain_text("foundations")
    expect(player.page.locator("#table .card.selected")).to_have_count(0)


def test_hint_highlights_a_move(player: Player) -> None:
    player.open(rules="standard", deal=617)
    player.page.locator("#hint").click()
    expect(player.toast()).to_have_text(re.compile(r"\w"))
    expect(player.page.locator("#table .card.hint-source")).to_have_count(1)
    assert player.page.locator("#table .hint-target").count() >= 1


def test_a_run_over_capacity_is_refused_with_the_capacity(player: Player) -> None:
    # Every cell is full and no column is empty, so only one card moves at a time; column 1
    # ends with the run 9H 8S, which would fit on the TS of column 2.
    cards = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
    cells = ["KC", "KD", "KH", "KS"]
    rest = [card for card in cards if card not in [*cells, "9H", "8S", "TS"]]
    columns = [[*rest[:4], "9H", "8S"], [*rest[4:9], "TS"]] + [rest[i : i + 7] for i in range(9, len(rest), 7)]
    board = f"Foundations: H-0 C-0 D-0 S-0\nFreecells: {' '.join(cells)}\n" + "\n".join(
        ": " + " ".join(column) for column in columns
    )
    player.open(rules="standard", board=board)
    player.click_card("9 of hearts")
    expect(player.page.locator("#table .card.selected")).to_have_count(2)
    expect(player.page.locator("#table .target")).to_have_count(0)
    player.heading("2").click()
    expect(player.toast()).to_contain_text("capacity is 1")
    player.expect_moves(0)
    assert player.column("1")[-2:] == ["9H", "8S"]


def test_a_focused_card_and_place_are_chosen_with_enter(player: Player) -> None:
    player.open(rules="standard", deal=617)
    player.card("jack of clubs").focus()
    player.page.keyboard.press("Enter")
    expect(player.card("jack of clubs")).to_have_class(SELECTED)
    player.heading("8").focus()
    player.page.keyboard.press("Enter")
    player.expect_moves(1)
    assert player.column("8")[-1] == "JC"
    expect(player.page.locator("#announce")).to_have_text("Played 58. 1 move so far.")


def test_under_strict_rules_a_run_is_played_card_by_card(player: Player) -> None:
    player.open(rules="strict", deal=617)
    player.play(OPENING[:5])
    # Column 7 ends 3D 2C; both go onto the 4S of column 1, through a free cell.
    player.click_card("3 of diamonds")
    expect(player.page.locator("#table .card.selected")).to_have_count(2)
    player.heading("1").click()
    player.expect_moves(len(OPENING[:5]) + 3)
    assert player.column("1")[-3:] == ["4S", "3D", "2C"]
    player.expect_matches_server()
    player.page.keyboard.press("u")
    player.expect_moves(len(OPENING[:5]) + 2)


def test_a_typed_move_into_an_empty_column_carries_the_run_as_a_click_does(player: Player) -> None:
    cards = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
    run = ["9H", "8S", "7H"]
    rest = [card for card in cards if card not in run]
    columns = [[*rest[:4], *run]] + [rest[i : i + 9] for i in range(4, len(rest), 9)]
    board = "Foundations: H-0 C-0 D-0 S-0\nFreecells: - - - -\n" + "\n".join(
        ": " + " ".join(column) for column in columns
    )
    state = player.open(rules="standard", board=board)
    assert state["columns"][7] == []

    def clicked(card: str) -> None:
        player.click_card(card)
        player.heading("8").click()

    # Typed, a move into an empty column carries the run at once, as a click on its top
    # card does: nothing waits for a count that may follow. A click on the bottom card
    # alone carries that card alone.
    for move, carried in [(lambda: player.page.keyboard.type("18"), run), (lambda: clicked("9 of hearts"), run),
                          (lambda: clicked("7 of hearts"), ["7H"])]:
        move()
        assert not player.page.locator("#typed").is_visible()
        player.expect_moves(1)
        assert player.column("8") == carried
        player.page.keyboard.press("u")
        player.expect_moves(0)


# Every element of the table, as a text: tag, classes (less the lit ones, and a card's turning
# over as it is dealt), attributes, the positions set on it, and its children; the text of
# leaves.
DESCRIBE = """async () => {
  const { renderTable } = await import("./static/js/table.js");
  const lit = ["moving", "face-down", "lifted", "selected", "target", "hint-source", "hint-target", "source-preview"];
  const describe = (el) => {
    const classes = [...el.classList].filter((name) => !lit.includes(name)).sort().join(".");
    const attrs = [...el.attributes].filter((a) => a.name !== "style" && a.name !== "class")
      .map((a) => `${a.name}=${a.value}`).sort().join(" ");
    const style = el.style ? ["top", "height", "gridRow", "gridColumn"].map((name) => el.style[name]).join(",") : "";
    const inside = el.children.length ? [...el.children].map(describe).join("") : el.textContent;
    return `<${el.tagName}.${classes} ${attrs} {${style}}>${inside}</>`;
  };
  const id = (await (await fetch("api/current")).json()).id;
  const state = await (await fetch(`api/games/${id}`)).json();
  const fresh = document.createElement("div");
  renderTable(fresh, state, document.getElementById("frame"));
  return { shown: describe(document.getElementById("table")).replace(/^<DIV[^>]*>/, ""),
           fresh: describe(fresh).replace(/^<DIV[^>]*>/, "") };
}"""


def test_the_table_drawn_move_by_move_is_the_table_drawn_afresh(player: Player) -> None:
    player.open(rules="cardems", deal=617)
    page = player.page

    def same_as_fresh() -> None:
        player.settle()
        drawn = page.evaluate(DESCRIBE)
        assert drawn["shown"] == drawn["fresh"]

    same_as_fresh()
    player.play([*OPENING, "7h"])  # the ace of spades home
    same_as_fresh()
    player.play(["hsd"])  # and back to a free cell
    same_as_fresh()
    player.drag(player.card("ace of spades"), player.card("2 of diamonds"))
    player.expect_moves(len(OPENING) + 3)
    same_as_fresh()
    for key in ("u", "u", "u", "r"):
        page.keyboard.press(key)
        page.wait_for_function("() => !document.querySelector('#table .card.moving')")
    player.expect_moves(len(OPENING) + 1)
    same_as_fresh()
    page.locator("#restart").click()
    page.locator("#confirm-ok").click()
    player.expect_moves(0)
    same_as_fresh()
