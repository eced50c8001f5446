"""A player at the page: opens games, reads the table and makes moves the way a person does.

The table is read from the page (cards are buttons named like "7 of hearts", places are
named "column 3", "free cell a", "hearts foundation"); the server's state is read through
the API to check that what the page shows is what the server holds.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page, expect

from freecell import Position, find_rules


class Player:
    def __init__(self, page: Page, base: str) -> None:
        self.page = page
        self.base = base

    # --- games ------------------------------------------------------------------------

    def new_game(self, **body: Any) -> dict[str, Any]:
        """Start a game through the API and return its state (the page is not opened)."""
        answer = self.page.request.post(f"{self.base}/api/games", data=body)
        assert answer.status == 201, answer.text()
        state: dict[str, Any] = answer.json()
        return state

    def open(self, **body: Any) -> dict[str, Any]:
        """Start a game through the API and open the page on it."""
        state = self.new_game(**body)
        self.page.goto(f"{self.base}/?game={state['id']}")
        self.wait_for_table()
        return state

    def wait_for_table(self) -> None:
        expect(self.page.locator("#table .card").first).to_be_visible()

    def state(self, game_id: str | None = None) -> dict[str, Any]:
        """The server's state of ``game_id``, or of the game in progress."""
        if game_id is None:
            game_id = self.page.request.get(f"{self.base}/api/current").json()["id"]
        answer = self.page.request.get(f"{self.base}/api/games/{game_id}")
        assert answer.ok, answer.text()
        state: dict[str, Any] = answer.json()
        return state

    def position(self, game_id: str | None = None) -> Position:
        """The server's position of ``game_id`` (or of the game in progress), for the library."""
        state = self.state(game_id)
        foundations = " ".join(f"{pile['suit']}-{(pile['top'] or '0')[0]}" for pile in state["foundations"])
        cells = " ".join(card or "-" for card in state["cells"])
        columns = "\n".join(": " + " ".join(column) for column in state["columns"])
        board = f"Foundations: {foundations}\nFreecells: {cells}\n{columns}\n"
        return Position.from_text(board, find_rules(state["rules"]["name"], cells=state["rules"]["cells"]))

    # --- reading the table ------------------------------------------------------------

    def card(self, label: str) -> Locator:
        return self.page.get_by_role("button", name=label, exact=True)

    def heading(self, column: str) -> Locator:
        return self.page.get_by_role("button", name=f"column {column}", exact=True)

    def place(self, label: str) -> Locator:
        """A free cell or a foundation, by its accessible name."""
        return self.page.get_by_role("button", name=label, exact=True)

    def column(self, column: str) -> list[str]:
        """The cards the page shows in a column, deepest first, as names like "7H"."""
        cards: list[str] = self.page.locator(f'#table .column[data-place="{column}"] .card').evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
        return cards

    def table(self) -> dict[str, Any]:
        """Columns, cells and foundation tops as the page shows them."""
        shown: dict[str, Any] = self.page.evaluate(
            """() => ({
              columns: [...document.querySelectorAll('#table .column')].map(
                c => [...c.querySelectorAll('.card')].map(e => e.dataset.card)),
              cells: [...document.querySelectorAll('#table .slot.cell')].map(
                s => s.querySelector('.card')?.dataset.card ?? null),
              foundations: [...document.querySelectorAll('#table .slot.foundation')].map(
                s => s.querySelector('.card[data-key]')?.dataset.card ?? null),
            })"""
        )
        return shown

    def expect_moves(self, count: int) -> None:
        expect(self.page.locator("#moves")).to_have_text(str(count))

    def expect_matches_server(self) -> None:
        """The page shows exactly the server's columns, cells and foundations."""
        state = self.state()
        shown = self.table()
        assert shown["columns"] == state["columns"]
        assert shown["cells"] == state["cells"]
        assert shown["foundations"] == [pile["top"] for pile in state["foundations"]]

    # --- acting -----------------------------------------------------------------------

    def settle(self) -> None:
        """Wait until no card is sliding to its place or turning over as it is dealt (a
        person aims at a card at rest)."""
        # A function, not an expression: Playwright would eval an expression, which the CSP refuses.
        self.page.wait_for_function("() => !document.querySelector('#table .card.moving, #table .card.face-down')")

    def click_card(self, label: str, *, double: bool = False) -> None:
        """Click a card on its visible corner (cards below it in a column cover the rest)."""
        self.settle()
        target = self.card(label)
        if double:
            target.dblclick(position={"x": 10, "y": 8})
        else:
            target.click(position={"x": 10, "y": 8})

    def drag(self, source: Locator, target: Locator) -> None:
        """Drag with the mouse from a card's corner to the middle of ``target``."""
        self.settle()
        start = source.bounding_box()
        end = target.bounding_box()
        assert start is not None and end is not None
        mouse = self.page.mouse
        mouse.move(start["x"] + 10, start["y"] + 8)
        mouse.down()
        mouse.move(start["x"] + 30, start["y"] + 30, steps=4)
        mouse.move(end["x"] + end["width"] / 2, end["y"] + min(end["height"] / 2, 40), steps=10)
        mouse.up()

    def type_move(self, text: str) -> None:
        """Type a move in standard notation; press Enter only when the page still waits
        for it (a move into an empty column may yet take a "v" count)."""
        self.page.keyboard.type(text)
        if self.page.locator("#typed").is_visible():
            self.page.keyboard.press("Enter")

    def play(self, moves: list[str]) -> None:
        """Type ``moves`` one after the other, each counted before the next is typed."""
        start = int(self.page.locator("#moves").text_content() or "0")
        for number, move in enumerate(moves, start=start + 1):
            self.type_move(move)
            self.expect_moves(number)

    def toast(self) -> Locator:
        return self.page.locator("#toast")
