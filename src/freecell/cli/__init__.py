"""The ``freecell`` command. Each subcommand lives in its own module and only calls the
library: every rule, score and verdict is decided there."""

from __future__ import annotations

import click

from freecell.cli.core_commands import deal_command, replay_command, rules_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
