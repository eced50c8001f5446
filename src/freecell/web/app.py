"""The FastAPI app: the JSON API of :mod:`freecell.web.api` (``docs/api.md``) and the
static page.

:func:`create_app` assembles the parts: the guard in front of everything
(:mod:`freecell.web.security`: 401, 403, 415, 421), a limit on bodies (413), the answers to
refusals (the statuses of :func:`freecell.web.api.error_status`; 503 with
``Retry-After`` when the solver has too many requests waiting; 422 for a body or query of
the wrong shape), a route for each endpoint of :data:`freecell.web.api.ENDPOINTS`, each
calling the :class:`~freecell.web.service.Service` method of its name, and the lifespan,
which closes the service (the solver's processes, the store) when the server stops.
Errors are ``{"detail": "<sentence>"}``; an exception that is not a refusal is a bug (500).

Where each handler runs: an endpoint marked ``blocking`` (a new game, which may solve or
replay; the statistics, which read every finished game, a few hundred at a time, letting
go of the store's lock between) is a plain function, which FastAPI runs in its thread
pool. Every other one (moves, undo, state, hints, analysis, lessons ...) is ``async`` and
runs in the event loop itself: what it does in memory and in the store takes a fraction
of a millisecond, less than a hop to the thread pool and back costs (measured: a move's
server CPU fell by about half), and it waits on no lock held for longer. A hint waits
for the solver in the event loop too (:class:`~freecell.web.api.WorthWaiting`), holding
neither the games' lock nor a thread.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from freecell.errors import FreecellError
from freecell.store import Store, default_path
from freecell.web import models
from freecell.web.api import COMMON_REFUSALS, ENDPOINTS, Endpoint, WorthWaiting, error_detail, error_status
from freecell.web.assistance import Assistance
from freecell.web.games import PAGE_GONE_SECONDS
from freecell.web.security import Guard, check_token
from freecell.web.service import Service
from freecell.web.service_worker import worker_script
from freecell.web.share_target import CODE, ShareTarget

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
    return {code: {"model": models.ErrorBody, "description": _ERROR_TEXT[code]} for code in codes}


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


# --- the answers to refusals -------------------------------------------------------------


def _refused(request: Request, error: Exception) -> JSONResponse:
    """A refusal's status and sentence; 503 for a busy solver says when to ask again."""
    status = error_status(error)
    if status is None:
        raise error  # a FreecellError of no kind the API knows: a bug
    response = JSONResponse({"detail": error_detail(error)}, status_code=status)
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


def _malformed(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    parts = []
    for item in error.errors():
        where = ".".join(str(part) for part in item.get("loc", ()) if part not in ("body", "query", "path"))
        parts.append(f"{where}: {item.get('msg', 'invalid')}" if where else str(item.get("msg", "invalid")))
    return JSONResponse({"detail": "; ".join(parts) or "the request is malformed"}, status_code=422)


# --- a route for each endpoint -------------------------------------------------------------


def _signature(endpoint: Endpoint) -> inspect.Signature:
    """The handler's parameters as FastAPI reads them: the path's, the body's model, the
    query's fields with their bounds, and the response, to which a download's header goes."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [inspect.Parameter(name, keyword, annotation=str) for name in endpoint.parameters]
    if endpoint.body_model is not None:
        model = models.request_model(endpoint.body_model, endpoint.body)
        parameters.append(inspect.Parameter("body", keyword, annotation=model))
    for field in endpoint.query:
        query = Query(description=field.description, **models.field_bounds(field))
        parameters.append(inspect.Parameter(
            field.name, keyword, annotation=Annotated[models.field_type(field), query],
            **({} if field.required else {"default": field.default}),
        ))
    parameters.append(inspect.Parameter("response", keyword, annotation=Response))
    return inspect.Signature(parameters)


def _handler(endpoint: Endpoint, service: Service) -> Callable[..., Any]:
    """The function that answers ``endpoint``: in the thread pool if it is blocking, else in
    the event loop, where an answer worth waiting for waits without holding a thread."""
    call = getattr(service, endpoint.name)

    saved = {} if endpoint.download is None else {"Content-Disposition": f'attachment; filename="{endpoint.download}"'}

    def arguments(given: dict[str, Any]) -> dict[str, Any]:
        given.pop("response").headers.update(saved)
        body = given.pop("body", None)
        return {**given, **(body.model_dump() if body is not None else {})}

    def answer(value: Any) -> Any:
        if endpoint.answer is None:  # text, not JSON
            return Response(value, media_type=endpoint.media_type, headers=saved)
        return value

    if endpoint.blocking:

        def blocking(**given: Any) -> Any:
            value = call(**arguments(given))
            if isinstance(value, WorthWaiting):
                value.answered.wait(value.seconds)
                value = value.answer()
            return answer(value)

        handler: Callable[..., Any] = blocking
    else:

        async def in_loop(**given: Any) -> Any:
            value = call(**arguments(given))
            if isinstance(value, WorthWaiting):
                await value.answered.wait_async(value.seconds)
                value = value.answer()
            return answer(value)

        handler = in_loop
    handler.__signature__ = _signature(endpoint)  # type: ignore[attr-defined]
    handler.__name__ = endpoint.name
    return handler


def _route(api: APIRouter, endpoint: Endpoint, service: Service) -> None:
    model: Any = None if endpoint.answer is None else getattr(models, endpoint.answer)
    if endpoint.answer is None:
        shape = {"content": {endpoint.media_type: {"schema": {"type": "string"}}}, "description": endpoint.summary}
        options: dict[str, Any] = {"response_class": Response, "response_model": None, "responses": {200: shape}}
    else:
        options = {"response_model": list[model] if endpoint.listed else model, "responses": errors(*endpoint.refusals)}
    api.add_api_route(
        endpoint.path.removeprefix("/api"), _handler(endpoint, service), methods=[endpoint.method],
        name=endpoint.name, status_code=endpoint.status, description=endpoint.summary, **options,
    )


def api_router(service: Service) -> APIRouter:
    """The routes of every endpoint of :data:`~freecell.web.api.ENDPOINTS`, under ``/api``."""
    api = APIRouter(prefix="/api", responses=errors(*COMMON_REFUSALS))
    for endpoint in ENDPOINTS:
        _route(api, endpoint, service)
    return api


# --- the app ------------------------------------------------------------------------------


def create_app(
    db_path: Path | None = None, *, token: str, allowed_hosts: Iterable[str] = (), assistance: Assistance | None = None,
    share: ShareTarget = CODE, away_after: float = PAGE_GONE_SECONDS,
) -> FastAPI:
    """The app, storing its games in ``db_path`` (default: the user's data directory),
    with the solver's help from ``assistance`` (default: its own, started on first use).
    The store is opened now (raising :class:`~freecell.store.StoreError` for a file that
    is not a game store); the app's lifespan closes it and ends the solver's processes.

    Only requests with ``token`` get in, addressed to a loopback name or one of
    ``allowed_hosts`` (see :class:`freecell.web.security.Guard`); raises
    :class:`~freecell.web.security.InvalidTokenError` for a token too short or that
    cannot stand in an address. ``share`` is where the Share panel points (by default, a
    server only this machine reaches: the game code to type).

    A game asked about after ``away_after`` seconds of silence was on no page meanwhile
    (the page's heartbeat stopped with the browser): that time is kept off its clock."""
    check_token(token)  # before the store is opened
    service = Service(
        Store(db_path or default_path()), assistance or Assistance(), share=share, away_after=away_after
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        try:
            yield
        finally:
            service.close()  # the store's file is locked while open: another server may use it now

    app = FastAPI(
        lifespan=lifespan,
        title="FreeCell",
        summary="Play FreeCell and its variants: every rule is decided by the freecell library.",
        version="1",
        docs_url=None,  # Swagger UI and ReDoc load scripts from a CDN, which the page's CSP refuses
        redoc_url=None,
    )
    app.state.service = service
    app.state.games = service.games
    app.state.assistance = service.assistance
    app.add_middleware(BodyLimit)
    app.add_middleware(Guard, token=token, hosts=allowed_hosts, locked_page=STATIC / "locked.html")
    app.add_exception_handler(FreecellError, _refused)
    app.add_exception_handler(RequestValidationError, _malformed)
    app.include_router(api_router(service))
    _serve_the_page(app)
    return app


def _serve_the_page(app: FastAPI) -> None:
    @app.get("/", include_in_schema=False, response_model=None)
    def index() -> Response:
        return FileResponse(STATIC / "index.html")

    # Served from the root: a service worker controls only the pages under its own path.
    @app.get("/sw.js", include_in_schema=False, response_model=None)
    def service_worker() -> Response:
        return Response(worker_script(), media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
