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

from freecell.cards import Card, card_name, card_rank, card_suit, parse_card
from freecell.deals import Deal, DealKind, random_deal
from freecell.game import Game, Outcome
from freecell.position import IllegalMoveError, InvalidPositionError, Move, Place, PlaceKind, Position
from freecell.replay import ReplayError, replay
from freecell.rules import PRESETS, Rules, find_rules

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
