"""``freecell rules``, ``deal`` and ``replay``: the core library on the command line."""

from __future__ import annotations

import sys

import click

from freecell.cli.options import fail, read_board, read_text, resolve_deal, resolve_rules, rules_options
from freecell.deals import random_deal
from freecell.notation import InvalidMoveError, parse_move_text, split_moves
from freecell.replay import ReplayError, replay
from freecell.rules import PRESETS


@click.command("rules")
def rules_command() -> None:
    """List the rulesets, one a line: the name, then what it is."""
    for rules in PRESETS.values():
        click.echo(rules.summary())


@click.command("deal")
@click.argument("number", required=False)
@rules_options
@click.option(
    "--code", "code", is_flag=False, flag_value="", default=None,
    help="With a deal number: print its game code. With a value: deal that game code.",
)
@click.option("--random", "random_", is_flag=True, help="A new random deal.")
def deal_command(number: str | None, rules_name: str, cells: int | None, code: str | None, random_: bool) -> None:
    """Print deal NUMBER in Freecell Solver's board format (fc-solve reads it as it is)."""
    rules = resolve_rules(rules_name, cells)
    if random_ and (number is not None or code):
        fail("give --random or a deal (a number or --code), not both")
    if random_:
        deal = random_deal(rules)
    else:
        deal = resolve_deal(number, code or None, rules)
    if code == "":
        click.echo(deal.code())
        return
    click.echo(deal.position().to_text(), nl=False)


@click.command("replay")
@click.argument("arguments", nargs=-1, metavar="[NUMBER] [SOLUTION]")
@rules_options
@click.option("--code", default=None, help="Replay over the deal of this game code.")
@click.option("--board", "board", default=None, help="Replay from a board file instead of a deal.")
def replay_command(
    arguments: tuple[str, ...], rules_name: str, cells: int | None, code: str | None, board: str | None
) -> None:
    """Replay SOLUTION (a file, or - for standard input, the default) over deal NUMBER,
    or over the deal of --code, or from the position of --board.

    Exit status 0 when the moves win, 1 when a move is illegal or the game is not won,
    2 for bad input: a file that cannot be read, is too large or is not text, or words
    that are not moves in standard notation.
    """
    rules = resolve_rules(rules_name, cells)
    if board is not None and code is not None:
        fail("give --board or --code, not both")
    number, solution = _replay_arguments(arguments, given_start=board is not None or code is not None)
    if board == "-" and solution == "-":
        fail("the board and the moves cannot both come from standard input: give one as a file")
    if board is not None:
        start = read_board(board, rules)
    else:
        deal = resolve_deal(number, code, rules)
        rules, start = deal.rules, deal.position()
    moves = _read_moves(solution)
    try:
        end = replay(start, rules, moves)
    except ReplayError as error:
        click.echo(str(error))
        sys.exit(1)
    if end.is_won():
        click.echo(f"won: {len(moves)} moves, all {rules.card_count} cards home")
        return
    click.echo(
        f"not won: the {len(moves)} moves are legal, but only {end.cards_home} of {rules.card_count} cards are home"
    )
    sys.exit(1)


def _replay_arguments(arguments: tuple[str, ...], *, given_start: bool) -> tuple[str | None, str]:
    """The deal number and the solution's file: with --code or --board the only argument
    is the solution."""
    if given_start:
        if len(arguments) > 1:
            fail("with --code or --board, give only the solution file (or -)")
        return None, arguments[0] if arguments else "-"
    if len(arguments) > 2:
        fail("give a deal number and a solution file (or -)")
    if not arguments:
        return None, "-"
    return arguments[0], arguments[1] if len(arguments) > 1 else "-"


def _read_moves(source: str) -> list[str]:
    """The moves of a solution file (``-``: standard input). Input that is not moves at
    all (not text, too large, empty, or a word that is not notation) is bad input, exit
    status 2; whether the moves are legal is the replay's to say."""
    name = "standard input" if source == "-" else source
    moves = split_moves(read_text(source, "a list of moves"))
    if not moves:
        fail(f"{name} holds no moves")
    for number, text in enumerate(moves, start=1):
        try:
            parse_move_text(text)
        except InvalidMoveError as error:
            fail(f"{name}: move {number}: {error}")
    return moves
