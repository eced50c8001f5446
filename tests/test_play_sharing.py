"""``freecell play`` beyond loopback: a tokened address for each of the machine's addresses,
a QR code of it drawn in the terminal, a one-line warning, and never a server without a token."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from click.testing import CliRunner

import serving
from freecell.cli import main, sharing
from freecell.web.security import TOKEN_PATTERN

# segno's compact drawing: two rows of modules a line, 1 for a dark module.
HALF_BLOCKS = {" ": (1, 1), "\u2580": (0, 1), "\u2584": (1, 0), "\u2588": (0, 0)}
BORDER = 4


def read_qr(drawing: list[str]) -> list[list[int]]:
    """The module matrix (1 = dark) a terminal drawing shows, its quiet zone checked and removed."""
    rows: list[list[int]] = []
    for line in drawing:
        pairs = [HALF_BLOCKS[char] for char in line]
        rows += [[top for top, _ in pairs], [bottom for _, bottom in pairs]]
    size = len(rows[0]) - 2 * BORDER
    rows = rows[: size + 2 * BORDER]  # an odd count of rows leaves a half line
    assert all(len(row) == size + 2 * BORDER for row in rows)
    quiet = rows[:BORDER] + rows[-BORDER:] + [row[:BORDER] + row[-BORDER:] for row in rows]
    assert not any(any(row) for row in quiet), "the quiet zone is not light"
    return [row[BORDER:-BORDER] for row in rows[BORDER:-BORDER]]


def drawn_codes(output: str) -> dict[str, list[list[int]]]:
    """Each address the output offers to scan, with the matrix of the QR code drawn below it."""
    codes: dict[str, list[list[int]]] = {}
    lines = output.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("On a phone on the same network, open "):
            url = line.split()[-3]
            drawing = []
            for row in lines[number + 1:]:
                if not row or set(row) - set(HALF_BLOCKS):
                    break
                drawing.append(row)
            codes[url] = read_qr(drawing)
    return codes


def library_matrix(url: str) -> list[list[int]]:
    return [list(row) for row in sharing.qr_code(url).matrix]


@pytest.mark.slow
def test_a_server_on_127_0_0_2_is_reached_only_with_its_token_and_its_qr_code_reads_back(tmp_path: Path) -> None:
    server = serving.start(tmp_path, "--host", "127.0.0.2")
    try:
        output = server.output()
        assert server.base.startswith("http://127.0.0.2:")
        assert TOKEN_PATTERN.fullmatch(server.token) and len(server.token) >= 32  # a token made at start
        assert output.count(sharing.WARNING) == 1
        assert f"{sharing.WARNING}\n" in output  # one line of its own
        codes = drawn_codes(output)
        assert list(codes) == [server.url]
        assert codes[server.url] == library_matrix(server.url)

        for headers in ({}, {"Authorization": "token wrong-token-0123456789"}):
            refused = httpx.get(f"{server.base}/api/rules", headers=headers)
            assert refused.status_code == 401 and "freecell play" in refused.json()["detail"]
        assert httpx.get(f"{server.base}/", headers={}).status_code == 401
        assert httpx.get(f"{server.base}/api/rules", headers=server.headers).status_code == 200
        foreign = httpx.get(f"{server.base}/api/rules", headers={**server.headers, "Host": "evil.example"})
        assert foreign.status_code == 421
        page = httpx.get(server.url)  # the printed address: a cookie, and the address without the token
        assert page.status_code == 303 and page.headers["location"] == "/"
        assert httpx.get(f"{server.base}/", cookies=page.cookies).status_code == 200
    finally:
        server.stop()


def test_the_token_comes_from_freecell_token_and_the_qr_code_and_warning_follow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole of what `play --host` prints, through the command, without serving."""
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    token = "chosen-token-0123456789"
    result = CliRunner().invoke(
        main, ["play", "--no-browser", "--host", "127.0.0.2", "--db", str(tmp_path / "g.db")],
        env={"FREECELL_TOKEN": token},
    )
    assert result.exit_code == 0, result.output
    url = serving.printed_address(result.output)
    assert url is not None and url.startswith("http://127.0.0.2:") and url.endswith(f"/?token={token}")
    assert result.output.splitlines()[-1] == sharing.WARNING
    assert drawn_codes(result.output) == {url: library_matrix(url)}


@pytest.mark.parametrize("token", ["", "short", "has spaces in it 0123456", "é" * 20])
def test_a_token_too_short_or_not_fit_for_an_address_is_refused(tmp_path: Path, token: str) -> None:
    result = CliRunner().invoke(main, ["play", "--no-browser", "--host", "127.0.0.2", "--token", token,
                                       "--db", str(tmp_path / "g.db")])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "--token: a token is 16 to 128" in result.output


def test_the_default_address_prints_no_qr_code_and_no_warning() -> None:
    lines = sharing.announcement("127.0.0.1", ["127.0.0.1"], 8000, "a-token-0123456789abc", "/tmp/g.db")
    assert [text for text, _ in lines] == [
        "FreeCell is served at http://127.0.0.1:8000/?token=a-token-0123456789abc (games are kept in /tmp/g.db); "
        "press Ctrl+C to stop."
    ]


def test_the_wildcard_address_offers_each_machine_address_with_its_token_and_code(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sharing, "machine_addresses", lambda family: ["192.168.1.5", "10.0.0.7"])
    addresses = sharing.served_addresses("0.0.0.0")
    assert addresses == ["127.0.0.1", "192.168.1.5", "10.0.0.7"]
    lines = sharing.announcement("0.0.0.0", addresses, 8000, "a-token-0123456789abc", "/tmp/g.db")
    output = "\n".join(text for text, _ in lines)
    assert lines[0][0].startswith("FreeCell is served at http://127.0.0.1:8000/?token=a-token-0123456789abc ")
    wanted = [f"http://{host}:8000/?token=a-token-0123456789abc" for host in ("192.168.1.5", "10.0.0.7")]
    codes = drawn_codes(output)
    assert list(codes) == wanted
    assert all(codes[url] == library_matrix(url) for url in wanted)
    assert [text for text, drawing in lines if not drawing][-1] == sharing.WARNING
    assert all(drawing == (set(text) <= set(HALF_BLOCKS)) for text, drawing in lines)  # QR lines are marked


def test_the_machine_addresses_are_ones_another_device_can_reach() -> None:
    for family, wildcard in ((sharing.socket.AF_INET, "0.0.0.0"), (sharing.socket.AF_INET6, "::")):
        for text in sharing.machine_addresses(family):
            address = ipaddress.ip_address(text)
            assert address.version == (4 if family == sharing.socket.AF_INET else 6)
            assert not (address.is_loopback or address.is_link_local or address.is_unspecified), text
        assert ipaddress.ip_address(sharing.served_addresses(wildcard)[0]).is_loopback
    assert sharing.tokened_url("fd00::2", 80, "t" * 16) == f"http://[fd00::2]:80/?token={'t' * 16}"


def test_the_browser_is_opened_at_the_tokened_address(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from freecell.cli import play_commands

    opened: list[str] = []

    class AtOnce:  # the thread that opens the browser, run before the command returns
        def __init__(self, target: Any, args: tuple[Any, ...], daemon: bool) -> None:
            self.target, self.args = target, args

        def start(self) -> None:
            self.target(*self.args)

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    monkeypatch.setattr(play_commands.threading, "Thread", AtOnce)
    monkeypatch.setattr(play_commands, "_open_browser", lambda server, url: opened.append(url))
    result = CliRunner().invoke(main, ["play", "--db", str(tmp_path / "g.db")],
                                env={"FREECELL_TOKEN": "chosen-token-0123456789"})
    assert result.exit_code == 0, result.output
    assert opened == [serving.printed_address(result.output)]
    assert opened[0].startswith("http://127.0.0.1:") and opened[0].endswith("/?token=chosen-token-0123456789")
