"""Boards for the browser tests, in Freecell Solver's format (for ``Player.open(board=…)``)."""

from __future__ import annotations


def board_text(cells: list[str], columns: list[str]) -> str:
    """A board with empty foundations, `cells` (``-`` for an empty one) and `columns` (deepest card first)."""
    return f"Foundations: H-0 C-0 D-0 S-0\nFreecells: {' '.join(cells)}\n" + "".join(f": {c}\n" for c in columns)


# Every card in order in a column of its suit: every card can go home (Auto-finish).
CAN_FINISH = board_text(["-"] * 4, [" ".join(rank + suit for rank in "KQJT98765432A") for suit in "HCDS"])


def _lost() -> str:
    cards = [rank + suit for suit in "CDHS" for rank in "A23456789TJQK"]
    cells = ["KC", "KD", "KH", "KS"]
    exposed = ["QC", "QS", "JC", "JS", "TC", "TS", "9C", "9S"]
    rest = [card for card in cards if card not in cells + exposed]
    return board_text(cells, [" ".join([*rest[5 * i : 5 * i + 5], exposed[i]]) for i in range(8)])


# Four kings fill the cells, and only black cards are exposed: nothing can move, the game is lost.
LOST = _lost()
