"""Where ``freecell play`` says it is served: the tokened addresses, and for a phone on the
same network a QR code drawn in the terminal with a one-line warning."""

from __future__ import annotations

import contextlib
import io
import ipaddress
import socket
from typing import Final

import segno

from freecell.web.security import LOOPBACK_NAMES, host_name
from freecell.web.share_target import CODE, ShareMode, ShareTarget

WARNING: Final = "Warning: anyone on the network who has this address can play and read your games."
# Addresses kept for documentation: connecting a UDP socket to one sends nothing, but tells
# which of the machine's addresses the default route would use.
_PROBES: Final = {socket.AF_INET: "192.0.2.1", socket.AF_INET6: "2001:db8::1"}


def is_local(host: str) -> bool:
    """Whether binding ``host`` serves only this machine's browser (the default)."""
    return host.strip("[]").lower() in LOOPBACK_NAMES


def served_addresses(host: str) -> list[str]:
    """The addresses at which a server bound to ``host`` can be reached: ``host`` itself, or,
    for the wildcard 0.0.0.0 or ::, loopback first (this machine's browser) and then each
    of the machine's own addresses (for a phone)."""
    if host in ("0.0.0.0", ""):
        return ["127.0.0.1", *machine_addresses(socket.AF_INET)]
    if host == "::":
        return ["::1", *machine_addresses(socket.AF_INET6), *machine_addresses(socket.AF_INET)]
    return [host]


def machine_addresses(family: socket.AddressFamily) -> list[str]:
    """The machine's addresses of ``family`` that another device could reach (no loopback,
    no link-local), found without a dependency and without sending a packet."""
    found: list[str] = []
    with contextlib.suppress(OSError):
        found += [str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None, family)]
    with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as probe:
        probe.connect((_PROBES[family], 9))
        found.append(str(probe.getsockname()[0]))
    reachable = []
    for text in dict.fromkeys(found):
        address = ipaddress.ip_address(text.split("%")[0])
        if not (address.is_loopback or address.is_link_local or address.is_unspecified):
            reachable.append(str(address))
    return reachable


def tokened_url(host: str, port: int, token: str) -> str:
    """The address a player opens: ``http://HOST:PORT/?token=TOKEN``."""
    return f"http://{host_name(host)}:{port}/?token={token}"


def share_target(host: str, addresses: list[str], port: int, site_url: str | None) -> ShareTarget:
    """Where the Share panel of a server bound to ``host``, serving at ``addresses`` (see
    :func:`served_addresses`) on ``port``, points: the published site ``site_url`` if
    given; else, as :func:`announcement` offers a phone, the first address another device
    reaches (``host`` itself when named); else nowhere: the game code is shared instead."""
    if site_url is not None:
        return ShareTarget(ShareMode.SITE, site_url)
    if is_local(host):
        return CODE
    named = [] if host in ("0.0.0.0", "::", "") else [host]
    remote = [address for address in addresses if not _loopback(address)] or named
    return ShareTarget(ShareMode.NETWORK, f"http://{host_name(remote[0])}:{port}/") if remote else CODE


def qr_code(url: str) -> segno.QRCode:
    """The QR code drawn for ``url`` (a full QR code, never a micro one)."""
    return segno.make_qr(url, error="m")


def qr_text(url: str) -> str:
    """``url``'s QR code in Unicode half blocks, two rows a line, light modules drawn."""
    drawing = io.StringIO()
    qr_code(url).terminal(out=drawing, compact=True)
    return drawing.getvalue().rstrip("\n")


def announcement(host: str, addresses: list[str], port: int, token: str, store: str) -> list[tuple[str, bool]]:
    """What ``freecell play --host HOST`` prints, serving at ``addresses`` (see
    :func:`served_addresses`), line by line, each with whether it is a line of a QR code.
    The first line holds the address to open on this machine; beyond loopback, a QR code
    for each address a phone can reach and the warning follow."""
    urls = [tokened_url(address, port, token) for address in addresses]
    lines = [(f"FreeCell is served at {urls[0]} (games are kept in {store}); press Ctrl+C to stop.", False)]
    if is_local(host):
        return lines
    remote = [url for address, url in zip(addresses, urls, strict=True) if not _loopback(address)]
    for url in remote or urls[:1]:
        lines.append((f"On a phone on the same network, open {url} or scan:", False))
        lines += [(row, True) for row in qr_text(url).split("\n")]
    lines.append((WARNING, False))
    return lines


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return address == "localhost"
