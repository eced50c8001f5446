"""Figures for the static site (``freecell site``): its size, the time to a table in
headless Chromium on a first visit (a new browser profile: nothing cached) and on later
visits (the service worker's cache and Python's snapshot), with the api worker's start
step by step and what a later visit still fetched from the network, and hint latency in the browser (Pyodide in the
site's workers) against the server's (the FastAPI app, its solver in a worker process).

Hint latency is from the request to the answer with a move, asked again every 50 ms
while the solver is thinking, over the start positions of Microsoft deals 1-20 (standard
rules), each a new game, so no answer comes from a cache.

    python bench/site.py
    python bench/site.py --first 3 --later 5 --positions 20
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import Browser, Page, Request, sync_playwright

from freecell.site import build_site, fetch_runtime
from freecell.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
TOKEN = secrets.token_urlsafe(24)
TABLE = "#table .card"


def chromium_args() -> tuple[str, list[str]]:
    """The browser tests' Chromium and its launch arguments (tests/browser/conftest.py)."""
    spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    assert spec is not None and spec.loader is not None
    sys.path[:0] = [str(ROOT / "tests" / "browser"), str(ROOT / "tests")]
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CHROMIUM, module.CHROMIUM_ARGS


def serve(root: Path) -> tuple[subprocess.Popen[bytes], int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(root), str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)
    return process, port


def time_to_table(page: Page, url: str) -> float:
    started = time.perf_counter()
    page.goto(url)
    page.locator(TABLE).first.wait_for(state="visible", timeout=300_000)
    return time.perf_counter() - started


def from_network(request: Request, fetched: list[str]) -> None:
    """Note ``request``'s address unless the service worker answered it."""
    response = request.response()
    if response is None or not response.from_service_worker:
        fetched.append(request.url)


# The api worker's start, step by step (js/worker.js posts them; js/site.js marks them):
# ms since the page's navigation when the page heard of each.
STEPS = """() => Object.fromEntries(performance.getEntriesByType("mark")
  .filter((mark) => mark.name.startsWith("freecell api "))
  .map((mark) => [mark.name.slice("freecell api ".length), mark.startTime]))"""


# Run in the page: the same api.js module the page uses, so the same worker answers.
HINTS_IN_PAGE = """async (deals) => {
  const { api } = await import("./static/js/api.js");
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const times = [];
  for (const deal of deals) {
    const game = await api.newGame({ rules: "standard", deal });
    const started = performance.now();
    let hint = await api.hint(game.id);
    while (hint.pending) {
      await wait(50);
      hint = await api.hint(game.id);
    }
    times.push([performance.now() - started, hint.move]);
  }
  return times;
}"""


def browser_hints(page: Page, deals: list[int]) -> list[float]:
    # Warm up: the solver's own worker must have loaded, as it has after a minute of play.
    page.evaluate(HINTS_IN_PAGE, [100])
    answers: list[Any] = page.evaluate(HINTS_IN_PAGE, deals)
    assert all(move for _, move in answers), answers
    return [seconds / 1000 for seconds, _ in answers]


def server_hints(db: Path, deals: list[int]) -> list[float]:
    times = []
    headers = {"Authorization": f"token {TOKEN}"}
    with TestClient(create_app(db, token=TOKEN), base_url="http://127.0.0.1", headers=headers) as client:
        game = client.post("/api/games", json={"rules": "standard", "deal": 100}).json()
        while client.get(f"/api/games/{game['id']}/hint").json()["pending"]:  # the worker process starts
            time.sleep(0.05)
        for deal in deals:
            game = client.post("/api/games", json={"rules": "standard", "deal": deal}).json()
            started = time.perf_counter()
            hint = client.get(f"/api/games/{game['id']}/hint").json()
            while hint["pending"]:
                time.sleep(0.05)
                hint = client.get(f"/api/games/{game['id']}/hint").json()
            times.append(time.perf_counter() - started)
            assert hint["move"], hint
    return times


def size_of(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--first", type=int, default=3, help="first visits to time (each a new profile)")
    parser.add_argument("--later", type=int, default=5, help="later visits to time")
    parser.add_argument("--positions", type=int, default=20, help="positions for hint latency")
    options = parser.parse_args()
    executable, args = chromium_args()
    deals = list(range(1, options.positions + 1))
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        site = build_site(root / "www" / "games" / "freecell", pyodide=fetch_runtime())
        runtime = size_of(site.path / "pyodide")
        process, port = serve(root / "www")
        url = f"http://127.0.0.1:{port}/games/freecell/"
        try:
            with sync_playwright() as driver:
                browser: Browser = driver.chromium.launch(executable_path=executable, args=args)
                first: list[float] = []
                later: list[float] = []
                steps: dict[str, list[float]] = {}
                fetched: list[str] = []
                for visit in range(options.first):
                    context = browser.new_context()
                    page = context.new_page()
                    first.append(time_to_table(page, url))
                    if visit == options.first - 1:
                        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
                        time.sleep(2)  # the solver's worker starts after the table: let it
                        context.on("requestfinished", lambda request: from_network(request, fetched))
                        for _ in range(options.later):
                            later.append(time_to_table(page, url))
                            for name, at in page.evaluate(STEPS).items():
                                steps.setdefault(name, []).append(at / 1000)
                            steps.setdefault("table", []).append(page.evaluate("performance.now()") / 1000)
                        stored = page.evaluate("navigator.storage.estimate().then((found) => found.usage)")
                        in_browser = browser_hints(page, deals)
                    context.close()
                browser.close()
        finally:
            process.terminate()
        in_server = server_hints(root / "server.sqlite", deals)
    load_after = os.getloadavg()[0]

    def row(name: str, values: list[float], unit: str = "s", scale: float = 1.0) -> str:
        shown = ", ".join(f"{value * scale:.2f}" for value in values) if len(values) <= 5 else f"{len(values)} runs"
        return f"| {name:<34} | {statistics.median(values) * scale:>9.2f} {unit:<2} | {shown}"

    print(f"| {'static site':<34} | {'median':>12} | runs")
    print(f"|{'-' * 36}|{'-' * 14}|------")
    files = f"{len(site.files)} files, Pyodide runtime {runtime / 1e6:.1f} MB"
    print(f"| {'size':<34} | {site.size / 1e6:>9.1f} MB | {files}")
    print(row("first visit to a table", first))
    print(row("later visit to a table", later))
    for name, values in sorted(steps.items(), key=lambda item: statistics.median(item[1])):
        print(row(f"  later: {name}", values))
    network = sorted({address.removeprefix(url) for address in fetched})
    print(f"| {'  later: fetched from the network':<34} | {len(fetched):>9}    | {', '.join(network) or 'nothing'}")
    kept = "the site's cache, Python's snapshot, the games"
    print(f"| {'browser storage after the visits':<34} | {stored / 1e6:>9.1f} MB | {kept}")
    print(row(f"hint in the browser ({len(deals)} positions)", in_browser, "ms", 1000))
    print(row(f"hint from the server ({len(deals)} positions)", in_server, "ms", 1000))
    ratio = statistics.median(in_browser) / statistics.median(in_server)
    print(f"| {'browser / server (hint medians)':<34} | {ratio:>9.2f} x  |")
    print(f"load average (1 min) {load_before:.1f} before, {load_after:.1f} after, on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
