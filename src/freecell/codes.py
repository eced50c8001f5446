"""Game codes: a short text per deal that recreates it exactly, ruleset and cells included.

The form is ``FC1-<ruleset tag><cells>-<kind><number><check>``, for example
``FC1-ST4-N00000K9Z`` for deal 617:

* ``FC1``: the code's version;
* the ruleset's two-letter tag (``ST`` standard, ``SX`` strict, ``SM`` supermove,
  ``BG`` Baker's Game, ``EO`` Eight Off, ``DF`` Double, ``AP`` the 001 app,
  ``CD`` Cardems) and its number of cells;
* ``N`` and 7 characters for a deal number, or ``R`` and 13 characters for the 64-bit
  seed of a random deal, in Crockford's base 32 (``0-9 A-Z`` without ``I L O U``);
* one check character (a weighted sum over GF(32)), so that a mistyped character or
  two swapped neighbours are refused instead of dealing another game.

Reading is forgiving: case, spaces, and ``O``/``I``/``L`` typed for ``0``/``1``/``1``.
"""

from __future__ import annotations

import re
from typing import Final

from freecell.deals import MAX_DEAL, MAX_SEED, Deal, DealKind, InvalidDealError
from freecell.errors import InvalidInputError
from freecell.rules import PRESETS, InvalidRulesError, UnknownRulesError, find_rules_by_code

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_WIDTH: Final = {DealKind.NUMBER: 7, DealKind.SEED: 13}
_KIND_LETTER: Final = {DealKind.NUMBER: "N", DealKind.SEED: "R"}
_RULES_PART_RE: Final = re.compile(r"^([A-Z]{2})([0-9]{1,2})$")
_EXAMPLE: Final = "FC1-ST4-N00000K9Z"  # deal 617


class InvalidGameCodeError(InvalidInputError):
    """A game code that cannot be read; the message says what is wrong."""


def _base32(value: int, width: int) -> str:
    digits = []
    for _ in range(width):
        value, digit = divmod(value, 32)
        digits.append(ALPHABET[digit])
    return "".join(reversed(digits))


def _gf32_times(a: int, b: int) -> int:
    """The product of ``a`` and ``b`` in GF(32), built on x^5 + x^2 + 1."""
    product = 0
    while b:
        if b & 1:
            product ^= a
        b >>= 1
        a <<= 1
        if a & 32:
            a ^= 0b100101
    return product


def _check_char(body: str) -> str:
    # A weighted sum in the field of 32 elements, the weight of each place a distinct
    # power of a generator (the body is shorter than 31): changing any one character of
    # the alphabet into another, or swapping two different neighbours, changes the sum.
    total = 0
    weight = 1
    for ch in body:
        value = ALPHABET.index(ch) if ch in ALPHABET else ord(ch) & 31
        weight = _gf32_times(weight, 2)
        total ^= _gf32_times(weight, value)
    return ALPHABET[total]


def encode_game_code(deal: Deal) -> str:
    """The game code of ``deal``."""
    rules = deal.rules
    body = f"FC1-{rules.code}{rules.cells}-{_KIND_LETTER[deal.kind]}{_base32(deal.number, _WIDTH[deal.kind])}"
    return body + _check_char(body)


def decode_game_code(code: str) -> Deal:
    """The deal behind a game code. Raises :class:`InvalidGameCodeError` saying what is
    wrong: the prefix, the ruleset part, the deal part, a character, the check, or the
    number."""
    cleaned = re.sub(r"\s+", "", code).upper()
    if not cleaned:
        raise InvalidGameCodeError("the game code is empty")
    parts = cleaned.split("-")
    if len(parts) != 3:
        raise InvalidGameCodeError(
            f"not a game code: {code!r} (a code has three parts joined by '-', like {_EXAMPLE})"
        )
    prefix, rules_part, deal_part = parts
    if prefix != "FC1":
        raise InvalidGameCodeError(f"not a game code: {code!r} (a game code starts with FC1-, not {prefix}-)")
    rules_match = _RULES_PART_RE.match(rules_part)
    if rules_match is None:
        raise InvalidGameCodeError(
            f"not a game code: {code!r} (its second part {rules_part!r} should be a ruleset tag "
            "and the number of cells, like ST4)"
        )
    deal_part = deal_part.replace("O", "0").replace("I", "1").replace("L", "1")
    kind_letter, digits, check = deal_part[:1], deal_part[1:-1], deal_part[-1:]
    if kind_letter not in ("N", "R"):
        raise InvalidGameCodeError(
            f"not a game code: {code!r} (its last part starts with N for a deal number or R for "
            "a random deal)"
        )
    kind = DealKind.NUMBER if kind_letter == "N" else DealKind.SEED
    bad = sorted({ch for ch in digits + check if ch not in ALPHABET})
    if bad:
        raise InvalidGameCodeError(
            f"not a game code: {code!r} (it cannot contain {', '.join(map(repr, bad))})"
        )
    if len(digits) != _WIDTH[kind]:
        raise InvalidGameCodeError(
            f"not a game code: {code!r} ({kind_letter} is followed by {_WIDTH[kind]} characters "
            f"and a check character, {_WIDTH[kind] + 1} in all, not {len(deal_part) - 1})"
        )
    body = f"{prefix}-{rules_part}-{kind_letter}{digits}"
    if _check_char(body) != check:
        raise InvalidGameCodeError(f"the game code {code!r} does not check out: is a character mistyped?")
    tag, cells_text = rules_match.groups()
    try:
        rules = find_rules_by_code(tag)
        rules = rules.with_cells(int(cells_text))
    except UnknownRulesError:
        tags = ", ".join(rules.code for rules in PRESETS.values())
        raise InvalidGameCodeError(
            f"the game code {code!r} names an unknown ruleset {tag!r} (known: {tags})"
        ) from None
    except InvalidRulesError as error:
        raise InvalidGameCodeError(f"the game code {code!r} is wrong: {error}") from None
    number = 0
    for ch in digits:
        number = number * 32 + ALPHABET.index(ch)
    limit = MAX_DEAL if kind is DealKind.NUMBER else MAX_SEED
    if number > limit or (kind is DealKind.NUMBER and number < 1):
        raise InvalidGameCodeError(
            f"the game code {code!r} names deal {number}, which is out of range (1 to {limit:,})"
        )
    try:
        return Deal(rules, number, kind)
    except InvalidDealError as error:
        raise InvalidGameCodeError(str(error)) from None
