"""The ``freecell`` command. Each subcommand lives in its own module and only calls the
library: every rule, score and verdict is decided there."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from freecell.cli.core_commands import deal_command, replay_command, rules_command
from freecell.cli.options import EXIT_BAD_INPUT

EXIT_BROKEN_PIPE = 128 + 13  # as a shell reports a process stopped by SIGPIPE


class _OneLineError(click.ClickException):
    """A usage error told in one line on standard error, as every bad input is."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file: Any = None) -> None:
        click.echo(f"freecell: {self.format_message()}", err=True)


@contextmanager
def _in_one_line() -> Iterator[None]:
    try:
        yield
    except _OneLineError:
        raise
    except click.ClickException as error:
        context = getattr(error, "ctx", None)
        where = f" (see {context.command_path} --help)" if context is not None else ""
        raise _OneLineError(error.format_message().replace("\n", " ") + where) from None


class _Command(click.Group):
    """The ``freecell`` group: click's usage errors (an unknown option, a value that is not
    a number) come out as one line, like every other refusal, not as a usage block."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        with _in_one_line():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with _in_one_line():
                return super().invoke(ctx)
        except BrokenPipeError:
            # The reader went (``| head``): stop quietly, and let nothing flush into the
            # closed pipe on the way out.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(EXIT_BROKEN_PIPE)
        except OSError as error:
            if error.errno not in (errno.ENOSPC, errno.EIO, errno.EDQUOT):
                raise
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            click.echo(f"freecell: cannot write the output: {error.strerror}", err=True)
            sys.exit(1)


@click.group(cls=_Command, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="freecell")
def main() -> None:
    """FreeCell: the rules engine, the solver and the game."""


main.add_command(rules_command)
main.add_command(deal_command)
main.add_command(replay_command)

for _module, _name in (
    ("freecell.cli.solve_commands", "commands"),
    ("freecell.cli.play_commands", "commands"),
    ("freecell.cli.range_commands", "commands"),
    ("freecell.cli.site_commands", "commands"),
):
    try:
        _commands = __import__(_module, fromlist=[_name]).commands
    except ModuleNotFoundError as _error:
        if _error.name != _module:
            raise
        continue
    for _command in _commands:
        main.add_command(_command)
