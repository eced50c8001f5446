"""Where Share points: a link only where it opens for the one who gets it. The static site's
own address; a published site (``play --site-url``); a server on the network, whose token
the other player still needs; else, on a server only this machine reaches, the game code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

import serving
from freecell.cli import sharing
from freecell.store import Store
from freecell.web.assistance import Assistance
from freecell.web.service import Service
from freecell.web.share_target import (
    CODE,
    PAGE,
    InvalidSiteUrlError,
    ShareMode,
    ShareTarget,
    check_site_url,
)

SITE = "https://example.org/games/freecell/"


def test_a_server_on_loopback_shares_the_game_code() -> None:
    assert sharing.share_target("127.0.0.1", ["127.0.0.1"], 8000, None) == CODE
    assert sharing.share_target("localhost", ["localhost"], 8000, None) == CODE
    assert sharing.share_target("::1", ["::1"], 8000, None) == CODE


def test_a_server_on_the_network_shares_the_address_a_phone_is_offered() -> None:
    wildcard = sharing.share_target("0.0.0.0", ["127.0.0.1", "192.168.1.5", "10.0.0.7"], 8000, None)
    assert wildcard == ShareTarget(ShareMode.NETWORK, "http://192.168.1.5:8000/")
    six = sharing.share_target("::", ["::1", "fd00::5"], 8000, None)
    assert six == ShareTarget(ShareMode.NETWORK, "http://[fd00::5]:8000/")
    assert sharing.share_target("192.168.1.5", ["192.168.1.5"], 9000, None).address == "http://192.168.1.5:9000/"
    # A wildcard with no address another device reaches has nothing to link to.
    assert sharing.share_target("0.0.0.0", ["127.0.0.1"], 8000, None) == CODE


def test_a_published_site_is_shared_wherever_the_server_is() -> None:
    for host in ("127.0.0.1", "0.0.0.0"):
        assert sharing.share_target(host, ["127.0.0.1"], 8000, SITE) == ShareTarget(ShareMode.SITE, SITE)


@pytest.mark.parametrize("url", [SITE, "http://127.0.0.1:8080/", "https://example.org", " https://x.org/fc/a.html "])
def test_a_site_address_is_taken(url: str) -> None:
    assert check_site_url(url) == url.strip()


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("example.org/freecell", "not a web address"),
        ("ftp://example.org/", "not a web address"),
        ("https:///freecell/", "not a web address"),
        ("https://example.org:99999/", "not a web address"),
        ("https://example.org/?code=x", "query or fragment"),
        ("https://example.org/#top", "query or fragment"),
        ("https://exa mple.org/", "a space"),
    ],
)
def test_a_bad_site_address_is_refused_saying_why(url: str, why: str) -> None:
    with pytest.raises(InvalidSiteUrlError, match=why):
        check_site_url(url)


def test_the_api_says_where_share_points(tmp_path: Path) -> None:
    with serving.client(serving.make_app(tmp_path / "a.db")) as api:
        assert api.get("/api/sharing").json() == {"mode": "code", "address": None}
    published = ShareTarget(ShareMode.SITE, SITE)
    with serving.client(serving.make_app(tmp_path / "b.db", share=published)) as api:
        assert api.get("/api/sharing").json() == {"mode": "site", "address": SITE}
    site = Service(Store(tmp_path / "site.db"), Assistance(), share=PAGE)  # as the static site's worker makes it
    try:
        assert site.handle("GET", "/api/sharing", "", None) == (200, {"mode": "page", "address": None})
    finally:
        site.close()


def _play(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "freecell", "play", "--no-browser", "--db", str(tmp_path / "g.db"), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("url", ["example.org", "https://example.org/?x=1", "javascript:alert(1)"])
def test_play_refuses_a_bad_site_url_in_one_line(tmp_path: Path, url: str) -> None:
    result = _play(tmp_path, "--site-url", url)
    assert result.returncode == 2
    assert result.stdout == "" and result.stderr.count("\n") == 1
    assert result.stderr.startswith("freecell: --site-url: ")
    assert not (tmp_path / "g.db").exists()  # refused before anything was opened


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "answer"),
    [
        ((), {"mode": "code", "address": None}),
        (("--site-url", SITE), {"mode": "site", "address": SITE}),
        (("--host", "127.0.0.2"), {"mode": "network", "address": "http://127.0.0.2:{port}/"}),
    ],
)
def test_play_tells_the_page_where_share_points(tmp_path: Path, args: tuple[str, ...], answer: dict[str, str]) -> None:
    server = serving.start(tmp_path, *args)
    try:
        port = server.base.rsplit(":", 1)[1]
        got = httpx.get(f"{server.base}/api/sharing", headers=server.headers).json()
        assert got == {key: None if value is None else value.format(port=port) for key, value in answer.items()}
    finally:
        server.stop()
