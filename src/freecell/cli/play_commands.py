"""``freecell play``, ``stats`` and ``lesson``: the browser game and what it keeps."""

from __future__ import annotations

import gc
import os
import signal
import socket
import sqlite3
import sys
import threading
import time
import webbrowser
from pathlib import Path
from types import FrameType

import click

from freecell.cli.options import fail, resolve_limit
from freecell.lessons import LESSONS, UnknownLessonError, find_lesson
from freecell.solver import SearchLimit
from freecell.store import Store, StoreError, default_path
from freecell.web.games import PAGE_GONE_SECONDS

_db_option = click.option(
    "--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="The SQLite file of games and statistics (default: the user's data directory).",
)


# The defaults of --hint-limit and --longer-limit: freecell.advisor's limits, as a person writes them.
HINT_LIMIT_TEXT = "3s,300k,600MB"
LONGER_LIMIT_TEXT = "30s,1GB"

EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl+C
EXIT_TERMINATED = 128 + signal.SIGTERM  # as shells report a command a service manager stopped


class _Terminated(Exception):
    """SIGTERM arrived: uvicorn has finished the requests in hand and passes it on."""


def _terminated(signum: int, frame: object) -> None:
    raise _Terminated


@click.command("play")
@click.option("--port", type=click.IntRange(0, 65535), default=0, help="Port to serve on (default: a free one).")
@click.option(
    "--host", default="127.0.0.1", show_default=True,
    help="Address to bind; 0.0.0.0 serves a phone on the same network too (with a QR code to scan).",
)
@click.option(
    "--token", envvar="FREECELL_TOKEN", default=None,
    help="The token in the printed address (default: a new random one; $FREECELL_TOKEN), to keep the address "
    "across a restart.",
)
@click.option("--no-browser", is_flag=True, help="Do not open a browser; just print the address.")
@click.option(
    "--site-url", default=None, metavar="URL",
    help="The address of a published copy of the static site (freecell site): Share then gives links to it "
    "(URL?code=…), which anyone can open.",
)
@click.option(
    "--hint-limit", default=HINT_LIMIT_TEXT, show_default=True,
    help="The limit of each search behind hints and the verdict: time, positions, memory.",
)
@click.option(
    "--longer-limit", default=LONGER_LIMIT_TEXT, show_default=True,
    help="The limit of the search that follows one that reached the hint limit ('none': no such search).",
)
@click.option(
    "--away-after", type=click.FloatRange(min=1), default=PAGE_GONE_SECONDS, show_default=True,
    metavar="SECONDS",
    help="A game's page not heard from for this long was closed: the time since is kept off the game's clock.",
)
@_db_option
def play_command(
    port: int, host: str, token: str | None, no_browser: bool, site_url: str | None, hint_limit: str,
    longer_limit: str, away_after: float, db: Path | None,
) -> None:
    """Serve the game on this machine and open it in the browser.

    Only the printed address, which carries a token, gets in."""
    limits = resolve_limit(hint_limit), None if longer_limit.strip().lower() == "none" else resolve_limit(longer_limit)
    if site_url is not None:
        from freecell.web.share_target import InvalidSiteUrlError, check_site_url

        try:
            site_url = check_site_url(site_url)
        except InvalidSiteUrlError as error:
            fail(f"--site-url: {error}")
    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        stopped_by = _serve(port, host, token, no_browser, db, limits, site_url, away_after)
    except KeyboardInterrupt:  # Ctrl+C: uvicorn has shut down and passes the signal on
        stopped_by = signal.SIGINT
    except _Terminated:
        stopped_by = signal.SIGTERM
    finally:
        signal.signal(signal.SIGTERM, previous)
    if stopped_by is not None:
        click.echo("FreeCell stopped.")
        sys.exit(EXIT_INTERRUPTED if stopped_by == signal.SIGINT else EXIT_TERMINATED)


def _serve(
    port: int, host: str, token: str | None, no_browser: bool, db: Path | None,
    limits: tuple[SearchLimit, SearchLimit | None], site_url: str | None, away_after: float,
) -> int | None:
    """Serve until a signal stops the server; the signal, if it returns at all."""
    import uvicorn

    class Server(uvicorn.Server):
        """Remembers the first signal that stopped it. uvicorn passes the signal on once
        it has shut down, but a Ctrl+C passed on under asyncio.run may only cancel a task
        that is finishing anyway, and the server then returns as if nothing stopped it."""

        stopped_by: int | None = None

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.stopped_by is None:
                self.stopped_by = sig
            super().handle_exit(sig, frame)

    from freecell.cli.sharing import announcement, served_addresses, share_target, tokened_url
    from freecell.web.app import create_app
    from freecell.web.assistance import Assistance
    from freecell.web.connections import IDLE_SECONDS, guarded_protocol
    from freecell.web.security import check_token, new_token

    try:
        token = new_token() if token is None else check_token(token)
    except ValueError as error:
        fail(f"--token: {error}")
        return None
    path = db or default_path()
    addresses = served_addresses(host)
    try:  # first, for Share needs the port
        sock = listening_socket(host, port)
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror}")
    share = share_target(host, addresses, sock.getsockname()[1], site_url)
    try:
        assistance = Assistance(limit=limits[0], longer=limits[1])
        app = create_app(path, token=token, allowed_hosts=[host, *addresses], assistance=assistance, share=share,
                         away_after=away_after)
    except StoreError as error:  # another kind of file, damaged, newer: it names the file
        fail(str(error))
    except Exception as error:  # the store could not be opened: say where and why
        fail(f"cannot open the game store {path}: {error}")
    url = tokened_url(addresses[0], sock.getsockname()[1], token)
    # Everything made so far (the libraries, the app: some 60,000 objects) lives as long as
    # the server; out of the cyclic collector's sight, a full collection no longer goes
    # through them all while a move waits (tens of milliseconds on this project's machine).
    gc.collect()
    gc.freeze()
    server = Server(  # its lifespan ends the solver's processes and closes the store
        uvicorn.Config(
            app, log_level="warning", lifespan="on", http=guarded_protocol(), timeout_keep_alive=IDLE_SECONDS
        )
    )
    for line, drawing in announcement(host, addresses, sock.getsockname()[1], token, str(path)):
        # a QR code is drawn light on dark whatever the terminal's colours (plain when piped)
        click.echo(click.style(line, fg="bright_white", bg="black") if drawing else line)
    if not no_browser:
        threading.Thread(target=_open_browser, args=(server, url), daemon=True).start()
    server.run(sockets=[sock])
    return server.stopped_by


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host``:``port`` (0: a free port). It is made with
    IPPROTO_TCP named, as asyncio wants before it sets TCP_NODELAY on the connections it
    accepts: without it, Nagle's algorithm meets the client's delayed acknowledgements and
    every answer on a kept-alive connection waits some 40 ms."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def _open_browser(server: object, url: str) -> None:
    deadline = time.monotonic() + 10
    while not getattr(server, "started", False) and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        opened = _has_display() and webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        click.echo(f"No browser could be opened: visit {url}")


def _has_display() -> bool:
    """False on a Unix without a graphical session, where ``webbrowser`` would start a text
    browser that cannot run the page, in this terminal. ``$BROWSER`` still wins."""
    if sys.platform in ("win32", "darwin") or os.environ.get("BROWSER"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@click.command("stats")
@_db_option
@click.option("--csv", "as_csv", is_flag=True, help="Export as CSV.")
@click.option("--json", "as_json", is_flag=True, help="Export as JSON.")
def stats_command(db: Path | None, as_csv: bool, as_json: bool) -> None:
    """Games played, won and lost, streaks, best time and fewest moves, per preset."""
    if as_csv and as_json:
        fail("choose --csv or --json, not both")
    path = db or default_path()
    try:
        store = Store(path, readonly=True)  # a missing store shows empty statistics: nothing is created
    except StoreError as error:
        fail(str(error))
        return
    except (sqlite3.Error, OSError) as error:
        fail(f"cannot open the game store {path}: {error}")
        return
    try:
        if as_csv:
            click.echo(store.export_csv(), nl=False)
        elif as_json:
            click.echo(store.export_json(), nl=False)
        else:
            click.echo(f"{'preset':<12}{'played':>7}{'won':>6}{'lost':>6}{'streak':>8}{'best':>6}{'time':>9}{'moves':>7}")
            for row in store.stats():
                best_time = "-" if row.best_seconds is None else _minutes(row.best_seconds)
                moves = "-" if row.fewest_moves is None else str(row.fewest_moves)
                click.echo(
                    f"{row.rules:<12}{row.played:>7}{row.won:>6}{row.lost:>6}{row.current_streak:>8}"
                    f"{row.best_streak:>6}{best_time:>9}{moves:>7}"
                )
    finally:
        store.close()


def _minutes(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


@click.command("lesson")
@click.argument("lesson_id", required=False)
def lesson_command(lesson_id: str | None) -> None:
    """List the lessons, or show the steps of LESSON_ID (play them with `freecell play`)."""
    if lesson_id is None:
        for lesson in LESSONS:
            click.echo(f"{lesson.id:<12} {lesson.title}: {lesson.summary}")
        return
    try:
        lesson = find_lesson(lesson_id)
    except UnknownLessonError as error:
        fail(str(error.args[0]))
        return
    position = lesson.start()
    click.echo(f"{lesson.title}: {lesson.summary}\n")
    click.echo(position.to_text())
    for number, step in enumerate(lesson.steps, start=1):
        move = step.move(position)
        click.echo(f"{number}. {step.text}  [{position.notation(move)}]")
        position = position.apply(move, lesson.rules)
    click.echo(f"\n{lesson.done}")
