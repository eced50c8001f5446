"""Game codes: a short text per deal that recreates it exactly, ruleset and cells included.

The form is ``FC1-<ruleset tag><cells>-<kind><number><check>``, for example
``FC1-ST4-N000000H1`` … :

* ``FC1``: the code's version;
* the ruleset's two-letter tag (``ST`` standard, ``SX`` strict, ``SM`` supermove,
  ``BG`` Baker's Game, ``EO`` Eight Off, ``DF`` Double, ``AP`` the 001 app,
  ``CD`` Cardems) and its number of cells;
* ``N`` and 7 characters for a deal number, or ``R`` and 13 characters for the 64-bit
  seed of a random deal, in Crockford's base 32 (``0-9 A-Z`` without ``I L O U``);
* one check character, so that a mistyped code is refused instead of dealing another
  game.

Reading is forgiving: case, spaces, and ``O``/``I``/``L`` typed for ``0``/``1``/``1``.
"""

from __future__ import annotations

import re
from typing import Final

from freecell.deals import MAX_DEAL, MAX_SEED, Deal, DealKind, InvalidDealError
from freecell.rules import UnknownRulesError, find_rules_by_code

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_WIDTH: Final = {DealKind.NUMBER: 7, DealKind.SEED: 13}
_KIND_LETTER: Final = {DealKind.NUMBER: "N", DealKind.SEED: "R"}
_CODE_RE: Final = re.compile(r"^FC1-([A-Z]{2})(\d{1,2})-([NR])([0-9A-Z]+)$")


class InvalidGameCodeError(ValueError):
    """A game code that cannot be read; the message says what is wrong."""


def _base32(value: int, width: int) -> str:
    digits = []
    for _ in range(width):
        value, digit = divmod(value, 32)
        digits.append(ALPHABET[digit])
    return "".join(reversed(digits))


def _check_char(body: str) -> str:
    total = sum((i + 1) * (ord(ch) + 1) for i, ch in enumerate(body))
    return ALPHABET[total % 31]  # 31 is prime: any single change or swap shows


def encode_game_code(deal: Deal) -> str:
    """The game code of ``deal``."""
    rules = deal.rules
    body = f"FC1-{rules.code}{rules.cells}-{_KIND_LETTER[deal.kind]}{_base32(deal.number, _WIDTH[deal.kind])}"
    return body + _check_char(body)


def decode_game_code(code: str) -> Deal:
    """The deal behind a game code. Raises :class:`InvalidGameCodeError` saying why."""
    cleaned = re.sub(r"\s+", "", code).upper()
    if not cleaned:
        raise InvalidGameCodeError("the game code is empty")
    head, _, tail = cleaned.rpartition("-")
    tail = tail.replace("O", "0").replace("I", "1").replace("L", "1")
    cleaned = f"{head}-{tail}" if head else tail
    match = _CODE_RE.match(cleaned[:-1]) if len(cleaned) > 1 else None
    if match is None:
        raise InvalidGameCodeError(
            f"not a game code: {code!r} (a code looks like {encode_game_code(Deal(find_rules_by_code('ST'), 1))})"
        )
    tag, cells_text, kind_letter, digits = match.groups()
    kind = DealKind.NUMBER if kind_letter == "N" else DealKind.SEED
    if len(digits) != _WIDTH[kind]:
        raise InvalidGameCodeError(
            f"not a game code: {code!r} ({kind_letter} is followed by {_WIDTH[kind]} characters and a check character)"
        )
    bad = sorted({ch for ch in digits if ch not in ALPHABET})
    if bad:
        raise InvalidGameCodeError(f"not a game code: {code!r} (it cannot contain {', '.join(bad)})")
    if _check_char(cleaned[:-1]) != cleaned[-1]:
        raise InvalidGameCodeError(f"the game code {code!r} does not check out: is a character mistyped?")
    try:
        rules = find_rules_by_code(tag)
        rules = rules.with_cells(int(cells_text))
    except UnknownRulesError:
        raise InvalidGameCodeError(f"the game code {code!r} names an unknown ruleset {tag!r}") from None
    except ValueError as error:
        raise InvalidGameCodeError(f"the game code {code!r} is wrong: {error}") from None
    number = 0
    for ch in digits:
        number = number * 32 + ALPHABET.index(ch)
    limit = MAX_DEAL if kind is DealKind.NUMBER else MAX_SEED
    if number > limit or (kind is DealKind.NUMBER and number < 1):
        raise InvalidGameCodeError(f"the game code {code!r} names deal {number}, which is out of range")
    try:
        return Deal(rules, number, kind)
    except InvalidDealError as error:
        raise InvalidGameCodeError(str(error)) from None
