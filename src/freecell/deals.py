"""Deals: Microsoft numbered deals, our documented shuffle, and how cards are laid out.

**Microsoft deals** 1 to 8,589,934,591. The deck starts in the order AC AD AH AS 2C …
KS; a linear congruential generator (214013, 2531011) picks the card to deal next, as
Microsoft FreeCell did for deals up to 2^31 - 1. Beyond that is FreeCell Pro's
extension: up to 2^32 - 1 the generator's 15-bit output has bit 15 set; from 2^32 on
the seed is the number minus 2^32 and each draw is its 16-bit output plus one. Deal 1
begins ``JD 2D 9H JC 5D 7H 7C 5H``.

**Our shuffle**, for the double deck and for random deals: the deck in the same
starting order (twice for two decks) is shuffled by Fisher–Yates from the last card
down, each index drawn without bias from SplitMix64 seeded with the number.

**Layout**: the cards are dealt in that order round-robin across the columns, the
first card to column 1. Where a ruleset deals cards to cells (Eight Off), the last
``dealt_to_cells`` cards go one each to cells a, b, c, d in order; the rest are dealt
to the columns as usual, so Eight Off's columns are those of the Microsoft deal's first
six rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from freecell.cards import Card, full_deck
from freecell.errors import InvalidInputError
from freecell.position import Position
from freecell.rules import Dealer, Rules, cells_text

MAX_DEAL: Final = 8_589_934_591
MAX_SEED: Final = 2**64 - 1
_MASK32: Final = 0xFFFFFFFF
_MASK64: Final = 0xFFFFFFFFFFFFFFFF


class InvalidDealError(InvalidInputError):
    """A deal number or seed outside its range."""


def microsoft_order(number: int) -> list[Card]:
    """The 52 cards of Microsoft deal ``number`` in dealing order."""
    if not 1 <= number <= MAX_DEAL:
        raise InvalidDealError(f"deal {number} is out of range: Microsoft deals run from 1 to {MAX_DEAL:,}")
    # A draw reads bits 16 up of the generator's state. Below 2^32 it reads bits 16-30,
    # which the state's low 31 bits alone decide: the state is kept modulo 2^31 there, so
    # that the draw is the state shifted, with no mask (from 2^31, bit 15 set too).
    if number < 2**31:
        seed, mask, offset = number, 0x7FFFFFFF, 0
    elif number < 2**32:
        seed, mask, offset = number, 0x7FFFFFFF, 0x8000
    else:
        seed, mask, offset = number - 2**32, _MASK32, 1
    deck = full_deck()
    order = []
    for left in range(52, 0, -1):
        seed = (seed * 214013 + 2531011) & mask
        j = ((seed >> 16) + offset) % left
        order.append(deck[j])
        deck[j] = deck[left - 1]
    return order


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def shuffled_order(seed: int, decks: int = 1) -> list[Card]:
    """Our shuffle: ``decks`` decks in dealing order, from a 64-bit ``seed``."""
    if not 0 <= seed <= MAX_SEED:
        raise InvalidDealError(f"seed {seed} is out of range 0 to {MAX_SEED:,}")
    deck = full_deck(decks)
    state = seed
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - (1 << 64) % bound  # reject the top sliver: no modulo bias
        while True:
            state, value = _splitmix64(state)
            if value < limit:
                break
        j = value % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def lay_out(order: list[Card], rules: Rules) -> Position:
    """The starting position when ``order`` is dealt under ``rules``."""
    if len(order) != rules.card_count:
        raise InvalidDealError(f"{rules.name} deals {rules.card_count} cards, not {len(order)}")
    to_columns = len(order) - rules.dealt_to_cells
    width = rules.columns
    cards = tuple(order)  # each column a slice of it, a tuple already
    columns = tuple([cards[i:to_columns:width] for i in range(width)])
    dealt = cards[to_columns:]
    cells = dealt + (None,) * (rules.cells - len(dealt))
    return Position(columns, cells, (0,) * rules.foundation_count)


class DealKind(Enum):
    """A deal is known by its number (Microsoft's, or our shuffle's for two decks) or by
    the seed of a random deal."""

    NUMBER = "number"
    SEED = "seed"


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal that can be made again exactly: the rules (with their cells) and a number."""

    rules: Rules
    number: int
    kind: DealKind = DealKind.NUMBER

    def __post_init__(self) -> None:
        if self.kind is DealKind.NUMBER and not 1 <= self.number <= MAX_DEAL:
            raise InvalidDealError(f"deal {self.number} is out of range: deals run from 1 to {MAX_DEAL:,}")
        if self.kind is DealKind.SEED and not 0 <= self.number <= MAX_SEED:
            raise InvalidDealError(f"seed {self.number} is out of range 0 to {MAX_SEED:,}")

    def order(self) -> list[Card]:
        if self.kind is DealKind.NUMBER and self.rules.dealer is Dealer.MICROSOFT:
            return microsoft_order(self.number)
        return shuffled_order(self.number, self.rules.decks)

    def position(self) -> Position:
        return lay_out(self.order(), self.rules)

    def code(self) -> str:
        from freecell.codes import encode_game_code

        return encode_game_code(self)

    @classmethod
    def from_code(cls, code: str) -> Deal:
        from freecell.codes import decode_game_code

        return decode_game_code(code)

    @property
    def name(self) -> str:
        """The deal alone, as players say it: ``deal 617``, ``random deal 5``."""
        return f"deal {self.number}" if self.kind is DealKind.NUMBER else f"random deal {self.number}"

    def __str__(self) -> str:
        """The deal with its rules in words: ``deal 617 (Baker's Game, 4 cells)``."""
        return f"{self.name} ({self.rules.title}, {cells_text(self.rules.cells)})"


def parse_deal_number(text: str) -> int:
    """A deal number as typed: the digits 0 to 9 only (spaces around are allowed), so that
    ``²``, ``١٢``, ``1_000`` or ``+5`` are refused rather than read some way. Raises
    :class:`InvalidDealError`, which also says when the number is out of range.

    >>> parse_deal_number(" 617 ")
    617
    """
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        raise InvalidDealError(f"not a deal number: {text!r} (write it in the digits 0 to 9, like 617)")
    if len(digits.lstrip("0")) > len(str(MAX_DEAL)):  # no need to read a thousand digits
        raise InvalidDealError(f"deal {digits[:12]}… is out of range: deals run from 1 to {MAX_DEAL:,}")
    return int(digits)


def random_deal(rules: Rules) -> Deal:
    """A fresh random deal under ``rules``, reproducible from its game code.

    Where the ruleset deals Microsoft deals, it is a Microsoft deal number drawn from 1 to
    :data:`MAX_DEAL` (FreeCell Pro's range), a number players can quote and compare across
    programs; elsewhere (the double deck) a random seed of our shuffle.
    """
    import secrets  # here, not above: its imports (hmac, hashlib) would cost every solve's start-up

    if rules.dealer is Dealer.MICROSOFT:
        return Deal(rules, 1 + secrets.randbelow(MAX_DEAL))
    return Deal(rules, secrets.randbits(64), DealKind.SEED)
