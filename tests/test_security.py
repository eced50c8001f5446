"""Only the player gets in: each attack of issue 11 is refused before any handler runs, and
the player's own page and scripts still get in (``freecell.web.security``)."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import serving
from freecell.web.app import STATIC, create_app
from freecell.web.security import check_token, cookie_name


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return serving.make_app(tmp_path / "games.db", allowed_hosts=["freecell.lan"])


@pytest.fixture
def player(app: FastAPI) -> Iterator[TestClient]:
    """A script that has the token."""
    with serving.client(app) as test_client:
        yield test_client


@pytest.fixture
def stranger(app: FastAPI) -> Iterator[TestClient]:
    """Anyone else on the machine: it reaches the port, but has no token."""
    with TestClient(app, base_url=serving.BASE) as test_client:
        yield test_client


def game_in_progress(player: TestClient) -> dict[str, object] | None:
    answer = player.get("/api/current")
    return None if answer.status_code == 404 else player.get(f"/api/games/{answer.json()['id']}").json()


def started(player: TestClient) -> str:
    answer = player.post("/api/games", json={"rules": "standard", "deal": 617})
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    return game_id


def login(stranger: TestClient, query: str = "") -> TestClient:
    """Open the printed address ``/?token=…`` as the page's first visit does."""
    answer = stranger.get(f"/?token={serving.TOKEN}{query}", follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return stranger


# --- the token ---------------------------------------------------------------------------


def test_every_api_request_without_the_token_or_with_a_wrong_one_is_401_with_a_detail(
    player: TestClient, stranger: TestClient
) -> None:
    game_id = started(player)
    paths = player.get("/openapi.json").json()["paths"]
    wrong = {"Authorization": "token not-the-token-0123456789", "Content-Type": "application/json"}
    tried = 0
    for template, operations in paths.items():
        path = template.replace("{game_id}", game_id).replace("{lesson_id}", "foundations")
        for method in operations:
            for headers in ({}, wrong, {"Authorization": f"Basic {serving.TOKEN}"}):
                answer = stranger.request(method.upper(), path, headers=headers, json={"move": "7a"})
                assert answer.status_code == 401, (method, path, headers, answer.text)
                assert "freecell play" in answer.json()["detail"]
                assert answer.headers["www-authenticate"] == "token"
                tried += 1
    assert tried >= 60
    assert stranger.get("/openapi.json").status_code == 401
    assert player.get(f"/api/games/{game_id}").json()["moves"] == 0  # nothing was played


def test_scripts_get_in_with_authorization_token_or_bearer(stranger: TestClient) -> None:
    for scheme in ("token", "Token", "Bearer"):
        assert stranger.get("/api/rules", headers={"Authorization": f"{scheme} {serving.TOKEN}"}).status_code == 200


def test_the_first_visit_sets_the_cookie_and_the_token_leaves_the_address(stranger: TestClient) -> None:
    answer = stranger.get(f"/?game=abc&token={serving.TOKEN}&code=FC1", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/?game=abc&code=FC1"  # the other parameters stay
    assert answer.headers["cache-control"] == "no-store"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{cookie_name(80)}={serving.TOKEN};")
    assert {"HttpOnly", "Path=/", "SameSite=strict"} <= {part.strip() for part in cookie.split(";")}
    assert stranger.get(f"/?token={serving.TOKEN}", follow_redirects=False).headers["location"] == "/"
    # From now on the page works from the cookie alone.
    page = stranger.get("/")
    assert page.status_code == 200 and '<script type="module" src="static/js/main.js">' in page.text
    created = stranger.post("/api/games", json={"deal": 617}, headers={"Content-Type": "application/json"})
    assert created.status_code == 201
    assert stranger.get("/api/current").json() == {"id": created.json()["id"]}


def test_a_cookie_of_another_port_or_with_a_wrong_token_does_not_get_in(app: FastAPI) -> None:
    for name, value in ((cookie_name(8000), serving.TOKEN), (cookie_name(80), "wrong-token-0123456789")):
        with TestClient(app, base_url=serving.BASE, cookies={name: value}) as visitor:
            assert visitor.get("/api/rules").status_code == 401
            assert visitor.get("/").status_code == 401


def test_without_the_token_the_page_says_which_address_to_open(stranger: TestClient) -> None:
    for address in ("/", "/?game=abc", "/?token=wrong-token-0123456789"):
        page = stranger.get(address, follow_redirects=False)
        assert page.status_code == 401 and page.headers["content-type"].startswith("text/html")
        assert "Open the address that" in page.text and "<code>freecell play</code> printed" in page.text
        assert 'id="table"' not in page.text and "main.js" not in page.text  # no table that cannot load
        assert "set-cookie" not in page.headers
    assert stranger.get("/static/css/locked.css").status_code == 200  # what that page needs is public


def test_a_token_in_the_address_of_an_api_call_is_refused_even_with_the_cookie(stranger: TestClient) -> None:
    refused = stranger.get(f"/api/rules?token={serving.TOKEN}")
    assert refused.status_code == 401 and "Authorization: token" in refused.json()["detail"]
    login(stranger)
    assert stranger.get("/api/rules").status_code == 200
    for address in (f"/api/rules?token={serving.TOKEN}", f"/api/current?token={serving.TOKEN}&x=1"):
        refused = stranger.get(address)
        assert refused.status_code == 401, refused.text
        assert "Authorization: token" in refused.json()["detail"]


def test_a_chosen_token_must_be_long_and_fit_in_an_address(tmp_path: Path) -> None:
    for bad in ("", "short", "has space in it 0123", "x" * 129, "ünïcode-token-0123456"):
        with pytest.raises(ValueError, match="16 to 128 letters"):
            check_token(bad)
        with pytest.raises(ValueError, match="16 to 128 letters"):
            create_app(tmp_path / "games.db", token=bad)
    assert not (tmp_path / "games.db").exists()  # refused before the store was opened
    assert check_token("A-z_0.9~" * 2) == "A-z_0.9~" * 2


# --- the Host allow-list -----------------------------------------------------------------


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1:8000", "127.0.0.1.evil.example",
                                  "localhost.:80", "", "[::2]", "127.0.0.1:80@evil.example"])
def test_a_foreign_host_is_421_before_any_handler(player: TestClient, host: str) -> None:
    game_id = started(player)
    for method, path, body in (("GET", "/api/current", None), ("POST", f"/api/games/{game_id}/moves", {"move": "7a"}),
                               ("POST", "/api/lessons/tableau", None), ("GET", "/", None),
                               ("GET", "/static/js/main.js", None)):
        answer = player.request(method, path, json=body, headers={"Host": host})
        assert answer.status_code == 421, (host, method, path, answer.text)
        assert "does not answer to the name" in answer.json()["detail"]
    in_progress = game_in_progress(player)
    assert in_progress is not None and in_progress["id"] == game_id and in_progress["moves"] == 0


def test_the_loopback_names_and_the_served_addresses_are_let_in(player: TestClient) -> None:
    for host in ("127.0.0.1", "127.0.0.1:80", "localhost", "LOCALHOST:80", "[::1]", "[::1]:80", "freecell.lan"):
        assert player.get("/api/rules", headers={"Host": host}).status_code == 200, host


# --- cross-site requests -----------------------------------------------------------------


def test_a_foreign_origin_is_403(player: TestClient) -> None:
    game_id = started(player)
    for origin in ("http://evil.example", "null", "http://127.0.0.1:8000", "https://127.0.0.1", "http://localhost"):
        for method, path in (("POST", f"/api/games/{game_id}/moves"), ("POST", "/api/games"),
                             ("POST", "/api/lessons/tableau"), ("GET", "/api/current")):
            answer = player.request(method, path, json={"move": "7a", "deal": 1}, headers={"Origin": origin})
            assert answer.status_code == 403, (origin, path, answer.text)
            assert origin in answer.json()["detail"]
    in_progress = game_in_progress(player)
    assert in_progress is not None and in_progress["id"] == game_id and in_progress["moves"] == 0
    own = player.post(f"/api/games/{game_id}/moves", json={"move": "7a"}, headers={"Origin": "http://127.0.0.1"})
    assert own.status_code == 200  # the page's own origin


@pytest.mark.parametrize("content_type, body", [
    ("application/x-www-form-urlencoded", b"move=7a"),
    ("text/plain", b'{"move": "7a"}'),
    ("text/plain;charset=UTF-8", b'{"move": "7a"}'),
    ("multipart/form-data; boundary=x", b'--x\r\nContent-Disposition: form-data; name="move"\r\n\r\n7a\r\n--x--\r\n'),
    (None, b""),
])
def test_only_json_changes_state(stranger: TestClient, content_type: str | None, body: bytes) -> None:
    """A form or text/plain request, which any page may send without asking, is 415, even
    with the player's cookie; so is a body-less POST that is not declared JSON."""
    login(stranger)
    json_only = {"Content-Type": "application/json"}
    game_id = stranger.post("/api/games", json={"deal": 617}, headers=json_only).json()["id"]
    stranger.post(f"/api/games/{game_id}/moves", json={"move": "7a"}, headers=json_only)
    headers = {"content-type": content_type} if content_type else {}
    for path in ("moves", "undo", "redo", "restart", "pause", "resume", "finish", "rewind"):
        answer = stranger.post(f"/api/games/{game_id}/{path}", content=body, headers=headers)
        assert answer.status_code == 415, (path, answer.text)
        assert "application/json" in answer.json()["detail"]
    assert stranger.post("/api/lessons/tableau", content=body, headers=headers).status_code == 415
    assert stranger.post("/api/games", content=body, headers=headers).status_code == 415
    state = stranger.get(f"/api/games/{game_id}").json()
    assert state["moves"] == 1 and not state["paused"] and stranger.get("/api/current").json() == {"id": game_id}
    assert stranger.post(f"/api/games/{game_id}/undo", headers=json_only).json()["moves"] == 0  # JSON gets in


# --- headers -----------------------------------------------------------------------------


def test_every_answer_carries_the_security_headers_and_no_cors(player: TestClient, stranger: TestClient) -> None:
    answers = {
        "page": player.get("/"), "script": player.get("/static/js/main.js"), "api": player.get("/api/rules"),
        "404": player.get("/api/games/nope"), "401": stranger.get("/api/rules"), "locked page": stranger.get("/"),
        "421": player.get("/", headers={"Host": "evil.example"}),
        "403": player.get("/api/rules", headers={"Origin": "http://evil.example"}),
        "415": player.post("/api/games", content=b"x", headers={"Content-Type": "text/plain"}),
        "redirect": stranger.get(f"/?token={serving.TOKEN}", follow_redirects=False),
        "preflight": player.options("/api/games", headers={"Origin": "http://127.0.0.1",
                                                           "Access-Control-Request-Method": "POST"}),
    }
    for name, answer in answers.items():
        policy = answer.headers["content-security-policy"]
        directives = dict((part.strip().split(" ", 1) + [""])[:2] for part in policy.split(";"))
        assert directives["default-src"] == "'self'" and directives["script-src"] == "'self'", name
        assert directives["style-src"] == "'self'" and directives["frame-ancestors"] == "'none'", name
        assert "unsafe" not in policy, name
        assert answer.headers["x-content-type-options"] == "nosniff", name
        assert answer.headers["referrer-policy"] == "no-referrer", name
        assert not [header for header in answer.headers if header.lower().startswith("access-control-")], name


class _Inline(HTMLParser):
    """Collects what a strict CSP refuses in markup: inline scripts, style elements and
    attributes, and event-handler attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if (tag == "script" and "src" not in names) or tag == "style":
            self.found.append(f"<{tag}>")
        self.found += [f"{tag} {name}=" for name in names if name == "style" or name.startswith("on")]


@pytest.mark.parametrize("page", ["index.html", "locked.html"])
def test_the_pages_have_nothing_inline_that_the_policy_refuses(page: str) -> None:
    parser = _Inline()
    parser.feed((STATIC / page).read_text())
    assert parser.found == []
