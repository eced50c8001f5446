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
from dataclasses import dataclass
from typing import Final

from freecell.cards import (
    KING,
    RANK_LETTERS,
    SUIT_LETTERS,
    Card,
    InvalidCardError,
    card_label,
    card_name,
    make_card,
    parse_card,
    parse_suit,
)
from freecell.position import InvalidPositionError, Position
from freecell.rules import PRESETS, STANDARD, Rules, cells_text

_EMPTY_CELL: Final = {"-", "--", "---", "[]"}
_FOUNDATION_ORDER: Final = (2, 0, 1, 3)  # H C D S, the order fc-solve writes


class LayoutMismatchError(InvalidPositionError):
    """A board laid out for other rules: more cards in cells, or more columns, than the
    ruleset has, more cells listed than it can ever have, or another number of decks.
    :attr:`looks_like` holds the rulesets it would fit, the likeliest first (empty when
    none does)."""

    def __init__(self, message: str, looks_like: tuple[Rules, ...]) -> None:
        if looks_like:
            names = ", ".join(_rules_words(rules) for rules in looks_like[:3])
            message += f": it looks like {names}"
        super().__init__(message)
        self.looks_like = looks_like


@dataclass(frozen=True, slots=True)
class _Layout:
    """What a board text lays out, before any rules: the cells its Freecells line lists
    (with how many hold a card), its columns, and its decks."""

    cells: int
    cells_listed: bool
    cards_in_cells: int
    columns: int
    decks: int  # 0: more cards than any number of decks would explain

    def problem(self, rules: Rules, *, partial: bool = False) -> str | None:
        """Why the layout does not fit ``rules``, or None. A partial board may have fewer
        decks than the rules."""
        if self.decks and (self.decks > rules.decks or (self.decks < rules.decks and not partial)):
            return f"laid out with {_decks(self.decks)}, but {rules.name} is played with {_decks(rules.decks)}"
        if self.columns > rules.columns:
            return f"laid out in {self.columns} columns, but {rules.name} has only {rules.columns}"
        if self.cards_in_cells > rules.cells:
            return f"{self.cards_in_cells} cards in cells, but {rules.name} has only {cells_text(rules.cells)}"
        # Listing more cells than the ruleset has is fine while they are empty, up to as
        # many as it can be played with (a 4-cell board under app with 2 cells).
        if self.cells > max(rules.cell_options):
            return f"laid out with {cells_text(self.cells)}, but {rules.name} has at most {max(rules.cell_options)}"
        return None

    def looks_like(self, chosen: Rules) -> tuple[Rules, ...]:
        """The rulesets whose layout holds this board: exactly as many cells and columns
        first, the chosen preset (with other cells) before the others."""
        fits = [
            rules.with_cells(cells)
            for rules in PRESETS.values()
            for cells in rules.cell_options
            if self.problem(rules.with_cells(cells)) is None
        ]
        def likeness(rules: Rules) -> tuple[bool, bool, bool]:
            cells = self.cells if self.cells_listed else PRESETS[rules.name].cells
            return rules.columns != self.columns, rules.cells != cells, rules.name != chosen.name

        return tuple(sorted(fits, key=likeness))


def parse_board(text: str, rules: Rules | None = None, *, partial: bool = False) -> Position:
    """Read a board. With ``partial`` (the lessons' small positions) cards may be missing.

    Raises :class:`LayoutMismatchError` when the board is laid out for other rules (more
    cells or columns than ``rules`` have, or another number of decks), naming the rules it
    looks like, and :class:`InvalidPositionError` with a message that names the problem
    for anything else: an unknown card, a card missing or there too often.
    """
    rules = rules or STANDARD
    foundation_tokens: list[tuple[int, int]] = []  # (suit, rank), in the order written
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
            foundation_tokens = _parse_foundations(rest, number)
        elif label in ("freecells", "free cells", "cells") and ":" in line:
            if saw_cells:
                raise InvalidPositionError(f"line {number}: a second Freecells line")
            saw_cells = True
            cells = _parse_cells(rest, number)
        else:
            body = line[1:] if line.startswith(":") else line
            columns.append(tuple(_card(token, number) for token in body.split()))
    layout = _layout(foundation_tokens, cells, columns, cells_listed=saw_cells)
    problem = layout.problem(rules, partial=partial)
    if problem is not None:
        raise LayoutMismatchError(problem, layout.looks_like(rules))
    if len(cells) > rules.cells:  # the cards move up into the cells the rules have
        cells = [card for card in cells if card is not None]
    cells += [None] * (rules.cells - len(cells))
    columns += [()] * (rules.columns - len(columns))
    position = Position(tuple(columns), tuple(cells), _piles(foundation_tokens, rules))
    check_cards(position, rules, partial=partial)
    return position


def _layout(
    foundations: list[tuple[int, int]], cells: list[Card | None], columns: list[tuple[Card, ...]], *,
    cells_listed: bool,
) -> _Layout:
    copies = Counter(suit for suit, _ in foundations)
    cards = sum(rank for _, rank in foundations) + sum(map(len, columns)) + sum(c is not None for c in cells)
    # A foundation line with two piles of a suit says two decks; so do more cards than
    # one deck holds by half (a card or two too many is a typing mistake, not a deck).
    # Far more cards than two decks hold is no layout at all (0): check_cards names them.
    decks = max(max(copies.values(), default=1), 1 if cards <= 52 + 26 else 2 if cards <= 104 + 26 else 0)
    return _Layout(len(cells), cells_listed, sum(c is not None for c in cells), len(columns), decks)


def _piles(foundations: list[tuple[int, int]], rules: Rules) -> tuple[int, ...]:
    piles = [0] * rules.foundation_count
    seen: Counter[int] = Counter()
    for suit, rank in foundations:
        piles[suit + 4 * seen[suit]] = rank
        seen[suit] += 1
    return tuple(piles)


def _decks(count: int) -> str:
    return "one deck" if count == 1 else f"{count} decks"


def _rules_words(rules: Rules) -> str:
    preset = PRESETS[rules.name]
    return rules.name if rules.cells == preset.cells else f"{rules.name} with {cells_text(rules.cells)}"


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


def _parse_foundations(rest: str, line: int) -> list[tuple[int, int]]:
    """Each foundation of a ``Foundations:`` line: its suit and the rank of its top card."""
    piles = []
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
        piles.append((suit, rank))
    copies = Counter(suit for suit, _ in piles)
    if copies and max(copies.values()) > 2:
        suit = max(copies, key=copies.__getitem__)
        raise InvalidPositionError(f"line {line}: too many {SUIT_LETTERS[suit]} foundations")
    return piles


def _foundation_rank(text: str) -> int | None:
    if text in ("0", "-", ""):
        return 0
    if len(text) <= 2 and text.isascii() and text.isdigit() and 1 <= int(text) <= KING:  # not '²', nor 5,000 digits
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
        names = ", ".join(card_label(card) for card in too_many)
        problems.append(f"cards there more than {_times(copies)}: {names}")
    missing = [] if partial else sorted(card for card in range(52) for _ in range(copies - counts[card]))
    if missing:
        names = ", ".join(card_label(card) for card in missing)
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
