"""freecell: the rules of FreeCell and its variants, a solver, and a game to play.

The core (cards, rules, positions, notation, deals, game codes and game sessions) is pure
Python with no dependencies:

>>> from freecell import Deal, Game, find_rules
>>> game = Game.new(Deal(find_rules("standard"), 617))
>>> [a.notation for a in game.play("2a")]
[('2a',)]
>>> game.position.cells[0] is not None
True
"""

from typing import TYPE_CHECKING

from freecell.cards import Card, card_name, card_rank, card_suit, parse_card
from freecell.deals import Deal, DealKind, random_deal
from freecell.position import IllegalMoveError, InvalidPositionError, Move, Place, PlaceKind, Position
from freecell.replay import ReplayError, replay
from freecell.rules import PRESETS, Rules, find_rules

if TYPE_CHECKING:
    from freecell.game import Game, Outcome


def __getattr__(name: str) -> object:
    # The game sessions are imported on first use: a process that only solves (the
    # solver, its helper, a batch) never plays a game.
    if name in ("Game", "Outcome"):
        from freecell import game

        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "PRESETS",
    "Card",
    "Deal",
    "DealKind",
    "Game",
    "IllegalMoveError",
    "InvalidPositionError",
    "Move",
    "Outcome",
    "Place",
    "PlaceKind",
    "Position",
    "ReplayError",
    "Rules",
    "card_name",
    "card_rank",
    "card_suit",
    "find_rules",
    "parse_card",
    "random_deal",
    "replay",
]
