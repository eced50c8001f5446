"""The game's API, defined once, in plain Python: each endpoint's method and path, the
fields of its body or query, its status, and the refusals it may answer.

:data:`ENDPOINTS` is the one definition. The server (:mod:`freecell.web.app`) makes its
FastAPI routes and its pydantic request models from it; the static site's worker, which
has neither, answers requests with :func:`dispatch`: the same paths, the same checks of a
request's shape (422, in pydantic's words) and the same statuses. ``docs/api.md`` lists
the same endpoints, and ``tests/test_api_definition.py`` holds it to this table. Each
endpoint is answered by the method of the same name of
:class:`~freecell.web.service.Service`.

A refusal is a :class:`~freecell.errors.FreecellError`, whose kind gives the status
(:func:`error_status`); any other exception is a bug, which the server answers with a 500.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qsl, unquote

from freecell.errors import FreecellError, InvalidInputError, NotFoundError, NotPossibleNowError, UnavailableError
from freecell.storage import StoreLostError
from freecell.web.in_play import Answered


class MalformedRequestError(InvalidInputError):
    """A body or query of the wrong shape (422), in pydantic's words."""


# The status of each kind of refusal, the first that fits.
STATUSES: Final[tuple[tuple[type[FreecellError], int], ...]] = (
    (MalformedRequestError, 422),
    (InvalidInputError, 400),
    (NotFoundError, 404),
    (NotPossibleNowError, 409),
    (UnavailableError, 503),
)


def error_status(error: BaseException) -> int | None:
    """The status that answers ``error``, or None for an error that is a bug."""
    return next((status for kind, status in STATUSES if isinstance(error, kind)), None)


def error_detail(error: BaseException) -> str:
    """The sentence for the player."""
    if isinstance(error, StoreLostError):
        return f"{error}: restart freecell play"
    return str(error)


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()


@dataclass(frozen=True, slots=True)
class Field:
    """A field of a request's body or query: its name and type (``str``, ``int``,
    ``bool``, or ``list`` of strings), its default (:data:`REQUIRED` when it must be
    given; None when it may be null), and its bounds: ``least`` and ``most`` for an int,
    ``most`` for a string's length or a list's items."""

    name: str
    kind: type
    default: object = REQUIRED
    least: int | None = None
    most: int | None = None
    description: str | None = None
    examples: tuple[str, ...] = ()

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def nullable(self) -> bool:
        return self.default is None


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One endpoint: ``name`` is the :class:`~freecell.web.service.Service` method that
    answers it, with the path's parameters and the fields of its ``body`` (a JSON object,
    described as the model ``body_model``) or its ``query`` as keywords. ``answer`` names
    the answer's model in :mod:`freecell.web.models` (a list of them with ``listed``; None
    for a text answer of ``media_type``). ``refusals`` are the statuses it may answer
    beside those of every endpoint (:data:`COMMON_REFUSALS`). ``download`` is the file
    name a browser saves the answer as. ``blocking``: the answer may take long (a solve,
    a whole table read), so the server makes it in a thread, not in its event loop."""

    name: str
    method: str
    path: str
    summary: str
    answer: str | None = "GameState"
    listed: bool = False
    status: int = 200
    body_model: str | None = None
    body: tuple[Field, ...] = ()
    query: tuple[Field, ...] = ()
    refusals: tuple[int, ...] = ()
    blocking: bool = False
    download: str | None = None
    media_type: str = "application/json"

    @property
    def parameters(self) -> tuple[str, ...]:
        """The names of the path's parameters, in order."""
        return tuple(re.findall(r"{(\w+)}", self.path))


# What every endpoint may answer besides its own refusals: the guard's (401, 403, 415,
# 421: freecell.web.security), a body too large (413), a wrong shape (422), and 503 when
# the solver is busy or the store cannot keep what was asked.
COMMON_REFUSALS: Final = (401, 403, 413, 415, 421, 422, 503)
STATS_FILE: Final = "freecell-stats"

GAME: Final = "/api/games/{game_id}"
NEW_GAME: Final = (
    Field("rules", str, "standard", most=64),
    Field("cells", int, None),
    Field("deal", int, None),
    Field("code", str, None, most=64),
    Field("random", bool, False),
    Field("board", str, None, most=20_000),
    Field("winnable", bool, False, description="deal only a random deal that the solver has won"),
    Field("moves", list, None, most=2000,
          description="moves in standard notation played from the start (a shared link's)"),
    Field("auto_home", bool, False, description="send safe cards home by themselves"),
)

DAILY: Final = (
    Field("rules", str, "standard", most=64, description="the preset (its own number of cells)"),
    Field("date", str, None, most=10, examples=("2026-12-06",),
          description="the player's day, YYYY-MM-DD (default: the server's); open from the day before the UTC "
                      "date to the day after"),
)


def _action(name: str, summary: str) -> Endpoint:
    return Endpoint(name, "POST", f"{GAME}/{name}", summary, refusals=(404, 409))


ENDPOINTS: Final = (
    Endpoint("rules", "GET", "/api/rules", "Every preset, with its rules panel and our help.",
             answer="RulesEntry", listed=True),
    Endpoint("new_game", "POST", "/api/games", "A new game by deal number, game code, random deal or imported board.",
             status=201, body_model="NewGame", body=NEW_GAME, refusals=(400,), blocking=True),
    Endpoint("game", "GET", GAME, "The game's state.", refusals=(404,)),
    Endpoint("move", "POST", f"{GAME}/moves",
             "Play a move in standard notation; 400 with the reason when it is refused.",
             body_model="MoveRequest", body=(Field("move", str, most=32, examples=("38", "3a", "ah", "38v3")),),
             refusals=(400, 404, 409)),
    _action("undo", "Take back the last action; 409 when there is nothing to undo."),
    _action("redo", "Play again the last action undone; 409 when there is nothing to redo."),
    _action("restart", "Back to the start of the same deal."),
    _action("pause", "Stop the clock."),
    _action("resume", "Start the clock again."),
    Endpoint("options", "POST", f"{GAME}/options", "Turn on or off the sending of safe cards home after each move.",
             body_model="GameOptions",
             body=(Field("auto_home", bool, description="send safe cards home by themselves after each move"),),
             refusals=(400, 404, 409)),  # 400: a body that is not even text (FastAPI's)
    Endpoint("finish", "POST", f"{GAME}/finish", "Play the trivially won finish; 409 if the game is not trivially won.",
             refusals=(404, 409)),
    Endpoint("destinations", "GET", f"{GAME}/destinations", "Where ``count`` cards from ``source`` may legally go now.",
             answer="Destinations",
             query=(Field("source", str, most=3, description="a column digit, a cell letter, or hc/hd/hh/hs"),
                    Field("count", int, 1, least=1, most=104)),
             refusals=(400, 404)),
    Endpoint("hint", "GET", f"{GAME}/hint",
             "The next move of a winning line; or that the position is lost; or, while the solver thinks, "
             "``pending`` (ask again). A hint given is counted in the game.",
             answer="Hint", refusals=(404, 503)),
    Endpoint("analysis", "GET", f"{GAME}/analysis",
             "The live verdict: winnable, not-winnable, unknown (the search reached its limit) or pending; with "
             "``line``, a winning line; when lost, the move that lost it. A line shown marks the game assisted.",
             answer="AnalysisState", query=(Field("line", bool, False),), refusals=(404, 503)),
    Endpoint("rewind", "POST", f"{GAME}/rewind",
             "Undo back to the last position that could still be won; 409 when no losing move is known "
             "(ask /analysis first).",
             refusals=(404, 409)),
    Endpoint("review", "GET", f"{GAME}/review",
             "The game's review: each step marked winnable, not-winnable, unknown or pending, the move that lost "
             "it, the steps that went back, and the solver's solution length; ask again until ``complete``.",
             answer="GameReview", refusals=(404, 503), blocking=True),
    Endpoint("play_on", "POST", f"{GAME}/play-on",
             "A new game, marked assisted, from the position where a step of the review left this one.",
             status=201, body_model="PlayOn",
             body=(Field("step", int, least=0, most=100_000,
                         description="the step's number in the review (0: the start)"),),
             refusals=(400, 404), blocking=True),
    Endpoint("capacity", "GET", f"{GAME}/capacity",
             "The move calculator, for the position or for other numbers of empty places.",
             answer="CapacityDetail",
             query=(Field("empty_cells", int, None, least=0, most=16),
                    Field("empty_columns", int, None, least=0, most=16)),
             refusals=(400, 404)),
    Endpoint("sharing", "GET", "/api/sharing",
             "Where Share points: the page's own address, a published site, this server on the network "
             "(with its token), or only the game code to type.", answer="Sharing"),
    Endpoint("current", "GET", "/api/current",
             'The game a reloaded page continues: ``{"id": null}`` before the first game.', answer="CurrentGame"),
    Endpoint("stats", "GET", "/api/stats",
             "Games played, won and lost, streaks, best time and fewest moves, per preset.",
             answer="PresetStats", listed=True, blocking=True),
    Endpoint("stats", "GET", "/api/stats.json", "The statistics as a JSON file to save.",
             answer="PresetStats", listed=True, blocking=True, download=f"{STATS_FILE}.json"),
    Endpoint("stats_csv", "GET", "/api/stats.csv", "The statistics as a CSV file to save.",
             answer=None, blocking=True, download=f"{STATS_FILE}.csv", media_type="text/csv"),
    Endpoint("daily", "GET", "/api/daily",
             "The daily deal of a day and preset (the same for every player), its grade, and the preset's daily "
             "statistics on that day.",
             answer="DailyInfo", query=DAILY, refusals=(400,), blocking=True),
    Endpoint("start_daily", "POST", "/api/daily", "A new game of the daily deal of a day and preset.",
             status=201, body_model="DailyGame",
             body=(*DAILY, Field("auto_home", bool, False, description="send safe cards home by themselves")),
             refusals=(400,), blocking=True),
    Endpoint("lessons", "GET", "/api/lessons", "The guided lessons.", answer="LessonInfo", listed=True),
    Endpoint("start_lesson", "POST", "/api/lessons/{lesson_id}",
             "A game on the lesson's position; its ``lesson`` field says what to do.", status=201, refusals=(404,)),
)


@dataclass(frozen=True, slots=True)
class WorthWaiting:
    """An answer that the solver may better within ``seconds``: the server waits until
    ``answered`` is set or the time is up, then calls ``answer()``; the static site, which
    cannot wait, calls it at once (the page asks again)."""

    answered: Answered
    seconds: float
    answer: Callable[[], Any]


# --- the dispatcher: the API without FastAPI -------------------------------------------

_PATTERNS: Final = tuple(
    (endpoint, re.compile(re.sub(r"{(\w+)}", r"(?P<\1>[^/]+)", endpoint.path))) for endpoint in ENDPOINTS
)


def dispatch(service: object, method: str, path: str, query: str = "", body: object = None) -> tuple[int, Any]:
    """Answer one request as the server does: ``(status, JSON value)``; the CSV export is
    a string. ``query`` is the URL's query string; ``body`` the parsed JSON body. Raises
    what is not a refusal: a bug."""
    path = path.split("?", 1)[0]
    allowed = []
    for endpoint, pattern in _PATTERNS:
        found = pattern.fullmatch(path)
        if found is None:
            continue
        if endpoint.method != method.upper():
            allowed.append(endpoint.method)
            continue
        try:
            arguments = {name: unquote(value) for name, value in found.groupdict().items()}
            arguments |= read_fields(body, endpoint.body) if endpoint.body else {}
            arguments |= read_fields(dict(parse_qsl(query, keep_blank_values=True)), endpoint.query, query=True)
            value = getattr(service, endpoint.name)(**arguments)
            if isinstance(value, WorthWaiting):
                value = value.answer()
            return endpoint.status, value
        except FreecellError as error:
            status = error_status(error)
            if status is None:
                raise
            return status, {"detail": error_detail(error)}
    if allowed:
        return 405, {"detail": "Method Not Allowed"}
    return 404, {"detail": "Not Found"}


# --- the shape of a request, checked as pydantic checks it in the server ------------------

_TYPE_NAMES: Final = {str: "string", int: "integer", bool: "boolean", list: "list"}
_TRUE: Final = ("1", "true", "t", "yes", "y", "on")
_FALSE: Final = ("0", "false", "f", "no", "n", "off")


def read_fields(given: object, fields: tuple[Field, ...], *, query: bool = False) -> dict[str, Any]:
    """The values of ``fields`` in ``given`` (a JSON body, or a query's strings when
    ``query``), or :class:`MalformedRequestError` naming every field that is wrong, in
    pydantic's words. Bodies are strict (no ``"3"`` for 3); a query is not."""
    if given is None and not query:
        raise MalformedRequestError("Field required")
    if not isinstance(given, Mapping):
        raise MalformedRequestError("Input should be a valid dictionary or object to extract fields from")
    values: dict[str, Any] = {}
    wrong: list[str] = []
    for field in fields:
        if field.name not in given:
            if field.required:
                wrong.append(f"{field.name}: Field required")
            else:
                values[field.name] = field.default
            continue
        value = given[field.name]
        if value is None and field.nullable:
            values[field.name] = None
            continue
        value, problems = _checked(field, value, query=query)
        wrong += problems
        values[field.name] = value
    if wrong:
        raise MalformedRequestError("; ".join(wrong))
    return values


def _checked(field: Field, value: Any, *, query: bool) -> tuple[Any, list[str]]:
    """``value`` as ``field`` takes it, and what is wrong with it."""
    name, kind, most = field.name, field.kind, field.most
    problem = None
    if query:
        value, problem = _from_text(value, kind)
    elif kind is list:  # a list of strings
        if not isinstance(value, list):
            return value, [f"{name}: Input should be a valid list"]
        wrong = [
            f"{name}.{i}: Input should be a valid string" for i, item in enumerate(value) if not isinstance(item, str)
        ]
        if most is not None and len(value) > most:
            wrong.append(f"{name}: List should have at most {most} items after validation, not {len(value)}")
        return value, wrong
    elif kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        problem = "Input should be a valid integer"
    elif kind is not int and not isinstance(value, kind):
        problem = f"Input should be a valid {_TYPE_NAMES[kind]}"
    if problem is None and kind is str and most is not None and len(value) > most:
        problem = f"String should have at most {most} character{'s' if most != 1 else ''}"
    if problem is None and kind is int and field.least is not None and value < field.least:
        problem = f"Input should be greater than or equal to {field.least}"
    if problem is None and kind is int and most is not None and value > most:
        problem = f"Input should be less than or equal to {most}"
    return value, [] if problem is None else [f"{name}: {problem}"]


def _from_text(text: Any, kind: type) -> tuple[Any, str | None]:
    if kind is int:
        try:
            return int(text), None
        except ValueError:
            return text, "Input should be a valid integer, unable to parse string as an integer"
    if kind is bool:
        lowered = str(text).lower()
        if lowered in _TRUE or lowered in _FALSE:
            return lowered in _TRUE, None
        return text, "Input should be a valid boolean, unable to interpret input"
    return text, None
