"""The game's API in plain Python: what every endpoint of :data:`~freecell.web.api.ENDPOINTS`
does, in the :class:`Service` method of the endpoint's name, and :meth:`Service.handle`,
which answers a request as the server would.

The FastAPI app (:mod:`freecell.web.app`) routes each endpoint to these methods; the
browser's worker (the static site, under Pyodide, with no FastAPI or pydantic) calls
:meth:`Service.handle`. Both answer with the same status codes and the same JSON: the
routes, the checks of a request's shape and the statuses of the refusals come from one
definition (:mod:`freecell.web.api`), and the bodies from :mod:`freecell.web.states`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from freecell.daily import open_day
from freecell.errors import InvalidInputError
from freecell.game import NothingToUndoError
from freecell.lessons import LESSONS
from freecell.notation import parse_place, place_char
from freecell.rules import PRESETS, find_rules
from freecell.store import Store
from freecell.web.api import WorthWaiting, dispatch
from freecell.web.assistance import Assistance, Snapshot
from freecell.web.games import Games, storing
from freecell.web.in_play import Answered
from freecell.web.reviewing import ReviewSource, position_at, review_state
from freecell.web.session import Session
from freecell.web.share_target import CODE, ShareTarget
from freecell.web.states import Json, capacity_detail, daily_info, game_state, rules_entry


class Service:
    """The games in ``store``, with hints and verdicts from ``assistance``; :meth:`close`
    ends the one and closes the other. ``away_after``: see :class:`~freecell.web.games.Games`."""

    def __init__(
        self, store: Store, assistance: Assistance, *, now: Callable[[], float] = time.time,
        share: ShareTarget = CODE, away_after: float | None = None,
    ) -> None:
        self.store = store
        self.games = Games(store, now, away_after=away_after)
        self.assistance = assistance
        self.share = share

    # --- the endpoints (freecell.web.api.ENDPOINTS) ---------------------------------------

    def rules(self) -> list[Json]:
        return [rules_entry(rules) for rules in PRESETS.values()]

    def game(self, game_id: str) -> Json:
        """The state, without the moves the last request played."""
        return self._state(game_id, played=False)

    def _state(self, game_id: str, *, played: bool = True) -> Json:
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
                raise InvalidInputError("a winnable deal is a random deal: name no deal, code or board with it")
            code, difficulty = self.assistance.winnable_code(find_rules(rules, cells=cells))
        session = self.games.create(
            rules=rules, cells=cells, deal=deal, code=code, random=random and not winnable,
            board=board, difficulty=difficulty, moves=moves, auto_home=auto_home,
        )
        return self._state(session.id)

    def move(self, game_id: str, move: str) -> Json:
        return self._act(game_id, "move", move)

    def undo(self, game_id: str) -> Json:
        return self._act(game_id, "undo")

    def redo(self, game_id: str) -> Json:
        return self._act(game_id, "redo")

    def restart(self, game_id: str) -> Json:
        return self._act(game_id, "restart")

    def pause(self, game_id: str) -> Json:
        return self._act(game_id, "pause")

    def resume(self, game_id: str) -> Json:
        return self._act(game_id, "resume")

    def _act(self, game_id: str, kind: str, move: str | None = None) -> Json:
        return self._state(self.games.act(game_id, kind, move).id)

    def options(self, game_id: str, *, auto_home: bool) -> Json:
        """Safe cards sent home by themselves after each move, or not."""
        return self._act(game_id, "auto-on" if auto_home else "auto-off")

    def finish(self, game_id: str) -> Json:
        return self._state(self.games.finish(game_id).id)

    def destinations(self, game_id: str, source: str, count: int = 1) -> Json:
        def answer(session: Session) -> Json:
            game = session.game
            place = parse_place(source, game.position)
            targets = [place_char(target) for target in game.destinations(place, count)]
            return {"targets": list(dict.fromkeys(targets))}

        return self.games.view(game_id, answer)

    def _snapshot(self, game_id: str) -> Snapshot:
        """What the solver's answers need of the game now (the games' lock is held only to
        take it, so that no move waits while a request waits for the solver)."""
        return self.games.view(game_id, Snapshot.of)

    def _ask(self, game_id: str) -> tuple[Snapshot, Answered | None]:
        """A snapshot, and the solver asked about its position: what to wait for, if anything."""
        taken = self._snapshot(game_id)
        return taken, self.assistance.ask(taken)

    def hint(self, game_id: str) -> WorthWaiting:
        """The hint for the position now, once the solver has had ``assistance.hint_wait``
        seconds to answer (the static site cannot wait: its page asks again)."""
        taken, asked = self._ask(game_id)
        answered = Answered.already() if asked is None else asked
        return WorthWaiting(answered, self.assistance.hint_wait, lambda: self._hint_from(taken))

    def _hint_from(self, taken: Snapshot) -> Json:
        """The hint for the snapshot's position; a hint that names a move is counted in the game."""
        answer = self.assistance.hint(taken)
        if answer["move"] is not None:
            self.games.note(taken.game_id, "hint")
        return answer

    def analysis(self, game_id: str, *, line: bool = False) -> Json:
        """The live verdict; a winning line shown marks the game assisted."""
        answer = self.assistance.analysis_state(self._snapshot(game_id), with_line=line)
        if answer["line"]:
            self.games.note(game_id, "assist")
        return answer

    def rewind(self, game_id: str) -> Json:
        """Back to the last winnable position, as the solver found it: the game is assisted."""
        losing = self.assistance.losing_move(self._snapshot(game_id))
        if losing is None:
            raise NothingToUndoError("no move that lost a winnable game is known here")
        self.games.note(game_id, "assist")
        for _ in range(losing["moves_back"]):
            self.games.act(game_id, "undo")
        return self._state(game_id)

    def review(self, game_id: str) -> Json:
        """The game's review as far as the solver has judged it; ask again until ``complete``."""
        return review_state(self.games.view(game_id, ReviewSource.of), self.assistance)

    def play_on(self, game_id: str, step: int) -> Json:
        """A new game from the position where step ``step`` of this game's review left it
        (0: its start), marked assisted: the review showed how it could be won."""
        rules, position = position_at(self.games.view(game_id, ReviewSource.of), step)
        session = self.games.create(rules=rules.name, cells=rules.cells, board=position.to_text())
        self.games.note(session.id, "assist")
        return self._state(session.id)

    def capacity(self, game_id: str, empty_cells: int | None = None, empty_columns: int | None = None) -> Json:
        rules, position = self.games.view(game_id, lambda session: (session.game.rules, session.game.position))
        cells = position.empty_cells if empty_cells is None else empty_cells
        columns = position.empty_columns if empty_columns is None else empty_columns
        if cells > rules.cells:
            raise InvalidInputError(
                f"{rules.title} has {rules.cells} free cells, so at most {rules.cells} can be empty"
            )
        if columns > rules.columns:
            raise InvalidInputError(
                f"{rules.title} has {rules.columns} columns, so at most {rules.columns} can be empty"
            )
        return capacity_detail(rules, cells, columns)

    def sharing(self) -> Json:
        return self.share.info()

    def current(self) -> Json:
        """The game a reloaded page continues: ``{"id": None}`` before the first game."""
        return {"id": self.games.current()}

    def stats(self) -> list[Json]:
        with storing():
            rows = self.store.stats()
        return [{field: getattr(row, field) for field in row.__dataclass_fields__} for row in rows]

    def stats_csv(self) -> str:
        with storing():
            return self.store.export_csv()

    def daily(self, rules: str = "standard", date: str | None = None) -> Json:
        """The daily deal of the player's day under the preset ``rules``, with the
        preset's daily statistics on that day."""
        the_rules = find_rules(rules)
        day = open_day(date, self.games.now())
        chosen = self.assistance.daily(day, the_rules)
        with storing():
            stats = self.store.daily_stats(the_rules.name, day)
            games = self.store.daily_games(the_rules.name, day.isoformat())
        return daily_info(chosen, stats, games[-1] if games else None)

    def start_daily(self, *, rules: str = "standard", date: str | None = None, auto_home: bool = False) -> Json:
        """A new game of the daily deal (replacing the game in progress, as a new deal does)."""
        the_rules = find_rules(rules)
        day = open_day(date, self.games.now())
        chosen = self.assistance.daily(day, the_rules)
        session = self.games.create(
            rules=the_rules.name, deal=chosen.deal.number, difficulty=chosen.difficulty.value,
            daily=day.isoformat(), auto_home=auto_home,
        )
        return self._state(session.id)

    def lessons(self) -> list[Json]:
        return [
            {"id": one.id, "title": one.title, "summary": one.summary, "steps": len(one.steps)} for one in LESSONS
        ]

    def start_lesson(self, lesson_id: str) -> Json:
        return self._state(self.games.create_lesson(lesson_id).id)

    # --- serving ------------------------------------------------------------------------

    def handle(self, method: str, path: str, query: str = "", body: object = None) -> tuple[int, Any]:
        """Answer one request as the server does: ``(status, JSON value)`` (see
        :func:`freecell.web.api.dispatch`)."""
        return dispatch(self, method, path, query, body)

    def close(self) -> None:
        """End the solver's processes and close the store."""
        try:
            self.assistance.close()
        finally:
            self.store.close()
