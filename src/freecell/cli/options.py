"""Options and readers that several subcommands share."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click

from freecell.board_format import LayoutMismatchError
from freecell.cli import EXIT_BAD_INPUT
from freecell.codes import InvalidGameCodeError, decode_game_code
from freecell.deals import Deal, InvalidDealError, parse_deal_number
from freecell.position import InvalidPositionError, Position
from freecell.rules import PRESETS, Rules, find_rules

if TYPE_CHECKING:
    from freecell.solver import SearchLimit

F = TypeVar("F", bound=Callable[..., object])

#: The largest board or move list read, in bytes. A board takes under 1 kB and a solution
#: of 100,000 moves under 400 kB; a larger input is a mistake, refused before it is read.
MAX_INPUT_BYTES = 1_000_000


def rules_options(function: F) -> F:
    """``--rules NAME`` and ``--cells N``."""
    function = click.option(
        "--cells", type=int, default=None, help="Number of free cells, where the ruleset offers a choice."
    )(function)
    return click.option(
        "--rules", "rules_name", default="standard", show_default=True,
        help=f"Ruleset: {', '.join(PRESETS)} (or an alias).",
    )(function)


def fail(message: str) -> None:
    """Print ``message`` to standard error and exit with the bad-input status."""
    click.echo(f"freecell: {message}", err=True)
    sys.exit(EXIT_BAD_INPUT)


def resolve_rules(rules_name: str, cells: int | None) -> Rules:
    try:
        return find_rules(rules_name, cells=cells)
    except ValueError as error:
        fail(str(error))
        raise AssertionError from error  # unreachable: fail() exits


def resolve_deal(number: str | None, code: str | None, rules: Rules) -> Deal:
    """The deal of ``number`` (text, as typed) under ``rules``, or of the game ``code``."""
    if number is not None and code is not None:
        fail("give a deal number or a game code with --code, not both")
    try:
        if code is not None:
            return decode_game_code(code)
        if number is None:
            fail("name a deal number, or a game code with --code")
        assert number is not None
        return Deal(rules, parse_deal_number(number))
    except (InvalidGameCodeError, InvalidDealError) as error:
        fail(str(error))
        raise AssertionError from error


def resolve_limit(text: str) -> SearchLimit:
    """A search limit as ``--limit`` gives it (see :meth:`SearchLimit.from_text`)."""
    from freecell.solver import SearchLimit  # here: the commands that take no limit never import the solver

    try:
        return SearchLimit.from_text(text)
    except ValueError as error:
        fail(str(error))
        raise AssertionError from error


def read_text(source: str, what: str) -> str:
    """The text of the file ``source``, or of standard input for ``-``, which holds
    ``what`` (for the message). Refused with exit status 2 when it cannot be read, is
    larger than :data:`MAX_INPUT_BYTES` (checked before it is read whole) or is not UTF-8."""
    name = "standard input" if source == "-" else source
    try:
        if source == "-":
            if sys.stdin is None:
                fail("there is no standard input to read")
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with Path(source).open("rb") as file:
                data = file.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        fail(f"cannot read {name}: {error.strerror or error}")
    if len(data) > MAX_INPUT_BYTES:
        fail(f"{name} is larger than {MAX_INPUT_BYTES:,} bytes, far too large for {what}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        fail(f"{name} is not UTF-8 text (byte {error.start + 1} is {data[error.start]:#04x}): it cannot be {what}")
        raise AssertionError from error


def read_board(source: str, rules: Rules) -> Position:
    """A board in Freecell Solver's format from a file, or standard input for ``-``."""
    text = read_text(source, "a board")
    try:
        return Position.from_text(text, rules)
    except InvalidPositionError as error:
        looks_like = error.looks_like if isinstance(error, LayoutMismatchError) else ()
        hint = f" ({_rules_options(looks_like[0])})" if looks_like else ""
        fail(f"{'the board' if source == '-' else source}: {error}{hint}")
        raise AssertionError from error


def _rules_options(rules: Rules) -> str:
    preset = PRESETS[rules.name]
    cells = "" if rules.cells == preset.cells else f" --cells {rules.cells}"
    return f"try --rules {rules.name}{cells}"
