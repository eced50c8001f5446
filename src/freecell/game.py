"""One session of play: moves, undo and redo, restart, score and the outcome.

An *action* is one move as the player made it, followed by the automatic moves the
ruleset plays after it. Under single-card rules a run asked for as one move becomes
several actions, one per card, each undone on its own. The undo limit counts actions.

**Safe cards home.** Besides the ruleset's own automatic moves, a game may send *safe*
cards home by themselves when its player asks for it (``auto_home``, as Microsoft
FreeCell does): a card goes home once every card that could be placed on it in the
tableau is home already (under alternating colours, both cards of the other colour one
rank lower), so nothing still in play could need it as a base; with two decks, also both
cards of its own suit one rank lower, so that the other copy of it never finds the pile
it needs taken. See :func:`is_safe_home`.

Scoring follows :class:`~freecell.rules.Scoring`: the score is clamped at 0 after every
move, and undo puts back the score exactly as it was before the action.

**Lost.** Where foundation cards never come back, a game is lost when no legal move is
left (``000``). Where they may come back, some move nearly always exists, so a game is
lost when no *useful* move is left (``001``): no legal move other than a take-back, and
no chain of take-backs after which a card that was not taken back can move. Moving a
taken-back card again, or sending it home again, only undoes the chain. The chains are
searched exhaustively (they are short: with every cell full and no empty column, a
taken-back card can only go onto a tableau card); if the search would pass
:data:`TAKE_BACK_SEARCH_LIMIT` positions, the game is not called lost.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from freecell.cards import Card, card_rank, card_suit, is_red, make_card, suit_is_red
from freecell.deals import Deal
from freecell.errors import NotPossibleNowError
from freecell.position import Move, Place, PlaceKind, Position
from freecell.rules import AutoMoves, Building, Rules, SequenceMoves

TAKE_BACK_SEARCH_LIMIT: Final = 5000


class Outcome(Enum):
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class NothingToUndoError(NotPossibleNowError):
    """Undo or redo was asked for with nothing to undo or redo."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action: the moves it played (the player's, then automatic ones) and the state
    before it, so that undo restores it exactly."""

    moves: tuple[Move, ...]
    notation: tuple[str, ...]
    before: Position
    score_before: int
    scored_before: frozenset[Card]


@dataclass
class Game:
    """A game in progress under ``rules``, from ``start`` (a deal's layout or an imported
    position). ``deal`` is None for an imported position, which has no game code.
    ``auto_home`` sends safe cards home after each move (see the module's docstring);
    ``line`` is every move played from the start, automatic ones included, in standard
    notation."""

    rules: Rules
    start: Position
    deal: Deal | None = None
    position: Position = field(init=False)
    score: int = field(init=False, default=0)
    scored_cards: frozenset[Card] = field(init=False, default=frozenset())
    moves_made: int = field(init=False, default=0)
    history: deque[Action] = field(init=False)
    redo_stack: list[Action] = field(init=False, default_factory=list)
    auto_home: bool = field(default=False, kw_only=True)
    line: list[str] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.position = self.start
        self.scored_cards = _cards_home(self.start)
        self.history = deque(maxlen=self.rules.undo_limit)

    @classmethod
    def new(cls, deal: Deal) -> Game:
        return cls(deal.rules, deal.position(), deal)

    # --- playing ------------------------------------------------------------------------

    def play(self, move: str | Move) -> list[Action]:
        """Play one move, given in standard notation or as a :class:`Move`.

        Returns the actions it became (several under single-card rules). Raises
        :class:`~freecell.notation.InvalidMoveError` or :class:`IllegalMoveError` and
        changes nothing when the move is malformed or illegal.
        """
        position = self.position
        if isinstance(move, str):
            move = position.parse_move(move, self.rules)
        else:
            position.check(move, self.rules)
        if self.rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS:
            steps = position.single_card_steps(move, self.rules)
        else:
            steps = [move]
        actions = [self._act(step) for step in steps]
        self.redo_stack.clear()
        return actions

    def _act(self, move: Move) -> Action:
        before, score, scored = self.position, self.score, self.scored_cards
        moves = [move, *self._automatic_moves(before.apply_unchecked(move))]
        notation = []
        position = before
        for step in moves:
            notation.append(position.notation(step))
            score, scored = self._scored(position, step, score, scored)
            position = position.apply_unchecked(step)
        action = Action(tuple(moves), tuple(notation), before, self.score, self.scored_cards)
        self.position, self.score, self.scored_cards = position, score, scored
        self.moves_made += 1
        self.history.append(action)
        self.line.extend(notation)
        return action

    def _automatic_moves(self, position: Position) -> list[Move]:
        mode = self.rules.auto_moves
        if mode is AutoMoves.NONE and self.auto_home:
            mode = AutoMoves.SAFE
        moves: list[Move] = []
        while mode is not AutoMoves.NONE:
            move = next(
                (
                    m
                    for m in position.home_moves()
                    if mode is AutoMoves.ALL or is_safe_home(position, position.card_at(m.source), self.rules)  # type: ignore[arg-type]
                ),
                None,
            )
            if move is None:
                break
            moves.append(move)
            position = position.apply_unchecked(move)
        return moves

    def _scored(
        self, position: Position, move: Move, score: int, scored: frozenset[Card]
    ) -> tuple[int, frozenset[Card]]:
        scoring = self.rules.scoring
        if scoring is None:
            return score, scored
        card = position.card_at(move.source)
        assert card is not None
        if move.target.kind is PlaceKind.FOUNDATION:
            if not (scoring.foundation_once_per_card and card in scored):
                score += scoring.to_foundation
                scored = scored | {card}
        elif move.source.kind is PlaceKind.FOUNDATION:
            score += scoring.from_foundation
        elif move.source.kind is PlaceKind.CELL and move.target.kind is PlaceKind.COLUMN:
            score += scoring.cell_to_tableau
        return max(score, 0), scored

    def undo(self) -> Action:
        """Take back the last action. Raises :class:`NothingToUndoError` at the start or
        at the ruleset's undo limit."""
        if not self.history:
            raise self.nothing_to_undo()
        action = self.history.pop()
        self.position, self.score, self.scored_cards = action.before, action.score_before, action.scored_before
        self.moves_made -= 1
        del self.line[len(self.line) - len(action.notation):]
        self.redo_stack.append(action)
        return action

    def nothing_to_undo(self) -> NothingToUndoError:
        """The refusal of an undo with no action left to take back: at the start, or at
        the ruleset's undo limit, which it names."""
        limit = self.rules.undo_limit
        if limit is not None and self.moves_made > 0:
            return NothingToUndoError(
                f"the undo limit is reached: {self.rules.title} takes back only the last {limit} actions"
            )
        return NothingToUndoError("there is nothing to undo")

    def redo(self) -> Action:
        """Play again the last action undone."""
        if not self.redo_stack:
            raise NothingToUndoError("there is nothing to redo")
        action = self.redo_stack.pop()
        stack = self.redo_stack
        self.redo_stack = []
        replayed = self._act(action.moves[0])
        self.redo_stack = stack
        return replayed

    def restart(self) -> None:
        """Back to the start of the same deal, with a clean history and score."""
        self.position = self.start
        self.score = 0
        self.scored_cards = _cards_home(self.start)
        self.moves_made = 0
        self.history.clear()
        self.redo_stack.clear()
        self.line.clear()

    # --- questions ----------------------------------------------------------------------

    @property
    def can_undo(self) -> bool:
        return bool(self.history)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    @property
    def code(self) -> str | None:
        return self.deal.code() if self.deal else None

    def outcome(self) -> Outcome:
        if self.position.is_won():
            return Outcome.WON
        return Outcome.LOST if is_lost(self.position, self.rules) else Outcome.PLAYING

    def legal_moves(self) -> list[Move]:
        return self.position.legal_moves(self.rules)

    def destinations(self, source: Place, count: int = 1) -> list[Place]:
        """Every place that ``count`` cards from ``source`` may legally move to now."""
        candidates = [Place.foundation(s) for s in range(4)]
        candidates += [Place.cell(i) for i in range(len(self.position.cells))]
        candidates += [Place.column(i) for i in range(len(self.position.columns))]
        return [
            target for target in candidates
            if self.position.is_legal(Move(source, target, count), self.rules)
        ]


def _cards_home(position: Position) -> frozenset[Card]:
    """The cards on the foundations: in an imported position they have had their points."""
    return frozenset(
        make_card(rank, pile % 4) for pile, height in enumerate(position.foundations) for rank in range(1, height + 1)
    )


def is_safe_home(position: Position, card: Card, rules: Rules) -> bool:
    """Whether ``card`` may go home without losing a win: it can go home, every card
    that could ever be placed on it in the tableau is home already, and (two decks) so
    is every card of its suit one rank lower, so the other copy of ``card`` still finds
    a pile ready for it."""
    if position.home_pile(card) is None:
        return False
    rank = card_rank(card)
    for pile, height in enumerate(position.foundations):
        suit = pile % 4
        waits_for_pile = suit == card_suit(card) or (
            rules.building is Building.ALTERNATE_COLOURS and suit_is_red(suit) != is_red(card)
        )
        if waits_for_pile and height < rank - 1:
            return False
    return True


def is_lost(position: Position, rules: Rules) -> bool:
    """Whether no useful move is left (see the module's docstring)."""
    if position.is_won():
        return False
    if position.has_legal_move(rules, take_backs=False):
        return False
    if not rules.takes_back:
        return True
    home_at_start = position.foundations
    seen = {position}
    frontier = [position]
    while frontier:
        current = frontier.pop()
        for source in current.sources(rules):
            for move in current.moves_from(source, rules):
                if move.is_take_back:
                    following = current.apply_unchecked(move)
                    if following not in seen:
                        if len(seen) >= TAKE_BACK_SEARCH_LIMIT:
                            return False
                        seen.add(following)
                        frontier.append(following)
                elif not _moves_only_taken_back(current, move, home_at_start):
                    return False
    return True


def _moves_only_taken_back(position: Position, move: Move, home_at_start: tuple[int, ...]) -> bool:
    """Whether every card ``move`` carries was on a foundation at the start of the search."""
    if move.source.kind is PlaceKind.COLUMN:
        cards = position.columns[move.source.index][-move.count:]
    else:
        card = position.card_at(move.source)
        cards = () if card is None else (card,)
    return all(_was_home(card, home_at_start) for card in cards)


def _was_home(card: Card, home_at_start: tuple[int, ...]) -> bool:
    return any(
        home_at_start[p] >= card_rank(card) for p in range(card_suit(card), len(home_at_start), 4)
    )

