"""Browser tests: the real server as a subprocess, Debian's Chromium driven by Playwright.

The server runs once for the session (``python -m freecell play --no-browser``, started by
``serving.start``) on a free 127.0.0.1 port with a database of its own. Every test gets
fresh browser contexts, logged in the way a player is: by opening the address the server
printed, ``/?token=…``. At the end of each test, the contexts are checked: no script error
in a page, no Content-Security-Policy violation, and the token in no request but that
first one (no Referer, no other address carries it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from player import Player
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, Request, sync_playwright

import serving

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
# The page reports every violation of its policy in the console, where the watch finds it.
REPORT_VIOLATIONS = """document.addEventListener("securitypolicyviolation", (event) =>
  console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"}`));"""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[serving.Served]:
    """The server started for these tests, with the address it printed; stopped after them."""
    server = serving.start(tmp_path_factory.mktemp("server"))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def server(served: serving.Served) -> str:
    """The server's base URL, ``http://127.0.0.1:PORT``, without the token."""
    return served.base


class Watch:
    """What the pages of one context did that they must not: script errors, CSP violations,
    and requests that carry the token after the first visit."""

    def __init__(self, context: BrowserContext) -> None:
        self.errors: list[str] = []
        self.console: list[str] = []
        self.requests: list[Request] = []
        context.add_init_script(REPORT_VIOLATIONS)
        context.on("weberror", lambda error: self.errors.append(str(error.error)))
        context.on("console", self.seen)
        context.on("request", lambda request: self.requests.append(request))

    def seen(self, message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or message.text.startswith("CSP violation"):
            self.console.append(message.text)

    def problems(self, token: str) -> list[str]:
        found = [f"the page raised: {error}" for error in self.errors]
        found += [f"console: {text}" for text in self.console]
        for request in self.requests:
            headers = request.all_headers()
            if headers.get("referer"):  # Playwright lists a Referer it did not send as ""
                found.append(f"{request.url} was sent with Referer {headers['referer']}")
            found += [f"{request.url} carried the token in {name}" for name, value in headers.items()
                      if token in value and name != "cookie"]
            opened = request.is_navigation_request() and urlsplit(request.url).path == "/"
            if token in request.url and not opened:  # only the printed address carries it
                found.append(f"the token is in the address of {request.url}")
        return found


def log_in(context: BrowserContext, served: serving.Served) -> Page:
    """Open the printed address in a new page of ``context``, as a player does, and wait
    until the table is drawn; the token has left the address bar by then."""
    page = context.new_page()
    page.goto(served.url)
    assert page.url == f"{served.base}/", page.url
    Player(page, served.base).wait_for_table()
    return page


@pytest.fixture
def open_page(browser: Browser, served: serving.Served) -> Iterator[Callable[..., Page]]:
    """Makes a page in a new context (``browser.new_context``'s options), logged in as the
    player unless ``as_player=False``; every context it made is checked, then closed, at
    the end of the test."""
    made: list[tuple[BrowserContext, Watch]] = []

    def new_page(*, as_player: bool = True, **options: Any) -> Page:
        context = browser.new_context(**options)
        made.append((context, Watch(context)))
        return log_in(context, served) if as_player else context.new_page()

    yield new_page
    problems = []
    for context, watch in made:
        problems += watch.problems(served.token)
        context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture
def page(open_page: Callable[..., Page]) -> Page:
    """A page in a fresh context, logged in; a script error or a CSP violation fails the test."""
    return open_page(viewport={"width": 1280, "height": 900})


@pytest.fixture
def player(page: Page, server: str) -> Player:
    return Player(page, server)
