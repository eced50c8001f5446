"""Rulesets as data, and the registry of named presets.

A :class:`Rules` value says everything the engine needs to know about a variant: the
layout, how cards build, what fills an empty column, how runs move, whether foundation
cards may come back, automatic moves, scoring, the undo limit and the dealer. The engine
reads these fields and never looks at a preset's name.

>>> find_rules("Baker's Game").building
<Building.SAME_SUIT: 'same-suit'>
>>> find_rules("app", cells=2).cells
2
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from enum import Enum
from typing import Final

from freecell.cards import CARDS_PER_DECK
from freecell.errors import InvalidInputError


class _Choice(Enum):
    """The choices of one rule. A member is equal to itself alone, so it is hashed by
    identity, in C: the caches keyed by the rules (the solver's tables, the rules' own
    hash) hash them on every solve, and Enum's own hash is Python code."""

    __hash__ = object.__hash__


class Building(_Choice):
    """How a card is placed on a tableau card one rank higher."""

    ALTERNATE_COLOURS = "alternate-colours"
    SAME_SUIT = "same-suit"


class EmptyColumns(_Choice):
    """What may be placed in an empty tableau column."""

    ANY_CARD = "any-card"
    KINGS_ONLY = "kings-only"


class SequenceMoves(_Choice):
    """How an ordered run moves between columns.

    ``CAPACITY``: as one move, up to (empty cells + 1) × 2^(empty columns) cards.
    ``SINGLE_CARD_STEPS``: only single cards move; a run is relocated as the series of
    single-card moves through cells and empty columns that it stands for, each a move of
    its own, and the same formula bounds the run.
    ``UNLIMITED``: any ordered run moves as one.
    """

    CAPACITY = "capacity"
    SINGLE_CARD_STEPS = "single-card-steps"
    UNLIMITED = "unlimited"


class FoundationReturn(_Choice):
    """Whether the top card of a foundation may come back into play, and where to."""

    NEVER = "never"
    TO_TABLEAU = "to-tableau"
    TO_TABLEAU_OR_CELL = "to-tableau-or-cell"


class AutoMoves(_Choice):
    """Which cards go to the foundations by themselves after each move."""

    NONE = "none"
    SAFE = "safe"
    ALL = "all"


class Dealer(_Choice):
    """How a deal number becomes an order of cards (see :mod:`freecell.deals`)."""

    MICROSOFT = "microsoft"
    SHUFFLE = "shuffle"


@dataclass(frozen=True, slots=True)
class Scoring:
    """Points for each kind of move; the score is clamped at 0 after every move.

    ``foundation_once_per_card`` closes the loophole of the ``001`` app, where a card
    taken back and sent home again would earn its points again: a card earns
    ``to_foundation`` only the first time it reaches a foundation in a game (cards already
    home in an imported starting position have had theirs).
    """

    to_foundation: int = 0
    cell_to_tableau: int = 0
    from_foundation: int = 0
    foundation_once_per_card: bool = False



class UnknownRulesError(InvalidInputError):
    """No preset goes by the name asked for."""


class InvalidRulesError(InvalidInputError):
    """A ruleset that cannot be: cells that its preset is not played with."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One ruleset. Frozen, comparable and hashable; change it with :meth:`with_cells`.

    Besides the rules of play, two fields say how a game presents them: ``show_capacity``
    (SuperMove FreeCell keeps the move calculator on show) and ``tap_sends_home`` (in the
    ``001`` app a single tap first tries the foundation).
    """

    name: str
    title: str
    description: str
    columns: int = 8
    cells: int = 4
    decks: int = 1
    building: Building = Building.ALTERNATE_COLOURS
    empty_columns: EmptyColumns = EmptyColumns.ANY_CARD
    sequence_moves: SequenceMoves = SequenceMoves.CAPACITY
    foundation_return: FoundationReturn = FoundationReturn.NEVER
    auto_moves: AutoMoves = AutoMoves.NONE
    scoring: Scoring | None = None
    undo_limit: int | None = None
    dealer: Dealer = Dealer.MICROSOFT
    dealt_to_cells: int = 0
    cell_options: tuple[int, ...] = (4,)
    show_capacity: bool = False
    tap_sends_home: bool = False
    source: str = "000"
    code: str = "ST"

    def __post_init__(self) -> None:
        if self.cells not in self.cell_options:
            raise InvalidRulesError(
                f"{self.name} is played with {_or_list(self.cell_options)} cells, not {self.cells}"
            )
        if self.dealt_to_cells > self.cells:
            raise InvalidRulesError(f"{self.name} deals {self.dealt_to_cells} cards to cells")

    @property
    def card_count(self) -> int:
        return CARDS_PER_DECK * self.decks

    @property
    def foundation_count(self) -> int:
        return 4 * self.decks

    @property
    def column_heights(self) -> tuple[int, ...]:
        """How many cards each column receives when the deal is laid out."""
        dealt = self.card_count - self.dealt_to_cells
        base, extra = divmod(dealt, self.columns)
        return tuple(base + (1 if i < extra else 0) for i in range(self.columns))

    @property
    def takes_back(self) -> bool:
        return self.foundation_return is not FoundationReturn.NEVER

    def with_cells(self, cells: int) -> Rules:
        """The same ruleset with another number of cells, one of :attr:`cell_options`."""
        return dataclasses.replace(self, cells=cells)

    def summary(self) -> str:
        """One line: the name, then what sets the ruleset apart."""
        return f"{self.name:<11} {self.description}"


def cells_text(count: int) -> str:
    """How many free cells, in words: "1 cell", "2 cells"."""
    return "1 cell" if count == 1 else f"{count} cells"


def _or_list(values: tuple[int, ...]) -> str:
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


_APP_SCORING: Final = Scoring(to_foundation=10, cell_to_tableau=5, foundation_once_per_card=True)
_CARDEMS_SCORING: Final = Scoring(to_foundation=10, from_foundation=-15)

PRESETS: Final[dict[str, Rules]] = {
    rules.name: rules
    for rules in (
        Rules(
            name="standard",
            title="FreeCell",
            description="FreeCell: 8 columns, 4 cells, alternate colours, runs of up to "
            "(empty cells + 1) cards, doubled for each empty column, one-way foundations",
            cell_options=(4, 3, 2, 1, 0),
            source="000, 002",
            code="ST",
        ),
        Rules(
            name="strict",
            title="FreeCell, one card at a time",
            description="FreeCell moving one card at a time: a run is played as the "
            "single-card moves it stands for, each undone on its own",
            sequence_moves=SequenceMoves.SINGLE_CARD_STEPS,
            cell_options=(4, 3, 2, 1, 0),
            code="SX",
        ),
        Rules(
            name="supermove",
            title="SuperMove FreeCell",
            description="SuperMove FreeCell: the capacity rule stated, shown and enforced "
            "on every run",
            show_capacity=True,
            cell_options=(4, 3, 2, 1, 0),
            code="SM",
        ),
        Rules(
            name="bakers-game",
            title="Baker's Game",
            description="Baker's Game: the FreeCell layout, building down by suit",
            building=Building.SAME_SUIT,
            cell_options=(4, 3, 2, 1, 0),
            code="BG",
        ),
        Rules(
            name="eight-off",
            title="Eight Off",
            description="Eight Off: 8 cells, 8 columns of 6 with 4 cards dealt to cells, "
            "building by suit, only kings fill an empty column",
            cells=8,
            building=Building.SAME_SUIT,
            empty_columns=EmptyColumns.KINGS_ONLY,
            dealt_to_cells=4,
            cell_options=(8,),
            code="EO",
        ),
        Rules(
            name="double",
            title="Double FreeCell",
            description="Double FreeCell: 104 cards, 10 columns, 6 cells, 8 foundations "
            "(two per suit)",
            columns=10,
            cells=6,
            decks=2,
            dealer=Dealer.SHUFFLE,
            cell_options=(6,),
            code="DF",
        ),
        Rules(
            name="app",
            title="FreeCell with take-backs (phone app)",
            description="FreeCell as the phone app plays it: 4, 2 or 1 cells, foundation cards "
            "may return to the tableau, undo of 100 actions, +10 home, +5 cell to tableau",
            foundation_return=FoundationReturn.TO_TABLEAU,
            tap_sends_home=True,
            scoring=_APP_SCORING,
            undo_limit=100,
            cell_options=(4, 2, 1),
            source="001",
            code="AP",
        ),
        Rules(
            name="cardems",
            title="Cardems",
            description="Cardems: foundation cards may return to a cell or the "
            "tableau (-15), +10 for each card sent home",
            foundation_return=FoundationReturn.TO_TABLEAU_OR_CELL,
            scoring=_CARDEMS_SCORING,
            source="003",
            code="CD",
        ),
    )
}

ALIASES: Final[dict[str, str]] = {
    "freecell": "standard",
    "fc": "standard",
    "microsoft": "standard",
    "one-card": "strict",
    "single-card": "strict",
    "one-at-a-time": "strict",
    "super-move": "supermove",
    "supermove-freecell": "supermove",
    "bakers": "bakers-game",
    "baker": "bakers-game",
    "bakersgame": "bakers-game",
    "eightoff": "eight-off",
    "8-off": "eight-off",
    "double-freecell": "double",
    "two-decks": "double",
    "freecell-solitaire-app": "app",
    "solitaire-app": "app",
    "001": "app",
    "cardems-freecell": "cardems",
    "003": "cardems",
}




def _normalise(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower().replace("'", ""))


def find_rules(name: str, *, cells: int | None = None) -> Rules:
    """The preset called ``name`` (or one of its aliases), optionally with other cells.

    Raises :class:`UnknownRulesError` listing the presets when the name is unknown, and
    :class:`InvalidRulesError` when the preset is not played with that many cells.
    """
    key = _normalise(name)
    key = ALIASES.get(key, key)
    rules = PRESETS.get(key)
    if rules is None:
        raise UnknownRulesError(f"no ruleset is called {name!r}; choose one of {', '.join(PRESETS)}")
    return rules if cells is None or cells == rules.cells else rules.with_cells(cells)


def find_rules_by_code(code: str) -> Rules:
    """The preset whose two-letter game-code tag is ``code``."""
    for rules in PRESETS.values():
        if rules.code == code:
            return rules
    raise UnknownRulesError(f"no ruleset has the code {code!r}")


STANDARD: Final = PRESETS["standard"]
