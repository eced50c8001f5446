"""A static site served as a plain file host would, in a thread of the test: Python's
``http.server`` (Last-Modified from the files' times, answering If-Modified-Since), bound to
127.0.0.1, with headers of the test's choosing (a long ``Cache-Control``, as many hosts send)
and a count of the requests for each path.

The browser that reaches it at a name that is not ``localhost`` (``freecell.test``, mapped
to 127.0.0.1) is not in a secure context: no service worker, no Web Locks, no Cache Storage.
"""

from __future__ import annotations

import base64
import functools
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urljoin

from playwright.sync_api import Browser, Page, Playwright

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


# Python's memory as js/worker.js keeps it after a first visit (its SNAPSHOTS: one IndexedDB
# record, the build's version and Pyodide's memory snapshot). A test that is about what
# the site does once loaded, not about a first visit, may start its fresh context from the
# record a returning player's browser holds, as a returning player's Python starts: a few
# seconds less than starting Python and importing the package afresh, for each context.
SNAPSHOT_DATABASE = ("freecell-snapshot", 1, "snapshots", "python")  # name, version, store, key
READ_KEPT_PYTHON = """([name, version, store, key]) => new Promise((resolve, reject) => {
  const opening = indexedDB.open(name, version);
  opening.onerror = () => reject(opening.error);
  opening.onsuccess = () => {
    const request = opening.result.transaction(store).objectStore(store).get(key);
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const kept = request.result;
      const reader = new FileReader();  // the memory as base64, the quickest way out of the page
      reader.onload = () => resolve({ version: kept.version, memory: reader.result.split(",")[1] });
      reader.readAsDataURL(new Blob([kept.memory]));
    };
  };
})"""
WRITE_KEPT_PYTHON = """async ({ database: [name, version, store, key], address, build }) => {
  const memory = new Uint8Array(await (await fetch(address)).arrayBuffer());
  await new Promise((resolve, reject) => {
    const opening = indexedDB.open(name, version);
    opening.onupgradeneeded = () => opening.result.createObjectStore(store);
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const transaction = opening.result.transaction(store, "readwrite");
      transaction.objectStore(store).put({ version: build, memory }, key);
      transaction.oncomplete = () => { opening.result.close(); resolve(); };
      transaction.onerror = () => reject(transaction.error);
    };
  });
}"""


class KeptPython:
    """Python's memory kept by a first visit to a site, served beside the site as a file."""

    def __init__(self, site: str, address: str, build: str) -> None:
        self.site = site
        self.address = address
        self.build = build

    @classmethod
    def taken_from(cls, page: Page, site: str, root: Path) -> KeptPython:
        """What ``page`` kept, loaded at the site at address ``site``, whose server serves
        the folder ``root`` at the origin's root."""
        kept = page.evaluate(READ_KEPT_PYTHON, list(SNAPSHOT_DATABASE))
        (root / "kept-python.bin").write_bytes(base64.b64decode(kept["memory"]))
        return cls(site, urljoin(site, "/kept-python.bin"), kept["version"])

    def give(self, page: Page) -> None:
        """Keep it in the browser of ``page`` (new, in a fresh context) as the first visit
        would have; ``page`` is left at a file of the site (its manifest), not its page."""
        page.goto(f"{self.site}static/site.json")
        arguments = {"database": list(SNAPSHOT_DATABASE), "address": self.address, "build": self.build}
        page.evaluate(WRITE_KEPT_PYTHON, arguments)
