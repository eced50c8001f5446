"""Deals: the Microsoft dealer, our shuffle, and how each ruleset lays the cards out."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from freecell.board_format import check_cards
from freecell.cards import card_name, full_deck
from freecell.deals import (
    MAX_DEAL,
    MAX_SEED,
    Deal,
    DealKind,
    InvalidDealError,
    lay_out,
    microsoft_order,
    random_deal,
    shuffled_order,
)
from freecell.rules import PRESETS, Rules, find_rules

MICROSOFT = Path(__file__).parent / "data" / "microsoft"


def _rows_of(path: Path) -> list[list[str]]:
    """The columns of a board written by ``make-microsoft-freecell-board -t``."""
    return [line.split() for line in path.read_text().splitlines() if line.strip()]


def test_deal_1_begins_jd_2d_9h_jc_5d_7h_7c_5h() -> None:
    position = Deal(find_rules("standard"), 1).position()
    assert [card_name(column[0]) for column in position.columns] == ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]


@pytest.mark.parametrize("path", sorted(MICROSOFT.glob("deal-*.txt")), ids=lambda p: p.stem)
def test_microsoft_deals_match_make_microsoft_freecell_board(path: Path) -> None:
    """The files were written by fc-solve's ``make-microsoft-freecell-board -t N``:
    deals 1, 617, 11982, 2^31, 2^32 and the last one, 8,589,934,591."""
    number = int(path.stem.removeprefix("deal-"))
    position = Deal(find_rules("standard"), number).position()
    assert [[card_name(card) for card in column] for column in position.columns] == _rows_of(path)


def test_deal_617_is_the_well_known_layout() -> None:
    columns = Deal(find_rules("standard"), 617).position().columns
    assert [card_name(card) for card in columns[0]] == ["7D", "TD", "TH", "KD", "4C", "4S", "JD"]
    assert [card_name(card) for card in columns[7]] == ["AH", "KH", "TC", "JS", "2S", "QH"]


@pytest.mark.parametrize("number", [0, -1, MAX_DEAL + 1])
def test_deal_numbers_out_of_range_are_refused(number: int) -> None:
    with pytest.raises(InvalidDealError, match="out of range"):
        Deal(find_rules("standard"), number)
    with pytest.raises(InvalidDealError, match="Microsoft deals run from 1 to 8,589,934,591"):
        microsoft_order(number)


@pytest.mark.parametrize("name", ["standard", "strict", "supermove", "bakers-game", "app", "cardems"])
def test_the_52_card_presets_deal_the_microsoft_layout(name: str) -> None:
    expected = Deal(find_rules("standard"), 617).position()
    for cells in find_rules(name).cell_options:
        position = Deal(find_rules(name, cells=cells), 617).position()
        assert position.columns == expected.columns
        assert position.cells == (None,) * cells
        assert [len(column) for column in position.columns] == [7, 7, 7, 7, 6, 6, 6, 6]


def test_eight_off_deals_six_rows_then_four_cards_to_cells_a_to_d() -> None:
    rules = find_rules("eight-off")
    order = microsoft_order(617)
    position = Deal(rules, 617).position()
    assert [len(column) for column in position.columns] == [6] * 8
    # the first 48 cards round-robin: card i goes to column i % 8
    assert all(position.columns[i % 8][i // 8] == order[i] for i in range(48))
    assert position.cells == (*order[48:], None, None, None, None)
    # so the columns are the first six rows of the Microsoft deal, and cells a-d hold its last row
    standard = Deal(find_rules("standard"), 617).position()
    assert position.columns == tuple(column[:6] for column in standard.columns)
    assert position.cells[:4] == tuple(column[6] for column in standard.columns[:4])
    check_cards(position, rules)


def test_double_deals_104_cards_into_columns_of_11_and_10() -> None:
    rules = find_rules("double")
    position = Deal(rules, 1).position()
    assert [len(column) for column in position.columns] == [11, 11, 11, 11, 10, 10, 10, 10, 10, 10]
    assert Counter(position.cards()) == Counter(full_deck(2))
    assert position.cells == (None,) * 6
    assert position.foundations == (0,) * 8
    check_cards(position, rules)
    assert Deal(rules, 1).order() == shuffled_order(1, 2)
    assert Deal(rules, 2).position() != position


def test_splitmix64_gives_the_published_test_vectors() -> None:
    from freecell.deals import _splitmix64

    state, outputs = 1234567, []
    for _ in range(5):
        state, value = _splitmix64(state)
        outputs.append(value)
    assert outputs == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821,
    ]


def _documented_shuffle(seed: int, decks: int) -> list[int]:
    """The shuffle as deals.py's docstring describes it, written again from the text."""
    from freecell.deals import _splitmix64

    deck = [card for _ in range(decks) for card in range(52)]
    state = seed
    for i in reversed(range(1, len(deck))):
        while True:
            state, value = _splitmix64(state)
            if value < 2**64 - 2**64 % (i + 1):
                break
        j = value % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("seed", [0, 1, 617, 2**63, MAX_SEED])
@pytest.mark.parametrize("decks", [1, 2])
def test_our_shuffle_is_the_documented_one(seed: int, decks: int) -> None:
    assert shuffled_order(seed, decks) == _documented_shuffle(seed, decks)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(list(PRESETS.values())), st.integers(0, MAX_SEED))
def test_random_deals_are_reproducible_from_their_seed(rules: Rules, seed: int) -> None:
    deal = Deal(rules, seed, DealKind.SEED)
    position = deal.position()
    assert Deal(rules, seed, DealKind.SEED).position() == position
    check_cards(position, rules)
    assert Counter(shuffled_order(seed, rules.decks)) == Counter(full_deck(rules.decks))


def test_random_deal_draws_a_microsoft_number_where_the_rules_deal_microsoft_deals() -> None:
    rules = find_rules("app", cells=2)
    numbers = set()
    for _ in range(20):
        deal = random_deal(rules)
        assert deal.kind is DealKind.NUMBER and deal.rules == rules
        assert 1 <= deal.number <= MAX_DEAL
        assert deal.position() == lay_out(microsoft_order(deal.number), rules)
        assert Deal.from_code(deal.code()).position() == deal.position()
        numbers.add(deal.number)
    assert len(numbers) > 1
    assert str(deal).startswith(f"deal {deal.number} ")


def test_random_deal_shuffles_a_seed_for_the_double_deck() -> None:
    rules = find_rules("double")
    deal = random_deal(rules)
    assert deal.kind is DealKind.SEED and deal.rules == rules
    assert Deal.from_code(deal.code()).position() == deal.position()


def test_seeds_out_of_range_are_refused() -> None:
    with pytest.raises(InvalidDealError, match="seed"):
        Deal(find_rules("standard"), MAX_SEED + 1, DealKind.SEED)
    with pytest.raises(InvalidDealError, match="seed"):
        shuffled_order(-1)


def test_lay_out_refuses_the_wrong_number_of_cards() -> None:
    with pytest.raises(InvalidDealError, match="double deals 104 cards, not 52"):
        lay_out(full_deck(1), find_rules("double"))


def test_deals_name_themselves() -> None:
    assert str(Deal(find_rules("app", cells=2), 617)) == "deal 617 (FreeCell with take-backs (phone app), 2 cells)"
    assert str(Deal(find_rules("standard"), 5, DealKind.SEED)) == "random deal 5 (FreeCell, 4 cells)"
    assert str(Deal(find_rules("app", cells=1), 6123)) == "deal 6123 (FreeCell with take-backs (phone app), 1 cell)"
