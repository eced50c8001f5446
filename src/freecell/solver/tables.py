"""What depends on the rules alone, shared by every problem: which card may lie on which,
the heuristic's weights and each column's share of it, and the caches of what the
foundations allow (which cards may go home, which are settled, ...)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final

from freecell.rules import Building

CardLists = tuple[tuple[int, ...], ...]
Features = tuple[int, ...]
# The cards that may go home, and those of them that may go safely: each a table of 52
# bytes, 1 for such a card (an index costs less than a set's lookup of a boxed int), the
# same NO_CARDS object where there is none.
Homeward = tuple[bytes, ...]
NO_CARDS: Final = bytes(52)

# One deck: each card's suit and rank (16 * suit + rank - 1), which ready_table()
# translates; for each pile's height, a row of 16 bytes with a 1 at the rank it wants
# next (none for a whole pile); and the rest of a translation table.
_SUIT_RANK: Final = bytes(16 * (card & 3) + (card >> 2) for card in range(52))
_WANTED_ROWS: Final = tuple(bytes(height) + b"\x01" + bytes(15 - height) for height in range(13)) + (bytes(16),)
_TABLE_REST: Final = bytes(256 - 64)
_ALL_HOME: Final = bytes((13, 13, 13, 13))


def ready_table(foundations: bytes) -> bytes:
    """One deck: the table of 52 bytes of the cards that may go home on ``foundations``
    (1 for such a card; :data:`NO_CARDS` itself when every card is home), made in C by
    translating each card's suit and rank through a table of the rank each pile wants
    (compiled, cheaper than a table written card by card)."""
    if foundations == _ALL_HOME:
        return NO_CARDS
    rows = _WANTED_ROWS
    wanted = b"%b%b%b%b%b" % (
        rows[foundations[0]], rows[foundations[1]], rows[foundations[2]], rows[foundations[3]], _TABLE_REST
    )
    return _SUIT_RANK.translate(wanted)


FEATURES_KEPT: Final = 500_000  # distinct columns a table remembers before it forgets them all


@dataclass(frozen=True, slots=True)
class Weights:
    """What each feature of a table costs the heuristic (lower is closer to a win).

    Empty cells and columns are valued strongly: they are what makes every later move
    possible. ``disorder`` counts the cards lying on a lower card of their column (each
    must move before that card can go home); ``off_run`` the cards above the ordered run
    at the exposed end; ``depth`` how deep the lowest card of each column lies; ``next``
    how deep the next card each foundation needs lies; ``shortest`` how many cards the
    shortest column holds (0 once a column is empty): it draws a search towards emptying
    a column, even through full cells, where the others see only cost.
    """

    in_play: int = 10
    disorder: int = 12
    off_run: int = 2
    depth: int = 2
    cell: int = 14
    empty_column: int = 40
    next: int = 6
    shortest: int = 0


def column_features(column: bytes, follows: bytes) -> Features:
    """The features of ``column``: the length of the ordered run at its exposed end, how
    many of its cards lie on a lower card (each must move before that card can go home),
    the rank of its lowest card (99 for none), and how many cards lie above that card.

    Worked out in one pass, deepest card first (``follows`` as :func:`building_tables`
    gives it): cheaper than keeping the features of every part of the column, most of
    which no search asks for again."""
    if len(column) == 0:
        return (0, 0, 99, 0)
    lowest = column[0] >> 2
    run, disorder, depth = 1, 0, 0
    for at in range(1, len(column)):
        card = column[at]
        run = run + 1 if follows[column[at - 1] * 52 + card] else 1
        if card >> 2 > lowest:
            disorder += 1
            depth += 1
        else:
            lowest, depth = card >> 2, 0
    return (run, disorder, lowest, depth)


# A column's packed value (see ColumnValues), lowest bits first: its disorder (7 bits:
# room for more than the cards of two decks), the rank of its lowest card (4 bits, 15
# for an empty column; 9 bits keep the sum over up to 34 columns), then its share.
DISORDER_MASK: Final = (1 << 7) - 1
LOWEST_SHIFT: Final = 7
SHARE_SHIFT: Final = 16
EMPTY_LOWEST: Final = 15


class ColumnValues:
    """Each column's share of the heuristic and its disorder (how many of its cards lie
    on a lower card), packed in one int (in :attr:`known`): the share shifted up by
    :data:`SHARE_SHIFT`, the disorder in the lowest bits (``packed >> SHARE_SHIFT``,
    ``packed & DISORDER_MASK``), and between them the rank of the column's lowest card,
    which tells the value of the column with a card put on it (:attr:`one_above`). A
    rating reads the share and the disorder for every column, and one lookup costs less
    than two; and since no table holds as many cards as the bits below the share count
    (the ranks of up to 34 columns included), the sum over a table's columns reads back
    the same way (its middle bits mean nothing). Packed so, the value of a table of two
    decks still fits one of CPython's 30-bit digits, with the usual weights.

    Computed once per distinct column (from :func:`column_features`) and shared by every
    search with the same weights and building rule; it forgets everything when it grows
    past :data:`FEATURES_KEPT` columns.

    The searches read :attr:`known`, a plain dict, and call :meth:`worked_out` for a
    column it lacks: compiled, a plain dict is read directly, and a dict with
    ``__missing__`` through Python's protocols."""

    def __init__(self, follows: bytes, weights: Weights) -> None:
        self.known: dict[bytes, int] = {}
        # The packed value of a column without its top card, by the column: a step of
        # one card asks it of a column in hand, which costs a lookup of that very object,
        # not of a new one (sliced, hashed and compared).
        self.below: dict[bytes, int] = {}
        self.follows = follows
        self.weights = weights
        # What a card put on a column adds to its packed value, where the column's
        # lowest card has a lower rank than the card (the usual case): it lengthens the
        # column's ordered run (it may lie there), lies on a lower card, and one card
        # more lies above the lowest. The lowest card stays.
        self.one_above = ((weights.in_play + weights.disorder + weights.depth) << SHARE_SHIFT) + 1
        # And a card of an ordered run alone in its column (none lies on a lower card):
        # its share, packed; the run's top card is its lowest.
        self.one_alone = weights.in_play << SHARE_SHIFT
        # A card that lies on a lower card (``weights.disorder``, and one to the
        # disorder), and one card more above the lowest (``weights.depth``), packed.
        self.one_disorder = (weights.disorder << SHARE_SHIFT) + 1
        self.one_deep = weights.depth << SHARE_SHIFT

    def of(self, column: bytes) -> int:
        packed = self.known.get(column)
        return self.worked_out(column) if packed is None else packed

    def without_top(self, column: bytes) -> int:
        """The packed value of ``column`` without its top card, which :attr:`below`
        lacks, now kept there."""
        below = self.below
        if len(below) >= FEATURES_KEPT:
            below.clear()
        packed = below[column] = self.of(column[:-1])
        return packed

    def worked_out(self, column: bytes) -> int:
        """The packed value of ``column``, which :attr:`known` lacks, now kept there."""
        known = self.known
        if len(known) >= FEATURES_KEPT:
            known.clear()
        n = len(column)
        weights = self.weights
        if not n:
            packed = (-weights.empty_column << SHARE_SHIFT) + (EMPTY_LOWEST << LOWEST_SHIFT)
        else:
            run, disorder, lowest, depth = column_features(column, self.follows)
            value = (
                weights.in_play * n + weights.disorder * disorder + weights.off_run * (n - run) + weights.depth * depth
            )
            packed = (value << SHARE_SHIFT) + (lowest << LOWEST_SHIFT) + disorder
        known[column] = packed
        return packed


@functools.cache
def building_tables(building: Building, pile_count: int) -> tuple[bytes, CardLists, CardLists]:
    """What depends only on the building rule and the piles: ``follows[onto * 52 + card]``
    says whether ``card`` may lie on ``onto``; ``children[onto]`` lists those cards; and
    ``safe_needs[card]`` lists the piles that must reach the card's rank - 1 before it
    may go home safely (those that hold every card that could be placed on it)."""
    same_suit = building is Building.SAME_SUIT
    follows = bytearray(52 * 52)
    children: list[tuple[int, ...]] = []
    for onto in range(52):
        fitting = []
        for card in range(52):
            if (onto >> 2) != (card >> 2) + 1:
                continue
            if (same_suit and card & 3 == onto & 3) or (not same_suit and (card & 3 in (1, 2)) != (onto & 3 in (1, 2))):
                follows[onto * 52 + card] = 1
                fitting.append(card)
        children.append(tuple(fitting))
    safe_needs: list[tuple[int, ...]] = []
    for card in range(52):
        suit = card & 3
        if same_suit:
            needs = tuple(range(suit, pile_count, 4))
        else:
            red = suit in (1, 2)
            needs = tuple(p for p in range(pile_count) if ((p & 3) in (1, 2)) != red)
        safe_needs.append(needs)
    return bytes(follows), tuple(children), tuple(safe_needs)


@functools.cache
def parents_table(building: Building) -> CardLists:
    """For each card (one deck), the cards it may lie on."""
    follows = building_tables(building, 4)[0]
    return tuple(tuple(onto for onto in range(52) if follows[onto * 52 + card]) for card in range(52))


@functools.cache
def stacking_slots(building: Building) -> tuple[bytes, bytes, int]:
    """The cards that may take the same cards share a *slot* (alternate colours: a rank
    and colour; by suit: a card): ``offers[card]`` is the slot of ``card``, ``seeks[card]``
    the slot of the cards it may lie on (they share one), and the third item the number
    of slots, which a king seeks (none offers it). A card may lie on another exactly
    when the slot it seeks is the other's."""
    children = building_tables(building, 4)[1]
    slots: dict[tuple[int, ...], int] = {}
    offers = bytes(slots.setdefault(children[card], len(slots)) for card in range(52))
    parents = parents_table(building)
    seeks = bytes(offers[cards[0]] if cards else len(slots) for cards in parents)
    if any(offers[onto] != seeks[card] for card, cards in enumerate(parents) for onto in cards):
        raise AssertionError("the cards a card may lie on take the same cards")
    return offers, seeks, len(slots)


@functools.cache
def columns_alone(column_count: int) -> tuple[tuple[int, ...], ...]:
    """For each column, the tuple of it alone (made once: a step's table adds them up)."""
    return tuple((j,) for j in range(column_count))


# The caches shared by every problem that sends the same cards home by itself, by the
# foundations: which cards may go home and which safely; the foundations once a card is
# home; the settled heights; the cards a win may take back.


@functools.cache
def homeward_cache(building: Building, pile_count: int, settling: bool, eager: bool) -> dict[bytes, Homeward]:
    return {}


@functools.cache
def raised_cache(pile_count: int) -> dict[bytes, list[bytes | None]]:
    return {}


@functools.cache
def settled_cache(building: Building, pile_count: int) -> dict[bytes, tuple[int, ...]]:
    return {}


@functools.cache
def takeable_cache(building: Building) -> dict[bytes, tuple[int, int, int]]:
    return {}


@functools.cache
def held_cache() -> dict[bytes, tuple[int, ...]]:
    """For each set of cells (sorted bytes), the cards they hold, each once, in the
    order a set of them gives: the order a problem lists the steps from the cells in."""
    return {}


@functools.cache
def column_values(building: Building, weights: Weights) -> ColumnValues:
    return ColumnValues(building_tables(building, 4)[0], weights)
