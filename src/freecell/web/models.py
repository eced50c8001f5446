"""The JSON bodies of the API (see ``docs/api.md``), and how a session becomes a state."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from freecell.rules import Rules
from freecell.web import states
from freecell.web.session import Session
from freecell.web.states import source_char as source_char  # re-exported


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
        return cls(**states.rules_info(rules))


class RulesEntry(RulesInfo):
    text: str = Field(description="the rules panel for the preset; paragraphs separated by a blank line")
    help: str = Field(description="our own help, the same on every preset")

    @classmethod
    def entry(cls, rules: Rules) -> RulesEntry:
        return cls(**states.rules_entry(rules))


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


class NewGame(BaseModel):
    model_config = ConfigDict(strict=True)

    rules: str = Field("standard", max_length=64)
    cells: int | None = None
    deal: int | None = None
    code: str | None = Field(None, max_length=64)
    random: bool = False
    board: str | None = Field(None, max_length=20_000)
    winnable: bool = Field(False, description="deal only a random deal that the solver has won")


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
    id: str


class LessonInfo(BaseModel):
    id: str
    title: str
    summary: str
    steps: int


# --- from the library to JSON (the values are made in freecell.web.states) ----------------


def capacity_detail(rules: Rules, empty_cells: int, empty_columns: int) -> CapacityDetail:
    """:func:`freecell.web.states.capacity_detail` as its model."""
    return CapacityDetail(**states.capacity_detail(rules, empty_cells, empty_columns))


def game_state(session: Session, now: float, *, played: bool = False) -> GameState:
    """:func:`freecell.web.states.game_state` as its model."""
    return GameState.model_validate(states.game_state(session, now, played=played))
