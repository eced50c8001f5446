"""The static site reaches a returning player with a new build, even while the browser's HTTP
cache still counts the last build's files fresh (a host that sends a long Cache-Control, and
files whose times are a month old).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from site_serving import serve

import freecell.site
from freecell.site import SITE_FILE, build_site, fetch_runtime

LOADING = 180_000  # ms: the runtime's first load on a busy machine
MONTH = 30 * 24 * 3600
# The service worker's caches: the new build's only, once it is installed.
SITE_CACHES = "async (name) => (await caches.keys()).filter((key) => key.startsWith('freecell-site-')).join() === name"
NEW_CODE = '\ndocument.documentElement.dataset.build = "second";\n'


def _age(folder: Path, seconds: float) -> None:
    then = time.time() - seconds
    for path in folder.rglob("*"):
        os.utime(path, (then, then))


def _wait_for_table(page: Page) -> None:
    expect(page.locator("#table .card").first).to_be_visible(timeout=LOADING)
    expect(page.locator("#loading")).to_have_count(0)


def test_a_new_build_reaches_a_returning_player(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = tmp_path / "static"
    shutil.copytree(freecell.site.STATIC, sources)
    monkeypatch.setattr(freecell.site, "STATIC", sources)
    site = tmp_path / "www"
    runtime = fetch_runtime()
    build_site(site, pyodide=runtime)
    _age(site, MONTH)
    context = browser.new_context()
    errors: list[str] = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    try:
        with serve(site, {"Cache-Control": "max-age=604800"}) as served:
            page = context.new_page()
            page.goto(served.url())
            _wait_for_table(page)
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            assert page.evaluate("document.documentElement.dataset.build") is None

            # one module of the page changes
            with (sources / "js" / "menu.js").open("a") as stream:
                stream.write(NEW_CODE)
            build_site(site, pyodide=runtime)
            version = json.loads((site / SITE_FILE).read_text())["version"]
            before = served.requests["/static/js/menu.js"]

            # the next visit finds the new build (the service worker's script is always
            # asked of the host) and installs it; the one after runs it
            page.reload()
            _wait_for_table(page)
            page.wait_for_function(
                SITE_CACHES,
                arg=f"freecell-site-{version}",
                timeout=LOADING,
            )
            assert served.requests["/static/js/menu.js"] > before  # past the HTTP cache
            page.reload()
            _wait_for_table(page)
            assert page.evaluate("document.documentElement.dataset.build") == "second"
    finally:
        context.close()
    assert not errors, errors
