"""Cards as plain ints.

A card is ``(rank - 1) * 4 + suit``: ranks run 1 (ace) to 13 (king) and suits are
numbered in the order clubs, diamonds, hearts, spades, the order the Microsoft dealer
uses. So ``0`` is the ace of clubs and ``51`` the king of spades. A double deck holds
each of these values twice.

>>> card_name(parse_card("10h"))
'TH'
>>> card_rank(parse_card("QS")), SUIT_NAMES[card_suit(parse_card("QS"))]
(12, 'spades')
"""

from __future__ import annotations

from typing import Final

from freecell.errors import InvalidInputError

Card = int

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3

SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_LETTERS: Final = "CDHS"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANK_LETTERS: Final = "A23456789TJQK"
RANK_NAMES: Final = (
    "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king",
)
ACE: Final = 1
KING: Final = 13
CARDS_PER_DECK: Final = 52

_RANK_SPELLINGS: Final = {
    **{letter: rank for rank, letter in enumerate(RANK_LETTERS, start=1)},
    "10": 10, "1": 1,
}
_SUIT_SPELLINGS: Final = {
    **{letter: suit for suit, letter in enumerate(SUIT_LETTERS)},
    **{symbol: suit for suit, symbol in enumerate(SUIT_SYMBOLS)},
    "♤": SPADES, "♡": HEARTS, "♢": DIAMONDS, "♧": CLUBS,
}


class InvalidCardError(InvalidInputError):
    """A piece of text does not name a card."""


def make_card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (1 to 13) and ``suit`` (0 to 3)."""
    if not ACE <= rank <= KING or suit not in SUITS:
        raise InvalidCardError(f"no card has rank {rank} and suit {suit}")
    return (rank - 1) * 4 + suit


def card_rank(card: Card) -> int:
    """1 for an ace up to 13 for a king."""
    return card // 4 + 1


def card_suit(card: Card) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card & 3


def is_red(card: Card) -> bool:
    """Hearts and diamonds are red."""
    return (card & 3) in (DIAMONDS, HEARTS)


def suit_is_red(suit: int) -> bool:
    return suit in (DIAMONDS, HEARTS)


def card_name(card: Card) -> str:
    """The canonical two-letter name: ``AC``, ``TD``, ``KS``."""
    return RANK_LETTERS[card >> 2] + SUIT_LETTERS[card & 3]


def card_label(card: Card) -> str:
    """The card as players read it on the card's corner: ``10♠``, ``4♥``, ``K♣``."""
    rank = card >> 2
    return ("10" if rank == 9 else RANK_LETTERS[rank]) + SUIT_SYMBOLS[card & 3]


def card_long_name(card: Card) -> str:
    """The spoken name, for screen readers: ``7 of hearts``."""
    return f"{RANK_NAMES[card >> 2]} of {SUIT_NAMES[card & 3]}"


def parse_card(text: str) -> Card:
    """Read a card written as rank then suit: ``TH``, ``10h``, ``qs``, ``A♠``.

    Raises :class:`InvalidCardError` naming the text when it is not a card.
    """
    cleaned = text.strip().upper()
    if len(cleaned) < 2:
        raise InvalidCardError(f"not a card: {text!r}")
    rank = _RANK_SPELLINGS.get(cleaned[:-1])
    suit = _SUIT_SPELLINGS.get(cleaned[-1])
    if rank is None or suit is None:
        raise InvalidCardError(f"not a card: {text!r} (write rank then suit, like 'TH' or '10h')")
    return make_card(rank, suit)


def parse_suit(text: str) -> int:
    """Read a suit letter or symbol: ``S``, ``h``, ``♦``."""
    suit = _SUIT_SPELLINGS.get(text.strip().upper())
    if suit is None:
        raise InvalidCardError(f"not a suit: {text!r} (use C, D, H or S)")
    return suit


def full_deck(decks: int = 1) -> list[Card]:
    """Every card, ``decks`` times over, in the Microsoft dealer's starting order."""
    return list(range(CARDS_PER_DECK)) * decks
