"""The JSON bodies of the API (see ``docs/api.md``), and how a session becomes a state."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from freecell.cards import SUIT_LETTERS, card_name
from freecell.notation import SUIT_CHARS, place_char
from freecell.position import Place, PlaceKind, Position
from freecell.rules import Rules, SequenceMoves
from freecell.web.rules_text import HELP_TEXT, RULES_TEXT
from freecell.web.session import Session


class ErrorBody(BaseModel):
    detail: str = Field(description="a sentence a player can read")


class RulesInfo(BaseModel):
    name: str
    title: str
    description: str
    cell_options: list[int]
    cells: int
    columns: int
    decks: int
    building: Literal["alternate-colours", "same-suit"]
    scoring: bool
    takes_back: bool
    show_capacity: bool
    undo_limit: int | None
    single_card_moves: bool
    tap_to_foundation: bool

    @classmethod
    def of(cls, rules: Rules) -> RulesInfo:
        return cls(
            name=rules.name, title=rules.title, description=rules.description,
            cell_options=list(rules.cell_options), cells=rules.cells, columns=rules.columns,
            decks=rules.decks, building=rules.building.value,
            scoring=rules.scoring is not None, takes_back=rules.takes_back,
            show_capacity=rules.show_capacity, undo_limit=rules.undo_limit,
            single_card_moves=rules.sequence_moves is SequenceMoves.SINGLE_CARD_STEPS,
            tap_to_foundation=rules.tap_sends_home,
        )


class RulesEntry(RulesInfo):
    text: str = Field(description="the rules panel for the preset; paragraphs separated by a blank line")
    help: str = Field(description="our own help, the same on every preset")

    @classmethod
    def entry(cls, rules: Rules) -> RulesEntry:
        text = RULES_TEXT.get(rules.name, rules.description)
        return cls(**RulesInfo.of(rules).model_dump(), text=text, help=HELP_TEXT)


class Foundation(BaseModel):
    suit: Literal["C", "D", "H", "S"]
    top: str | None
    height: int


class Capacity(BaseModel):
    empty_cells: int
    empty_columns: int
    to_occupied: int
    to_empty: int


class CapacityDetail(Capacity):
    formula_occupied: str
    formula_empty: str


class LessonState(BaseModel):
    id: str
    title: str
    step: int = Field(description="the step to do, from 1 (the last step's number once done)")
    steps: int
    text: str
    done: bool


class GameState(BaseModel):
    id: str
    rules: RulesInfo
    code: str | None
    deal: str
    columns: list[list[str]]
    cells: list[str | None]
    foundations: list[Foundation]
    moves: int
    score: int | None
    can_undo: bool
    can_redo: bool
    outcome: Literal["playing", "won", "lost"]
    can_finish: bool
    capacity: Capacity
    elapsed_seconds: float
    paused: bool
    last: list[str]
    lesson: LessonState | None
    abandoned: bool = Field(description="true once a new deal has replaced this game")
    difficulty: Literal["easy", "medium", "hard"] | None = Field(
        None, description="the grade of a deal dealt as winnable only"
    )
    played: list[str] = Field(
        default_factory=list, description="every move from the start, automatic ones included (for a shared link)"
    )
    hints: int = Field(0, description="hints shown in this game")
    assisted: bool = Field(
        False, description="the solver's winning line was shown: the game does not count towards wins"
    )
    auto_home: bool = Field(False, description="safe cards go home by themselves")


class NewGame(BaseModel):
    model_config = ConfigDict(strict=True)

    rules: str = Field("standard", max_length=64)
    cells: int | None = None
    deal: int | None = None
    code: str | None = Field(None, max_length=64)
    random: bool = False
    board: str | None = Field(None, max_length=20_000)
    winnable: bool = Field(False, description="deal only a random deal that the solver has won")
    moves: list[str] | None = Field(
        None, max_length=2000, description="moves in standard notation played from the start (a shared link's)"
    )
    auto_home: bool = Field(False, description="send safe cards home by themselves")


class GameOptions(BaseModel):
    model_config = ConfigDict(strict=True)

    auto_home: bool = Field(description="send safe cards home by themselves after each move")


class MoveRequest(BaseModel):
    model_config = ConfigDict(strict=True)

    move: str = Field(max_length=32, examples=["38", "3a", "ah", "38v3"])


class Destinations(BaseModel):
    targets: list[str]


Verdict = Literal["winnable", "not-winnable", "unknown"]


class Hint(BaseModel):
    move: str | None
    source: str | None = None
    target: str | None = None
    count: int | None = Field(None, description="how many cards the move carries (the page lights them all)")
    text: str
    verdict: Verdict | None = Field(None, description="what the solver knows of the position")
    pending: bool = Field(False, description="the solver is still thinking: ask again shortly")


class LosingMove(BaseModel):
    move: str = Field(description="the move that lost a game that could be won")
    moves_back: int = Field(description="how many actions to undo to be back where it was played")
    text: str


class AnalysisState(BaseModel):
    verdict: Verdict | Literal["pending"]
    line: list[str] | None = Field(None, description="a winning line from here, when asked for and winnable")
    losing_move: LosingMove | None = None


class CurrentGame(BaseModel):
    id: str | None = Field(description="the game a reloaded page continues; null when none was started")


class LessonInfo(BaseModel):
    id: str
    title: str
    summary: str
    steps: int


# --- from the library to JSON -------------------------------------------------------------


def source_char(place: Place) -> str:
    """A move's source: as :func:`place_char`, with the suit after ``h`` for a take-back."""
    return place_char(place) + (SUIT_CHARS[place.index] if place.kind is PlaceKind.FOUNDATION else "")


def capacity_detail(rules: Rules, empty_cells: int, empty_columns: int) -> CapacityDetail:
    """The capacity the library computes with that many empty cells and empty columns
    (``to_empty`` is 0 when no column is empty)."""
    columns = tuple(() if i < empty_columns else (0,) for i in range(max(rules.columns, empty_columns)))
    table = Position(columns, (None,) * empty_cells, (0,) * rules.foundation_count)
    occupied = table.capacity(rules, to_empty_column=False)
    empty = table.capacity(rules, to_empty_column=True) if empty_columns else 0
    unlimited = rules.sequence_moves is SequenceMoves.UNLIMITED
    return CapacityDetail(
        empty_cells=empty_cells, empty_columns=empty_columns, to_occupied=occupied, to_empty=empty,
        formula_occupied="unlimited" if unlimited else _formula(empty_cells, occupied),
        formula_empty=(
            "no empty column" if not empty_columns else "unlimited" if unlimited else _formula(empty_cells, empty)
        ),
    )


def _formula(empty_cells: int, value: int) -> str:
    """``(F + 1) × 2^E = value``, with the E that the library counted."""
    power = (value // (empty_cells + 1)).bit_length() - 1
    return f"({empty_cells} + 1) × 2^{power} = {value}"


def game_state(session: Session, now: float, *, played: bool = False) -> GameState:
    """The state of ``session`` at ``now``; ``last`` lists the moves just played only when
    ``played`` (the answer to the request that played them)."""
    game = session.game
    position, rules = game.position, game.rules
    lesson = None
    if session.lesson is not None:
        number = session.lesson_step
        steps = len(session.lesson.steps)
        lesson = LessonState(
            id=session.lesson.id, title=session.lesson.title, step=min(number + 1, steps), steps=steps,
            text=session.lesson.text(number), done=number >= steps,
        )
        deal = f"lesson: {session.lesson.title}"
    else:
        deal = "imported position" if game.deal is None else str(game.deal)
    detail = capacity_detail(rules, position.empty_cells, position.empty_columns)
    return GameState(
        id=session.id,
        rules=RulesInfo.of(rules),
        code=game.code,
        deal=deal,
        columns=[[card_name(card) for card in column] for column in position.columns],
        cells=[None if card is None else card_name(card) for card in position.cells],
        foundations=[
            Foundation(
                suit=SUIT_LETTERS[pile % 4],
                top=None if top is None else card_name(top),
                height=position.foundations[pile],
            )
            for pile in range(len(position.foundations))
            for top in [position.foundation_top(pile)]
        ],
        moves=game.moves_made,
        score=game.score if rules.scoring is not None else None,
        can_undo=game.can_undo and not session.abandoned,
        can_redo=game.can_redo and not session.abandoned,
        outcome=session.outcome().value,
        can_finish=session.finishing_moves() is not None,
        capacity=Capacity(**detail.model_dump(include={"empty_cells", "empty_columns", "to_occupied", "to_empty"})),
        elapsed_seconds=round(session.clock.elapsed(now), 1),
        paused=session.clock.paused,
        last=list(session.last) if played else [],
        lesson=lesson,
        abandoned=session.abandoned,
        difficulty=session.record.difficulty,
        played=list(game.line),
        hints=session.hints,
        assisted=session.assisted,
        auto_home=game.auto_home,
    )
