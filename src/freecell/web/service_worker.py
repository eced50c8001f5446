"""The server's service worker, ``/sw.js``: ``static/sw.js`` with the list of the page's own
files written in as it is served, so that the list is never made by hand.

The page's files are every file of ``static/`` but the login page and its style, the
static site's own scripts (its service worker and the Pyodide worker) and the transport's
``site.json``, which the page asks of the network each time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

STATIC: Final = Path(__file__).parent / "static"
# Relative to STATIC: the service worker itself (served at the root), the login page, and
# what only the static site uses.
NOT_THE_PAGE: Final = frozenset(
    {"sw.js", "locked.html", "css/locked.css", "site.json", "js/sw.js", "js/worker.js"}
)
FILES_LINE: Final = "const FILES = [];"


def page_files(static: Path = STATIC) -> list[str]:
    """The addresses of the page's own files, the page itself (``/``) first."""
    files = sorted(
        path.relative_to(static).as_posix()
        for path in static.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )
    return ["/", *(f"/static/{name}" for name in files if name not in NOT_THE_PAGE and name != "index.html")]


def worker_script(static: Path = STATIC) -> str:
    """The text of ``/sw.js``: ``static/sw.js`` with :func:`page_files` written in."""
    script = (static / "sw.js").read_text(encoding="utf-8")
    if FILES_LINE not in script:
        # A package built without that line is broken: a bug, never a refusal.
        raise RuntimeError(f"static/sw.js has no line {FILES_LINE!r} to write the page's files in")
    return script.replace(FILES_LINE, f"const FILES = {json.dumps(page_files(static), indent=1)};", 1)
