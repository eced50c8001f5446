"""The static site (``freecell site``) in the browser: served from a sub-folder by a plain
file server, with no game server anywhere, played by click and by typed notation, won
from the solution viewer, reloaded, then reloaded again with no network and played on.

Pyodide loads slowly on a busy machine, hence the long waits for the first table.
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from player import Player
from playwright.sync_api import Browser, BrowserContext, Page, Worker, expect
from site_serving import KeptPython

import serving
from freecell import Deal, find_rules
from freecell.notation import split_moves
from freecell.site import build_site, fetch_runtime
from freecell.store import STATS_FIELDS

DATA = Path(__file__).parent / "data"
LOADING = 180_000  # ms: the runtime's first load on a busy machine
CODE = Deal(find_rules("standard"), 617).code()
# What the api worker reported of its start (js/worker.js's steps, as performance marks).
RESTORED = """() => ({
  api: performance.getEntriesByName("freecell api pyodide from its snapshot").length === 1,
  imported: performance.getEntriesByName("freecell api import").length === 1,
})"""
# The player's day, as the page reads it.
TODAY = """() => { const d = new Date(); const two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`; }"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def site_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder served at the origin's root: www, with the site in www/games/freecell."""
    return tmp_path_factory.mktemp("www")


@pytest.fixture(scope="module")
def site_url(site_root: Path) -> Iterator[str]:
    """The site built into www/games/freecell and served by ``python -m http.server``."""
    root = site_root
    build_site(root / "games" / "freecell", pyodide=fetch_runtime())
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(root), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/games/freecell/"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}static/site.json", timeout=2):
                break
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            if time.monotonic() > deadline:
                _stop(process)
                raise
            time.sleep(0.1)
    yield url
    _stop(process)


@pytest.fixture(scope="module")
def kept_python(browser: Browser, site_url: str, site_root: Path) -> KeptPython:
    """Python's memory as a first visit to the site keeps it."""
    with site_tab(browser, 1280, 900) as (_, page, errors):
        page.goto(site_url)
        wait_for_table(page)
        kept = KeptPython.taken_from(page, site_url, site_root)
    assert not errors, f"the page raised: {errors}"
    return kept


@contextmanager
def site_tab(
    browser: Browser, width: int, height: int, kept: KeptPython | None = None
) -> Iterator[tuple[BrowserContext, Page, list[str]]]:
    """A browser context of that size with a page in it, and the errors the page raises,
    gathered as they come; the context is closed at the end. With ``kept``, the context
    holds Python's memory as a returning player's does (nothing else of the site), and
    the page is at a file of the site."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    if kept is not None:
        kept.give(page)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield context, page, errors
    finally:
        context.close()


@pytest.fixture
def site_page(browser: Browser) -> Iterator[Page]:
    """A page in a fresh context: the site's first visit."""
    with site_tab(browser, 1280, 900) as (_, tab, errors):
        yield tab
    assert not errors, f"the page raised: {errors}"


@pytest.fixture
def returning_page(browser: Browser, kept_python: KeptPython) -> Iterator[Page]:
    """A page in a fresh context that keeps only Python's memory from a first visit: for a
    test of what the site does once loaded, a few seconds quicker to its table."""
    with site_tab(browser, 1280, 900, kept_python) as (_, tab, errors):
        yield tab
    assert not errors, f"the page raised: {errors}"


def wait_for_table(page: Page) -> None:
    expect(page.locator("#table .card").first).to_be_visible(timeout=LOADING)
    expect(page.locator("#loading")).to_have_count(0)


def test_the_site_plays_offline_after_the_first_visit(site_page: Page, site_url: str) -> None:
    page = site_page
    player = Player(page, site_url)
    page.emulate_media(reduced_motion="reduce")

    # A game code's link, on a site served from a sub-folder
    page.goto(f"{site_url}?code={CODE}")
    wait_for_table(page)
    assert page.evaluate(RESTORED) == {"api": False, "imported": True}  # Python started afresh
    expect(page.locator("#deal-label")).to_contain_text("617")
    expect(page.locator("#game-code")).to_have_text(CODE)
    # the first visit's tip, over the felt, until a card is moved (remembered in the browser)
    expect(page.locator("#welcome")).to_be_visible()

    # by click, then by typed notation: the first 20 moves of a known solution, after
    # which the solver needs little search, however busy the machine is
    opening = split_moves((DATA / "deal617.solution").read_text())[:20]
    assert opening[0] == "7a"
    bottom = player.column("7")[-1]
    player.settle()
    page.locator(f'#table .card[data-card="{bottom}"]').click(position={"x": 10, "y": 8})
    player.place("free cell a").click()
    player.expect_moves(1)
    assert player.table()["cells"][0] == bottom
    expect(page.locator("#welcome")).to_be_hidden()
    player.play(opening[1:])
    before = player.table()

    # won from the solution viewer, the solver running in the site's second worker
    page.locator("#solution").click()
    position = page.locator("#solution-position")
    expect(position).to_have_text(re.compile(r"^0 / [1-9]\d*$"), timeout=LOADING)
    length = int((position.text_content() or "").split("/")[1])
    page.get_by_label("Speed").select_option(label="Fastest")
    page.get_by_role("button", name="Play").click()
    expect(page.locator("#banner")).to_contain_text("You won", timeout=LOADING)
    assert player.table()["foundations"] == ["KC", "KD", "KH", "KS"]
    assert player.table() != before

    # a reload keeps the game (saved in the browser before each move was acknowledged)
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    wait_for_table(page)
    player.expect_moves(20 + length)
    assert player.table()["foundations"] == ["KC", "KD", "KH", "KS"]
    expect(page.locator("#welcome")).to_be_hidden()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    # a later visit restores Python's memory as the first visit left it, package imported
    assert page.evaluate(RESTORED) == {"api": True, "imported": False}

    # no network at all: the site starts from the service worker's cache and plays on
    page.context.set_offline(True)
    page.reload()
    wait_for_table(page)
    player.expect_moves(20 + length)
    page.goto(f"{site_url}?deal=3&rules=standard")
    wait_for_table(page)
    expect(page.locator("#deal-label")).to_contain_text("3")
    player.play(["1a"])
    page.locator("#hint").click()
    hinted = page.locator("#table .card.hint-source")
    expect(hinted.first).to_be_visible(timeout=LOADING)
    expect(player.toast()).to_contain_text(re.compile(r"\(\w+\)"))
    hinted.first.click(position={"x": 10, "y": 8})
    page.locator("#table .hint-target").first.click(position={"x": 10, "y": 8})
    player.expect_moves(2)
    assert page.evaluate("navigator.onLine") is False

    # the statistics and their export, made in the browser: the game won above counts, as
    # an assisted game (its solution was shown)
    page.get_by_role("button", name="Statistics").click()
    with page.expect_download() as download:
        page.get_by_role("link", name="CSV").click()
    assert download.value.suggested_filename == "freecell-stats.csv"
    rows = Path(download.value.path()).read_text().splitlines()
    assert rows[0].startswith("rules,played,won,lost")
    assisted = STATS_FIELDS.index("assisted")
    assert any(row.startswith("standard,") and row.split(",")[assisted] == "1" for row in rows[1:])

    # one tab at a time runs the game (each keeps its own copy): a second one waits for it
    other = page.context.new_page()
    other.goto(site_url)
    expect(other.locator("#loading")).to_contain_text("open in another tab")
    page.close()
    wait_for_table(other)
    Player(other, site_url).expect_moves(2)


def _wait_for_workers(page: Page, workers: list[Worker], count: int) -> None:
    """Wait until ``count`` workers have started, and no more: the api worker posts its
    answer (the verdict shown) before the longer search's job, so the verdict may show
    before the page has started that search's worker."""
    deadline = time.monotonic() + 30
    while len(workers) < count:
        assert time.monotonic() < deadline, f"{len(workers)} workers started, not {count}"
        page.wait_for_timeout(100)
    assert len(workers) == count


def test_the_site_searches_further_in_a_worker_it_ends_when_the_game_moves_on(
    returning_page: Page, site_url: str
) -> None:
    """Deal 982 with 2 cells needs 278,190 classes to prove lost, relaxed (the plain
    proof did not end within 60 s): the in-play search (300,000 positions) cannot, so a
    longer one starts in a worker of its own, and a move ends that worker (a new one
    searches the new position)."""
    page = returning_page
    workers: list[Worker] = []
    page.on("worker", lambda worker: workers.append(worker))
    page.goto(f"{site_url}?deal=982&rules=standard&cells=2")
    wait_for_table(page)
    verdict = page.locator("#verdict")
    expect(verdict).to_have_text("Unknown so far: searching further…", timeout=LOADING)
    _wait_for_workers(page, workers, 3)  # the api, the solver and the longer search
    longer = workers[2]
    ended: list[bool] = []
    longer.on("close", lambda _: ended.append(True))
    Player(page, site_url).type_move("85")
    expect(page.locator("#moves")).to_have_text("1")
    deadline = time.monotonic() + 30
    while not ended:
        assert time.monotonic() < deadline, "the longer search's worker was not ended"
        page.wait_for_timeout(100)
    expect(verdict).to_have_text("Unknown so far: searching further…", timeout=LOADING)
    _wait_for_workers(page, workers, 4)  # the new position's longer search


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_the_site_reviews_a_lost_617_and_plays_on_from_a_step(
    browser: Browser, site_url: str, kept_python: KeptPython, width: int, height: int, tmp_path: Path
) -> None:
    """The review on the static site, judged by the site's solver worker under the in-play
    limit as it is: the loss of 1a 1b 1c from 617 is marked where the solver decided it in
    time, and "unknown" (shown as such) where it did not."""
    with site_tab(browser, width, height, kept_python) as (_, page, errors):
        player = Player(page, site_url)
        page.goto(f"{site_url}?deal=617&rules=standard")
        wait_for_table(page)
        player.play(["1a", "1b", "1c"])
        if width < 600:
            page.locator("#menu-button").click()
        page.locator("#menu").get_by_role("button", name="Review").click()
        expect(page.locator("#review-progress")).to_have_text("", timeout=LOADING)  # complete
        marks = page.locator("#review-timeline button")
        expect(marks).to_have_count(4)
        classes = [marks.nth(i).get_attribute("class") or "" for i in range(1, 4)]
        assert all(re.search(r"\b(winnable|loses|lost|unknown)\b", kind) for kind in classes), classes
        assert re.search(r"\b(loses|unknown)\b", classes[2]), classes  # never "winnable": it is lost
        words = marks.nth(3).get_attribute("aria-label") or ""
        assert words.endswith(("lost the game here", "unknown: the search reached its limit")), words
        expect(page.locator("#review-summary")).to_contain_text("3 moves played")
        marks.nth(3).click()  # its words once, whatever the verdict
        expect(page.locator("#review-step")).to_have_text(
            re.compile(r"^(✗ Lost the game here|\? Unknown: the search reached its limit) Step 3, 4♣ to a free cell\.$")
        )
        page.screenshot(path=str(tmp_path / f"site-review-617-{width}x{height}.png"))
        print(f"screenshot: {tmp_path / f'site-review-617-{width}x{height}.png'}")
        marks.nth(2).click()
        board = page.locator("#review-board .mini-top div").first.locator(".mini-card:not(.empty)")
        expect(board).to_have_count(2)
        page.locator("#review-play-on").click()
        page.locator("#confirm-ok").click()
        player.expect_moves(0)
        assert [card for card in player.table()["cells"] if card] == ["JD", "4S"]
        expect(page.locator("#deal-label")).to_contain_text("imported position")
    assert not errors, f"the page raised: {errors}"


def test_the_site_keeps_its_theme_offline_and_celebrates_a_win(
    browser: Browser, site_url: str, kept_python: KeptPython
) -> None:
    """On a phone: a theme chosen on the static site applies, survives a reload with no
    network (its style sheet and scripts come from the service worker's cache), and a
    win there sets the cards bouncing."""
    with site_tab(browser, 390, 844, kept_python) as (context, page, errors):
        player = Player(page, site_url)
        page.goto(f"{site_url}?deal=617&rules=standard")
        wait_for_table(page)
        page.locator("#menu-button").click()
        page.get_by_role("button", name="Themes", exact=True).click()
        page.get_by_label("Burgundy", exact=True).check()
        page.get_by_label("Four-colour deck").check()
        page.get_by_role("button", name="Done").click()
        clubs = page.locator("#table svg.face.suit-C").first
        expect(clubs).to_have_css("color", "rgb(18, 115, 47)")

        # a win: one move from a position of our own
        page.locator("#new-game").click()
        page.get_by_label("A position of my own").check()
        page.locator("#new-board").fill("Foundations: H-Q C-K D-K S-K\nFreecells: - - - -\n: KH\n" + ": \n" * 7)
        page.get_by_role("button", name="Deal", exact=True).click()
        expect(page.locator("#deal-label")).to_contain_text("imported position", timeout=LOADING)
        player.type_move("1h")
        expect(page.locator("#banner")).to_contain_text("You won", timeout=LOADING)
        cascade = page.locator("canvas.cascade")
        expect(cascade).to_have_attribute("data-launched", re.compile(r"^([3-9]|\d\d)$"))
        page.mouse.click(195, 800)
        expect(cascade).to_have_count(0)

        # no network: the theme holds, its style sheet served by the service worker
        assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        context.set_offline(True)
        page.goto(f"{site_url}?deal=617&rules=standard")
        wait_for_table(page)
        assert page.evaluate("() => ({ ...document.documentElement.dataset })")["felt"] == "burgundy"
        expect(page.locator("#frame")).to_have_css("background-image", re.compile(r"rgb\(122, 34, 51\)"))
        expect(page.locator("#table svg.face.suit-D").first).to_have_css("color", "rgb(20, 80, 184)")
    assert not errors, f"the page raised: {errors}"


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_the_sites_daily_deal_is_the_servers(
    browser: Browser, site_url: str, kept_python: KeptPython, served: serving.Served, width: int, height: int
) -> None:
    """The same day's deal with no server: chosen in the site's Python, the same deal and
    grade as the server's, dealt as a daily game."""
    with site_tab(browser, width, height, kept_python) as (_, page, _):
        page.goto(site_url)
        wait_for_table(page)
        today = page.evaluate(TODAY)
        rules = page.locator("#daily-rules")
        served_daily = httpx.get(
            f"{served.base}/api/daily", params={"rules": "double", "date": today}, headers=served.headers, timeout=60
        ).json()
        grade = served_daily["difficulty"].capitalize()
        page.locator("#daily").click()
        rules.select_option("double")
        expect(page.locator("#daily-deal")).to_have_text(
            re.compile(rf"deal {served_daily['deal']} · {grade}$"), timeout=LOADING
        )
        # chosen by the solver's worker, so that the api worker, which answers the moves, never solved
        chosen = page.evaluate(
            'performance.getEntriesByName("freecell daily chosen by the solver\'s worker").map((m) => m.detail)'
        )
        assert f"double {today}" in chosen
        page.locator("#daily-play").click()
        expect(page.locator("#deal-label")).to_contain_text(f"deal {served_daily['deal']}", timeout=LOADING)
        expect(page.locator("#daily")).to_contain_text(grade, timeout=LOADING)
        expect(page.locator("#game-code")).to_have_text(served_daily["code"])


def test_share_on_the_site_gives_its_own_address_which_another_browser_opens(
    browser: Browser, returning_page: Page, site_url: str
) -> None:
    """At a desktop's size, Share gives the site's address with ``?code=`` (and the moves);
    a phone with nothing stored opens it and gets the same table."""
    page = returning_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{site_url}?code={CODE}")
    wait_for_table(page)
    player = Player(page, site_url)
    player.play(["7a", "7b", "7c"])
    page.locator("#share").click()
    link = page.locator("#share-link")
    expect(link).to_have_value(f"{site_url}?code={CODE}")
    expect(page.locator("#share-note")).to_have_text(
        "Anyone who opens this link plays the same deal, under the same rules."
    )
    page.get_by_label("With the moves played so far").check()
    expect(link).to_have_value(f"{site_url}?code={CODE}&moves=7a%2C7b%2C7c")
    page.locator("#share-copy").click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == link.input_value()
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    try:
        other = phone.new_page()
        other.on("pageerror", lambda error: errors.append(str(error)))
        other.goto(copied)
        wait_for_table(other)
        expect(other.locator("#moves")).to_have_text("3")
        expect(other.locator("#game-code")).to_have_text(CODE)
        assert Player(other, site_url).table() == player.table()
    finally:
        phone.close()
    assert not errors, f"the page raised: {errors}"
