"""Freecell Solver's board format, read and written, mid-game positions included.

::

    Foundations: H-0 C-2 D-A S-0
    Freecells: 5H - - -
    : JD KD 2S 4C 3S 6D 6S
    : 2D KC KS 5C TD 8S 9C
    ...

The ``Foundations:`` and ``Freecells:`` lines are optional (empty when absent); an empty
cell is ``-``, or a blank in fc-solve's own layout of four characters per cell. Each
other line is one column, listed from the card dealt first (the deepest) to the exposed
card; a leading ``:`` is allowed, and a line holding only ``:`` is an empty column.
A foundation names a suit and the rank of its top card (``0`` or ``-`` when empty).
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from freecell.cards import (
    KING,
    RANK_LETTERS,
    SUIT_LETTERS,
    Card,
    InvalidCardError,
    card_name,
    make_card,
    parse_card,
    parse_suit,
)
from freecell.position import InvalidPositionError, Position
from freecell.rules import STANDARD, Rules

_EMPTY_CELL: Final = {"-", "--", "---", "[]"}
_FOUNDATION_ORDER: Final = (2, 0, 1, 3)  # H C D S, the order fc-solve writes


def parse_board(text: str, rules: Rules | None = None, *, partial: bool = False) -> Position:
    """Read a board. With ``partial`` (the lessons' small positions) cards may be missing.

    Raises :class:`InvalidPositionError` with a message that names the problem: an
    unknown card, a card missing or there too often, too many cells or columns.
    """
    rules = rules or STANDARD
    foundations = [0] * rules.foundation_count
    cells: list[Card | None] = []
    columns: list[tuple[Card, ...]] = []
    saw_foundations = saw_cells = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        head, _, rest = line.partition(":")
        label = head.strip().lower()
        if label == "foundations" and ":" in line:
            if saw_foundations:
                raise InvalidPositionError(f"line {number}: a second Foundations line")
            saw_foundations = True
            foundations = _parse_foundations(rest, rules, number)
        elif label in ("freecells", "free cells", "cells") and ":" in line:
            if saw_cells:
                raise InvalidPositionError(f"line {number}: a second Freecells line")
            saw_cells = True
            cells = _parse_cells(rest, number)
        else:
            body = line[1:] if line.startswith(":") else line
            columns.append(tuple(_card(token, number) for token in body.split()))
    if len(cells) > rules.cells:
        used = sum(1 for card in cells if card is not None)
        if used > rules.cells:
            raise InvalidPositionError(
                f"{used} cards in cells, but {rules.name} has only {rules.cells} cells"
            )
        cells = [card for card in cells if card is not None]
    cells += [None] * (rules.cells - len(cells))
    if len(columns) > rules.columns:
        raise InvalidPositionError(
            f"{len(columns)} columns, but {rules.name} has only {rules.columns}"
        )
    columns += [()] * (rules.columns - len(columns))
    position = Position(tuple(columns), tuple(cells), tuple(foundations))
    check_cards(position, rules, partial=partial)
    return position


def _card(token: str, line: int) -> Card:
    try:
        return parse_card(token)
    except InvalidCardError as error:
        raise InvalidPositionError(f"line {line}: {error}") from None


def _parse_cells(rest: str, line: int) -> list[Card | None]:
    """The cells of a ``Freecells:`` line. Empty cells are written ``-``, or, as fc-solve
    prints its boards, as blanks in a layout of four characters per cell."""
    tokens = rest.split()
    if not any(token in _EMPTY_CELL for token in tokens) and _is_fixed_width(rest):
        slots = [rest[i : i + 4].strip() for i in range(0, len(rest), 4)]
        return [_card(slot, line) if slot else None for slot in slots]
    return [None if token in _EMPTY_CELL else _card(token, line) for token in tokens]


def _is_fixed_width(rest: str) -> bool:
    if len(rest) % 4:
        return False
    slots = [rest[i : i + 4] for i in range(0, len(rest), 4)]
    return all(slot.isspace() or (slot[0] == " " and " " not in slot.strip()) for slot in slots)


def _parse_foundations(rest: str, rules: Rules, line: int) -> list[int]:
    piles = [0] * rules.foundation_count
    seen: Counter[int] = Counter()
    for token in rest.split():
        suit_text, dash, rank_text = token.partition("-")
        try:
            suit = parse_suit(suit_text)
        except InvalidCardError:
            raise InvalidPositionError(f"line {line}: not a foundation: {token!r}") from None
        rank = _foundation_rank(rank_text.upper()) if dash else None
        if rank is None:
            raise InvalidPositionError(
                f"line {line}: not a foundation: {token!r} (write the suit and its top rank, like 'H-5')"
            )
        copy = seen[suit]
        seen[suit] += 1
        if copy >= rules.decks:
            raise InvalidPositionError(f"line {line}: too many {SUIT_LETTERS[suit]} foundations")
        piles[suit + 4 * copy] = rank
    return piles


def _foundation_rank(text: str) -> int | None:
    if text in ("0", "-", ""):
        return 0
    if text.isdigit() and 1 <= int(text) <= KING:
        return int(text)
    if len(text) == 1 and text in RANK_LETTERS:
        return RANK_LETTERS.index(text) + 1
    return None


def check_cards(position: Position, rules: Rules, *, partial: bool = False) -> None:
    """Raise :class:`InvalidPositionError` unless every card is there exactly as often as
    the decks hold it (or at most that often, with ``partial``)."""
    counts: Counter[Card] = Counter(position.cards())
    for pile, height in enumerate(position.foundations):
        counts.update(make_card(rank, pile % 4) for rank in range(1, height + 1))
    copies = rules.decks
    problems = []
    too_many = sorted(card for card, n in counts.items() if n > copies)
    if too_many:
        names = ", ".join(card_name(card) for card in too_many)
        problems.append(f"cards there more than {_times(copies)}: {names}")
    missing = [] if partial else sorted(card for card in range(52) for _ in range(copies - counts[card]))
    if missing:
        names = ", ".join(card_name(card) for card in missing)
        problems.append(f"{len(missing)} card{'s' if len(missing) > 1 else ''} missing: {names}")
    if problems:
        raise InvalidPositionError("; ".join(problems))


def _times(copies: int) -> str:
    return "once" if copies == 1 else f"{copies} times"


def format_board(position: Position) -> str:
    """Write the board so that ``fc-solve`` reads it as it is."""
    piles = position.foundations
    parts: list[str] = []
    for copy in range(0, len(piles), 4):
        parts.extend(
            f"{SUIT_LETTERS[suit]}-{piles[copy + suit]}" for suit in _FOUNDATION_ORDER
        )
    cells = " ".join("-" if card is None else card_name(card) for card in position.cells)
    lines = [f"Foundations: {' '.join(parts)}", f"Freecells: {cells}".rstrip()]
    lines.extend(
        (": " + " ".join(card_name(card) for card in column)).rstrip()
        for column in position.columns
    )
    return "\n".join(lines) + "\n"
