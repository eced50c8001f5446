"""A static site served as a plain file host would, in a thread of the test: Python's
``http.server`` (Last-Modified from the files' times, answering If-Modified-Since), bound to
127.0.0.1, with headers of the test's choosing (a long ``Cache-Control``, as many hosts send)
and a count of the requests for each path.

The browser that reaches it at a name that is not ``localhost`` (``freecell.test``, mapped
to 127.0.0.1) is not in a secure context: no service worker, no Web Locks, no Cache Storage.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

from playwright.sync_api import Browser, Playwright

# A name Chromium resolves to 127.0.0.1 (see insecure_browser): plain HTTP there is not a
# secure context, as on any address but localhost's.
INSECURE_HOST = "freecell.test"


class _Handler(SimpleHTTPRequestHandler):
    extra_headers: ClassVar[dict[str, str]] = {}
    requests: ClassVar[Counter[str]] = Counter()

    def end_headers(self) -> None:
        for name, value in self.extra_headers.items():
            self.send_header(name, value)
        super().end_headers()

    def do_GET(self) -> None:
        self.requests[self.path.split("?")[0]] += 1
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


class Served:
    """A folder being served: its base address and the requests counted per path."""

    def __init__(self, port: int, requests: Counter[str]) -> None:
        self.port = port
        self.requests = requests

    def url(self, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}/"


@contextmanager
def serve(root: Path, headers: dict[str, str] | None = None) -> Iterator[Served]:
    """Serve ``root`` at ``http://127.0.0.1:PORT/`` until the block ends."""
    requests: Counter[str] = Counter()
    handler = type("Handler", (_Handler,), {"extra_headers": dict(headers or {}), "requests": requests})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Served(int(server.server_address[1]), requests)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@contextmanager
def insecure_browser(playwright: Playwright, args: list[str]) -> Iterator[Browser]:
    """Chromium with :data:`INSECURE_HOST` resolved to 127.0.0.1."""
    browser = playwright.chromium.launch(
        executable_path="/usr/bin/chromium",
        args=[*args, f"--host-resolver-rules=MAP {INSECURE_HOST} 127.0.0.1"],
    )
    try:
        yield browser
    finally:
        browser.close()
