"""The static site's games, kept in the browser, across tabs and what befalls them: one tab
plays at a time, also where the page is not a secure context (plain HTTP at a name other than
localhost, where there are no Web Locks and no Cache Storage), and a reload keeps the game
in the tab that reloads; a store cleared mid-game says so; the clock stands still while the
site is closed; a hint shows as soon as the solver has it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CHROMIUM, CHROMIUM_ARGS
from player import Player
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect
from site_serving import INSECURE_HOST, Served, insecure_browser, serve

from freecell import Deal, find_rules
from freecell.site import build_site, fetch_runtime
from freecell.web.worker import AWAY_SECONDS

LOADING = 180_000  # ms: the runtime's first load on a busy machine
CODE = Deal(find_rules("standard"), 617).code()
OTHER_TAB = "open in another tab"
# What the api worker reported of its start (js/worker.js's steps, as performance marks).
RESTORED = "performance.getEntriesByName('freecell api pyodide from its snapshot').length === 1"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    root = tmp_path_factory.mktemp("site")
    build_site(root, pyodide=fetch_runtime())
    with serve(root) as served:
        yield served


# The lease of js/site-lease.js, taken by a tab that is not there.
TAKEN_BY_ANOTHER_TAB = """() => new Promise((resolve, reject) => {
  const opening = indexedDB.open("freecell-site-tabs");
  opening.onerror = () => reject(opening.error);
  opening.onsuccess = () => {
    const transaction = opening.result.transaction("leases", "readwrite");
    transaction.objectStore("leases").put({ tab: "another", until: Date.now() + 60000 }, location.pathname);
    transaction.oncomplete = () => resolve(true);
  };
})"""


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where a test leaves what the player saw (for a person to look at)."""
    print(f"screenshots in {tmp_path}")
    return tmp_path


def wait_for_table(page: Page) -> None:
    expect(page.locator("#table .card").first).to_be_visible(timeout=LOADING)
    expect(page.locator("#loading")).to_have_count(0)


def seconds_shown(page: Page) -> int:
    minutes, seconds = (page.locator("#timer").text_content() or "").split(":")[-2:]
    return int(minutes) * 60 + int(seconds)


def test_one_tab_plays_at_a_time_outside_a_secure_context(
    playwright: Playwright, site: Served, screenshots: Path
) -> None:
    url = site.url(INSECURE_HOST)
    with insecure_browser(playwright, CHROMIUM_ARGS) as browser:
        context = browser.new_context()
        console: list[str] = []
        errors: list[str] = []
        context.on("console", lambda message: console.append(message.text))
        context.on("weberror", lambda error: errors.append(str(error.error)))
        first = context.new_page()
        first.goto(f"{url}?code={CODE}")
        wait_for_table(first)
        assert first.evaluate("[isSecureContext, 'locks' in navigator, 'caches' in self]") == [False, False, False]
        Player(first, url).play(["1a"])

        # a second tab waits for the first
        second = context.new_page()
        second.goto(url)
        expect(second.locator("#loading")).to_contain_text(OTHER_TAB)

        # the first tab reloads: the game stays with it (and Python's memory, kept from the
        # first visit, restores), and the second waits on
        first.reload()
        wait_for_table(first)
        assert first.evaluate(RESTORED)
        Player(first, url).play(["1b"])
        first.wait_for_timeout(6000)  # longer than the lease (js/site-lease.js)
        expect(second.locator("#loading")).to_contain_text(OTHER_TAB)

        # closed, the first tab hands the game on, with every move it made
        first.close()
        wait_for_table(second)
        player = Player(second, url)
        player.expect_moves(2)
        assert player.table()["cells"][:2] != [None, None]

        # a tab that slept in the background while another took the game (the lease made
        # another's here, as that tab would) says so when it wakes, and plays no more
        second.evaluate(TAKEN_BY_ANOTHER_TAB)
        expect(second.get_by_role("alertdialog")).to_contain_text("another tab")
        second.screenshot(path=str(screenshots / "site-taken-by-another-tab.png"))
        player.type_move("1c")
        second.wait_for_timeout(1000)
        player.expect_moves(2)
        context.close()
    assert not errors, errors
    assert not [text for text in console if "caches is not defined" in text], console


def test_a_store_cleared_mid_game_says_so_and_offers_a_reload(
    browser: Browser, site: Served, screenshots: Path
) -> None:
    url = site.url()
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}?code={CODE}")
    wait_for_table(page)
    player = Player(page, url)
    player.play(["1a"])

    # the site's data cleared as the browser's settings do it, the tab still open
    session = context.new_cdp_session(page)
    session.send("Storage.clearDataForOrigin", {"origin": url.rstrip("/"), "storageTypes": "indexeddb"})
    player.type_move("1b")
    stopped = page.get_by_role("alertdialog")
    expect(stopped).to_contain_text("cleared", timeout=30_000)
    expect(page.locator("#moves")).to_have_text("1")  # the move not saved is not shown played
    page.screenshot(path=str(screenshots / "site-store-cleared.png"))
    stopped.get_by_role("button", name="Reload").click()
    wait_for_table(page)
    expect(page.get_by_role("alertdialog")).to_have_count(0)
    player.play(["1a"])  # a new game, saved again
    context.close()


# Count the hint requests the page sends its api worker, and hold each answer of the solver's
# worker back 2 s: a page that asks on a timer asks several times meanwhile; one that is told
# when the answer is in asks once more.
COUNT_HINTS_AND_SLOW_THE_SOLVER = """
localStorage.setItem("freecell.hideVerdict", "1"); // no live verdict: the hint is the only question
window.hintRequests = 0;
const Original = Worker;
window.Worker = class extends Original {
  postMessage(message, ...rest) {
    if (message?.type === "request" && message.path.endsWith("/hint")) {
      window.hintRequests += 1;
    }
    return super.postMessage(message, ...rest);
  }
  set onmessage(handler) {
    super.onmessage = (event) => {
      if (event.data?.type === "solved") {
        setTimeout(() => handler(event), 2000);
      } else {
        handler(event);
      }
    };
  }
};
"""


def test_a_hint_shows_as_soon_as_the_solver_has_it(browser: Browser, site: Served) -> None:
    url = site.url()
    context = browser.new_context()
    context.add_init_script(COUNT_HINTS_AND_SLOW_THE_SOLVER)
    page = context.new_page()
    page.goto(f"{url}?deal=5&rules=standard")
    wait_for_table(page)
    page.wait_for_function("performance.getEntriesByName('freecell solver ready').length === 1", timeout=LOADING)
    page.locator("#hint").click()
    expect(page.locator("#table .card.hint-source").first).to_be_visible(timeout=LOADING)
    assert page.evaluate("window.hintRequests") == 2  # pending, then the answer once told
    context.close()


def test_the_clock_stands_still_while_the_site_is_closed(playwright: Playwright, site: Served, tmp_path: Path) -> None:
    def visit() -> tuple[BrowserContext, Page]:
        context = playwright.chromium.launch_persistent_context(
            tmp_path / "profile", executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(site.url())
        wait_for_table(page)
        return context, page

    context, page = visit()
    Player(page, site.url()).play(["1a"])
    page.wait_for_timeout(3000)
    before = seconds_shown(page)
    context.close()  # the browser quits: nothing more runs in the page
    # Closed for AWAY_SECONDS, and the time the browser takes to start again on top: a
    # closed site to the worker (a shorter gap is a reload's, whose time is kept), and a
    # clock that ran meanwhile would show at least that much more than before.
    time.sleep(AWAY_SECONDS)
    context, page = visit()
    expect(page.locator("#moves")).to_have_text("1")
    after = seconds_shown(page)
    context.close()
    # The clock keeps the time up to the tab's last renewal of its lease (every second,
    # later on a busy machine): up to that much of the time before the close is not kept.
    assert before - 2 <= after < before + AWAY_SECONDS, (before, after)
