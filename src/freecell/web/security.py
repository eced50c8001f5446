"""Only the player gets in: one ASGI middleware in front of the whole app.

It does what Jupyter does for its local server, in this order, before any handler runs:

1. **Host allow-list**: the Host header must name one of the server's own addresses (the
   loopback names and the addresses it was asked to serve on) with its own port; anything
   else is 421. A page that rebinds its own name to 127.0.0.1 is refused here.
2. **Origin**: a request that carries an ``Origin`` must come from the server's own origin
   (``http://`` + its Host); anything else is 403.
3. **The token**: everything but the page's address ``/``, its static files and its
   service worker's script ``/sw.js`` (a static file that must be served from the root to
   control the page) needs it,
   as ``Authorization: token T`` (scripts) or the cookie set by the first visit to
   ``/?token=T`` (the page), never in the address of an API call; without it, 401 with
   a ``detail``. ``/?token=T`` sets the cookie and redirects to ``/`` without the token,
   so it leaves the address bar; ``/`` without a token shows a short page that says which
   address to open.
4. **JSON only**: a request that may change state (any method but GET, HEAD, OPTIONS) must
   say ``Content-Type: application/json``, with a body or not; anything else is 415.
   No form or text/plain request, which any page may send without asking, changes state.

Every answer, refusals included, carries a strict Content-Security-Policy,
``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``. No CORS header is
ever sent, so a foreign page cannot read an answer either.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import Final
from urllib.parse import urlencode

from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from freecell.errors import InvalidInputError

SERVICE_WORKER: Final = "/sw.js"

LOOPBACK_NAMES: Final = ("127.0.0.1", "localhost", "::1")
TOKEN_QUERY: Final = "token"
# A token chosen with --token must fit in an address unescaped and be hard to guess.
TOKEN_PATTERN: Final = re.compile(r"[A-Za-z0-9._~-]{16,128}")

CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
SECURITY_HEADERS: Final = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
NEEDS_TOKEN: Final = "this server answers only its player: open the address that `freecell play` printed"


class InvalidTokenError(InvalidInputError):
    """A token that cannot guard the games: too short, too long, or not fit for an address."""


def new_token() -> str:
    """A fresh random token (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def check_token(token: str) -> str:
    """``token`` if it may be used; raises :class:`InvalidTokenError` saying why not."""
    if not TOKEN_PATTERN.fullmatch(token):
        raise InvalidTokenError(
            "a token is 16 to 128 letters, digits and the characters . _ ~ - (it is all that guards the games)"
        )
    return token


def cookie_name(port: int) -> str:
    """The token's cookie for a server on ``port``: browsers share cookies between the ports
    of one host, so two servers on one machine each keep their own."""
    return f"freecell-token-{port}"


def host_name(host: str) -> str:
    """``host`` as it appears in a Host header: lower case, an IPv6 address in brackets."""
    host = host.strip().lower().strip("[]")
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        return host


class Guard:
    """The middleware of this module's docstring, in front of ``app``.

    ``hosts`` are the names the server answers to besides the loopback ones (the address it
    was asked to bind, the machine's addresses it printed). ``locked_page`` is the HTML
    shown at ``/`` without the token.
    """

    def __init__(self, app: ASGIApp, *, token: str, hosts: Iterable[str] = (), locked_page: Path) -> None:
        self.app = app
        self.token = check_token(token).encode()
        self.hosts = frozenset(host_name(host) for host in (*LOOPBACK_NAMES, *hosts))
        self.locked_page = locked_page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        refusal = self.refusal(HTTPConnection(scope))
        if refusal is None:
            await self.app(scope, receive, send_with_headers)
        else:
            await refusal(scope, receive, send_with_headers)

    def refusal(self, request: HTTPConnection) -> Response | None:
        """The answer that stops ``request`` here, or None to let it through."""
        headers = request.headers
        host = headers.get("host", "")
        if not self.known_host(host, request.scope):
            return _refuse(421, f"this server does not answer to the name {host!r}: use the address it printed")
        origin = headers.get("origin")
        if origin is not None and origin != f"{request.url.scheme}://{host}":
            return _refuse(403, f"requests from {origin} are refused: only the game's own page may send them")
        method = request.scope["method"]
        path = request.url.path
        if path == "/" and method in ("GET", "HEAD"):
            return self.page(request)
        if path.startswith("/static/") or path == SERVICE_WORKER:
            return None
        if TOKEN_QUERY in request.query_params:
            return _refuse(401, "a token in the address is taken only by the page at /: "
                                "send it as the header 'Authorization: token …'", authenticate=True)
        if not self.authenticated(request):
            return _refuse(401, NEEDS_TOKEN, authenticate=True)
        if method not in SAFE_METHODS and not _is_json(headers):
            return _refuse(415, "a request that changes the game must be sent as Content-Type: application/json")
        return None

    def page(self, request: HTTPConnection) -> Response | None:
        """``/``: the page with the token; the first visit's ``?token=`` becomes a cookie."""
        given = request.query_params.get(TOKEN_QUERY)
        if given is not None and self.matches(given):
            rest = [(key, value) for key, value in request.query_params.multi_items() if key != TOKEN_QUERY]
            answer = RedirectResponse("/" + (f"?{urlencode(rest)}" if rest else ""), status_code=303)
            answer.headers["cache-control"] = "no-store"
            answer.set_cookie(
                cookie_name(self.port(request.scope)), given, httponly=True, samesite="strict", path="/"
            )
            return answer
        if given is None and self.authenticated(request):
            return None
        locked = FileResponse(self.locked_page, status_code=401, media_type="text/html")
        locked.headers["www-authenticate"] = "token"
        return locked

    def authenticated(self, request: HTTPConnection) -> bool:
        """Whether ``request`` carries the token in its Authorization header or its cookie."""
        scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() in ("token", "bearer") and self.matches(credentials.strip()):
            return True
        cookie = request.cookies.get(cookie_name(self.port(request.scope)))
        return cookie is not None and self.matches(cookie)

    def matches(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token)

    def known_host(self, host: str, scope: Scope) -> bool:
        """Whether the Host header ``host`` names this server: a known name and its port."""
        match = re.fullmatch(r"(\[[0-9a-fA-F:.]+\]|[^:\[\]]+)(?::(\d{1,5}))?", host)
        if match is None or host_name(match[1]) not in self.hosts:
            return False
        default = 443 if scope.get("scheme") == "https" else 80
        port = int(match[2]) if match[2] else default
        return scope.get("server") is None or port == self.port(scope)

    @staticmethod
    def port(scope: Scope) -> int:
        server = scope.get("server")
        return int(server[1]) if server and server[1] is not None else 80


def _is_json(headers: Headers) -> bool:
    media_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return media_type == "application/json"


def _refuse(status: int, detail: str, *, authenticate: bool = False) -> Response:
    answer = JSONResponse({"detail": detail}, status_code=status)
    if authenticate:
        answer.headers["www-authenticate"] = "token"
    return answer
