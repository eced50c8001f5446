"""The FastAPI app: the JSON API of ``docs/api.md`` and the static page.

Errors are ``{"detail": "<sentence>"}``: 400 for a request the rules refuse (the library's
message), 404 for an unknown game or lesson, 409 for an action that cannot happen now,
413 for a body over :data:`MAX_BODY` bytes, 422 for a body or query of the wrong shape,
503 with ``Retry-After`` when the solver has too many requests waiting, and 503 when the
game store cannot keep what was asked (nothing was saved). The refusals are mapped in
:mod:`freecell.web.service`, for the server and the static site alike.

Handlers that need the solver take a :class:`~freecell.web.assistance.Snapshot` of the game
under the games' lock and work from it after the lock is released; a hint waits for the
solver in the event loop, holding neither the lock nor a thread, so moves go on meanwhile.

The handlers of play (moves, undo, state, hints, analysis) are ``async``: they run in the
event loop itself, since what they do in memory and in the store takes a fraction of a
millisecond, less than a hop to the thread pool and back costs (measured: a move's
server CPU fell by about half). Handlers that may take long (a
winnable deal, which solves; an imported game's replay; statistics) are plain functions,
which FastAPI runs in its thread pool.

401, 403, 415 and 421 come from :mod:`freecell.web.security`, in front of everything.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from freecell.store import PresetStats, Store, default_path
from freecell.web.analysis import AnalysisBusyError
from freecell.web.assistance import Assistance
from freecell.web.models import (
    AnalysisState,
    CapacityDetail,
    CurrentGame,
    Destinations,
    ErrorBody,
    GameOptions,
    GameState,
    Hint,
    LessonInfo,
    MoveRequest,
    NewGame,
    RulesEntry,
)
from freecell.web.security import Guard, check_token
from freecell.web.service import ERRORS, STATS_FILE, Service, error_detail, error_status
from freecell.web.states import Json

STATIC: Final = Path(__file__).parent / "static"
MAX_BODY: Final = 64 * 1024

_ERROR_TEXT: Final = {
    400: "the rules refuse the request",
    401: "the token is missing or wrong (see docs/api.md)",
    403: "the request comes from another site's page",
    404: "no such game or lesson",
    409: "the action cannot happen now",
    413: "the body is too large",
    415: "a request that changes state is not sent as application/json",
    421: "the Host header is not one of this server's addresses",
    422: "the body or query has the wrong shape",
    503: "the solver is busy, or the game store cannot be written (nothing was saved)",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI description of the error answers ``codes``."""
    return {code: {"model": ErrorBody, "description": _ERROR_TEXT[code]} for code in codes}


class BodyLimit:
    """Refuse with 413 a request body over ``limit`` bytes, whether its Content-Length
    says so or its stream turns out longer."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.limit:
            await _too_large(scope, receive, send, self.limit)
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.limit:
                await _too_large(scope, receive, send, self.limit)
                return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)


async def _too_large(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
    response = JSONResponse({"detail": f"the request body is larger than {limit // 1024} KB"}, status_code=413)
    await response(scope, receive, send)


def _readable(error: RequestValidationError) -> str:
    parts = []
    for item in error.errors():
        where = ".".join(str(part) for part in item.get("loc", ()) if part not in ("body", "query", "path"))
        parts.append(f"{where}: {item.get('msg', 'invalid')}" if where else str(item.get("msg", "invalid")))
    return "; ".join(parts) or "the request is malformed"


def create_app(
    db_path: Path | None = None, *, token: str, allowed_hosts: Iterable[str] = (), assistance: Assistance | None = None
) -> FastAPI:
    """The app, storing its games in ``db_path`` (default: the user's data directory),
    with the solver's help from ``assistance`` (default: its own, started on first use).

    Only requests with ``token`` get in, addressed to a loopback name or one of
    ``allowed_hosts`` (see :class:`freecell.web.security.Guard`); raises ``ValueError`` for
    a token too short or that cannot stand in an address."""
    check_token(token)  # before the store is opened
    store = Store(db_path or default_path())
    assistance = assistance or Assistance()
    service = Service(store, assistance)
    games = service.games

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        assistance.close()
        store.close()  # the file is locked while open: another server may use it now

    app = FastAPI(
        lifespan=lifespan,
        title="FreeCell",
        summary="Play FreeCell and its variants: every rule is decided by the freecell library.",
        version="1",
        docs_url=None,  # Swagger UI and ReDoc load scripts from a CDN, which the page's CSP refuses
        redoc_url=None,
    )
    app.state.games = games
    app.state.assistance = assistance
    app.state.service = service
    app.add_middleware(BodyLimit)
    app.add_middleware(Guard, token=token, hosts=allowed_hosts, locked_page=STATIC / "locked.html")

    def refused(request: Request, exc: Exception) -> JSONResponse:
        status = error_status(exc)
        assert status is not None
        return JSONResponse({"detail": error_detail(exc)}, status_code=status)

    for kind, _ in ERRORS:
        app.add_exception_handler(kind, refused)

    @app.exception_handler(AnalysisBusyError)
    def busy(request: Request, exc: AnalysisBusyError) -> JSONResponse:
        response = refused(request, exc)
        response.headers["Retry-After"] = str(exc.retry_after)
        return response

    @app.exception_handler(RequestValidationError)
    def validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _readable(exc)}, status_code=422)

    api = APIRouter(prefix="/api", responses=errors(401, 403, 413, 415, 421, 422, 503))

    @api.get("/rules", response_model=list[RulesEntry])
    async def list_rules() -> list[Json]:
        """Every preset, with its rules panel and our help."""
        return service.rules()

    @api.post("/games", status_code=201, response_model=GameState, responses=errors(400))
    def new_game(body: NewGame) -> Json:
        """A new game by deal number, game code, random deal or imported board."""
        return service.new_game(**body.model_dump())

    @api.get("/games/{game_id}", response_model=GameState, responses=errors(404))
    async def get_game(game_id: str) -> Json:
        return service.state(game_id, played=False)

    @api.post("/games/{game_id}/moves", response_model=GameState, responses=errors(400, 404, 409))
    async def play(game_id: str, body: MoveRequest) -> Json:
        """Play a move in standard notation; 400 with the reason when it is refused."""
        return service.move(game_id, body.move)

    def action(kind: str, doc: str) -> None:
        async def endpoint(game_id: str) -> Json:
            return service.act(game_id, kind)

        endpoint.__doc__ = doc
        api.add_api_route(
            f"/games/{{game_id}}/{kind}", endpoint, methods=["POST"], name=kind, response_model=GameState,
            responses=errors(404, 409),
        )

    action("undo", "Take back the last action; 409 when there is nothing to undo.")
    action("redo", "Play again the last action undone; 409 when there is nothing to redo.")
    action("restart", "Back to the start of the same deal.")
    action("pause", "Stop the clock.")
    action("resume", "Start the clock again.")

    @api.post("/games/{game_id}/options", response_model=GameState, responses=errors(400, 404, 409))
    async def options(game_id: str, body: GameOptions) -> Json:
        """Turn on or off the sending of safe cards home after each move."""
        return service.options(game_id, auto_home=body.auto_home)

    @api.post("/games/{game_id}/finish", response_model=GameState, responses=errors(404, 409))
    async def finish(game_id: str) -> Json:
        """Play the trivially won finish; 409 if the game is not trivially won."""
        return service.finish(game_id)

    @api.get("/games/{game_id}/destinations", response_model=Destinations, responses=errors(400, 404))
    async def destinations(
        game_id: str,
        source: Annotated[str, Query(max_length=3, description="a column digit, a cell letter, or hc/hd/hh/hs")],
        count: Annotated[int, Query(ge=1, le=104)] = 1,
    ) -> Json:
        """Where ``count`` cards from ``source`` may legally go now."""
        return service.destinations(game_id, source, count)

    @api.get("/games/{game_id}/hint", response_model=Hint, responses=errors(404, 503))
    async def hint(game_id: str) -> Json:
        """The next move of a winning line; or that the position is lost; or, while the
        solver thinks, ``pending`` (ask again). A hint given is counted in the game."""
        taken, asked = service.ask(game_id)
        if asked is not None:
            await asked.wait_async(assistance.hint_wait)
        return service.hint_from(taken)

    @api.get("/games/{game_id}/analysis", response_model=AnalysisState, responses=errors(404, 503))
    async def analysis(game_id: str, line: bool = False) -> Json:
        """The live verdict: winnable, not-winnable, unknown (the search reached its limit)
        or pending; with ``line``, a winning line; when lost, the move that lost it. A line
        shown marks the game assisted."""
        return service.analysis(game_id, line=line)

    @api.post("/games/{game_id}/rewind", response_model=GameState, responses=errors(404, 409))
    async def rewind(game_id: str) -> Json:
        """Undo back to the last position that could still be won; 409 when no losing
        move is known (ask /analysis first)."""
        return service.rewind(game_id)

    @api.get("/games/{game_id}/capacity", response_model=CapacityDetail, responses=errors(400, 404))
    async def capacity(
        game_id: str,
        empty_cells: Annotated[int | None, Query(ge=0, le=16)] = None,
        empty_columns: Annotated[int | None, Query(ge=0, le=16)] = None,
    ) -> Json:
        """The move calculator, for the position or for other numbers of empty places."""
        return service.capacity(game_id, empty_cells, empty_columns)

    @api.get("/current", response_model=CurrentGame)
    async def current() -> Json:
        """The game a reloaded page continues: ``{"id": null}`` before the first game."""
        return service.current()

    @api.get("/stats", response_model=list[PresetStats])
    def stats() -> list[Json]:
        """Games played, won and lost, streaks, best time and fewest moves, per preset."""
        return service.stats()

    @api.get("/stats.json", response_model=list[PresetStats])
    def stats_json(response: Response) -> list[Json]:
        """The statistics as a JSON file to save."""
        response.headers["Content-Disposition"] = f'attachment; filename="{STATS_FILE}.json"'
        return service.stats()

    @api.get(
        "/stats.csv",
        response_class=Response,
        responses={
            200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "the statistics as CSV"}
        },
    )
    def stats_csv() -> Response:
        """The statistics as a CSV file to save."""
        return Response(
            service.stats_csv(), media_type="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{STATS_FILE}.csv"'},
        )

    @api.get("/lessons", response_model=list[LessonInfo])
    def lessons() -> list[Json]:
        return service.lessons()

    @api.post("/lessons/{lesson_id}", status_code=201, response_model=GameState, responses=errors(404))
    def start_lesson(lesson_id: str) -> Json:
        """A game on the lesson's position; its ``lesson`` field says what to do."""
        return service.start_lesson(lesson_id)

    app.include_router(api)

    @app.get("/", include_in_schema=False, response_model=None)
    def index() -> Response:
        return FileResponse(STATIC / "index.html")

    # Served from the root: a service worker controls only the pages under its own path.
    @app.get("/sw.js", include_in_schema=False, response_model=None)
    def service_worker() -> Response:
        return FileResponse(STATIC / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app
