"""A first end-to-end check: Microsoft deal 1 as everyone knows it."""

from freecell import Deal, card_name, find_rules


def test_deal_1_begins_as_microsoft_dealt_it() -> None:
    position = Deal(find_rules("standard"), 1).position()
    first_row = [card_name(column[0]) for column in position.columns]
    assert first_row == ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]
