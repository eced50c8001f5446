"""Guided lessons on small prepared positions (``002``: four lessons teach the game).

A :class:`Lesson` is a partial board and a series of :class:`Step` values. Each step says
what to do and which move does it: a card (the one that moves, the base of a run) and
where it goes. :meth:`Lesson.check` reads the player's move; an illegal move is refused
with the rule's reason, and a legal move that is not what the step asks is refused with
the step's explanation. A lesson is done when its last step is played: its goal is
reached.

>>> lesson = find_lesson("foundations")
>>> position = lesson.start()
>>> lesson.check(position, "3h", 0)
Traceback (most recent call last):
...
freecell.lessons.LessonMistakeError: 3♣ cannot go home yet: it needs the cards below it there first
>>> position.notation(lesson.check(position, "1h", 0))
'1h'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from freecell.cards import card_name, card_suit, parse_card
from freecell.errors import InvalidInputError, NotFoundError
from freecell.notation import FOUNDATION_CHAR, parse_place
from freecell.position import Move, Place, PlaceKind, Position
from freecell.rules import PRESETS, STANDARD, Rules

ANY_CELL: Final = "cell"
ANY_EMPTY_COLUMN: Final = "empty"
FOUNDATION: Final = FOUNDATION_CHAR


class LessonMistakeError(InvalidInputError):
    """A move the lesson does not take; the message explains the mistake."""


class UnknownLessonError(NotFoundError):
    """No lesson has that id."""


@dataclass(frozen=True, slots=True)
class Step:
    """One thing to do. ``card`` moves (with the cards on it) to ``to``: a column's digit,
    ``"cell"`` for any free cell, ``"empty"`` for any empty column, ``"h"`` for home.
    ``why`` explains why another legal move is not what the step asks."""

    text: str
    card: str
    to: str
    why: str

    def matches(self, move: Move, position: Position) -> bool:
        """Whether ``move``, legal in ``position``, is the move this step asks for."""
        moving = _moving_card(move, position)
        if moving is None or card_name(moving) != card_name(parse_card(self.card)):
            return False
        target = move.target
        if self.to == ANY_CELL:
            return target.kind is PlaceKind.CELL
        if self.to == FOUNDATION:
            return target.kind is PlaceKind.FOUNDATION
        if target.kind is not PlaceKind.COLUMN:
            return False
        if self.to == ANY_EMPTY_COLUMN:
            return not position.columns[target.index]
        return target == parse_place(self.to, position)

    def move(self, position: Position) -> Move:
        """The move that does this step in ``position`` (the first free cell or empty
        column when any will do)."""
        card = parse_card(self.card)
        source: Place | None = None
        count = 1
        for i, column in enumerate(position.columns):
            if card in column:
                source, count = Place.column(i), len(column) - column.index(card)
        for i, held in enumerate(position.cells):
            if held == card:
                source = Place.cell(i)
        if source is None and position.card_at(Place.foundation(card_suit(card))) == card:
            source = Place.foundation(card_suit(card))  # taken back from its foundation
        if source is None:
            raise ValueError(f"{self.card} is not in play")
        if self.to == FOUNDATION:
            target = Place.foundation(card_suit(card))
        elif self.to == ANY_CELL:
            target = Place.cell(position.cells.index(None))
        elif self.to == ANY_EMPTY_COLUMN:
            target = Place.column(next(i for i, c in enumerate(position.columns) if not c))
        else:
            target = parse_place(self.to, position)
        return Move(source, target, count)


def _moving_card(move: Move, position: Position) -> int | None:
    if move.source.kind is PlaceKind.COLUMN:
        column = position.columns[move.source.index]
        return column[-move.count] if len(column) >= move.count else None
    return position.card_at(move.source)


@dataclass(frozen=True, slots=True)
class Lesson:
    """A prepared position under ``rules`` and the steps that reach the lesson's goal."""

    id: str
    title: str
    summary: str
    board: str
    steps: tuple[Step, ...]
    done: str
    rules: Rules = STANDARD

    def start(self) -> Position:
        return Position.from_text(self.board, self.rules, partial=True)

    def step(self, number: int) -> Step | None:
        """Step ``number`` (from 0), or None once the lesson is done."""
        return self.steps[number] if number < len(self.steps) else None

    def text(self, number: int) -> str:
        """What the player reads at step ``number``: the step, or the lesson's end."""
        step = self.step(number)
        return self.done if step is None else step.text

    def check(self, position: Position, text: str, number: int) -> Move:
        """The move ``text`` if it does step ``number`` in ``position``.

        Raises :class:`LessonMistakeError` explaining the mistake: the rule's reason for a
        malformed or illegal move, the step's explanation for a legal move it does not ask.
        """
        try:
            move = position.parse_move(text, self.rules)
        except InvalidInputError as error:
            raise LessonMistakeError(str(error)) from None
        step = self.step(number)
        if step is None:
            raise LessonMistakeError("this lesson is done: choose another lesson or start a game")
        if not step.matches(move, position):
            raise LessonMistakeError(f"That move is legal, but not what this step asks. {step.why}")
        return move


LESSONS: Final[tuple[Lesson, ...]] = (
    Lesson(
        id="tableau",
        title="The tableau",
        summary="Build columns down, one rank lower in the other colour; any card fills an empty column.",
        board="""
            : KS QH
            : 8S 4C
            : JC
            : 7H
            : TD
        """,
        steps=(
            Step(
                "In a column, a card goes on a card one rank higher of the other colour. "
                "Move the J♣ from column 3 onto the Q♥ in column 1.",
                "JC", "1",
                "This step builds column 1: the black J♣ goes on the red Q♥.",
            ),
            Step(
                "Now move the 10♦ from column 5 onto the J♣: a red ten on a black jack.",
                "TD", "1",
                "Put the 10♦ on the J♣ in column 1 to keep building it down.",
            ),
            Step(
                "The 7♥ needs a black eight. The 8♠ in column 2 lies under the 4♣. An empty "
                "column takes any card: move the 4♣ into an empty column.",
                "4C", "empty",
                "Uncover the 8♠ first: the 4♣ goes into an empty column.",
            ),
            Step(
                "The 8♠ is exposed. Move the 7♥ from column 4 onto it.",
                "7H", "2",
                "The 7♥ goes on the 8♠ in column 2: red on black, one rank lower.",
            ),
        ),
        done="Done: column 1 runs K♠ Q♥ J♣ 10♦ and column 2 runs 8♠ 7♥, each built down in alternate colours.",
    ),
    Lesson(
        id="free-cells",
        title="Free cells",
        summary="A free cell holds any one card for a while; empty it again soon.",
        board="""
            Freecells: - - - -
            : 9C 4H
            : TH
            : 5S 8D
            : KC
            : KD
            : KH
            : KS
            : JD
        """,
        steps=(
            Step(
                "The 9♣ in column 1 could go on the 10♥, but the 4♥ lies on it and no black five "
                "is free to take the 4♥. Put the 4♥ in a free cell: a cell holds any one card.",
                "4H", "cell",
                "Free the 9♣ first: put the 4♥ in a free cell.",
            ),
            Step(
                "The 9♣ is exposed: move it onto the 10♥ in column 2.",
                "9C", "2",
                "Move the 9♣ onto the 10♥: a black nine on a red ten.",
            ),
            Step(
                "The 8♦ can follow: move it from column 3 onto the 9♣.",
                "8D", "2",
                "Move the 8♦ onto the 9♣ in column 2, which uncovers the 5♠.",
            ),
            Step(
                "A cell is for a short stay. Bring the 4♥ back from its cell onto the 5♠ in column 3.",
                "4H", "3",
                "Empty the cell again: the 4♥ goes on the 5♠ in column 3.",
            ),
        ),
        done="Done: the cell is empty again. Keep cells free: they are your room to move.",
    ),
    Lesson(
        id="foundations",
        title="Foundations",
        summary="Each suit goes home from its ace up to its king; a card goes home once the one below it is there.",
        board="""
            : 2C AH
            : AC
            : 2H 3C
        """,
        steps=(
            Step(
                "Aces start the foundations. Send the A♥ in column 1 home (type 1h, or double-click it).",
                "AH", "h",
                "Start with the A♥: it is exposed in column 1 and may go home now.",
            ),
            Step(
                "Send the A♣ in column 2 home too.",
                "AC", "h",
                "The A♣ is exposed in column 2: send it home.",
            ),
            Step(
                "The 2♣ is exposed now, and the A♣ is home: send the 2♣ home on it.",
                "2C", "h",
                "A card goes home when the card one rank lower of its suit is there: send the 2♣ home.",
            ),
            Step(
                "The 3♣ follows the 2♣: send it home.",
                "3C", "h",
                "The 3♣ may go home now, on the 2♣.",
            ),
            Step(
                "Last, send the 2♥ home on the A♥.",
                "2H", "h",
                "Only the 2♥ is left: send it home.",
            ),
        ),
        done="Done: every card is home. A full game is won the same way, each suit from ace to king.",
    ),
    Lesson(
        id="runs",
        title="Moving a run",
        summary="An ordered run moves as one if it fits the capacity: (empty cells + 1) cards, "
        "doubled for each empty column.",
        board="""
            Freecells: KD JD - -
            : 9D 8S 7H 6C
            : TC
            : AS
            : KH
            : KS
            : KC
            : 2H
            : 3D
        """,
        steps=(
            Step(
                "The run 9♦ 8♠ 7♥ 6♣ in column 1 would fit on the 10♣ in column 2, but it is four cards. "
                "With 2 empty cells and no empty column you may move 2 + 1 = 3 cards: try it, "
                "and the move is refused. Make room first: send the A♠ in column 3 home, which empties "
                "column 3.",
                "AS", "h",
                "Empty column 3 first by sending the A♠ home: an empty column doubles the capacity.",
            ),
            Step(
                "Column 3 is empty, so the capacity is now (2 + 1) × 2 = 6 cards. Move the four "
                "cards 9♦ 8♠ 7♥ 6♣ onto the 10♣ in column 2.",
                "9D", "2",
                "Move the whole run from the 9♦ onto the 10♣ in column 2.",
            ),
            Step(
                "A king fills an empty column well. Move the K♦ from its cell into an empty column.",
                "KD", "empty",
                "Put the K♦ from its cell into an empty column: that frees a cell.",
            ),
            Step(
                "Now 3 cells are empty and one column. Into an empty column, that column is the "
                "target and gives no room: the capacity is 3 + 1 = 4, so the five cards from "
                "the 10♣ are too many (try it). Move the four cards from the 9♦ into the empty column.",
                "9D", "empty",
                "Move the four cards from the 9♦ into the empty column.",
            ),
        ),
        done="Done: a run moves as one when it fits (empty cells + 1) cards, doubled for each empty column; "
        "an empty target column does not count.",
    ),
    Lesson(
        id="take-back",
        title="Taking a card back",
        summary="In Cardems (and FreeCell with take-backs, the phone app) the top card of a foundation "
        "may come back into play.",
        board="""
            Foundations: H-0 C-0 D-0 S-6
            Freecells: KC KD KH KS
            : 7H
            : 8C 5H
            : QC
            : QD
            : QH
            : QS
            : JC
            : JD
        """,
        steps=(
            Step(
                "The 5♥ in column 2 needs a black six, and the only one, the 6♠, is on its foundation. "
                "Under these rules a foundation card may come back: move the 6♠ onto the 7♥ in column 1 "
                "(type hs1). In Cardems it costs 15 points, and the score never goes below zero.",
                "6S", "1",
                "Bring the 6♠ back from its foundation onto the 7♥ in column 1.",
            ),
            Step(
                "Now move the 5♥ from column 2 onto the 6♠.",
                "5H", "1",
                "Move the 5♥ onto the 6♠ in column 1.",
            ),
        ),
        done="Done: column 1 runs 7♥ 6♠ 5♥. In standard FreeCell the foundations are one-way; "
        "take-backs belong to the presets that allow them.",
        rules=PRESETS["cardems"],
    ),
)


def find_lesson(lesson_id: str) -> Lesson:
    """The lesson called ``lesson_id``; raises :class:`UnknownLessonError` naming the choices."""
    for lesson in LESSONS:
        if lesson.id == lesson_id:
            return lesson
    choices = ", ".join(lesson.id for lesson in LESSONS)
    raise UnknownLessonError(f"no lesson is called {lesson_id!r}; choose one of {choices}")
