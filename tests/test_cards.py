"""Cards as ints: names, parsing, colours."""

from __future__ import annotations

import pytest

from freecell.cards import (
    InvalidCardError,
    card_long_name,
    card_name,
    card_rank,
    card_suit,
    full_deck,
    is_red,
    make_card,
    parse_card,
    parse_suit,
)


def test_every_card_round_trips_through_its_name() -> None:
    names = [card_name(card) for card in range(52)]
    assert len(set(names)) == 52
    assert all(parse_card(name) == card for card, name in enumerate(names))
    assert names[:5] == ["AC", "AD", "AH", "AS", "2C"]
    assert names[-1] == "KS"


@pytest.mark.parametrize(
    ("text", "name"),
    [("TH", "TH"), ("10h", "TH"), (" qs ", "QS"), ("A♠", "AS"), ("7♡", "7H"), ("1c", "AC"), ("kD", "KD")],
)
def test_common_spellings_are_read(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("text", ["", "H", "1", "ZH", "11H", "TX", "0S", "KSS"])
def test_text_that_is_not_a_card_is_refused_by_name(text: str) -> None:
    with pytest.raises(InvalidCardError, match="not a card"):
        parse_card(text)


def test_rank_suit_and_colour() -> None:
    queen = parse_card("QS")
    assert (card_rank(queen), card_suit(queen), is_red(queen)) == (12, 3, False)
    assert is_red(parse_card("5D")) and is_red(parse_card("5H")) and not is_red(parse_card("5C"))
    assert card_long_name(parse_card("7H")) == "7 of hearts"
    assert make_card(13, 3) == 51
    with pytest.raises(InvalidCardError):
        make_card(14, 0)
    with pytest.raises(InvalidCardError, match="not a suit"):
        parse_suit("x")
    assert parse_suit("♦") == parse_suit("d") == 1


def test_decks() -> None:
    assert full_deck() == list(range(52))
    assert sorted(full_deck(2)) == sorted(list(range(52)) * 2)
