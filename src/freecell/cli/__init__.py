"""The ``freecell`` command. Each subcommand lives in its own module and only calls the
library: every rule, score and verdict is decided there. A subcommand's module is imported
only when that subcommand runs (``freecell deal`` never imports the solver, the server or
Rich), so that a command piped in a loop starts at once (``bench/startup.py``)."""

from __future__ import annotations

import errno
import importlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

import click

EXIT_BAD_INPUT = 2
EXIT_BROKEN_PIPE = 128 + 13  # as a shell reports a process stopped by SIGPIPE

# Each subcommand: the module that holds it and its name there.
SUBCOMMANDS: Final = {
    "rules": ("freecell.cli.core_commands", "rules_command"),
    "deal": ("freecell.cli.core_commands", "deal_command"),
    "replay": ("freecell.cli.core_commands", "replay_command"),
    "solve": ("freecell.cli.solve_commands", "solve_command"),
    "play": ("freecell.cli.play_commands", "play_command"),
    "stats": ("freecell.cli.play_commands", "stats_command"),
    "lesson": ("freecell.cli.play_commands", "lesson_command"),
    "range": ("freecell.cli.range_commands", "range_command"),
    "report": ("freecell.cli.range_commands", "report_command"),
    "site": ("freecell.cli.site_commands", "site_command"),
}


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
    a number) come out as one line, like every other refusal, not as a usage block. Its
    subcommands are imported when asked for (:data:`SUBCOMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in SUBCOMMANDS:
            return None
        module_name, name = SUBCOMMANDS[cmd_name]
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:  # an installation without that module
            if error.name != module_name:
                raise
            return None
        command = getattr(module, name)
        assert isinstance(command, click.Command)
        return command

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

