"""The game's API in plain Python: what every endpoint of ``docs/api.md`` does, and a
dispatcher, :meth:`Service.handle`, that answers a request as the server would.

The FastAPI app (:mod:`freecell.web.app`) routes each endpoint to these methods; the
browser's worker (the static site, under Pyodide, with no FastAPI or pydantic) calls
:meth:`Service.handle`. Both answer with the same status codes and the same JSON: the
errors are mapped by one table, :data:`ERRORS`, and the bodies come from
:mod:`freecell.web.states`. Only the checking of a request's shape (the 422s) is done
twice, by pydantic in the server and by :func:`fields` here, with pydantic's sentences.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable
from typing import Any, Final
from urllib.parse import parse_qsl, unquote

from freecell.game import NothingToUndoError
from freecell.lessons import LESSONS, UnknownLessonError
from freecell.notation import CELL_CHARS, COLUMN_CHARS, SUIT_CHARS, place_char
from freecell.position import Place
from freecell.rules import PRESETS, find_rules
from freecell.store import Store, StoreError, StoreLostError
from freecell.web.analysis import AnalysisBusyError, Answered
from freecell.web.assistance import Assistance, Snapshot
from freecell.web.games import GameNotFoundError, Games
from freecell.web.session import GameOverError, NotTriviallyWonError, Session
from freecell.web.states import Json, capacity_detail, game_state, rules_entry

# The status of each refusal, first match wins (ValueError last: the rules' refusals).
# A store that cannot keep a change is a 503, never a 500: nothing was saved, play goes on.
STORAGE_FAILURES: Final = (StoreError, sqlite3.Error, OSError)
ERRORS: Final[tuple[tuple[type[Exception], int], ...]] = (
    (GameNotFoundError, 404),
    (UnknownLessonError, 404),
    (NothingToUndoError, 409),
    (GameOverError, 409),
    (NotTriviallyWonError, 409),
    (AnalysisBusyError, 503),
    *((failure, 503) for failure in STORAGE_FAILURES),
    (ValueError, 400),
)
ACTIONS: Final = ("undo", "redo", "restart", "pause", "resume")
STATS_FILE: Final = "freecell-stats"


def error_status(error: Exception) -> int | None:
    """The status that answers ``error``, or None for an error that is a bug."""
    return next((status for kind, status in ERRORS if isinstance(error, kind)), None)


def error_detail(error: Exception) -> str:
    """The sentence for the player (a ``KeyError``'s message without its quotes)."""
    if isinstance(error, StoreLostError):
        return f"{error}: restart freecell play"
    if isinstance(error, STORAGE_FAILURES):
        return f"the game store failed ({error}); nothing was saved: free some disk space and try again"
    return str(error.args[0] if isinstance(error, KeyError) and error.args else error)


class Service:
    """The games in ``store``, with hints and verdicts from ``assistance``."""

    def __init__(self, store: Store, assistance: Assistance, *, now: Callable[[], float] = time.time) -> None:
        self.store = store
        self.games = Games(store, now)
        self.assistance = assistance
        self._routes = self._route_table()

    # --- the endpoints ------------------------------------------------------------------

    def rules(self) -> list[Json]:
        return [rules_entry(rules) for rules in PRESETS.values()]

    def state(self, game_id: str, *, played: bool = True) -> Json:
        games = self.games
        return games.view(game_id, lambda session: game_state(session, games.now(), played=played))

    def new_game(
        self, *, rules: str = "standard", cells: int | None = None, deal: int | None = None, code: str | None = None,
        random: bool = False, board: str | None = None, winnable: bool = False, moves: list[str] | None = None,
        auto_home: bool = False,
    ) -> Json:
        difficulty = None
        if winnable:
            if deal is not None or code is not None or board is not None:
                raise ValueError("a winnable deal is a random deal: name no deal, code or board with it")
            code, difficulty = self.assistance.winnable_code(find_rules(rules, cells=cells))
        session = self.games.create(
            rules=rules, cells=cells, deal=deal, code=code, random=random and not winnable,
            board=board, difficulty=difficulty, moves=moves, auto_home=auto_home,
        )
        return self.state(session.id)

    def move(self, game_id: str, move: str) -> Json:
        return self.state(self.games.act(game_id, "move", move).id)

    def act(self, game_id: str, kind: str) -> Json:
        """One of :data:`ACTIONS`."""
        return self.state(self.games.act(game_id, kind).id)

    def options(self, game_id: str, *, auto_home: bool) -> Json:
        """Safe cards sent home by themselves after each move, or not."""
        return self.state(self.games.act(game_id, "auto-on" if auto_home else "auto-off").id)

    def finish(self, game_id: str) -> Json:
        return self.state(self.games.finish(game_id).id)

    def destinations(self, game_id: str, source: str, count: int = 1) -> Json:
        def answer(session: Session) -> Json:
            game = session.game
            place = _source(source, game.position.columns, game.position.cells)
            targets = [place_char(target) for target in game.destinations(place, count)]
            return {"targets": list(dict.fromkeys(targets))}

        return self.games.view(game_id, answer)

    def snapshot(self, game_id: str) -> Snapshot:
        """What the solver's answers need of the game now (the games' lock is held only to
        take it, so that no move waits while a request waits for the solver)."""
        return self.games.view(game_id, Snapshot.of)

    def ask(self, game_id: str) -> tuple[Snapshot, Answered | None]:
        """A snapshot, and the solver asked about its position: what to wait for, if anything."""
        taken = self.snapshot(game_id)
        return taken, self.assistance.ask(taken)

    def hint(self, game_id: str) -> Json:
        """The hint without waiting for the solver (the server's handler waits up to
        ``assistance.hint_wait`` between :meth:`ask` and :meth:`hint_from`)."""
        taken, _ = self.ask(game_id)
        return self.hint_from(taken)

    def hint_from(self, taken: Snapshot) -> Json:
        """The hint for the snapshot's position; a hint that names a move is counted in the game."""
        answer = self.assistance.hint(taken)
        if answer["move"] is not None:
            self.games.note(taken.game_id, "hint")
        return answer

    def analysis(self, game_id: str, *, line: bool = False) -> Json:
        """The live verdict; a winning line shown marks the game assisted."""
        answer = self.assistance.state(self.snapshot(game_id), with_line=line)
        if answer["line"]:
            self.games.note(game_id, "assist")
        return answer

    def rewind(self, game_id: str) -> Json:
        losing = self.assistance.losing_move(self.snapshot(game_id))
        if losing is None:
            raise NothingToUndoError("no move that lost a winnable game is known here")
        for _ in range(losing["moves_back"]):
            self.games.act(game_id, "undo")
        return self.state(game_id)

    def capacity(self, game_id: str, empty_cells: int | None = None, empty_columns: int | None = None) -> Json:
        rules, position = self.games.view(game_id, lambda session: (session.game.rules, session.game.position))
        cells = position.empty_cells if empty_cells is None else empty_cells
        columns = position.empty_columns if empty_columns is None else empty_columns
        if cells > rules.cells:
            raise ValueError(f"{rules.title} has {rules.cells} free cells, so at most {rules.cells} can be empty")
        if columns > rules.columns:
            raise ValueError(f"{rules.title} has {rules.columns} columns, so at most {rules.columns} can be empty")
        return capacity_detail(rules, cells, columns)

    def current(self) -> Json:
        """The game a reloaded page continues: ``{"id": None}`` before the first game."""
        return {"id": self.games.current()}

    def stats(self) -> list[Json]:
        return [
            {field: getattr(row, field) for field in row.__dataclass_fields__} for row in self.store.stats()
        ]

    def stats_csv(self) -> str:
        return self.store.export_csv()

    def lessons(self) -> list[Json]:
        return [
            {"id": one.id, "title": one.title, "summary": one.summary, "steps": len(one.steps)} for one in LESSONS
        ]

    def start_lesson(self, lesson_id: str) -> Json:
        return self.state(self.games.create_lesson(lesson_id).id)

    # --- the dispatcher -----------------------------------------------------------------

    def handle(self, method: str, path: str, query: str = "", body: object = None) -> tuple[int, Any]:
        """Answer one request as the server does: ``(status, JSON value)``; the CSV export
        is a string. ``query`` is the URL's query string; ``body`` the parsed JSON body."""
        path = path.split("?", 1)[0]
        params = dict(parse_qsl(query, keep_blank_values=True))
        allowed = []
        for verb, pattern, endpoint in self._routes:
            found = pattern.fullmatch(path)
            if found is None:
                continue
            if verb != method.upper():
                allowed.append(verb)
                continue
            try:
                return endpoint(*(unquote(part) for part in found.groups()), params=params, body=body)
            except ShapeError as error:
                return 422, {"detail": str(error)}
            except Exception as error:
                status = error_status(error)
                if status is None:
                    raise
                return status, {"detail": error_detail(error)}
        if allowed:
            return 405, {"detail": "Method Not Allowed"}
        return 404, {"detail": "Not Found"}

    def _route_table(self) -> list[tuple[str, re.Pattern[str], Callable[..., tuple[int, Any]]]]:
        game = r"/api/games/([^/]+)"

        def ok(value: Any, status: int = 200) -> tuple[int, Any]:
            return status, value

        def action(kind: str) -> Callable[..., tuple[int, Any]]:
            return lambda game_id, **_: ok(self.act(game_id, kind))

        routes: list[tuple[str, str, Callable[..., tuple[int, Any]]]] = [
            ("GET", "/api/rules", lambda **_: ok(self.rules())),
            ("POST", "/api/games", lambda body, **_: ok(self.new_game(**fields(body, NEW_GAME)), 201)),
            ("GET", game, lambda game_id, **_: ok(self.state(game_id, played=False))),
            ("POST", game + "/moves", lambda game_id, body, **_: ok(self.move(game_id, **fields(body, MOVE)))),
            *(("POST", f"{game}/{kind}", action(kind)) for kind in ACTIONS),
            ("POST", game + "/options", lambda game_id, body, **_: ok(self.options(game_id, **fields(body, OPTIONS)))),
            ("POST", game + "/finish", lambda game_id, **_: ok(self.finish(game_id))),
            ("GET", game + "/destinations",
             lambda game_id, params, **_: ok(self.destinations(game_id, **fields(params, DESTINATIONS, query=True)))),
            ("GET", game + "/hint", lambda game_id, **_: ok(self.hint(game_id))),
            ("GET", game + "/analysis",
             lambda game_id, params, **_: ok(self.analysis(game_id, **fields(params, ANALYSIS, query=True)))),
            ("POST", game + "/rewind", lambda game_id, **_: ok(self.rewind(game_id))),
            ("GET", game + "/capacity",
             lambda game_id, params, **_: ok(self.capacity(game_id, **fields(params, CAPACITY, query=True)))),
            ("GET", "/api/current", lambda **_: ok(self.current())),
            ("GET", "/api/stats", lambda **_: ok(self.stats())),
            ("GET", "/api/stats.json", lambda **_: ok(self.stats())),
            ("GET", "/api/stats.csv", lambda **_: ok(self.stats_csv())),
            ("GET", "/api/lessons", lambda **_: ok(self.lessons())),
            ("POST", "/api/lessons/([^/]+)", lambda lesson_id, **_: ok(self.start_lesson(lesson_id), 201)),
        ]
        return [(verb, re.compile(pattern), endpoint) for verb, pattern, endpoint in routes]


# --- the shape of a request, checked as pydantic checks it in the server ------------------


class ShapeError(Exception):
    """A body or query of the wrong shape (422), in pydantic's words."""


# name: (type, required, default, bounds): a str's bounds are (None, max length); an
# int's, (least, most); a list's (of strings), (None, most items). The body models are
# strict (no "3" for 3); a query is not.
Spec = dict[str, tuple[type, bool, object, tuple[int | None, int | None]]]
NEW_GAME: Final[Spec] = {
    "rules": (str, False, "standard", (None, 64)),
    "cells": (int, False, None, (None, None)),
    "deal": (int, False, None, (None, None)),
    "code": (str, False, None, (None, 64)),
    "random": (bool, False, False, (None, None)),
    "board": (str, False, None, (None, 20_000)),
    "winnable": (bool, False, False, (None, None)),
    "moves": (list, False, None, (None, 2000)),
    "auto_home": (bool, False, False, (None, None)),
}
OPTIONS: Final[Spec] = {"auto_home": (bool, True, None, (None, None))}
MOVE: Final[Spec] = {"move": (str, True, None, (None, 32))}
DESTINATIONS: Final[Spec] = {"source": (str, True, None, (None, 3)), "count": (int, False, 1, (1, 104))}
ANALYSIS: Final[Spec] = {"line": (bool, False, False, (None, None))}
CAPACITY: Final[Spec] = {
    "empty_cells": (int, False, None, (0, 16)),
    "empty_columns": (int, False, None, (0, 16)),
}
_TYPE_NAMES: Final = {str: "string", int: "integer", bool: "boolean", list: "list"}
_TRUE: Final = ("1", "true", "t", "yes", "y", "on")
_FALSE: Final = ("0", "false", "f", "no", "n", "off")


def fields(given: object, spec: Spec, *, query: bool = False) -> dict[str, Any]:
    """The values of ``spec`` in ``given`` (a JSON body, or a query's strings when
    ``query``), or :class:`ShapeError` naming every field that is wrong."""
    if given is None and not query:
        raise ShapeError("Field required")
    if not isinstance(given, dict):
        raise ShapeError("Input should be a valid dictionary or object to extract fields from")
    values: dict[str, Any] = {}
    wrong: list[str] = []
    for name, (kind, required, default, (least, most)) in spec.items():
        if name not in given:
            if required:
                wrong.append(f"{name}: Field required")
            values[name] = default
            continue
        value = given[name]
        problem = None
        if value is None and not required and default is None:
            values[name] = None
            continue
        if query:
            value, problem = _from_text(value, kind)
        elif kind is list:  # a list of strings
            if not isinstance(value, list):
                problem = "Input should be a valid list"
            else:
                wrong += [f"{name}.{i}: Input should be a valid string" for i, item in enumerate(value)
                          if not isinstance(item, str)]
                if most is not None and len(value) > most:
                    problem = f"List should have at most {most} items after validation, not {len(value)}"
        elif kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            problem = "Input should be a valid integer"
        elif kind is not int and not isinstance(value, kind):
            problem = f"Input should be a valid {_TYPE_NAMES[kind]}"
        if problem is None and kind is str and most is not None and len(value) > most:
            problem = f"String should have at most {most} character{'s' if most != 1 else ''}"
        if problem is None and kind is int and least is not None and value < least:
            problem = f"Input should be greater than or equal to {least}"
        if problem is None and kind is int and most is not None and value > most:
            problem = f"Input should be less than or equal to {most}"
        if problem is not None:
            wrong.append(f"{name}: {problem}")
        values[name] = value
    if wrong:
        raise ShapeError("; ".join(wrong))
    return values


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


def _source(text: str, columns: tuple[object, ...], cells: tuple[object, ...]) -> Place:
    """A destinations query's source; raises ``ValueError`` naming a place that is not there."""
    text = text.strip().lower()
    if len(text) == 1 and text in COLUMN_CHARS and COLUMN_CHARS.index(text) < len(columns):
        return Place.column(COLUMN_CHARS.index(text))
    if len(text) == 1 and text in CELL_CHARS and CELL_CHARS.index(text) < len(cells):
        return Place.cell(CELL_CHARS.index(text))
    if len(text) == 2 and text[0] == "h" and text[1] in SUIT_CHARS:
        return Place.foundation(SUIT_CHARS.index(text[1]))
    raise ValueError(f"there is no place {text!r} on this table (a column digit, a cell letter, or h and a suit)")
