"""The server's service worker, ``/sw.js``: the page's own files are listed in it as it is
served, so that every module the page loads is kept for the page to open offline."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import serving
from freecell.web.service_worker import STATIC, page_files, worker_script

IMPORT = re.compile(r'^import [^;]*? from "(\.{1,2}/[^"]+)";', re.MULTILINE | re.DOTALL)
PAGE_LINK = re.compile(r'(?:src|href)="(static/[^"]+)"')


def loaded_by_the_page() -> set[str]:
    """Every file index.html names, and every module main.js imports, however deep."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    modules: set[Path] = set()
    waiting = [STATIC / "js" / "main.js"]
    while waiting:
        module = waiting.pop()
        if module not in modules:
            modules.add(module)
            waiting += [(module.parent / name).resolve() for name in IMPORT.findall(module.read_text(encoding="utf-8"))]
    return {f"/{name}" for name in PAGE_LINK.findall(html)} | {
        f"/{module.relative_to(STATIC.parent).as_posix()}" for module in modules
    }


def listed(script: str) -> list[str]:
    found = re.search(r"^const FILES = (\[.*?\]);$", script, re.MULTILINE | re.DOTALL)
    assert found is not None, script
    files: list[str] = json.loads(found[1])
    return files


def test_the_served_worker_lists_every_file_the_page_loads(tmp_path: Path) -> None:
    # Without the token, as the browser asks for it.
    with TestClient(serving.make_app(tmp_path / "games.db"), base_url=serving.BASE) as client:
        answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    files = listed(answer.text)
    needed = loaded_by_the_page()
    assert "/static/js/places.js" in needed and "/static/js/dialogs/confirm.js" in needed
    assert needed <= set(files)
    assert files[0] == "/" and len(files) == len(set(files))


def test_the_login_page_and_the_static_sites_scripts_are_not_the_pages() -> None:
    files = page_files()
    for name in ("/static/locked.html", "/static/css/locked.css", "/static/js/worker.js", "/static/js/sw.js",
                 "/static/sw.js", "/static/site.json", "/static/index.html"):
        assert name not in files
    assert all((STATIC / name.removeprefix("/static/")).is_file() for name in files[1:])


def test_a_worker_without_the_line_for_the_list_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sw.js").write_text("const FILES = ['/'];\n")
    with pytest.raises(RuntimeError, match="const FILES"):
        worker_script(tmp_path)
    (tmp_path / "sw.js").write_text("const FILES = [];\nself.x = FILES;\n")
    (tmp_path / "app.js").write_text("")
    assert listed(worker_script(tmp_path)) == ["/", "/static/app.js"]
