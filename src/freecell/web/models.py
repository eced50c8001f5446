"""The JSON bodies of the API (see ``docs/api.md``) as pydantic models, for the server:
the answers' models describe the API for OpenAPI (the values are made in
:mod:`freecell.web.states`), and the requests' models, made from the fields of
:data:`freecell.web.api.ENDPOINTS` by :func:`request_model`, check what comes in."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from freecell.store import DailyStats as DailyStats
from freecell.store import PresetStats as PresetStats
from freecell.web import api


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
    daily: str | None = Field(None, description="the day (YYYY-MM-DD) of a daily deal's game")
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


def field_type(field: api.Field) -> Any:
    """The Python type of ``field`` (null allowed when its default is None)."""
    kind: Any = list[str] if field.kind is list else field.kind
    return kind | None if field.nullable else kind


def field_bounds(field: api.Field) -> dict[str, Any]:
    """The bounds of ``field`` as pydantic's ``Field`` and FastAPI's ``Query`` take them."""
    if field.kind is int:
        return {"ge": field.least, "le": field.most}
    return {"max_length": field.most}


def request_model(name: str, fields: tuple[api.Field, ...]) -> type[BaseModel]:
    """A strict model (no ``"3"`` for 3) of a body of ``fields``, called ``name``."""
    definitions: dict[str, Any] = {
        field.name: (
            field_type(field),
            Field(
                ... if field.required else field.default, description=field.description,
                examples=list(field.examples) or None, **field_bounds(field),
            ),
        )
        for field in fields
    }
    model: type[BaseModel] = create_model(name, __config__=ConfigDict(strict=True), **definitions)
    return model


class Destinations(BaseModel):
    targets: list[str]


VerdictWord = Literal["winnable", "not-winnable", "unknown"]  # freecell.web.assistance.VERDICT_WORDS
SEARCHING = "the verdict is unknown and a longer search is under way: ask again for the verdict it finds"


class Hint(BaseModel):
    move: str | None
    source: str | None = None
    target: str | None = None
    count: int | None = Field(None, description="how many cards the move carries (the page lights them all)")
    text: str
    verdict: VerdictWord | None = Field(None, description="what the solver knows of the position")
    pending: bool = Field(False, description="the solver is still thinking: ask again shortly")
    searching: bool = Field(False, description=SEARCHING)


class LosingMove(BaseModel):
    move: str = Field(description="the move that lost a game that could be won")
    moves_back: int = Field(description="how many actions to undo to be back where it was played")
    text: str


class AnalysisState(BaseModel):
    verdict: VerdictWord | Literal["pending"]
    line: list[str] | None = Field(None, description="a winning line from here, when asked for and winnable")
    losing_move: LosingMove | None = None
    searching: bool = Field(False, description=SEARCHING)


class Sharing(BaseModel):
    mode: Literal["page", "site", "network", "code"] = Field(
        description="page: the page's own address opens anywhere; site: a published static site; "
        "network: this server, which also needs its token; code: only this machine reaches it"
    )
    address: str | None = Field(description="the folder a shared link opens (site and network), else null")


class CurrentGame(BaseModel):
    id: str | None = Field(description="the game a reloaded page continues; null when none was started")


class LessonInfo(BaseModel):
    id: str
    title: str
    summary: str
    steps: int



class Table(BaseModel):
    """The cards on the table, as in the game's state."""

    columns: list[list[str]]
    cells: list[str | None]
    foundations: list[Foundation]


class ReviewStart(Table):
    verdict: VerdictWord | Literal["pending"]


class ReviewStep(Table):
    """One step of the game, and the table it left."""

    number: int = Field(description="from 1; ``POST /play-on`` takes it")
    kind: Literal["move", "redo", "undo", "restart"]
    move: str | None = Field(description="the move played, in standard notation (none for an undo or a restart)")
    text: str = Field(description="the step in words: ``5♠ to a free cell``, ``Took back 6♣ to a free cell``")
    verdict: VerdictWord | Literal["pending"] = Field(description="what the solver knows of the position it left")
    loses: bool = Field(description="a move from a winnable position to one that is not")
    returns_to: int | None = Field(
        description="the earlier step after which the table was as this step left it (0: the start): a step back"
    )


class GameReview(BaseModel):
    complete: bool = Field(description="every position is judged; until then, ask again")
    outcome: Literal["playing", "won", "lost", "abandoned"]
    deal: str
    start: ReviewStart
    moves_played: int = Field(description="card moves from the start to where the game stands, automatic ones too")
    solution_moves: int | None = Field(description="the length of the solver's solution from the start, if found")
    lost_at: int | None = Field(description="the step that lost the game, when it ended lost from a winnable one")
    steps: list[ReviewStep]


class DailyInfo(BaseModel):
    date: str = Field(description="the day, YYYY-MM-DD")
    rules: str
    title: str
    cells: int
    deal: int = Field(description="the Microsoft deal number (our shuffle's under two decks)")
    code: str
    difficulty: Literal["easy", "medium", "hard"]
    game_id: str | None = Field(description="the day's last game of this deal, if one was started")
    stats: DailyStats = Field(description="the preset's daily statistics, on the day asked")
