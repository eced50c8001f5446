"""Options and readers that several subcommands share."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

from freecell.codes import InvalidGameCodeError, decode_game_code
from freecell.deals import Deal, InvalidDealError
from freecell.position import InvalidPositionError, Position
from freecell.rules import PRESETS, Rules, find_rules

F = TypeVar("F", bound=Callable[..., object])

EXIT_BAD_INPUT = 2


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


def resolve_deal(number: int | None, code: str | None, rules: Rules) -> Deal:
    try:
        if code:
            return decode_game_code(code)
        if number is None:
            fail("name a deal number, or a game code with --code")
        assert number is not None
        return Deal(rules, number)
    except (InvalidGameCodeError, InvalidDealError) as error:
        fail(str(error))
        raise AssertionError from error


def read_board(source: str, rules: Rules) -> Position:
    """A board in Freecell Solver's format from a file, or standard input for ``-``."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {source}: {error.strerror}")
    try:
        return Position.from_text(text, rules)
    except InvalidPositionError as error:
        fail(f"{'the board' if source == '-' else source}: {error}")
        raise AssertionError from error
