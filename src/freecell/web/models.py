"""The JSON bodies of the API (see ``docs/api.md``) as pydantic models: the server checks
requests with them and describes the API for OpenAPI; the values are made in
:mod:`freecell.web.states`."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


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


class RulesEntry(RulesInfo):
    text: str = Field(description="the rules panel for the preset; paragraphs separated by a blank line")
    help: str = Field(description="our own help, the same on every preset")


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


class PlaceInfo(BaseModel):
    source: str = Field(description="the place's letters as a move's source in standard notation")
    target: str = Field(description="the place's letter as a move's target (every foundation: h)")
    name: str = Field(description="the place's name for the player, like 'column 3' or 'hearts foundation'")


class Places(BaseModel):
    columns: list[PlaceInfo]
    cells: list[PlaceInfo]
    foundations: list[PlaceInfo] = Field(description="one per pile, in the order of the state's foundations")


class MovePlaces(BaseModel):
    source: str
    target: str


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
    places: Places = Field(description="each place's letters in standard notation and its name")
    last_places: list[MovePlaces] = Field(
        default_factory=list, description="the source and target letters of each move of `last`"
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
SEARCHING = "the verdict is unknown and a longer search is under way: ask again for the verdict it finds"


class Hint(BaseModel):
    move: str | None
    source: str | None = None
    target: str | None = None
    count: int | None = Field(None, description="how many cards the move carries (the page lights them all)")
    text: str
    verdict: Verdict | None = Field(None, description="what the solver knows of the position")
    pending: bool = Field(False, description="the solver is still thinking: ask again shortly")
    searching: bool = Field(False, description=SEARCHING)


class LosingMove(BaseModel):
    move: str = Field(description="the move that lost a game that could be won")
    moves_back: int = Field(description="how many actions to undo to be back where it was played")
    text: str


class AnalysisState(BaseModel):
    verdict: Verdict | Literal["pending"]
    line: list[str] | None = Field(None, description="a winning line from here, when asked for and winnable")
    losing_move: LosingMove | None = None
    searching: bool = Field(False, description=SEARCHING)


class CurrentGame(BaseModel):
    id: str | None = Field(description="the game a reloaded page continues; null when none was started")


class LessonInfo(BaseModel):
    id: str
    title: str
    summary: str
    steps: int

