"""Positions, moves and the rules of movement.

A :class:`Position` is an immutable snapshot of the table: the columns (each listed
from the card dealt first, the deepest, to the exposed card), the cells, and the height
of each foundation pile. Pile ``i`` holds suit ``i % 4``, so a double deck has two piles
per suit. Every question about what may move is asked with a :class:`~freecell.rules.Rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from operator import length_hint
from typing import TYPE_CHECKING, Final

from freecell.cards import KING, Card, card_label, card_rank, card_suit, make_card
from freecell.errors import InvalidInputError
from freecell.rules import (
    Building,
    EmptyColumns,
    FoundationReturn,
    Rules,
    SequenceMoves,
)

if TYPE_CHECKING:
    from freecell.notation import MoveText

UNLIMITED_CAPACITY = 10_000


class PlaceKind(IntEnum):
    COLUMN = 0
    CELL = 1
    FOUNDATION = 2


@dataclass(frozen=True, slots=True)
class Place:
    """A column or cell (``index`` from 0), or a foundation (``index`` is the suit)."""

    kind: PlaceKind
    index: int

    @classmethod
    def column(cls, index: int) -> Place:
        if 0 <= index < _SHARED and cls is Place:
            return _COLUMN_PLACES[index]
        return cls(PlaceKind.COLUMN, index)

    @classmethod
    def cell(cls, index: int) -> Place:
        if 0 <= index < _SHARED and cls is Place:
            return _CELL_PLACES[index]
        return cls(PlaceKind.CELL, index)

    @classmethod
    def foundation(cls, suit: int) -> Place:
        if 0 <= suit < 4 and cls is Place:
            return _FOUNDATION_PLACES[suit]
        return cls(PlaceKind.FOUNDATION, suit)

    def __repr__(self) -> str:
        return f"Place.{self.kind.name.lower()}({self.index})"


@dataclass(frozen=True, slots=True)
class Move:
    """``count`` cards from ``source`` to ``target``. A foundation place names the suit."""

    source: Place
    target: Place
    count: int = 1

    def __repr__(self) -> str:
        return f"Move({self.source!r}, {self.target!r}, {self.count})"

    @property
    def is_take_back(self) -> bool:
        return self.source.kind is PlaceKind.FOUNDATION


# Every move replayed or played is parsed, checked and applied with what follows, so it
# is written for speed. Places are values: the common ones are made once and shared, as
# making one is slow. Looking up an enum member costs about 0.1 µs, as much as the rest of
# a check: the hot paths read these names instead.
_SHARED: Final = 16
_COLUMN_PLACES: Final = tuple(Place(PlaceKind.COLUMN, i) for i in range(_SHARED))
_CELL_PLACES: Final = tuple(Place(PlaceKind.CELL, i) for i in range(_SHARED))
_FOUNDATION_PLACES: Final = tuple(Place(PlaceKind.FOUNDATION, i) for i in range(4))
_COLUMN: Final = PlaceKind.COLUMN
_CELL: Final = PlaceKind.CELL
_FOUNDATION: Final = PlaceKind.FOUNDATION
_ALTERNATE_COLOURS: Final = Building.ALTERNATE_COLOURS
_ANY_CARD: Final = EmptyColumns.ANY_CARD
_KINGS_ONLY: Final = EmptyColumns.KINGS_ONLY
_UNLIMITED: Final = SequenceMoves.UNLIMITED
_SINGLE_CARD_STEPS: Final = SequenceMoves.SINGLE_CARD_STEPS
_NEVER: Final = FoundationReturn.NEVER
_TO_TABLEAU_OR_CELL: Final = FoundationReturn.TO_TABLEAU_OR_CELL


# The reason why_illegal() gives where it is asked not to explain (see there).
UNEXPLAINED: Final = "an illegal move"


class IllegalMoveError(InvalidInputError):
    """A move that the rules do not allow in the position. The message says why."""


class ReplayError(IllegalMoveError):
    """A move in a line of play (a replayed solution, a game's log) is malformed or illegal."""

    def __init__(self, number: int, text: str, reason: str) -> None:
        super().__init__(f"move {number} ({text!r}) is illegal: {reason}")
        self.number = number
        self.text = text
        self.reason = reason


class InvalidPositionError(InvalidInputError):
    """A position that cannot exist under the rules (wrong cards, too many cells ...)."""


def can_stack(card: Card, onto: Card, building: Building) -> bool:
    """Whether ``card`` may lie on ``onto`` in a tableau column."""
    if (onto >> 2) != (card >> 2) + 1:
        return False
    if building is _ALTERNATE_COLOURS:
        # bit 0 xor bit 1 of a card is 1 for the red suits (1 and 2)
        return bool((card ^ (card >> 1) ^ onto ^ (onto >> 1)) & 1)
    return (card & 3) == (onto & 3)


def capacity_formula(empty_cells: int, empty_columns: int) -> int:
    """(empty cells + 1) × 2^(empty columns): the longest run that may move as one."""
    return (empty_cells + 1) << empty_columns


class Table:
    """What the rules ask of a table of cards, whoever holds them: a :class:`Position`
    (immutable), or a :class:`WorkingTable` whose cards move in place."""

    __slots__ = ()
    columns: Sequence[Sequence[Card]]
    cells: Sequence[Card | None]
    foundations: Sequence[int]

    # --- reading the table -------------------------------------------------------------

    def cards(self) -> Iterator[Card]:
        """Every card still in play (columns, then cells)."""
        for column in self.columns:
            yield from column
        for card in self.cells:
            if card is not None:
                yield card

    def foundation_top(self, pile: int) -> Card | None:
        height = self.foundations[pile]
        return make_card(height, pile % 4) if height else None

    @property
    def empty_cells(self) -> int:
        return self.cells.count(None)

    @property
    def empty_columns(self) -> int:
        return len(self.columns) - sum(map(bool, self.columns))

    @property
    def cards_home(self) -> int:
        return sum(self.foundations)

    def is_won(self) -> bool:
        return all(height == KING for height in self.foundations)

    # --- the capacity rule --------------------------------------------------------------

    def capacity(self, rules: Rules, *, to_empty_column: bool) -> int:
        """The longest run that may move as one, to an occupied or to an empty column.

        Empty cells that the ruleset has removed do not exist here, so they count for
        nothing. An empty destination column is not counted; neither is the source column,
        which still holds the run when the count is made. Where only kings may fill an empty column, empty columns
        cannot hold the cards of a run in passing, so they count for nothing either.
        """
        if rules.sequence_moves is _UNLIMITED:
            return UNLIMITED_CAPACITY
        relay_columns = 0
        if rules.empty_columns is _ANY_CARD:
            relay_columns = max(self.empty_columns - (1 if to_empty_column else 0), 0)
        return capacity_formula(self.empty_cells, relay_columns)

    def run_length(self, column: int, building: Building) -> int:
        """How many cards at the exposed end of ``column`` form an ordered run."""
        cards = self.columns[column]
        if not cards:
            return 0
        # can_stack inlined: this runs for every run checked
        alternate = building is _ALTERNATE_COLOURS
        upwards = reversed(cards)
        card = next(upwards)
        length = 1
        for onto in upwards:
            if (onto >> 2) != (card >> 2) + 1:
                break
            if alternate:
                if not (card ^ (card >> 1) ^ onto ^ (onto >> 1)) & 1:
                    break
            elif (card & 3) != (onto & 3):
                break
            card = onto
            length += 1
        return length

    def max_movable(self, source: int, target: int, rules: Rules) -> int:
        """The move calculator: the most cards that may move from column ``source`` to
        column ``target`` now (0 when none may)."""
        if source == target or not self.columns[source]:
            return 0
        return self._most_movable(source, target, self.run_length(source, rules.building), rules)

    def _most_movable(self, source: int, target: int, run: int, rules: Rules) -> int:
        """:meth:`max_movable` between two columns, the run at the exposed end of
        ``source`` (``run`` cards, at least one) known: every target of a source shares it."""
        target_cards = self.columns[target]
        if target_cards:
            fitting = self.fitting_count(source, target_cards[-1], run, rules.building)
            if fitting > 1 and fitting > self.capacity(rules, to_empty_column=False):
                return 0
            return fitting
        limit = min(run, self.capacity(rules, to_empty_column=True))
        if rules.empty_columns is _KINGS_ONLY:
            cards = self.columns[source]
            return next((n for n in range(limit, 0, -1) if card_rank(cards[-n]) == KING), 0)
        return limit

    def fitting_count(self, source: int, onto: Card, run: int, building: Building) -> int:
        """How many cards of the ordered run at the exposed end of column ``source``
        (``run`` cards) go onto ``onto`` as one run, 0 where no count does: the ranks of a
        run rise by one a card, so only the count whose base is one rank below ``onto`` may."""
        cards = self.columns[source]
        count = (onto >> 2) - (cards[-1] >> 2)
        return count if 0 < count <= run and can_stack(cards[-count], onto, building) else 0

    # --- legality -----------------------------------------------------------------------

    def card_at(self, place: Place) -> Card | None:
        """The card that would leave ``place`` in a one-card move."""
        if place.kind is _COLUMN:
            column = self.columns[place.index]
            return column[-1] if column else None
        if place.kind is _CELL:
            return self.cells[place.index]
        pile = self._top_pile(place.index)
        return None if pile is None else self.foundation_top(pile)

    def _top_pile(self, suit: int) -> int | None:
        """The pile of ``suit`` whose top card is highest (None if all are empty)."""
        foundations = self.foundations
        if len(foundations) == 4 and suit < 4:
            return suit if foundations[suit] else None
        piles = range(suit, len(foundations), 4)
        best = max(piles, key=lambda p: foundations[p])
        return best if foundations[best] else None

    def home_pile(self, card: Card) -> int | None:
        """The pile that ``card`` may go on next, if any."""
        below = card >> 2  # the height the pile must have: the card's rank - 1
        foundations = self.foundations
        suit = card & 3
        if foundations[suit] == below:  # the suit's first pile, its only one in one deck
            return suit
        for pile in range(suit + 4, len(foundations), 4):
            if foundations[pile] == below:
                return pile
        return None

    def check(self, move: Move, rules: Rules) -> None:
        """Raise :class:`IllegalMoveError` saying why, unless ``move`` is legal."""
        reason = self.why_illegal(move, rules)
        if reason is not None:
            raise IllegalMoveError(reason)

    def is_legal(self, move: Move, rules: Rules) -> bool:
        return self.why_illegal(move, rules, explain=False) is None

    def why_illegal(self, move: Move, rules: Rules, *, explain: bool = True) -> str | None:
        """None when ``move`` is legal, else a short reason a player can read; with
        ``explain`` off, where only whether it is legal matters, a reason that names no
        card (:data:`UNEXPLAINED`): the cards' names cost more than the checks."""
        # Every move replayed is checked here, so the common cases are kept short.
        source, target, count = move.source, move.target, move.count
        source_kind, target_kind = source.kind, target.kind
        source_index, target_index = source.index, target.index
        # does each place exist on this table?
        columns, cells = len(self.columns), len(self.cells)
        limit = columns if source_kind is _COLUMN else cells if source_kind is _CELL else 4
        if not 0 <= source_index < limit:
            return "there is no such place on this table"
        limit = columns if target_kind is _COLUMN else cells if target_kind is _CELL else 4
        if not 0 <= target_index < limit:
            return "there is no such place on this table"
        if source_index == target_index and source_kind == target_kind:
            return "a card must move to another place"
        if count < 1:
            return "a move carries at least one card"
        if source_kind is _COLUMN:  # card_at, inlined for the common sources
            column = self.columns[source_index]
            card = column[-1] if column else None
        elif source_kind is _CELL:
            card = self.cells[source_index]
        else:
            card = self.card_at(source)
        if card is None:
            return f"{_place_words(source)} is empty" if explain else UNEXPLAINED
        if source_kind is _FOUNDATION:
            reason = _why_not_from_foundation(rules, to_cell=target_kind is _CELL)
            if reason is not None:
                return reason
        if count > 1:
            if source_kind is not _COLUMN:
                return "only one card at a time leaves a cell or a foundation"
            if target_kind is not _COLUMN:
                return "only one card at a time goes to a cell or a foundation"

        if target_kind is _FOUNDATION:
            if card & 3 != target_index or self.home_pile(card) is None:
                if not explain:
                    return UNEXPLAINED
                if card & 3 != target_index:
                    return f"{card_label(card)} does not belong on the {_SUIT_WORDS[target_index]} foundation"
                return f"{card_label(card)} cannot go home yet: it needs the cards below it there first"
            return None
        if target_kind is _CELL:
            if source_kind is _CELL:
                return "a card does not move from one cell to another: it would change nothing"
            occupant = self.cells[target_index]
            if occupant is not None:
                if not explain:
                    return UNEXPLAINED
                return f"cell {_cell_letter(target_index)} already holds {card_label(occupant)}"
            return None

        return self._why_not_onto_column(source_index, card, count, target_index, rules, explain)

    def _why_not_onto_column(
        self, source: int, card: Card, count: int, target: int, rules: Rules, explain: bool = True
    ) -> str | None:
        """:meth:`why_illegal` for ``count`` cards ending in ``card`` (from column ``source``
        when more than one) onto column ``target``, their places checked already."""
        moving = card  # one card is always a run of its own
        # which card may lie on which, as a table (the run's own cards and the one it goes on)
        lies_on = _LIES_ON[rules.building]
        if count > 1:
            # each of the cards that move lies on the one above it (checked over those cards
            # only)
            cards = self.columns[source]
            ordered = count <= len(cards)
            if ordered:
                for upper in cards[-2 : -count - 1 : -1]:
                    if upper not in lies_on[moving]:
                        ordered = False
                        break
                    moving = upper
            if not ordered:
                if not explain:
                    return UNEXPLAINED
                return f"the {count} cards at the bottom of column {source + 1} are not an ordered run"
        target_cards = self.columns[target]
        if target_cards:
            onto = target_cards[-1]
            if onto not in lies_on[moving]:
                if not explain:
                    return UNEXPLAINED
                return f"{card_label(moving)} cannot go on {card_label(onto)}: {_building_words(rules.building)}"
        elif rules.empty_columns is _KINGS_ONLY and card_rank(moving) != KING:
            return "only a king may fill an empty column under these rules"
        if count > self.cells.count(None) + 1:  # the capacity (never less) mostly decides
            limit = self.capacity(rules, to_empty_column=not target_cards)
            if count > limit:
                if not explain:
                    return UNEXPLAINED
                where = "an empty column" if not target_cards else "another column"
                return (
                    f"{count} cards cannot move to {where}: the capacity is {limit} "
                    f"({self._capacity_words(rules, not target_cards)})"
                )
        return None

    def _capacity_words(self, rules: Rules, to_empty: bool) -> str:
        columns = self.empty_columns - (1 if to_empty else 0)
        if rules.empty_columns is not EmptyColumns.ANY_CARD:
            columns = 0
        cells = "1 empty cell" if self.empty_cells == 1 else f"{self.empty_cells} empty cells"
        if columns <= 0:
            return f"{cells} + 1"
        doubled = "1 empty column" if columns == 1 else f"each of {columns} empty columns"
        return f"{cells} + 1, doubled for {doubled}"

    def legal_moves(self, rules: Rules) -> list[Move]:
        """Every legal move, each exactly once.

        Under single-card rules only one-card moves are listed; a longer run is still
        legal to ask for and is carried out by :meth:`single_card_steps`.
        """
        moves: list[Move] = []
        for source in self.sources(rules):
            moves.extend(self.moves_from(source, rules))
        return moves

    def sources(self, rules: Rules) -> Iterator[Place]:
        for i, column in enumerate(self.columns):
            if column:
                yield Place.column(i)
        for i, card in enumerate(self.cells):
            if card is not None:
                yield Place.cell(i)
        if rules.takes_back:
            for suit in range(4):
                if self._top_pile(suit) is not None:
                    yield Place.foundation(suit)

    def moves_from(self, source: Place, rules: Rules) -> list[Move]:
        """Every legal move that takes cards from ``source`` (the page's highlights)."""
        # Brute-force searches list the moves of millions of positions, so each candidate is
        # judged on the cards, by why_illegal's own rules, and a Move is made only for the
        # legal ones.
        kind, index = source.kind, source.index
        card = self.card_at(source)
        if card is None:
            return []
        moves: list[Move] = []
        if kind is _FOUNDATION:
            if _why_not_from_foundation(rules, to_cell=False) is not None:
                return moves  # nothing comes back from a foundation
            to_cells = _why_not_from_foundation(rules, to_cell=True) is None
        else:
            if self.home_pile(card) is not None:
                moves.append(Move(source, _FOUNDATION_PLACES[card & 3]))
            to_cells = kind is _COLUMN  # a card does not move from one cell to another
        if to_cells:
            moves.extend(Move(source, Place.cell(i)) for i, held in enumerate(self.cells) if held is None)
        columns = range(len(self.columns))
        if kind is _COLUMN and rules.sequence_moves is not _SINGLE_CARD_STEPS:
            run = self.run_length(index, rules.building)
            for i in columns:
                if i == index:
                    continue
                most = self._most_movable(index, i, run, rules)
                if not most:
                    continue
                target = Place.column(i)
                if self.columns[i]:
                    moves.append(Move(source, target, most))
                else:
                    moves.extend(
                        Move(source, target, n)
                        for n in range(1, most + 1)
                        if rules.empty_columns is _ANY_CARD or card_rank(self.columns[index][-n]) == KING
                    )
        else:
            why_not = self._why_not_onto_column
            for i in columns:
                if (i != index or kind is not _COLUMN) and why_not(index, card, 1, i, rules, False) is None:
                    moves.append(Move(source, Place.column(i)))
        return moves

    def home_moves(self) -> Iterator[Move]:
        """The moves that send a card home now: exposed cards of columns, then cells' cards."""
        for i, column in enumerate(self.columns):
            if column and self.home_pile(column[-1]) is not None:
                yield Move(Place.column(i), Place.foundation(card_suit(column[-1])))
        for i, card in enumerate(self.cells):
            if card is not None and self.home_pile(card) is not None:
                yield Move(Place.cell(i), Place.foundation(card_suit(card)))

    def has_legal_move(self, rules: Rules, *, take_backs: bool = True) -> bool:
        for source in self.sources(rules):
            if not take_backs and source.kind is PlaceKind.FOUNDATION:
                continue
            if self.moves_from(source, rules):
                return True
        return False

    def single_card_steps(self, move: Move, rules: Rules) -> list[Move]:
        """The one-card moves that ``move`` stands for, each legal in turn.

        A run of n cards is moved through the empty cells and the empty columns other than
        the source and target, as in the proof of the capacity formula.
        Raises :class:`IllegalMoveError` if ``move`` is illegal.
        """
        self.check(move, rules)
        if move.count == 1:
            return [move]
        free_cells = [Place.cell(i) for i, c in enumerate(self.cells) if c is None]
        relay_columns = [
            Place.column(i) for i, column in enumerate(self.columns) if not column and i != move.target.index
        ]
        if rules.empty_columns is not EmptyColumns.ANY_CARD:
            relay_columns = []
        steps: list[Move] = []
        _route(move.count, move.source, move.target, free_cells, relay_columns, steps)
        return steps

    def parse_move(self, text: str | MoveText, rules: Rules) -> Move:
        """Read standard notation in this position; the move is checked to be legal."""
        move = _notation_parser()(text, self, rules)
        reason = self.why_illegal(move, rules)  # self.check, without a call more
        if reason is not None:
            raise IllegalMoveError(reason)
        return move


@dataclass(frozen=True, slots=True)
class Position(Table):
    """The table at one moment. Immutable and hashable; :meth:`key` merges symmetries."""

    columns: tuple[tuple[Card, ...], ...]
    cells: tuple[Card | None, ...]
    foundations: tuple[int, ...]

    def key(self) -> tuple[object, ...]:
        """A canonical key: positions that differ only in the order of columns, of cells,
        or of the two piles of a suit share it."""
        piles = self.foundations
        if len(piles) > 4:
            # the two piles of a suit are interchangeable: keep them lowest first
            piles = tuple(h for suit in range(4) for h in sorted(piles[suit::4]))
        return (
            tuple(sorted(self.columns)),
            tuple(sorted(card for card in self.cells if card is not None)),
            piles,
        )

    # --- text ---------------------------------------------------------------------------

    @classmethod
    def from_text(cls, text: str, rules: Rules | None = None, *, partial: bool = False) -> Position:
        """Read Freecell Solver's board format; see :func:`freecell.board_format.parse_board`."""
        from freecell.board_format import parse_board

        return parse_board(text, rules, partial=partial)

    def to_text(self) -> str:
        """Write Freecell Solver's board format."""
        from freecell.board_format import format_board

        return format_board(self)

    def __str__(self) -> str:
        return self.to_text()

    # --- making moves -------------------------------------------------------------------

    def apply(self, move: Move, rules: Rules) -> Position:
        """The position after ``move``; raises :class:`IllegalMoveError` if it is illegal."""
        self.check(move, rules)
        return self.apply_unchecked(move)

    def apply_unchecked(self, move: Move) -> Position:
        """The position after ``move``, trusting that it is legal."""
        columns = self.columns
        cells = self.cells
        foundations = self.foundations
        source, target, count = move.source, move.target, move.count
        source_kind, target_kind = source.kind, target.kind
        if source_kind is _COLUMN:
            column = columns[source.index]
            moving = column[-count:]
            changed = list(columns)
            changed[source.index] = column[:-count]
            if target_kind is _COLUMN:
                changed[target.index] += moving
                return Position(tuple(changed), cells, foundations)
            columns = tuple(changed)
        elif source_kind is _CELL:
            moving = (cells[source.index],)  # type: ignore[assignment]
            cells = _replace(cells, source.index, None)
        else:
            pile = self._top_pile(source.index)
            assert pile is not None
            moving = (make_card(foundations[pile], source.index),)
            foundations = _replace(foundations, pile, foundations[pile] - 1)
        if target_kind is _COLUMN:
            columns = _replace(columns, target.index, columns[target.index] + moving)
        elif target_kind is _CELL:
            cells = _replace(cells, target.index, moving[0])
        else:
            pile = self.home_pile(moving[0])
            assert pile is not None
            foundations = _replace(foundations, pile, foundations[pile] + 1)
        return Position(columns, cells, foundations)

    def notation(self, move: Move) -> str:
        """``move`` in standard notation (see :mod:`freecell.notation`)."""
        from freecell.notation import format_move

        return format_move(move, self)


class WorkingTable(Table):
    """A table whose cards move in place, for playing a line of moves: a move played here
    costs no new :class:`Position`. The rules' questions are the same as a position's."""

    __slots__ = ("_forms", "cells", "columns", "foundations")
    columns: list[list[Card]]
    cells: list[Card | None]
    foundations: list[int]

    def __init__(self, position: Position) -> None:
        self.columns = list(map(list, position.columns))  # no comprehension: no frame
        self.cells = list(position.cells)
        self.foundations = list(position.foundations)
        self._forms = _FORMS.setdefault((len(self.columns), len(self.cells)), {})

    def position(self) -> Position:
        """The table as it stands now."""
        return Position(tuple(map(tuple, self.columns)), tuple(self.cells), tuple(self.foundations))

    def play(self, move: Move) -> None:
        """Play ``move`` here, trusting that it is legal (as :meth:`Position.apply_unchecked`)."""
        source, target, count = move.source, move.target, move.count
        kind = source.kind
        if kind is _COLUMN:
            column = self.columns[source.index]
            moving = column[-count:]
            del column[-count:]
        elif kind is _CELL:
            moving = [self.cells[source.index]]  # type: ignore[list-item]
            self.cells[source.index] = None
        else:
            pile = self._top_pile(source.index)
            assert pile is not None
            moving = [make_card(self.foundations[pile], source.index)]
            self.foundations[pile] -= 1
        kind = target.kind
        if kind is _COLUMN:
            self.columns[target.index] += moving
        elif kind is _CELL:
            self.cells[target.index] = moving[0]
        else:
            pile = self.home_pile(moving[0])
            assert pile is not None
            self.foundations[pile] += 1

    def play_line(self, texts: Iterable[str], rules: Rules) -> None:
        """Play ``texts`` (standard notation) in turn, each read here, checked under
        ``rules`` and played: what ``self.play(self.parse_move(text, rules))`` does for
        each, the same moves and the same errors, for less where a text has a common form.

        Raises :class:`ReplayError` naming the first text that is malformed or illegal, its
        number and the reason; the moves before it stay played, and it changes nothing.
        (``texts`` is read whole first, where it is not a list.)
        """
        columns, cells, foundations = self.columns, self.cells, self.foundations
        forms, learn, home_pile, why_not = self._forms, self._learn, self.home_pile, self._why_not_onto_column
        lies_on = _LIES_ON[rules.building]
        any_card = rules.empty_columns is not _KINGS_ONLY
        line = texts if isinstance(texts, list) else list(texts)
        unplayed = iter(line)  # a text's number is told by what is left of it, on an error
        for text in unplayed:
            try:
                shape, source, target, count = forms[text]
            except KeyError:
                shape, source, target, count = learn(text)
            # Each shape below plays only a move that parse_move gives and why_illegal finds
            # legal, deciding exactly as they do; anything else (every error too) goes the
            # general way at the end, which gives the reason. The commonest come first.
            if shape == _HOME_FROM_COLUMN:
                column = columns[source]
                if column:
                    card = column.pop()  # put back below where it may not go home
                    rank, suit = card >> 2, card & 3
                    if foundations[suit] == rank:  # home_pile's one-deck answer, inlined
                        foundations[suit] = rank + 1
                        continue
                    pile = home_pile(card)
                    if pile is not None:
                        foundations[pile] += 1
                        continue
                    column.append(card)  # not played: the general way below gives the reason
            elif shape == _COLUMN_TO_COLUMN:
                column = columns[source]
                onto_column = columns[target]
                if column and onto_column:
                    card = column[-1]
                    onto = onto_column[-1]
                    if onto in lies_on[card]:
                        onto_column.append(column.pop())
                        continue
                    # the count a run's text implies: its base is one rank below the card it
                    # goes on, so the cards' ranks tell it (as Table.fitting_count; why_not
                    # checks the run)
                    count = (onto >> 2) - (card >> 2)
                    if count > 1 and why_not(source, card, count, target, rules, False) is None:
                        onto_column += column[-count:]
                        del column[-count:]
                        continue
                elif column and (any_card or column[-1] >> 2 == KING - 1):
                    onto_column.append(column.pop())  # into an empty column, one card
                    continue
            elif shape == _COLUMN_TO_CELL:
                column = columns[source]
                if column and cells[target] is None:
                    cells[target] = column.pop()
                    continue
            elif shape == _HOME_FROM_CELL:
                held = cells[source]
                if held is not None:
                    suit = held & 3
                    pile = suit if foundations[suit] == held >> 2 else home_pile(held)
                    if pile is not None:
                        cells[source] = None
                        foundations[pile] += 1
                        continue
            elif shape == _CELL_TO_COLUMN:
                held = cells[source]
                if held is not None:
                    onto_column = columns[target]
                    if onto_column[-1] in lies_on[held] if onto_column else any_card or held >> 2 == KING - 1:
                        onto_column.append(held)
                        cells[source] = None
                        continue
            elif shape == _COUNTED_RUN:
                column = columns[source]
                onto_column = columns[target]
                if column and why_not(source, column[-1], count, target, rules, False) is None:
                    onto_column += column[-count:]
                    del column[-count:]
                    continue
            try:
                self.play(self.parse_move(text, rules))
            except InvalidInputError as error:
                raise ReplayError(len(line) - length_hint(unplayed), text, str(error)) from None

    def _learn(self, text: str) -> _Form:
        """The form of ``text`` on a table of this size, kept for the next time."""
        try:
            source, target, count = _places_reader()(text, len(self.columns), len(self.cells))
        except InvalidInputError:
            return _GENERAL  # not kept: the general way raises the error every time
        form = _form(source, target, count)
        if len(self._forms) < _FORMS_KEPT:
            self._forms[text] = form
        return form


# What WorkingTable.play_line needs of a text on a table of a given size: its shape, the
# source's and the target's index, and the count written (1 where none may be; for a run
# onto a column whose count the cards imply, unused). A line of play is nearly all moves
# of these shapes; _GENERAL is any other (take-backs, a count written where only one card
# may go).
_Form = tuple[int, int, int, int]
_HOME_FROM_COLUMN: Final = 1
_HOME_FROM_CELL: Final = 2
_COLUMN_TO_COLUMN: Final = 3
_COLUMN_TO_CELL: Final = 4
_CELL_TO_COLUMN: Final = 5
_COUNTED_RUN: Final = 6  # from a column onto another, the count written
_GENERAL: Final[_Form] = (0, 0, 0, 0)
_FORMS: Final[dict[tuple[int, int], dict[str, _Form]]] = {}  # by the table's columns and cells
_FORMS_KEPT: Final = 4096  # texts kept for a table size: far more than the notation has without counts


def _form(source: Place, target: Place, written: int | None) -> _Form:
    """The form of a text that names these places and writes this count (None where it
    writes none), as notation.read_move_text reads it."""
    count = 1 if written is None else written  # the count of the moves it reads
    if target.kind is _FOUNDATION:  # a card home (read as one move per suit)
        if count != 1:
            return _GENERAL
        if source.kind is _COLUMN:
            return (_HOME_FROM_COLUMN, source.index, target.index, 1)
        if source.kind is _CELL:
            return (_HOME_FROM_CELL, source.index, target.index, 1)
        return _GENERAL
    if written is None and source.kind is _COLUMN and target.kind is _COLUMN:  # the count implied
        if source.index == target.index:
            return _GENERAL
        return (_COLUMN_TO_COLUMN, source.index, target.index, 0)
    if count == 1 and source.kind is _COLUMN and target.kind is _CELL:
        return (_COLUMN_TO_CELL, source.index, target.index, 1)
    if count == 1 and source.kind is _CELL and target.kind is _COLUMN:
        return (_CELL_TO_COLUMN, source.index, target.index, 1)
    if source.kind is _COLUMN and target.kind is _COLUMN and source.index != target.index:
        return (_COUNTED_RUN, source.index, target.index, count)
    return _GENERAL


class _LiesOn(dict[Building, tuple[tuple[Card, ...], ...]]):
    """For each card, the cards it may lie on in a column (:func:`can_stack` as a table),
    by the building rule: made on first use, then read by a dict's look-up (a cached
    function's call cost three times as much, a third of a replayed move's cost)."""

    def __missing__(self, building: Building) -> tuple[tuple[Card, ...], ...]:
        deck = range(4 * KING)
        # the candidates are the four cards of the next rank (a king has none)
        table = self[building] = tuple(
            tuple(
                onto
                for onto in range(card + 4 - card % 4, card + 8 - card % 4)
                if onto in deck and can_stack(card, onto, building)
            )
            for card in deck
        )
        return table


_LIES_ON: Final = _LiesOn()


@cache
def _notation_parser() -> Callable[[str | MoveText, Table, Rules], Move]:
    # imported on first use, as notation imports this module; an import on every call
    # would cost as much as the parse
    from freecell.notation import parse_move

    return parse_move


@cache
def _places_reader() -> Callable[[str, int, int], tuple[Place, Place, int | None]]:
    from freecell.notation import read_places  # as in _notation_parser

    return read_places


def _route(
    count: int,
    source: Place,
    target: Place,
    cells: list[Place],
    columns: list[Place],
    steps: list[Move],
) -> None:
    """Append the one-card moves that carry ``count`` cards from source to target, using
    as few of the relay ``columns`` as the capacity formula allows."""
    if count <= len(cells) + 1:
        used = cells[: count - 1]
        steps.extend(Move(source, cell) for cell in used)
        steps.append(Move(source, target))
        steps.extend(Move(cell, target) for cell in reversed(used))
        return
    needed = next(k for k in range(1, len(columns) + 1) if capacity_formula(len(cells), k) >= count)
    relay, rest = columns[0], columns[1:needed]
    # Park in the relay only what the direct move cannot carry: the rest then fits,
    # because the capacity with one more empty column is exactly twice as large.
    parked = count - capacity_formula(len(cells), len(rest))
    _route(parked, source, relay, cells, rest, steps)
    _route(count - parked, source, target, cells, rest, steps)
    _route(parked, relay, target, cells, rest, steps)


def _replace(values: tuple, index: int, value: object) -> tuple:  # type: ignore[type-arg]
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def _why_not_from_foundation(rules: Rules, *, to_cell: bool) -> str | None:
    """Why a card may not come back from a foundation, to a cell or to a column, under
    ``rules`` (None where it may, the target's cards allowing)."""
    if rules.foundation_return is _NEVER:
        return "cards on the foundations stay there under these rules"
    if to_cell and rules.foundation_return is not _TO_TABLEAU_OR_CELL:
        return "a foundation card may only come back to the tableau under these rules"
    return None


_SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


def _cell_letter(index: int) -> str:
    from freecell.notation import cell_letter

    return cell_letter(index)


def _place_words(place: Place) -> str:
    if place.kind is PlaceKind.COLUMN:
        return f"column {place.index + 1}"
    if place.kind is PlaceKind.CELL:
        return f"cell {_cell_letter(place.index)}"
    return f"the {_SUIT_WORDS[place.index]} foundation"


def _building_words(building: Building) -> str:
    if building is Building.ALTERNATE_COLOURS:
        return "a card goes on one rank higher in the other colour"
    return "a card goes on one rank higher of the same suit"
