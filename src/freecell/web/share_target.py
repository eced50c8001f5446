"""Where the Share panel points, so that what a player sends opens for the one who gets it.

A link to a server that only this machine reaches would open for nobody else, and a link
to a server on the network still needs its token; the static site's own address opens
anywhere. The page asks ``GET /api/sharing`` and shares accordingly: a link, a link and a
word about the token, or the game code and deal number to type into any copy of the game.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from freecell.errors import InvalidInputError


class ShareMode(enum.Enum):
    """What Share gives."""

    PAGE = "page"  # the page's own address: the static site, which any browser opens
    SITE = "site"  # a published copy of the static site (freecell play --site-url)
    NETWORK = "network"  # this server over the network: the one who opens it needs the token too
    CODE = "code"  # this server answers only this machine: the game code and deal number to type


class InvalidSiteUrlError(InvalidInputError):
    """A site address that a browser could not open as the published game."""


@dataclass(frozen=True, slots=True)
class ShareTarget:
    """``mode``, with ``address``: the folder a shared link opens (``…/?code=…``) for
    :attr:`ShareMode.SITE` and :attr:`ShareMode.NETWORK`, None otherwise."""

    mode: ShareMode
    address: str | None = None

    def info(self) -> dict[str, str | None]:
        """The answer of ``GET /api/sharing``."""
        return {"mode": self.mode.value, "address": self.address}


PAGE: Final = ShareTarget(ShareMode.PAGE)
CODE: Final = ShareTarget(ShareMode.CODE)


def check_site_url(text: str) -> str:
    """``text`` if it is the address of a published static site (``http`` or ``https``,
    a host, no query or fragment, since Share adds ``?code=…``); raises
    :class:`InvalidSiteUrlError` saying what is wrong."""
    url = text.strip()
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (reading it checks that the port is a number in range)
    except ValueError as error:
        raise InvalidSiteUrlError(f"not a web address: {text!r} ({error})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidSiteUrlError(f"not a web address: {text!r} (write it like https://example.org/freecell/)")
    if parts.query or parts.fragment or url.endswith(("?", "#")):
        raise InvalidSiteUrlError(f"the site address {text!r} has a query or fragment: give the page's folder only")
    if any(char.isspace() or ord(char) < 32 for char in url):
        raise InvalidSiteUrlError(f"the site address {text!r} holds a space or a control character")
    return url
