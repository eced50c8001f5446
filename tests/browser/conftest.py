"""Browser tests: the real server as a subprocess, Debian's Chromium driven by Playwright.

The server runs once for the session (``python -m freecell play --no-browser``) on a free
127.0.0.1 port with a database of its own; every test gets a fresh browser context.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from player import Player
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_serving(url: str, process: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/api/rules", timeout=2) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    raise RuntimeError(f"the server did not answer at {url} within {seconds} s")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a server started for these tests, stopped after them."""
    port = _free_port()
    db = tmp_path_factory.mktemp("server") / "games.sqlite"
    log = tmp_path_factory.mktemp("server-log") / "server.log"
    with log.open("wb") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "freecell", "play", "--no-browser", "--port", str(port), "--db", str(db)],
            stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the solver's workers go with it
        )
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_until_serving(url, process)
        except RuntimeError as error:
            _stop(process)
            raise RuntimeError(f"{error}; its output:\n{Path(log).read_text()}") from None
        yield url
        _stop(process)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server, then whatever of its process group outlived it (solver workers)."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


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
def page(browser: Browser) -> Iterator[Page]:
    """A page in a fresh context; a script error in the page fails the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert not errors, f"the page raised: {errors}"


@pytest.fixture
def player(page: Page, server: str) -> Player:
    return Player(page, server)
